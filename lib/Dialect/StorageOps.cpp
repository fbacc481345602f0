//===- StorageOps.cpp - Storage, I/O and conversion ops -------------------===//

#include "SparseArray/Dialect/SparseArray.h"
#include "SparseArray/Dialect/Storage.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinAttributes.h"

#include <set>

using namespace mlir;
using namespace mlir::sparse_array;

/// Exactly one of an input index and a literal path.
static LogicalResult verifyFileOperand(Operation *op, Value input,
                                       std::optional<StringRef> path) {
  if (bool(input) == path.has_value())
    return op->emitOpError()
           << "needs exactly one of `input %k` and `path \"...\"`";
  if (path && path->empty())
    return op->emitOpError() << "path must not be empty";
  return success();
}

LogicalResult ReadOp::verify() {
  if (Value file = getFile()) {
    if (getInput() || getPath())
      return emitOpError()
             << "needs exactly one of `input %k`, `file %name` and `path \"...\"`";
    // By name: the dialect library does not link the LLVM dialect.
    std::string name;
    llvm::raw_string_ostream(name) << file.getType();
    if (StringRef(name) != "!llvm.ptr")
      return emitOpError() << "file must be an !llvm.ptr, not "
                           << file.getType();
  } else if (failed(verifyFileOperand(*this, getInput(), getPath()))) {
    return failure();
  }
  StringRef format = getFileFormat();
  if (format != "auto" && format != "mtx" && format != "tns" &&
      format != "text")
    return emitOpError() << "file_format must be auto, mtx, tns or text, not '"
                         << format << "'";
  return success();
}

LogicalResult WriteOp::verify() {
  return verifyFileOperand(*this, getInput(), getPath());
}

/// Same element type and rank, and no two static sizes that differ.
static LogicalResult verifySameArray(Operation *op, ArrayType source,
                                     ArrayType result) {
  if (source.getElementType() != result.getElementType())
    return op->emitOpError() << "element types differ: "
                             << source.getElementType() << " and "
                             << result.getElementType();
  if (source.getRank() != result.getRank())
    return op->emitOpError() << "ranks differ: " << source.getRank()
                             << " and " << result.getRank();
  for (unsigned d = 0; d < source.getRank(); ++d)
    if (!source.isDynamicDim(d) && !result.isDynamicDim(d) &&
        source.getShape()[d] != result.getShape()[d])
      return op->emitOpError()
             << "dimension " << d << " has size " << source.getShape()[d]
             << " in the source but " << result.getShape()[d]
             << " in the result";
  return success();
}

LogicalResult DeallocOp::verify() {
  if (getSource().getDefiningOp<ConstantOp>())
    return emitOpError("cannot free the buffers of a sparse_array.constant "
                       "(they are global data)");
  // What can be seen in one block: the array used (or freed again) after
  // this op frees its buffers. Uses in other branches (scf.if's then and
  // else) are not ordered with this one and are left alone.
  Block *block = (*this)->getBlock();
  for (OpOperand &use : getSource().getUses()) {
    Operation *user = use.getOwner();
    if (user == getOperation())
      continue;
    Operation *ancestor = block ? block->findAncestorOpInBlock(*user) : nullptr;
    if (!ancestor || !getOperation()->isBeforeInBlock(ancestor))
      continue;
    InFlightDiagnostic diag =
        isa<DeallocOp>(user)
            ? user->emitOpError("frees an array a sparse_array.dealloc "
                                "freed already (a double free)")
            : user->emitOpError("uses an array after its "
                                "sparse_array.dealloc freed its buffers");
    diag.attachNote(getLoc()) << "freed here";
    return diag;
  }
  return success();
}

LogicalResult ConvertOp::verify() {
  auto source = cast<ArrayType>(getSource().getType());
  auto result = cast<ArrayType>(getResult().getType());
  if (failed(verifySameArray(*this, source, result)))
    return failure();
  if (!isSameScalar(source.getFillValue(), result.getFillValue()))
    return emitOpError() << "fill values differ; use sparse_array.change_fill";
  return success();
}

