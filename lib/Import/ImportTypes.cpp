//===- ImportTypes.cpp - Tensor types as array types ----------------------===//
//
// A #sparse_tensor.encoding describes storage the way a sparse_array format
// does (seed 002 §3): per level a format with ordered/unique properties, the
// dimension each level stores, and buffer widths. The implicit value is 0
// (the encoding's verifier allows nothing else), so the fill is 0.
//
//===----------------------------------------------------------------------===//

#include "Importer.h"

#include "mlir/IR/Matchers.h"

#include "SparseArray/Dialect/LevelFormat.h"

#include "mlir/Dialect/SparseTensor/IR/SparseTensor.h"

using namespace mlir;
using namespace mlir::sparse_array;

static FailureOr<unsigned> convertWidth(Location loc, unsigned width,
                                        StringRef what) {
  if (width == 0 || width == 64)
    return 64u;
  // sparse_array stores 32- or 64-bit buffers: 8- and 16-bit ones are held
  // in 32 bits and converted where the program sees them (assemble,
  // disassemble, positions/coordinates).
  if (width == 8 || width == 16 || width == 32)
    return 32u;
  return emitError(loc) << "cannot import " << what << " = " << width
                        << ": widths 0, 8, 16, 32 and 64 are supported";
}

/// An upstream dimToLvl map as an order and blocks: each level is a
/// dimension `d`, or a block pair `d floordiv b` (first) and `d mod b`
/// (later), seed 002's BCSR (upstream's block encodings).
static LogicalResult convertDimToLvl(Location loc, Type type, AffineMap map,
                                     SmallVectorImpl<unsigned> &order,
                                     SmallVectorImpl<uint64_t> &blocks) {
  std::string text;
  llvm::raw_string_ostream os(text);
  map.print(os);
  auto str = [](AffineExpr e) {
    std::string s;
    llvm::raw_string_ostream os(s);
    e.print(os);
    return s;
  };
  auto fail = [&] {
    return emitError(loc) << "cannot import " << type << ": dimToLvl " << text
                          << " ";
  };
  if (map.isPermutation()) {
    for (unsigned l = 0; l < map.getNumResults(); ++l)
      order.push_back(map.getDimPosition(l));
    return success();
  }
  blocks.assign(map.getNumDims(), 1);
  SmallVector<bool> sawBlock(map.getNumDims(), false);
  for (AffineExpr expr : map.getResults()) {
    if (auto dim = dyn_cast<AffineDimExpr>(expr)) {
      order.push_back(dim.getPosition());
      continue;
    }
    auto bin = dyn_cast<AffineBinaryOpExpr>(expr);
    AffineDimExpr dim =
        bin ? dyn_cast<AffineDimExpr>(bin.getLHS()) : AffineDimExpr(nullptr);
    AffineConstantExpr size = bin ? dyn_cast<AffineConstantExpr>(bin.getRHS())
                                  : AffineConstantExpr(nullptr);
    if (!dim || !size || size.getValue() < 1 ||
        (expr.getKind() != AffineExprKind::FloorDiv &&
         expr.getKind() != AffineExprKind::Mod))
      return fail() << "has level " << str(expr)
                    << ": only d, d floordiv c and d mod c import";
    unsigned d = dim.getPosition();
    uint64_t b = size.getValue();
    if (expr.getKind() == AffineExprKind::FloorDiv) {
      if (sawBlock[d] || blocks[d] != 1)
        return fail() << "blocks dimension d" << d << " twice";
      sawBlock[d] = true;
      blocks[d] = b;
    } else if (!sawBlock[d] || blocks[d] != b) {
      return fail() << "has " << str(expr) << " without d" << d << " floordiv "
                    << b << " at an outer level";
    }
    order.push_back(d);
  }
  // A block of size 1 stores the dimension twice, the inner level always
  // at 0: not a format of its own.
  for (unsigned d = 0; d < blocks.size(); ++d)
    if (sawBlock[d] && blocks[d] == 1)
      return fail() << "has a block of size 1";
  return success();
}

