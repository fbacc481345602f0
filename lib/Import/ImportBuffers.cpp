//===- ImportBuffers.cpp - Tensors seen as buffers ------------------------===//
//
// Upstream programs look at storage through memrefs: the
// sparse_tensor.values/positions/coordinates of a tensor, and dense
// tensors handed to external functions (the runner library's
// printMemref*, after a tensor.cast to an unranked tensor). Here the
// former are the array's buffers (converted to the element type the
// program asks for: index where the format holds i64), the latter the
// array's values in row-major order viewed with the tensor's shape.
//
//===----------------------------------------------------------------------===//

#include "Importer.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/SparseTensor/IR/SparseTensorType.h"

using namespace mlir;
using namespace mlir::sparse_array;
using namespace mlir::sparse_array::import;

namespace {

/// `buffer` (1-D, contiguous) as a value of memref type `to`: cast when
/// only the layout differs, else copied element by element into a new
/// buffer (index <-> integer, integer widths).
Value asMemRef(OpBuilder &b, Location loc, Value buffer, MemRefType to) {
  auto from = cast<MemRefType>(buffer.getType());
  Type toElem = to.getElementType(), fromElem = from.getElementType();
  if (toElem == fromElem)
    return from == to ? buffer
                      : Value(memref::CastOp::create(b, loc, to, buffer));
  Value n = memref::DimOp::create(b, loc, buffer, 0);
  auto flat = MemRefType::get({ShapedType::kDynamic}, toElem);
  Value copy = memref::AllocOp::create(b, loc, flat, ValueRange{n});
  Value zero = arith::ConstantIndexOp::create(b, loc, 0);
  Value one = arith::ConstantIndexOp::create(b, loc, 1);
  scf::ForOp::create(
      b, loc, zero, n, one, ValueRange{},
      [&](OpBuilder &fb, Location l, Value k, ValueRange) {
        Value v = memref::LoadOp::create(fb, l, buffer, k);
        if (toElem.isIndex() || fromElem.isIndex())
          v = arith::IndexCastUIOp::create(fb, l, toElem, v);
        else if (toElem.getIntOrFloatBitWidth() >
                 fromElem.getIntOrFloatBitWidth())
          v = arith::ExtUIOp::create(fb, l, toElem, v);
        else
          v = arith::TruncIOp::create(fb, l, toElem, v);
        memref::StoreOp::create(fb, l, v, copy, k);
        scf::YieldOp::create(fb, l);
      });
  return flat == to ? copy : Value(memref::CastOp::create(b, loc, to, copy));
}

} // namespace

bool mlir::sparse_array::import::storesUpstreamPositions(
    const LevelFormat *format) {
  return llvm::any_of(format->getBuffers(), [](const LevelBufferDecl &d) {
    return d.width == sparse_array_levels::BufferWidth::Positions;
  });
}

Value mlir::sparse_array::import::upstreamPositions(OpBuilder &b, Location loc,
                                                    Value array, unsigned l) {
  FormatAttr format = cast<ArrayType>(array.getType()).getFormat();
  auto memref = MemRefType::get({ShapedType::kDynamic},
                                b.getIntegerType(format.getPosWidth()));
  for (const LevelBufferDecl &d : format.getLevels()[l].format->getBuffers()) {
    if (d.width != sparse_array_levels::BufferWidth::Positions)
      continue;
    if (StringRef(d.role) == sparse_array_levels::kPositionsRole)
      return PositionsOp::create(b, loc, memref, array, l);
    return LevelBufferOp::create(b, loc, memref, array, l, d.role);
  }
  return Value();
}

SmallVector<UpstreamLevelBuffers>
mlir::sparse_array::import::upstreamLevelBuffers(OpBuilder &b, Location loc,
                                                 Value array,
                                                 RankedTensorType sourceType) {
  FormatAttr format = cast<ArrayType>(array.getType()).getFormat();
  ArrayRef<LevelSpec> levels = format.getLevels();
  unsigned rank = levels.size();
  sparse_tensor::SparseTensorType stt(sourceType);
  // Without an encoding every level is dense and nothing is interleaved.
  unsigned aos = stt.hasEncoding() ? stt.getAoSCOOStart() : rank;
  auto held = [&](unsigned width) {
    return MemRefType::get({ShapedType::kDynamic}, b.getIntegerType(width));
  };
  SmallVector<UpstreamLevelBuffers> result;
  for (unsigned l = 0; l < rank; ++l) {
    if (Value pos = upstreamPositions(b, loc, array, l))
      result.push_back({l, true, {pos}});
    if (!levels[l].format->hasCoordinatesBuffer() || l > aos)
      continue;
    UpstreamLevelBuffers crds{l, false, {}};
    for (unsigned k = l; k < (l == aos ? rank : l + 1); ++k)
      crds.buffers.push_back(CoordinatesOp::create(
          b, loc, held(format.getCrdWidth()), array, k));
    result.push_back(std::move(crds));
  }
  return result;
}

