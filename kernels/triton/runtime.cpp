#include "kernels/triton/runtime.hpp"

#include <pybind11/embed.h>
#include <signal.h>

#include <filesystem>
#include <memory>
#include <mutex>
#include <sstream>

#include "common/cuda_check.hpp"

namespace py = pybind11;

namespace rb::triton {
namespace {

std::string& chosen_dir() {
  static std::string dir;
  return dir;
}

// The installed copy beside the executable (cmake/Install.cmake), else the source tree's.
std::string default_dir() {
  std::error_code ec;
  const auto exe = std::filesystem::read_symlink("/proc/self/exe", ec);
  if (!ec) {
    const auto installed = exe.parent_path().parent_path() / "share" / "reduce_bench" / "triton";
    if (std::filesystem::exists(installed / "sum.py", ec)) return installed.string();
  }
  return RB_TRITON_KERNEL_DIR;  // kernels/triton in the source tree, set by CMake
}

// Python's signal.signal, made to leave SIGINT and SIGTERM alone (their actions belong to the
// embedding program; triton's compile sets the default action on both).
constexpr const char* kKeepSignals = R"(
import _signal
def _keep_int_and_term(signalnum, handler, _set=_signal.signal, _get=_signal.getsignal):
    if signalnum in (_signal.SIGINT, _signal.SIGTERM):
        return _get(signalnum)
    return _set(signalnum, handler)
_signal.signal = _keep_int_and_term
)";

// The interpreter lives until the process exits: finalizing Python with triton loaded is not
// safe, and nothing needs it gone. sys.path gets the configure-time interpreter's entries so an
// embedded interpreter finds a virtual environment's packages (torch, triton).
void ensure_interpreter() {
  static std::once_flag once;
  std::call_once(once, [] {
    if (!Py_IsInitialized()) py::initialize_interpreter();
    py::exec(kKeepSignals, py::dict());
    py::module_ sys = py::module_::import("sys");
    py::list path = sys.attr("path");
    std::stringstream configured(RB_PYTHON_SYS_PATH);
    std::string entry;
    std::vector<std::string> extra;
    while (std::getline(configured, entry, ':')) {
      if (!entry.empty()) extra.push_back(entry);
    }
    extra.push_back(kernel_dir());
    for (auto it = extra.rbegin(); it != extra.rend(); ++it) {
      if (!path.contains(*it)) path.insert(0, *it);
    }
  });
}

std::string describe(const py::error_already_set& e) { return e.what(); }

// SIGINT and SIGTERM belong to the program that embeds Python (reduce_bench ends its run cleanly on
// them). Python code cannot change their actions (kKeepSignals); native code it loads might, and a
// signal finding the default action or another handler would kill the run without its cleanup or
// be swallowed: each entry into Python puts back the actions it found.
class KeepSignalActions {
 public:
  KeepSignalActions() {
    for (int k = 0; k < 2; ++k) sigaction(kSignals[k], nullptr, &kept_[k]);
  }
  ~KeepSignalActions() {
    for (int k = 0; k < 2; ++k) sigaction(kSignals[k], &kept_[k], nullptr);
  }
  KeepSignalActions(const KeepSignalActions&) = delete;
  KeepSignalActions& operator=(const KeepSignalActions&) = delete;

 private:
  static constexpr int kSignals[2] = {SIGINT, SIGTERM};
  struct sigaction kept_[2] {};
};

}  // namespace

void set_kernel_dir(const std::string& dir) { chosen_dir() = dir; }

std::string kernel_dir() {
  if (chosen_dir().empty()) chosen_dir() = default_dir();
  return chosen_dir();
}

std::string unavailable_reason() {
  const KeepSignalActions keep;
  try {
    ensure_interpreter();
    py::object spec = py::module_::import("importlib.util").attr("find_spec")("triton");
    if (spec.is_none()) return "the embedded Python " RB_PYTHON_VERSION " finds no 'triton' module";
    return {};
  } catch (const py::error_already_set& e) {
    return "embedded Python failed: " + describe(e);
  } catch (const std::exception& e) {
    return std::string("embedded Python failed: ") + e.what();
  }
}

