//===- ChainedRowsOutput.cpp - Parallel rows placed as parts finish -------===//
//
// Rows of a CSR/CSC result computed in parallel parts (`parts, chained`),
// when the inputs' stored entries bound the result's (the plan's
// capacity). Two phases compute every entry twice — the counting pass of
// a merge costs about what the merge does, so two threads gained nothing
// on an add (42 ms on one and on two, issue 56) — and parts joined after
// the loop copy the whole result from buffers that are cold by then.
// Here threads claim the parts in order (emitClaimedParts); a part
// appends its rows to scratch buffers of its own (a few hundred KB: the
// result's share of one part, still in cache when copied), waits until
// the part before it has published where it ends (sa_rt_chain_start;
// that part is always running, so the wait is short and cannot deadlock),
// publishes its own end at once and only then copies its entries there
// and turns its rows' counts into positions. The result's buffers are
// allocated at the bound before the loop and trimmed after it (pages
// past the entries are never touched). Entry for entry the sequential
// result, for any number of threads.
//
//===----------------------------------------------------------------------===//

#include "OutputAssembler.h"
#include "SparseArray/Conversion/RuntimeCalls.h"

#include "CodegenUtils.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;
using namespace mlir::sparse_array;
using namespace mlir::sparse_array::detail;

namespace {

class ChainedRowsOutput final : public OutputAssembler {
public:
  ChainedRowsOutput(OpBuilder &b, const OutputShape &shape,
                    const AppendPlan &plan)
      : OutputAssembler(shape), capacity(plan.capacity) {
    Location loc = getLoc();
    FormatAttr format = shape.resultType.getFormat();
    posType = b.getIntegerType(format.getPosWidth());
    crdType = b.getIntegerType(format.getCrdWidth());
    valType = shape.resultType.getElementType();
    Value rows = shape.extents[0];
    positions = allocOutputBuffer(
        b, loc, shape.kernel, bufferOf(posType),
        arith::AddIOp::create(b, loc, rows, constIndex(b, loc, 1)));
    memref::StoreOp::create(b, loc,
                            arith::ConstantIntOp::create(b, loc, posType, 0),
                            positions, constIndex(b, loc, 0));
    coordinates =
        allocOutputBuffer(b, loc, shape.kernel, bufferOf(crdType), capacity);
    values =
        allocOutputBuffer(b, loc, shape.kernel, bufferOf(valType), capacity);
  }

  bool isDense() const override { return false; }
  bool assemblesInParts() const override { return true; }
  Value chain() const override { return handle; }

  void beginParts(OpBuilder &b, Value parts) override {
    Location loc = getLoc();
    numParts = parts;
    handle = callRuntime(
        b, loc, shape.kernel, "sa_rt_chain_new", {b.getI64Type()},
        {arith::IndexCastOp::create(b, loc, b.getI64Type(), parts)});
  }

  /// (count, scratch coordinates, scratch values, the count where the
  /// current row began)
  SmallVector<Value> beginPart(OpBuilder &b, Value, Value lo, Value hi,
                               Value) override {
    Location loc = getLoc();
    Value one = constIndex(b, loc, 1);
    partLo = lo;
    partHi = hi;
    zeroRowCounts(b, loc, positions, lo, hi);
    // The bound shared out by parts (cut at equal entries of one input),
    // a quarter more for slack; the scratch grows past it.
    Value share = arith::DivUIOp::create(
        b, loc,
        arith::AddIOp::create(
            b, loc, capacity,
            arith::ShRUIOp::create(b, loc, capacity, constIndex(b, loc, 2))),
        arith::MaxUIOp::create(b, loc, numParts, one));
    Value cap = arith::AddIOp::create(b, loc, constIndex(b, loc, 16), share);
    Value zero = constIndex(b, loc, 0);
    return {zero,
            memref::AllocOp::create(b, loc, bufferOf(crdType), ValueRange{cap}),
            memref::AllocOp::create(b, loc, bufferOf(valType), ValueRange{cap}),
            zero};
  }

