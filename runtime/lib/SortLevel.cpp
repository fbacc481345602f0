//===- SortLevel.cpp - Ordering an unordered innermost level ---------------===//
//
// convert's fast path for a format that differs from the array's only in
// its innermost level, which the array stores in no order (seed 002's
// hashed level, a nonordered compressed one) and the result compressed and
// ordered, below dense levels: each parent position's entries are sorted
// where they are — O(slots + entries log(row)) — instead of unpacking
// every entry to coordinates, sorting them all and packing them again.
// Kernels convert a hashed input this way to iterate it in order
// (sparse-array-build-lattices, locatingVisitsAll).
//
//===----------------------------------------------------------------------===//

#include "Array.h"

#include <algorithm>

namespace sa_rt {

std::unique_ptr<Array> sortInnermostLevel(const Array &a,
                                          const FormatSpec &spec) {
  unsigned n = spec.numLevels();
  const LevelKind *compressed = lookupLevelKind("compressed");
  if (n == 0 || n != a.spec.numLevels() || spec.blocked() ||
      a.spec.blocked() || spec.order != a.spec.order ||
      spec.elem != a.spec.elem)
    return nullptr;
  for (unsigned l = 0; l + 1 < n; ++l)
    if (spec.levels[l].kind != a.spec.levels[l].kind ||
        !spec.levels[l].kind->getTraits().full)
      return nullptr;
  const LevelSpec &from = a.spec.levels[n - 1], &to = spec.levels[n - 1];
  if (from.ordered || !from.unique || to.kind != compressed || !to.ordered ||
      !to.unique || from.kind->getTraits().full)
    return nullptr;

  // Dense levels above: parent positions 0 .. parents - 1, in order.
  uint64_t parents = 1;
  for (unsigned l = 0; l + 1 < n; ++l)
    if (__builtin_mul_overflow(parents, a.levelDim(l), &parents))
      return nullptr;
  LevelBuffers in = a.level(n - 1);
  uint64_t extent = a.levelDim(n - 1);
  if ((spec.posWidth == 32 && in.crdLen > UINT32_MAX) ||
      (spec.crdWidth == 32 && extent > uint64_t(UINT32_MAX)))
    return nullptr; // the generic path reports it
  Elem e = spec.elem;
  unsigned bytes = elemBytes(e);
  const char *source = static_cast<const char *>(a.values().data);

  // Buffers for every slot the level has (at most the entries of a hashed
  // level's tables, or of a nonordered compressed level), cut to the
  // entries at the end: one pass.
  uint64_t slots = in.crdLen;
  auto result = std::make_unique<Array>(spec);
  result->dims = a.dims;
  auto own = [&](int k, uint64_t len, unsigned elemSize) {
    Buffer &b = result->buffers[k];
    b.data = checkedMalloc(std::max<uint64_t>(len, 1), elemSize, "convert");
    b.len = len;
    b.owned = true;
  };
  int posIndex = spec.posBufferIndex(n - 1), crdIndex = spec.crdBufferIndex(n - 1);
  int valIndex = static_cast<int>(spec.valuesBufferIndex());
  own(posIndex, parents + 1, spec.posWidth / 8);
  own(crdIndex, slots, spec.crdWidth / 8);
  own(valIndex, slots, bytes);
  LevelBuffers out = result->level(n - 1);
  char *values = static_cast<char *>(result->buffers[valIndex].data);

  // Per parent: its entries as (coordinate, position), holes and entries
  // equal to the fill left out (as unpack drops them), sorted.
  std::vector<std::pair<uint64_t, uint64_t>> row;
  uint64_t next = 0;
  out.setPos(0, 0);
  for (uint64_t p = 0; p < parents; ++p) {
    row.clear();
    ChildRange r = from.kind->children(in, p, extent);
    for (uint64_t q = r.lo; q < r.hi; ++q) {
      if (r.holes && in.getCrd(q) == in.freeSlot())
        continue;
      uint64_t bits = 0;
      std::memcpy(&bits, source + q * bytes, bytes);
      if (sameValue(e, bits, spec.fill))
        continue;
      uint64_t c = r.coords == ChildRange::Coords::FromBuffer ? in.getCrd(q)
                   : r.coords == ChildRange::Coords::FromKind
                       ? from.kind->coordinateAt(in, q)
                       : q - r.coordBase;
      row.emplace_back(c, q);
    }
    // Rows are short (a hash table's W / 1.5 at most): insertion sort,
    // without std::sort's set-up; long ones by std::sort.
    if (row.size() > 32) {
      std::sort(row.begin(), row.end());
    } else {
      for (size_t i = 1; i < row.size(); ++i)
        for (size_t j = i; j > 0 && row[j].first < row[j - 1].first; --j)
          std::swap(row[j], row[j - 1]);
    }
    for (auto [c, q] : row) {
      out.setCrd(next, c);
      std::memcpy(values + next * bytes, source + q * bytes, bytes);
      ++next;
    }
    out.setPos(p + 1, next);
  }
  for (int k : {crdIndex, valIndex}) {
    Buffer &b = result->buffers[k];
    b.data = checkedRealloc(b.data, std::max<uint64_t>(next, 1),
                            k == valIndex ? bytes : spec.crdWidth / 8,
                            "convert");
    b.len = next;
  }
  return result;
}

} // namespace sa_rt
