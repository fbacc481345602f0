//===- FreeTemporaries.cpp - Free arrays only read by computations --------===//
//
// Arrays a frontend's program computes and only reads (the Python package's
// lazy expressions where fusion leaves a temporary between two kernels)
// would otherwise leak on every call of the compiled function.
//
//===----------------------------------------------------------------------===//

#include "SparseArray/Dialect/SparseArray.h"
#include "SparseArray/Transforms/Passes.h"

#include "mlir/IR/BuiltinOps.h"

namespace mlir {
namespace sparse_array {
#define GEN_PASS_DEF_SPARSEARRAYFREETEMPORARIESPASS
#include "SparseArray/Transforms/Passes.h.inc"
} // namespace sparse_array
} // namespace mlir

using namespace mlir;
using namespace mlir::sparse_array;

unsigned mlir::sparse_array::freeComputedTemporaries(Operation *root) {
  SmallVector<std::pair<Value, Operation *>> toFree;
  root->walk([&](Operation *op) {
    // Results that own new storage (SparseArrayOps.td, dealloc): kernels,
    // and collapses and splits (merged or divided levels, or the runtime's
    // reshape, always into new buffers): a reshape's collapsed
    // intermediate leaked on every call. Slices and concatenations left
    // unfused copy their entries (a kernel, ranges moved, COO rows); a
    // change_fill is the runtime's repack into a new array.
    if (!isa<KernelOp, MapOp, ReduceOp, CollapseOp, SplitOp, ReshapeOp, SliceOp,
             DynamicSliceOp, ConcatOp, ChangeFillOp>(op) ||
        op->getNumResults() != 1)
      return;
    Value v = op->getResult(0);
    if (v.use_empty())
      return;
    Operation *last = nullptr;
    for (Operation *user : v.getUsers()) {
      // Readers that make no array sharing v's buffers, in v's block (so
      // "after the last use" is a place in straight-line code). Every
      // lowering of a concatenation copies its parts; a change_fill makes
      // a new array (the runtime's repack).
      if (!isa<KernelOp, MapOp, ReduceOp, ConcatOp, PrintOp, ValidateOp,
               WriteOp, DimOp, ExtractOp, CollapseOp, SplitOp, ReshapeOp,
               DynamicSliceOp, ChangeFillOp>(user) ||
          user->getBlock() != op->getBlock())
        return;
      if (!last || last->isBeforeInBlock(user))
        last = user;
    }
    toFree.emplace_back(v, last);
  });
  for (auto [v, last] : toFree) {
    OpBuilder b(last->getContext());
    b.setInsertionPointAfter(last);
    DeallocOp::create(b, last->getLoc(), v);
  }
  return toFree.size();
}

namespace {
struct FreeTemporariesPass
    : public sparse_array::impl::SparseArrayFreeTemporariesPassBase<
          FreeTemporariesPass> {
  void runOnOperation() override { freeComputedTemporaries(getOperation()); }
};
} // namespace
