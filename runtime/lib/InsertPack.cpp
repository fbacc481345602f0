//===- InsertPack.cpp - Packing entries in any order by insertion ---------===//
//
// seed 002 §3.4 (insert assembly): a format whose every level has the
// Insert capability (dense, hashed) locates a position for any coordinate
// under any parent, so its entries are packed in the order they come —
// level by level, each entry's position found from its parent's — with no
// sort: a hash map is built by scattering into it. Formats with a level
// that appends (compressed, singleton, the plugins') are sorted first
// (pack in Array.cpp).
//
//===----------------------------------------------------------------------===//

#include "Array.h"
#include "Error.h"

#include <algorithm>
#include <cstdlib>
#include <cstring>

namespace sa_rt {

bool insertsInAnyOrder(const FormatSpec &spec) {
  if (spec.blocked() || spec.numLevels() == 0)
    return false;
  return std::all_of(spec.levels.begin(), spec.levels.end(),
                     [](const LevelSpec &l) {
                       return l.unique &&
                              l.kind->getTraits().has(
                                  sparse_array_levels::kInsert);
                     });
}

namespace {

/// The most entries whose parent position is the same (parents < count).
uint64_t mostPerParent(const std::vector<uint64_t> &parent, uint64_t count) {
  std::vector<uint64_t> seen(count, 0);
  uint64_t most = 0;
  for (uint64_t p : parent)
    most = std::max(most, ++seen[p]);
  return most;
}

} // namespace

std::unique_ptr<Array> packByInsert(Coo &coo, const FormatSpec &spec,
                                    PackError &error) {
  if (!checkExtents(coo, spec, error))
    return nullptr;
  unsigned L = spec.numLevels();
  uint64_t n = coo.nnz;
  auto array = std::make_unique<Array>(spec);
  array->dims = coo.dims;
  // Each entry's position at the level being packed (its parent's first).
  std::vector<uint64_t> at(n, 0);
  uint64_t parents = 1;
  for (unsigned l = 0; l < L; ++l) {
    const LevelKind *k = spec.levels[l].kind;
    const uint64_t *col = coo.cols[spec.order[l]];
    uint64_t dim = coo.dims[spec.order[l]];
    LevelBuffers b;
    b.posWidth = spec.posWidth;
    b.crdWidth = spec.crdWidth;
    b.parentDim = l ? coo.dims[spec.order[l - 1]] : 0;
    b.dim = dim;
    b.setParams(spec.levels[l].params);
    b.parents = parents;
    // (What a level storing coordinates sizes its storage by.)
    if (k->hasCoordinates())
      b.mostChildren = mostPerParent(at, parents);
    uint64_t positions;
    if (!prepareLevel(*array, l, b, nullptr, n, n, positions, error))
      return nullptr;
    if (int ci = spec.crdBufferIndex(l); ci >= 0) {
      uint64_t len = k->crdLength(positions);
      b.crd = checkedMalloc(len, spec.crdWidth / 8, "coordinates");
      b.crdLen = len;
      array->buffers[ci] = {b.crd, len, true};
    }
    k->insertInit(b, parents);
    for (uint64_t e = 0; e < n; ++e)
      at[e] = k->append(b, at[e], col[e], dim);
    k->finish(b, parents);
    parents = positions;
  }
  // The values: the fill where no entry went; two entries at one position
  // are one point given twice.
  unsigned bytes = elemBytes(spec.elem);
  char *out = static_cast<char *>(checkedMalloc(parents, bytes, "values"));
  for (uint64_t p = 0; p < parents; ++p)
    std::memcpy(out + p * bytes, &spec.fill, bytes);
  array->buffers[spec.valuesBufferIndex()] = {out, parents, true};
  std::vector<bool> written(parents, false);
  const char *in = static_cast<const char *>(coo.vals);
  for (uint64_t e = 0; e < n; ++e) {
    if (written[at[e]]) {
      error.message = "duplicate entry";
      error.duplicate.clear();
      for (unsigned d = 0; d < coo.rank(); ++d)
        error.duplicate.push_back(coo.cols[d][e]);
      return nullptr;
    }
    written[at[e]] = true;
    std::memcpy(out + at[e] * bytes, in + e * bytes, bytes);
  }
  return array;
}

} // namespace sa_rt
