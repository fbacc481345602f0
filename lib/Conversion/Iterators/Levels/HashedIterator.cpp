//===- HashedIterator.cpp - Locating in a hashed level --------------------===//
//
// seed 002 Table 2's locate for the hashed level (kHashedTraits,
// SparseArrayLevelTraits.h): below parent position p, coordinate c is
// looked for from slot p W + hashedHome(c, W), stepping to the next slot
// (wrapping within the segment) past other coordinates, until c or an
// empty slot (a coordinate >= the extent: all-ones). The probe can miss:
// it reports `found` (seed 002's pair <p_k, crd[p_k] == i_k>) and stops at
// a slot of the segment, where an empty slot holds the fill. The level is
// unordered, so kernels always locate it (canLocate); its segment is the
// parent's W slots for code that walks positions (empty slots included).
//
//===----------------------------------------------------------------------===//

#include "SlottedIterator.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;
using namespace mlir::sparse_array;

namespace {

class HashedIterator final : public SlottedIterator {
public:
  HashedIterator(LevelSpec spec, const LevelBuffers &buffers)
      : SlottedIterator(spec, buffers) {}

  bool canLocate() const override { return true; }

  std::pair<Value, Value> init(OpBuilder &b, Location loc, Value lo,
                               Value) override {
    // The parent is unique: one parent position, W slots.
    Value w = slotWidth(b, loc);
    Value begin = arith::MulIOp::create(b, loc, lo, w);
    return {begin, arith::AddIOp::create(b, loc, begin, w)};
  }

  Value locate(OpBuilder &b, Location loc, Value parent, Value crd) override {
    // Where a miss lands, an empty slot holds the fill (the runtime's
    // invariant): a caller without `found` reads the fill there.
    return probe(b, loc, parent, crd).first;
  }

  Value locateAccess(OpBuilder &b, Location loc, Value parent, Value x,
                     ArrayRef<Value>, Value &found) override {
    auto [pos, hit] = probe(b, loc, parent, x);
    found = found ? Value(arith::AndIOp::create(b, loc, found, hit)) : hit;
    return pos;
  }

  // A miss stops at a slot of the parent's table (W >= 1).
  bool missLandsInBounds() const override { return true; }

private:
  /// The slot holding `crd` below `parent`, or the empty slot (or, in a
  /// table without one, the home slot again) where the probe stopped; and
  /// whether it holds `crd`.
  std::pair<Value, Value> probe(OpBuilder &b, Location loc, Value parent,
                                Value crd) {
    Value w = slotWidth(b, loc);
    Value one = constIndex(b, loc, 1);
    Value mask = arith::SubIOp::create(b, loc, w, one);
    Value base = arith::MulIOp::create(b, loc, parent, w);
    // hashedHome: bits 32.. of crd * kHashMultiplier, masked.
    Value product = arith::MulIOp::create(
        b, loc, crd,
        constIndex(b, loc,
                   static_cast<int64_t>(sparse_array_levels::kHashMultiplier)));
    Value home = arith::AndIOp::create(
        b, loc,
        arith::ShRUIOp::create(b, loc, product, constIndex(b, loc, 32)), mask);
    Type index = b.getIndexType();
    // (slot, probes so far) -> (slot, probes, coordinate there): stop at
    // crd, an empty slot, or after W probes (a table validated elsewhere
    // always has an empty slot; the bound keeps any table finite).
    auto loop = scf::WhileOp::create(
        b, loc, TypeRange{index, index, index},
        ValueRange{home, constIndex(b, loc, 0)},
        [&](OpBuilder &bb, Location l, ValueRange args) {
          Value at = loadIndex(bb, l, coordinates,
                               arith::AddIOp::create(bb, l, base, args[0]));
          Value other = arith::AndIOp::create(
              bb, l,
              arith::CmpIOp::create(bb, l, arith::CmpIPredicate::ne, at, crd),
              arith::CmpIOp::create(bb, l, arith::CmpIPredicate::ult, at,
                                    size));
          Value more = arith::AndIOp::create(
              bb, l, other,
              arith::CmpIOp::create(bb, l, arith::CmpIPredicate::ult, args[1],
                                    w));
          scf::ConditionOp::create(bb, l, more,
                                   ValueRange{args[0], args[1], at});
        },
        [&](OpBuilder &ab, Location l, ValueRange args) {
          Value step = arith::AndIOp::create(
              ab, l, arith::AddIOp::create(ab, l, args[0], one), mask);
          scf::YieldOp::create(
              ab, l,
              ValueRange{step, arith::AddIOp::create(ab, l, args[1], one)});
        });
    Value pos = arith::AddIOp::create(b, loc, base, loop.getResult(0));
    Value hit = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq,
                                      loop.getResult(2), crd);
    return {pos, hit};
  }
};

} // namespace

std::unique_ptr<LevelIterator>
mlir::sparse_array::makeHashedIterator(LevelSpec spec,
                                       const LevelBuffers &buffers) {
  return std::make_unique<HashedIterator>(spec, buffers);
}
