#pragma once
// --processes=P: the run repeated in P fresh processes, one after another, and their results
// pooled (bench/detail/pooled.hpp), so that a row's interval covers what a process draws once.
// This process only starts them: it touches no GPU and measures nothing itself.
#include <string>
#include <vector>

#include "bench/detail/options.hpp"

namespace rb::bench {

// `argv`: this process's arguments as given (argv[0] first). Each process gets them less
// --processes and --benchmark_out*, writing its JSON to a temporary; the pooled document goes to
// --benchmark_out (JSON only). The exit status: the first process's usage error or empty
// selection at once; else the first failing process's status; an interrupted process (exit 5 or
// a signal) ends the series, and what finished is pooled.
int run_processes(const std::vector<std::string>& argv, const Options& options);

}  // namespace rb::bench
