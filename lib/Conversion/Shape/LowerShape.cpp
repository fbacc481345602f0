//===- LowerShape.cpp - sparse-array-lower-shape --------------------------===//
//
// A thin shell around populateCollapseLevelsPatterns (CollapseLevels.cpp),
// populateSplitLevelsPatterns (SplitLevels.cpp),
// populateMoveRangesPatterns (MoveRanges.cpp) and
// populateCooRowsPatterns (CooRows.cpp).
//
//===----------------------------------------------------------------------===//

#include "SparseArray/Conversion/Passes.h"

#include "CodegenUtils.h"
#include "SparseArray/Dialect/SparseArray.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Transforms/WalkPatternRewriteDriver.h"

namespace mlir {
namespace sparse_array {
#define GEN_PASS_DEF_SPARSEARRAYLOWERSHAPEPASS
#include "SparseArray/Conversion/Passes.h.inc"
} // namespace sparse_array
} // namespace mlir

using namespace mlir;
using namespace mlir::sparse_array;

namespace {
struct LowerShapePass
    : public sparse_array::impl::SparseArrayLowerShapePassBase<LowerShapePass> {
  using Base::Base;
  void runOnOperation() override {
    // Whichever pattern moves a concatenation's parts takes its other
    // dimensions' sizes from the first part: the others are checked first.
    getOperation()->walk([](ConcatOp concat) {
      OpBuilder b(concat);
      emitConcatExtentChecks(b, concat);
    });
    RewritePatternSet patterns(&getContext());
    populateCollapseLevelsPatterns(patterns, parallelCopyMin);
    populateSplitLevelsPatterns(patterns, parallelCopyMin);
    populateMoveRangesPatterns(patterns, parallelCopyMin);
    populateCooRowsPatterns(patterns, parallelCopyMin);
    walkAndApplyPatterns(getOperation(), std::move(patterns));
  }
};
} // namespace
