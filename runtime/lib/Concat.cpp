//===- Concat.cpp - numpy.concatenate of stored arrays --------------------===//
//
// seed 001 §4.2's concatenation, operation at a time: each part's entries
// at its offset along the axis, packed once into the result's format. The
// compiler fuses or moves ranges where the parts' offsets are known when it
// compiles; this is for sizes along the axis known only at run time. A
// part whose fill is not the result's contributes every point of its range
// (its implicit entries are values of the result, seed 001 §5.1 with
// fills).
//
//===----------------------------------------------------------------------===//

#include "Array.h"
#include "Error.h"

namespace sa_rt {

Concat::Concat(const FormatSpec &spec, std::vector<uint64_t> dims,
               unsigned axis)
    : spec(spec), dims(std::move(dims)), axis(axis),
      out(spec.elem, spec.rank()) {
  if (this->dims.size() != spec.rank() || axis >= spec.rank())
    fatal("concat: %zu sizes and axis %u for a rank-%u result",
          this->dims.size(), axis, spec.rank());
  out.dims = this->dims;
}

void Concat::add(const Array &part) {
  unsigned r = spec.rank();
  if (part.spec.elem != spec.elem || part.spec.rank() != r)
    fatal("concat: part %u has another element type or rank than the "
          "result",
          parts);
  for (unsigned d = 0; d < r; ++d)
    if (d != axis && part.dims[d] != dims[d])
      fatal("concat: part %u has size %llu in dimension %u, the result %llu",
            parts, static_cast<unsigned long long>(part.dims[d]), d,
            static_cast<unsigned long long>(dims[d]));
  uint64_t end;
  if (__builtin_add_overflow(offset, part.dims[axis], &end))
    fatal("concat: the parts have more than 2^64 entries along dimension %u",
          axis);
  // Another fill: its implicit entries become values first (convert
  // densifies them), then only entries other than the result's fill stay.
  std::unique_ptr<Array> refilled;
  const Array *from = &part;
  if (!sameValue(spec.elem, part.spec.fill, spec.fill)) {
    FormatSpec s = part.spec;
    s.fill = spec.fill;
    refilled = convert(part, s);
    from = refilled.get();
  }
  Coo in = unpack(*from, &spec.fill);
  out.reserve(out.nnz + in.nnz);
  std::vector<uint64_t> x(r);
  for (uint64_t e = 0; e < in.nnz; ++e) {
    for (unsigned d = 0; d < r; ++d)
      x[d] = in.cols[d][e];
    x[axis] += offset;
    out.push(x.data(), in.valueBits(e));
  }
  offset = end;
  ++parts;
}

std::unique_ptr<Array> Concat::finish() {
  if (offset != dims[axis])
    fatal("concat: the parts' sizes along dimension %u sum to %llu, the "
          "result has %llu",
          axis, static_cast<unsigned long long>(offset),
          static_cast<unsigned long long>(dims[axis]));
  PackError error;
  std::unique_ptr<Array> result = pack(std::move(out), spec, error);
  if (!result)
    fatal("concat: %s", error.message.c_str());
  return result;
}

} // namespace sa_rt