FailureOr<Value> mlir::sparse_array::import::importStorageBuffer(
    OpBuilder &b, Operation *op, Value array, RankedTensorType sourceType) {
  Location loc = op->getLoc();
  auto type = cast<ArrayType>(array.getType());
  FormatAttr format = type.getFormat();
  auto to = dyn_cast<MemRefType>(op->getResult(0).getType());
  if (!to || to.getRank() != 1)
    return LogicalResult(op->emitOpError(
        "cannot be imported: a result that is not a 1-D memref"));
  auto held = [&](unsigned width) {
    return MemRefType::get({ShapedType::kDynamic}, b.getIntegerType(width));
  };
  Value buffer;
  if (isa<sparse_tensor::ToValuesOp>(op)) {
    buffer = ValuesOp::create(
        b, loc,
        MemRefType::get({ShapedType::kDynamic}, type.getElementType()), array);
  } else {
    uint64_t level = isa<sparse_tensor::ToPositionsOp>(op)
                         ? cast<sparse_tensor::ToPositionsOp>(op).getLevel()
                         : cast<sparse_tensor::ToCoordinatesOp>(op).getLevel();
    if (level >= format.getNumLevels())
      return LogicalResult(op->emitOpError("cannot be imported: level ")
                           << level << " of a rank-"
                           << format.getNumLevels() << " format");
    const LevelFormat *lf = format.getLevels()[level].format;
    if (isa<sparse_tensor::ToPositionsOp>(op)) {
      buffer = upstreamPositions(b, loc, array, level);
      if (!buffer)
        return LogicalResult(op->emitOpError("cannot be imported: level ")
                             << level << " stores no positions");
    } else {
      if (!lf->hasCoordinatesBuffer())
        return LogicalResult(op->emitOpError("cannot be imported: level ")
                             << level << " stores no coordinates");
      buffer = CoordinatesOp::create(b, loc, held(format.getCrdWidth()), array,
                                     level);
    }
  }
  if (!isa<IntegerType, IndexType>(to.getElementType()) &&
      to.getElementType() != cast<MemRefType>(buffer.getType()).getElementType())
    return LogicalResult(op->emitOpError("cannot be imported: the buffer holds ")
                         << cast<MemRefType>(buffer.getType()).getElementType()
                         << ", the result " << to.getElementType());
  return asMemRef(b, loc, buffer, to);
}

FailureOr<Value> mlir::sparse_array::import::denseMemRefOf(
    OpBuilder &b, Location loc, Operation *anchor, Value array, Type target) {
  auto type = cast<ArrayType>(array.getType());
  Type elem = type.getElementType();
  unsigned rank = type.getRank();
  Type want = isa<MemRefType>(target)
                  ? cast<MemRefType>(target).getElementType()
                  : cast<UnrankedMemRefType>(target).getElementType();
  if (want != elem)
    return LogicalResult(anchor->emitOpError("cannot be imported: a tensor of ")
                         << elem << " passed as " << target);
  // Row-major, every entry stored: the default format of the same fill.
  FormatAttr dense = FormatAttr::getDefault(b.getContext(), rank, elem)
                         .withFill(type.getFormat().getFill());
  auto denseType = ArrayType::get(type.getShape(), elem, dense);
  Value rowMajor =
      type == denseType ? array : ConvertOp::create(b, loc, denseType, array);
  Value flat = ValuesOp::create(
      b, loc, MemRefType::get({ShapedType::kDynamic}, elem), rowMajor);
  // The shape and row-major strides, static where the type says so.
  SmallVector<OpFoldResult> sizes(rank), strides(rank);
  SmallVector<int64_t> staticStrides(rank);
  OpFoldResult stride = b.getIndexAttr(1);
  int64_t staticStride = 1;
  for (int d = static_cast<int>(rank) - 1; d >= 0; --d) {
    strides[d] = stride;
    staticStrides[d] = staticStride;
    int64_t size = type.getShape()[d];
    sizes[d] = ShapedType::isDynamic(size)
                   ? OpFoldResult(DimOp::create(b, loc, rowMajor,
                                                static_cast<int64_t>(d))
                                      .getResult())
                   : OpFoldResult(b.getIndexAttr(size));
    if (ShapedType::isDynamic(size) || ShapedType::isDynamic(staticStride)) {
      staticStride = ShapedType::kDynamic;
      Value s = getValueOrCreateConstantIndexOp(b, loc, stride);
      Value n = getValueOrCreateConstantIndexOp(b, loc, sizes[d]);
      stride = arith::MulIOp::create(b, loc, s, n).getResult();
    } else {
      staticStride *= size;
      stride = b.getIndexAttr(staticStride);
    }
  }
  auto layout = StridedLayoutAttr::get(b.getContext(), 0, staticStrides);
  auto viewType = MemRefType::get(type.getShape(), elem, layout);
  Value view = memref::ReinterpretCastOp::create(
      b, loc, viewType, flat, b.getIndexAttr(0), sizes, strides);
  // The identity layout when the strides are static (what a ranked
  // declaration expects), then the target's rank-erased or dynamic type.
  if (auto ranked = dyn_cast<MemRefType>(target)) {
    if (!memref::CastOp::areCastCompatible(viewType, ranked))
      return LogicalResult(anchor->emitOpError("cannot be imported: a tensor of type ")
                           << type << " passed as " << target);
    return memref::CastOp::create(b, loc, ranked, view).getResult();
  }
  return memref::CastOp::create(b, loc, target, view).getResult();
}
