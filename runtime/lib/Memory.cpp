//===- Memory.cpp - Advice on large output buffers ------------------------===//
//
// Generated kernels write their outputs into fresh buffers, once, in order.
// With 4 KiB pages every page costs a fault on first touch, which is most
// of the time of a memory-bound merge. Transparent huge pages cut that by
// 512x; Debian's default is "madvise", so large buffers ask for them.
//
//===----------------------------------------------------------------------===//

#include "SparseArrayRuntime.h"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <sys/mman.h>

extern "C" void sa_rt_advise_sequential_buffer(int64_t address, int64_t bytes) {
  constexpr uint64_t kHuge = uint64_t(2) << 20;
  // Only whole huge pages inside the buffer: the advice must not reach
  // memory the buffer does not own.
  if (bytes < static_cast<int64_t>(2 * kHuge))
    return;
  uint64_t begin = (static_cast<uint64_t>(address) + kHuge - 1) & ~(kHuge - 1);
  uint64_t end = (static_cast<uint64_t>(address) + bytes) & ~(kHuge - 1);
  if (end <= begin)
    return;
#ifdef MADV_HUGEPAGE
  // Advice only: failure (THP disabled, old kernel) changes nothing.
  (void)madvise(reinterpret_cast<void *>(begin), end - begin, MADV_HUGEPAGE);
#endif
}

// Sorts `count` 64-bit integers at `address` in place (the coordinates a
// row-wise product touched, before they are appended in order).
extern "C" void sa_rt_sort_i64(int64_t address, int64_t count) {
  int64_t *begin = reinterpret_cast<int64_t *>(address);
  std::sort(begin, begin + count);
}

// A bulk copy between distinct buffers. Generated loops copy as fast up to
// cache sizes; beyond them the C library's memcpy (wider stores, tuned per
// CPU) wrote 84 MB in 17-19 ms against 19-20 ms for the loop.
extern "C" void sa_rt_copy_bytes(int64_t dest, int64_t source, int64_t bytes) {
  if (bytes > 0)
    std::memcpy(reinterpret_cast<void *>(dest),
                reinterpret_cast<const void *>(source),
                static_cast<size_t>(bytes));
}
