# rb_git_remote_error(<var> <url> <tag>): empty when `git ls-remote` reaches <tag> at <url>, else
# why not. FetchContent's own failure offline is "Failed to clone repository" with no word of the
# archive that would have done instead; calling this first lets the caller say what to do.
function(rb_git_remote_error var url tag)
  find_package(Git QUIET)
  if(NOT GIT_EXECUTABLE)
    set(${var} "git was not found" PARENT_SCOPE)
    return()
  endif()
  # No prompt for credentials (a mistyped URL), and a bound on a network that drops packets.
  execute_process(COMMAND ${CMAKE_COMMAND} -E env GIT_TERMINAL_PROMPT=0
                          ${GIT_EXECUTABLE} ls-remote --tags ${url} ${tag}
                  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err TIMEOUT 60)
  if(NOT rc EQUAL 0)
    string(REGEX REPLACE "\n.*" "" err "${err}")
    set(${var} "`git ls-remote ${url}` failed (${rc}: ${err})" PARENT_SCOPE)
  elseif(out STREQUAL "")
    set(${var} "${url} has no tag ${tag}" PARENT_SCOPE)
  else()
    set(${var} "" PARENT_SCOPE)
  endif()
endfunction()

# rb_fetch_source_present(<var> <name>): TRUE when FetchContent will not need the network for
# <name>: its source is populated already, given by FETCHCONTENT_SOURCE_DIR_<NAME>, or the user
# said FETCHCONTENT_FULLY_DISCONNECTED.
function(rb_fetch_source_present var name)
  string(TOUPPER "${name}" upper)
  string(TOLOWER "${name}" lower)
  if(FETCHCONTENT_FULLY_DISCONNECTED OR FETCHCONTENT_SOURCE_DIR_${upper}
     OR EXISTS "${FETCHCONTENT_BASE_DIR}/${lower}-src/CMakeLists.txt")
    set(${var} TRUE PARENT_SCOPE)
  else()
    set(${var} FALSE PARENT_SCOPE)
  endif()
endfunction()
