//===- AlgebraDerivation.cpp - Iteration spaces from properties -----------===//
//
// seed 000 §5.2 and thesis 003 §5.2: for f(args) the rules are tried in
// order
//   0. an explicit algebra, substituted when the arguments' fills match
//      the fills it assumes, and every argument it complements is exact
//      (see DerivedSpace::exact); otherwise the rules below apply;
//   1. annihilator a (at its positions, or any position): intersect the
//      arguments whose fill is a; the result fill is a;
//   2. idempotent with all fills equal to v: union, fill v;
//   3. identity i (binary): when the argument at a position where i is an
//      identity has fill i, union, fill = the other argument's fill;
//   4. fallback: union, fill = f(fills) computed exactly by evaluating the
//      body;
//   5. otherwise the universe (fill unknown).
//
//===----------------------------------------------------------------------===//

#include "SparseArray/Analysis/AlgebraDerivation.h"

#include "mlir/Dialect/Arith/IR/Arith.h"

#include <functional>

using namespace mlir;
using namespace mlir::sparse_array;

TypedAttr AlgebraDerivation::evaluate(FuncOp func, ArrayRef<TypedAttr> args) {
  if (llvm::any_of(args, [](TypedAttr a) { return !a; }))
    return {};
  FailureOr<TypedAttr> result = evaluator.evaluate(func, args);
  return succeeded(result) ? *result : TypedAttr();
}

const DerivedSpace &AlgebraDerivation::derive(KernelOp kernel, Value value) {
  auto it = cache.find(value);
  if (it != cache.end())
    return it->second;
  // A value met again while it is derived (a concatenation's part read
  // through a window also read by an enclosing concatenation: leafFill asks
  // the enclosing select's common fill, which derives this select again)
  // sees a provisional space that assumes nothing: the universe, no known
  // fill, not exact. (x ++ y) ++ y recursed without end.
  DerivedSpace provisional;
  provisional.algebra = IterationAlgebra::universe();
  provisional.exact = false;
  provisional.rule = "cycle";
  cache[value] = std::move(provisional);
  DerivedSpace space;
  Operation *def = value.getDefiningOp();
  if (auto access = dyn_cast_or_null<AccessOp>(def)) {
    unsigned input = cast<BlockArgument>(access.getArray()).getArgNumber() -
                     kernel.getNumIndices();
    space.algebra = IterationAlgebra::leaf(input);
    space.fill = access.getArrayType().getFillValue();
    space.exact = true;
    space.rule = "input";
  } else if (auto constant = dyn_cast_or_null<arith::ConstantOp>(def)) {
    // A constant equals its own value everywhere: it is never "defined"
    // in the sense of differing from its fill.
    space.algebra = IterationAlgebra::empty();
    space.fill = dyn_cast<TypedAttr>(constant.getValue());
    space.exact = true;
    space.rule = "constant";
  } else if (auto apply = dyn_cast_or_null<ApplyOp>(def)) {
    space = deriveApply(kernel, apply);
  } else if (auto reduce = dyn_cast_or_null<ReduceOverOp>(def)) {
    space = deriveReduce(kernel, reduce);
  } else if (auto select = dyn_cast_or_null<SelectRangeOp>(def)) {
    // The parts of a concatenation lie in disjoint ranges of a coordinate,
    // each read through a window outside which its inputs are absent: the
    // value differs from the common fill where a part's algebra holds
    // (seed 001 §5.1, a ⊔ b). A part read straight from a dense array is
    // present at every point of its window and nowhere else: its leaf is
    // exactly its range (a range-restricted U). Its own fill is never seen
    // when the select is all that reads it: its leaf then stands for "the
    // select yields something other than the common fill" (leafFill), so
    // the leaf is exact whatever the part's fill. Any other part whose
    // fill differs from the common one is a value where it is absent too:
    // its whole range, which no algebra over the inputs describes, so the
    // universe (ConcatToKernel gives such parts range markers, so that this
    // stays for kernels written with select_range by hand).
    space.fill = commonFill(kernel, select);
    auto leafOfWindow = [&](Value part) {
      auto access = part.getDefiningOp<AccessOp>();
      if (!access || !access.getArrayType().isAllDense() || !space.fill)
        return false;
      unsigned k = cast<BlockArgument>(access.getArray()).getArgNumber() -
                   kernel.getNumIndices();
      TypedAttr f = leafFill(kernel, k);
      return f && isSameScalar(f, space.fill);
    };
    space.algebra = IterationAlgebra::empty();
    space.exact = true;
    for (auto [i, part] : llvm::enumerate(select.getParts())) {
      // A copy: later derivations insert into the cache (references into
      // a DenseMap do not survive its growth).
      DerivedSpace p = derive(kernel, part);
      space.exact &= p.exact;
      // A part with a range marker: its whole window, whatever its fill
      // (the marker's leaf, a range-restricted universe). Not exact: the
      // part's values there may equal the common fill.
      if (Value range = select.getRangeOf(i)) {
        unsigned k =
            cast<BlockArgument>(range.getDefiningOp<AccessOp>().getArray())
                .getArgNumber() -
            kernel.getNumIndices();
        space.algebra = IterationAlgebra::unite(
            {space.algebra, p.algebra, IterationAlgebra::leaf(k)});
        space.exact = false;
        continue;
      }
      // U over-approximates (the part's implicit entries and the other
      // parts' may equal the common fill): not exact, so that no
      // complement of it is taken (xor's explicit algebra would omit the
      // points where the other argument is stored).
      if (!leafOfWindow(part) &&
          (!p.fill || !space.fill || !isSameScalar(p.fill, space.fill))) {
        space.algebra = IterationAlgebra::universe();
        space.exact = false;
      } else
        space.algebra = IterationAlgebra::unite({space.algebra, p.algebra});
    }
    space.rule = "select_range";
  } else {
    space.rule = "unknown";
  }
  space.algebra = space.algebra.normalize();
  return cache[value] = std::move(space);
}

