//===- ShapePlans.cpp - How an unfused shape operator is lowered ----------===//
//
// seed 001 §4.1 (shape operators) with seed 002 §3 (what a format's levels
// allow): the in-place lowerings of sparse-array-lower-shape, chosen from
// the storage of the operands and result. The planner records the choice
// (`plan`); the lowering reads it; the verifier checks it here.
//
//===----------------------------------------------------------------------===//

#include "SparseArray/Dialect/SparseArray.h"

#include "mlir/IR/Diagnostics.h"

using namespace mlir;
using namespace mlir::sparse_array;

/// A collapse merging the levels that store its dimensions, the fill kept
/// (another fill makes implicit entries values: the runtime's).
static bool mergesLevels(CollapseOp op) {
  ArrayType merged =
      getCollapsedStorageType(cast<ArrayType>(op.getSource().getType()),
                              op.getDims(), op.getOrder() == "F");
  return merged && merged.getFormat().getFill() ==
                       cast<ArrayType>(op.getType()).getFormat().getFill();
}

/// Every plan `op`'s storage allows, preferred first (one predicate call
/// per lowering; the planner takes the first, the verifier looks a recorded
/// plan up here).
static SmallVector<ShapePlanAttr> allowedPlans(Operation *op) {
  MLIRContext *ctx = op->getContext();
  SmallVector<ShapePlanAttr> plans;
  auto add = [&](ShapeLowering lowering, int64_t level = -1,
                 int64_t dim = -1) {
    plans.push_back(ShapePlanAttr::get(ctx, lowering, level, dim));
  };
  if (auto slice = dyn_cast<SliceOp>(op)) {
    if (auto moved = getMovedRangeLevel(slice))
      add(ShapeLowering::MoveRanges, moved->second, moved->first);
    if (isSliceIntoCoo(slice))
      add(ShapeLowering::CooFromRows);
  } else if (auto concat = dyn_cast<ConcatOp>(op)) {
    if (auto cut = getMovedRangeLevel(concat))
      add(ShapeLowering::MoveRanges, *cut);
    if (isConcatIntoRows(concat))
      add(ShapeLowering::RowsFromCoo);
    if (isConcatIntoCoo(concat))
      add(ShapeLowering::CooFromRows);
  } else if (auto split = dyn_cast<SplitOp>(op)) {
    if (auto level = getSplitStoredLevel(split))
      add(ShapeLowering::SplitLevels, *level);
  } else if (auto collapse = dyn_cast<CollapseOp>(op)) {
    if (mergesLevels(collapse))
      add(ShapeLowering::MergeLevels);
  }
  return plans;
}

ShapePlanAttr mlir::sparse_array::planShapeLowering(Operation *op) {
  SmallVector<ShapePlanAttr> plans = allowedPlans(op);
  return plans.empty() ? ShapePlanAttr() : plans.front();
}

LogicalResult mlir::sparse_array::verifyShapePlan(Operation *op,
                                                  ShapePlanAttr plan) {
  SmallVector<ShapePlanAttr> plans = allowedPlans(op);
  if (llvm::is_contained(plans, plan))
    return success();
  InFlightDiagnostic diag = op->emitOpError()
                            << "is planned " << plan
                            << ", which its operands' and result's storage "
                               "do not allow";
  if (!plans.empty())
    diag << " (they allow " << plans.front() << ")";
  return diag;
}

ShapePlanAttr mlir::sparse_array::getShapePlan(Operation *op,
                                               ShapeLowering lowering) {
  auto plan = op->getAttrOfType<ShapePlanAttr>("plan");
  return plan && plan.getLowering() == lowering ? plan : ShapePlanAttr();
}
