//===- ScatterLoops.cpp - Reductions whose inputs store reduced vars above --===//
//
// A reduction along a non-leading storage level (column sums of CSR: the
// reduced row index is stored above the kept column index) cannot nest its
// loops inside the result's without converting the input. Instead its loops
// follow the inputs' storage order and every visited point's value is
// combined into the result entry at its kept coordinates (a scatter
// reduction, seed 000 §7.2; issue 20). Per result entry the points come in
// the order the nested fold visits them (reduced coordinates ascending), so
// the result is the nested fold's, bit for bit.
//
//===----------------------------------------------------------------------===//

#include "SparseArray/Analysis/AlgebraDerivation.h"
#include "SparseArray/Analysis/Evaluator.h"
#include "SparseArray/Dialect/LevelFormat.h"
#include "SparseArray/Transforms/Coiteration.h"

#include "mlir/IR/IRMapping.h"

using namespace mlir;
using namespace mlir::sparse_array;

/// The index variables input k's stored levels bind, outermost first, or
/// nullopt when a level is read other than by a plain index variable or a
/// constant (collapsed and split reads keep the conversion path).
static std::optional<SmallVector<unsigned>> storedVars(KernelOp kernel,
                                                       unsigned k) {
  AccessOp access = kernel.getAccessOf(k);
  auto type = cast<ArrayType>(kernel.getInputs()[k].getType());
  FormatAttr format = type.getFormat();
  SmallVector<unsigned> vars;
  for (unsigned l = 0; l < format.getNumLevels(); ++l) {
    Value index = access.getIndices()[format.getLevelDim(l)];
    if (auto arg = dyn_cast<BlockArgument>(index)) {
      if (!type.isAllDense() && !format.getLevels()[l].ordered)
        return std::nullopt;
      vars.push_back(arg.getArgNumber());
      continue;
    }
    if (!getConstantIndex(index))
      return std::nullopt;
  }
  return vars;
}

std::optional<SmallVector<unsigned>>
mlir::sparse_array::matchScatterLoops(KernelOp kernel, ReduceOverOp reduce) {
  unsigned rank = kernel.getResultType().getRank();
  unsigned numVars = kernel.getNumIndices();
  // signed_zero_dot's per-entry counts are not kept by the scatter
  // lowering: its input is converted.
  // A fold from a start value is one fold per result point (reduce_over).
  if (numVars <= rank || reduce.getScatter() || !reduce.getStrategy() ||
      reduce.getStart() ||
      *reduce.getStrategy() == ReductionStrategy::SignedZeroDot ||
      kernel.getYield().getValue() != reduce.getResult())
    return std::nullopt;
  SmallVector<int> loopOf = getLoopOfIndex(kernel);
  // Ordering constraints: consecutive stored levels of each sparse input.
  SmallVector<SmallVector<unsigned>> after(numVars);
  SmallVector<unsigned> before(numVars, 0);
  bool misordered = false;
  for (unsigned k = 0; k < kernel.getInputs().size(); ++k) {
    // Dense inputs are read by locate at any loop order (a split read
    // too, as blocked inputs' other operands are): no constraint.
    if (!kernel.getAccessOf(k) ||
        cast<ArrayType>(kernel.getInputs()[k].getType()).isAllDense())
      continue;
    std::optional<SmallVector<unsigned>> vars = storedVars(kernel, k);
    if (!vars)
      return std::nullopt;
    FormatAttr format =
        cast<ArrayType>(kernel.getInputs()[k].getType()).getFormat();
    AccessOp access = kernel.getAccessOf(k);
    std::optional<unsigned> prev;
    for (unsigned l = 0, v = 0; l < format.getNumLevels(); ++l) {
      Value index = access.getIndices()[format.getLevelDim(l)];
      if (!isa<BlockArgument>(index))
        continue; // a constant coordinate
      unsigned c = (*vars)[v++];
      if (!prev) {
        prev = c;
        continue;
      }
      unsigned a = *prev;
      if (a == c)
        return std::nullopt; // a diagonal: the lowering says why
      // A level the loop emitter locates below a later loop's (a block's
      // rows below the block columns) sets no order: it is not iterated
      // (sparse-array-coiteration keeps such inputs as stored).
      if (format.getLevels()[l].canLocate() && loopOf[c] < loopOf[a] &&
          !access.isSliced(format.getLevelDim(l)))
        continue;
      misordered |= loopOf[a] > loopOf[c];
      after[a].push_back(c);
      ++before[c];
      prev = c;
    }
  }
  if (!misordered)
    return std::nullopt;
  // Per result entry the scatter order visits the reduced variables in the
  // order of the loops below: their fold is the nested one (C order of the
  // reduced variables) only when it keeps their relative order, unless the
  // combiner may regroup and reorder its operands (commutative and
  // associative). Otherwise the input is converted: the loops nest in the
  // fold's order (a sum with the exact add_f64 over CSC folds row by row).
  auto combiner = SymbolTable::lookupNearestSymbolFrom<FuncOp>(
      kernel, reduce.getCombinerAttr());
  bool reorderable =
      combiner && combiner.getCommutative() && combiner.getAssociative();
  SmallVector<unsigned> order;
  SmallVector<bool> placed(numVars, false);
  while (order.size() < numVars) {
    int next = -1;
    for (unsigned v = 0; v < numVars; ++v)
      if (!placed[v] && before[v] == 0 &&
          (next < 0 || loopOf[v] < loopOf[next]))
        next = v;
    if (next < 0)
      return std::nullopt; // inputs disagree: convert
    if (!reorderable && next >= int(rank))
      for (unsigned v = rank; v < numVars; ++v)
        if (!placed[v] && loopOf[v] < loopOf[next])
          return std::nullopt; // a reduced variable before an outer one
    placed[next] = true;
    order.push_back(next);
    for (unsigned c : after[next])
      --before[c];
  }
  // A sparse result beyond one dimension is accumulated per coordinate of
  // its leading levels, which must be the outermost loops (a workspace over
  // the rest, drained after each; ScatterReduction.cpp). With no such
  // prefix the accumulator would be the whole result's dense size: convert.
  ArrayType result = kernel.getResultType();
  if (!result.isAllDense() && rank > 1) {
    SmallVector<int32_t> loops(order.begin(), order.end());
    unsigned prefix = scatterRowPrefix(result, loops);
    if (prefix == 0 || prefix >= rank)
      return std::nullopt;
  }
  return order;
}

