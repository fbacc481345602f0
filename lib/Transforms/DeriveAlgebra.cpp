//===- DeriveAlgebra.cpp - Attach derived iteration algebras --------------===//
//
// Thin shell over AlgebraDerivation (seed 000 §5.2).
//
//===----------------------------------------------------------------------===//

#include "SparseArray/Analysis/AlgebraDerivation.h"
#include "SparseArray/Transforms/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/SymbolTable.h"

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

/// The levels chosen for an inferred output format.
FormatAttr inferFormat(KernelOp kernel, bool computesEveryPoint,
                       FormatAttr declared) {
  ArrayType resultType = kernel.getResultType();
  unsigned rank = resultType.getRank();
  MLIRContext *ctx = kernel.getContext();
  if (computesEveryPoint)
    return FormatAttr::getDefault(ctx, rank, resultType.getElementType())
        .withFill(declared.getFill());
  // An input read at exactly the result's index variables, unsliced.
  for (unsigned k = 0, e = kernel.getInputs().size(); k < e; ++k) {
    AccessOp access = kernel.getAccessOf(k);
    if (!access || access.getIndices().size() != rank ||
        !access.getSlices().empty())
      continue;
    bool sameIndices = true;
    for (unsigned d = 0; d < rank; ++d)
      sameIndices &= access.getIndices()[d] == Value(kernel.getIndex(d));
    if (!sameIndices)
      continue;
    FormatAttr like = access.getArrayType().getFormat();
    return FormatAttr::get(ctx, like.getLevels(), like.getOrder(),
                           like.getPosWidth(), like.getCrdWidth(),
                           declared.getFill());
  }
  SmallVector<LevelSpec> levels(rank, LevelSpec{LevelFormatRegistry::dense()});
  if (rank > 0)
    levels.back() = LevelSpec{LevelFormatRegistry::compressed()};
  return FormatAttr::get(ctx, levels, {}, declared.getPosWidth(),
                         declared.getCrdWidth(), declared.getFill());
}

/// Gives the kernel's result `type`, and its users the same: consuming
/// kernels' input arguments, or the result type of a function that returns
/// it when nothing calls that function. Users that take any array (free,
/// print, write, dim: sparse-array-free-temporaries' deallocs) need
/// nothing.
LogicalResult retypeResult(KernelOp kernel, ArrayType type) {
  Value result = kernel.getResult();
  auto anyArray = [](Operation *user) {
    return isa<DeallocOp, PrintOp, ValidateOp, WriteOp, DimOp>(user);
  };
  for (OpOperand &use : result.getUses()) {
    Operation *user = use.getOwner();
    if (isa<KernelOp>(user) || anyArray(user))
      continue;
    if (auto ret = dyn_cast<func::ReturnOp>(user)) {
      auto func = ret->getParentOfType<func::FuncOp>();
      auto module = func->getParentOfType<ModuleOp>();
      if (func && module && SymbolTable::symbolKnownUseEmpty(func, module))
        continue;
    }
    return kernel.emitError()
           << "cannot infer the result's type: it is used by '"
           << user->getName() << "', which needs it declared";
  }
  result.setType(type);
  for (OpOperand &use : result.getUses()) {
    Operation *user = use.getOwner();
    if (anyArray(user))
      continue;
    if (auto consumer = dyn_cast<KernelOp>(user)) {
      consumer.getInputArg(use.getOperandNumber()).setType(type);
      continue;
    }
    auto func = user->getParentOfType<func::FuncOp>();
    SmallVector<Type> results(func.getResultTypes());
    results[use.getOperandNumber()] = type;
    func.setType(FunctionType::get(func.getContext(), func.getArgumentTypes(),
                                   results));
  }
  return success();
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
      if (kernel.getInferFill() || kernel.getInferFormat()) {
        const DerivedSpace &derived =
            derivation.derive(kernel, kernel.getYield().getValue());
        ArrayType old = kernel.getResultType();
        FormatAttr format = old.getFormat();
        if (kernel.getInferFill()) {
          if (!derived.fill) {
            kernel.emitError() << "cannot infer the result's fill ("
                               << derived.rule
                               << "); declare it in the result type";
            signalPassFailure();
            return;
          }
          format = format.withFill(derived.fill);
        }
        // Every point is computed when the algebra is the universe or the
        // result's fill is not the derived one (see deriveKernel).
        bool computesEveryPoint = derived.algebra.isUniverse() ||
                                  !derived.fill ||
                                  !isSameScalar(derived.fill, format.getFill());
        if (kernel.getInferFormat())
          format = inferFormat(kernel, computesEveryPoint, format);
        ArrayType inferred =
            ArrayType::get(old.getShape(), old.getElementType(), format);
        if (failed(retypeResult(kernel, inferred))) {
          signalPassFailure();
          return;
        }
        kernel.setInferFill(false);
        kernel.setInferFormat(false);
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
