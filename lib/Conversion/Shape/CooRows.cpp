//===- CooRows.cpp - Shape operators between COO and CSR rows -------------===//
//
// seed 001 §8.3's concatenations with a conversion, and slices into COO,
// without a kernel:
//  - COO parts (ordered rows, one column per position) stacked along the
//    rows into a CSR (isConcatIntoRows). Every part's entries keep their
//    order, one part's range after the other's, so the result's columns
//    and values are the parts' buffers copied a range at a time
//    (memcpy-like loops); only the rows' ends are computed, written as
//    each part's ordered row coordinates go by (shifted by the rows of the
//    parts before it), then a running maximum over the rows. One pass over
//    the row coordinates, no search, no growth checks.
//  - CSR parts (full rows over ordered columns) concatenated along either
//    dimension into COO (isConcatIntoCoo). Along the rows, the parts'
//    columns and values are copied a range at a time and each row's
//    coordinate written over its run; along the columns, each row of the
//    result is the parts' runs of that row one after the other (columns
//    shifted by the parts before).
//  - A range of CSR rows sliced into COO (isSliceIntoCoo): the rows' entries
//    are one range, copied as the row concatenation copies a part.
// Every size is known before (the inputs' entries): no growth checks, no
// per-entry appends.
//
//===----------------------------------------------------------------------===//

#include "SparseArray/Conversion/LevelIterator.h"
#include "SparseArray/Conversion/Passes.h"
#include "SparseArray/Dialect/SparseArray.h"
#include "SparseArray/Dialect/Storage.h"

#include "CodegenUtils.h"
#include "Output/OutputAssembler.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/PatternMatch.h"

using namespace mlir;
using namespace mlir::sparse_array;
using namespace mlir::sparse_array::detail;

namespace {

/// One input read through its two levels' iterators: its rows' positions
/// [rowsBegin, rowsEnd), its entries [begin, end).
struct Part {
  std::unique_ptr<LevelIterator> rows, cols;
  Value rowsBegin, rowsEnd, begin, end, columns, values;
  /// The input's extent along the concatenated dimension.
  Value extent;
};

/// `input` as a Part (failure when a level has no iterator); `dim` the
/// dimension whose extent it records.
FailureOr<Part> makePart(OpBuilder &b, Location loc, Value input,
                         unsigned dim) {
  Value zero = constIndex(b, loc, 0), one = constIndex(b, loc, 1);
  auto type = cast<ArrayType>(input.getType());
  FormatAttr f = type.getFormat();
  Part p;
  LevelBuffers colBuffers = fetchLevelBuffers(b, loc, input, 1);
  p.rows = LevelIteratorRegistry::create(f.getLevels()[0],
                                         fetchLevelBuffers(b, loc, input, 0));
  p.cols = LevelIteratorRegistry::create(f.getLevels()[1], colBuffers);
  if (!p.rows || !p.cols)
    return failure();
  std::tie(p.rowsBegin, p.rowsEnd) = p.rows->init(b, loc, zero, one);
  std::tie(p.begin, p.end) = p.cols->init(b, loc, p.rowsBegin, p.rowsEnd);
  p.columns = colBuffers.coordinates;
  p.values = ValuesOp::create(b, loc, bufferOf(type.getElementType()), input);
  p.extent = type.isDynamicDim(dim)
                 ? Value(DimOp::create(b, loc, input, int64_t(dim)))
                 : constIndex(b, loc, type.getShape()[dim]);
  return p;
}

/// The parts of `op` and the total of their stored entries.
FailureOr<Value> collectParts(OpBuilder &b, ConcatOp op,
                              SmallVectorImpl<Part> &parts) {
  Location loc = op.getLoc();
  Value total = constIndex(b, loc, 0);
  for (Value input : op.getInputs()) {
    FailureOr<Part> p = makePart(b, loc, input, op.getDim());
    if (failed(p))
      return failure();
    parts.push_back(std::move(*p));
    total = arith::AddIOp::create(
        b, loc, total,
        arith::SubIOp::create(b, loc, parts.back().end, parts.back().begin));
  }
  return total;
}

/// The result's dimension sizes: the parts' sum along the concatenated
/// dimension, the first part's elsewhere.
SmallVector<Value> resultDims(OpBuilder &b, ConcatOp op, ArrayRef<Part> parts) {
  Location loc = op.getLoc();
  auto result = cast<ArrayType>(op.getType());
  SmallVector<Value> dims;
  for (unsigned d = 0; d < result.getRank(); ++d) {
    if (!result.isDynamicDim(d)) {
      dims.push_back(constIndex(b, loc, result.getShape()[d]));
    } else if (d == op.getDim()) {
      Value sum = constIndex(b, loc, 0);
      for (const Part &p : parts)
        sum = arith::AddIOp::create(b, loc, sum, p.extent);
      dims.push_back(sum);
    } else {
      dims.push_back(DimOp::create(b, loc, op.getInputs().front(), int64_t(d)));
    }
  }
  return dims;
}

/// dest[to + i] = source[from + i] + shift for i in [0, n) (shift, when
/// given, an index added in the buffers' integer type).
void copyCoordinates(OpBuilder &b, Location loc, Value source, Value from,
                     Value dest, Value to, Value n, Value shift = Value()) {
  scf::ForOp::create(
      b, loc, constIndex(b, loc, 0), n, constIndex(b, loc, 1), ValueRange{},
      [&](OpBuilder &lb, Location, Value i, ValueRange) {
        Value c = memref::LoadOp::create(
            lb, loc, source,
            ValueRange{arith::AddIOp::create(lb, loc, from, i)});
        if (shift)
          c = arith::AddIOp::create(
              lb, loc, c,
              arith::IndexCastOp::create(lb, loc, c.getType(), shift));
        memref::StoreOp::create(
            lb, loc, c, dest,
            ValueRange{arith::AddIOp::create(lb, loc, to, i)});
        scf::YieldOp::create(lb, loc);
      });
}

/// A COO result's buffers: positions [0, total], rows' and columns'
/// coordinates, values.
struct CooBuffers {
  Value pos, rowCrd, colCrd, values;
  Type crdType;
  /// Copies of at least this many elements (> 0) run on threads.
  int64_t parallelCopyMin = 0;

