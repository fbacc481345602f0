//===- Validate.cpp - Checks of an array's buffers ------------------------===//
//
// What every array the runtime takes from outside (assembled buffers, a
// program's sparse_array.validate) must satisfy before kernels read it:
// buffer lengths per level kind, positions and coordinates within bounds
// (validate), and order and uniqueness within each segment as its level
// kind finds the segment (validateOrder).
//
//===----------------------------------------------------------------------===//

#include "Array.h"

#include <string>
#include <vector>

namespace sa_rt {

std::string Array::validate() const {
  for (unsigned d = 0; d < spec.rank(); ++d)
    if (dims[d] % spec.block(d))
      return "dimension " + std::to_string(d) + " has size " +
             std::to_string(dims[d]) + ", not a multiple of its block size " +
             std::to_string(spec.block(d));
  uint64_t parents = 1;
  for (unsigned l = 0; l < spec.numLevels(); ++l) {
    const LevelKind *k = spec.levels[l].kind;
    LevelBuffers lb = level(l);
    lb.parents = parents;
    uint64_t groups = 0;
    if (k->hasPositions()) {
      if (lb.posLen != k->posLength(parents))
        return "level " + std::to_string(l) + " has " +
               std::to_string(lb.posLen) + " positions entries, expected " +
               std::to_string(k->posLength(parents));
      if (lb.getPos(0) != 0)
        return "level " + std::to_string(l) + " positions do not start at 0";
      groups = lb.getPos(parents);
    } else if (k->hasCoordinates()) {
      groups = lb.crdLen;
    }
    uint64_t positions;
    if (std::string why = k->validateBuffers(lb, levelDim(l)); !why.empty())
      return "level " + std::to_string(l) + " " + why;
    if (!k->numPositions(lb, parents, levelDim(l), groups, positions))
      return "level " + std::to_string(l) + " size overflows 64 bits";
    if (k->hasCoordinates() && lb.crdLen != k->crdLength(positions))
      return "level " + std::to_string(l) + " has " +
             std::to_string(lb.crdLen) + " coordinates, expected " +
             std::to_string(k->crdLength(positions));
    // Contents, so that iteration never reads out of bounds: positions
    // never decrease, coordinates lie within the dimension.
    if (k->hasPositions())
      for (uint64_t p = 0; p < parents; ++p)
        if (lb.getPos(p + 1) < lb.getPos(p))
          return "level " + std::to_string(l) + " positions decrease at " +
                 std::to_string(p);
    // (A level with padding checks its own coordinates: validateBuffers.)
    if (k->hasCoordinates() && k->getTraits().compact)
      for (uint64_t q = 0; q < lb.crdLen; ++q)
        if (lb.getCrd(q) >= levelDim(l))
          return "level " + std::to_string(l) + " coordinate " +
                 std::to_string(lb.getCrd(q)) + " at position " +
                 std::to_string(q) + " is outside the dimension (size " +
                 std::to_string(levelDim(l)) + ")";
    parents = positions;
  }
  if (values().len != parents)
    return "the array has " + std::to_string(values().len) +
           " values, expected " + std::to_string(parents);
  return "";
}

std::string Array::validateOrder() const {
  unsigned L = spec.numLevels();
  // Parent positions per level (validate() checked the counts).
  std::vector<uint64_t> parentsAt(L + 1, 1);
  for (unsigned l = 0; l < L; ++l) {
    const LevelKind *k = spec.levels[l].kind;
    LevelBuffers lb = level(l);
    uint64_t groups = k->hasPositions() ? lb.getPos(parentsAt[l])
                      : k->hasCoordinates() ? lb.crdLen
                                            : 0;
    k->numPositions(lb, parentsAt[l], levelDim(l), groups, parentsAt[l + 1]);
  }
  for (unsigned l = 0; l < L; ++l) {
    const LevelKind *k = spec.levels[l].kind;
    // A level that stores coordinates per segment heads a chain: it and
    // the levels under it with one child per position (singleton), which
    // share its positions (one coordinate each per entry, COO).
    // (A level in hash order checks its own buckets: validateBuffers.)
    if (!k->hasCoordinates() || k->getTraits().acceptsNonUniqueParent ||
        k->getTraits().hashOrder)
      continue;
    unsigned last = l;
    while (last + 1 < L &&
           spec.levels[last + 1].kind->getTraits().acceptsNonUniqueParent)
      ++last;
    std::vector<LevelBuffers> chain;
    for (unsigned j = l; j <= last; ++j)
      chain.push_back(level(j));
    for (uint64_t p = 0; p < parentsAt[l]; ++p) {
      // The kind says which positions are p's entries (a loose level's
      // segment, an ellpack row without its padding).
      ChildRange r = k->children(chain.front(), p, levelDim(l));
      for (uint64_t q = r.lo + 1; q < r.hi; ++q) {
        // The first level of the chain where entries q - 1 and q differ
        // decides; all equal is a repeat.
        bool differ = false;
        for (unsigned j = 0; j < chain.size() && !differ; ++j) {
          uint64_t before = chain[j].getCrd(q - 1), now = chain[j].getCrd(q);
          if (before == now)
            continue;
          differ = true;
          if (before > now && spec.levels[l + j].ordered)
            return "level " + std::to_string(l + j) + " coordinates are not "
                   "in order at position " + std::to_string(q) + " (" +
                   std::to_string(before) + " before " + std::to_string(now) +
                   ")";
        }
        if (!differ && spec.levels[last].unique)
          return "level " + std::to_string(last) + " repeats coordinates at "
                 "position " + std::to_string(q);
      }
    }
    l = last;
  }
  return "";
}

} // namespace sa_rt
