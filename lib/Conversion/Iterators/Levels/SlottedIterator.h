//===- SlottedIterator.h - Levels of W slots per parent position -*- C++ -*-===//
//
// What the iterators of seed 002's ELL and hashed levels share
// (runtime/lib/levels/SlottedKind.h): parent position p owns the W slots
// [p W, (p + 1) W) of the coordinates buffer, W in the one-entry `width`
// buffer, read once (loadParameter); a free slot's coordinate is all-ones,
// not below the extent.
//
//===----------------------------------------------------------------------===//

#ifndef SPARSEARRAY_CONVERSION_SLOTTEDITERATOR_H
#define SPARSEARRAY_CONVERSION_SLOTTEDITERATOR_H

#include "SparseArray/Conversion/LevelIterator.h"

#include "CodegenUtils.h"

namespace mlir {
namespace sparse_array {

class SlottedIterator : public LevelIterator {
public:
  Value coordinate(OpBuilder &b, Location loc, Value, Value pos) override {
    return loadIndex(b, loc, coordinates, pos);
  }

protected:
  SlottedIterator(LevelSpec spec, const LevelBuffers &buffers)
      : LevelIterator(spec), width(buffers.declared[0]),
        coordinates(buffers.coordinates), size(buffers.size) {}

  /// W, loaded once (loadParameter) from the `width` buffer (declared
  /// first), or a constant where the format's type gives it.
  virtual Value slotWidth(OpBuilder &b, Location loc) {
    if (!loadedWidth)
      loadedWidth = loadParameter(b, loc, width);
    return loadedWidth;
  }

  Value width, coordinates, size, loadedWidth;
};

/// Rows of W slots, entries first (coordinates ascending), then padding
/// (seed 002's ELL, N:M structured levels): parent position p's segment
/// starts at p W and ends at its first padding slot (a coordinate >= the
/// extent: all-ones), found by bisection over the W slots, skipped when
/// the last slot holds an entry (a full row).
class PaddedRowsIterator : public SlottedIterator {
public:
  bool canLocate() const override { return false; }
  bool shortSegments() const override { return true; }
  std::pair<Value, Value> init(OpBuilder &b, Location loc, Value lo,
                               Value) override;

protected:
  using SlottedIterator::SlottedIterator;
};

} // namespace sparse_array
} // namespace mlir

#endif // SPARSEARRAY_CONVERSION_SLOTTEDITERATOR_H
