# Every pinned version lives here, once.
# Google Benchmark is built from this release (third_party/benchmark.cmake): the distributions'
# copies differ in flags and skips (1.7.1 on Debian 12, 1.8.3 on the H200 box) and are built
# without NDEBUG. The checksum is that of `git archive` of the tag (GitHub's archive differs).
set(RB_BENCHMARK_VERSION 1.9.5)
set(RB_BENCHMARK_PINNED_SHA256 88217dae2ef18167dcc7b732ea7d21c2013094421aaacbc5556e75855784a5e9)
# RB_BENCHMARK=system: the oldest accepted (skips through SkipWithMessage, time units in flags).
set(RB_BENCHMARK_MIN_SYSTEM 1.8.0)
set(RB_BENCHMARK_GIT_URL https://github.com/google/benchmark.git)
# GoogleTest: the system copy when found, else this tag (third_party/googletest.cmake).
set(RB_GOOGLETEST_GIT_TAG v1.14.0)  # what the H200 box ships; Debian 12 ships 1.12.1
set(RB_GOOGLETEST_GIT_URL https://github.com/google/googletest.git)
# Default CUDA architecture when no GPU is visible at configure time (CI, cross builds).
# 90 = Hopper (H100/H200), the card the committed results come from.
set(RB_DEFAULT_CUDA_ARCHITECTURES 90)