  CooBuffers(OpBuilder &b, Location loc, Operation *op, ArrayType result,
             Value total) {
    FormatAttr rf = result.getFormat();
    crdType = b.getIntegerType(rf.getCrdWidth());
    pos = allocOutputBuffer(b, loc, op,
                            bufferOf(b.getIntegerType(rf.getPosWidth())),
                            constIndex(b, loc, 2));
    storeIndex(b, loc, constIndex(b, loc, 0), pos, constIndex(b, loc, 0));
    storeIndex(b, loc, total, pos, constIndex(b, loc, 1));
    rowCrd = allocOutputBuffer(b, loc, op, bufferOf(crdType), total);
    colCrd = allocOutputBuffer(b, loc, op, bufferOf(crdType), total);
    values =
        allocOutputBuffer(b, loc, op, bufferOf(result.getElementType()), total);
  }

  /// The rows at positions [qFrom, qTo) of `p` written from result
  /// position `cursor` on: each row's coordinate (plus `shift`, wrapping
  /// as index arithmetic does) over its run, then the rows' columns and
  /// values copied as one range, the values counted against `fill` from
  /// `fills`. Returns the cursor and count after them.
  std::pair<Value, Value> copyRows(OpBuilder &b, Location loc, Part &p,
                                   Value qFrom, Value qTo, Value shift,
                                   Value cursor, TypedAttr fill, Value fills) {
    Value one = constIndex(b, loc, 1);
    auto [lo, hi] = p.cols->init(b, loc, qFrom, qTo);
    Value base = arith::SubIOp::create(b, loc, cursor, lo);
    scf::ForOp::create(
        b, loc, qFrom, qTo, one, ValueRange{},
        [&](OpBuilder &rb, Location, Value q, ValueRange) {
          Value row = arith::AddIOp::create(
              rb, loc, shift, p.rows->coordinate(rb, loc, p.rowsBegin, q));
          Value r = arith::IndexCastOp::create(rb, loc, crdType, row);
          Value a, z;
          std::tie(a, z) =
              p.cols->init(rb, loc, q, arith::AddIOp::create(rb, loc, q, one));
          Value at = arith::AddIOp::create(rb, loc, base, a);
          scf::ForOp::create(
              rb, loc, constIndex(rb, loc, 0),
              arith::SubIOp::create(rb, loc, z, a), one, ValueRange{},
              [&](OpBuilder &lb, Location, Value i, ValueRange) {
                memref::StoreOp::create(
                    lb, loc, r, rowCrd,
                    ValueRange{arith::AddIOp::create(lb, loc, at, i)});
                scf::YieldOp::create(lb, loc);
              });
          scf::YieldOp::create(rb, loc);
        });
    Value n = arith::SubIOp::create(b, loc, hi, lo);
    copyCoordinates(b, loc, p.columns, lo, colCrd, cursor, n);
    fills = copyRangeCountingFills(b, loc, p.values, lo, values, cursor, n,
                                   fill, fills, parallelCopyMin);
    return {arith::AddIOp::create(b, loc, cursor, n), fills};
  }

