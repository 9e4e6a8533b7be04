# Fallback for machines without a system GoogleTest: pinned release, gmock off.
include(FetchContent)
include(${CMAKE_CURRENT_LIST_DIR}/../cmake/GitRemote.cmake)
message(STATUS "reduce-bench: fetching GoogleTest ${RB_GOOGLETEST_GIT_TAG}")
set(BUILD_GMOCK OFF CACHE BOOL "" FORCE)
set(INSTALL_GTEST OFF CACHE BOOL "" FORCE)
rb_fetch_source_present(_rb_gt_present googletest)
if(NOT _rb_gt_present)
  rb_git_remote_error(_rb_gt_error ${RB_GOOGLETEST_GIT_URL} ${RB_GOOGLETEST_GIT_TAG})
  if(_rb_gt_error)
    message(FATAL_ERROR
      "reduce-bench: the tests need GoogleTest: no installed copy was found, and the pinned "
      "${RB_GOOGLETEST_GIT_TAG} cannot be fetched: ${_rb_gt_error}.\n"
      "Install it (Debian, Ubuntu: apt install libgtest-dev), or point to a source tree of that tag with "
      "-DFETCHCONTENT_SOURCE_DIR_GOOGLETEST=<dir>, or configure without the tests: -DRB_BUILD_TESTS=OFF.")
  endif()
endif()
FetchContent_Declare(googletest
  GIT_REPOSITORY ${RB_GOOGLETEST_GIT_URL}
  GIT_TAG ${RB_GOOGLETEST_GIT_TAG}
  GIT_SHALLOW TRUE)
FetchContent_MakeAvailable(googletest)
