//===- SparseArrayDialect.cpp - sparse_array dialect ----------------------===//

#include "SparseArray/Dialect/SparseArray.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/OpImplementation.h"

using namespace mlir;
using namespace mlir::sparse_array;

#include "SparseArray/Dialect/SparseArrayOpsDialect.cpp.inc"

namespace {
/// Prints formats as aliases named after the classic layout they describe
/// (`#csr`, `#coo`, ...), so that signatures stay readable. Presentation
/// only: the name carries no meaning.
struct SparseArrayOpAsmInterface : public OpAsmDialectInterface {
  using OpAsmDialectInterface::OpAsmDialectInterface;

  AliasResult getAlias(Attribute attr, raw_ostream &os) const override {
    auto format = dyn_cast<FormatAttr>(attr);
    if (!format)
      return AliasResult::NoAlias;
    os << classify(format);
    return AliasResult::OverridableAlias;
  }

  static StringRef classify(FormatAttr format) {
    ArrayRef<LevelSpec> levels = format.getLevels();
    const LevelFormat *dense = LevelFormatRegistry::dense();
    const LevelFormat *compressed = LevelFormatRegistry::compressed();
    const LevelFormat *singleton = LevelFormatRegistry::singleton();
    auto plain = [](const LevelSpec &spec, const LevelFormat *f) {
      return spec.format == f && spec.ordered && spec.unique;
    };
    if (format.isBlocked())
      return format.getRank() == 2 && levels.size() == 4 &&
                     plain(levels[0], dense) && plain(levels[1], compressed) &&
                     plain(levels[2], dense) && plain(levels[3], dense)
                 ? "bsr"
                 : "blocked";
    if (format.isAllDense())
      return "dense";
    if (levels.size() == 2 && plain(levels[0], dense) &&
        plain(levels[1], compressed))
      return format.isIdentityOrder() ? "csr" : "csc";
    if (levels.size() >= 2 && levels[0].format == compressed &&
        !levels[0].unique &&
        llvm::all_of(levels.drop_front(), [&](const LevelSpec &spec) {
          return spec.format == singleton;
        }))
      return "coo";
    if (llvm::all_of(levels, [&](const LevelSpec &spec) {
          return plain(spec, compressed);
        }))
      return levels.size() == 1 ? "sparse_vector"
             : levels.size() == 2 ? "dcsr"
                                  : "csf";
    return "format";
  }
};
} // namespace

Operation *SparseArrayDialect::materializeConstant(OpBuilder &builder,
                                                   Attribute value, Type type,
                                                   Location loc) {
  if (!arith::ConstantOp::isBuildableWith(value, type))
    return nullptr;
  return arith::ConstantOp::create(builder, loc, type, cast<TypedAttr>(value));
}

void SparseArrayDialect::initialize() {
  registerAttributes();
  registerTypes();
  addOperations<
#define GET_OP_LIST
#include "SparseArray/Dialect/SparseArrayOps.cpp.inc"
      >();
  addInterfaces<SparseArrayOpAsmInterface>();
}
