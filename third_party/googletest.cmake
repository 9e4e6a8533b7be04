# Fallback for machines without a system GoogleTest: pinned release, gmock off.
include(FetchContent)
message(STATUS "reduce-bench: fetching GoogleTest ${RB_GOOGLETEST_GIT_TAG}")
set(BUILD_GMOCK OFF CACHE BOOL "" FORCE)
set(INSTALL_GTEST OFF CACHE BOOL "" FORCE)
FetchContent_Declare(googletest
  GIT_REPOSITORY https://github.com/google/googletest.git
  GIT_TAG ${RB_GOOGLETEST_GIT_TAG}
  GIT_SHALLOW TRUE)
FetchContent_MakeAvailable(googletest)
