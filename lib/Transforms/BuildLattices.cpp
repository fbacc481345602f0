//===- BuildLattices.cpp - sparse-array-build-lattices --------------------===//
//
// A thin shell around convertMisorderedInputs and buildKernelLattices
// (Coiteration.cpp).
//
//===----------------------------------------------------------------------===//

#include "SparseArray/Dialect/SparseArray.h"
#include "SparseArray/Transforms/Coiteration.h"
#include "SparseArray/Transforms/Passes.h"

namespace mlir {
namespace sparse_array {
#define GEN_PASS_DEF_SPARSEARRAYBUILDLATTICESPASS
#include "SparseArray/Transforms/Passes.h.inc"
} // namespace sparse_array
} // namespace mlir

using namespace mlir;
using namespace mlir::sparse_array;

namespace {
struct BuildLatticesPass
    : public sparse_array::impl::SparseArrayBuildLatticesPassBase<
          BuildLatticesPass> {
  void runOnOperation() override {
    SmallVector<KernelOp> kernels;
    getOperation()->walk([&](KernelOp k) { kernels.push_back(k); });
    bool ok = true;
    for (KernelOp kernel : kernels) {
      convertMisorderedInputs(kernel);
      FailureOr<ArrayAttr> lattices = buildKernelLattices(kernel);
      if (failed(lattices)) {
        ok = false;
        continue;
      }
      kernel.setLatticesAttr(*lattices);
    }
    if (!ok)
      signalPassFailure();
  }
};
} // namespace