FailureOr<ArrayType> import::convertTensorType(Location loc, Type type) {
  auto tensor = dyn_cast<RankedTensorType>(type);
  if (!tensor)
    return emitError(loc) << "cannot import " << type
                          << ": only ranked tensors are supported";
  Type element = tensor.getElementType();
  // Dense index tensors (the level buffers assemble reads and disassemble
  // writes) are held as i64 arrays: the same values on 64-bit targets, and
  // the buffers' type at the default widths. Readers of single elements
  // cast back (tensor.extract).
  if (element.isIndex() && !sparse_tensor::getSparseTensorEncoding(tensor))
    element = IntegerType::get(type.getContext(), 64);
  if (!ArrayType::isValidElementType(element))
    return emitError(loc) << "cannot import " << type << ": element type "
                          << element << " is not an array element type";
  auto enc = sparse_tensor::getSparseTensorEncoding(tensor);
  if (!enc)
    return ArrayType::get(tensor.getShape(), element);

  // A sliced encoding describes where a tensor.extract_slice's entries
  // are in its source's storage; its value is a tensor of its own shape,
  // held here in storage of its own (the sparse_array.slice of the source,
  // fused into its readers or materialized), so the slice is dropped.
  if (enc.isSlice())
    enc = enc.withoutDimSlices();
  // explicitVal promises that every stored value is that value; the
  // values are stored here all the same (the dense program's values, equal
  // to it wherever the promise holds). implicitVal is the fill: upstream
  // accepts only 0.
  if (Attribute implicit = enc.getImplicitVal())
    if (!matchPattern(implicit, m_Zero()) && !matchPattern(implicit, m_AnyZeroFloat()))
      return emitError(loc) << "cannot import " << type
                            << ": implicitVal other than 0";
  AffineMap dimToLvl = enc.getDimToLvl();
  SmallVector<unsigned> order;
  SmallVector<uint64_t> blocks;
  if (dimToLvl && !dimToLvl.isIdentity() &&
      failed(convertDimToLvl(loc, type, dimToLvl, order, blocks)))
    return failure();

  SmallVector<LevelSpec> levels;
  for (auto [l, lt] : llvm::enumerate(enc.getLvlTypes())) {
    LevelSpec spec;
    switch (lt.getLvlFmt()) {
    case sparse_tensor::LevelFormat::Dense:
      spec.format = LevelFormatRegistry::dense();
      break;
    case sparse_tensor::LevelFormat::Compressed:
      spec.format = LevelFormatRegistry::compressed();
      break;
    // The level format plugin of the same name: (lo, hi) per parent
    // position, held as the user's buffers give them.
    case sparse_tensor::LevelFormat::LooseCompressed:
      spec.format = LevelFormatRegistry::lookup("loose_compressed");
      break;
    case sparse_tensor::LevelFormat::Singleton:
      spec.format = LevelFormatRegistry::singleton();
      break;
    // The plugin of the same name and parameters (n:m, e.g. 2:4).
    case sparse_tensor::LevelFormat::NOutOfM:
      spec.format = LevelFormatRegistry::lookup("structured");
      spec.params = {sparse_tensor::getN(lt), sparse_tensor::getM(lt)};
      break;
    default:
      return emitError(loc) << "cannot import " << type << ": level " << l
                            << " is " << sparse_tensor::toMLIRString(lt)
                            << " (dense, compressed, loose_compressed, "
                               "singleton and structured import)";
    }
    spec.ordered = sparse_tensor::isOrderedLT(lt);
    spec.unique = sparse_tensor::isUniqueLT(lt);
    levels.push_back(spec);
  }

  FailureOr<unsigned> posWidth =
      convertWidth(loc, enc.getPosWidth(), "posWidth");
  FailureOr<unsigned> crdWidth =
      convertWidth(loc, enc.getCrdWidth(), "crdWidth");
  if (failed(posWidth) || failed(crdWidth))
    return failure();
  MLIRContext *ctx = type.getContext();
  auto emit = [&] { return emitError(loc) << "cannot import " << type << ": "; };
  if (failed(FormatAttr::verify(emit, levels, order, *posWidth, *crdWidth,
                                nullptr, blocks)))
    return failure();
  auto format = FormatAttr::get(ctx, levels, order, *posWidth, *crdWidth,
                                nullptr, blocks);
  // The fill (0) is set by the array type; its other invariants (a
  // blocked dimension's size a multiple of its block) are checked here.
  ArrayType result =
      ArrayType::getChecked(emit, tensor.getShape(), element, format);
  if (!result)
    return failure();
  return result;
}
