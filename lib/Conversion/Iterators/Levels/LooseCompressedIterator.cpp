//===- LooseCompressedIterator.cpp - Iterating a loose_compressed level ---===//
//
// seed 002 §4's position iteration for the loose compressed level
// (kLooseCompressedTraits, SparseArrayLevelTraits.h): parent position p's
// segment is [bounds[2 p], bounds[2 p + 1]) — two loads where compressed
// reads positions[p] and positions[p + 1]; coordinates, a non-unique
// level's runs and search as for compressed (LevelIterator's).
//
//===----------------------------------------------------------------------===//

#include "SparseArray/Conversion/LevelIterator.h"

#include "CodegenUtils.h"

#include "mlir/Dialect/Arith/IR/Arith.h"

using namespace mlir;
using namespace mlir::sparse_array;

namespace {

class LooseCompressedIterator final : public LevelIterator {
public:
  LooseCompressedIterator(LevelSpec spec, const LevelBuffers &buffers)
      : LevelIterator(spec), bounds(buffers.declared[0]),
        coordinates(buffers.coordinates) {}

  bool canLocate() const override { return false; }

  std::pair<Value, Value> init(OpBuilder &b, Location loc, Value lo,
                               Value) override {
    // The parent is unique (checkParent): one parent position.
    Value at = arith::MulIOp::create(b, loc, lo, constIndex(b, loc, 2));
    Value after = arith::AddIOp::create(b, loc, at, constIndex(b, loc, 1));
    return {loadIndex(b, loc, bounds, at), loadIndex(b, loc, bounds, after)};
  }

  Value coordinate(OpBuilder &b, Location loc, Value, Value pos) override {
    return loadIndex(b, loc, coordinates, pos);
  }

private:
  Value bounds, coordinates;
};

} // namespace

std::unique_ptr<LevelIterator>
mlir::sparse_array::makeLooseCompressedIterator(LevelSpec spec,
                                                const LevelBuffers &buffers) {
  return std::make_unique<LooseCompressedIterator>(spec, buffers);
}
