//===- LowerStorage.cpp - sparse-array-lower-storage ----------------------===//
//
// A thin shell: the type converter and patterns live in
// StorageToBuffers.cpp; function boundaries and scf regions use upstream's
// structural type-conversion patterns.
//
//===----------------------------------------------------------------------===//

#include "SparseArray/Conversion/Passes.h"
#include "SparseArray/Dialect/SparseArray.h"

#include "mlir/Dialect/Func/Transforms/FuncConversions.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/SCF/Transforms/Patterns.h"

namespace mlir {
namespace sparse_array {
#define GEN_PASS_DEF_SPARSEARRAYLOWERSTORAGEPASS
#include "SparseArray/Conversion/Passes.h.inc"
} // namespace sparse_array
} // namespace mlir

using namespace mlir;
using namespace mlir::sparse_array;

namespace {
struct LowerStoragePass
    : public sparse_array::impl::SparseArrayLowerStoragePassBase<
          LowerStoragePass> {
  void runOnOperation() override {
    MLIRContext *ctx = &getContext();
    ArrayStorageTypeConverter converter;
    ConversionTarget target(*ctx);
    RewritePatternSet patterns(ctx);
    configureStorageToBuffersTarget(target, converter);
    populateStorageToBuffersPatterns(converter, patterns);
    populateFunctionOpInterfaceTypeConversionPattern<func::FuncOp>(patterns,
                                                                   converter);
    populateCallOpTypeConversionPattern(patterns, converter);
    populateReturnOpTypeConversionPattern(patterns, converter);
    scf::populateSCFStructuralTypeConversionsAndLegality(converter, patterns,
                                                         target);
    if (failed(applyPartialConversion(getOperation(), target,
                                      std::move(patterns))))
      signalPassFailure();
  }
};
} // namespace
