// A machine whose Python cannot import triton gets a clean rb::triton::Unavailable naming the
// missing module, never a crash. Simulated with a stub compile.py that imports a module that
// does not exist; the kernel directory is redirected before the interpreter starts. Runs with or
// without a GPU (the import is tried before any CUDA call).
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>

#include "kernels/triton/runtime.hpp"

namespace {

TEST(TritonMissing, ImportFailureIsUnavailableNotACrash) {
  const auto dir = std::filesystem::temp_directory_path() / ("rb_triton_stub_" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  std::ofstream(dir / "compile.py") << "import triton_is_not_installed_here\n";
  rb::triton::set_kernel_dir(dir.string());
  try {
    rb::triton::compile("onepass_kernel", {{"BLOCK", 4096}, {"MAX_PROGS", 4096}}, 8, true);
    ADD_FAILURE() << "compile() succeeded with a stub that cannot import";
  } catch (const rb::triton::Unavailable& e) {
    EXPECT_NE(std::string(e.what()).find("triton_is_not_installed_here"), std::string::npos) << e.what();
  }
  std::filesystem::remove_all(dir);
}

TEST(TritonMissing, ReasonIsEmptyOrSaysWhy) {
  const std::string why = rb::triton::unavailable_reason();
  if (!why.empty()) {
    EXPECT_NE(why.find("triton"), std::string::npos) << why;
  }
}

}  // namespace
