# Google Benchmark: the release pinned in cmake/Versions.cmake, built from source with tests off,
# optimised and without assertions in every build type of this project. So no run prints
# "Library was built as DEBUG", and the flags, skips and JSON are the same on every machine.
# Where the source comes from (RB_BENCHMARK):
#   empty (default)  third_party/deps/benchmark-v<version>.tar.gz when it is there (machines
#                    without a network: copy the archive there, as .ci/run does), else the
#                    upstream tag through git; where git cannot reach it, configure stops and
#                    says which archive to put where
#   <file>           a source archive of the release (a `git archive` of the tag), checked
#                    against RB_BENCHMARK_SHA256 (empty: not checked)
#   <directory>      an unpacked source tree of it
#   system           an installed copy (find_package), only if at least RB_BENCHMARK_MIN_SYSTEM
include(FetchContent)
include(${CMAKE_CURRENT_LIST_DIR}/../cmake/GitRemote.cmake)
set(RB_BENCHMARK "" CACHE STRING
    "Google Benchmark source: empty (pinned release), an archive, a source directory, or 'system'")
set(RB_BENCHMARK_SHA256 "${RB_BENCHMARK_PINNED_SHA256}" CACHE STRING
    "SHA-256 of the RB_BENCHMARK archive (default: the pinned release's git archive)")
set(_rb_gb_archive "${PROJECT_SOURCE_DIR}/third_party/deps/benchmark-v${RB_BENCHMARK_VERSION}.tar.gz")

if(RB_BENCHMARK STREQUAL "system")
  find_package(benchmark ${RB_BENCHMARK_MIN_SYSTEM} CONFIG)
  if(NOT benchmark_FOUND)
    message(FATAL_ERROR "RB_BENCHMARK=system: no installed Google Benchmark ${RB_BENCHMARK_MIN_SYSTEM} or newer "
                        "(found: '${benchmark_VERSION}'); leave RB_BENCHMARK empty to build the pinned release")
  endif()
  set(RB_BENCHMARK_SOURCE "system ${benchmark_VERSION}")
  message(STATUS "reduce-bench: Google Benchmark ${benchmark_VERSION} (system; its build type is its own)")
  return()
endif()

set(BENCHMARK_ENABLE_TESTING OFF CACHE BOOL "" FORCE)
set(BENCHMARK_ENABLE_GTEST_TESTS OFF CACHE BOOL "" FORCE)
set(BENCHMARK_ENABLE_WERROR OFF CACHE BOOL "" FORCE)
set(BENCHMARK_ENABLE_LIBPFM OFF CACHE BOOL "" FORCE)
set(BENCHMARK_INSTALL_DOCS OFF CACHE BOOL "" FORCE)
set(BENCHMARK_INSTALL_TOOLS OFF CACHE BOOL "" FORCE)
# Installed beside the package (cmake/Install.cmake): a user's build finds this copy, not another.
set(BENCHMARK_ENABLE_INSTALL ON CACHE BOOL "" FORCE)

if(RB_BENCHMARK STREQUAL "" AND EXISTS "${_rb_gb_archive}")
  set(_rb_gb "${_rb_gb_archive}")
else()
  set(_rb_gb "${RB_BENCHMARK}")
endif()
if(_rb_gb STREQUAL "")
  set(RB_BENCHMARK_SOURCE "git tag v${RB_BENCHMARK_VERSION}")
  rb_fetch_source_present(_rb_gb_present googlebenchmark)
  if(NOT _rb_gb_present)
    rb_git_remote_error(_rb_gb_error ${RB_BENCHMARK_GIT_URL} v${RB_BENCHMARK_VERSION})
    if(_rb_gb_error)
      cmake_path(RELATIVE_PATH _rb_gb_archive BASE_DIRECTORY "${PROJECT_SOURCE_DIR}" OUTPUT_VARIABLE _rb_gb_rel)
      message(FATAL_ERROR
        "reduce-bench: Google Benchmark ${RB_BENCHMARK_VERSION} cannot be fetched: ${_rb_gb_error}; and "
        "${_rb_gb_rel} is not there.\n"
        "Without a network, copy the release's source archive to ${_rb_gb_archive} "
        "(SHA-256 ${RB_BENCHMARK_PINNED_SHA256}). It is a "
        "`git archive` of the tag, made where there is a network:\n"
        "  git clone -b v${RB_BENCHMARK_VERSION} ${RB_BENCHMARK_GIT_URL} benchmark && git -C benchmark archive "
        "--format=tar.gz --prefix=benchmark-${RB_BENCHMARK_VERSION}/ -o benchmark-v${RB_BENCHMARK_VERSION}.tar.gz "
        "v${RB_BENCHMARK_VERSION}\n"
        "Or name another source of that release: -DRB_BENCHMARK=<archive or source directory> (with "
        "-DRB_BENCHMARK_SHA256= for GitHub's own archive, "
        "https://github.com/google/benchmark/archive/refs/tags/v${RB_BENCHMARK_VERSION}.tar.gz), or "
        "-DRB_BENCHMARK=system for an installed ${RB_BENCHMARK_MIN_SYSTEM} or newer. See third_party/README.md.")
    endif()
  endif()
  FetchContent_Declare(googlebenchmark GIT_REPOSITORY ${RB_BENCHMARK_GIT_URL}
                       GIT_TAG v${RB_BENCHMARK_VERSION} GIT_SHALLOW TRUE)
elseif(IS_DIRECTORY "${_rb_gb}")
  set(RB_BENCHMARK_SOURCE "${_rb_gb}")
  FetchContent_Declare(googlebenchmark SOURCE_DIR "${_rb_gb}")
elseif(EXISTS "${_rb_gb}")
  set(RB_BENCHMARK_SOURCE "${_rb_gb}")
  set(_rb_gb_hash "")
  if(NOT RB_BENCHMARK_SHA256 STREQUAL "")
    set(_rb_gb_hash URL_HASH SHA256=${RB_BENCHMARK_SHA256})
  endif()
  FetchContent_Declare(googlebenchmark URL "${_rb_gb}" ${_rb_gb_hash})
else()
  message(FATAL_ERROR "RB_BENCHMARK='${RB_BENCHMARK}' is neither 'system', a directory nor a file")
endif()
message(STATUS "reduce-bench: Google Benchmark ${RB_BENCHMARK_VERSION} from ${RB_BENCHMARK_SOURCE} (built Release)")
FetchContent_MakeAvailable(googlebenchmark)
get_target_property(benchmark_VERSION benchmark VERSION)
if(NOT benchmark_VERSION VERSION_EQUAL RB_BENCHMARK_VERSION)
  message(FATAL_ERROR "RB_BENCHMARK gave Google Benchmark ${benchmark_VERSION}, not the pinned ${RB_BENCHMARK_VERSION}")
endif()
foreach(_rb_t benchmark benchmark_main)
  target_compile_definitions(${_rb_t} PRIVATE NDEBUG)
  target_compile_options(${_rb_t} PRIVATE -O2)
endforeach()
