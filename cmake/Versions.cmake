# Every pinned version lives here, once.
# Fallbacks used only when find_package() cannot find a system copy (see third_party/).
set(RB_BENCHMARK_GIT_TAG  v1.8.3)   # what the H200 box ships; Debian 12 ships 1.7.1
set(RB_GOOGLETEST_GIT_TAG v1.14.0)  # what the H200 box ships; Debian 12 ships 1.12.1
# Default CUDA architecture when no GPU is visible at configure time (CI, cross builds).
# 90 = Hopper (H100/H200), the card the committed results come from.
set(RB_DEFAULT_CUDA_ARCHITECTURES 90)
