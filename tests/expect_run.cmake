# cmake -DPROG=<program> -DARGS="arg|arg|..." -DRC=<expected exit code> [-DMATCH=<regex on stdout+stderr>]
#       [-DSKIP_UNLESS=<regex that `prog --list_backends` must match, else print "skipped: ...">]
#       -P expect_run.cmake
set(prog "${PROG}")
string(REPLACE "|" ";" args "${ARGS}")
if(DEFINED SKIP_UNLESS)
  execute_process(COMMAND ${prog} --list_backends OUTPUT_VARIABLE listing ERROR_VARIABLE listing)
  if(NOT listing MATCHES "${SKIP_UNLESS}")
    message("skipped: `${prog} --list_backends` does not match '${SKIP_UNLESS}'")
    return()  # SKIP_REGULAR_EXPRESSION "^skipped: " marks the test skipped
  endif()
endif()
execute_process(COMMAND ${prog} ${args} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
message("${out}${err}")
if(NOT rc STREQUAL RC)
  message(FATAL_ERROR "exit status ${rc}, expected ${RC}")
endif()
if(DEFINED MATCH AND NOT "${out}${err}" MATCHES "${MATCH}")
  message(FATAL_ERROR "output does not match '${MATCH}'")
endif()
