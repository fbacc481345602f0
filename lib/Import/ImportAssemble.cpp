//===- ImportAssemble.cpp - sparse_tensor.assemble -> sparse_array --------===//
//
// An array from a user's level buffers (issue 19). Upstream's storage
// layout lists, per level, its positions and then its coordinates, except
// that a trailing COO region stored as an array of structures has one
// [entries x levels] coordinates tensor; sparse_array stores every level's
// coordinates on their own (docs/storage.md), so that tensor is split into
// columns. Each buffer is copied into storage the array owns (the tensors
// stay values), and the array is validated at run time: kernels rely on
// positions, bounds and order that upstream leaves to the user.
//
//===----------------------------------------------------------------------===//

#include "Importer.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/SparseTensor/IR/SparseTensor.h"
#include "mlir/Dialect/SparseTensor/IR/SparseTensorType.h"

using namespace mlir;
using namespace mlir::sparse_array;
using namespace mlir::sparse_array::import;

namespace {

/// Reports the diagnostic (when it goes out of scope) and fails.
FailureOr<Value> fail(InFlightDiagnostic &&) { return failure(); }

/// Builds the buffers of one assemble, in sparse_array's order.
class AssembleImporter {
public:
  AssembleImporter(OpBuilder &b, sparse_tensor::AssembleOp op,
                   function_ref<FailureOr<Value>(Value)> arrayOf)
      : b(b), op(op), loc(op.getLoc()), arrayOf(arrayOf) {}

  /// A fresh buffer of `elem` holding column `column` of `columns` of
  /// tensor `t` (the whole tensor when columns == 1).
  FailureOr<Value> buffer(Value t, Type elem, int64_t column = 0,
                          int64_t columns = 1) {
    if (auto c = t.getDefiningOp<arith::ConstantOp>())
      return constantColumn(c, elem, column, columns);
    // A function argument is retyped to an array already.
    Type held = isa<ArrayType>(t.getType())
                    ? cast<ArrayType>(t.getType()).getElementType()
                    : getElementTypeOrSelf(t.getType());
    if (held != elem)
      return fail(op.emitOpError("cannot be imported: a level or values "
                                 "operand holding ")
                  << held << " where the format stores " << elem
                  << " (index tensors only as constants)");
    FailureOr<Value> array = arrayOf(t);
    if (failed(array))
      return failure();
    auto flatType = MemRefType::get({ShapedType::kDynamic}, elem);
    Value flat = ValuesOp::create(b, loc, flatType, *array);
    Value total = memref::DimOp::create(b, loc, flat, 0);
    Value step = arith::ConstantIndexOp::create(b, loc, columns);
    Value n = arith::DivUIOp::create(b, loc, total, step);
    Value copy = memref::AllocOp::create(b, loc, flatType, ValueRange{n});
    Value zero = arith::ConstantIndexOp::create(b, loc, 0);
    Value one = arith::ConstantIndexOp::create(b, loc, 1);
    Value first = arith::ConstantIndexOp::create(b, loc, column);
    scf::ForOp::create(b, loc, zero, n, one, ValueRange{},
                       [&](OpBuilder &fb, Location l, Value i, ValueRange) {
                         Value at = arith::AddIOp::create(
                             fb, l, arith::MulIOp::create(fb, l, i, step),
                             first);
                         Value v = memref::LoadOp::create(fb, l, flat, at);
                         memref::StoreOp::create(fb, l, v, copy, i);
                         scf::YieldOp::create(fb, l);
                       });
    return copy;
  }

private:
  /// A constant tensor's column as a constant array's values, copied.
  FailureOr<Value> constantColumn(arith::ConstantOp c, Type elem,
                                  int64_t column, int64_t columns) {
    auto attr = dyn_cast<DenseElementsAttr>(c.getValue());
    if (!attr)
      return fail(op.emitOpError("cannot be imported: a level constant "
                                    "that is not dense elements"));
    SmallVector<Attribute> picked;
    int64_t k = 0;
    if (isa<IntegerType, IndexType>(attr.getElementType())) {
      for (const APInt &v : attr.getValues<APInt>())
        if (k++ % columns == column)
          picked.push_back(IntegerAttr::get(elem, v.getSExtValue()));
    } else {
      for (Attribute v : attr.getValues<Attribute>())
        if (k++ % columns == column)
          picked.push_back(v);
    }
    auto type = RankedTensorType::get({int64_t(picked.size())}, elem);
    auto arrayType = ArrayType::get({int64_t(picked.size())}, elem);
    Value array = ConstantOp::create(b, loc, arrayType,
                                     DenseElementsAttr::get(type, picked));
    auto flatType = MemRefType::get({ShapedType::kDynamic}, elem);
    Value flat = ValuesOp::create(b, loc, flatType, array);
    Value n = arith::ConstantIndexOp::create(b, loc, picked.size());
    Value copy = memref::AllocOp::create(b, loc, flatType, ValueRange{n});
    memref::CopyOp::create(b, loc, flat, copy);
    return copy;
  }

