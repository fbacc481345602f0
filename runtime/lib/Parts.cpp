//===- Parts.cpp - Sparse results assembled in parallel parts -------------===//
//
// A kernel whose outer loop runs in parallel parts computes each part into
// buffers of its own; the result's size is known only when every part is
// done. The parts' bytes wait here, one set of numbered slots per part (a
// slot per result buffer), then are joined in part order, each part by a
// thread of its own at the offset the kernel computed (take_part): the
// result is the sequential one, for any thread count. One part, one
// thread: no locks. A slot adopts the part's malloc'ed buffer instead of
// copying it: the join is then the only copy of the result's entries.
//
//===----------------------------------------------------------------------===//

#include "Error.h"
#include "SparseArrayRuntime.h"

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <vector>

namespace {
struct Bytes {
  char *data = nullptr;
  int64_t size = 0;
};
struct Parts {
  std::vector<std::vector<Bytes>> slots; // [part][slot]
};

Parts &partsOf(int64_t handle) { return *reinterpret_cast<Parts *>(handle); }

Bytes &slotOf(int64_t handle, int64_t part, int64_t slot) {
  Parts &parts = partsOf(handle);
  if (part < 0 || part >= static_cast<int64_t>(parts.slots.size()) ||
      slot < 0 || slot > 64)
    sa_rt::fatal("slot %lld of part %lld of a parallel result with %lld parts",
                 static_cast<long long>(slot), static_cast<long long>(part),
                 static_cast<long long>(parts.slots.size()));
  std::vector<Bytes> &own = parts.slots[part];
  if (static_cast<int64_t>(own.size()) <= slot)
    own.resize(slot + 1);
  return own[slot];
}

template <typename T>
void shiftPositions(const Bytes &b, bool skipFirst, T shift, char *dest) {
  const T *in = reinterpret_cast<const T *>(b.data);
  size_t n = static_cast<size_t>(b.size) / sizeof(T);
  auto *out = reinterpret_cast<T *>(dest);
  for (size_t i = skipFirst ? 1 : 0; i < n; ++i)
    *out++ = in[i] + shift;
}
} // namespace

extern "C" int64_t sa_rt_parts_new(int64_t count) {
  if (count < 0)
    sa_rt::fatal("a parallel result of %lld parts",
                 static_cast<long long>(count));
  auto *parts = new Parts;
  parts->slots.resize(static_cast<size_t>(count));
  return reinterpret_cast<int64_t>(parts);
}

extern "C" void sa_rt_parts_adopt_slot(int64_t handle, int64_t part,
                                       int64_t slot, int64_t address,
                                       int64_t bytes) {
  Bytes &b = slotOf(handle, part, slot);
  std::free(b.data);
  auto *data = reinterpret_cast<char *>(address);
  if (bytes <= 0) {
    std::free(data);
    b = Bytes();
    return;
  }
  // Trimmed to its entries in place (a shrinking realloc does not move):
  // a part's buffer has room to spare, and keeping it until the join held
  // hundreds of MB that the next part could not reuse (ten times the
  // time of a DCSR add on one thread, every part faulting in new pages).
  if (char *trimmed = static_cast<char *>(
          std::realloc(data, static_cast<size_t>(bytes))))
    data = trimmed;
  b.data = data;
  b.size = bytes;
}

extern "C" void sa_rt_parts_take_part(int64_t handle, int64_t part,
                                      int64_t slot, int64_t dest) {
  Bytes &b = slotOf(handle, part, slot);
  if (b.size > 0)
    std::memcpy(reinterpret_cast<char *>(dest), b.data,
                static_cast<size_t>(b.size));
  std::free(b.data);
  b = Bytes();
}

extern "C" void sa_rt_parts_take_part_positions(int64_t handle, int64_t part,
                                                int64_t slot, int64_t dest,
                                                int64_t width, int64_t shift) {
  Bytes &b = slotOf(handle, part, slot);
  auto *out = reinterpret_cast<char *>(dest);
  if (width == 32)
    shiftPositions<uint32_t>(b, part > 0, static_cast<uint32_t>(shift), out);
  else if (width == 64)
    shiftPositions<uint64_t>(b, part > 0, static_cast<uint64_t>(shift), out);
  else
    sa_rt::fatal("positions of %lld bits in a parallel result",
                 static_cast<long long>(width));
  std::free(b.data);
  b = Bytes();
}

extern "C" void sa_rt_parts_free(int64_t handle) {
  Parts *parts = &partsOf(handle);
  for (std::vector<Bytes> &own : parts->slots)
    for (Bytes &b : own)
      std::free(b.data);
  delete parts;
}

extern "C" void sa_rt_parts_adopt(int64_t handle, int64_t part,
                                  int64_t coordinates, int64_t coordinateBytes,
                                  int64_t values, int64_t valueBytes) {
  sa_rt_parts_adopt_slot(handle, part, 0, coordinates, coordinateBytes);
  sa_rt_parts_adopt_slot(handle, part, 1, values, valueBytes);
}
