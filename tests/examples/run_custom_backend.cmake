# cmake -DPROG=<my_bench> -DHAVE_CUDA=<ON|OFF> -P run_custom_backend.cmake
# Runs examples/custom_backend's executable and checks what a user would see: both backends listed
# (the CUDA one when the package has CUDA), exit status 0, and the closing line's counts: the CPU
# row exact and within its bound at both sizes, the CUDA row too where a GPU is (cold and hot).
# RB_EXPECT_GPU=1 in the environment makes an unavailable CUDA row a failure.
cmake_minimum_required(VERSION 3.25)
include(${CMAKE_CURRENT_LIST_DIR}/../run_checked.cmake)
execute_process(COMMAND ${PROG} --list_backends RESULT_VARIABLE rc OUTPUT_VARIABLE listing ERROR_VARIABLE listing)
message("${listing}")
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "--list_backends: exit status ${rc}")
endif()
if(NOT listing MATCHES "my/cpu_sum4 +[a-z_]+ +available")
  message(FATAL_ERROR "my/cpu_sum4 is not listed as available")
endif()
set(measured 2)
if(HAVE_CUDA)
  if(NOT listing MATCHES "my/cuda_two_pass +[a-z_]+ +(available|unavailable: [^\n]*(CUDA|no usable GPU))")
    message(FATAL_ERROR "my/cuda_two_pass is not listed (the package has CUDA)")
  endif()
  if(listing MATCHES "my/cuda_two_pass +[a-z_]+ +available")
    set(measured 6)
  elseif("$ENV{RB_EXPECT_GPU}" STREQUAL "1")
    message(FATAL_ERROR "RB_EXPECT_GPU=1, but my/cuda_two_pass is unavailable")
  endif()
elseif(listing MATCHES "my/cuda_two_pass")
  message(FATAL_ERROR "my/cuda_two_pass is listed by a package without CUDA")
endif()

rb_run_checked("the run" out err ${PROG} --sizes=1000,1048577)
message("${out}${err}")
# my/cpu_sum4's four float chains at 2^20 + 1 state a bound above 1% of sum|x|: without a bound.
set(expected "${measured} measured: ${measured} exact, [0-9]+ within stated bound, [0-9]+ without a bound; 0 timing only, 0 skipped, 0 failed")
if(NOT err MATCHES "${expected}")
  message(FATAL_ERROR "the closing line does not match '${expected}'")
endif()
foreach(n 1000 1048577)
  if(NOT out MATCHES "my/cpu_sum4/${n}/hot [^\n]* exact, err ")
    message(FATAL_ERROR "no exact=1 row for my/cpu_sum4 at n = ${n}")
  endif()
endforeach()
message("custom_backend: ${measured} rows measured and verified")

# The banner and --version name the bench running, with the harness's version; a bench that runs
# no GPU row has nothing to say about GPUs, unless the package itself has no GPU layer.
if(NOT out MATCHES "^my_bench with reduce_bench [0-9]+[.][0-9]+[.][0-9]+ ")
  message(FATAL_ERROR "the banner does not name my_bench and reduce_bench's version")
endif()
execute_process(COMMAND ${PROG} --version RESULT_VARIABLE rc OUTPUT_VARIABLE version ERROR_VARIABLE err)
if(NOT rc EQUAL 0 OR NOT version MATCHES "^my_bench with reduce_bench [0-9]+[.][0-9]+[.][0-9]+\n$")
  message(FATAL_ERROR "--version: exit status ${rc}, '${version}${err}'")
endif()
rb_run_checked("the CPU row alone" out err ${PROG} --sizes=1000 --benchmark_filter=^my/cpu_sum4/
               --benchmark_min_time=0.001s)
if(NOT listing MATCHES "GPU backends not built" AND "${out}${err}" MATCHES "GPU benchmarks skipped")
  message(FATAL_ERROR "a run of CPU rows alone says GPU benchmarks were skipped:\n${out}${err}")
endif()
