//===- CollapseLevels.cpp - collapse as a merge of stored levels ----------===//
//
// seed 001 §4.1's collapse without moving an entry: when the collapsed
// dimensions are stored by adjacent levels in the order of the
// linearization (C: outermost dimension first; F: innermost first), the
// result stores the same positions, and the merged level's coordinate of a
// position is the linearized coordinate of its ancestors in the group
// (seed 001 §5.1's product, materialized). Levels above and below the group
// keep their buffers; the merged level gets positions per parent (from
// the group's segments) and one coordinate per position: O(parents +
// entries), no sort, written in one pass over the group's levels through
// their iterators (no format is special-cased).
//
//===----------------------------------------------------------------------===//

#include "SparseArray/Conversion/LevelIterator.h"
#include "SparseArray/Conversion/Passes.h"
#include "SparseArray/Dialect/LevelFormat.h"
#include "SparseArray/Dialect/SparseArray.h"
#include "SparseArray/Dialect/Storage.h"

#include "CodegenUtils.h"
#include "Output/OutputAssembler.h"
#include "StoredLevels.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/PatternMatch.h"

using namespace mlir;
using namespace mlir::sparse_array;
using namespace mlir::sparse_array::detail;

namespace {

struct CollapseByLevels : OpRewritePattern<CollapseOp> {
  CollapseByLevels(MLIRContext *context, int64_t parallelCopyMin)
      : OpRewritePattern(context), parallelCopyMin(parallelCopyMin) {}
  /// Copies of at least this many elements (> 0) run on threads.
  int64_t parallelCopyMin;
  LogicalResult matchAndRewrite(CollapseOp op,
                                PatternRewriter &rewriter) const override {
    auto source = cast<ArrayType>(op.getSource().getType());
    auto result = cast<ArrayType>(op.getType());
    // The planner's decision (sparse-array-build-lattices).
    ShapePlanAttr plan = getShapePlan(op, ShapeLowering::MergeLevels);
    if (!plan)
      return rewriter.notifyMatchFailure(op, "not planned merge_levels");
    bool fortran = op.getOrder() == "F";
    // The merged levels' storage (the plan says they merge, fill kept).
    ArrayType merged =
        getCollapsedStorageType(source, op.getDims(), fortran);
    FormatAttr mf = merged.getFormat();
    Location loc = op.getLoc();
    Value array = op.getSource();
    FormatAttr format = source.getFormat();
    struct {
      unsigned first, count;
    } g;
    std::tie(g.first, g.count) =
        *getCollapsedLevels(format, op.getDims(), fortran);
    unsigned numLevels = format.getNumLevels();

    SmallVector<Value> dimSizes;
    for (unsigned d = 0; d < source.getRank(); ++d)
      dimSizes.push_back(DimOp::create(rewriter, loc, array, int64_t(d)));
    SmallVector<std::unique_ptr<LevelIterator>> its;
    SmallVector<Value> levelSize;
    for (unsigned l = 0; l < numLevels; ++l) {
      its.push_back(LevelIteratorRegistry::create(
          format.getLevels()[l], fetchLevelBuffers(rewriter, loc, array, l)));
      if (!its.back())
        return rewriter.notifyMatchFailure(op, "a level has no iterator");
      levelSize.push_back(dimSizes[format.getLevelDim(l)]);
    }

    Value zero = constIndex(rewriter, loc, 0), one = constIndex(rewriter, loc, 1);
    auto endOf = [&](OpBuilder &b, unsigned l, Value count) {
      return emitPositionsUnder(b, loc, *its[l], count);
    };
    // Parent positions of the group: the positions of the level above it.
    Value parents = one;
    for (unsigned l = 0; l < g.first; ++l)
      parents = endOf(rewriter, l, parents);

    SmallVector<Value> buffers;
    auto copyLevel = [&](unsigned l) {
      copyLevelBuffers(rewriter, loc, op, array, l, buffers, parallelCopyMin);
    };
    for (unsigned l = 0; l < g.first; ++l)
      copyLevel(l);

    LevelSpec m = mf.getLevels()[g.first];
    if (!m.isFull()) {
      auto widthType = [&](unsigned w) {
        return MemRefType::get({ShapedType::kDynamic},
                               rewriter.getIntegerType(w));
      };
      // Positions of the group's last level under parents [0, n).
      auto groupEnd = [&](OpBuilder &b, Value n) {
        for (unsigned l = g.first; l < g.first + g.count; ++l)
          n = endOf(b, l, n);
        return n;
      };
      Value total = groupEnd(rewriter, parents);
      Value pos;
      if (m.format->hasPositionsBuffer()) {
        Value n = arith::AddIOp::create(rewriter, loc, parents, one);
        pos = memref::AllocOp::create(rewriter, loc,
                                      widthType(mf.getPosWidth()), ValueRange{n});
        storeIndex(rewriter, loc, zero, pos, zero);
      }
      Value crd = sparse_array::detail::allocOutputBuffer(
          rewriter, loc, op, widthType(mf.getCrdWidth()), total);
      // for p: descend the group, coordinates linearized on the way; each
      // position of the last level gets its ancestors' linear coordinate.
      auto outer = scf::ForOp::create(rewriter, loc, zero, parents, one);
      {
        OpBuilder::InsertionGuard guard(rewriter);
        rewriter.setInsertionPointToStart(outer.getBody());
        Value p = outer.getInductionVar();
        std::function<void(OpBuilder &, unsigned, Value, Value)> descend;
        // The positions [from, to) of level l under `parent`.
        auto positions = [&](OpBuilder &b, unsigned l, Value begin, Value from,
                             Value to, Value lin) {
          auto loop = scf::ForOp::create(b, loc, from, to, one);
          OpBuilder::InsertionGuard inner(b);
          b.setInsertionPointToStart(loop.getBody());
          Value q = loop.getInductionVar();
          Value c = its[l]->coordinate(b, loc, begin, q);
          Value next = linearize(b, loc, lin, levelSize[l], c);
          if (l + 1 == g.first + g.count)
            storeIndex(b, loc, next, crd, q);
          else
            descend(b, l + 1, q, next);
        };
        descend = [&](OpBuilder &b, unsigned l, Value parent, Value lin) {
          Value begin, end;
          std::tie(begin, end) = its[l]->init(
              b, loc, parent, arith::AddIOp::create(b, loc, parent, one));
          if (l != g.first || parallelCopyMin <= 0) {
            positions(b, l, begin, begin, end, lin);
            return;
          }
          // The group's first level in pieces on threads when the group
          // holds enough entries (each writes its own descendants).
          Value many =
              arith::CmpIOp::create(b, loc, arith::CmpIPredicate::uge, total,
                                    constIndex(b, loc, parallelCopyMin));
          forPieces(b, loc, arith::SubIOp::create(b, loc, end, begin), many,
                    /*counting=*/false,
                    [&](OpBuilder &pb, Location, Value lo, Value len) {
                      Value from = arith::AddIOp::create(pb, loc, begin, lo);
                      positions(pb, l, begin, from,
                                arith::AddIOp::create(pb, loc, from, len), lin);
                      return Value();
                    });
        };
        descend(rewriter, g.first, p, zero);
        // Positions are contiguous: p's segment of the merged level ends
        // where the last level's positions under parents [0, p] do.
        if (pos) {
          Value next = arith::AddIOp::create(rewriter, loc, p, one);
          storeIndex(rewriter, loc, groupEnd(rewriter, next), pos, next);
        }
      }
      if (pos)
        buffers.push_back(pos);
      buffers.push_back(crd);
    }
    for (unsigned l = g.first + g.count; l < numLevels; ++l)
      copyLevel(l);
    SmallVector<Value> dims(ArrayRef<Value>(dimSizes).take_front(
        op.getDims().front()));
    Value mergedSize = one;
    for (int64_t d : op.getDims())
      mergedSize = arith::MulIOp::create(rewriter, loc, mergedSize, dimSizes[d]);
    dims.push_back(mergedSize);
    llvm::append_range(dims, ArrayRef<Value>(dimSizes).drop_front(
                                 op.getDims().back() + 1));
    Value out = assembleWithValuesOf(rewriter, loc, op, array, merged, buffers,
                                     dims, parallelCopyMin);
    if (merged != result)
      out = ConvertOp::create(rewriter, loc, result, out);
    rewriter.replaceOp(op, out);
    return success();
  }
};

} // namespace

void mlir::sparse_array::populateCollapseLevelsPatterns(
    RewritePatternSet &patterns, int64_t parallelCopyMin) {
  patterns.add<CollapseByLevels>(patterns.getContext(), parallelCopyMin);
}
