# cmake -DROOT=<source dir> [-DMIN_FILES=<n>] -P layering.cmake
# The layers and what each may include (README "Architecture"); fails naming every violation.
#   common/    common/ only
#   kernels/   kernels/, common/
#   bench/     bench/, kernels/, common/
#   tools/     tools/, common/
#   examples/  bench/, common/ (what the installed package ships) and the example's own files
# Project includes are spelled from the source root ("bench/gpu/backend.hpp"); a quoted include
# whose first component is not a layer (a header next to the file) is local and allowed.
cmake_minimum_required(VERSION 3.25)
if(NOT DEFINED ROOT)
  message(FATAL_ERROR "usage: cmake -DROOT=<source dir> -P layering.cmake")
endif()

set(layers common kernels bench tools examples tests)
set(allowed_common common)
set(allowed_kernels kernels common)
set(allowed_bench bench kernels common)
set(allowed_tools tools common)
set(allowed_examples bench common)

set(violations "")
set(checked 0)
foreach(layer common kernels bench tools examples)
  file(GLOB_RECURSE files RELATIVE "${ROOT}" "${ROOT}/${layer}/*.hpp" "${ROOT}/${layer}/*.cpp"
       "${ROOT}/${layer}/*.cuh" "${ROOT}/${layer}/*.cu" "${ROOT}/${layer}/*.h")
  foreach(f IN LISTS files)
    math(EXPR checked "${checked} + 1")
    file(STRINGS "${ROOT}/${f}" lines REGEX "^[ \t]*#[ \t]*include[ \t]*\"")
    foreach(line IN LISTS lines)
      string(REGEX REPLACE "^[ \t]*#[ \t]*include[ \t]*\"([^\"]+)\".*" "\\1" path "${line}")
      string(REGEX MATCH "^[^/]+" top "${path}")
      if(NOT path MATCHES "/" OR NOT top IN_LIST layers)
        continue()  # a local header
      endif()
      if(NOT top IN_LIST allowed_${layer})
        string(APPEND violations "  ${f}: #include \"${path}\" (${layer}/ may include: ${allowed_${layer}})\n")
      endif()
    endforeach()
  endforeach()
endforeach()

if(NOT DEFINED MIN_FILES)
  set(MIN_FILES 50)
endif()
if(checked LESS MIN_FILES)
  message(FATAL_ERROR "only ${checked} files found under ${ROOT}: wrong ROOT?")
endif()
if(violations)
  message(FATAL_ERROR "layering violations:\n${violations}")
endif()
message("layering: ${checked} files, every include points down the layers")
