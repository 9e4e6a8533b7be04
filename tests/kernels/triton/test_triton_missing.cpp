// A machine whose Python cannot import triton gets a clean rb::triton::Unavailable naming the
// missing module, never a crash. Simulated with a stub compile.py that imports a module that
// does not exist; the kernel directory is redirected before the interpreter starts. The stub also
// sets SIGINT's and SIGTERM's actions, from Python (refused) and from C (put back when compile()
// returns), as triton's compile and native code may: the embedding program's must stay. Runs with
// or without a GPU (the import is tried before any CUDA call).
#include <gtest/gtest.h>
#include <signal.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>

#include "kernels/triton/runtime.hpp"

namespace {

volatile sig_atomic_t g_taken = 0;
extern "C" void ours(int sig) { g_taken = sig; }

void (*action_of(int sig))(int) {
  struct sigaction now {};
  sigaction(sig, nullptr, &now);
  return now.sa_handler;
}

TEST(TritonMissing, ImportFailureIsUnavailableNotACrashAndTheSignalActionsStay) {
  const auto dir = std::filesystem::temp_directory_path() / ("rb_triton_stub_" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  std::ofstream(dir / "compile.py") << "import ctypes, os, signal\n"
                                       "signal.signal(signal.SIGTERM, signal.SIG_IGN)\n"
                                       "os.kill(os.getpid(), signal.SIGTERM)\n"
                                       "ctypes.CDLL(None).signal(signal.SIGINT, 0)\n"
                                       "import triton_is_not_installed_here\n";
  rb::triton::set_kernel_dir(dir.string());
  struct sigaction mine {};
  mine.sa_handler = ours;
  sigemptyset(&mine.sa_mask);
  struct sigaction before[2] {};
  sigaction(SIGINT, &mine, &before[0]);
  sigaction(SIGTERM, &mine, &before[1]);
  try {
    rb::triton::compile("onepass_kernel", {{"BLOCK", 4096}, {"MAX_PROGS", 4096}}, 8, true);
    ADD_FAILURE() << "compile() succeeded with a stub that cannot import";
  } catch (const rb::triton::Unavailable& e) {
    EXPECT_NE(std::string(e.what()).find("triton_is_not_installed_here"), std::string::npos) << e.what();
  }
  EXPECT_EQ(g_taken, SIGTERM) << "the SIGTERM the stub sent after signal.signal(SIGTERM, SIG_IGN) did not reach "
                                  "the program's handler";
  EXPECT_EQ(action_of(SIGINT), &ours) << "SIGINT's action, set to the default from C, was not put back";
  EXPECT_EQ(action_of(SIGTERM), &ours) << "SIGTERM's action was changed by the Python compile() ran";
  sigaction(SIGINT, &before[0], nullptr);
  sigaction(SIGTERM, &before[1], nullptr);
  std::filesystem::remove_all(dir);
}

TEST(TritonMissing, ReasonIsEmptyOrSaysWhy) {
  const std::string why = rb::triton::unavailable_reason();
  if (!why.empty()) {
    EXPECT_NE(why.find("triton"), std::string::npos) << why;
  }
}

}  // namespace
