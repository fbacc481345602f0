//===- Reshape.cpp - numpy.reshape of a stored array ----------------------===//
//
// seed 001 §4.1: collapse and split (and reshape, a collapse followed by a
// split) move every stored entry to the coordinates its linearized index
// has in the new shape; implicit entries stay implicit. This is the
// operation-at-a-time form: unpack, remap, pack (which sorts in the
// target's level order).
//
//===----------------------------------------------------------------------===//

#include "Array.h"
#include "Error.h"
#include "Scalar.h"

#include <string>

namespace sa_rt {

static std::string shapeText(const std::vector<uint64_t> &dims) {
  std::string s = "(";
  for (size_t d = 0; d < dims.size(); ++d)
    s += (d ? ", " : "") + std::to_string(dims[d]);
  return s + (dims.size() == 1 ? ",)" : ")");
}

/// The number of entries of `dims`; false when it does not fit 64 bits.
static bool totalOf(const std::vector<uint64_t> &dims, uint64_t &total) {
  total = 1;
  for (uint64_t d : dims)
    if (__builtin_mul_overflow(total, d, &total))
      return false;
  return true;
}

std::unique_ptr<Array> reshape(const Array &a, const FormatSpec &spec,
                               const std::vector<uint64_t> &dims,
                               bool fortran) {
  if (spec.elem != a.spec.elem || spec.rank() != dims.size())
    fatal("reshape: element type or rank differs from the result type");
  uint64_t from = 0, to = 0;
  if (!totalOf(a.dims, from) || !totalOf(dims, to) || from != to)
    fatal("reshape: cannot reshape an array of shape %s into shape %s",
          shapeText(a.dims).c_str(), shapeText(dims).c_str());
  for (unsigned d = 0; d < spec.rank(); ++d)
    if (spec.dims[d] >= 0 && static_cast<uint64_t>(spec.dims[d]) != dims[d])
      fatal("reshape: dimension %u has size %llu but the result type "
            "requires %lld",
            d, static_cast<unsigned long long>(dims[d]),
            static_cast<long long>(spec.dims[d]));
  // Entries equal to the source's fill are implicit in the dense program.
  Coo in = unpack(a, &a.spec.fill);
  unsigned r = a.spec.rank(), t = spec.rank();
  Coo out(spec.elem, t);
  out.dims = dims;
  out.reserve(in.nnz);
  std::vector<uint64_t> x(t);
  for (uint64_t e = 0; e < in.nnz; ++e) {
    uint64_t lin = 0;
    for (unsigned i = 0; i < r; ++i) {
      unsigned d = fortran ? r - 1 - i : i;
      lin = lin * a.dims[d] + in.cols[d][e];
    }
    for (unsigned i = 0; i < t; ++i) {
      unsigned d = fortran ? i : t - 1 - i;
      x[d] = lin % dims[d];
      lin /= dims[d];
    }
    out.push(x.data(), in.valueBits(e));
  }
  in.release();
  return packMoved(std::move(out), spec, a.spec.fill, "reshape");
}

std::unique_ptr<Array> packMoved(Coo &&entries, const FormatSpec &spec,
                                 uint64_t sourceFill, const char *what) {
  FormatSpec same = spec;
  same.fill = sourceFill;
  PackError error;
  std::unique_ptr<Array> result = pack(std::move(entries), same, error);
  if (!result)
    fatal("%s: %s", what, error.message.c_str());
  if (sameValue(spec.elem, same.fill, spec.fill))
    return result;
  // A result type with another fill: the implicit entries become values.
  return convert(*result, spec);
}

} // namespace sa_rt
