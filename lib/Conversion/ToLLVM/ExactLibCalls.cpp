//===- ExactLibCalls.cpp - No inexact library-call rewrites by LLVM -------===//
//
// LLVM's library-call simplifier rewrites pow(2^n, x) into exp2(n * x) and
// pow(10, x) into exp10(x) without fast-math flags; neither is the dense
// program's pow bit for bit (issue 55, class 13). A function attribute
// "no-builtin-<name>" makes the named function unavailable to LLVM's
// TargetLibraryInfo for that function, which disables those rewrites.
//
//===----------------------------------------------------------------------===//

#include "SparseArray/Conversion/Passes.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"

namespace mlir {
namespace sparse_array {
#define GEN_PASS_DEF_SPARSEARRAYEXACTLIBCALLSPASS
#include "SparseArray/Conversion/Passes.h.inc"
} // namespace sparse_array
} // namespace mlir

using namespace mlir;

namespace {

/// The C library functions LLVM must not introduce in place of others.
constexpr StringLiteral kNoBuiltins[] = {
    "no-builtin-exp2",  "no-builtin-exp2f",  "no-builtin-exp2l",
    "no-builtin-exp10", "no-builtin-exp10f", "no-builtin-exp10l"};

struct ExactLibCallsPass
    : public sparse_array::impl::SparseArrayExactLibCallsPassBase<
          ExactLibCallsPass> {
  void runOnOperation() override {
    Builder b(&getContext());
    getOperation().walk([&](LLVM::LLVMFuncOp func) {
      if (func.isExternal())
        return;
      SmallVector<Attribute> attrs;
      if (ArrayAttr given = func.getPassthroughAttr())
        attrs.append(given.begin(), given.end());
      for (StringRef name : kNoBuiltins)
        if (!llvm::is_contained(attrs, b.getStringAttr(name)))
          attrs.push_back(b.getStringAttr(name));
      func.setPassthroughAttr(b.getArrayAttr(attrs));
    });
  }
};

} // namespace
