# The installed package: `cmake --install <build> --prefix <prefix>`, then in a user's project
#   find_package(reduce_bench CONFIG REQUIRED)
#   add_executable(my_bench my_adapter.cpp)
#   target_link_libraries(my_bench PRIVATE reduce_bench::main)
# reduce_bench::harness   timing, L2 flush, verification, CLI and the registration API
# reduce_bench::main      main() with every flag of reduce_bench, over what the executable registered
# Layout under the prefix:
#   bin/reduce_bench                                   the executable with the built-in backends
#   include/reduce_bench/{bench,common}/...            the public headers (RB_PUBLIC_HEADERS below)
#   lib/librb_harness.a, lib/librb_common.a, ...       the libraries
#   lib/reduce_bench/objects-<config>/rb_main/main.cpp.o   main()
#   lib/cmake/reduce_bench/                            reduce_benchConfig.cmake and the targets
# The built-in backends (bench/backends) and kernels are not part of the package.
include(CMakePackageConfigHelpers)

set(RB_INSTALL_CMAKEDIR ${CMAKE_INSTALL_LIBDIR}/cmake/reduce_bench)

install(TARGETS reduce_bench RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
# The Triton rows compile these at run time: the installed binary finds them beside itself
# (kernels/triton/runtime.cpp), not in the source tree.
if(RB_HAVE_TRITON)
  install(FILES ${PROJECT_SOURCE_DIR}/kernels/triton/sum.py ${PROJECT_SOURCE_DIR}/kernels/triton/compile.py
          DESTINATION ${CMAKE_INSTALL_DATADIR}/reduce_bench/triton)
endif()

# The Google Benchmark built here is installed with the package (third_party/benchmark.cmake), so a
# user's build finds the same release through find_dependency.
set(RB_PACKAGE ON)

set_target_properties(rb_harness PROPERTIES EXPORT_NAME harness)
set_target_properties(rb_main PROPERTIES EXPORT_NAME main)
set_target_properties(rb_common PROPERTIES EXPORT_NAME common)
set(_rb_exported rb_harness rb_main rb_common)
if(RB_HAVE_CUDA)
  set_target_properties(rb_cuda_check PROPERTIES EXPORT_NAME cuda_check)
  list(APPEND _rb_exported rb_cuda_check)
endif()
install(TARGETS ${_rb_exported} EXPORT reduce_bench_targets
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
        OBJECTS DESTINATION ${CMAKE_INSTALL_LIBDIR}/reduce_bench)
install(EXPORT reduce_bench_targets NAMESPACE reduce_bench:: FILE reduce_benchTargets.cmake
        DESTINATION ${RB_INSTALL_CMAKEDIR})

# The public API, and only it, installs: what a user's file includes to write, describe and register
# a backend (definitions, problem, structure, determinism, registration), at their source paths
# under include/reduce_bench/ ("bench/api/cpu_backend.hpp"). main() comes compiled (rb_main), so no
# other header is needed; the GPU part only where the GPU layer was built, so a CPU-only package
# holds no CUDA or NCCL header. tests/public_headers.cmake checks that these include nothing else.
set(RB_PUBLIC_HEADERS bench/api/cpu_backend.hpp bench/api/definition.hpp bench/api/determinism.hpp bench/api/registration.hpp
                      bench/api/summation.hpp common/shape.hpp)
if(RB_HAVE_CUDA)
  list(APPEND RB_PUBLIC_HEADERS bench/api/gpu_backend.hpp bench/api/gpu_memory.hpp common/cuda_check.hpp common/dtype.hpp)
endif()
foreach(_rb_h IN LISTS RB_PUBLIC_HEADERS)
  get_filename_component(_rb_dir "${_rb_h}" DIRECTORY)
  install(FILES ${PROJECT_SOURCE_DIR}/${_rb_h} DESTINATION ${RB_INSTALL_INCLUDEDIR}/${_rb_dir})
endforeach()

set(RB_PACKAGE_CUDA_ARCHITECTURES "${CMAKE_CUDA_ARCHITECTURES}")
get_property(RB_PACKAGE_HAVE_MPI GLOBAL PROPERTY RB_HAVE_MPI)  # cmake/Nccl.cmake
if(NOT RB_PACKAGE_HAVE_MPI)
  set(RB_PACKAGE_HAVE_MPI OFF)
endif()
configure_package_config_file(${CMAKE_CURRENT_LIST_DIR}/reduce_benchConfig.cmake.in
                              ${PROJECT_BINARY_DIR}/reduce_benchConfig.cmake
                              INSTALL_DESTINATION ${RB_INSTALL_CMAKEDIR})
write_basic_package_version_file(${PROJECT_BINARY_DIR}/reduce_benchConfigVersion.cmake
                                 COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/reduce_benchConfig.cmake ${PROJECT_BINARY_DIR}/reduce_benchConfigVersion.cmake
        DESTINATION ${RB_INSTALL_CMAKEDIR})
