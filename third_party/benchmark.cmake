# Fallback for machines without a system Google Benchmark: pinned release, tests off.
include(FetchContent)
message(STATUS "reduce-bench: fetching Google Benchmark ${RB_BENCHMARK_GIT_TAG}")
set(BENCHMARK_ENABLE_TESTING OFF CACHE BOOL "" FORCE)
set(BENCHMARK_ENABLE_GTEST_TESTS OFF CACHE BOOL "" FORCE)
set(BENCHMARK_ENABLE_INSTALL OFF CACHE BOOL "" FORCE)
set(BENCHMARK_ENABLE_WERROR OFF CACHE BOOL "" FORCE)
FetchContent_Declare(googlebenchmark
  GIT_REPOSITORY https://github.com/google/benchmark.git
  GIT_TAG ${RB_BENCHMARK_GIT_TAG}
  GIT_SHALLOW TRUE)
FetchContent_MakeAvailable(googlebenchmark)
