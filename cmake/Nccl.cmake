# NCCL for the nccl/* rows (bench/nccl/), optional: the CUDA toolkit's copy (CPU machines) or the
# system's (/usr/include, /usr/lib/x86_64-linux-gnu on the GPU machines); NCCL_HOME or
# -DRB_NCCL_ROOT=... point elsewhere. Without it the rows are listed unavailable with the reason.
# MPI is optional on top: with it, ranks launched by mpirun exchange NCCL's id through MPI_Bcast;
# without it they use the rendezvous (bench/launch/rendezvous.hpp).
#   RB_HAVE_NCCL, RB_NCCL_REASON, the imported target RB::nccl; RB_HAVE_MPI
include_guard(GLOBAL)
option(RB_ENABLE_NCCL "Build the nccl/* rows when NCCL is found" ON)
option(RB_ENABLE_MPI "Exchange NCCL's id through MPI when MPI is found" ON)
set(RB_HAVE_NCCL OFF)
set(RB_HAVE_MPI OFF)
set(RB_NCCL_REASON "not built: NCCL (nccl.h, libnccl) was not found when this build was configured")
if(NOT RB_HAVE_CUDA OR NOT RB_ENABLE_NCCL)
  set(RB_NCCL_REASON "not built: RB_ENABLE_NCCL is OFF")
  return()
endif()

find_path(RB_NCCL_INCLUDE_DIR nccl.h HINTS ${RB_NCCL_ROOT} $ENV{NCCL_HOME} ${CUDAToolkit_INCLUDE_DIRS}
          PATH_SUFFIXES include)
find_library(RB_NCCL_LIBRARY nccl HINTS ${RB_NCCL_ROOT} $ENV{NCCL_HOME} ${CUDAToolkit_LIBRARY_DIR}
             PATH_SUFFIXES lib lib64)
if(NOT RB_NCCL_INCLUDE_DIR OR NOT RB_NCCL_LIBRARY)
  message(STATUS "reduce-bench: NCCL not found: the nccl/* rows are unavailable")
  return()
endif()
add_library(RB::nccl UNKNOWN IMPORTED)
set_target_properties(RB::nccl PROPERTIES IMPORTED_LOCATION "${RB_NCCL_LIBRARY}"
                                          INTERFACE_INCLUDE_DIRECTORIES "${RB_NCCL_INCLUDE_DIR}")
set(RB_HAVE_NCCL ON)
set(RB_NCCL_REASON "")
if(RB_ENABLE_MPI)
  find_package(MPI QUIET COMPONENTS CXX)
  if(MPI_CXX_FOUND)
    set(RB_HAVE_MPI ON)
    set_property(GLOBAL PROPERTY RB_HAVE_MPI ON)  # for tests/, outside this directory's scope
  endif()
endif()
message(STATUS "reduce-bench: NCCL ${RB_NCCL_LIBRARY}; MPI for the id exchange: ${RB_HAVE_MPI}")
