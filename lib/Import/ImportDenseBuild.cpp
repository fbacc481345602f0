//===- ImportDenseBuild.cpp - Arrays built entry by entry -----------------===//
//
// What frontends emit to make inputs: linalg.fill of a value known only at
// run time, or into a shape known only at run time (a dense array whose
// values buffer is filled in a loop); tensor.insert of one scalar into a
// dense tensor (a copy of its values with that entry written); tensor.pad
// with the source's fill (a kernel reading the source through a padded
// window: seed 001 §5.1's offset, coordinates outside the source read its
// fill, so a sparse source stays sparse).
//
//===----------------------------------------------------------------------===//

#include "Importer.h"

#include "SparseArray/Dialect/LevelFormat.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Matchers.h"

using namespace mlir;
using namespace mlir::sparse_array;
using namespace mlir::sparse_array::import;

namespace {

Value product(OpBuilder &b, Location loc, ArrayRef<Value> dims) {
  Value total = arith::ConstantIndexOp::create(b, loc, 1);
  for (Value d : dims)
    total = arith::MulIOp::create(b, loc, total, d);
  return total;
}

/// The all-dense array of `type`'s shape and element type (row-major
/// values), converted to `type` when that is not all dense.
Value assembleDense(OpBuilder &b, Location loc, ArrayType type, Value values,
                    ArrayRef<Value> dims) {
  auto dense = ArrayType::get(type.getShape(), type.getElementType());
  Value array = AssembleOp::create(b, loc, dense, ValueRange{values}, dims);
  if (type == dense)
    return array;
  return ConvertOp::create(b, loc, type, array).getResult();
}

bool isRowMajorDense(ArrayType type) {
  if (!type.isAllDense())
    return false;
  FormatAttr format = type.getFormat();
  for (unsigned level = 0; level < type.getRank(); ++level)
    if (format.getLevelDim(level) != level)
      return false;
  return true;
}

} // namespace

FailureOr<Value> import::importFill(OpBuilder &b, linalg::FillOp fill,
                                    ArrayType type, Value scalar,
                                    function_ref<FailureOr<Value>(Value)> arrayOf) {
  Location loc = fill.getLoc();
  Value out = fill.getOutputs()[0];
  auto tensor = dyn_cast<RankedTensorType>(out.getType());
  if (!tensor)
    return fill.emitOpError("cannot be imported: a fill of a ")
           << out.getType();
  // The sizes: tensor.empty's, or the array's the fill overwrites.
  SmallVector<Value> dims;
  if (auto empty = out.getDefiningOp<tensor::EmptyOp>()) {
    for (OpFoldResult size : empty.getMixedSizes())
      dims.push_back(getValueOrCreateConstantIndexOp(b, loc, size));
  } else {
    FailureOr<Value> array = arrayOf(out);
    if (failed(array))
      return failure();
    for (unsigned d = 0; d < tensor.getRank(); ++d)
      dims.push_back(DimOp::create(b, loc, *array, static_cast<int64_t>(d)));
  }
  Type elem = type.getElementType();
  if (scalar.getType() != elem)
    return fill.emitOpError("cannot be imported: a fill of ")
           << scalar.getType() << " into " << elem << " entries";
  Value total = product(b, loc, dims);
  Value values = memref::AllocOp::create(
      b, loc, MemRefType::get({ShapedType::kDynamic}, elem), ValueRange{total});
  Value zero = arith::ConstantIndexOp::create(b, loc, 0);
  Value one = arith::ConstantIndexOp::create(b, loc, 1);
  scf::ForOp::create(b, loc, zero, total, one, ValueRange{},
                     [&](OpBuilder &lb, Location l, Value i, ValueRange) {
                       memref::StoreOp::create(lb, l, scalar, values,
                                               ValueRange{i});
                       scf::YieldOp::create(lb, l);
                     });
  return assembleDense(b, loc, type, values, dims);
}