static bool readsDenseWindow(Value part) {
  auto access = part.getDefiningOp<AccessOp>();
  return access && access.getArrayType().isAllDense();
}

TypedAttr AlgebraDerivation::commonFill(KernelOp kernel, SelectRangeOp select) {
  // The first part that is neither a dense window's read nor a part with a
  // range marker decides (their fills are never seen), the last if all
  // are.
  for (auto [i, part] : llvm::enumerate(select.getParts()))
    if ((!readsDenseWindow(part) && !select.getRangeOf(i)) ||
        part == select.getParts().back())
      return derive(kernel, part).fill;
  return {};
}

TypedAttr AlgebraDerivation::leafFill(KernelOp kernel, unsigned k) {
  TypedAttr own =
      cast<ArrayType>(kernel.getInputs()[k].getType()).getFillValue();
  TypedAttr common;
  for (Operation *user : kernel.getInputArg(k).getUsers()) {
    auto access = dyn_cast<AccessOp>(user);
    if (!access || !readsDenseWindow(access.getResult()))
      return own;
    for (OpOperand &use : access.getResult().getUses()) {
      auto select = dyn_cast<SelectRangeOp>(use.getOwner());
      // As a part (when all parts are dense windows, the last one's fill is
      // the common fill: its own).
      // (A range marker's values are never read: its own fill.)
      if (!select || use.getOperandNumber() == 0 ||
          use.getOperandNumber() >= select.getODSOperandIndexAndLength(2).first)
        return own;
      TypedAttr f = commonFill(kernel, select);
      if (!f || (common && !isSameScalar(common, f)))
        return own;
      common = f;
    }
  }
  return common ? common : own;
}

DerivedSpace AlgebraDerivation::deriveApply(KernelOp kernel, ApplyOp apply) {
  auto func = symbols.lookupNearestSymbolFrom<FuncOp>(apply,
                                                      apply.getCalleeAttr());
  SmallVector<IterationAlgebra> algebras;
  SmallVector<TypedAttr> fills;
  SmallVector<bool> exacts;
  for (Value arg : apply.getArgs()) {
    const DerivedSpace &argSpace = derive(kernel, arg);
    algebras.push_back(argSpace.algebra);
    fills.push_back(argSpace.fill);
    exacts.push_back(argSpace.exact);
  }
  unsigned arity = algebras.size();
  DerivedSpace space;

  // 0. Explicit algebra. It speaks of where arguments differ from their
  // fills; substituting the arguments' algebras for that is sound where
  // the algebra is monotone (an argument that is in its algebra but equals
  // its fill only adds points that compute the fill), and under a
  // complement only for exact arguments.
  std::string skipped;
  if (AlgebraAttr explicitAlgebra = func.getAlgebraAttr()) {
    bool fillsMatch = true;
    for (auto [fill, assumed] : llvm::zip(fills, explicitAlgebra.getFills()))
      fillsMatch &= isSameScalar(fill, assumed);
    IterationAlgebra algebra = explicitAlgebra.getAlgebra();
    SmallVector<unsigned> inexact;
    for (unsigned pos : complementedLeaves(algebra))
      if (pos < arity && !exacts[pos])
        inexact.push_back(pos);
    if (fillsMatch && inexact.empty()) {
      space.algebra =
          algebra.substitute([&](unsigned pos) { return algebras[pos]; });
      space.fill = evaluate(func, fills);
      space.rule = "explicit algebra";
      return space;
    }
    skipped = fillsMatch ? "; explicit algebra not used: it complements a "
                           "computed argument"
                         : "; explicit algebra not used: fills differ";
  }
  DerivedSpace result = deriveFromProperties(func, algebras, fills);
  result.rule += skipped;
  return result;
}

