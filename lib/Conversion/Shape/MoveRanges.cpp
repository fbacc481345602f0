//===- MoveRanges.cpp - slice and concat as copies of stored ranges -------===//
//
// A slice or a concatenation that computes nothing (StoredRanges.cpp says
// when) keeps the source's stored entries in their order: per parent
// position of the level storing the cut dimension (the levels above are
// full, so the parents are alike in every part and in the result), the
// result's entries are one range of each part's positions (seed 002 §3.1:
// a range of positions owns a range at every lower level). So the result
// is written a range at a time: coordinates copied (shifted at the cut
// level), positions shifted, values copied, each a plain counted loop that
// the C compiler vectorizes — the bulk copies seed 001 §8.3 found missing
// from its generated vstack. Results store no entry equal to their fill
// (docs/storage.md): the copy of the values counts such entries (a
// vectorized reduction), and only an input assembled with explicit fills
// makes the result go through sparse_array.change_fill to the same fill
// afterwards, which drops them.
//
// A concatenation with stored levels above the cut (DCSR, COO hstack)
// merges them by coordinate first (MergedConcat.cpp); each merged parent
// then gets the parts' ranges as above (RangeMoves.cpp writes them).
//
// Ranges come from the level iterators (init of a parent segment, search
// for a coordinate on ordered levels); no format is special-cased.
//

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

