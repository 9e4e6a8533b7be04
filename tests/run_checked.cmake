# include()d by the -P test scripts that run programs.
# rb_run_checked(<what> <out_var> <err_var> <command...>): the command's stdout in <out_var> and its
# stderr in <err_var>; a FATAL_ERROR, `<what>: exit status N` and both outputs, unless it exits 0.
function(rb_run_checked what out_var err_var)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "${what}: exit status ${rc}\n${out}${err}")
  endif()
  set(${out_var} "${out}" PARENT_SCOPE)
  set(${err_var} "${err}" PARENT_SCOPE)
endfunction()