namespace {

/// A one-entry COO array of `shape` holding `value` at `indices`, its
/// fill `fill`: compressed(nonunique) and singleton levels (compressed for
/// a vector), buffers in ABI order.
Value oneEntry(OpBuilder &b, Location loc, ArrayRef<int64_t> shape,
               ValueRange indices, ArrayRef<Value> dims, Value value,
               TypedAttr fill) {
  MLIRContext *ctx = b.getContext();
  unsigned rank = shape.size();
  SmallVector<LevelSpec> levels;
  for (unsigned l = 0; l < rank; ++l) {
    LevelSpec spec{l ? LevelFormatRegistry::singleton()
                     : LevelFormatRegistry::compressed()};
    spec.unique = l + 1 == rank;
    levels.push_back(spec);
  }
  auto format = FormatAttr::get(ctx, levels, {}, 64, 64, fill);
  auto type = ArrayType::get(shape, value.getType(), format);
  Type i64 = b.getI64Type();
  auto buffer = [&](Type t, ArrayRef<Value> entries) {
    Value m = memref::AllocOp::create(
        b, loc, MemRefType::get({ShapedType::kDynamic}, t),
        ValueRange{arith::ConstantIndexOp::create(b, loc, entries.size())});
    for (auto [k, e] : llvm::enumerate(entries))
      memref::StoreOp::create(
          b, loc, e, m,
          ValueRange{arith::ConstantIndexOp::create(b, loc, int64_t(k))});
    return m;
  };
  SmallVector<Value> buffers;
  buffers.push_back(buffer(i64, {arith::ConstantIntOp::create(b, loc, i64, 0),
                                 arith::ConstantIntOp::create(b, loc, i64, 1)}));
  for (Value index : indices)
    buffers.push_back(
        buffer(i64, {arith::IndexCastOp::create(b, loc, i64, index)}));
  buffers.push_back(buffer(value.getType(), {value}));
  return AssembleOp::create(b, loc, type, buffers, dims).getResult();
}

/// tensor.insert into a sparse array: result(p) = marker(p) ? v : dest(p),
/// over the union of the stored entries (pick at the fills is dest's fill).
Value importSparseInsert(OpBuilder &b, tensor::InsertOp op, Value dest,
                         ArrayRef<Value> dims, ArrayType type,
                         import::FunctionTable &functions) {
  Location loc = op.getLoc();
  auto destType = cast<ArrayType>(dest.getType());
  Type elem = type.getElementType();
  Value marker = oneEntry(b, loc, destType.getShape(), op.getIndices(), dims,
                          arith::ConstantIntOp::create(b, loc, 1, 1),
                          b.getBoolAttr(false));
  Value entry = oneEntry(b, loc, destType.getShape(), op.getIndices(), dims,
                         op.getScalar(), destType.getFillValue());
  unsigned rank = type.getRank();
  auto kernel = KernelOp::create(b, loc, type,
                                 ValueRange{marker, entry, dest}, rank);
  OpBuilder kb(kernel.getContext());
  kb.setInsertionPointToEnd(&kernel.getBody().front());
  SmallVector<Value> indices;
  for (unsigned d = 0; d < rank; ++d)
    indices.push_back(kernel.getIndex(d));
  SmallVector<Value> args;
  for (unsigned k = 0; k < 3; ++k)
    args.push_back(AccessOp::create(kb, loc, kernel.getInputArg(k), indices,
                                    kb.getDenseI64ArrayAttr({})));
  FuncOp pick = functions.getPick(elem);
  Value r = ApplyOp::create(kb, loc, elem,
                            FlatSymbolRefAttr::get(pick.getSymNameAttr()),
                            args);
  YieldOp::create(kb, loc, r);
  return kernel.getResult();
}

} // namespace

FailureOr<Value> import::importInsert(OpBuilder &b, tensor::InsertOp op,
                                      Value dest, ArrayType type,
                                      FunctionTable &functions) {
  Location loc = op.getLoc();
  auto destType = cast<ArrayType>(dest.getType());
  Type elem = type.getElementType();
  if (op.getScalar().getType() != elem)
    return op.emitOpError("cannot be imported: an entry of type ")
           << op.getScalar().getType();
  SmallVector<Value> dims;
  for (unsigned d = 0; d < destType.getRank(); ++d)
    dims.push_back(DimOp::create(b, loc, dest, static_cast<int64_t>(d)));
  if (!isRowMajorDense(destType) || !isRowMajorDense(type))
    return importSparseInsert(b, op, dest, dims, type, functions);
  // Row-major position of the entry.
  Value position = arith::ConstantIndexOp::create(b, loc, 0);
  for (auto [index, dim] : llvm::zip(op.getIndices(), dims))
    position = arith::AddIOp::create(
        b, loc, arith::MulIOp::create(b, loc, position, dim), index);
  auto flat = MemRefType::get({ShapedType::kDynamic}, elem);
  Value source = ValuesOp::create(b, loc, flat, dest);
  Value total = product(b, loc, dims);
  Value values = memref::AllocOp::create(b, loc, flat, ValueRange{total});
  memref::CopyOp::create(b, loc, source, values);
  // Coordinates outside the shape (undefined for tensor.insert) write
  // nothing: never past the buffer.
  Value inside = arith::ConstantIntOp::create(b, loc, 1, 1);
  for (auto [index, dim] : llvm::zip(op.getIndices(), dims))
    inside = arith::AndIOp::create(
        b, loc, inside,
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, index, dim));
  scf::IfOp::create(b, loc, inside, [&](OpBuilder &tb, Location l) {
    memref::StoreOp::create(tb, l, op.getScalar(), values,
                            ValueRange{position});
    scf::YieldOp::create(tb, l);
  });
  return assembleDense(b, loc, type, values, dims);
}