/// Leaves that occur under a complement once De Morgan's laws have pushed
/// complements down to the leaves.
SmallVector<unsigned>
AlgebraDerivation::complementedLeaves(const IterationAlgebra &algebra) {
  SmallVector<unsigned> result;
  std::function<void(const IterationAlgebra &, bool)> walk =
      [&](const IterationAlgebra &a, bool negated) {
        switch (a.getKind()) {
        case IterationAlgebra::Kind::Leaf:
          if (negated && !llvm::is_contained(result, a.getLeaf()))
            result.push_back(a.getLeaf());
          return;
        case IterationAlgebra::Kind::Complement:
          walk(a.getChildren()[0], !negated);
          return;
        default:
          for (const IterationAlgebra &c : a.getChildren())
            walk(c, negated);
        }
      };
  walk(algebra.normalize(), false);
  return result;
}

DerivedSpace AlgebraDerivation::deriveFromProperties(
    FuncOp func, ArrayRef<IterationAlgebra> algebras,
    ArrayRef<TypedAttr> fills) {
  unsigned arity = algebras.size();
  bool allFillsKnown = llvm::all_of(fills, [](TypedAttr f) { return !!f; });
  DerivedSpace space;

  // 1. Annihilator (commutative: any position; else the given positions).
  if (AnnihilatorAttr annihilator = func.getAnnihilatorAttr()) {
    SmallVector<IterationAlgebra> annihilating;
    for (unsigned pos = 0; pos < arity; ++pos)
      if (annihilator.holdsAt(pos) &&
          isSameScalar(fills[pos], annihilator.getValue()))
        annihilating.push_back(algebras[pos]);
    if (!annihilating.empty()) {
      space.algebra = IterationAlgebra::intersect(annihilating);
      space.fill = annihilator.getValue();
      space.rule = annihilator.getPositions().empty() ? "annihilator"
                                                      : "annihilator at positions";
      return space;
    }
  }

  // 2. Idempotent with equal fills.
  if (func.getIdempotent() && allFillsKnown &&
      llvm::all_of(fills, [&](TypedAttr f) {
        return isSameScalar(f, fills.front());
      })) {
    space.algebra = IterationAlgebra::unite(algebras);
    space.fill = fills.front();
    space.rule = "idempotent";
    return space;
  }

  // 3. Identity: f(i, y) = y at a position holding the identity.
  if (IdentityAttr identity = func.getIdentityAttr()) {
    for (unsigned pos = 0; pos < 2; ++pos) {
      if (!identity.holdsAt(pos) ||
          !isSameScalar(fills[pos], identity.getValue()))
        continue;
      space.algebra = IterationAlgebra::unite(algebras);
      space.fill = fills[1 - pos];
      space.rule = identity.getPositions().empty() ? "identity"
                                                   : "identity at positions";
      return space;
    }
  }

  // 4. Union, with the fill computed through the body.
  if (TypedAttr fill = evaluate(func, fills)) {
    space.algebra = IterationAlgebra::unite(algebras);
    space.fill = fill;
    space.rule = "union by evaluation";
    return space;
  }

  // 5. Nothing known.
  space.rule = "universe";
  return space;
}

