# cmake -DROOT=<source dir> [-DMIN_FILES=<n>] -P layering.cmake
# The layers and what each may include (README "Architecture"); fails naming every violation.
#   common/    common/ only
#   kernels/   kernels/, common/
#   bench/     bench/, kernels/, common/
#   tools/     tools/, common/
#   examples/  bench/, common/ (what the installed package ships) and the example's own files
# Within bench/, its folders are layers of their own, each including only those listed:
#   api/       api/ (the installed headers: what a user's backend is written against)
#   detail/    api/, detail/ (the mechanics: options, input, references, checks, sampling, outcomes)
#   launch/    api/, detail/, launch/ (the ranks of a launcher, their rendezvous and agreement)
#   cpu/, gpu/ those three and the folder itself (the strategies' loops; neither sees the other)
#   nccl/      those three, gpu/, nccl/ (the rows across GPUs)
#   backends/  every folder but the root (the adapters)
#   bench/*    the root (main, the binding of every strategy): everything
# And the generic harness names no backend: outside bench/backends/ (the adapters) and bench/nccl/
# (the rows across GPUs), no code line (comments aside) mentions NCCL or holds a string literal
# that starts with a built-in backend's name or prefix.
# Project includes are spelled from the source root ("bench/api/gpu_backend.hpp"); a quoted include
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

set(bench_api api)
set(bench_detail api detail)
set(bench_launch api detail launch)
set(bench_cpu api detail launch cpu)
set(bench_gpu api detail launch gpu)
set(bench_nccl api detail launch gpu nccl)
set(bench_backends api detail launch cpu gpu nccl backends)

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
      elseif(f MATCHES "^bench/[^/]+/" AND path MATCHES "^bench/")
        string(REGEX REPLACE "^bench/([^/]+)/.*" "\\1" sub "${f}")
        set(into "")  # empty: a file at bench/'s root, the top, which no folder includes
        if(path MATCHES "^bench/[^/]+/")
          string(REGEX REPLACE "^bench/([^/]+)/.*" "\\1" into "${path}")
        endif()
        if(DEFINED bench_${sub} AND NOT into IN_LIST bench_${sub})
          string(APPEND violations
                 "  ${f}: #include \"${path}\" (bench/${sub}/ may include bench/: ${bench_${sub}})\n")
        endif()
      endif()
    endforeach()
  endforeach()
endforeach()

set(backend_literal "\"[^\"]*(nccl|cub[^a-z]|cuda/|thrust/|triton/|torch/|ref/|tune/|\"cpu/)")
file(GLOB_RECURSE generic RELATIVE "${ROOT}" "${ROOT}/bench/*.hpp" "${ROOT}/bench/*.cpp" "${ROOT}/bench/*.cuh"
     "${ROOT}/bench/*.cu")
foreach(f IN LISTS generic)
  if(f MATCHES "^bench/(backends|nccl)/")
    continue()
  endif()
  file(STRINGS "${ROOT}/${f}" lines)
  foreach(line IN LISTS lines)
    string(REGEX REPLACE "//.*$" "" code "${line}")
    string(TOLOWER "${code}" lower)
    if(lower MATCHES "nccl" OR code MATCHES "${backend_literal}")
      string(STRIP "${code}" code)
      string(APPEND violations "  ${f}: names a backend in generic code: ${code}\n")
    endif()
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
