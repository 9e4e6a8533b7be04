// Probe: does the L2 hit latency of a polled word depend on (SM, line)? And a store->poll hand-off?
#include <cuda_runtime.h>
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <algorithm>

#define CK(x) do { cudaError_t e = (x); if (e != cudaSuccess) { printf("%s: %s\n", #x, cudaGetErrorString(e)); exit(1); } } while (0)

__device__ unsigned smid() { unsigned s; asm volatile("mov.u32 %0, %%smid;" : "=r"(s)); return s; }
__device__ unsigned ld_relaxed(const unsigned* p) {
  unsigned v; asm volatile("ld.relaxed.gpu.global.u32 %0, [%1];" : "=r"(v) : "l"(p) : "memory"); return v;
}
__device__ void st_relaxed(unsigned* p, unsigned v) { asm volatile("st.relaxed.gpu.global.u32 [%0], %1;" :: "l"(p), "r"(v) : "memory"); }

constexpr int kLines = 256;   // candidate lines, stride kStrideWords words
constexpr int kReps = 16;

// One block per SM (big smem). Blocks take turns (ticket) so only one SM probes at a time.
__global__ void latency(unsigned* buf, int stride_words, unsigned* ticket, unsigned* out_sm, unsigned* out_lat) {
  extern __shared__ char pad[];
  if (threadIdx.x != 0) return;
  pad[0] = 0;
  const unsigned b = blockIdx.x;
  while (ld_relaxed(ticket) != b) {}
  out_sm[b] = smid();
  for (int l = 0; l < kLines; ++l) {
    const unsigned* p = buf + (size_t)l * stride_words;
    unsigned best = ~0u, v = ld_relaxed(p);  // warm into L2
    for (int r = 0; r < kReps; ++r) {
      long long t0 = clock64();
      v = ld_relaxed(p + v);  // v is 0: dependent address
      asm volatile("" :: "r"(v));
      unsigned dt = (unsigned)(clock64() - t0 + v);
      best = min(best, dt);
    }
    out_lat[b * kLines + l] = best;
  }
  __threadfence();
  st_relaxed(ticket, b + 1);
}

// Ping-pong between blocks a and b through words of one line: per-round-trip cycles.
__global__ void pingpong(unsigned* line, int a, int b, int iters, unsigned* out) {
  extern __shared__ char pad[];
  if (threadIdx.x != 0) return;
  pad[0] = 0;
  unsigned* ping = line; unsigned* pong = line + 1;
  if (blockIdx.x == a) {
    long long t0 = clock64();
    for (int k = 1; k <= iters; ++k) { st_relaxed(ping, k); while (ld_relaxed(pong) != (unsigned)k) {} }
    out[0] = (unsigned)((clock64() - t0) / iters);
    out[1] = smid();
  } else if (blockIdx.x == b) {
    for (int k = 1; k <= iters; ++k) { while (ld_relaxed(ping) != (unsigned)k) {} st_relaxed(pong, k); }
    out[2] = smid();
  }
}

int main(int argc, char** argv) {
  int stride_words = argc > 1 ? atoi(argv[1]) : 32;  // 128 B
  cudaDeviceProp prop; CK(cudaGetDeviceProperties(&prop, 0));
  const int sms = prop.multiProcessorCount;
  const size_t smem = 150 * 1024;
  CK(cudaFuncSetAttribute(latency, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)smem));
  CK(cudaFuncSetAttribute(pingpong, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)smem));
  unsigned *buf, *ticket, *osm, *olat, *pp;
  const size_t words = (size_t)kLines * stride_words + 64;
  CK(cudaMalloc(&buf, words * 4)); CK(cudaMemset(buf, 0, words * 4));
  CK(cudaMalloc(&ticket, 4)); CK(cudaMemset(ticket, 0, 4));
  CK(cudaMalloc(&osm, sms * 4)); CK(cudaMalloc(&olat, (size_t)sms * kLines * 4)); CK(cudaMalloc(&pp, 16));
  latency<<<sms, 32, smem>>>(buf, stride_words, ticket, osm, olat);
  CK(cudaGetLastError()); CK(cudaDeviceSynchronize());
  std::vector<unsigned> hsm(sms), hlat((size_t)sms * kLines);
  CK(cudaMemcpy(hsm.data(), osm, sms * 4, cudaMemcpyDeviceToHost));
  CK(cudaMemcpy(hlat.data(), olat, hlat.size() * 4, cudaMemcpyDeviceToHost));
  printf("stride %d B\n", stride_words * 4);
  // Per line: min/median/max over SMs; per SM: mean over lines.
  std::vector<unsigned> all(hlat);
  std::sort(all.begin(), all.end());
  printf("all: min %u p10 %u p50 %u p90 %u max %u\n", all[0], all[all.size() / 10], all[all.size() / 2],
         all[all.size() * 9 / 10], all.back());
  // Threshold at the midpoint of p10 and p90: near/far bit matrix.
  unsigned thr = (all[all.size() / 10] + all[all.size() * 9 / 10]) / 2;
  printf("threshold %u\n", thr);
  for (int l = 0; l < 16; ++l) {
    printf("line %3d:", l);
    for (int b = 0; b < sms; ++b) printf("%c", hlat[(size_t)b * kLines + l] < thr ? '.' : 'X');
    printf("\n");
  }
  printf("sm ids by block:");
  for (int b = 0; b < sms; ++b) printf(" %u", hsm[b]);
  printf("\n");
  // Dump the full matrix to a file for offline analysis.
  if (FILE* f = fopen(argc > 2 ? argv[2] : "lat.txt", "w")) {
    for (int b = 0; b < sms; ++b) {
      fprintf(f, "%u", hsm[b]);
      for (int l = 0; l < kLines; ++l) fprintf(f, " %u", hlat[(size_t)b * kLines + l]);
      fprintf(f, "\n");
    }
    fclose(f);
  }
  // Ping-pong: pairs of blocks x first 16 lines.
  if (FILE* f = fopen(argc > 3 ? argv[3] : "pp.txt", "w")) {
    int pairs[][2] = {{0, 1}, {0, 66}, {5, 100}, {10, 70}, {20, 21}, {30, 120}, {40, 90}, {131, 64}};
    for (auto& p : pairs)
      for (int l = 0; l < 16; ++l) {
        unsigned* line = buf + (size_t)l * stride_words;
        CK(cudaMemset(line, 0, 8));
        pingpong<<<sms, 32, smem>>>(line, p[0], p[1], 2000, pp);
        CK(cudaGetLastError()); CK(cudaDeviceSynchronize());
        unsigned h[3]; CK(cudaMemcpy(h, pp, 12, cudaMemcpyDeviceToHost));
        fprintf(f, "%d %d %u %u %d %u\n", p[0], p[1], h[1], h[2], l, h[0]);
      }
    fclose(f);
  }
  printf("done\n");
  return 0;
}
