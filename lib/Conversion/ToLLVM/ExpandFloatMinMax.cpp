//===- ExpandFloatMinMax.cpp - Branch-free exact float min/max ------------===//
//
// arith.maximumf / minimumf as compares and selects (issue 20): the same
// IEEE 754-2019 result, without the branch LLVM's x86 lowering takes on the
// sign of the first operand.
//
//===----------------------------------------------------------------------===//

#include "SparseArray/Conversion/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Transforms/Passes.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir {
namespace sparse_array {
#define GEN_PASS_DEF_SPARSEARRAYEXPANDFLOATMINMAXPASS
#include "SparseArray/Conversion/Passes.h.inc"
} // namespace sparse_array
} // namespace mlir

using namespace mlir;

namespace {

template <typename Op, bool IsMax>
struct ExpandMinMax : public OpRewritePattern<Op> {
  using OpRewritePattern<Op>::OpRewritePattern;
  LogicalResult matchAndRewrite(Op op,
                                PatternRewriter &rewriter) const override {
    Type type = op.getType();
    auto elt = dyn_cast<FloatType>(getElementTypeOrSelf(type));
    if (!elt || (elt.getWidth() != 32 && elt.getWidth() != 64))
      return rewriter.notifyMatchFailure(op, "not f32 or f64");
    Type bitsType = rewriter.getIntegerType(elt.getWidth());
    if (auto vec = dyn_cast<VectorType>(type))
      bitsType = vec.clone(bitsType);
    Location loc = op.getLoc();
    Value x = op.getLhs(), y = op.getRhs();
    Value better = arith::CmpFOp::create(
        rewriter, loc,
        IsMax ? arith::CmpFPredicate::OGT : arith::CmpFPredicate::OLT, x, y);
    Value r = arith::SelectOp::create(rewriter, loc, better, x, y);
    // Equal operands: identical bits, or +0.0 and -0.0, whose maximum has
    // the sign bit only if both have it (and), the minimum if either (or).
    Value xb = arith::BitcastOp::create(rewriter, loc, bitsType, x);
    Value yb = arith::BitcastOp::create(rewriter, loc, bitsType, y);
    Value zb = IsMax ? Value(arith::AndIOp::create(rewriter, loc, xb, yb))
                     : Value(arith::OrIOp::create(rewriter, loc, xb, yb));
    Value equal =
        arith::CmpFOp::create(rewriter, loc, arith::CmpFPredicate::OEQ, x, y);
    r = arith::SelectOp::create(
        rewriter, loc, equal, arith::BitcastOp::create(rewriter, loc, type, zb),
        r);
    Value unordered =
        arith::CmpFOp::create(rewriter, loc, arith::CmpFPredicate::UNO, x, y);
    Value nan = arith::AddFOp::create(rewriter, loc, x, y);
    rewriter.replaceOpWithNewOp<arith::SelectOp>(op, unordered, nan, r);
    return success();
  }
};

struct ExpandFloatMinMaxPass
    : public sparse_array::impl::SparseArrayExpandFloatMinMaxPassBase<
          ExpandFloatMinMaxPass> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    patterns.add<ExpandMinMax<arith::MaximumFOp, true>,
                 ExpandMinMax<arith::MinimumFOp, false>>(&getContext());
    // bf16 <-> f32 as integer operations: LLVM lowers them to compiler-rt
    // calls (__truncsfbf2) that neither the JIT nor mlir-runner provides.
    arith::populateExpandBFloat16Patterns(patterns);
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      signalPassFailure();
  }
};

} // namespace
