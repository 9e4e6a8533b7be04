# System packages first (Debian: libbenchmark-dev, libgtest-dev); the pinned FetchContent
# fallbacks in third_party/ are used only when find_package fails.
find_package(Threads REQUIRED)

find_package(benchmark CONFIG QUIET)
if(benchmark_FOUND)
  message(STATUS "reduce-bench: Google Benchmark ${benchmark_VERSION} (system)")
else()
  include(${PROJECT_SOURCE_DIR}/third_party/benchmark.cmake)
endif()

if(RB_BUILD_TESTS)
  find_package(GTest CONFIG QUIET)
  if(GTest_FOUND)
    message(STATUS "reduce-bench: GoogleTest ${GTest_VERSION} (system)")
  else()
    include(${PROJECT_SOURCE_DIR}/third_party/googletest.cmake)
  endif()
  include(GoogleTest)
endif()
