//===- SparseArrayTypes.cpp - !sparse_array.array -------------------------===//

#include "SparseArray/Dialect/SparseArray.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/TypeSwitch.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace mlir::sparse_array;

#define GET_TYPEDEF_CLASSES
#include "SparseArray/Dialect/SparseArrayOpsTypes.cpp.inc"

void SparseArrayDialect::registerTypes() {
  addTypes<
#define GET_TYPEDEF_LIST
#include "SparseArray/Dialect/SparseArrayOpsTypes.cpp.inc"
      >();
}

bool ArrayType::isValidElementType(Type type) {
  if (auto intType = dyn_cast<IntegerType>(type))
    return intType.isSignless() &&
           llvm::is_contained({1u, 8u, 16u, 32u, 64u}, intType.getWidth());
  return isa<Float16Type, BFloat16Type, Float32Type, Float64Type>(type);
}

FormatAttr ArrayType::normalizeFormat(MLIRContext *ctx, unsigned rank,
                                      Type elementType, FormatAttr format) {
  if (!format)
    return FormatAttr::getDefault(ctx, rank, elementType);
  // A format without a fill means zero of the element type; store it so
  // that both spellings are the same type. An invalid element type is left
  // for the verifier to report.
  if (!format.getFill() && isValidElementType(elementType))
    return format.withFill(
        cast<TypedAttr>(Builder(ctx).getZeroAttr(elementType)));
  return format;
}

std::optional<int64_t> ArrayType::getNumElements() const {
  int64_t count = 1;
  for (int64_t size : getShape()) {
    if (ShapedType::isDynamic(size))
      return std::nullopt;
    if (llvm::MulOverflow(count, size, count))
      return std::nullopt;
  }
  return count;
}

Type ArrayType::parse(AsmParser &parser) {
  SMLoc loc = parser.getCurrentLocation();
  SmallVector<int64_t> shape;
  Type elementType;
  if (parser.parseLess() ||
      parser.parseDimensionList(shape, /*allowDynamic=*/true,
                                /*withTrailingX=*/true) ||
      parser.parseType(elementType))
    return {};
  FormatAttr format;
  if (succeeded(parser.parseOptionalComma())) {
    SMLoc formatLoc = parser.getCurrentLocation();
    Attribute attr;
    if (parser.parseAttribute(attr))
      return {};
    format = dyn_cast<FormatAttr>(attr);
    if (!format) {
      parser.emitError(formatLoc)
          << "expected a #sparse_array.format attribute, got " << attr;
      return {};
    }
  }
  if (parser.parseGreater())
    return {};
  MLIRContext *ctx = parser.getContext();
  return parser.getChecked<ArrayType>(
      loc, ctx, shape, elementType,
      normalizeFormat(ctx, shape.size(), elementType, format));
}

void ArrayType::print(AsmPrinter &printer) const {
  printer << "<";
  for (int64_t size : getShape()) {
    if (ShapedType::isDynamic(size))
      printer << "?";
    else
      printer << size;
    printer << "x";
  }
  printer << getElementType();
  FormatAttr format = getFormat();
  if (format != FormatAttr::getDefault(getContext(), getRank(),
                                       getElementType())) {
    printer << ", ";
    printer.printAttribute(format);
  }
  printer << ">";
}

LogicalResult ArrayType::verify(function_ref<InFlightDiagnostic()> emitError,
                                ArrayRef<int64_t> shape, Type elementType,
                                FormatAttr format) {
  if (!isValidElementType(elementType))
    return emitError() << "element type must be a signless integer of 1, 8, "
                          "16, 32 or 64 bits or one of f16, bf16, f32, f64, "
                          "got "
                       << elementType;
  for (auto [dim, size] : llvm::enumerate(shape))
    if (size < 0 && !ShapedType::isDynamic(size))
      return emitError() << "dimension " << dim << " has negative size "
                         << size;
  if (!format)
    return emitError() << "array type needs a format";
  if (format.getRank() != shape.size()) {
    if (format.isBlocked())
      return emitError() << "format has blocks for " << format.getRank()
                         << " dimensions but the array has rank "
                         << shape.size();
    return emitError() << "format has " << format.getNumLevels()
                       << " levels but the array has rank " << shape.size();
  }
  for (auto [dim, size] : llvm::enumerate(shape))
    if (!ShapedType::isDynamic(size) && size % format.getBlock(dim) != 0)
      return emitError() << "dimension " << dim << " of size " << size
                         << " is not a multiple of its block size "
                         << format.getBlock(dim);
  // A level whose parameters bound its extent (`structured[n, m]`).
  for (auto [lvl, spec] : llvm::enumerate(format.getLevels())) {
    if (!spec.format->getNumParams())
      continue;
    unsigned dim = format.getLevelDim(lvl);
    std::optional<uint64_t> extent;
    switch (format.getLevelPart(lvl)) {
    case FormatAttr::LevelPart::InBlock:
      extent = format.getBlock(dim);
      break;
    case FormatAttr::LevelPart::Block:
      if (!ShapedType::isDynamic(shape[dim]))
        extent = shape[dim] / format.getBlock(dim);
      break;
    case FormatAttr::LevelPart::Whole:
      if (!ShapedType::isDynamic(shape[dim]))
        extent = shape[dim];
      break;
    }
    if (std::optional<std::string> why =
            spec.format->checkExtent(spec, extent))
      return emitError() << "level " << lvl << " ('" << spec.getName()
                         << "') " << *why;
  }
  TypedAttr fill = format.getFill();
  if (!fill)
    return emitError() << "array type needs a fill value";
  if (fill.getType() != elementType)
    return emitError() << "fill value type " << fill.getType()
                       << " does not match element type " << elementType;
  // Coordinates are unsigned: a crd_width-bit level holds coordinates up to
  // 2^crd_width - 1, so a dimension may have at most 2^crd_width entries.
  if (format.getCrdWidth() < 64) {
    int64_t limit = int64_t(1) << format.getCrdWidth();
    for (auto [dim, size] : llvm::enumerate(shape))
      if (!ShapedType::isDynamic(size) && size > limit)
        return emitError() << "dimension " << dim << " of size " << size
                           << " does not fit " << format.getCrdWidth()
                           << "-bit coordinates (crd_width)";
  }
  return success();
}
