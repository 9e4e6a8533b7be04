# Warnings for our own targets (not third-party ones). -Wno-restrict: GCC 12 false positive in
# std::string assignment and concatenation at -O3 (GCC PR105329).
add_library(rb_warnings INTERFACE)
target_compile_options(rb_warnings INTERFACE
  $<$<COMPILE_LANGUAGE:CXX>:-Wall -Wextra -Wpedantic -Wshadow -Wno-restrict>
  $<$<COMPILE_LANGUAGE:CUDA>:-Xcompiler=-Wall,-Wextra,-Wno-restrict --Werror cross-execution-space-call>)