OpFoldResult ConvertOp::fold(FoldAdaptor) {
  // A conversion to the same type is a copy: it is the source itself only
  // while neither is freed (the program owns each and may free both).
  auto freed = [](Value v) {
    return llvm::any_of(v.getUsers(),
                        [](Operation *u) { return isa<DeallocOp>(u); });
  };
  if (getSource().getType() == getResult().getType() && !freed(getSource()) &&
      !freed(getResult()))
    return getSource();
  return {};
}

LogicalResult ChangeFillOp::verify() {
  return verifySameArray(*this, cast<ArrayType>(getSource().getType()),
                         cast<ArrayType>(getResult().getType()));
}

LogicalResult DimOp::verify() {
  auto type = cast<ArrayType>(getSource().getType());
  auto dim = static_cast<int64_t>(getDimension());
  if (dim < 0 || dim >= static_cast<int64_t>(type.getRank()))
    return emitOpError() << "dimension " << dim
                         << " is out of range for an array of rank "
                         << type.getRank();
  return success();
}

LogicalResult ExtractOp::verify() {
  auto type = cast<ArrayType>(getSource().getType());
  if (getIndices().size() != type.getRank())
    return emitOpError() << getIndices().size()
                         << " coordinates for an array of rank "
                         << type.getRank();
  return success();
}

OpFoldResult DimOp::fold(FoldAdaptor) {
  auto type = cast<ArrayType>(getSource().getType());
  auto dim = static_cast<int64_t>(getDimension());
  if (dim < 0 || dim >= static_cast<int64_t>(type.getRank()) ||
      type.isDynamicDim(dim))
    return {};
  return IntegerAttr::get(IndexType::get(getContext()), type.getShape()[dim]);
}

LogicalResult ConstantOp::verify() {
  auto type = cast<ArrayType>(getResult().getType());
  auto shaped = dyn_cast<ShapedType>(getValue().getType());
  if (!isa<DenseElementsAttr, SparseElementsAttr>(getValue()) || !shaped)
    return emitOpError() << "value must be a dense<...> or sparse<...> "
                            "attribute";
  if (!type.hasStaticShape())
    return emitOpError() << "result must have a static shape";
  if (shaped.getShape() != type.getShape())
    return emitOpError() << "value shape does not match the result shape";
  if (shaped.getElementType() != type.getElementType())
    return emitOpError() << "value element type " << shaped.getElementType()
                         << " is not the result's " << type.getElementType();
  if (auto sparse = dyn_cast<SparseElementsAttr>(getValue())) {
    unsigned rank = type.getRank();
    if (rank == 0)
      return emitOpError() << "a rank-0 constant must be dense<...>";
    // The builtin attribute checks bounds; a coordinate listed twice has no
    // single value.
    SmallVector<int64_t> coords(sparse.getIndices().getValues<int64_t>());
    std::set<ArrayRef<int64_t>> seen;
    for (size_t e = 0; e + rank <= coords.size(); e += rank) {
      ArrayRef<int64_t> c(coords.data() + e, rank);
      if (!seen.insert(c).second) {
        InFlightDiagnostic diag = emitOpError()
                                  << "coordinate (";
        llvm::interleaveComma(c, diag);
        return diag << ") is listed twice";
      }
    }
  }
  return success();
}

/// A level's buffer with role `what`.
static LogicalResult verifyLevelBuffer(Operation *op, ArrayType type,
                                       int64_t level, StringRef what,
                                       MemRefType result) {
  if (level < 0 || level >= static_cast<int64_t>(type.getNumLevels()))
    return op->emitOpError() << "level " << level
                             << " is out of range for an array with "
                             << type.getNumLevels() << " levels";
  std::optional<unsigned> index = getBufferIndex(type, level, what);
  if (!index)
    return op->emitOpError()
           << "level " << level << " ("
           << type.getFormat().getLevels()[level].getName()
           << ") has no " << what << " buffer";
  Type expected = getArrayBuffers(type)[*index].elementType;
  if (result.getElementType() != expected || !result.getLayout().isIdentity() ||
      !result.isDynamicDim(0))
    return op->emitOpError()
           << "result must be "
           << MemRefType::get({ShapedType::kDynamic}, expected);
  return success();
}

