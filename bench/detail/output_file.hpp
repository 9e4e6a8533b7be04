#pragma once
// The --benchmark_out file, whole or absent. Google Benchmark streams rows into the file and never
// checks a write, so a full disk, a concurrent writer or a kill would leave it cut off: it writes
// a temporary instead, which is checked and then renamed onto the file (or copied into a device).
// A second signal, which stops at once, saves the JSON's rows reported so far, closed (a JSON
// that parses), or leaves the file as it was when no row was reported.
#include <benchmark/benchmark.h>
#include <sys/types.h>

#include <memory>
#include <string>
#include <vector>

namespace rb::bench {

// What a path names: nothing, or one file as last modified (what a rename or a write changes).
struct FileIdentity {
  bool exists = false;
  dev_t dev = 0;
  ino_t ino = 0;
  long long mtime_ns = 0;
  off_t size = 0;
  bool operator==(const FileIdentity&) const = default;
};
FileIdentity identify(const std::string& path);

// Why the output in `fd` is not whole for --benchmark_out_format `format`, empty when it is: JSON
// must end with the reporter's closing lines, csv and console with a newline.
std::string incomplete(int fd, const std::string& format);

// One process's --benchmark_out: at most one at a time (a signal handler finds its temporary).
class OutputFile {
 public:
  OutputFile() = default;
  OutputFile(const OutputFile&) = delete;
  OutputFile& operator=(const OutputFile&) = delete;
  ~OutputFile() { discard(); }

  // Before benchmark::Initialize: points the last --benchmark_out=FILE in `args` (else
  // $BENCHMARK_OUT, by an added flag) at a new temporary, beside FILE when FILE is a regular file
  // or absent, else in $TMPDIR. Empty, or why it cannot (a usage error); no flag, nothing done.
  // From then on a SIGINT or SIGTERM whose action is the default (start-up) removes the temporary
  // before it kills, leaving FILE as it was.
  std::string redirect(std::vector<char*>& args);
  // From now on a second SIGINT or SIGTERM saves the rows reported so far onto FILE (a JSON file
  // into a regular FILE, with at least one row: saving_rows), removes the temporary, then kills as
  // before. Call after install_interrupt_handlers() (bench/detail/interrupt.hpp), whose handler
  // it chains to.
  void remove_on_second_signal();
  // The --benchmark_out JSON reporter `json` (not owned), wrapped: after each report the bytes
  // written so far are whole rows, which are what a second signal saves.
  std::unique_ptr<benchmark::BenchmarkReporter> saving_rows(benchmark::BenchmarkReporter* json);
  // After benchmark::Shutdown(): the temporary checked whole and synced, then renamed onto FILE
  // (or copied into it). False when it could not be, said on stderr; FILE is then as it was.
  bool commit();
  // Removes the temporary; FILE is left as it was.
  void discard();

  const std::string& target() const { return target_; }
  const std::string& format() const { return format_; }  // --benchmark_out_format's value
  const std::string& temporary() const { return temp_; }

 private:
  std::string move_into_place();
  std::string copy_into_target();

  std::string target_, temp_, format_, flag_;
  bool owns_ = false;  // the temporary exists and is this object's to remove
  bool copy_ = false;  // FILE is not a regular file (a device, a FIFO, a link): its bytes are copied
  FileIdentity before_;
  int fd_ = -1;  // the temporary, open since before the run: fsync reports every write's error
};

}  // namespace rb::bench