/// The static number of values of index variable `index`, if known.
static std::optional<int64_t> getStaticExtent(KernelOp kernel, Value index) {
  for (Operation &op : kernel.getBody().front()) {
    auto access = dyn_cast<AccessOp>(op);
    if (!access)
      continue;
    for (auto [dim, idx] : llvm::enumerate(access.getIndices())) {
      if (auto lin = idx.getDefiningOp<LinearizeOp>()) {
        // A part of a split read: its size, or the first's quotient.
        auto at = llvm::find(lin.getIndices(), index);
        if (at == lin.getIndices().end())
          continue;
        unsigned part = at - lin.getIndices().begin();
        if (part)
          return lin.getSizes()[part - 1];
        int64_t size = access.getArrayType().getShape()[dim], inner = 1;
        for (int64_t s : lin.getSizes())
          inner *= s;
        if (!ShapedType::isDynamic(size))
          return size / inner;
        continue;
      }
      if (idx != index)
        continue;
      int64_t size = access.getArrayType().getShape()[dim];
      if (access.isSliced(dim)) {
        auto [lo, hi, step] = access.getSlice(dim);
        size = sliceLength(lo, hi, step);
      }
      if (!ShapedType::isDynamic(size))
        return size;
    }
  }
  return std::nullopt;
}

// Number of points reduced (product of the reduced extents), when static.
static std::optional<int64_t> reducedCount(KernelOp kernel,
                                           ReduceOverOp reduce) {
  std::optional<int64_t> count = 1;
  for (Value index : reduce.getIndices()) {
    std::optional<int64_t> extent = getStaticExtent(kernel, index);
    if (!extent || !count)
      count = std::nullopt;
    else
      *count *= *extent;
  }
  return count;
}

// Reductions over at most this many points are folded at compile time.
static constexpr int64_t kMaxEvaluatedFold = 4096;

TypedAttr AlgebraDerivation::foldFills(FuncOp combiner, TypedAttr acc,
                                       TypedAttr v, int64_t n) {
  for (int64_t k = 0; k < n && acc; ++k)
    acc = evaluate(combiner, {acc, v});
  return acc;
}

// A fold from a start value s (`from %start`): where s is its fill and
// every reduced point holds the value's fill v, the result is
// s ⊕ v ⊕ ... ⊕ v. It is s whatever the count when s is a fixed point of
// x ↦ x ⊕ v (v the identity, or s = +0.0 and v = +0.0 for IEEE addition);
// else it is folded for a static count. Elsewhere (start or value in its
// algebra) the point is visited: the algebra is the union of both.
DerivedSpace AlgebraDerivation::deriveReduceFrom(KernelOp kernel,
                                                 ReduceOverOp reduce,
                                                 FuncOp combiner) {
  DerivedSpace operand = derive(kernel, reduce.getValue());
  DerivedSpace start = derive(kernel, reduce.getStart());
  DerivedSpace space;
  TypedAttr v = operand.fill, s = start.fill;
  if (!v || !s) {
    space.rule = "fold from a start value of unknown fill: universe";
    return space;
  }
  space.algebra = IterationAlgebra::unite({start.algebra, operand.algebra});
  TypedAttr once = evaluate(combiner, {s, v});
  if (once && isSameScalar(once, s)) {
    space.fill = s;
    space.rule = "fold from a start value fixed by the fill";
    return space;
  }
  std::optional<int64_t> count = reducedCount(kernel, reduce);
  if (count && *count <= kMaxEvaluatedFold) {
    if (TypedAttr acc = foldFills(combiner, s, v, *count)) {
      space.fill = acc;
      space.rule = "fold from a start value by evaluation";
      return space;
    }
  }
  space.algebra = IterationAlgebra::universe();
  space.rule = "fold from a start value: universe";
  return space;
}