  OpBuilder &b;
  sparse_tensor::AssembleOp op;
  Location loc;
  function_ref<FailureOr<Value>(Value)> arrayOf;
};

} // namespace

FailureOr<Value>
mlir::sparse_array::import::importAssemble(
    OpBuilder &b, sparse_tensor::AssembleOp op, ArrayType type,
    function_ref<FailureOr<Value>(Value)> arrayOf) {
  Location loc = op.getLoc();
  if (!type.hasStaticShape())
    return fail(op.emitOpError("cannot be imported: the assembled tensor's "
                                  "dimension sizes must be static"));
  sparse_tensor::SparseTensorType stt(op.getResult().getType());
  FormatAttr format = type.getFormat();
  ArrayRef<LevelSpec> levels = format.getLevels();
  unsigned rank = levels.size();
  // Upstream's level operands, in its storage order; a trailing COO
  // region stored as an array of structures is one operand for its levels.
  unsigned aos = stt.getAoSCOOStart();
  Type posType = b.getIntegerType(format.getPosWidth());
  Type crdType = b.getIntegerType(format.getCrdWidth());
  AssembleImporter importer(b, op, arrayOf);
  SmallVector<Value> buffers;
  auto operands = op.getLevels();
  unsigned next = 0;
  auto take = [&]() -> FailureOr<Value> {
    if (next >= operands.size())
      return fail(op.emitOpError("cannot be imported: fewer level "
                                    "tensors than the format stores"));
    return operands[next++];
  };
  Value aosCoordinates;
  for (unsigned l = 0; l < rank; ++l) {
    if (levels[l].format->hasPositionsBuffer()) {
      FailureOr<Value> t = take();
      if (failed(t))
        return failure();
      FailureOr<Value> pos = importer.buffer(*t, posType);
      if (failed(pos))
        return failure();
      buffers.push_back(*pos);
    }
    if (!levels[l].format->hasCoordinatesBuffer())
      continue;
    FailureOr<Value> crd;
    if (l < aos) {
      FailureOr<Value> t = take();
      if (failed(t))
        return failure();
      crd = importer.buffer(*t, crdType);
    } else {
      if (l == aos) {
        FailureOr<Value> t = take();
        if (failed(t))
          return failure();
        aosCoordinates = *t;
      }
      crd = importer.buffer(aosCoordinates, crdType, l - aos, rank - aos);
    }
    if (failed(crd))
      return failure();
    buffers.push_back(*crd);
  }
  if (next != operands.size())
    return fail(op.emitOpError("cannot be imported: more level tensors "
                                  "than the format stores"));
  FailureOr<Value> values =
      importer.buffer(op.getValues(), type.getElementType());
  if (failed(values))
    return failure();
  buffers.push_back(*values);
  SmallVector<Value> dims;
  for (int64_t size : type.getShape())
    dims.push_back(arith::ConstantIndexOp::create(b, loc, size));
  Value array = AssembleOp::create(b, loc, type, buffers, dims);
  ValidateOp::create(b, loc, array, b.getStringAttr("sparse_tensor.assemble"));
  return array;
}