FailureOr<Value> import::importPad(OpBuilder &b, tensor::PadOp pad,
                                   Value source, ArrayType type) {
  Location loc = pad.getLoc();
  auto sourceType = cast<ArrayType>(source.getType());
  Value padding = pad.getConstantPaddingValue();
  Attribute value;
  if (!padding || !matchPattern(padding, m_Constant(&value)))
    return pad.emitOpError("cannot be imported: a padding value that is not "
                           "one constant");
  // Outside the source, its padded window reads the source's fill.
  TypedAttr fill = sourceType.getFillValue();
  auto same = [](Attribute x, Attribute y) {
    if (auto fx = dyn_cast<FloatAttr>(x))
      if (auto fy = dyn_cast<FloatAttr>(y))
        return fx.getValue().bitwiseIsEqual(fy.getValue());
    return x == y;
  };
  if (!same(value, fill))
    return pad.emitOpError("cannot be imported: padding with ")
           << value << ", which is not the source's fill " << fill;
  if (!sourceType.hasStaticShape() || !type.hasStaticShape() ||
      ShapedType::isDynamicShape(pad.getStaticLow()))
    return pad.emitOpError("cannot be imported: a pad of a shape or by "
                           "amounts known only at run time");
  unsigned rank = type.getRank();
  auto kernel = KernelOp::create(b, loc, type, ValueRange{source}, rank);
  OpBuilder kb(kernel.getContext());
  kb.setInsertionPointToEnd(&kernel.getBody().front());
  SmallVector<Value> indices;
  SmallVector<int64_t> slices;
  for (unsigned d = 0; d < rank; ++d) {
    indices.push_back(kernel.getIndex(d));
    int64_t low = pad.getStaticLow()[d];
    // Result coordinate i reads source coordinate i - low.
    slices.append({-low, -low + type.getShape()[d], 1});
  }
  Value entry = AccessOp::create(kb, loc, kernel.getInputArg(0), indices,
                                 kb.getDenseI64ArrayAttr(slices),
                                 kb.getUnitAttr(), DenseI64ArrayAttr());
  YieldOp::create(kb, loc, entry);
  return kernel.getResult();
}

FailureOr<Value> import::importFromElements(OpBuilder &b,
                                            tensor::FromElementsOp op,
                                            ArrayType type) {
  // A dense array holding the scalars in row-major order.
  if (!type.isAllDense())
    return op.emitOpError("cannot be imported: a sparse result (build it "
                          "dense, then convert)");
  return denseArrayOf(b, op.getLoc(), op.getElements(), type);
}

Value import::denseArrayOf(OpBuilder &b, Location loc, ValueRange scalars,
                           ArrayType type) {
  Type elem = type.getElementType();
  auto flat = MemRefType::get({ShapedType::kDynamic}, elem);
  Value buffer = memref::AllocOp::create(
      b, loc, flat,
      ValueRange{arith::ConstantIndexOp::create(b, loc, scalars.size())});
  for (auto [k, v] : llvm::enumerate(scalars)) {
    Value x = v.getType().isIndex()
                  ? Value(arith::IndexCastOp::create(b, loc, elem, v))
                  : v;
    memref::StoreOp::create(b, loc, x, buffer,
                            ValueRange{arith::ConstantIndexOp::create(
                                b, loc, static_cast<int64_t>(k))});
  }
  SmallVector<Value> dims;
  for (int64_t size : type.getShape())
    dims.push_back(arith::ConstantIndexOp::create(b, loc, size));
  return AssembleOp::create(b, loc, type, ValueRange{buffer}, dims)
      .getResult();
}