DerivedSpace AlgebraDerivation::deriveReduce(KernelOp kernel,
                                             ReduceOverOp reduce) {
  auto combiner = symbols.lookupNearestSymbolFrom<FuncOp>(
      reduce, reduce.getCombinerAttr());
  if (reduce.getStart())
    return deriveReduceFrom(kernel, reduce, combiner);
  const DerivedSpace &operand = derive(kernel, reduce.getValue());
  DerivedSpace space;
  space.algebra = operand.algebra;
  TypedAttr v = operand.fill;
  if (!v) {
    space.algebra = IterationAlgebra::universe();
    space.rule = "reduction of unknown fill: universe";
    return space;
  }
  std::optional<int64_t> count = reducedCount(kernel, reduce);
  // Reducing only fill values v:
  //  - v is the identity: the identity (also for an empty range);
  //  - idempotent or v annihilates: v, if the range is not empty;
  //  - otherwise fold the combiner over the (static, small) range.
  IdentityAttr identity = combiner.getIdentityAttr();
  if (identity && identity.getPositions().empty() &&
      isSameScalar(v, identity.getValue())) {
    space.fill = v;
    space.rule = "reduction from the identity";
    return space;
  }
  bool nonEmpty = count && *count > 0;
  AnnihilatorAttr annihilator = combiner.getAnnihilatorAttr();
  if (nonEmpty && combiner.getIdempotent()) {
    space.fill = v;
    space.rule = "idempotent reduction";
    return space;
  }
  if (nonEmpty && annihilator && annihilator.getPositions().empty() &&
      isSameScalar(v, annihilator.getValue())) {
    space.fill = v;
    space.rule = "reduction of annihilators";
    return space;
  }
  if (count && *count == 0 && identity && identity.getPositions().empty()) {
    space.fill = identity.getValue();
    space.rule = "empty reduction";
    return space;
  }
  if (nonEmpty && *count <= kMaxEvaluatedFold) {
    if (TypedAttr acc = foldFills(combiner, v, v, *count - 1)) {
      space.fill = acc;
      space.rule = "reduction by evaluation";
      return space;
    }
  }
  space.algebra = IterationAlgebra::universe();
  space.rule = "reduction: universe";
  return space;
}

DerivedSpace AlgebraDerivation::deriveKernel(KernelOp kernel) {
  DerivedSpace space = derive(kernel, kernel.getYield().getValue());
  TypedAttr declared = kernel.getResultType().getFillValue();
  if (!space.fill || !isSameScalar(space.fill, declared)) {
    space.rule = space.fill ? "declared fill differs from the derived one: "
                              "universe"
                            : "fill unknown: universe";
    space.algebra = IterationAlgebra::universe();
  }
  space.fill = declared;
  return space;
}

// Whether `func`'s body is exactly one OpTy of its two arguments (either
// order), without fast-math flags, yielded, with no explicit algebra or
// case regions to say otherwise.
template <typename OpTy>
static bool isPlainFloatBinary(FuncOp func) {
  Block &body = func.getBody().front();
  if (body.getNumArguments() != 2 ||
      !llvm::hasSingleElement(body.without_terminator()) ||
      func.getAlgebraAttr())
    return false;
  auto op = dyn_cast<OpTy>(body.front());
  auto yield = dyn_cast<YieldOp>(body.getTerminator());
  return op && yield && yield.getValue() == op.getResult() &&
         op.getFastmath() == arith::FastMathFlags::none &&
         llvm::is_contained(op->getOperands(), body.getArgument(0)) &&
         llvm::is_contained(op->getOperands(), body.getArgument(1));
}

static bool isFloatZero(TypedAttr a, bool negative) {
  auto f = dyn_cast_or_null<FloatAttr>(a);
  return f && f.getValue().isZero() && f.getValue().isNegative() == negative;
}

bool mlir::sparse_array::isExactFloatAdd(FuncOp func) {
  return isPlainFloatBinary<arith::AddFOp>(func);
}

bool mlir::sparse_array::isExactFloatMul(FuncOp func) {
  return isPlainFloatBinary<arith::MulFOp>(func);
}

bool mlir::sparse_array::isExactFloatMinimum(FuncOp func) {
  return isPlainFloatBinary<arith::MinimumFOp>(func);
}

bool mlir::sparse_array::isSignedZeroSum(FuncOp combiner, TypedAttr identity,
                                         TypedAttr fill) {
  return isFloatZero(identity, true) && isFloatZero(fill, false) &&
         isa<Float32Type, Float64Type>(fill.getType()) &&
         isPlainFloatBinary<arith::AddFOp>(combiner);
}

