# CUDA is optional: without nvcc the project builds CPU-only and GPU backends report as skipped.
#
# Architectures: an explicit -DCMAKE_CUDA_ARCHITECTURES (or the CUDAARCHS environment variable)
# wins; otherwise `native` when nvidia-smi sees a GPU at configure time, else
# RB_DEFAULT_CUDA_ARCHITECTURES (cmake/Versions.cmake). One architecture keeps the CPU-only CI
# build, which still compiles every CUB/Thrust translation unit, short.
set(RB_HAVE_CUDA OFF)
set(RB_CUDA_ARCH_NOTE "")
if(NOT RB_ENABLE_CUDA)
  return()
endif()

if(NOT DEFINED ENV{CUDACXX} AND NOT CMAKE_CUDA_COMPILER AND EXISTS /usr/local/cuda/bin/nvcc)
  set(ENV{CUDACXX} /usr/local/cuda/bin/nvcc)
endif()

include(CheckLanguage)
check_language(CUDA)
if(NOT CMAKE_CUDA_COMPILER)
  message(STATUS "reduce-bench: nvcc not found, building the CPU backends only")
  return()
endif()

if(NOT DEFINED CMAKE_CUDA_ARCHITECTURES AND NOT DEFINED ENV{CUDAARCHS})
  execute_process(COMMAND nvidia-smi --query-gpu=compute_cap --format=csv,noheader
                  RESULT_VARIABLE _rb_smi_rc OUTPUT_VARIABLE _rb_smi_out ERROR_QUIET)
  if(_rb_smi_rc EQUAL 0 AND _rb_smi_out MATCHES "[0-9]")
    set(CMAKE_CUDA_ARCHITECTURES native)
  else()
    set(CMAKE_CUDA_ARCHITECTURES ${RB_DEFAULT_CUDA_ARCHITECTURES})
  endif()
endif()

enable_language(CUDA)
# CMake < 3.26 does not know that nvcc >= 12 speaks C++20 (Debian 12 ships 3.25).
if(NOT DEFINED CMAKE_CUDA20_STANDARD_COMPILE_OPTION AND CMAKE_CUDA_COMPILER_VERSION VERSION_GREATER_EQUAL 12.0)
  set(CMAKE_CUDA20_STANDARD_COMPILE_OPTION "-std=c++20")
  set(CMAKE_CUDA20_EXTENSION_COMPILE_OPTION "-std=c++20")
endif()
set(CMAKE_CUDA_STANDARD 20)
set(CMAKE_CUDA_STANDARD_REQUIRED ON)
set(CMAKE_CUDA_EXTENSIONS OFF)
find_package(CUDAToolkit REQUIRED)
set(RB_HAVE_CUDA ON)
set(RB_CUDA_ARCH_NOTE " (architectures ${CMAKE_CUDA_ARCHITECTURES})")
