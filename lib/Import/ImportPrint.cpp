//===- ImportPrint.cpp - vector.print of scalars -> runtime printers ------===//
//
// Upstream's sparse programs print scalar results (a tensor.extract of a
// reduction, a count) with vector.print, which mlir-runner's support
// library implements. Here they become the runtime's printers, which spell
// every value exactly (round-trip digits, -0 kept): the same value, more
// digits than upstream's six.
//
//===----------------------------------------------------------------------===//

#include "Importer.h"

#include "SparseArray/Conversion/RuntimeCalls.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

using namespace mlir;
using namespace mlir::sparse_array;
using namespace mlir::sparse_array::import;

namespace {

/// Prints scalar `v` with the runtime's printer for its type.
LogicalResult printScalar(OpBuilder &b, vector::PrintOp op, Value v) {
  Location loc = op.getLoc();
  Type t = v.getType();
  auto call = [&](StringRef name, Value arg) {
    callRuntime(b, loc, op, name, {}, {arg});
  };
  if (t.isF64())
    call("sa_rt_print_f64", v);
  else if (t.isF32())
    call("sa_rt_print_f32", v);
  else if (isa<FloatType>(t) && cast<FloatType>(t).getWidth() < 32)
    call("sa_rt_print_f32", arith::ExtFOp::create(b, loc, b.getF32Type(), v));
  else if (t.isIndex())
    call("sa_rt_print_i64",
         arith::IndexCastOp::create(b, loc, b.getI64Type(), v));
  else if (t.isInteger(1))
    // upstream prints i1 unsigned: 0 or 1.
    call("sa_rt_print_i64", arith::ExtUIOp::create(b, loc, b.getI64Type(), v));
  else if (t.isSignlessInteger(64))
    call("sa_rt_print_i64", v);
  else if (t.isSignlessInteger() && t.getIntOrFloatBitWidth() < 64)
    call("sa_rt_print_i64", arith::ExtSIOp::create(b, loc, b.getI64Type(), v));
  else
    return op.emitOpError("cannot be imported: printing a value of type ")
           << t << " (scalars of signless integer, index and float types "
           << "are supported)";
  return success();
}

} // namespace

LogicalResult mlir::sparse_array::import::importVectorPrint(OpBuilder &b,
                                                            Operation *print) {
  auto op = cast<vector::PrintOp>(print);
  Location loc = op.getLoc();
  // A string prints alone: no punctuation follows it (as upstream).
  if (std::optional<StringAttr> text = op.getStringLiteral()) {
    callRuntime(b, loc, op, "sa_rt_print_str", {},
                {stringPointer(b, loc, op, text->getValue())});
    return success();
  }
  if (Value v = op.getSource()) {
    if (isa<VectorType>(v.getType()))
      return op.emitOpError("cannot be imported: printing a vector (scalars "
                            "only)");
    if (failed(printScalar(b, op, v)))
      return failure();
  }
  StringRef punctuation;
  switch (op.getPunctuation()) {
  case vector::PrintPunctuation::NoPunctuation:
    return success();
  case vector::PrintPunctuation::NewLine:
    callRuntime(b, loc, op, "sa_rt_print_newline", {}, {});
    return success();
  case vector::PrintPunctuation::Comma:
    punctuation = ", ";
    break;
  case vector::PrintPunctuation::Open:
    punctuation = "( ";
    break;
  case vector::PrintPunctuation::Close:
    punctuation = " )";
    break;
  }
  callRuntime(b, loc, op, "sa_rt_print_str", {},
              {stringPointer(b, loc, op, punctuation)});
  return success();
}