// SignedZeroDot (see ReductionPlan): the reduced value is x * y, exactly,
// of an access of a stored (not all-dense) input with fill ±0.0 and an
// access of an all-dense input at exactly the reduced variables, so that
// the dense input's entries are the reduction's points one to one.
static bool matchSignedZeroDot(KernelOp kernel, ReduceOverOp reduce,
                               FuncOp combiner, SymbolTableCollection &symbols,
                               ReductionPlan &plan) {
  auto apply = reduce.getValue().getDefiningOp<ApplyOp>();
  if (!apply || apply.getArgs().size() != 2 ||
      !isFloatZero(plan.identity, true) ||
      !isPlainFloatBinary<arith::AddFOp>(combiner))
    return false;
  auto func = symbols.lookupNearestSymbolFrom<FuncOp>(apply,
                                                      apply.getCalleeAttr());
  if (!func || func.getAnnihilatorAttr() ||
      !isPlainFloatBinary<arith::MulFOp>(func))
    return false;
  unsigned numIndices = kernel.getNumIndices();
  auto inputOf = [&](Value v) -> std::optional<unsigned> {
    auto access = v.getDefiningOp<AccessOp>();
    auto arg = access ? dyn_cast<BlockArgument>(access.getArray())
                      : BlockArgument();
    if (!arg || arg.getOwner() != &kernel.getBody().front() ||
        !access.getSlices().empty())
      return std::nullopt;
    return arg.getArgNumber() - numIndices;
  };
  for (unsigned sparsePos : {0u, 1u}) {
    std::optional<unsigned> zero = inputOf(apply.getArgs()[sparsePos]);
    std::optional<unsigned> dense = inputOf(apply.getArgs()[1 - sparsePos]);
    if (!zero || !dense || *zero == *dense)
      continue;
    auto zeroType = cast<ArrayType>(kernel.getInputs()[*zero].getType());
    auto denseType = cast<ArrayType>(kernel.getInputs()[*dense].getType());
    TypedAttr fill = zeroType.getFillValue();
    bool negative = isFloatZero(fill, true);
    if (zeroType.isAllDense() || !denseType.isAllDense() ||
        !(negative || isFloatZero(fill, false)))
      continue;
    // The dense factor's indices: the reduced variables, each once, and
    // kept (result) variables, each once (SpMM's B(k, j): its counts are
    // then taken per coordinate of the kept dimensions). Stored in
    // row-major order, so that its entries' coordinates are those of
    // their positions.
    auto denseAccess = apply.getArgs()[1 - sparsePos].getDefiningOp<AccessOp>();
    ValueRange indices = denseAccess.getIndices();
    unsigned rank = kernel.getResultType().getRank();
    auto isVar = [&](Value index) {
      auto arg = dyn_cast<BlockArgument>(index);
      return arg && arg.getOwner() == &kernel.getBody().front() &&
             arg.getArgNumber() < numIndices;
    };
    bool rowMajor = true;
    for (unsigned level = 0; level < denseType.getRank(); ++level)
      rowMajor &= denseType.getFormat().getLevelDim(level) == level;
    // A dimension read at linearize(r1, r2, ...) of reduced variables (a
    // blocked input's other factor, DemapBlocks.cpp) has its entries one
    // to one with those variables' points, in the same order.
    SmallVector<Value> vars;
    bool plain = true;
    for (Value index : indices) {
      if (auto lin = index.getDefiningOp<LinearizeOp>()) {
        for (Value part : lin.getIndices()) {
          plain &= llvm::is_contained(reduce.getIndices(), part);
          vars.push_back(part);
        }
        continue;
      }
      vars.push_back(index);
    }
    if (!rowMajor || !plain ||
        !llvm::all_of(reduce.getIndices(),
                      [&](Value r) { return llvm::is_contained(vars, r); }) ||
        !llvm::all_of(vars, [&](Value index) {
          return isVar(index) && llvm::count(vars, index) == 1 &&
                 (llvm::is_contained(reduce.getIndices(), index) ||
                  cast<BlockArgument>(index).getArgNumber() < rank);
        }))
      continue;
    plan.strategy = ReductionPlan::Strategy::SignedZeroDot;
    plan.algebra = IterationAlgebra::leaf(*zero);
    plan.zeroFactorInput = *zero;
    plan.denseFactorInput = *dense;
    plan.zeroFillNegative = negative;
    return true;
  }
  return false;
}

StringRef ReductionPlan::getStrategyName() const {
  return stringifyReductionStrategy(strategy);
}

ReductionPlanAttr ReductionPlan::toAttr(MLIRContext *context) const {
  AlgebraAttr visited;
  if (strategy != Strategy::Universe)
    visited = AlgebraAttr::get(context, algebra);
  ScalarAttr fill = valueFill ? ScalarAttr::get(context, valueFill) : nullptr;
  return ReductionPlanAttr::get(context, strategy, visited, fill,
                                zeroFactorInput, denseFactorInput,
                                zeroFillNegative, keys, keyShortRange,
                                workspace);
}

