//===- BuildLattices.cpp - sparse-array-build-lattices --------------------===//
//
// A thin shell around convertMisorderedInputs and buildKernelLattices
// (Coiteration.cpp), and planShapeLowering (lib/Dialect/ShapePlans.cpp) for
// the shape operators fusion left.
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
bool isRowWiseProduct(KernelOp kernel) {
  bool scatter = false;
  kernel.getBody().walk([&](ReduceOverOp r) { scatter |= r.getScatter().has_value(); });
  return scatter;
}

struct BuildLatticesPass
    : public sparse_array::impl::SparseArrayBuildLatticesPassBase<
          BuildLatticesPass> {
  using Base::Base;
  void runOnOperation() override {
    std::optional<ReductionWorkspace> chosen =
        symbolizeReductionWorkspace(workspace);
    if (!chosen) {
      getOperation()->emitError("unknown workspace '")
          << workspace << "' (auto, dense or hash)";
      return signalPassFailure();
    }
    SmallVector<KernelOp> kernels;
    getOperation()->walk([&](KernelOp k) { kernels.push_back(k); });
    bool ok = true;
    for (KernelOp kernel : kernels) {
      // A row-wise product reads its second factor by rows as stored: no
      // conversion (the plan is made first, conversions only otherwise).
      FailureOr<ArrayAttr> lattices =
          buildKernelLattices(kernel, linearThreshold, branchlessMerge,
                              *chosen);
      // A reduction whose inputs store a reduced variable above a kept one
      // scatters into the result in their order instead of converting
      // them (ScatterLoops.cpp); its lattices are those of that order.
      ReduceOverOp reduce;
      kernel.getBody().walk([&](ReduceOverOp r) { reduce = r; });
      std::optional<SmallVector<unsigned>> scatterLoops;
      if (succeeded(lattices) && reduce)
        scatterLoops = matchScatterLoops(kernel, reduce);
      if (scatterLoops) {
        SmallVector<int32_t> order(scatterLoops->begin(), scatterLoops->end());
        reduce.setScatterLoops(order);
        reduce.setEarlyExit(false);
        OpBuilder b(kernel);
        KernelOp map = buildScatterMapKernel(b, kernel, reduce, order);
        lattices = buildKernelLattices(map, linearThreshold, branchlessMerge,
                                       *chosen);
        map.erase();
      } else {
        if (reduce)
          reduce.removeScatterLoopsAttr();
        if (succeeded(lattices) && !isRowWiseProduct(kernel) &&
            convertMisorderedInputs(kernel))
          lattices = buildKernelLattices(kernel, linearThreshold, branchlessMerge,
                              *chosen);
      }
      if (failed(lattices)) {
        ok = false;
        continue;
      }
      kernel.setLatticesAttr(*lattices);
    }
    // Shape operators left unfused: how they move their entries, decided
    // here once (sparse-array-lower-shape reads it); none: the runtime.
    getOperation()->walk([](Operation *op) {
      if (!isa<SliceOp, ConcatOp, SplitOp, CollapseOp>(op) ||
          op->hasAttr("plan"))
        return;
      if (ShapePlanAttr plan = planShapeLowering(op))
        op->setAttr("plan", plan);
    });
    if (!ok)
      signalPassFailure();
  }
};
} // namespace
