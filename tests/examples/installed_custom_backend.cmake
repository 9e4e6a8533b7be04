# cmake -DBUILD=<reduce_bench build> -DSOURCE=<examples/custom_backend> -DWORK=<dir> -DCONFIG=<type>
#       -DGENERATOR=<gen> -DHAVE_CUDA=<ON|OFF> [-DCXX=.. -DCUDA=.. -DCUDA_ARCHS=.. -DCXX_FLAGS=..
#       -DLINK_FLAGS=..] -P installed_custom_backend.cmake
# What a user outside the repository does: install reduce_bench into a prefix, configure and
# build examples/custom_backend against it with find_package, and run it (run_custom_backend.cmake).
cmake_minimum_required(VERSION 3.25)
file(REMOVE_RECURSE "${WORK}")
set(prefix "${WORK}/prefix")
function(run)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE out)
  if(NOT rc EQUAL 0)
    message("${out}")
    string(JOIN " " cmd ${ARGN})
    message(FATAL_ERROR "failed (${rc}): ${cmd}")
  endif()
endfunction()

run(${CMAKE_COMMAND} --install "${BUILD}" --prefix "${prefix}" --config "${CONFIG}")
if(DEFINED PUBLIC_HEADERS)  # the installed include tree is the public API, nothing else
  run(${CMAKE_COMMAND} -DROOT=${ROOT} "-DHEADERS=${PUBLIC_HEADERS}" -DCUDA=${HAVE_CUDA} -DPREFIX=${prefix}  # |-separated
      -P ${CMAKE_CURRENT_LIST_DIR}/../public_headers.cmake)
endif()
if(NOT EXISTS "${prefix}/lib/cmake/reduce_bench/reduce_benchConfig.cmake" AND
   NOT EXISTS "${prefix}/lib64/cmake/reduce_bench/reduce_benchConfig.cmake")
  message(FATAL_ERROR "the install has no reduce_benchConfig.cmake")
endif()

set(configure ${CMAKE_COMMAND} -S "${SOURCE}" -B "${WORK}/build" -G "${GENERATOR}"
    "-DCMAKE_PREFIX_PATH=${prefix}" "-DCMAKE_BUILD_TYPE=${CONFIG}")
foreach(pair "CXX;CMAKE_CXX_COMPILER" "CUDA;CMAKE_CUDA_COMPILER" "CUDA_ARCHS;CMAKE_CUDA_ARCHITECTURES"
             "CXX_FLAGS;CMAKE_CXX_FLAGS" "LINK_FLAGS;CMAKE_EXE_LINKER_FLAGS")
  list(GET pair 0 var)
  list(GET pair 1 cache)
  if(NOT "${${var}}" STREQUAL "")
    list(APPEND configure "-D${cache}=${${var}}")
  endif()
endforeach()
run(${configure})
run(${CMAKE_COMMAND} --build "${WORK}/build" --config "${CONFIG}")

set(prog "${WORK}/build/my_bench")
if(NOT EXISTS "${prog}")
  set(prog "${WORK}/build/${CONFIG}/my_bench")
endif()
set(PROG "${prog}")
include(${CMAKE_CURRENT_LIST_DIR}/run_custom_backend.cmake)
