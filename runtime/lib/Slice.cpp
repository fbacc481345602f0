//===- Slice.cpp - a strided slice with bounds known at run time ----------===//
//
// seed 001 §4.1's slice in operation-at-a-time form, for bounds that are
// values (sparse_array.dynamic_slice): every stored entry of the source
// whose coordinates lie on the slice's strided grid moves to its index on
// that grid; the rest are dropped; implicit entries stay implicit. Unpack,
// remap, pack (which sorts in the result's level order).
//
//===----------------------------------------------------------------------===//

#include "Array.h"
#include "Error.h"

namespace sa_rt {

std::unique_ptr<Array> slice(const Array &a, const FormatSpec &spec,
                             const std::vector<uint64_t> &dims,
                             const std::vector<int64_t> &offsets,
                             const std::vector<int64_t> &strides) {
  unsigned rank = a.spec.rank();
  if (spec.elem != a.spec.elem || spec.rank() != rank ||
      dims.size() != rank || offsets.size() != rank || strides.size() != rank)
    fatal("slice: element type or rank differs from the result type");
  for (unsigned d = 0; d < rank; ++d) {
    if (spec.dims[d] >= 0 && static_cast<uint64_t>(spec.dims[d]) != dims[d])
      fatal("slice: dimension %u has size %llu but the result type requires "
            "%lld",
            d, static_cast<unsigned long long>(dims[d]),
            static_cast<long long>(spec.dims[d]));
    if (strides[d] < 1 || offsets[d] < 0)
      fatal("slice: dimension %u: offset %lld and stride %lld (the offset "
            "must be at least 0, the stride at least 1)",
            d, static_cast<long long>(offsets[d]),
            static_cast<long long>(strides[d]));
    if (dims[d] == 0)
      continue;
    // The last coordinate read, offset + (size - 1) * stride, in bounds.
    uint64_t last = 0;
    if (__builtin_mul_overflow(dims[d] - 1, static_cast<uint64_t>(strides[d]),
                               &last) ||
        __builtin_add_overflow(last, static_cast<uint64_t>(offsets[d]),
                               &last) ||
        last >= a.dims[d])
      fatal("slice: dimension %u: %llu coordinates from %lld by %lld do not "
            "fit the source's %llu",
            d, static_cast<unsigned long long>(dims[d]),
            static_cast<long long>(offsets[d]),
            static_cast<long long>(strides[d]),
            static_cast<unsigned long long>(a.dims[d]));
  }
  Coo in = unpack(a, &a.spec.fill);
  Coo out(spec.elem, rank);
  out.dims = dims;
  std::vector<uint64_t> x(rank);
  for (uint64_t e = 0; e < in.nnz; ++e) {
    bool inside = true;
    for (unsigned d = 0; d < rank && inside; ++d) {
      uint64_t c = in.cols[d][e], off = static_cast<uint64_t>(offsets[d]);
      uint64_t step = static_cast<uint64_t>(strides[d]);
      inside = c >= off && (c - off) % step == 0 && (c - off) / step < dims[d];
      x[d] = inside ? (c - off) / step : 0;
    }
    if (inside)
      out.push(x.data(), in.valueBits(e));
  }
  in.release();
  return packMoved(std::move(out), spec, a.spec.fill, "slice");
}

} // namespace sa_rt
