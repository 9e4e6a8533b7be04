# cmake -DRB_ROOT=<repository> -DWORK=<scratch dir> -P offline_message.cmake
# Configures offline_fixture/ for each dependency fetched with git and checks that configure stops
# with reduce-bench's message, naming what to put where, not FetchContent's bare clone failure.
set(fixture ${CMAKE_CURRENT_LIST_DIR}/offline_fixture)
include(${RB_ROOT}/cmake/Versions.cmake)
set(expect_benchmark "third_party/deps/benchmark-v${RB_BENCHMARK_VERSION}.tar.gz is not there"
                     "git -C benchmark archive" "${RB_BENCHMARK_PINNED_SHA256}" "-DRB_BENCHMARK=")
set(expect_googletest "apt install libgtest-dev" "-DRB_BUILD_TESTS=OFF")
foreach(dep benchmark googletest)
  file(REMOVE_RECURSE ${WORK}/${dep})
  execute_process(COMMAND ${CMAKE_COMMAND} -S ${fixture} -B ${WORK}/${dep} -DRB_ROOT=${RB_ROOT} -DRB_DEP=${dep}
                  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err TIMEOUT 120)
  # CMake wraps an error's lines: compare with the line breaks and indentation taken out.
  string(REGEX REPLACE "\n *" " " text "${out}${err}")
  if(rc EQUAL 0)
    message(FATAL_ERROR "${dep}: configure succeeded with no network and no archive:\n${out}${err}")
  endif()
  if(NOT text MATCHES "reduce-bench: .* cannot be fetched: `git ls-remote file://")
    message(FATAL_ERROR "${dep}: no reduce-bench message on the failed fetch:\n${out}${err}")
  endif()
  foreach(want IN LISTS expect_${dep})
    string(FIND "${text}" "${want}" at)
    if(at LESS 0)
      message(FATAL_ERROR "${dep}: the message does not say \"${want}\":\n${out}${err}")
    endif()
  endforeach()
  if(text MATCHES "Failed to clone repository|returned without the network")
    message(FATAL_ERROR "${dep}: FetchContent was reached:\n${out}${err}")
  endif()
  message(STATUS "${dep}: configure stopped with reduce-bench's message")
endforeach()
