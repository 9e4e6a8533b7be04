# cmake -DROOT=<source dir> "-DHEADERS=<RB_PUBLIC_HEADERS, |-separated>" -DCUDA=<ON|OFF> [-DPREFIX=<install prefix>]
#       -P public_headers.cmake
# The public API is closed and honest: every project header a public header includes is public
# too; without the GPU layer no public header includes a CUDA or NCCL header; and, given an
# install prefix, include/reduce_bench/ holds exactly the public headers (no private one).
cmake_minimum_required(VERSION 3.25)
string(REPLACE "|" ";" HEADERS "${HEADERS}")  # passed '|'-separated: a ';' would split the argument
set(problems "")
foreach(h IN LISTS HEADERS)
  file(STRINGS "${ROOT}/${h}" lines REGEX "^[ \t]*#[ \t]*include")
  foreach(line IN LISTS lines)
    if(line MATCHES "\"((bench|common|kernels)/[^\"]+)\"" AND NOT CMAKE_MATCH_1 IN_LIST HEADERS)
      string(APPEND problems "  ${h} includes the private header ${CMAKE_MATCH_1}\n")
    endif()
    if(NOT CUDA AND line MATCHES "<(cuda|nccl|cub/|thrust/)[^>]*>")
      string(APPEND problems "  ${h} includes ${CMAKE_MATCH_0} in a package without the GPU layer\n")
    endif()
  endforeach()
endforeach()
if(DEFINED PREFIX)
  file(GLOB_RECURSE installed RELATIVE "${PREFIX}/include/reduce_bench" "${PREFIX}/include/reduce_bench/*")
  list(SORT installed)
  set(want ${HEADERS})
  list(SORT want)
  if(NOT installed STREQUAL want)
    string(APPEND problems "  installed headers: ${installed}\n  public headers:    ${want}\n")
  endif()
endif()
if(problems)
  message(FATAL_ERROR "public API:\n${problems}")
endif()
list(LENGTH HEADERS count)
message("public API: ${count} headers, closed")
