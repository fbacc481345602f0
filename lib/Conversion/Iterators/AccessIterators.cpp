//===- AccessIterators.cpp - A level read through a combinator ------------===//
//
// seed 001 §5.1 (slices, windows and products of sequences) and §6.3.1
// (locating instead of iterating): each combinator an access applies to a
// level is a wrapper of the level's iterator that maps the loop's
// coordinate to the level's when locating. Iterating the combinator is the
// plan's sequence view (lib/Conversion/Iterators/SequenceIterator.cpp); the
// wrapper says which view that must be (accessView).
//
//===----------------------------------------------------------------------===//

#include "SparseArray/Conversion/LevelIterator.h"
#include "SparseArray/Transforms/Coiteration.h"

#include "CodegenUtils.h"

#include "mlir/Dialect/Arith/IR/Arith.h"

using namespace mlir;
using namespace mlir::sparse_array;

namespace {

/// Everything the wrapped level's iterator answers, passed through.
class AccessWrapper : public LevelIterator {
public:
  explicit AccessWrapper(std::unique_ptr<LevelIterator> base)
      : LevelIterator(base->getSpec()), base(std::move(base)) {}
  bool canLocate() const override { return base->canLocate(); }
  std::pair<Value, Value> init(OpBuilder &b, Location loc, Value lo,
                               Value hi) override {
    return base->init(b, loc, lo, hi);
  }
  Value coordinate(OpBuilder &b, Location loc, Value begin,
                   Value pos) override {
    return base->coordinate(b, loc, begin, pos);
  }
  Value next(OpBuilder &b, Location loc, Value pos, Value end) override {
    return base->next(b, loc, pos, end);
  }
  Value locate(OpBuilder &b, Location loc, Value parent, Value crd) override {
    return base->locate(b, loc, parent, crd);
  }
  std::pair<Value, Value> storedSegment(OpBuilder &b, Location loc, Value lo,
                                        Value hi) override {
    return base->storedSegment(b, loc, lo, hi);
  }
  bool isReflected() const override { return base->isReflected(); }
  // An access reads a part of the base's segments, never more.
  bool shortSegments() const override { return base->shortSegments(); }
  Value locateAccess(OpBuilder &b, Location loc, Value parent, Value x,
                     ArrayRef<Value> loops, Value &found) override {
    return base->locateAccess(b, loc, parent, x, loops, found);
  }
  std::pair<Value, Value> accessWindow(OpBuilder &b, Location loc,
                                       ArrayRef<Value> loops) override {
    return base->accessWindow(b, loc, loops);
  }
  Value partExtent(OpBuilder &b, Location loc) override {
    return base->partExtent(b, loc);
  }
  bool continuesCollapse() const override { return base->continuesCollapse(); }
  bool missLandsInBounds() const override { return base->missLandsInBounds(); }
  SequenceExpr accessView(unsigned k, unsigned group) const override {
    return base->accessView(k, group);
  }

protected:
  std::unique_ptr<LevelIterator> base;
};

class SlicedAccess : public AccessWrapper {
public:
  SlicedAccess(std::unique_ptr<LevelIterator> base,
               std::array<int64_t, 3> slice,
               std::optional<std::array<int64_t, 2>> bound)
      : AccessWrapper(std::move(base)), slice(slice), bound(bound) {}
  Value locateAccess(OpBuilder &b, Location loc, Value parent, Value x,
                     ArrayRef<Value> loops, Value &found) override {
    Value crd = linearize(b, loc, x, constIndex(b, loc, slice[2]),
                          constIndex(b, loc, slice[0]));
    return base->locateAccess(b, loc, parent, crd, loops, found);
  }
  SequenceExpr accessView(unsigned k, unsigned) const override {
    return slicedView(k, slice, bound);
  }

private:
  std::array<int64_t, 3> slice;
  std::optional<std::array<int64_t, 2>> bound;
};

class PaddedAccess : public AccessWrapper {
public:
  PaddedAccess(std::unique_ptr<LevelIterator> base, int64_t validLo,
               int64_t validHi)
      : AccessWrapper(std::move(base)), validLo(validLo), validHi(validHi) {}
  Value locateAccess(OpBuilder &b, Location loc, Value parent, Value crd,
                     ArrayRef<Value> loops, Value &found) override {
    Value first = constIndex(b, loc, validLo);
    Value inside = arith::AndIOp::create(
        b, loc,
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sge, crd, first),
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt, crd,
                              constIndex(b, loc, validHi)));
    crd = arith::SelectOp::create(b, loc, inside, crd, first);
    found =
        found ? Value(arith::AndIOp::create(b, loc, found, inside)) : inside;
    return base->locateAccess(b, loc, parent, crd, loops, found);
  }
  // Outside the window it locates validLo, which an empty level lacks.
  bool missLandsInBounds() const override { return false; }