namespace {

/// concat: per parent, each part's range in turn, its coordinates at the
/// cut level moved by the part's offset.
struct ConcatByRanges : OpRewritePattern<ConcatOp> {
  ConcatByRanges(MLIRContext *context, int64_t parallelCopyMin)
      : OpRewritePattern(context), parallelCopyMin(parallelCopyMin) {}
  /// Copies of at least this many elements (> 0) run on threads.
  int64_t parallelCopyMin;
  LogicalResult matchAndRewrite(ConcatOp op,
                                PatternRewriter &rewriter) const override {
    // The planner's decision (sparse-array-build-lattices).
    ShapePlanAttr plan = getShapePlan(op, ShapeLowering::MoveRanges);
    if (!plan)
      return rewriter.notifyMatchFailure(op, "not planned move_ranges");
    std::optional<unsigned> cut = plan.getLevel();
    Location loc = op.getLoc();
    auto resultType = cast<ArrayType>(op.getType());
    unsigned numLevels = resultType.getFormat().getNumLevels();
    SmallVector<RangeSource> parts;
    for (Value input : op.getInputs()) {
      parts.emplace_back(rewriter, loc, input);
      if (!parts.back().complete())
        return rewriter.notifyMatchFailure(op, "a level has no iterator");
    }
    unsigned dim = op.getDim();
    // Each part's offset along the axis (sizes known only at run time
    // summed at run time), and the result's size there.
    SmallVector<Value> offsets;
    int64_t known = 0;
    Value counted;
    auto offsetNow = [&]() -> Value {
      Value k = constIndex(rewriter, loc, known);
      return counted ? arith::AddIOp::create(rewriter, loc, counted, k) : k;
    };
    for (Value input : op.getInputs()) {
      offsets.push_back(offsetNow());
      auto type = cast<ArrayType>(input.getType());
      if (!type.isDynamicDim(dim)) {
        known += type.getShape()[dim];
        continue;
      }
      Value size = DimOp::create(rewriter, loc, input, int64_t(dim));
      counted =
          counted ? arith::AddIOp::create(rewriter, loc, counted, size) : size;
    }
    SmallVector<Value> dims = dimSizes(rewriter, loc, op.getInputs().front());
    dims[dim] = offsetNow();
    Value parents = parentsOf(rewriter, loc, resultType, dims, *cut);
    if (!getStoredRangeLevel(resultType.getFormat(), dim)) {
      rewriter.replaceOp(op, mergedConcat(rewriter, loc, op, parts, offsets,
                                          *cut, dims, parallelCopyMin));
      return success();
    }
    // Exact capacities: the parts' positions per level summed.
    RangeMove move;
    move.resultType = resultType;
    move.cut = *cut;
    move.exact = true;
    move.posCapacity.assign(numLevels, Value());
    move.crdCapacity.assign(numLevels, Value());
    Value zero = constIndex(rewriter, loc, 0),
          one = constIndex(rewriter, loc, 1);
    SmallVector<Value> counts(parts.size(), parents);
    Value above = parents;
    for (unsigned l = *cut; l < numLevels; ++l) {
      move.posCapacity[l] = arith::AddIOp::create(rewriter, loc, above, one);
      Value total = zero;
      for (auto [part, count] : llvm::zip(parts, counts)) {
        count = part.positionsBelow(rewriter, loc, l, count);
        total = arith::AddIOp::create(rewriter, loc, total, count);
      }
      move.crdCapacity[l] = above = total;
    }
    move.first = *cut;
    move.firstParents = parents;
    // Parents [first, last): each part's range of each, in turn.
    auto parentsIn = [&](OpBuilder &b, RangeSink &sink, ValueRange cursor,
                         Value first, Value last) {
      return emitParentLoop(
          b, loc, sink, cursor, *cut, first, last,
          [&](OpBuilder &lb, Value r, ValueRange c0) {
            SmallVector<Value> c(c0);
            Value next = arith::AddIOp::create(lb, loc, r, one);
            for (auto [part, off] : llvm::zip(parts, offsets)) {
              auto [lo, hi] = part.its[*cut]->init(lb, loc, r, next);
              c = sink.copy(lb, loc, part, *cut, lo, hi, c, off);
            }
            return c;
          });
    };
    move.emit = [&](OpBuilder &b, RangeSink &sink, ValueRange cursor) {
      // (One parent, the cut at the first level: its long ranges are the
      // copies shared out instead.)
      if (parallelCopyMin <= 0 || *cut == 0)
        return parentsIn(b, sink, cursor, zero, parents);
      // In pieces of parents on threads: a piece's result positions at
      // each level start after the parts' positions under the parents
      // before it (each part's, from its positions under [0, first)).
      bool counting = sink.countedFill != nullptr;
      Value total = move.crdCapacity.back();
      Value parallel =
          arith::CmpIOp::create(b, loc, arith::CmpIPredicate::uge, total,
                                constIndex(b, loc, parallelCopyMin));
      Value fills = sparse_array::detail::forPieces(
          b, loc, parents, parallel, counting,
          [&](OpBuilder &pb, Location, Value first, Value len) -> Value {
            SmallVector<Value> c(cursor.take_front(*cut));
            SmallVector<Value> before(parts.size(), first);
            for (unsigned l = *cut; l < numLevels; ++l) {
              Value at = zero;
              for (auto [part, n] : llvm::zip(parts, before)) {
                n = part.positionsBelow(pb, loc, l, n);
                at = arith::AddIOp::create(pb, loc, at, n);
              }
              c.push_back(at);
            }
            if (counting)
              c.push_back(zero);
            c = parentsIn(pb, sink, c, first,
                          arith::AddIOp::create(pb, loc, first, len));
            return counting ? c.back() : Value();
          });
      SmallVector<Value> c(cursor.take_front(*cut));
      for (unsigned l = *cut; l < numLevels; ++l)
        c.push_back(move.crdCapacity[l]);
      if (counting)
        c.push_back(arith::AddIOp::create(b, loc, cursor.back(), fills));
      return c;
    };
    rewriter.replaceOp(
        op, emitRangeMove(rewriter, loc, op, move, dims, parallelCopyMin));
    return success();
  }
};

/// slice: per parent, the range of the cut level's positions whose
/// coordinates lie in [start, stop) (located on a full level, found by
/// bisection on an ordered one), its coordinates moved down by start. The
/// buffers are sized for the source's entries and shrunk afterwards.
struct SliceByRanges : OpRewritePattern<SliceOp> {
  SliceByRanges(MLIRContext *context, int64_t parallelCopyMin)
      : OpRewritePattern(context), parallelCopyMin(parallelCopyMin) {}
  /// Copies of at least this many elements (> 0) run on threads.
  int64_t parallelCopyMin;
  LogicalResult matchAndRewrite(SliceOp op,
                                PatternRewriter &rewriter) const override {
    // The planner's decision (sparse-array-build-lattices).
    ShapePlanAttr plan = getShapePlan(op, ShapeLowering::MoveRanges);
    if (!plan)
      return rewriter.notifyMatchFailure(op, "not planned move_ranges");
    unsigned dim = plan.getDim(), cut = plan.getLevel();
    Location loc = op.getLoc();
    auto resultType = cast<ArrayType>(op.getType());
    unsigned numLevels = resultType.getFormat().getNumLevels();
    RangeSource src(rewriter, loc, op.getSource());
    if (!src.complete())
      return rewriter.notifyMatchFailure(op, "a level has no iterator");
    SliceOp::Normalized n = *op.normalize(dim);
    SmallVector<Value> dims = dimSizes(rewriter, loc, op.getSource());
    Value parents = parentsOf(rewriter, loc, resultType, dims, cut);
    dims[dim] = constIndex(rewriter, loc, n.length());

    RangeMove move;
    move.resultType = resultType;
    move.cut = cut;
    move.posCapacity.assign(numLevels, Value());
    move.crdCapacity.assign(numLevels, Value());
    Value one = constIndex(rewriter, loc, 1);
    Value above = parents;
    for (unsigned l = cut; l < numLevels; ++l) {
      move.posCapacity[l] = arith::AddIOp::create(rewriter, loc, above, one);
      move.crdCapacity[l] = above = src.positionsBelow(rewriter, loc, l, above);
    }
    int64_t size = cast<ArrayType>(op.getSource().getType()).getShape()[dim];
    Value start = constIndex(rewriter, loc, n.lo);
    Value stop = constIndex(rewriter, loc, n.lo + n.length());
    LevelIterator &it = *src.its[cut];
    move.first = cut;
    move.firstParents = parents;
    auto rangeOf = [&](OpBuilder &b, Value r, ValueRange cursor,
                       RangeSink &sink) {
      Value lo, hi;
      if (it.getSpec().isFull() && it.canLocate()) {
        lo = it.locate(b, loc, r, start);
        hi = arith::AddIOp::create(b, loc, lo, constIndex(b, loc, n.length()));
      } else {
        auto [begin, end] =
            it.init(b, loc, r, arith::AddIOp::create(b, loc, r, one));
        // An open end needs no search.
        lo = n.lo == 0 ? begin : it.search(b, loc, begin, end, start).first;
        hi = n.lo + n.length() == size ? end
                                       : it.search(b, loc, lo, end, stop).first;
      }
      return sink.copy(b, loc, src, cut, lo, hi, cursor,
                       constIndex(b, loc, -n.lo));
    };
    move.emit = [&](OpBuilder &b, RangeSink &sink, ValueRange cursor) {
      return emitParentLoop(b, loc, sink, cursor, cut, constIndex(b, loc, 0),
                            parents, [&](OpBuilder &lb, Value r, ValueRange c) {
                              return rangeOf(lb, r, c, sink);
                            });
    };
    rewriter.replaceOp(
        op, emitRangeMove(rewriter, loc, op, move, dims, parallelCopyMin));
    return success();
  }
};

} // namespace

void mlir::sparse_array::populateMoveRangesPatterns(RewritePatternSet &patterns,
                                                    int64_t parallelCopyMin) {
  patterns.add<ConcatByRanges, SliceByRanges>(patterns.getContext(),
                                              parallelCopyMin);
}
