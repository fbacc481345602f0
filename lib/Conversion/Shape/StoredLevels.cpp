//===- StoredLevels.cpp - Pieces of the in-place shape lowerings ----------===//

#include "StoredLevels.h"

#include "CodegenUtils.h"
#include "Output/OutputAssembler.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;
using namespace mlir::sparse_array;
using namespace mlir::sparse_array::detail;

Value mlir::sparse_array::detail::emitPositionsUnder(OpBuilder &b, Location loc,
                                                     LevelIterator &it,
                                                     Value count) {
  Value zero = constIndex(b, loc, 0), one = constIndex(b, loc, 1);
  Value any =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ugt, count, zero);
  auto end = scf::IfOp::create(
      b, loc, any,
      [&](OpBuilder &tb, Location l) {
        Value last = arith::SubIOp::create(tb, l, count, one);
        scf::YieldOp::create(tb, l, it.init(tb, l, last, count).second);
      },
      [&](OpBuilder &eb, Location l) { scf::YieldOp::create(eb, l, zero); });
  return end.getResult(0);
}

void mlir::sparse_array::detail::copyLevelBuffers(
    OpBuilder &b, Location loc, Operation *anchor, Value array, unsigned level,
    SmallVectorImpl<Value> &buffers, int64_t parallelMin) {
  LevelBuffers lb = fetchLevelBuffers(b, loc, array, level);
  if (lb.positions)
    buffers.push_back(
        copyOutputBuffer(b, loc, anchor, lb.positions, parallelMin));
  if (lb.coordinates)
    buffers.push_back(
        copyOutputBuffer(b, loc, anchor, lb.coordinates, parallelMin));
}

Value mlir::sparse_array::detail::assembleWithValuesOf(
    OpBuilder &b, Location loc, Operation *anchor, Value array, ArrayType type,
    SmallVector<Value> buffers, ValueRange dims, int64_t parallelMin) {
  auto source = cast<ArrayType>(array.getType());
  Value values = ValuesOp::create(
      b, loc, MemRefType::get({ShapedType::kDynamic}, source.getElementType()),
      array);
  FormatAttr format = type.getFormat();
  // A full last level stores every entry: none is an explicit fill.
  if (format.getLevels().back().isFull()) {
    buffers.push_back(copyOutputBuffer(b, loc, anchor, values, parallelMin));
    return AssembleOp::create(b, loc, type, buffers, dims);
  }
  auto [copy, storedFills] =
      copyCountingFills(b, loc, anchor, values, format.getFill(), parallelMin);
  buffers.push_back(copy);
  Value out = AssembleOp::create(b, loc, type, buffers, dims);
  return dropStoredFills(b, loc, out, storedFills);
}
