# cmake -DDOC=<docs/adding-a-backend.md> -DEXAMPLE=<examples/custom_backend> -DWORK=<dir> (and the
#       variables of installed_custom_backend.cmake) -P doc_snippet.cmake
# The CMakeLists.txt that docs/adding-a-backend.md gives under "Your kernel, outside this
# repository", written to a project of its own beside a copy of the example's CPU adapter, built
# against an install of this build and run: the snippet is complete as printed.
cmake_minimum_required(VERSION 3.25)
file(READ "${DOC}" doc)
string(FIND "${doc}" "## Your kernel, outside this repository" at)
string(SUBSTRING "${doc}" ${at} -1 doc)
string(FIND "${doc}" "```cmake\n" begin)
if(at LESS 0 OR begin LESS 0)
  message(FATAL_ERROR "no cmake block under 'Your kernel, outside this repository' in ${DOC}")
endif()
math(EXPR begin "${begin} + 9")
string(SUBSTRING "${doc}" ${begin} -1 doc)
string(FIND "${doc}" "```" end)
string(SUBSTRING "${doc}" 0 ${end} snippet)
set(project_dir "${WORK}-source")
file(REMOVE_RECURSE "${project_dir}")
file(WRITE "${project_dir}/CMakeLists.txt" "${snippet}")
file(COPY_FILE "${EXAMPLE}/cpu_sum.cpp" "${project_dir}/my_cpu_adapter.cpp")
message("the snippet:\n${snippet}")
set(SOURCE "${project_dir}")
set(HAVE_CUDA OFF)  # the snippet builds the CPU adapter only
include(${CMAKE_CURRENT_LIST_DIR}/installed_custom_backend.cmake)