private:
  int64_t validLo, validHi;
};

class CollapsedPartAccess : public AccessWrapper {
public:
  CollapsedPartAccess(std::unique_ptr<LevelIterator> base, unsigned part,
                      int64_t divisor, int64_t modulus)
      : AccessWrapper(std::move(base)), part(part), divisor(divisor),
        modulus(modulus) {}
  Value locateAccess(OpBuilder &b, Location loc, Value parent, Value x,
                     ArrayRef<Value> loops, Value &found) override {
    if (divisor != 1)
      x = arith::DivUIOp::create(b, loc, x, constIndex(b, loc, divisor));
    if (modulus)
      x = arith::RemUIOp::create(b, loc, x, constIndex(b, loc, modulus));
    return base->locateAccess(b, loc, parent, x, loops, found);
  }
  Value partExtent(OpBuilder &b, Location loc) override {
    return modulus ? constIndex(b, loc, modulus) : Value();
  }
  bool continuesCollapse() const override { return part > 0; }
  SequenceExpr accessView(unsigned k, unsigned group) const override {
    return group > 1 ? collapsedView(k, group) : base->accessView(k, group);
  }

private:
  unsigned part;
  int64_t divisor, modulus;
};

class WindowedAccess : public AccessWrapper {
public:
  WindowedAccess(std::unique_ptr<LevelIterator> base, ArrayRef<unsigned> loops,
                 ArrayRef<int64_t> sizes, int64_t size)
      : AccessWrapper(std::move(base)), loops(loops), sizes(sizes), size(size) {
  }
  Value locateAccess(OpBuilder &b, Location loc, Value parent, Value x,
                     ArrayRef<Value> coords, Value &found) override {
    x = arith::AddIOp::create(b, loc, x, start(b, loc, coords));
    return base->locateAccess(b, loc, parent, x, coords, found);
  }
  std::pair<Value, Value> accessWindow(OpBuilder &b, Location loc,
                                       ArrayRef<Value> coords) override {
    Value lo = start(b, loc, coords);
    return {lo, arith::AddIOp::create(b, loc, lo, constIndex(b, loc, size))};
  }
  SequenceExpr accessView(unsigned k, unsigned group) const override {
    return group > 1 ? collapsedView(k, group, /*windowed=*/true)
                     : base->accessView(k, group);
  }

private:
  /// The first coordinate of the window the enclosing loops are at.
  Value start(OpBuilder &b, Location loc, ArrayRef<Value> coords) const {
    Value w = coords[loops.front()];
    for (auto [i, l] : llvm::enumerate(ArrayRef(loops).drop_front()))
      w = linearize(b, loc, w, constIndex(b, loc, sizes[i]), coords[l]);
    return arith::MulIOp::create(b, loc, w, constIndex(b, loc, size));
  }
  SmallVector<unsigned, 1> loops;
  SmallVector<int64_t, 1> sizes;
  int64_t size;
};

} // namespace

std::unique_ptr<LevelIterator> mlir::sparse_array::makeSlicedAccess(
    std::unique_ptr<LevelIterator> base, std::array<int64_t, 3> slice,
    std::optional<std::array<int64_t, 2>> bound) {
  return std::make_unique<SlicedAccess>(std::move(base), slice, bound);
}

std::unique_ptr<LevelIterator>
mlir::sparse_array::makePaddedAccess(std::unique_ptr<LevelIterator> base,
                                     int64_t validLo, int64_t validHi) {
  return std::make_unique<PaddedAccess>(std::move(base), validLo, validHi);
}

std::unique_ptr<LevelIterator>
mlir::sparse_array::makeCollapsedPartAccess(std::unique_ptr<LevelIterator> base,
                                            unsigned part, int64_t divisor,
                                            int64_t modulus) {
  return std::make_unique<CollapsedPartAccess>(std::move(base), part, divisor,
                                               modulus);
}

std::unique_ptr<LevelIterator>
mlir::sparse_array::makeWindowedAccess(std::unique_ptr<LevelIterator> base,
                                       ArrayRef<unsigned> loops,
                                       ArrayRef<int64_t> sizes, int64_t size) {
  return std::make_unique<WindowedAccess>(std::move(base), loops, sizes, size);
}