unsigned mlir::sparse_array::scatterRowPrefix(ArrayType result,
                                              ArrayRef<int32_t> order) {
  unsigned rank = result.getRank(), prefix = 0;
  while (prefix < rank && prefix < order.size() &&
         order[prefix] == int32_t(result.getFormat().getLevelDim(prefix)))
    ++prefix;
  return prefix;
}

KernelOp mlir::sparse_array::buildScatterMapKernel(OpBuilder &b,
                                                   KernelOp kernel,
                                                   ReduceOverOp reduce,
                                                   ArrayRef<int32_t> order) {
  MLIRContext *ctx = kernel.getContext();
  unsigned rank = kernel.getResultType().getRank();
  unsigned numVars = kernel.getNumIndices();
  // Extents per variable: the result's, else a static size an input reads
  // the variable over (dynamic otherwise: the lowering takes it from the
  // inputs).
  SmallVector<int64_t> shape(numVars, ShapedType::kDynamic);
  for (unsigned v = 0; v < rank; ++v)
    shape[v] = kernel.getResultType().getShape()[v];
  for (unsigned k = 0; k < kernel.getInputs().size(); ++k) {
    AccessOp access = kernel.getAccessOf(k);
    if (!access)
      continue;
    auto type = cast<ArrayType>(kernel.getInputs()[k].getType());
    for (auto [dim, index] : llvm::enumerate(access.getIndices())) {
      auto arg = dyn_cast<BlockArgument>(index);
      if (!arg || !ShapedType::isDynamic(shape[arg.getArgNumber()]))
        continue;
      if (access.isSliced(dim)) {
        auto [lo, hi, step] = access.getSlice(dim);
        shape[arg.getArgNumber()] = sliceLength(lo, hi, step);
      } else if (!type.isDynamicDim(dim) && type.getShape()[dim] != 1) {
        shape[arg.getArgNumber()] = type.getShape()[dim];
      }
    }
  }
  // The reduction's plan, recorded by the caller (sparse-array-build-lattices).
  auto combiner = SymbolTable::lookupNearestSymbolFrom<FuncOp>(
      reduce, reduce.getCombinerAttr());
  ReductionPlan plan = ReductionPlan::fromAttr(reduce.getPlanAttr(), combiner);
  Type elt = reduce.getType();
  TypedAttr fill = plan.valueFill;
  if (!fill)
    fill = FormatAttr::getDefault(ctx, 1, elt).getFill();
  SmallVector<LevelSpec> levels(numVars, LevelSpec{LevelFormatRegistry::dense()});
  SmallVector<unsigned> dims(order.begin(), order.end());
  bool identity = llvm::equal(dims, llvm::seq<unsigned>(0, numVars));
  auto format = FormatAttr::get(ctx, levels,
                                identity ? ArrayRef<unsigned>() : dims,
                                FormatAttr::kDefaultWidth,
                                FormatAttr::kDefaultWidth, fill);
  auto type = ArrayType::get(shape, elt, format);
  auto map = KernelOp::create(b, kernel.getLoc(), type, kernel.getInputs(),
                              numVars);
  IRMapping mapping;
  Block &from = kernel.getBody().front(), &to = map.getBody().front();
  for (auto [a, c] : llvm::zip(from.getArguments(), to.getArguments()))
    mapping.map(a, c);
  OpBuilder inner = OpBuilder::atBlockBegin(&to);
  for (Operation &op : from.without_terminator())
    if (&op != reduce.getOperation())
      inner.clone(op, mapping);
  YieldOp::create(inner, kernel.getLoc(),
                  mapping.lookupOrDefault(reduce.getValue()));
  // Every point of the reduced value's space is visited (identity,
  // idempotent, reassociate count what they skip); the universe plan
  // visits every point.
  IterationAlgebra space = plan.strategy == ReductionPlan::Strategy::Universe
                               ? IterationAlgebra::universe()
                               : plan.algebra;
  map.setAlgebraAttr(AlgebraAttr::get(ctx, space));
  map.setFillAttr(ScalarAttr::get(ctx, fill));
  return map;
}
