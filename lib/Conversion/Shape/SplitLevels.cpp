//===- SplitLevels.cpp - split as a division of one stored level ----------===//
//
// seed 001 §4.1's split without moving an entry, the inverse of
// CollapseLevels.cpp: the linear coordinate's order is the row-major order
// of its parts, so when one ordered level stores the split dimension and
// adjacent levels store the parts (getSplitStoredLevel), every entry keeps
// its position. The group's full levels get no buffers; its first stored
// level gets positions per parent — the source level's own when no full
// level is above it in the group, else filled in one pass as the entries
// go by (they arrive ordered by row) — and it and every level below it in
// the group one coordinate per entry, a quotient and remainder of the
// linear one. No sort, no growth check, no per-row search; the levels
// outside the group and the values keep their buffers (copied: the result
// owns its buffers). A split of a full level into full levels copies.
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

struct SplitByLevels : OpRewritePattern<SplitOp> {
  SplitByLevels(MLIRContext *context, int64_t parallelCopyMin)
      : OpRewritePattern(context), parallelCopyMin(parallelCopyMin) {}
  /// Copies of at least this many elements (> 0) run on threads.
  int64_t parallelCopyMin;
  LogicalResult matchAndRewrite(SplitOp op,
                                PatternRewriter &rewriter) const override {
    // The planner's decision (sparse-array-build-lattices).
    ShapePlanAttr plan = getShapePlan(op, ShapeLowering::SplitLevels);
    if (!plan)
      return rewriter.notifyMatchFailure(op, "not planned split_levels");
    std::optional<unsigned> level = plan.getLevel();
    auto source = cast<ArrayType>(op.getSource().getType());
    auto result = cast<ArrayType>(op.getType());
    FormatAttr sf = source.getFormat(), rf = result.getFormat();
    unsigned split = *level, k = op.getSizes().size();
    Location loc = op.getLoc();
    Value array = op.getSource();
    Value zero = constIndex(rewriter, loc, 0),
          one = constIndex(rewriter, loc, 1);

    auto endOf = [&](LevelIterator &it, Value count) {
      return emitPositionsUnder(rewriter, loc, it, count);
    };
    SmallVector<std::unique_ptr<LevelIterator>> its;
    Value parents = one;
    for (unsigned l = 0; l <= split; ++l) {
      its.push_back(LevelIteratorRegistry::create(
          sf.getLevels()[l], fetchLevelBuffers(rewriter, loc, array, l)));
      if (!its.back())
        return rewriter.notifyMatchFailure(op, "a level has no iterator");
      if (l < split)
        parents = endOf(*its.back(), parents);
    }
    LevelIterator &it = *its.back();

    SmallVector<Value> buffers;
    auto copyLevel = [&](unsigned l) {
      copyLevelBuffers(rewriter, loc, op, array, l, buffers, parallelCopyMin);
    };
    for (unsigned l = 0; l < split; ++l)
      copyLevel(l);

    // The group's level sizes (static) and strides: part j of linear
    // coordinate c is (c / stride[j]) % size[j].
    SmallVector<int64_t> size(k), stride(k + 1, 1);
    for (unsigned j = 0; j < k; ++j)
      size[j] = result.getShape()[rf.getLevelDim(split + j)];
    for (int j = int(k) - 1; j >= 0; --j)
      stride[j] = stride[j + 1] * size[j];
    ArrayRef<LevelSpec> group = rf.getLevels().slice(split, k);
    unsigned f = 0;
    while (f < k && group[f].isFull())
      ++f;

    if (f < k) {
      Value total = endOf(it, parents);
      auto bufferOf = [&](unsigned width) {
        return MemRefType::get({ShapedType::kDynamic},
                               rewriter.getIntegerType(width));
      };
      SmallVector<Value> crd;
      for (unsigned j = f; j < k; ++j)
        crd.push_back(allocOutputBuffer(rewriter, loc, op,
                                        bufferOf(rf.getCrdWidth()), total));
      auto part = [&](OpBuilder &b, Value c, unsigned j) -> Value {
        Value v = c;
        if (stride[j + 1] != 1)
          v = arith::DivUIOp::create(b, loc, v,
                                     constIndex(b, loc, stride[j + 1]));
        if (j != 0)
          v = arith::RemUIOp::create(b, loc, v, constIndex(b, loc, size[j]));
        return v;
      };
      auto storeParts = [&](OpBuilder &b, Value c, Value q) {
        for (unsigned j = f; j < k; ++j)
          storeIndex(b, loc, part(b, c, j), crd[j - f], q);
      };
      Value pos;
      if (f == 0) {
        // The first stored level has the split level's parents: its
        // positions (copied, or converted to the result's width). One
        // flat loop over the entries.
        Value source = fetchLevelBuffers(rewriter, loc, array, split).positions;
        if (sf.getPosWidth() == rf.getPosWidth()) {
          pos = copyOutputBuffer(rewriter, loc, op, source, parallelCopyMin);
        } else {
          Value n = memref::DimOp::create(rewriter, loc, source, 0);
          pos = allocOutputBuffer(rewriter, loc, op,
                                  bufferOf(rf.getPosWidth()), n);
          scf::ForOp::create(
              rewriter, loc, zero, n, one, ValueRange{},
              [&](OpBuilder &b, Location, Value i, ValueRange) {
                storeIndex(b, loc, loadIndex(b, loc, source, i), pos, i);
                scf::YieldOp::create(b, loc);
              });
        }
        // Each entry's parts from its own coordinate: pieces of entries on
        // threads when there are enough of them.
        auto entries = [&](OpBuilder &pb, Location, Value lo, Value len) {
          scf::ForOp::create(
              pb, loc, lo, arith::AddIOp::create(pb, loc, lo, len), one,
              ValueRange{}, [&](OpBuilder &b, Location, Value q, ValueRange) {
                storeParts(b, it.coordinate(b, loc, zero, q), q);
                scf::YieldOp::create(b, loc);
              });
          return Value();
        };
        if (parallelCopyMin > 0)
          forPieces(rewriter, loc, total,
                    arith::CmpIOp::create(
                        rewriter, loc, arith::CmpIPredicate::uge, total,
                        constIndex(rewriter, loc, parallelCopyMin)),
                    /*counting=*/false, entries);
        else
          entries(rewriter, loc, zero, total);
      } else {
        // Rows of the first stored level: parent p's row r of the full
        // levels above it is p * rows + c / stride[f]. Entries arrive by
        // row: a row's start is written when its first entry (or a later
        // row's) goes by, rows after the last entry's at the end.
        Value rows = constIndex(rewriter, loc, stride[0] / stride[f]);
        Value allRows = arith::MulIOp::create(rewriter, loc, parents, rows);
        pos = allocOutputBuffer(
            rewriter, loc, op, bufferOf(rf.getPosWidth()),
            arith::AddIOp::create(rewriter, loc, allRows, one));
        auto startRows = [&](OpBuilder &b, Value from, Value to, Value at) {
          scf::ForOp::create(b, loc, from, to, one, ValueRange{},
                             [&](OpBuilder &rb, Location, Value r, ValueRange) {
                               storeIndex(rb, loc, at, pos, r);
                               scf::YieldOp::create(rb, loc);
                             });
        };
        auto byParent = scf::ForOp::create(
            rewriter, loc, zero, parents, one, ValueRange{zero},
            [&](OpBuilder &b, Location, Value p, ValueRange pArgs) {
              Value begin, end;
              std::tie(begin, end) =
                  it.init(b, loc, p, arith::AddIOp::create(b, loc, p, one));
              Value base = arith::MulIOp::create(b, loc, p, rows);
              auto entries = scf::ForOp::create(
                  b, loc, begin, end, one, pArgs,
                  [&](OpBuilder &eb, Location, Value q, ValueRange qArgs) {
                    Value c = it.coordinate(eb, loc, begin, q);
                    Value row = arith::AddIOp::create(
                        eb, loc, base,
                        arith::DivUIOp::create(eb, loc, c,
                                               constIndex(eb, loc, stride[f])));
                    Value next = arith::AddIOp::create(eb, loc, row, one);
                    startRows(eb, qArgs[0], next, q);
                    storeParts(eb, c, q);
                    scf::YieldOp::create(eb, loc, next);
                  });
              scf::YieldOp::create(b, loc, entries.getResults());
            });
        startRows(rewriter, byParent.getResult(0),
                  arith::AddIOp::create(rewriter, loc, allRows, one), total);
      }
      buffers.push_back(pos);
      llvm::append_range(buffers, crd);
    }
    for (unsigned l = split + 1; l < sf.getNumLevels(); ++l)
      copyLevel(l);
    SmallVector<Value> dims =
        llvm::map_to_vector(result.getShape(), [&](int64_t n) {
          return constIndex(rewriter, loc, n);
        });
    Value out = assembleWithValuesOf(rewriter, loc, op, array, result, buffers,
                                     dims, parallelCopyMin);
    rewriter.replaceOp(op, out);
    return success();
  }
};

} // namespace

void mlir::sparse_array::populateSplitLevelsPatterns(
    RewritePatternSet &patterns, int64_t parallelCopyMin) {
  patterns.add<SplitByLevels>(patterns.getContext(), parallelCopyMin);
}
