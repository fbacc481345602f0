//===- Parts.cpp - Sparse results assembled in parallel parts -------------===//
//
// A parallel row-wise product computes its rows in parts, one thread per
// part, each into buffers of its own; the result's size is known only when
// every part is done. The parts' bytes wait here, then are copied back to
// back in part order: the result is the sequential one, for any thread
// count.
//
//===----------------------------------------------------------------------===//

#include "Error.h"
#include "SparseArrayRuntime.h"

#include <cstdint>
#include <cstdlib>
#include <cstring>

namespace {
struct Part {
  char *coordinates = nullptr, *values = nullptr;
  int64_t coordinateBytes = 0, valueBytes = 0;
};
struct Parts {
  int64_t count;
  Part *parts;
};

char *copyOf(int64_t address, int64_t bytes) {
  if (bytes <= 0)
    return nullptr;
  auto *copy = static_cast<char *>(std::malloc(static_cast<size_t>(bytes)));
  if (!copy)
    sa_rt::fatal("out of memory keeping %lld bytes of a parallel result",
                 static_cast<long long>(bytes));
  std::memcpy(copy, reinterpret_cast<const void *>(address),
              static_cast<size_t>(bytes));
  return copy;
}
} // namespace

extern "C" int64_t sa_rt_parts_new(int64_t count) {
  if (count < 0)
    sa_rt::fatal("a parallel result of %lld parts",
                 static_cast<long long>(count));
  auto *parts = new Parts{count, new Part[static_cast<size_t>(count)]()};
  return reinterpret_cast<int64_t>(parts);
}

extern "C" void sa_rt_parts_put(int64_t handle, int64_t part,
                                int64_t coordinates, int64_t coordinateBytes,
                                int64_t values, int64_t valueBytes) {
  auto *parts = reinterpret_cast<Parts *>(handle);
  if (part < 0 || part >= parts->count)
    sa_rt::fatal("part %lld of a parallel result with %lld parts",
                 static_cast<long long>(part),
                 static_cast<long long>(parts->count));
  Part &p = parts->parts[part];
  p.coordinates = copyOf(coordinates, coordinateBytes);
  p.coordinateBytes = coordinateBytes;
  p.values = copyOf(values, valueBytes);
  p.valueBytes = valueBytes;
}

extern "C" void sa_rt_parts_take(int64_t handle, int64_t coordinates,
                                 int64_t values) {
  auto *parts = reinterpret_cast<Parts *>(handle);
  auto *crd = reinterpret_cast<char *>(coordinates);
  auto *val = reinterpret_cast<char *>(values);
  for (int64_t i = 0; i < parts->count; ++i) {
    Part &p = parts->parts[i];
    if (p.coordinateBytes > 0)
      std::memcpy(crd, p.coordinates, static_cast<size_t>(p.coordinateBytes));
    if (p.valueBytes > 0)
      std::memcpy(val, p.values, static_cast<size_t>(p.valueBytes));
    crd += p.coordinateBytes;
    val += p.valueBytes;
    std::free(p.coordinates);
    std::free(p.values);
  }
  delete[] parts->parts;
  delete parts;
}
