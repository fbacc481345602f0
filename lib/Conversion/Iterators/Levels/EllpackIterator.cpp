//===- EllpackIterator.cpp - Iterating an ellpack level (ELL) -------------===//
//
// seed 002 §4 for the ellpack level (kEllpackTraits, SparseArrayLevelTraits.h):
// padded rows (PaddedRowsIterator) of W slots, W read from the level's
// one-entry `width` buffer.
//
//===----------------------------------------------------------------------===//

#include "SlottedIterator.h"

using namespace mlir;
using namespace mlir::sparse_array;

namespace {

class EllpackIterator final : public PaddedRowsIterator {
public:
  EllpackIterator(LevelSpec spec, const LevelBuffers &buffers)
      : PaddedRowsIterator(spec, buffers) {}
};

} // namespace

std::unique_ptr<LevelIterator>
mlir::sparse_array::makeEllpackIterator(LevelSpec spec,
                                        const LevelBuffers &buffers) {
  return std::make_unique<EllpackIterator>(spec, buffers);
}
