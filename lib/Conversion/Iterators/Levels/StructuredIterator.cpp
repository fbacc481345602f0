//===- StructuredIterator.cpp - Iterating an N:M structured level ---------===//
//
// `structured[n, m]` (kStructuredTraits, SparseArrayLevelTraits.h): padded
// rows (PaddedRowsIterator) of n slots, n a constant of the type.
//
//===----------------------------------------------------------------------===//

#include "SlottedIterator.h"

using namespace mlir;
using namespace mlir::sparse_array;

namespace {

class StructuredIterator final : public PaddedRowsIterator {
public:
  StructuredIterator(LevelSpec spec, const LevelBuffers &buffers)
      : PaddedRowsIterator(spec, buffers) {}

  Value slotWidth(OpBuilder &b, Location loc) override {
    return constIndex(b, loc, static_cast<int64_t>(spec.params[0]));
  }
};

} // namespace

std::unique_ptr<LevelIterator>
mlir::sparse_array::makeStructuredIterator(LevelSpec spec,
                                           const LevelBuffers &buffers) {
  return std::make_unique<StructuredIterator>(spec, buffers);
}