  SmallVector<Value> store(OpBuilder &b, ArrayRef<Value> coords, Value v,
                           ValueRange state) override {
    return appendToRow(b, getLoc(), state, coords[1], v,
                       shape.resultType.getFillValue());
  }

  SmallVector<Value> endLoop(OpBuilder &b, unsigned level,
                             ArrayRef<Value> coords,
                             ValueRange state) override {
    // Row x's own count; made a position once the part's start is known.
    if (level != 1)
      return SmallVector<Value>(state);
    return storeRowCount(b, getLoc(), state, coords[0], positions);
  }

  void endPart(OpBuilder &b, Value p, ValueRange state) override {
    Location loc = getLoc();
    Type i64 = b.getI64Type();
    Value count = state[0];
    Value part = arith::IndexCastOp::create(b, loc, i64, p);
    Value start = callRuntime(b, loc, shape.kernel, "sa_rt_chain_start", {i64},
                              {handle, part});
    // The next part may start copying now: publish before copying.
    callRuntime(
        b, loc, shape.kernel, "sa_rt_chain_publish", {},
        {handle, part,
         arith::AddIOp::create(
             b, loc, start, arith::IndexCastOp::create(b, loc, i64, count))});
    Value at = arith::IndexCastOp::create(b, loc, b.getIndexType(), start);
    Value zero = constIndex(b, loc, 0), one = constIndex(b, loc, 1);
    copyRange(b, loc, state[1], zero, coordinates, at, count);
    copyRange(b, loc, state[2], zero, values, at, count);
    memref::DeallocOp::create(b, loc, state[1]);
    memref::DeallocOp::create(b, loc, state[2]);
    // The rows' counts, a running sum from the part's start.
    scf::ForOp::create(
        b, loc, arith::AddIOp::create(b, loc, partLo, one),
        arith::AddIOp::create(b, loc, partHi, one), one,
        ValueRange{arith::IndexCastUIOp::create(b, loc, posType, at)},
        [&](OpBuilder &fb, Location l, Value x, ValueRange acc) {
          Value sum = arith::AddIOp::create(
              fb, l, acc[0],
              memref::LoadOp::create(fb, l, positions, ValueRange{x}));
          memref::StoreOp::create(fb, l, sum, positions, ValueRange{x});
          scf::YieldOp::create(fb, l, sum);
        });
  }

  void endParts(OpBuilder &b) override {
    Location loc = getLoc();
    total = arith::IndexCastOp::create(b, loc, b.getIndexType(),
                                       callRuntime(b, loc, shape.kernel,
                                                   "sa_rt_chain_free",
                                                   {b.getI64Type()}, {handle}));
  }

  Value finish(OpBuilder &b, ValueRange) override {
    Location loc = getLoc();
    // A kernel whose outer loop has nothing to visit (an empty lattice)
    // never ran its parts: one empty part over every row.
    if (!total) {
      Value zero = constIndex(b, loc, 0);
      beginParts(b, constIndex(b, loc, 1));
      endPart(b, zero, beginPart(b, zero, zero, shape.extents[0], Value()));
      endParts(b);
    }
    SmallVector<Value> dims(shape.extents.size());
    FormatAttr format = shape.resultType.getFormat();
    for (unsigned l = 0; l < dims.size(); ++l)
      dims[format.getLevelDim(l)] = shape.extents[l];
    // Trimmed to the entries (a shrinking realloc does not copy).
    return AssembleOp::create(b, loc, shape.resultType,
                              ValueRange{positions,
                                         emitResize(b, loc, coordinates, total),
                                         emitResize(b, loc, values, total)},
                              dims);
  }

private:
  static MemRefType bufferOf(Type t) {
    return MemRefType::get({ShapedType::kDynamic}, t);
  }

  Value capacity;
  Type posType, crdType, valType;
  Value positions, coordinates, values;
  Value numParts, handle, partLo, partHi, total;
};

} // namespace

std::unique_ptr<OutputAssembler>
mlir::sparse_array::detail::createChainedRowsOutput(OpBuilder &b,
                                                    const OutputShape &shape,
                                                    const AppendPlan &plan) {
  return std::make_unique<ChainedRowsOutput>(b, shape, plan);
}
