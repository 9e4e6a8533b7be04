# Google Benchmark: the release pinned in cmake/Versions.cmake, built from source with tests off,
# optimised and without assertions in every build type of this project. So no run prints
# "Library was built as DEBUG", and the flags, skips and JSON are the same on every machine.
# Where the source comes from (RB_BENCHMARK):
#   empty (default)  third_party/deps/benchmark-v<version>.tar.gz when it is there (machines
#                    without a network: copy the archive there, as .ci/run does), else the
#                    upstream tag through git
#   <file>           a source archive of the release (a `git archive` of the tag), checked
#                    against RB_BENCHMARK_SHA256 (empty: not checked)
#   <directory>      an unpacked source tree of it
#   system           an installed copy (find_package), only if at least RB_BENCHMARK_MIN_SYSTEM
include(FetchContent)
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
  FetchContent_Declare(googlebenchmark GIT_REPOSITORY https://github.com/google/benchmark.git
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
