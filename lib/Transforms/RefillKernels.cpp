//===- RefillKernels.cpp - A kernel computes the fill asked of it ---------===//
//
// change_fill of a computed array (a user's; ConcatToKernel gives parts
// with another fill range markers and refills none) is the same
// values with another set of stored points. The kernel computing the array can
// store that set itself: a declared result fill other than its derived fill
// makes its space the universe over its own extent (seed 000 §4.3), which
// is exactly the points change_fill would make explicit. One pass and no
// array between the kernel and the change_fill (that array was never
// freed either: nothing frees a change_fill's source).
//
//===----------------------------------------------------------------------===//

#include "SparseArray/Dialect/SparseArray.h"
#include "SparseArray/Transforms/Passes.h"

#include "mlir/IR/PatternMatch.h"

using namespace mlir;
using namespace mlir::sparse_array;

namespace {

struct ChangeFillOfKernel : public OpRewritePattern<ChangeFillOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(ChangeFillOp op,
                                PatternRewriter &rewriter) const override {
    auto kernel = op.getSource().getDefiningOp<KernelOp>();
    if (!kernel || !kernel.getResult().hasOneUse())
      return rewriter.notifyMatchFailure(op, "not the only use of a kernel");
    // Derived attributes describe the declared result; leave planned
    // kernels alone.
    if (kernel.getAlgebra() || kernel.getFillAttr() || kernel.getLattices())
      return rewriter.notifyMatchFailure(op, "the kernel is already planned");
    // The type asked for is final: no inference may replace its fill or
    // levels.
    rewriter.modifyOpInPlace(kernel, [&] {
      kernel.getResult().setType(op.getType());
      kernel.removeInferFillAttr();
      kernel.removeInferFormatAttr();
    });
    rewriter.replaceOp(op, kernel.getResult());
    return success();
  }
};

} // namespace

void mlir::sparse_array::populateRefillKernelPatterns(
    RewritePatternSet &patterns) {
  patterns.add<ChangeFillOfKernel>(patterns.getContext());
}
