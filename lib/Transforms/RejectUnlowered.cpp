//===- RejectUnlowered.cpp - Diagnose leftover sparse_array IR ------------===//
//
// The last sparse_array stage of the pipeline: whatever the dialect's own
// lowering did not handle gets an error that names the construct, instead of
// an "unresolved materialization" from the LLVM conversions.
//
//===----------------------------------------------------------------------===//

#include "SparseArray/Dialect/SparseArray.h"
#include "SparseArray/Transforms/Passes.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Interfaces/FunctionInterfaces.h"

namespace mlir {
namespace sparse_array {
#define GEN_PASS_DEF_SPARSEARRAYREJECTUNLOWEREDPASS
#include "SparseArray/Transforms/Passes.h.inc"
} // namespace sparse_array
} // namespace mlir

using namespace mlir;
using namespace mlir::sparse_array;

/// Whether `entity` (a type or attribute) is, or contains (function, tuple,
/// dictionary ...), a type or attribute of `dialect`.
template <typename TypeOrAttr>
static bool mentionsDialect(TypeOrAttr entity, Dialect *dialect) {
  bool found = false;
  auto check = [&](auto inner) {
    if (&inner.getDialect() == dialect)
      found = true;
  };
  entity.walk([&](Type inner) { check(inner); });
  entity.walk([&](Attribute inner) { check(inner); });
  return found;
}

LogicalResult mlir::sparse_array::rejectUnloweredConstructs(Operation *root) {
  Dialect *dialect =
      root->getContext()->getLoadedDialect<SparseArrayDialect>();
  if (!dialect)
    return success();
  bool failedAny = false;
  SmallVector<Operation *> bridges;
  // Pre-order, so that an unlowered op is reported once, not with every op
  // of its regions.
  root->walk<WalkOrder::PreOrder>([&](Operation *op) -> WalkResult {
    if (op->getDialect() == dialect) {
      op->emitError() << "'" << op->getName()
                      << "' cannot be lowered by the sparse_array pipeline "
                         "yet";
      failedAny = true;
      return WalkResult::skip();
    }
    // Casts that a conversion left between lowered IR and an unlowered op:
    // that op is the one to name.
    if (isa<UnrealizedConversionCastOp>(op)) {
      bridges.push_back(op);
      return WalkResult::advance();
    }
    auto report = [&](Type type) -> WalkResult {
      op->emitError() << "'" << op->getName() << "' uses type " << type
                      << " that the sparse_array pipeline cannot lower yet";
      failedAny = true;
      return WalkResult::advance();
    };
    if (auto func = dyn_cast<FunctionOpInterface>(op))
      if (mentionsDialect(func.getFunctionType(), dialect))
        return report(func.getFunctionType());
    for (Type type : op->getResultTypes())
      if (mentionsDialect(type, dialect))
        return report(type);
    for (Type type : op->getOperandTypes())
      if (mentionsDialect(type, dialect))
        return report(type);
    for (Region &region : op->getRegions())
      for (Block &block : region)
        for (BlockArgument arg : block.getArguments())
          if (mentionsDialect(arg.getType(), dialect))
            return report(arg.getType());
    for (NamedAttribute attr : op->getAttrs())
      if (mentionsDialect(attr.getValue(), dialect)) {
        op->emitError() << "'" << op->getName() << "' has attribute '"
                        << attr.getName().getValue()
                        << "' that the sparse_array pipeline cannot lower yet";
        failedAny = true;
        return WalkResult::advance();
      }
    return WalkResult::advance();
  });
  if (!failedAny)
    for (Operation *cast : bridges)
      for (Type type : llvm::concat<const Type>(cast->getOperandTypes(),
                                                cast->getResultTypes()))
        if (mentionsDialect(type, dialect)) {
          cast->emitError() << "a value of type " << type
                            << " is left unconverted by the sparse_array "
                               "pipeline";
          failedAny = true;
          break;
        }
  return failure(failedAny);
}

namespace {
struct SparseArrayRejectUnloweredPass
    : public sparse_array::impl::SparseArrayRejectUnloweredPassBase<
          SparseArrayRejectUnloweredPass> {
  using Base::Base;
  void runOnOperation() override {
    if (failed(rejectUnloweredConstructs(getOperation())))
      signalPassFailure();
  }
};
} // namespace
