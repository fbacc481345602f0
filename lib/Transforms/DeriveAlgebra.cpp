//===- DeriveAlgebra.cpp - Attach derived iteration algebras --------------===//
//
// Thin shell over AlgebraDerivation (seed 000 §5.2).
//
//===----------------------------------------------------------------------===//

#include "SparseArray/Analysis/AlgebraDerivation.h"
#include "SparseArray/Transforms/Passes.h"

#include "mlir/IR/Diagnostics.h"

namespace mlir {
namespace sparse_array {
#define GEN_PASS_DEF_SPARSEARRAYDERIVEALGEBRAPASS
#include "SparseArray/Transforms/Passes.h.inc"
} // namespace sparse_array
} // namespace mlir

using namespace mlir;
using namespace mlir::sparse_array;

namespace {

/// Prints `union(b, c)` with leaves named after the kernel's inputs'
/// positions, and the fill, for remarks.
std::string describe(const DerivedSpace &space) {
  std::string text;
  llvm::raw_string_ostream os(text);
  space.algebra.print(os);
  os << ", fill ";
  if (space.fill)
    printFillValue(os, space.fill);
  else
    os << "unknown";
  os << " (" << space.rule << ")";
  return text;
}

struct SparseArrayDeriveAlgebraPass
    : public sparse_array::impl::SparseArrayDeriveAlgebraPassBase<
          SparseArrayDeriveAlgebraPass> {
  using Base::Base;

  void runOnOperation() override {
    SymbolTableCollection symbols;
    Evaluator evaluator;
    getOperation()->walk([&](KernelOp kernel) {
      AlgebraDerivation derivation(symbols, evaluator);
      if (emitRemarks) {
        kernel.getBody().front().walk([&](Operation *op) {
          if (isa<ApplyOp, ReduceOverOp>(op))
            op->emitRemark() << describe(
                derivation.derive(kernel, op->getResult(0)));
        });
      }
      DerivedSpace space = derivation.deriveKernel(kernel);
      kernel.setAlgebraAttr(AlgebraAttr::get(kernel.getContext(), space.algebra));
      kernel.setFillAttr(ScalarAttr::get(kernel.getContext(), space.fill));
      if (emitRemarks)
        kernel.emitRemark() << "kernel: " << describe(space);
    });
  }
};

} // namespace
