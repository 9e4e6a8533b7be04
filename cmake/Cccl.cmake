# Which CCCL (CUB, Thrust, libcu++) the CUDA code compiles against. Default: the toolkit's.
#
#   -DRB_CCCL=<dir>        a CCCL tree holding cub/, thrust/ and libcudacxx/include (a clone, or
#                          an unpacked release)
#   -DRB_CCCL=<archive>    a .tar.gz/.tgz/.zip of one, by path or URL; FetchContent unpacks it into
#                          the build directory (a GitHub source archive of NVIDIA/cccl works as is)
#   -DRB_CCCL=<tag>        a release tag such as v3.4.2: that tag's source archive from GitHub
#   -DRB_CCCL_SHA256=<hex> checks an archive before it is unpacked (recommended for URLs)
#
# The chosen headers go on the include path of every target ahead of the toolkit's, so one binary
# never mixes two CCCLs. RB_CCCL_VERSION and RB_CCCL_SOURCE say what was used; the JSON context
# reports both (bench/gpu/runner.cpp), the binary's CCCL_VERSION beside them.
set(RB_CCCL "" CACHE STRING "CCCL to build against: a directory, an archive path or URL, or a release tag (empty: the CUDA toolkit's)")
set(RB_CCCL_SHA256 "" CACHE STRING "SHA-256 of the RB_CCCL archive (optional)")
set(RB_CCCL_SOURCE "the CUDA toolkit")
set(RB_CCCL_VERSION "")
if(NOT RB_HAVE_CUDA)
  return()
endif()

# CCCL_VERSION from a libcudacxx include directory: major * 10^6 + minor * 10^3 + patch.
function(rb_cccl_version include_dir out)
  set(header "${include_dir}/cuda/std/__cccl/version.h")
  if(NOT EXISTS "${header}")
    message(FATAL_ERROR "RB_CCCL: ${include_dir} holds no cuda/std/__cccl/version.h: not a CCCL tree")
  endif()
  file(STRINGS "${header}" line REGEX "^#define CCCL_VERSION [0-9]+")
  string(REGEX REPLACE ".* ([0-9]+)$" "\\1" v "${line}")
  math(EXPR major "${v} / 1000000")
  math(EXPR minor "${v} / 1000 % 1000")
  math(EXPR patch "${v} % 1000")
  set(${out} "${major}.${minor}.${patch}" PARENT_SCOPE)
  set(${out}_CODE "${v}" PARENT_SCOPE)
endfunction()

# What every file is told: the version found here (the files that include CCCL check that their
# CCCL_VERSION agrees: an include path the toolkit's headers won would fail the build) and where
# it came from, for the JSON context.
macro(rb_cccl_definitions)
  add_compile_definitions(RB_CCCL_VERSION_CODE=${RB_CCCL_VERSION_CODE} "RB_CCCL_SOURCE=\"${RB_CCCL_SOURCE}\"")
endmacro()

if(RB_CCCL STREQUAL "")
  foreach(dir ${CUDAToolkit_INCLUDE_DIRS})
    foreach(sub "cccl" "")
      if(NOT RB_CCCL_VERSION AND EXISTS "${dir}/${sub}/cuda/std/__cccl/version.h")
        rb_cccl_version("${dir}/${sub}" RB_CCCL_VERSION)
      endif()
    endforeach()
  endforeach()
  rb_cccl_definitions()
  message(STATUS "reduce-bench: CCCL ${RB_CCCL_VERSION} (${RB_CCCL_SOURCE})")
  return()
endif()

set(root "${RB_CCCL}")
if(NOT IS_DIRECTORY "${root}")
  set(url "${RB_CCCL}")
  if(url MATCHES "^v[0-9]+\\.[0-9]+\\.[0-9]+$")
    set(url "https://github.com/NVIDIA/cccl/archive/refs/tags/${RB_CCCL}.tar.gz")
  elseif(NOT url MATCHES "^[a-z]+://")
    get_filename_component(url "${url}" ABSOLUTE)
    if(NOT EXISTS "${url}")
      message(FATAL_ERROR "RB_CCCL=${RB_CCCL}: no such directory or archive")
    endif()
  endif()
  set(hash "")
  if(RB_CCCL_SHA256)
    set(hash URL_HASH SHA256=${RB_CCCL_SHA256})
  endif()
  include(FetchContent)
  # Headers only: SOURCE_SUBDIR names a directory the archive lacks, so nothing of CCCL's own
  # CMake project is configured.
  FetchContent_Declare(rb_cccl URL "${url}" ${hash} DOWNLOAD_EXTRACT_TIMESTAMP ON SOURCE_SUBDIR rb-headers-only)
  FetchContent_MakeAvailable(rb_cccl)
  set(root "${rb_cccl_SOURCE_DIR}")
  set(RB_CCCL_SOURCE "${RB_CCCL}")
  if(RB_CCCL_SHA256)
    string(APPEND RB_CCCL_SOURCE " (sha256 ${RB_CCCL_SHA256})")
  endif()
else()
  get_filename_component(root "${root}" ABSOLUTE)
  set(RB_CCCL_SOURCE "${root}")
endif()

foreach(sub cub thrust libcudacxx/include)
  if(NOT IS_DIRECTORY "${root}/${sub}")
    message(FATAL_ERROR "RB_CCCL=${RB_CCCL}: ${root} has no ${sub}/: not a CCCL tree")
  endif()
endforeach()
rb_cccl_version("${root}/libcudacxx/include" RB_CCCL_VERSION)
include_directories(BEFORE SYSTEM "${root}/cub" "${root}/thrust" "${root}/libcudacxx/include")
rb_cccl_definitions()
message(STATUS "reduce-bench: CCCL ${RB_CCCL_VERSION} from ${RB_CCCL_SOURCE}")
