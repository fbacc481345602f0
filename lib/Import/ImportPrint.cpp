//===- ImportPrint.cpp - vector.print and transfer_read of tensors --------===//
//
// Upstream's sparse programs print results with vector.print, which
// mlir-runner's support library implements: scalars (a tensor.extract of a
// reduction, a count) and vectors read from dense results with
// vector.transfer_read. Here a print becomes the runtime's printers, which
// spell every value exactly (round-trip digits, -0 kept: the same value,
// more digits than upstream's six), a vector element by element in
// upstream's layout ("( 1, 2 )", nested per dimension); a transfer_read of
// a tensor becomes one sparse_array.extract per element (the padding where
// a coordinate lies outside the tensor) gathered by vector.from_elements.
//
//===----------------------------------------------------------------------===//

#include "Importer.h"

#include "SparseArray/Conversion/RuntimeCalls.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

using namespace mlir;
using namespace mlir::sparse_array;
using namespace mlir::sparse_array::import;

LogicalResult mlir::sparse_array::import::printScalarAsUpstream(
    OpBuilder &b, Location loc, Operation *anchor, Value v, bool exact) {
  Type t = v.getType();
  auto call = [&](StringRef name, Value arg) {
    callRuntime(b, loc, anchor, name, {}, {arg});
  };
  StringRef f64 = exact ? "sa_rt_print_f64" : "sa_rt_print_f64_g";
  StringRef f32 = exact ? "sa_rt_print_f32" : "sa_rt_print_f32_g";
  if (t.isF64())
    call(f64, v);
  else if (t.isF32())
    call(f32, v);
  else if (isa<FloatType>(t) && cast<FloatType>(t).getWidth() < 32)
    call(f32, arith::ExtFOp::create(b, loc, b.getF32Type(), v));
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
    return anchor->emitOpError("cannot be imported: printing a value of type ")
           << t << " (scalars of signless integer, index and float types "
           << "are supported)";
  return success();
}

namespace {

LogicalResult printScalar(OpBuilder &b, vector::PrintOp op, Value v,
                          bool exact) {
  return printScalarAsUpstream(b, op.getLoc(), op, v, exact);
}

/// Prints the elements of `v` below position `at` (one per vector
/// dimension already fixed) in upstream's layout.
LogicalResult printVector(OpBuilder &b, vector::PrintOp op, Value v,
                          SmallVectorImpl<int64_t> &at, bool exact) {
  Location loc = op.getLoc();
  auto type = cast<VectorType>(v.getType());
  auto text = [&](StringRef t) {
    callRuntime(b, loc, op, "sa_rt_print_str", {},
                {stringPointer(b, loc, op, t)});
  };
  text("( ");
  int64_t n = type.getShape()[at.size()];
  for (int64_t k = 0; k < n; ++k) {
    if (k)
      text(", ");
    at.push_back(k);
    if (static_cast<int64_t>(at.size()) == type.getRank()) {
      Value e = vector::ExtractOp::create(b, loc, v, at);
      if (failed(printScalar(b, op, e, exact)))
        return failure();
    } else if (failed(printVector(b, op, v, at, exact))) {
      return failure();
    }
    at.pop_back();
  }
  text(" )");
  return success();
}

} // namespace

FailureOr<Value> mlir::sparse_array::import::importTransferRead(
    OpBuilder &b, Operation *read, Value array) {
  auto op = cast<vector::TransferReadOp>(read);
  Location loc = op.getLoc();
  VectorType type = op.getVectorType();
  if (op.getMask())
    return LogicalResult(op.emitOpError("cannot be imported: a masked read"));
  if (type.isScalable() || type.getRank() == 0)
    return LogicalResult(op.emitOpError(
        "cannot be imported: a scalable or 0-d vector"));
  int64_t count = type.getNumElements();
  // One extract per element: large vectors belong in a kernel.
  constexpr int64_t kMaxElements = 4096;
  if (count > kMaxElements)
    return LogicalResult(op.emitOpError("cannot be imported: ")
                         << count << " elements (at most " << kMaxElements
                         << " are read one by one)");
  AffineMap map = op.getPermutationMap();
  SmallVector<bool> inBounds = op.getInBoundsValues();
  auto arrayType = cast<ArrayType>(array.getType());
  SmallVector<Value> sizes;
  for (unsigned d = 0; d < arrayType.getRank(); ++d)
    sizes.push_back(DimOp::create(b, loc, array, static_cast<int64_t>(d)));
  Value padding = op.getPadding();
  SmallVector<Value> elements;
  SmallVector<int64_t> at(type.getRank(), 0);
  for (int64_t e = 0; e < count; ++e) {
    // Element `at` reads the indices moved by at[v] along the dimension
    // vector dimension v maps to (none: a broadcast).
    SmallVector<Value> coords(op.getIndices().begin(), op.getIndices().end());
    Value inside;
    for (unsigned v = 0; v < type.getRank(); ++v) {
      auto dimExpr = dyn_cast<AffineDimExpr>(map.getResult(v));
      if (!dimExpr)
        continue;
      unsigned d = dimExpr.getPosition();
      coords[d] = arith::AddIOp::create(
          b, loc, coords[d], arith::ConstantIndexOp::create(b, loc, at[v]));
      if (inBounds[v])
        continue;
      Value ok = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult,
                                       coords[d], sizes[d]);
      inside = inside ? Value(arith::AndIOp::create(b, loc, inside, ok)) : ok;
    }
    // Index elements are held as i64 (convertTensorType).
    auto read = [&](OpBuilder &rb, Location l) -> Value {
      Value v = ExtractOp::create(rb, l, array, coords);
      if (type.getElementType() != v.getType())
        v = arith::IndexCastOp::create(rb, l, type.getElementType(), v);
      return v;
    };
    Value element;
    if (!inside) {
      element = read(b, loc);
    } else {
      auto pick = scf::IfOp::create(
          b, loc, inside,
          [&](OpBuilder &tb, Location l) {
            scf::YieldOp::create(tb, l, read(tb, l));
          },
          [&](OpBuilder &eb, Location l) { scf::YieldOp::create(eb, l, padding); });
      element = pick.getResult(0);
    }
    elements.push_back(element);
    // The next element in row-major order.
    for (int v = type.getRank() - 1; v >= 0; --v) {
      if (++at[v] < type.getShape()[v])
        break;
      at[v] = 0;
    }
  }
  return vector::FromElementsOp::create(b, loc, type, elements).getResult();
}

LogicalResult mlir::sparse_array::import::importVectorPrint(OpBuilder &b,
                                                            Operation *print,
                                                            bool exact) {
  auto op = cast<vector::PrintOp>(print);
  Location loc = op.getLoc();
  // A string prints alone: no punctuation follows it (as upstream).
  if (std::optional<StringAttr> text = op.getStringLiteral()) {
    callRuntime(b, loc, op, "sa_rt_print_str", {},
                {stringPointer(b, loc, op, text->getValue())});
    return success();
  }
  if (Value v = op.getSource()) {
    if (auto vt = dyn_cast<VectorType>(v.getType())) {
      if (vt.isScalable() || vt.getRank() == 0)
        return op.emitOpError("cannot be imported: printing a scalable or "
                              "0-d vector");
      SmallVector<int64_t> at;
      if (failed(printVector(b, op, v, at, exact)))
        return failure();
    } else if (failed(printScalar(b, op, v, exact))) {
      return failure();
    }
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