LogicalResult PositionsOp::verify() {
  return verifyLevelBuffer(*this, cast<ArrayType>(getSource().getType()),
                           getLevel(), sparse_array_levels::kPositionsRole,
                           cast<MemRefType>(getResult().getType()));
}

LogicalResult CoordinatesOp::verify() {
  return verifyLevelBuffer(*this, cast<ArrayType>(getSource().getType()),
                           getLevel(), sparse_array_levels::kCoordinatesRole,
                           cast<MemRefType>(getResult().getType()));
}

LogicalResult LevelBufferOp::verify() {
  return verifyLevelBuffer(*this, cast<ArrayType>(getSource().getType()),
                           getLevel(), getRole(),
                           cast<MemRefType>(getResult().getType()));
}

LogicalResult ValuesOp::verify() {
  auto type = cast<ArrayType>(getSource().getType());
  auto result = dyn_cast<MemRefType>(getResult().getType());
  if (!result || result.getRank() != 1 || !result.isDynamicDim(0) ||
      !result.getLayout().isIdentity() ||
      result.getElementType() != type.getElementType())
    return emitOpError() << "result must be "
                         << MemRefType::get({ShapedType::kDynamic},
                                            type.getElementType());
  return success();
}

LogicalResult AssembleOp::verify() {
  auto type = cast<ArrayType>(getResult().getType());
  SmallVector<ArrayBuffer> expected = getArrayBuffers(type);
  if (getBuffers().size() != expected.size())
    return emitOpError() << "expects " << expected.size()
                         << " buffers for this format, got "
                         << getBuffers().size();
  for (auto [k, buffer, want] :
       llvm::enumerate(getBuffers(), expected)) {
    auto memref = cast<MemRefType>(buffer.getType());
    if (!memref.isDynamicDim(0) || !memref.getLayout().isIdentity() ||
        memref.getElementType() != want.elementType)
      return emitOpError() << "buffer " << k << " must be "
                           << MemRefType::get({ShapedType::kDynamic},
                                              want.elementType);
  }
  if (getDims().size() != static_cast<size_t>(type.getRank()))
    return emitOpError() << "expects " << type.getRank()
                         << " dimension sizes, got " << getDims().size();
  return success();
}

ArrayType DemapOp::getDemappedType(ArrayType source) {
  FormatAttr format = source.getFormat();
  SmallVector<int64_t> shape;
  for (unsigned l = 0; l < format.getNumLevels(); ++l) {
    unsigned dim = format.getLevelDim(l);
    int64_t size = source.getShape()[dim];
    auto block = static_cast<int64_t>(format.getBlock(dim));
    switch (format.getLevelPart(l)) {
    case FormatAttr::LevelPart::Whole:
      shape.push_back(size);
      break;
    case FormatAttr::LevelPart::Block:
      shape.push_back(ShapedType::isDynamic(size) ? size : size / block);
      break;
    case FormatAttr::LevelPart::InBlock:
      shape.push_back(block);
      break;
    }
  }
  auto levels = FormatAttr::get(source.getContext(), format.getLevels(), {},
                                format.getPosWidth(), format.getCrdWidth(),
                                format.getFill());
  return ArrayType::get(shape, source.getElementType(), levels);
}

LogicalResult DemapOp::verify() {
  auto source = cast<ArrayType>(getSource().getType());
  ArrayType expected = getDemappedType(source);
  if (getResult().getType() != expected)
    return emitOpError() << "result must be the array of the source's levels, "
                         << expected;
  return success();
}