ReductionPlan ReductionPlan::fromAttr(ReductionPlanAttr attr,
                                      FuncOp combiner) {
  ReductionPlan plan;
  plan.strategy = attr.getStrategy();
  if (AlgebraAttr visited = attr.getAlgebra())
    plan.algebra = visited.getAlgebra();
  if (ScalarAttr fill = attr.getValueFill())
    plan.valueFill = fill.getValue();
  plan.zeroFactorInput = attr.getZeroFactor();
  plan.denseFactorInput = attr.getDenseFactor();
  plan.zeroFillNegative = attr.getZeroFillNegative();
  plan.keys = attr.getKeys();
  plan.keyShortRange = attr.getKeyShortRange();
  plan.workspace = attr.getWorkspace();
  plan.identity = combinerIdentity(combiner);
  plan.annihilator = combinerAnnihilator(combiner);
  return plan;
}

TypedAttr mlir::sparse_array::combinerIdentity(FuncOp combiner) {
  if (IdentityAttr identity = combiner.getIdentityAttr())
    if (identity.getPositions().empty())
      return identity.getValue();
  return nullptr;
}

TypedAttr mlir::sparse_array::combinerAnnihilator(FuncOp combiner) {
  // acc = f(acc, x): an annihilator at position 0 fixes the result.
  if (AnnihilatorAttr annihilator = combiner.getAnnihilatorAttr())
    if (annihilator.holdsAt(0))
      return annihilator.getValue();
  return nullptr;
}

/// Ranges of at most this many positions accumulate floats before keys: a
/// row of a few entries is cheaper folded as floats and checked once (a
/// zero result without NaN is redone with keys) than converted to keys.
static constexpr int64_t kKeyShortRange = 16;

/// Min/max of floats whose combiner is exactly arith.minimumf/maximumf of
/// its arguments (fast-math flags allowed: keys are exact either way) and
/// that no annihilator stops early: accumulated as total-order keys.
static ReductionKeys matchKeys(FuncOp combiner, Type type,
                               TypedAttr annihilator) {
  Block &body = combiner.getBody().front();
  if (!isa<Float32Type, Float64Type>(type) || annihilator ||
      body.getNumArguments() != 2 ||
      !llvm::hasSingleElement(body.without_terminator()))
    return ReductionKeys::None;
  Operation &op = body.front();
  auto yield = cast<YieldOp>(body.getTerminator());
  bool onArgs = op.getNumOperands() == 2 &&
                llvm::is_contained(op.getOperands(), body.getArgument(0)) &&
                llvm::is_contained(op.getOperands(), body.getArgument(1)) &&
                yield.getValue() == op.getResult(0);
  if (!onArgs)
    return ReductionKeys::None;
  if (isa<arith::MinimumFOp>(op))
    return ReductionKeys::Min;
  if (isa<arith::MaximumFOp>(op))
    return ReductionKeys::Max;
  return ReductionKeys::None;
}

ReductionPlan AlgebraDerivation::planReduction(KernelOp kernel,
                                               ReduceOverOp reduce) {
  auto combiner = symbols.lookupNearestSymbolFrom<FuncOp>(
      reduce, reduce.getCombinerAttr());
  const DerivedSpace &value = derive(kernel, reduce.getValue());
  ReductionPlan plan;
  plan.valueFill = value.fill;
  plan.identity = combinerIdentity(combiner);
  plan.annihilator = combinerAnnihilator(combiner);
  plan.keys = matchKeys(combiner, reduce.getType(), plan.annihilator);
  if (plan.keys != ReductionKeys::None)
    plan.keyShortRange = kKeyShortRange;
  if (matchSignedZeroDot(kernel, reduce, combiner, symbols, plan))
    return plan;
  if (!value.fill)
    return plan;
  if (plan.identity && isSameScalar(value.fill, plan.identity)) {
    plan.strategy = ReductionPlan::Strategy::Identity;
    plan.algebra = value.algebra;
  } else if (combiner.getIdempotent() && combiner.getCommutative() &&
             combiner.getAssociative()) {
    plan.strategy = ReductionPlan::Strategy::Idempotent;
    plan.algebra = value.algebra;
  } else if (combiner.getCommutative() && combiner.getAssociative()) {
    plan.strategy = ReductionPlan::Strategy::Reassociate;
    plan.algebra = value.algebra;
  } else if (isSignedZeroSum(combiner, plan.identity, value.fill)) {
    plan.strategy = ReductionPlan::Strategy::SignedZeroSum;
    plan.algebra = value.algebra;
  }
  return plan;
}
