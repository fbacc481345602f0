//===- PartsOutput.cpp - A compressed vector assembled in parallel parts --===//
//
// A compressed vector result whose counted outer loop the plan shares out
// (`parts`: masked mxv, a reduction into a sparse vector): coordinate x
// gives at most one entry, so part [lo, hi) appends at most hi - lo of
// them — to buffers of its own, sized so, without a capacity check or a
// branch (each point writes its slot, the count moves only past entries
// that are not the fill). After the loop the runtime's part buffers
// (sa_rt_parts_*) join the parts in order into buffers of the exact size:
// the sequential result, for any number of threads. Counting first (two
// phases) would compute every entry twice.
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

MemRefType memrefOf(Type t) {
  return MemRefType::get({ShapedType::kDynamic}, t);
}

class PartsVectorOutput : public OutputAssembler {
public:
  PartsVectorOutput(OpBuilder &b, const OutputShape &shape)
      : OutputAssembler(shape) {
    FormatAttr format = shape.resultType.getFormat();
    posType = b.getIntegerType(format.getPosWidth());
    crdType = b.getIntegerType(format.getCrdWidth());
    valType = shape.resultType.getElementType();
  }
  bool isDense() const override { return false; }
  bool assemblesInParts() const override { return true; }

  void beginParts(OpBuilder &b, Value parts) override {
    Location loc = getLoc();
    numParts = parts;
    handle = callRuntime(b, loc, shape.kernel, "sa_rt_parts_new",
                         {b.getI64Type()},
                         {arith::IndexCastOp::create(b, loc, b.getI64Type(),
                                                     parts)});
    counts = memref::AllocOp::create(b, loc, memrefOf(b.getIndexType()),
                                     ValueRange{parts});
  }

  SmallVector<Value> beginPart(OpBuilder &b, Value, Value lo,
                               Value hi) override {
    Location loc = getLoc();
    Value cap = arith::MaxUIOp::create(b, loc,
                                       arith::SubIOp::create(b, loc, hi, lo),
                                       constIndex(b, loc, 1));
    return {constIndex(b, loc, 0),
            memref::AllocOp::create(b, loc, memrefOf(crdType), ValueRange{cap}),
            memref::AllocOp::create(b, loc, memrefOf(valType), ValueRange{cap})};
  }

  SmallVector<Value> store(OpBuilder &b, ArrayRef<Value> coords, Value v,
                           ValueRange state) override {
    Location loc = getLoc();
    Value count = state[0];
    memref::StoreOp::create(
        b, loc, arith::IndexCastUIOp::create(b, loc, crdType, coords[0]),
        state[1], count);
    memref::StoreOp::create(b, loc, v, state[2], count);
    Value kept = differsFrom(b, loc, v, shape.resultType.getFillValue());
    return {arith::AddIOp::create(
                b, loc, count,
                arith::IndexCastUIOp::create(b, loc, b.getIndexType(), kept)),
            state[1], state[2]};
  }

  void endPart(OpBuilder &b, Value p, ValueRange state) override {
    Location loc = getLoc();
    memref::StoreOp::create(b, loc, state[0], counts, ValueRange{p});
    callRuntime(b, loc, shape.kernel, "sa_rt_parts_put", {},
                {handle, arith::IndexCastOp::create(b, loc, b.getI64Type(), p),
                 bufferAddress(b, loc, state[1]),
                 byteCount(b, loc, state[0], crdType),
                 bufferAddress(b, loc, state[2]),
                 byteCount(b, loc, state[0], valType)});
    memref::DeallocOp::create(b, loc, state[1]);
    memref::DeallocOp::create(b, loc, state[2]);
  }

  void endParts(OpBuilder &b) override {
    Location loc = getLoc();
    Value zero = constIndex(b, loc, 0), one = constIndex(b, loc, 1);
    auto sum = scf::ForOp::create(
        b, loc, zero, numParts, one, ValueRange{zero},
        [&](OpBuilder &fb, Location l, Value p, ValueRange acc) {
          Value c = memref::LoadOp::create(fb, l, counts, ValueRange{p});
          scf::YieldOp::create(
              fb, l, arith::AddIOp::create(fb, l, acc[0], c).getResult());
        });
    memref::DeallocOp::create(b, loc, counts);
    Value total = sum.getResult(0);
    coordinates =
        allocOutputBuffer(b, loc, shape.kernel, memrefOf(crdType), total);
    values = allocOutputBuffer(b, loc, shape.kernel, memrefOf(valType), total);
    callRuntime(b, loc, shape.kernel, "sa_rt_parts_take", {},
                {handle, bufferAddress(b, loc, coordinates),
                 bufferAddress(b, loc, values)});
    positions = memref::AllocOp::create(b, loc, memrefOf(posType),
                                        ValueRange{constIndex(b, loc, 2)});
    memref::StoreOp::create(b, loc,
                            arith::ConstantIntOp::create(b, loc, posType, 0),
                            positions, zero);
    memref::StoreOp::create(
        b, loc, arith::IndexCastUIOp::create(b, loc, posType, total),
        positions, one);
  }

  Value finish(OpBuilder &b, ValueRange) override {
    return AssembleOp::create(b, getLoc(), shape.resultType,
                              ValueRange{positions, coordinates, values},
                              ValueRange{shape.extents[0]});
  }

private:
  Type posType, crdType, valType;
  Value numParts, handle, counts, positions, coordinates, values;
};

} // namespace

std::unique_ptr<OutputAssembler>
mlir::sparse_array::detail::createPartsVectorOutput(OpBuilder &b,
                                                    const OutputShape &shape) {
  return std::make_unique<PartsVectorOutput>(b, shape);
}
