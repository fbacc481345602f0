//===- PaddedRowsIterator.cpp - Rows of slots, entries then padding ------===//
//
// seed 002 §4 for levels of padded rows (SlottedIterator.h): ELL's, and N:M
// structured ones'.
//
//===----------------------------------------------------------------------===//

#include "SlottedIterator.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;
using namespace mlir::sparse_array;

std::pair<Value, Value> PaddedRowsIterator::init(OpBuilder &b, Location loc,
                                               Value lo, Value) {
  // The parent is full, hence unique: one parent position.
  Value zero = constIndex(b, loc, 0);
  Value w = slotWidth(b, loc);
  Value begin = arith::MulIOp::create(b, loc, lo, w);
  auto isEntry = [&](OpBuilder &wb, Location l, Value q) -> Value {
    return arith::CmpIOp::create(wb, l, arith::CmpIPredicate::ult,
                                 loadIndex(wb, l, coordinates, q), size);
  };
  auto end = scf::IfOp::create(
      b, loc, arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, w, zero),
      [&](OpBuilder &tb, Location l) { scf::YieldOp::create(tb, l, begin); },
      [&](OpBuilder &eb, Location l) {
        Value last = arith::SubIOp::create(
            eb, l, arith::AddIOp::create(eb, l, begin, w),
            constIndex(eb, l, 1));
        auto full = scf::IfOp::create(
            eb, l, isEntry(eb, l, last),
            [&](OpBuilder &fb, Location fl) {
              Value after = arith::AddIOp::create(fb, fl, last,
                                                  constIndex(fb, fl, 1));
              scf::YieldOp::create(fb, fl, after);
            },
            [&](OpBuilder &sb, Location sl) {
              // Entries then padding over [begin, last]: the first
              // padding slot (last itself is one).
              scf::YieldOp::create(sb, sl,
                                   emitLowerBound(sb, sl, begin, last, isEntry));
            });
        scf::YieldOp::create(eb, l, full.getResult(0));
      });
  return {begin, end.getResult(0)};
}
