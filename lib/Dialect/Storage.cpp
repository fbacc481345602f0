//===- Storage.cpp - Buffers of an array type -----------------------------===//

#include "SparseArray/Dialect/Storage.h"

#include "llvm/Support/Format.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace mlir::sparse_array;

SmallVector<ArrayBuffer> mlir::sparse_array::getArrayBuffers(ArrayType type) {
  FormatAttr format = type.getFormat();
  MLIRContext *ctx = type.getContext();
  Type posType = IntegerType::get(ctx, format.getPosWidth());
  Type crdType = IntegerType::get(ctx, format.getCrdWidth());
  SmallVector<ArrayBuffer> buffers;
  for (auto [level, spec] : llvm::enumerate(format.getLevels())) {
    for (const LevelBufferDecl &decl : spec.format->getBuffers()) {
      StringRef role = decl.role;
      BufferKind kind = role == sparse_array_levels::kPositionsRole
                            ? BufferKind::Positions
                        : role == sparse_array_levels::kCoordinatesRole
                            ? BufferKind::Coordinates
                            : BufferKind::Other;
      Type elementType =
          decl.width == sparse_array_levels::BufferWidth::Positions ? posType
                                                                    : crdType;
      buffers.push_back({kind, unsigned(level), role, elementType});
    }
  }
  buffers.push_back({BufferKind::Values, 0, StringRef(), type.getElementType()});
  return buffers;
}

std::optional<unsigned> mlir::sparse_array::getBufferIndex(ArrayType type,
                                                           BufferKind kind,
                                                           unsigned level) {
  for (auto [index, buffer] : llvm::enumerate(getArrayBuffers(type)))
    if (buffer.kind == kind &&
        (kind == BufferKind::Values || buffer.level == level))
      return index;
  return std::nullopt;
}

std::optional<unsigned> mlir::sparse_array::getBufferIndex(ArrayType type,
                                                           unsigned level,
                                                           StringRef role) {
  for (auto [index, buffer] : llvm::enumerate(getArrayBuffers(type)))
    if (buffer.kind != BufferKind::Values && buffer.level == level &&
        buffer.role == role)
      return index;
  return std::nullopt;
}

void mlir::sparse_array::getLoweredArrayTypes(ArrayType type,
                                              SmallVectorImpl<Type> &types) {
  for (const ArrayBuffer &buffer : getArrayBuffers(type))
    types.push_back(
        MemRefType::get({ShapedType::kDynamic}, buffer.elementType));
  types.append(type.getRank(), IndexType::get(type.getContext()));
}

uint64_t mlir::sparse_array::getScalarBits(TypedAttr value) {
  if (auto i = dyn_cast<IntegerAttr>(value))
    return i.getValue().getZExtValue();
  if (auto f = dyn_cast<FloatAttr>(value))
    return f.getValue().bitcastToAPInt().getZExtValue();
  return 0;
}

std::string mlir::sparse_array::getRuntimeSpec(ArrayType type) {
  FormatAttr format = type.getFormat();
  std::string text;
  llvm::raw_string_ostream os(text);
  os << "elem=" << type.getElementType() << ";dims=";
  llvm::interleave(
      type.getShape(), os,
      [&](int64_t d) {
        if (ShapedType::isDynamic(d))
          os << '?';
        else
          os << d;
      },
      ",");
  os << ";levels=";
  llvm::interleave(
      format.getLevels(), os,
      [&](const LevelSpec &spec) {
        os << spec.format->getName();
        if (unsigned numParams = spec.format->getNumParams()) {
          os << '[';
          llvm::interleave(ArrayRef(spec.params).take_front(numParams), os,
                           ",");
          os << ']';
        }
        if (!spec.unique || !spec.ordered) {
          os << '(';
          if (!spec.unique)
            os << "nonunique";
          if (!spec.unique && !spec.ordered)
            os << ',';
          if (!spec.ordered)
            os << "nonordered";
          os << ')';
        }
      },
      ",");
  os << ";order=";
  for (unsigned l = 0; l < format.getNumLevels(); ++l)
    os << (l ? "," : "") << format.getLevelDim(l);
  if (format.isBlocked()) {
    os << ";blocks=";
    llvm::interleave(format.getBlocks(), os, ",");
  }
  os << ";pos=" << format.getPosWidth() << ";crd=" << format.getCrdWidth()
     << ";fill=bits:" << llvm::format_hex(getScalarBits(type.getFillValue()), 0);
  return text;
}
