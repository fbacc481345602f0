//===- RangeMoves.cpp - Stored ranges written into a result ----------===//
//
// RangeSink's copies of ranges and runs, the loop over a cut level's
// parents, and the move that allocates, writes, shrinks and assembles a
// result (see MoveRanges.cpp for what is moved and why).
//
//===----------------------------------------------------------------------===//

#include "SparseArray/Conversion/LevelIterator.h"
#include "SparseArray/Conversion/Passes.h"
#include "SparseArray/Dialect/LevelFormat.h"
#include "SparseArray/Dialect/SparseArray.h"

#include "CodegenUtils.h"
#include "Output/OutputAssembler.h"
#include "RangeMoves.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/PatternMatch.h"

using namespace mlir;
using namespace mlir::sparse_array;
using namespace mlir::sparse_array::detail;

void mlir::sparse_array::detail::forEach(
    OpBuilder &b, Location loc, Value n,
    function_ref<void(OpBuilder &, Value)> body) {
  Value zero = constIndex(b, loc, 0), one = constIndex(b, loc, 1);
  auto loop = scf::ForOp::create(b, loc, zero, n, one);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(loop.getBody());
  body(b, loop.getInductionVar());
}

SmallVector<Value> RangeSink::copy(OpBuilder &b, Location loc, RangeSource &src,
                                   unsigned l, Value lo, Value hi,
                                   ValueRange cursor, Value shift) {
  unsigned last = src.numLevels() - 1;
  Value n = arith::SubIOp::create(b, loc, hi, lo);
  Value at = cursor[l];
  Value srcCrd = src.buffers[l].coordinates;
  SmallVector<Value> next(cursor);
  // Coordinates, and the values on the last level (counting those equal
  // to the fill), in one loop.
  bool count = l == last && countedFill;
  if (srcCrd || l == last) {
    // One entry t: coordinates moved (at the cut level), the value
    // copied; returns whether it equals the fill (when counted).
    auto moveCoordinate = [&](OpBuilder &lb, Value from, Value to) {
      Value c = memref::LoadOp::create(lb, loc, srcCrd, ValueRange{from});
      if (l == cutLevel)
        c = arith::AddIOp::create(
            lb, loc, c,
            arith::IndexCastOp::create(lb, loc, c.getType(), shift));
      memref::StoreOp::create(lb, loc, c, coordinates[l], ValueRange{to});
    };
    auto body = [&](OpBuilder &lb, Value t) -> Value {
      Value from = arith::AddIOp::create(lb, loc, lo, t);
      Value to = arith::AddIOp::create(lb, loc, at, t);
      if (srcCrd)
        moveCoordinate(lb, from, to);
      if (l != last)
        return Value();
      Value v = memref::LoadOp::create(lb, loc, src.values, ValueRange{from});
      memref::StoreOp::create(lb, loc, v, values, ValueRange{to});
      if (!count)
        return Value();
      return arith::IndexCastUIOp::create(
          lb, loc, lb.getIndexType(),
          arith::XOrIOp::create(lb, loc, differsFrom(lb, loc, v, countedFill),
                                arith::ConstantIntOp::create(lb, loc, 1, 1)));
    };
    Value zero = constIndex(b, loc, 0), one = constIndex(b, loc, 1);
    if (!count) {
      forEach(b, loc, n, [&](OpBuilder &lb, Value t) { body(lb, t); });
    } else {
      // Counted over [first, stop), from `fills`.
      auto countLoop = [&](OpBuilder &lb, Value first, Value stop,
                           Value fills) {
        auto loop =
            scf::ForOp::create(lb, loc, first, stop, one, ValueRange{fills});
        OpBuilder::InsertionGuard inner(lb);
        lb.setInsertionPointToStart(loop.getBody());
        Value sum = arith::AddIOp::create(lb, loc, loop.getRegionIterArgs()[0],
                                          body(lb, loop.getInductionVar()));
        scf::YieldOp::create(lb, loc, sum);
        return loop.getResult(0);
      };
      // Long ranges as plain copies (the coordinates' a memcpy, or a
      // vectorized add when shifted) and the values copied and counted
      // in blocks from L1 (copyRangeCountingFills). Short ones (rows) in
      // one loop, without the blocks' overhead.
      // A range long enough to copy on threads is long.
      int64_t longer = 4096;
      if (parallelCopyMin > 0)
        longer = std::min(longer, parallelCopyMin - 1);
      Value isLong = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ugt, n,
                                           constIndex(b, loc, longer));
      auto branch = scf::IfOp::create(
          b, loc, isLong,
          [&](OpBuilder &tb, Location l2) {
            // Unshifted coordinates are a bulk copy (memcpy).
            if (srcCrd && l != cutLevel)
              sparse_array::detail::copyRange(
                  tb, l2, srcCrd, lo, coordinates[l], at, n, parallelCopyMin);
            else if (srcCrd)
              forEach(tb, l2, n, [&](OpBuilder &lb, Value t) {
                moveCoordinate(lb, arith::AddIOp::create(lb, l2, lo, t),
                               arith::AddIOp::create(lb, l2, at, t));
              });
            scf::YieldOp::create(tb, l2,
                                 sparse_array::detail::copyRangeCountingFills(
                                     tb, l2, src.values, lo, values, at, n,
                                     countedFill, cursor.back(),
                                     parallelCopyMin));
          },
          [&](OpBuilder &eb, Location l2) {
            scf::YieldOp::create(eb, l2, countLoop(eb, zero, n, cursor.back()));
          });
      next.back() = branch.getResult(0);
    }
  }
  next[l] = arith::AddIOp::create(b, loc, at, n);
  if (l == last)
    return next;
  // The children of [lo, hi): their positions, each moved by the
  // distance between where they start in the source and in the result.
  auto [childLo, childHi] = src.its[l + 1]->init(b, loc, lo, hi);
  if (Value srcPos = src.buffers[l + 1].positions) {
    Type t = cast<MemRefType>(srcPos.getType()).getElementType();
    Value delta = arith::IndexCastOp::create(
        b, loc, t, arith::SubIOp::create(b, loc, cursor[l + 1], childLo));
    Value one = constIndex(b, loc, 1);
    Value from0 = arith::AddIOp::create(b, loc, lo, one);
    Value to0 = arith::AddIOp::create(b, loc, at, one);
    forEach(b, loc, n, [&](OpBuilder &lb, Value t) {
      Value p = memref::LoadOp::create(
          lb, loc, srcPos,
          ValueRange{arith::AddIOp::create(lb, loc, from0, t)});
      memref::StoreOp::create(
          lb, loc, arith::AddIOp::create(lb, loc, p, delta), positions[l + 1],
          ValueRange{arith::AddIOp::create(lb, loc, to0, t)});
    });
  }
  return copy(b, loc, src, l + 1, childLo, childHi, next, shift);
}

