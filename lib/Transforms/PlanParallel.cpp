//===- PlanParallel.cpp - sparse-array-plan-parallel ----------------------===//
//
// A thin shell around planParallelism (Parallelism.cpp).
//
//===----------------------------------------------------------------------===//

#include "SparseArray/Dialect/SparseArray.h"
#include "SparseArray/Transforms/Parallelism.h"
#include "SparseArray/Transforms/Passes.h"

namespace mlir {
namespace sparse_array {
#define GEN_PASS_DEF_SPARSEARRAYPLANPARALLELPASS
#include "SparseArray/Transforms/Passes.h.inc"
} // namespace sparse_array
} // namespace mlir

using namespace mlir;
using namespace mlir::sparse_array;

namespace {
struct PlanParallelPass
    : public sparse_array::impl::SparseArrayPlanParallelPassBase<
          PlanParallelPass> {
  using Base::Base;
  void runOnOperation() override {
    ParallelOptions options;
    options.minExtent = minExtent;
    options.minWork = minWork;
    std::optional<ParallelOptions::Assembly> how = parseAssembly(assembly);
    if (!how) {
      getOperation()->emitError()
          << "sparse-array-plan-parallel: assembly must be auto, two-phase, "
             "parts or chained, not '"
          << assembly << "'";
      return signalPassFailure();
    }
    options.assembly = *how;
    bool ok = true;
    getOperation()->walk([&](KernelOp kernel) {
      if (!kernel.getLattices()) {
        kernel.emitError("kernel has no coiteration lattices; run "
                         "--sparse-array-build-lattices first");
        ok = false;
        return;
      }
      kernel.setParallelAttr(planParallelism(kernel, options));
    });
    if (!ok)
      signalPassFailure();
  }
};
} // namespace
