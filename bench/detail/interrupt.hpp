#pragma once
// How a run ends other than by finishing: SIGINT/SIGTERM, and an output that cannot be written.
//
// The first SIGINT or SIGTERM only sets a flag: the sampling loop (bench/detail/measure.cpp) ends the
// benchmark running, every later benchmark is skipped at its entry (bench/detail/registry.cpp), and
// Google Benchmark still closes the --benchmark_out JSON over what was measured. The handler
// restores the default action of both signals, so a second one kills at once; with a --benchmark_out
// file, bench/detail/output_file.cpp's handler replaces this one and keeps both signals until the
// second, which saves the JSON's finished rows first. The first is claimed atomically: two signals
// sent back to back may run in two threads at once.
#include <benchmark/benchmark.h>
#include <signal.h>

#include <cstddef>
#include <string>
#include <vector>

namespace rb::bench {

// Installs the handlers of SIGINT and SIGTERM (SA_RESTART: a read in flight is not broken).
void install_interrupt_handlers();

// SIGINT and SIGTERM, the signals the handlers take: a process started by --processes has them
// blocked until install_interrupt_handlers unblocks them.
sigset_t interrupt_signals();
// The first of them, from a handler: sets the flag and says so on stderr, true for the signal that
// set it; false for any later one (then the caller stops the process). Async-signal-safe.
bool first_interrupt(int sig) noexcept;
// Whether one of them arrived. Async-signal-safe, from any thread.
bool interrupted() noexcept;
// The signal that arrived (SIGINT, SIGTERM), 0 when none.
int interrupt_signal() noexcept;

// A benchmark's entry once interrupted: skips it with "skipped: not run: interrupted by SIG..."
// (bench_json.py and the exit status read the prefix as a skip) and counts it for the closing line.
void skip_interrupted(benchmark::State& state, const std::string& name);

// How many benchmarks skip_interrupted skipped: the closing summary counts them among the skipped.
std::size_t not_run_count();

// The closing line of an interrupted run on stderr, and its exit status: kExitFailed when a
// benchmark that ran failed (`status`), else kExitInterrupted. `status` unchanged when no signal came.
int finish_interrupted(int status);

// What is wrong with the --benchmark_out file (the last --benchmark_out= in `args`, else
// $BENCHMARK_OUT, as Google Benchmark reads it): empty when none is asked for or it can be
// written. Probed without truncating; a file the probe had to create is removed again.
std::string unwritable_output(const std::vector<char*>& args);

}  // namespace rb::bench
