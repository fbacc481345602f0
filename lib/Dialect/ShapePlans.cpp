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

ShapePlanAttr mlir::sparse_array::planShapeLowering(Operation *op) {
  MLIRContext *ctx = op->getContext();
  auto plan = [&](ShapeLowering lowering, int64_t level = -1,
                  int64_t dim = -1) {
    return ShapePlanAttr::get(ctx, lowering, level, dim);
  };
  if (auto slice = dyn_cast<SliceOp>(op)) {
    if (auto moved = getMovedRangeLevel(slice))
      return plan(ShapeLowering::MoveRanges, moved->second, moved->first);
    if (isSliceIntoCoo(slice))
      return plan(ShapeLowering::CooFromRows);
    return {};
  }
  if (auto concat = dyn_cast<ConcatOp>(op)) {
    if (auto cut = getMovedRangeLevel(concat))
      return plan(ShapeLowering::MoveRanges, *cut);
    if (isConcatIntoRows(concat))
      return plan(ShapeLowering::RowsFromCoo);
    if (isConcatIntoCoo(concat))
      return plan(ShapeLowering::CooFromRows);
    return {};
  }
  if (auto split = dyn_cast<SplitOp>(op)) {
    if (auto level = getSplitStoredLevel(split))
      return plan(ShapeLowering::SplitLevels, *level);
    return {};
  }
  if (auto collapse = dyn_cast<CollapseOp>(op)) {
    if (mergesLevels(collapse))
      return plan(ShapeLowering::MergeLevels);
    return {};
  }
  return {};
}

LogicalResult mlir::sparse_array::verifyShapePlan(Operation *op,
                                                  ShapePlanAttr plan) {
  // What the storage allows for the plan's lowering (its levels included).
  bool allowed = false;
  switch (plan.getLowering()) {
  case ShapeLowering::MoveRanges:
    if (auto slice = dyn_cast<SliceOp>(op)) {
      auto moved = getMovedRangeLevel(slice);
      allowed = moved && plan.getDim() == moved->first &&
                plan.getLevel() == moved->second;
    } else if (auto concat = dyn_cast<ConcatOp>(op)) {
      auto cut = getMovedRangeLevel(concat);
      allowed = cut && plan.getLevel() == *cut && plan.getDim() < 0;
    }
    break;
  case ShapeLowering::RowsFromCoo:
    allowed = isa<ConcatOp>(op) && isConcatIntoRows(cast<ConcatOp>(op));
    break;
  case ShapeLowering::CooFromRows:
    if (auto slice = dyn_cast<SliceOp>(op))
      allowed = isSliceIntoCoo(slice);
    else if (auto concat = dyn_cast<ConcatOp>(op))
      allowed = isConcatIntoCoo(concat);
    break;
  case ShapeLowering::SplitLevels:
    if (auto split = dyn_cast<SplitOp>(op)) {
      auto level = getSplitStoredLevel(split);
      allowed = level && plan.getLevel() == *level;
    }
    break;
  case ShapeLowering::MergeLevels:
    if (auto collapse = dyn_cast<CollapseOp>(op))
      allowed = mergesLevels(collapse);
    break;
  }
  bool leveled = plan.getLowering() == ShapeLowering::MoveRanges ||
                 plan.getLowering() == ShapeLowering::SplitLevels;
  if (!leveled && (plan.getLevel() >= 0 || plan.getDim() >= 0))
    allowed = false;
  if (allowed)
    return success();
  InFlightDiagnostic diag = op->emitOpError()
                            << "is planned " << plan
                            << ", which its operands' and result's storage "
                               "do not allow";
  if (ShapePlanAttr expected = planShapeLowering(op))
    diag << " (they allow " << expected << ")";
  return diag;
}
