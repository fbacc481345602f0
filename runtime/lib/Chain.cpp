//===- Chain.cpp - Parts of a parallel result placed in part order --------===//
//
// Rows of a CSR/CSC result computed in parallel parts (`parts, chained`,
// ChainedRowsOutput.cpp): threads claim the parts in increasing order and
// compute each into a scratch buffer of their own; part p's place in the
// result is the end of part p - 1, published as soon as that part knows
// its size. A part waits only for its predecessor's size, never for its
// copy, and a part is claimed only by a running thread, so the part every
// other waits on is always running: the chain cannot deadlock, on any
// number of threads. The result is the sequential one, entry for entry.
//
//===----------------------------------------------------------------------===//

#include "Error.h"
#include "SparseArrayRuntime.h"

#include <atomic>
#include <cstdint>
#include <memory>
#include <sched.h>

namespace {
struct Chain {
  explicit Chain(int64_t parts)
      : parts(parts), ends(new std::atomic<int64_t>[parts + 1]) {
    ends[0].store(0, std::memory_order_relaxed);
    for (int64_t p = 1; p <= parts; ++p)
      ends[p].store(-1, std::memory_order_relaxed);
  }
  int64_t parts;
  std::atomic<int64_t> next{0};
  // ends[p]: where part p starts (the end of part p - 1); -1 until known.
  std::unique_ptr<std::atomic<int64_t>[]> ends;
};

Chain &chainOf(int64_t handle) { return *reinterpret_cast<Chain *>(handle); }

std::atomic<int64_t> &endOf(int64_t handle, int64_t part) {
  Chain &chain = chainOf(handle);
  if (part < 0 || part > chain.parts)
    sa_rt::fatal("part %lld of a chained parallel result with %lld parts",
                 static_cast<long long>(part),
                 static_cast<long long>(chain.parts));
  return chain.ends[part];
}
} // namespace

extern "C" int64_t sa_rt_chain_new(int64_t parts) {
  if (parts < 0)
    sa_rt::fatal("a chained parallel result of %lld parts",
                 static_cast<long long>(parts));
  return reinterpret_cast<int64_t>(new Chain(parts));
}

extern "C" int64_t sa_rt_chain_claim(int64_t handle) {
  return chainOf(handle).next.fetch_add(1, std::memory_order_relaxed);
}

extern "C" int64_t sa_rt_chain_start(int64_t handle, int64_t part) {
  std::atomic<int64_t> &end = endOf(handle, part);
  // The predecessor is running on another thread: spin briefly, then
  // yield (more threads than cores must not starve it).
  for (unsigned spins = 0;; ++spins) {
    int64_t at = end.load(std::memory_order_acquire);
    if (at >= 0)
      return at;
    if (spins >= 4096)
      sched_yield();
#if defined(__x86_64__) || defined(__i386__)
    else
      __builtin_ia32_pause();
#endif
  }
}

extern "C" void sa_rt_chain_publish(int64_t handle, int64_t part, int64_t end) {
  if (end < 0)
    sa_rt::fatal("a chained parallel part ending at %lld",
                 static_cast<long long>(end));
  endOf(handle, part + 1).store(end, std::memory_order_release);
}

extern "C" int64_t sa_rt_chain_free(int64_t handle) {
  Chain *chain = &chainOf(handle);
  int64_t total = chain->ends[chain->parts].load(std::memory_order_acquire);
  delete chain;
  return total;
}