  /// The assembled result (stored fills dropped when `fills` is not 0).
  Value finish(OpBuilder &b, Location loc, ArrayType result, ValueRange dims,
               Value fills) {
    Value out = AssembleOp::create(
        b, loc, result, ValueRange{pos, rowCrd, colCrd, values}, dims);
    return dropStoredFills(b, loc, out, fills);
  }
};

struct ConcatIntoRows : OpRewritePattern<ConcatOp> {
  ConcatIntoRows(MLIRContext *context, int64_t parallelCopyMin)
      : OpRewritePattern(context), parallelCopyMin(parallelCopyMin) {}
  /// Copies of at least this many elements (> 0) run on threads.
  int64_t parallelCopyMin;
  LogicalResult matchAndRewrite(ConcatOp op,
                                PatternRewriter &rewriter) const override {
    ShapePlanAttr plan = getShapePlan(op, ShapeLowering::RowsFromCoo);
    if (!plan)
      return rewriter.notifyMatchFailure(op, "not planned rows_from_coo");
    auto result = cast<ArrayType>(op.getType());
    FormatAttr rf = result.getFormat();
    Location loc = op.getLoc();
    Value zero = constIndex(rewriter, loc, 0),
          one = constIndex(rewriter, loc, 1);

    SmallVector<Part> parts;
    FailureOr<Value> total = collectParts(rewriter, op, parts);
    if (failed(total))
      return rewriter.notifyMatchFailure(op, "a level has no iterator");
    SmallVector<Value> dims = resultDims(rewriter, op, parts);
    Value rows = dims[0];
    Value pos = allocOutputBuffer(
        rewriter, loc, op, bufferOf(rewriter.getIntegerType(rf.getPosWidth())),
        arith::AddIOp::create(rewriter, loc, rows, one));
    Value crd = allocOutputBuffer(
        rewriter, loc, op, bufferOf(rewriter.getIntegerType(rf.getCrdWidth())),
        *total);
    Value values = allocOutputBuffer(rewriter, loc, op,
                                     bufferOf(result.getElementType()), *total);

    // Each row's end written at pos[row + 1] as the ordered row positions
    // go by (a row's last position writes last), then a running maximum
    // gives the rows without entries the end of the row before: no branch
    // or inner loop per position (the walk that wrote each row's start
    // after a search for the rows skipped took about half the time).
    Value slots = arith::AddIOp::create(rewriter, loc, rows, one);
    scf::ForOp::create(rewriter, loc, zero, slots, one, ValueRange{},
                       [&](OpBuilder &b, Location, Value r, ValueRange) {
                         storeIndex(b, loc, zero, pos, r);
                         scf::YieldOp::create(b, loc);
                       });
    // Carried from part to part: the result's next position, the rows
    // before, the stored fills.
    Value cursor = zero, offset = zero, fills = zero;
    for (Part &p : parts) {
      Value base = arith::SubIOp::create(rewriter, loc, cursor, p.begin);
      Value after = arith::AddIOp::create(rewriter, loc, offset, one);
      scf::ForOp::create(
          rewriter, loc, p.rowsBegin, p.rowsEnd, one, ValueRange{},
          [&](OpBuilder &b, Location, Value q, ValueRange) {
            Value slot = arith::AddIOp::create(
                b, loc, after, p.rows->coordinate(b, loc, p.rowsBegin, q));
            Value end =
                p.cols->init(b, loc, q, arith::AddIOp::create(b, loc, q, one))
                    .second;
            storeIndex(b, loc, arith::AddIOp::create(b, loc, base, end), pos,
                       slot);
            scf::YieldOp::create(b, loc);
          });
      Value n = arith::SubIOp::create(rewriter, loc, p.end, p.begin);
      copyCoordinates(rewriter, loc, p.columns, p.begin, crd, cursor, n);
      fills = copyRangeCountingFills(rewriter, loc, p.values, p.begin, values,
                                     cursor, n, rf.getFill(), fills,
                                     parallelCopyMin);
      cursor = arith::AddIOp::create(rewriter, loc, cursor, n);
      offset = arith::AddIOp::create(rewriter, loc, offset, p.extent);
    }
    scf::ForOp::create(rewriter, loc, one, slots, one, ValueRange{zero},
                       [&](OpBuilder &b, Location, Value r, ValueRange args) {
                         Value end = arith::MaxUIOp::create(
                             b, loc, loadIndex(b, loc, pos, r), args[0]);
                         storeIndex(b, loc, end, pos, r);
                         scf::YieldOp::create(b, loc, ValueRange{end});
                       });
    Value out = AssembleOp::create(rewriter, loc, result,
                                   ValueRange{pos, crd, values}, dims);
    rewriter.replaceOp(op, dropStoredFills(rewriter, loc, out, fills));
    return success();
  }
};

/// Rows [first, last) of the parts concatenated along the columns into
/// `out` from position `cursor` on: each part's run of a row after the
/// runs of the parts before, its columns shifted by their columns. Returns
/// how many of the values copied equal `fill`.
Value copyRowRuns(OpBuilder &b, Location loc, CooBuffers &out,
                  MutableArrayRef<Part> parts, Value first, Value last,
                  Value cursor, TypedAttr fill) {
  Value zero = constIndex(b, loc, 0), one = constIndex(b, loc, 1);
  auto rowLoop = scf::ForOp::create(
      b, loc, first, last, one, ValueRange{cursor, zero},
      [&](OpBuilder &rb, Location, Value r, ValueRange args) {
        Value cursor = args[0], counted = args[1], offset = zero;
        Value rc = arith::IndexCastOp::create(rb, loc, out.crdType, r);
        for (Part &p : parts) {
          Value q = arith::AddIOp::create(rb, loc, p.rowsBegin, r);
          Value lo, hi;
          std::tie(lo, hi) =
              p.cols->init(rb, loc, q, arith::AddIOp::create(rb, loc, q, one));
          Value n = arith::SubIOp::create(rb, loc, hi, lo);
          auto run = scf::ForOp::create(
              rb, loc, zero, n, one, ValueRange{counted},
              [&](OpBuilder &lb, Location, Value i, ValueRange sums) {
                Value from = arith::AddIOp::create(lb, loc, lo, i);
                Value to = arith::AddIOp::create(lb, loc, cursor, i);
                memref::StoreOp::create(lb, loc, rc, out.rowCrd,
                                        ValueRange{to});
                Value c = memref::LoadOp::create(lb, loc, p.columns,
                                                 ValueRange{from});
                c = arith::AddIOp::create(
                    lb, loc, c,
                    arith::IndexCastOp::create(lb, loc, c.getType(), offset));
                memref::StoreOp::create(lb, loc, c, out.colCrd, ValueRange{to});
                Value v =
                    memref::LoadOp::create(lb, loc, p.values, ValueRange{from});
                memref::StoreOp::create(lb, loc, v, out.values, ValueRange{to});
                Value same = arith::XOrIOp::create(
                    lb, loc, differsFrom(lb, loc, v, fill),
                    arith::ConstantIntOp::create(lb, loc, 1, 1));
                Value sum = arith::AddIOp::create(
                    lb, loc, sums[0],
                    arith::IndexCastUIOp::create(lb, loc, lb.getIndexType(),
                                                 same));
                scf::YieldOp::create(lb, loc, sum);
              });
          markShortLoop(run);
          counted = run.getResult(0);
          cursor = arith::AddIOp::create(rb, loc, cursor, n);
          offset = arith::AddIOp::create(rb, loc, offset, p.extent);
        }
        scf::YieldOp::create(rb, loc, ValueRange{cursor, counted});
      });
  return rowLoop.getResult(1);
}

struct ConcatIntoCoo : OpRewritePattern<ConcatOp> {
  ConcatIntoCoo(MLIRContext *context, int64_t parallelCopyMin)
      : OpRewritePattern(context), parallelCopyMin(parallelCopyMin) {}
  /// Copies of at least this many elements (> 0) run on threads.
  int64_t parallelCopyMin;
  LogicalResult matchAndRewrite(ConcatOp op,
                                PatternRewriter &rewriter) const override {
    ShapePlanAttr plan = getShapePlan(op, ShapeLowering::CooFromRows);
    if (!plan)
      return rewriter.notifyMatchFailure(op, "not planned coo_from_rows");
    auto result = cast<ArrayType>(op.getType());
    TypedAttr fill = result.getFormat().getFill();
    Location loc = op.getLoc();
    Value zero = constIndex(rewriter, loc, 0);

    SmallVector<Part> parts;
    FailureOr<Value> total = collectParts(rewriter, op, parts);
    if (failed(total))
      return rewriter.notifyMatchFailure(op, "a level has no iterator");
    SmallVector<Value> dims = resultDims(rewriter, op, parts);
    CooBuffers out(rewriter, loc, op, result, *total);
    out.parallelCopyMin = parallelCopyMin;
    Value fills;
    if (op.getDim() == 0) {
      // Part after part, its rows shifted by the rows before.
      Value cursor = zero, offset = zero;
      fills = zero;
      for (Part &p : parts) {
        std::tie(cursor, fills) =
            out.copyRows(rewriter, loc, p, p.rowsBegin, p.rowsEnd, offset,
                         cursor, fill, fills);
        offset = arith::AddIOp::create(rewriter, loc, offset, p.extent);
      }
    } else {
      // Row after row: each part's run of the row, its columns shifted by
      // the columns of the parts before, values copied and counted in the
      // same loop (runs are short). Rows are full in every part, so row r
      // starts at the sum of the parts' entries before their row r: pieces
      // of rows run on threads, each finding its start without a pass.
      Value parallel =
          parallelCopyMin > 0
              ? Value(arith::CmpIOp::create(
                    rewriter, loc, arith::CmpIPredicate::uge, *total,
                    constIndex(rewriter, loc, parallelCopyMin)))
              : Value(arith::ConstantIntOp::create(rewriter, loc, 0, 1));
      fills = forPieces(
          rewriter, loc, dims[0], parallel, /*counting=*/true,
          [&](OpBuilder &pb, Location, Value first, Value rows) {
            Value start = zero;
            for (Part &p : parts) {
              // The end of the rows before: init(q, q + 1) would read the
              // positions past the last row when a piece is empty (0 rows).
              Value q = arith::AddIOp::create(pb, loc, p.rowsBegin, first);
              Value lo = p.cols->init(pb, loc, p.rowsBegin, q).second;
              start = arith::AddIOp::create(
                  pb, loc, start, arith::SubIOp::create(pb, loc, lo, p.begin));
            }
            Value last = arith::AddIOp::create(pb, loc, first, rows);
            return copyRowRuns(pb, loc, out, parts, first, last, start, fill);
          });
    }
    rewriter.replaceOp(op, out.finish(rewriter, loc, result, dims, fills));
    return success();
  }
};

struct SliceIntoCoo : OpRewritePattern<SliceOp> {
  SliceIntoCoo(MLIRContext *context, int64_t parallelCopyMin)
      : OpRewritePattern(context), parallelCopyMin(parallelCopyMin) {}
  /// Copies of at least this many elements (> 0) run on threads.
  int64_t parallelCopyMin;
  LogicalResult matchAndRewrite(SliceOp op,
                                PatternRewriter &rewriter) const override {
    ShapePlanAttr plan = getShapePlan(op, ShapeLowering::CooFromRows);
    if (!plan)
      return rewriter.notifyMatchFailure(op, "not planned coo_from_rows");
    auto result = cast<ArrayType>(op.getType());
    Location loc = op.getLoc();
    FailureOr<SliceOp::Normalized> rows = op.normalize(0);
    FailureOr<Part> p = makePart(rewriter, loc, op.getSource(), 0);
    if (failed(rows) || failed(p))
      return rewriter.notifyMatchFailure(op, "a level has no iterator");
    // Full rows: row r at position rowsBegin + r.
    Value qFrom = arith::AddIOp::create(rewriter, loc, p->rowsBegin,
                                        constIndex(rewriter, loc, rows->lo));
    Value qTo = arith::AddIOp::create(rewriter, loc, p->rowsBegin,
                                      constIndex(rewriter, loc, rows->hi));
    Value lo, hi;
    std::tie(lo, hi) = p->cols->init(rewriter, loc, qFrom, qTo);
    CooBuffers out(rewriter, loc, op, result,
                   arith::SubIOp::create(rewriter, loc, hi, lo));
    out.parallelCopyMin = parallelCopyMin;
    Value zero = constIndex(rewriter, loc, 0);
    Value fills = out.copyRows(rewriter, loc, *p, qFrom, qTo,
                               constIndex(rewriter, loc, -rows->lo), zero,
                               result.getFormat().getFill(), zero)
                      .second;
    SmallVector<Value> dims{constIndex(rewriter, loc, rows->length())};
    dims.push_back(
        result.isDynamicDim(1)
            ? Value(DimOp::create(rewriter, loc, op.getSource(), int64_t(1)))
            : constIndex(rewriter, loc, result.getShape()[1]));
    rewriter.replaceOp(op, out.finish(rewriter, loc, result, dims, fills));
    return success();
  }
};

} // namespace

void mlir::sparse_array::populateCooRowsPatterns(RewritePatternSet &patterns,
                                                 int64_t parallelCopyMin) {
  patterns.add<ConcatIntoRows, ConcatIntoCoo, SliceIntoCoo>(
      patterns.getContext(), parallelCopyMin);
}
