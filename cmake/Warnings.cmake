# Warnings for our own targets (not third-party ones). -Wno-restrict: GCC 12 false positive in
# std::string concatenation (GCC PR105329), seen in nvcc host passes.
add_library(rb_warnings INTERFACE)
target_compile_options(rb_warnings INTERFACE
  $<$<COMPILE_LANGUAGE:CXX>:-Wall -Wextra -Wpedantic -Wshadow>
  $<$<COMPILE_LANGUAGE:CUDA>:-Xcompiler=-Wall,-Wextra,-Wno-restrict --Werror cross-execution-space-call>)
