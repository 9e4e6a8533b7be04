#include "bench/gpu/stream_check.hpp"

#include <cstdint>
#include <cstring>
#include <string>

namespace rb::bench::gpu {
namespace {

[[noreturn]] void broken(const std::string& what) {
  throw CheckFailed("stream check failed: " + what +
                    " (the rule: enqueue() puts all its work on the stream it is given, and does not synchronize)");
}

// The slot still holds the poison (bytes 0xFF) the harness wrote before the capture.
bool slot_poisoned(const GpuSession& g) {
  unsigned char bytes[ResultSlot::kBytes];
  RB_CUDA_CHECK(cudaMemcpy(bytes, g.slot_ptr(), sizeof bytes, cudaMemcpyDeviceToHost));
  for (const unsigned char b : bytes) {
    if (b != 0xFF) return false;
  }
  return true;
}

}  // namespace

double call_through_graph(GpuSession& g, GpuBackend& backend, const std::function<bool()>& untouched) {
  const cudaStream_t stream = g.stream();
  g.slot().poison();
  RB_CUDA_CHECK(cudaStreamSynchronize(stream));
  RB_CUDA_CHECK(cudaGetLastError());
  RB_CUDA_CHECK(cudaStreamBeginCapture(stream, cudaStreamCaptureModeGlobal));
  std::string thrown;
  try {
    backend.enqueue(stream);
  } catch (const std::exception& e) {
    thrown = e.what();
  }
  cudaGraph_t graph = nullptr;
  const cudaError_t ended = cudaStreamEndCapture(stream, &graph);
  (void)cudaGetLastError();  // a capture error is not sticky; the check reports it below
  const cudaError_t synced = cudaDeviceSynchronize();  // whatever escaped the capture has finished
  if (synced != cudaSuccess) {
    if (graph) (void)cudaGraphDestroy(graph);
    RB_CUDA_CHECK(synced);
  }
  if (!thrown.empty() || ended != cudaSuccess || graph == nullptr) {
    if (graph) (void)cudaGraphDestroy(graph);
    broken("capturing one call on the harness's stream failed: " +
           (thrown.empty() ? std::string(cudaGetErrorString(ended)) : thrown));
  }
  struct Owned {
    cudaGraph_t graph;
    cudaGraphExec_t exec = nullptr;
    ~Owned() {
      if (exec) (void)cudaGraphExecDestroy(exec);
      (void)cudaGraphDestroy(graph);
    }
  } owned{graph};
  std::size_t nodes = 0;
  RB_CUDA_CHECK(cudaGraphGetNodes(graph, nullptr, &nodes));
  if (nodes == 0) broken("the call put no work on the harness's stream");
  if (untouched ? !untouched() : backend.result_in() != ResultIn::elsewhere && !slot_poisoned(g)) {
    broken(std::string("the ") + (untouched ? "outputs were" : "result slot was") +
           " written while the call was only being captured: its work ran elsewhere");
  }
  RB_CUDA_CHECK(cudaGraphInstantiate(&owned.exec, graph, 0));
  RB_CUDA_CHECK(cudaGraphLaunch(owned.exec, stream));
  RB_CUDA_CHECK(cudaStreamSynchronize(stream));
  RB_CUDA_CHECK(cudaGetLastError());
  return backend.result();
}

}  // namespace rb::bench::gpu
