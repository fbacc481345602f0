//===- TwoPhaseOutput.cpp - Sparse results assembled by parallel rows -----===//
//
// A result stored [full, compressed] (CSR, or CSC by its order) whose rows
// the outermost loop computes in parallel: rows cannot append to shared
// buffers in order, so the loops run twice. Phase 0 counts each row's
// entries that are not the fill into positions[x + 1]; between the phases
// the counts are scanned into positions and the coordinate and value
// buffers allocated at the exact total; phase 1 writes row x from
// positions[x] on. Rows never share a slot: race-free by construction,
// and the result is the sequential one, entry for entry.
//
//===----------------------------------------------------------------------===//

#include "OutputAssembler.h"

#include "CodegenUtils.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;
using namespace mlir::sparse_array;
using namespace mlir::sparse_array::detail;

namespace {

class TwoPhaseRowsOutput : public OutputAssembler {
public:
  TwoPhaseRowsOutput(OpBuilder &b, const OutputShape &shape)
      : OutputAssembler(shape) {
    Location loc = getLoc();
    FormatAttr format = shape.resultType.getFormat();
    posType = b.getIntegerType(format.getPosWidth());
    crdType = b.getIntegerType(format.getCrdWidth());
    rows = shape.extents[0];
    Value size = arith::AddIOp::create(b, loc, rows, constIndex(b, loc, 1));
    positions = allocOutputBuffer(
        b, loc, shape.kernel, MemRefType::get({ShapedType::kDynamic}, posType),
        size);
    memref::StoreOp::create(b, loc,
                            arith::ConstantIntOp::create(b, loc, posType, 0),
                            positions, constIndex(b, loc, 0));
  }
  bool isDense() const override { return false; }
  unsigned numPhases() const override { return 2; }

  void beginPhase(OpBuilder &b, unsigned p) override {
    phase = p;
    if (p != 1)
      return;
    Location loc = getLoc();
    total = emitCountsToPositions(b, loc, positions, rows);
    auto memrefOf = [](Type t) {
      return MemRefType::get({ShapedType::kDynamic}, t);
    };
    coordinates =
        allocOutputBuffer(b, loc, shape.kernel, memrefOf(crdType), total);
    values = allocOutputBuffer(b, loc, shape.kernel,
                               memrefOf(shape.resultType.getElementType()),
                               total);
  }

  SmallVector<Value> rowState(OpBuilder &b, Value x) override {
    Location loc = getLoc();
    if (phase == 0)
      return {constIndex(b, loc, 0)};
    return {loadIndex(b, loc, positions, x)};
  }

  void endRow(OpBuilder &b, Value x, ValueRange state) override {
    if (phase != 0)
      return;
    Location loc = getLoc();
    memref::StoreOp::create(
        b, loc, arith::IndexCastUIOp::create(b, loc, posType, state[0]),
        positions,
        ValueRange{arith::AddIOp::create(b, loc, x, constIndex(b, loc, 1))});
  }

  SmallVector<Value> store(OpBuilder &b, ArrayRef<Value> coords, Value v,
                           ValueRange state) override {
    Location loc = getLoc();
    Value differs =
        differsFrom(b, loc, v, shape.resultType.getFillValue());
    Value k = state[0];
    if (phase == 0)
      return {arith::AddIOp::create(
          b, loc, k,
          arith::IndexCastUIOp::create(b, loc, b.getIndexType(), differs))};
    // A slot past the row's last entry is the next row's: write only
    // entries that are kept.
    auto kept = scf::IfOp::create(
        b, loc, differs,
        [&](OpBuilder &tb, Location l) {
          memref::StoreOp::create(
              tb, l, arith::IndexCastUIOp::create(tb, l, crdType, coords[1]),
              coordinates, k);
          memref::StoreOp::create(tb, l, v, values, k);
          scf::YieldOp::create(
              tb, l,
              arith::AddIOp::create(tb, l, k, constIndex(tb, l, 1))
                  .getResult());
        },
        [&](OpBuilder &eb, Location l) { scf::YieldOp::create(eb, l, k); });
    return {kept.getResult(0)};
  }

  Value finish(OpBuilder &b, ValueRange) override {
    Location loc = getLoc();
    SmallVector<Value> dims(2);
    FormatAttr format = shape.resultType.getFormat();
    for (unsigned l = 0; l < 2; ++l)
      dims[format.getLevelDim(l)] = shape.extents[l];
    return AssembleOp::create(b, loc, shape.resultType,
                              ValueRange{positions, coordinates, values},
                              ValueRange(dims));
  }

private:
  Type posType, crdType;
  Value rows, positions, coordinates, values, total;
  unsigned phase = 0;
};

} // namespace

std::unique_ptr<OutputAssembler>
mlir::sparse_array::detail::createTwoPhaseRowsOutput(OpBuilder &b,
                                                     const OutputShape &shape) {
  return std::make_unique<TwoPhaseRowsOutput>(b, shape);
}
