# Google Benchmark: the pinned release, built here (third_party/benchmark.cmake). GoogleTest: the
# system package (Debian: libgtest-dev) first, the pinned FetchContent fallback otherwise.
find_package(Threads REQUIRED)
include(${PROJECT_SOURCE_DIR}/third_party/benchmark.cmake)

if(RB_BUILD_TESTS)
  find_package(GTest CONFIG QUIET)
  if(GTest_FOUND)
    message(STATUS "reduce-bench: GoogleTest ${GTest_VERSION} (system)")
  else()
    include(${PROJECT_SOURCE_DIR}/third_party/googletest.cmake)
  endif()
  include(GoogleTest)
endif()
