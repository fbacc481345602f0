//===- LowerIterators.cpp - sparse-array-lower-iterators ------------------===//
//
// A thin shell around lowerKernels (KernelCodegen.cpp); afterwards, the
// sparse_array.func definitions nothing refers to any more, and constant
// arrays nothing reads any more, are erased.
//
//===----------------------------------------------------------------------===//

#include "SparseArray/Conversion/KernelCodegen.h"
#include "SparseArray/Conversion/Passes.h"
#include "SparseArray/Dialect/SparseArray.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/SymbolTable.h"

namespace mlir {
namespace sparse_array {
#define GEN_PASS_DEF_SPARSEARRAYLOWERITERATORSPASS
#include "SparseArray/Conversion/Passes.h.inc"
} // namespace sparse_array
} // namespace mlir

using namespace mlir;
using namespace mlir::sparse_array;

namespace {
struct LowerIteratorsPass
    : public sparse_array::impl::SparseArrayLowerIteratorsPassBase<
          LowerIteratorsPass> {
  using Base::Base;
  void runOnOperation() override {
    ModuleOp module = getOperation();
    if (failed(lowerKernels(module)))
      return signalPassFailure();
    // Constant arrays only kernels read, and only as range markers whose
    // values the loops never load (select_range's `ranges`), are dead now:
    // erased before sparse-array-lower-storage would materialize them.
    module.walk([](ConstantOp op) {
      if (op->use_empty())
        op.erase();
    });
    // Functions are inlined into the loops: drop every function that only
    // other functions refer to (calls, distributes_over).
    SmallVector<FuncOp> dead;
    for (FuncOp func : module.getOps<FuncOp>()) {
      auto uses = SymbolTable::getSymbolUses(func, module);
      bool live = uses && llvm::any_of(*uses, [](const SymbolTable::SymbolUse &use) {
        Operation *user = use.getUser();
        return !isa<FuncOp>(user) && !user->getParentOfType<FuncOp>();
      });
      if (!live)
        dead.push_back(func);
    }
    for (FuncOp func : dead)
      func.erase();
  }
};
} // namespace
