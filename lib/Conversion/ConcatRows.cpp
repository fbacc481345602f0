//===- ConcatRows.cpp - vstack of COO parts into CSR ----------------------===//
//
// seed 001 §8.3's concatenation with a conversion, without a kernel: parts
// stored as COO (ordered rows, one column per position) stacked along the
// rows into a CSR (isConcatIntoRows). Every part's entries keep their
// order, one part's range after the other's, so the result's columns and
// values are the parts' buffers copied a range at a time (memcpy-like
// loops); only the rows' starts are computed, written as each part's
// ordered row coordinates go by (shifted by the rows of the parts before
// it). One pass over the row coordinates, no search, no growth checks.
//
//===----------------------------------------------------------------------===//

#include "SparseArray/Conversion/LevelIterator.h"
#include "SparseArray/Conversion/Passes.h"
#include "SparseArray/Dialect/SparseArray.h"
#include "SparseArray/Dialect/Storage.h"

#include "CodegenUtils.h"
#include "OutputAssembler.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/PatternMatch.h"

using namespace mlir;
using namespace mlir::sparse_array;
using namespace mlir::sparse_array::detail;

namespace {

struct ConcatIntoRows : OpRewritePattern<ConcatOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(ConcatOp op,
                                PatternRewriter &rewriter) const override {
    if (!isConcatIntoRows(op))
      return rewriter.notifyMatchFailure(op, "not COO parts into CSR rows");
    auto result = cast<ArrayType>(op.getType());
    FormatAttr rf = result.getFormat();
    Location loc = op.getLoc();
    Value zero = constIndex(rewriter, loc, 0),
          one = constIndex(rewriter, loc, 1);

    // Each part's row and column iterators and its entries [begin, end).
    struct Part {
      std::unique_ptr<LevelIterator> rows, cols;
      Value rowsBegin, rowsEnd, begin, end, columns, values, extent;
    };
    SmallVector<Part> parts;
    Value total = zero, rows = zero;
    for (Value input : op.getInputs()) {
      auto type = cast<ArrayType>(input.getType());
      FormatAttr f = type.getFormat();
      Part &p = parts.emplace_back();
      LevelBuffers colBuffers = fetchLevelBuffers(rewriter, loc, input, 1);
      p.rows = LevelIteratorRegistry::create(
          f.getLevels()[0], fetchLevelBuffers(rewriter, loc, input, 0));
      p.cols = LevelIteratorRegistry::create(f.getLevels()[1], colBuffers);
      if (!p.rows || !p.cols)
        return rewriter.notifyMatchFailure(op, "a level has no iterator");
      std::tie(p.rowsBegin, p.rowsEnd) = p.rows->init(rewriter, loc, zero, one);
      std::tie(p.begin, p.end) =
          p.cols->init(rewriter, loc, p.rowsBegin, p.rowsEnd);
      p.columns = colBuffers.coordinates;
      p.values = ValuesOp::create(
          rewriter, loc,
          MemRefType::get({ShapedType::kDynamic}, type.getElementType()),
          input);
      p.extent = type.isDynamicDim(0)
                     ? Value(DimOp::create(rewriter, loc, input, int64_t(0)))
                     : constIndex(rewriter, loc, type.getShape()[0]);
      total = arith::AddIOp::create(
          rewriter, loc, total,
          arith::SubIOp::create(rewriter, loc, p.end, p.begin));
      rows = arith::AddIOp::create(rewriter, loc, rows, p.extent);
    }
    auto bufferOf = [&](Type element) {
      return MemRefType::get({ShapedType::kDynamic}, element);
    };
    Value pos = allocOutputBuffer(
        rewriter, loc, op, bufferOf(rewriter.getIntegerType(rf.getPosWidth())),
        arith::AddIOp::create(rewriter, loc, rows, one));
    Value crd = allocOutputBuffer(
        rewriter, loc, op, bufferOf(rewriter.getIntegerType(rf.getCrdWidth())),
        total);
    Value values = allocOutputBuffer(rewriter, loc, op,
                                     bufferOf(result.getElementType()), total);

    // Rows [from, to) start at position `at`.
    auto startRows = [&](OpBuilder &b, Value from, Value to, Value at) {
      scf::ForOp::create(b, loc, from, to, one, ValueRange{},
                         [&](OpBuilder &rb, Location, Value r, ValueRange) {
                           storeIndex(rb, loc, at, pos, r);
                           scf::YieldOp::create(rb, loc);
                         });
    };
    // Carried from part to part: the next row whose start is not written,
    // the result's next position, the rows before, the stored fills.
    Value next = zero, cursor = zero, offset = zero, fills = zero;
    for (Part &p : parts) {
      // Row r's first entry at result position cursor + (child - begin).
      auto walk = scf::ForOp::create(
          rewriter, loc, p.rowsBegin, p.rowsEnd, one, ValueRange{next},
          [&](OpBuilder &b, Location, Value q, ValueRange args) {
            Value row = arith::AddIOp::create(
                b, loc, offset, p.rows->coordinate(b, loc, p.rowsBegin, q));
            Value child =
                p.cols->init(b, loc, q, arith::AddIOp::create(b, loc, q, one))
                    .first;
            Value at = arith::AddIOp::create(
                b, loc, cursor, arith::SubIOp::create(b, loc, child, p.begin));
            Value after = arith::AddIOp::create(b, loc, row, one);
            Value from = arith::MinUIOp::create(b, loc, args[0], after);
            startRows(b, from, after, at);
            scf::YieldOp::create(
                b, loc,
                ValueRange{arith::MaxUIOp::create(b, loc, args[0], after)});
          });
      next = walk.getResult(0);
      Value n = arith::SubIOp::create(rewriter, loc, p.end, p.begin);
      scf::ForOp::create(
          rewriter, loc, zero, n, one, ValueRange{},
          [&](OpBuilder &b, Location, Value i, ValueRange) {
            Value c = memref::LoadOp::create(
                b, loc, p.columns,
                ValueRange{arith::AddIOp::create(b, loc, p.begin, i)});
            memref::StoreOp::create(
                b, loc, c, crd,
                ValueRange{arith::AddIOp::create(b, loc, cursor, i)});
            scf::YieldOp::create(b, loc);
          });
      fills = copyRangeCountingFills(rewriter, loc, p.values, p.begin, values,
                                     cursor, n, rf.getFill(), fills);
      cursor = arith::AddIOp::create(rewriter, loc, cursor, n);
      offset = arith::AddIOp::create(rewriter, loc, offset, p.extent);
    }
    startRows(rewriter, next, arith::AddIOp::create(rewriter, loc, rows, one),
              total);
    Value cols = result.isDynamicDim(1)
                     ? Value(DimOp::create(rewriter, loc,
                                           op.getInputs().front(), int64_t(1)))
                     : constIndex(rewriter, loc, result.getShape()[1]);
    Value out =
        AssembleOp::create(rewriter, loc, result, ValueRange{pos, crd, values},
                           ValueRange{rows, cols});
    rewriter.replaceOp(op, dropStoredFills(rewriter, loc, out, fills));
    return success();
  }
};

} // namespace

void mlir::sparse_array::populateConcatRowsPatterns(
    RewritePatternSet &patterns) {
  patterns.add<ConcatIntoRows>(patterns.getContext());
}
