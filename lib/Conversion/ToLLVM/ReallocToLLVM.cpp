//===- ReallocToLLVM.cpp - memref.realloc -> the C library's realloc ------===//
//
// Output buffers of sparse kernels grow by doubling and shrink to their
// final size. Upstream's expand-realloc turns each realloc into malloc +
// element-wise copy + free, which for a 100 MB output copies it once more
// at the end; the C library's realloc extends or trims in place or remaps
// pages instead.
//
//===----------------------------------------------------------------------===//

#include "SparseArray/Conversion/Passes.h"

#include "mlir/Conversion/LLVMCommon/MemRefBuilder.h"
#include "mlir/Conversion/LLVMCommon/Pattern.h"
#include "mlir/Dialect/LLVMIR/FunctionCallUtils.h"

namespace mlir {
namespace sparse_array {
#define GEN_PASS_DEF_SPARSEARRAYREALLOCTOLLVMPASS
#include "SparseArray/Conversion/Passes.h.inc"
} // namespace sparse_array
} // namespace mlir

using namespace mlir;

namespace {

struct ReallocLowering : public ConvertOpToLLVMPattern<memref::ReallocOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;

  LogicalResult
  matchAndRewrite(memref::ReallocOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    MemRefType from = op.getSource().getType();
    MemRefType to = op.getType();
    if (from.getRank() != 1 || !from.getLayout().isIdentity() ||
        !to.getLayout().isIdentity() || op.getAlignment())
      return rewriter.notifyMatchFailure(op, "not a plain 1-D buffer");
    Location loc = op.getLoc();
    auto module = op->getParentOfType<ModuleOp>();
    Type ptrType = LLVM::LLVMPointerType::get(rewriter.getContext());
    Type indexType = getIndexType();
    FailureOr<LLVM::LLVMFuncOp> realloc = LLVM::lookupOrCreateFn(
        rewriter, module, "realloc", {ptrType, indexType}, ptrType);
    if (failed(realloc))
      return rewriter.notifyMatchFailure(op, "'realloc' has another type");

    MemRefDescriptor source(adaptor.getSource());
    Value allocated = source.allocatedPtr(rewriter, loc);
    Value aligned = source.alignedPtr(rewriter, loc);
    Value size = to.isDynamicDim(0)
                     ? adaptor.getDynamicResultSize()
                     : createIndexAttrConstant(rewriter, loc, indexType,
                                               to.getDimSize(0));
    Value eltBytes = getSizeInBytes(loc, to.getElementType(), rewriter);
    // Bytes between the allocation and the data (alignment padding) move
    // along with the data.
    Value pad = LLVM::SubOp::create(
        rewriter, loc, indexType,
        LLVM::PtrToIntOp::create(rewriter, loc, indexType, aligned),
        LLVM::PtrToIntOp::create(rewriter, loc, indexType, allocated));
    Value bytes = LLVM::AddOp::create(
        rewriter, loc, LLVM::MulOp::create(rewriter, loc, size, eltBytes),
        pad);
    // realloc(p, 0) may free p and return null; keep one byte instead.
    Value one = createIndexAttrConstant(rewriter, loc, indexType, 1);
    bytes = LLVM::UMaxOp::create(rewriter, loc, bytes, one);
    Value fresh = LLVM::CallOp::create(rewriter, loc, *realloc,
                                       ValueRange{allocated, bytes})
                      .getResult();
    Value freshAligned =
        LLVM::GEPOp::create(rewriter, loc, ptrType, rewriter.getI8Type(),
                            fresh, ValueRange{pad});

    auto result = MemRefDescriptor::poison(
        rewriter, loc, getTypeConverter()->convertType(to));
    result.setAllocatedPtr(rewriter, loc, fresh);
    result.setAlignedPtr(rewriter, loc, freshAligned);
    result.setConstantOffset(rewriter, loc, 0);
    result.setSize(rewriter, loc, 0, size);
    result.setConstantStride(rewriter, loc, 0, 1);
    rewriter.replaceOp(op, {result});
    return success();
  }
};

struct ReallocToLLVMPass
    : public sparse_array::impl::SparseArrayReallocToLLVMPassBase<
          ReallocToLLVMPass> {
  void runOnOperation() override {
    MLIRContext *ctx = &getContext();
    LLVMTypeConverter converter(ctx);
    RewritePatternSet patterns(ctx);
    sparse_array::populateReallocToLLVMPatterns(converter, patterns);
    ConversionTarget target(*ctx);
    target.addLegalDialect<LLVM::LLVMDialect>();
    target.addDynamicallyLegalOp<memref::ReallocOp>([](memref::ReallocOp op) {
      MemRefType from = op.getSource().getType();
      return from.getRank() != 1 || !from.getLayout().isIdentity() ||
             !op.getType().getLayout().isIdentity() ||
             op.getAlignment().has_value();
    });
    target.markUnknownOpDynamicallyLegal([](Operation *) { return true; });
    if (failed(applyPartialConversion(getOperation(), target,
                                      std::move(patterns))))
      signalPassFailure();
  }
};

} // namespace

void sparse_array::populateReallocToLLVMPatterns(
    const LLVMTypeConverter &converter, RewritePatternSet &patterns) {
  patterns.add<ReallocLowering>(converter);
}