const Kernel& compile(const std::string& kernel, const std::map<std::string, int>& constexprs, int num_warps,
                      bool aligned, const ElementTypes& types) {
  static std::map<std::string, std::unique_ptr<Kernel>> cache;
  std::string key = kernel + "/w" + std::to_string(num_warps) + (aligned ? "/a16" : "/a4");
  for (const auto& [k, v] : constexprs) key += "/" + k + "=" + std::to_string(v);
  for (const auto& [slot, type] : types) key += "/" + slot + ":" + type;
  if (const auto it = cache.find(key); it != cache.end()) return *it->second;
  const KeepSignalActions keep;

  // Python first: a missing or broken triton is reported as Unavailable before any CUDA query.
  py::object compile_kernel;
  try {
    ensure_interpreter();
    compile_kernel = py::module_::import("compile").attr("compile_kernel");
  } catch (const py::error_already_set& e) {
    throw Unavailable("cannot load " + kernel_dir() + "/compile.py: " + describe(e));
  }
  int device = 0, major = 0, minor = 0;
  RB_CUDA_CHECK(cudaGetDevice(&device));
  RB_CUDA_CHECK(cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, device));
  RB_CUDA_CHECK(cudaDeviceGetAttribute(&minor, cudaDevAttrComputeCapabilityMinor, device));

  py::dict result;
  try {
    py::dict consts, tys;
    for (const auto& [k, v] : constexprs) consts[py::str(k)] = v;
    for (const auto& [slot, type] : types) tys[py::str(slot)] = type;
    result = compile_kernel(kernel, consts, num_warps, aligned, major * 10 + minor, tys);
  } catch (const py::error_already_set& e) {
    // A failure inside triton.compile is a bug in sum.py or the launcher, not a missing package:
    // an error, not a skip.
    if (e.matches(PyExc_ImportError)) throw Unavailable("triton is not importable: " + describe(e));
    throw std::runtime_error("triton could not compile " + key + ": " + describe(e));
  }
  if (result["global_scratch"].cast<long>() != 0 || result["profile_scratch"].cast<long>() != 0) {
    throw std::runtime_error("triton kernel " + key +
                             " asks for global/profile scratch, which this launcher does not provide");
  }
  auto k = std::make_unique<Kernel>();
  const std::string cubin = result["cubin"].cast<py::bytes>();
  k->name = result["name"].cast<std::string>();
  k->threads = 32u * result["num_warps"].cast<unsigned>();
  k->shared = result["shared"].cast<unsigned>();
  cudaLibrary_t lib = nullptr;  // kept loaded for the life of the process, like the cache entry
  RB_CUDA_CHECK(cudaLibraryLoadData(&lib, cubin.data(), nullptr, nullptr, 0, nullptr, nullptr, 0));
  RB_CUDA_CHECK(cudaLibraryGetKernel(&k->fn, lib, k->name.c_str()));
  if (k->shared > 48 * 1024) {
    RB_CUDA_CHECK(cudaFuncSetAttribute(reinterpret_cast<const void*>(k->fn),
                                       cudaFuncAttributeMaxDynamicSharedMemorySize, static_cast<int>(k->shared)));
  }
  return *(cache[key] = std::move(k));
}

void launch(const Kernel& k, unsigned grid, std::vector<void*> args, cudaStream_t stream) {
  void* global_scratch = nullptr;
  void* profile_scratch = nullptr;
  args.push_back(&global_scratch);
  args.push_back(&profile_scratch);
  RB_CUDA_CHECK(cudaLaunchKernel(reinterpret_cast<const void*>(k.fn), dim3(grid), dim3(k.threads), args.data(),
                                 k.shared, stream));
}

}  // namespace rb::triton