bool RangeSink::copiesEntries(RangeSource &src, unsigned l) {
  for (unsigned j = l + 1; j < src.numLevels(); ++j) {
    const LevelSpec &spec = src.its[j]->getSpec();
    if (!spec.isBranchless() || spec.format->hasPositionsBuffer() ||
        !src.buffers[j].coordinates)
      return false;
  }
  return src.buffers[l].coordinates != nullptr;
}

std::pair<SmallVector<Value>, Value>
RangeSink::copyRun(OpBuilder &b, Location loc, RangeSource &src, unsigned l,
                   Value first, Value end, Value x, ValueRange cursor,
                   Value shift) {
  unsigned last = src.numLevels() - 1;
  Value zero = constIndex(b, loc, 0), one = constIndex(b, loc, 1);
  // Position of the run's first entry at each level (one child each).
  SmallVector<Value> base(last + 1);
  base[l] = first;
  for (unsigned j = l + 1; j <= last; ++j)
    base[j] = src.its[j]
                  ->init(b, loc, base[j - 1],
                         arith::AddIOp::create(b, loc, base[j - 1], one))
                  .first;
  SmallVector<Value> init{zero};
  if (countedFill)
    init.push_back(cursor.back());
  SmallVector<Type> types(init.size(), b.getIndexType());
  auto loop = scf::WhileOp::create(
      b, loc, types, init,
      [&](OpBuilder &lb, Location l2, ValueRange args) {
        Value t = args[0];
        for (unsigned j = l; j <= last; ++j) {
          Value from = arith::AddIOp::create(lb, l2, base[j], t);
          Value c = memref::LoadOp::create(lb, l2, src.buffers[j].coordinates,
                                           ValueRange{from});
          if (j == cutLevel)
            c = arith::AddIOp::create(
                lb, l2, c,
                arith::IndexCastOp::create(lb, l2, c.getType(), shift));
          memref::StoreOp::create(
              lb, l2, c, coordinates[j],
              ValueRange{arith::AddIOp::create(lb, l2, cursor[j], t)});
        }
        Value v = memref::LoadOp::create(
            lb, l2, src.values,
            ValueRange{arith::AddIOp::create(lb, l2, base[last], t)});
        memref::StoreOp::create(
            lb, l2, v, values,
            ValueRange{arith::AddIOp::create(lb, l2, cursor[last], t)});
        SmallVector<Value> next{arith::AddIOp::create(lb, l2, t, one)};
        if (countedFill)
          next.push_back(arith::AddIOp::create(
              lb, l2, args[1],
              arith::IndexCastUIOp::create(
                  lb, l2, lb.getIndexType(),
                  arith::XOrIOp::create(
                      lb, l2, differsFrom(lb, l2, v, countedFill),
                      arith::ConstantIntOp::create(lb, l2, 1, 1)))));
        Value more = src.its[l]->matches(
            lb, l2, Value(), arith::AddIOp::create(lb, l2, first, next[0]), end,
            x);
        scf::ConditionOp::create(lb, l2, more, next);
      },
      [&](OpBuilder &lb, Location l2, ValueRange args) {
        scf::YieldOp::create(lb, l2, args);
      });
  Value n = loop.getResult(0);
  SmallVector<Value> c(cursor);
  for (unsigned j = l; j <= last; ++j)
    c[j] = arith::AddIOp::create(b, loc, cursor[j], n);
  if (countedFill)
    c.back() = loop.getResult(1);
  return {c, arith::AddIOp::create(b, loc, first, n)};
}

