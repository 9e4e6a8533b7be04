# include()d by the -P scripts that read `${PROG} --list_backends`: its output in `listing`, one list
# item a line in `lines`, and rb_run_checked (tests/run_checked.cmake) for their other runs.
# Reasons may hold ';', CMake's list separator: it travels as byte 1 (`semicolon`) until the comparison.
include(${CMAKE_CURRENT_LIST_DIR}/../run_checked.cmake)
rb_run_checked("--list_backends" listing err ${PROG} --list_backends)
string(ASCII 1 semicolon)
string(REPLACE ";" "${semicolon}" listing "${listing}")
string(REPLACE "\n" ";" lines "${listing}")