/// The loop over the parents [first, last) of level `cut` when the levels
/// above are full: `body` writes one parent's ranges, the cut level's
/// positions follow each parent.
SmallVector<Value> mlir::sparse_array::detail::emitParentLoop(
    OpBuilder &b, Location loc, RangeSink &sink, ValueRange cursor,
    unsigned cut, Value first, Value last,
    function_ref<SmallVector<Value>(OpBuilder &, Value, ValueRange)> body) {
  Value one = constIndex(b, loc, 1);
  auto loop =
      scf::ForOp::create(b, loc, first, last, one, cursor.drop_front(cut));
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(loop.getBody());
  Value r = loop.getInductionVar();
  SmallVector<Value> c(cursor.take_front(cut));
  llvm::append_range(c, loop.getRegionIterArgs());
  c = body(b, r, c);
  if (Value pos = sink.positions[cut])
    storeIndex(b, loc, c[cut], pos, arith::AddIOp::create(b, loc, r, one));
  scf::YieldOp::create(b, loc, ArrayRef(c).drop_front(cut));
  SmallVector<Value> out(cursor.take_front(cut));
  llvm::append_range(out, loop.getResults());
  return out;
}

/// Allocates the result's buffers from level `first` on, writes them
/// (`move.emit`), shrinks them to what was written and assembles the
/// result with dimension sizes `dims`.
Value mlir::sparse_array::detail::emitRangeMove(OpBuilder &b, Location loc,
                                                Operation *op, RangeMove &move,
                                                ArrayRef<Value> dims,
                                                int64_t parallelCopyMin) {
  FormatAttr format = move.resultType.getFormat();
  unsigned numLevels = format.getNumLevels();
  Type posType = b.getIntegerType(format.getPosWidth());
  Type crdType = b.getIntegerType(format.getCrdWidth());
  Value zero = constIndex(b, loc, 0), one = constIndex(b, loc, 1);
  RangeSink sink;
  sink.cutLevel = move.cut;
  sink.parallelCopyMin = parallelCopyMin;
  sink.positions.assign(numLevels, Value());
  sink.coordinates.assign(numLevels, Value());
  for (unsigned l = move.first; l < numLevels; ++l) {
    const LevelFormat *lf = format.getLevels()[l].format;
    if (lf->hasPositionsBuffer()) {
      sink.positions[l] = sparse_array::detail::allocOutputBuffer(
          b, loc, op, bufferOf(posType), move.posCapacity[l]);
      storeIndex(b, loc, zero, sink.positions[l], zero);
    }
    if (lf->hasCoordinatesBuffer())
      sink.coordinates[l] = sparse_array::detail::allocOutputBuffer(
          b, loc, op, bufferOf(crdType), move.crdCapacity[l]);
  }
  sink.values = sparse_array::detail::allocOutputBuffer(
      b, loc, op, bufferOf(move.resultType.getElementType()),
      move.crdCapacity[numLevels - 1]);

  // Stored values equal to the fill are counted unless the last level is
  // full (a full level stores every entry).
  if (!format.getLevels().back().isFull())
    sink.countedFill = format.getFill();
  // The cursors of every level (those above `first` stay 0), and the count
  // of stored fills.
  SmallVector<Value> init(numLevels + (sink.countedFill ? 1 : 0), zero);
  SmallVector<Value> written = move.emit(b, sink, init);
  Value storedFills;
  if (sink.countedFill)
    storedFills = written.pop_back_val();
  auto resize = [&](Value buffer, Value size) {
    return move.exact ? buffer : emitResize(b, loc, buffer, size);
  };
  // Positions written per level: the parents' count + 1.
  SmallVector<Value> buffers;
  for (unsigned l = move.first; l < numLevels; ++l) {
    if (Value pos = sink.positions[l]) {
      Value count = l == move.first ? move.firstParents : written[l - 1];
      buffers.push_back(resize(pos, arith::AddIOp::create(b, loc, count, one)));
    }
    if (Value crd = sink.coordinates[l])
      buffers.push_back(resize(crd, written[l]));
  }
  buffers.push_back(resize(sink.values, written.back()));
  Value result = AssembleOp::create(b, loc, move.resultType, buffers, dims);
  if (!storedFills)
    return result;
  // An input stored explicit fills: drop them (rare: readers, kernels and
  // conversions never store them).
  return sparse_array::detail::dropStoredFills(b, loc, result, storedFills);
}

/// The product of the sizes of the levels above `cut` (full levels): the
/// parents of level `cut`.
Value mlir::sparse_array::detail::parentsOf(OpBuilder &b, Location loc,
                                            ArrayType type,
                                            ArrayRef<Value> dims,
                                            unsigned cut) {
  Value n = constIndex(b, loc, 1);
  for (unsigned l = 0; l < cut; ++l)
    n = arith::MulIOp::create(b, loc, n, dims[type.getFormat().getLevelDim(l)]);
  return n;
}

SmallVector<Value>
mlir::sparse_array::detail::dimSizes(OpBuilder &b, Location loc, Value array) {
  SmallVector<Value> dims;
  auto type = cast<ArrayType>(array.getType());
  for (unsigned d = 0; d < type.getRank(); ++d)
    dims.push_back(type.isDynamicDim(d)
                       ? Value(DimOp::create(b, loc, array, int64_t(d)))
                       : constIndex(b, loc, type.getShape()[d]));
  return dims;
}
