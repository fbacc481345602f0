//===- ShapeToKernels.cpp - Shape operators to kernels --------------------===//
//
// seed 001 §5.2 (Fig. 11): every shape operator becomes a kernel whose
// accesses map coordinates (slices, permutations, fixed coordinates,
// padded windows, linearized parts); sparse-array-fuse then fuses them with
// the compute around them like any kernel.
//
//===----------------------------------------------------------------------===//

#include "SparseArray/Analysis/AlgebraDerivation.h"
#include "SparseArray/Analysis/Evaluator.h"
#include "SparseArray/Dialect/SparseArray.h"
#include "SparseArray/Transforms/Coiteration.h"
#include "SparseArray/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/PatternMatch.h"

using namespace mlir;
using namespace mlir::sparse_array;

namespace {

/// Whether a kernel computing a part of a concatenation into `result`
/// fuses into it without a range marker: a computed part whose fill is
/// not the result's is a value at every point of its range: ConcatToKernel
/// gives such a part a range marker.
static bool fusesAsPart(KernelOp producer, ArrayType result) {
  if (result.isAllDense())
    return true;
  SymbolTableCollection symbols;
  Evaluator evaluator;
  AlgebraDerivation derivation(symbols, evaluator);
  TypedAttr own =
      derivation.derive(producer, producer.getYield().getValue()).fill;
  return own && isSameScalar(own, result.getFillValue());
}

/// Whether a concatenation's parts have offsets known when compiling (its
/// windows need them): every size along the axis is static.
static bool hasStaticOffsets(ConcatOp concat) {
  return llvm::none_of(concat.getInputs(), [&](Value input) {
    return cast<ArrayType>(input.getType()).isDynamicDim(concat.getDim());
  });
}

/// Whether fusion has anything to do with shape operator `op`: its one
/// user becomes a kernel (which then reads it fused), or an operand is the
/// one-use result of an op that becomes a kernel (fused into it).
bool hasFusionNeighbour(Operation *op) {
  auto becomesKernel = [](Operation *o) {
    if (auto concat = dyn_cast_or_null<ConcatOp>(o))
      return hasStaticOffsets(concat);
    return o && isa<KernelOp, MapOp, ReduceOp, SliceOp, TransposeOp,
                    ExpandDimsOp, SqueezeOp, SplitOp, ReshapeOp, CollapseOp>(o);
  };
  Value result = op->getResult(0);
  if (result.hasOneUse() && becomesKernel(*result.getUsers().begin()))
    return true;
  // A slice read by several kernels is a view fused into each of them
  // (sparse-array-fuse), not a copy they share.
  if (isa<SliceOp>(op) && !result.use_empty() &&
      llvm::all_of(result.getUsers(), becomesKernel))
    return true;
  // A collapse is not fused into a split of it (it stays merged levels:
  // CollapseToKernel fuses only into kernels reading it at a variable).
  return llvm::any_of(op->getOperands(), [&](Value v) {
    Operation *def = v.getDefiningOp();
    return v.hasOneUse() && becomesKernel(def) &&
           !(isa<SplitOp>(op) && isa<CollapseOp>(def)) &&
           !(isa<ConcatOp>(op) && isa<KernelOp>(def) &&
             !fusesAsPart(cast<KernelOp>(def),
                          cast<ArrayType>(op->getResult(0).getType())));
  });
}

/// slice %a[spec] -> kernel reading %a through a sliced access: one index
/// variable per result dimension; a sliced dimension reads lo + step * i,
/// an integer index a constant coordinate (seed 001 §4.1).
struct SliceToKernel : public OpRewritePattern<SliceOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(SliceOp slice,
                                PatternRewriter &rewriter) const override {
    // Alone, a slice that moves stored ranges is copied a range at a time
    // (sparse-array-lower-shape: MoveRanges.cpp, CooRows.cpp into COO).
    if (!hasFusionNeighbour(slice) &&
        (getMovedRangeLevel(slice) || isSliceIntoCoo(slice)))
      return rewriter.notifyMatchFailure(slice, "moves stored ranges");
    ArrayType sourceType = cast<ArrayType>(slice.getSource().getType());
    ArrayType resultType = cast<ArrayType>(slice.getResult().getType());
    Location loc = slice.getLoc();
    auto kernel =
        KernelOp::create(rewriter, loc, resultType,
                         ValueRange{slice.getSource()}, resultType.getRank());
    OpBuilder::InsertionGuard guard(rewriter);
    rewriter.setInsertionPointToStart(&kernel.getBody().front());
    SmallVector<Value> indices;
    SmallVector<int64_t> triples;
    bool anySliced = false;
    unsigned next = 0;
    for (unsigned dim = 0; dim < sourceType.getRank(); ++dim) {
      // Verified: every dimension normalizes.
      SliceOp::Normalized n = *slice.normalize(dim);
      if (n.index) {
        indices.push_back(arith::ConstantIndexOp::create(rewriter, loc, n.lo));
        triples.append({0, -1, 0});
        continue;
      }
      indices.push_back(kernel.getIndex(next++));
      if (n.whole) {
        triples.append({0, -1, 0});
        continue;
      }
      anySliced = true;
      triples.append({n.lo, n.hi, n.step});
    }
    Value entry = AccessOp::create(
        rewriter, loc, kernel.getInputArg(0), indices,
        rewriter.getDenseI64ArrayAttr(anySliced ? ArrayRef<int64_t>(triples)
                                                : ArrayRef<int64_t>()));
    YieldOp::create(rewriter, loc, entry);
    rewriter.replaceOp(slice, kernel.getResult());
    return success();
  }
};

/// A kernel that reads its one input at the given indices (index
/// variables of the result, or fixed coordinates) and yields it: how the
/// views transpose, expand_dims and squeeze lower (seed 001 §5.2, Fig.
/// 11: a permutation of the loops, U, a fixed coordinate), fused like any
/// kernel afterwards.
static KernelOp buildView(PatternRewriter &rewriter, Location loc, Value source,
                          ArrayType resultType,
                          function_ref<Value(KernelOp, unsigned)> indexOf) {
  ArrayType sourceType = cast<ArrayType>(source.getType());
  auto kernel = KernelOp::create(rewriter, loc, resultType, ValueRange{source},
                                 resultType.getRank());
  OpBuilder::InsertionGuard guard(rewriter);
  rewriter.setInsertionPointToStart(&kernel.getBody().front());
  SmallVector<Value> indices;
  for (unsigned dim = 0; dim < sourceType.getRank(); ++dim)
    indices.push_back(indexOf(kernel, dim));
  Value entry = AccessOp::create(rewriter, loc, kernel.getInputArg(0), indices,
                                 DenseI64ArrayAttr());
  YieldOp::create(rewriter, loc, entry);
  return kernel;
}

static void replaceByView(PatternRewriter &rewriter, Operation *op,
                          Value source, ArrayType resultType,
                          function_ref<Value(KernelOp, unsigned)> indexOf) {
  KernelOp kernel =
      buildView(rewriter, op->getLoc(), source, resultType, indexOf);
  rewriter.replaceOp(op, kernel.getResult());
}

/// transpose %a [p...]: result dimension d reads source dimension p[d].
struct TransposeToKernel : public OpRewritePattern<TransposeOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(TransposeOp op,
                                PatternRewriter &rewriter) const override {
    ArrayRef<int64_t> perm = op.getPermutation();
    replaceByView(
        rewriter, op, op.getSource(), cast<ArrayType>(op.getResult().getType()),
        [&](KernelOp kernel, unsigned dim) -> Value {
          return kernel.getIndex(llvm::find(perm, dim) - perm.begin());
        });
    return success();
  }
};

/// expand_dims %a [d...]: the new result dimensions are read by no access.
struct ExpandDimsToKernel : public OpRewritePattern<ExpandDimsOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(ExpandDimsOp op,
                                PatternRewriter &rewriter) const override {
    ArrayRef<int64_t> dims = op.getDims();
    SmallVector<unsigned> kept;
    auto resultType = cast<ArrayType>(op.getResult().getType());
    for (unsigned d = 0; d < resultType.getRank(); ++d)
      if (!llvm::is_contained(dims, int64_t(d)))
        kept.push_back(d);
    replaceByView(rewriter, op, op.getSource(), resultType,
                  [&](KernelOp kernel, unsigned dim) -> Value {
                    return kernel.getIndex(kept[dim]);
                  });
    return success();
  }
};

/// squeeze %a [d...]: the removed dimensions are read at coordinate 0.
struct SqueezeToKernel : public OpRewritePattern<SqueezeOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(SqueezeOp op,
                                PatternRewriter &rewriter) const override {
    ArrayRef<int64_t> dims = op.getDims();
    unsigned next = 0;
    Value zero;
    replaceByView(
        rewriter, op, op.getSource(), cast<ArrayType>(op.getResult().getType()),
        [&](KernelOp kernel, unsigned dim) -> Value {
          if (!llvm::is_contained(dims, int64_t(dim)))
            return kernel.getIndex(next++);
          if (!zero)
            zero = arith::ConstantIndexOp::create(rewriter, op.getLoc(), 0);
          return zero;
        });
    return success();
  }
};

/// How a kernel reads a source whose dimension s is result dimensions
/// groups[s] (consecutive; one: a plain variable; several: linearized, C
/// order outermost first, F order innermost first): the result dimensions
/// in linearization order and the inner sizes per source dimension. Fails
/// where a part other than the outermost has no static positive size or
/// the result's levels (which the loops follow) cannot iterate the parts
/// (splitReadsIterable).
struct SplitPlan {
  SmallVector<SmallVector<unsigned>> order;
  SmallVector<SmallVector<int64_t>> sizes;
};
static FailureOr<SplitPlan> planSplit(ArrayType resultType,
                                      ArrayRef<SmallVector<unsigned>> groups,
                                      bool fortran) {
  SplitPlan plan;
  FormatAttr format = resultType.getFormat();
  SmallVector<SmallVector<int>> loops;
  for (ArrayRef<unsigned> group : groups) {
    SmallVector<unsigned> &order = plan.order.emplace_back(group);
    if (fortran)
      std::reverse(order.begin(), order.end());
    SmallVector<int64_t> &sizes = plan.sizes.emplace_back();
    SmallVector<int> &l = loops.emplace_back();
    for (auto [i, r] : llvm::enumerate(order)) {
      l.push_back(format.getDimLevel(r));
      if (i == 0)
        continue;
      int64_t size = resultType.getShape()[r];
      if (ShapedType::isDynamic(size) || size <= 0)
        return failure();
      sizes.push_back(size);
    }
  }
  if (!splitReadsIterable(loops))
    return failure();
  return plan;
}

/// The kernel of `plan`: source dimension s read at its group's variable,
/// or at sparse_array.linearize of them (seed 001 §4.1, §5.1's
/// projections: the parts iterate the stored coordinates' quotients and
/// remainders).
static void replaceBySplitView(PatternRewriter &rewriter, Operation *op,
                               Value source, ArrayType resultType,
                               const SplitPlan &plan) {
  replaceByView(rewriter, op, source, resultType,
                [&](KernelOp kernel, unsigned dim) -> Value {
                  SmallVector<Value> vars = llvm::map_to_vector(
                      plan.order[dim], [&](unsigned r) -> Value {
                        return kernel.getIndex(r);
                      });
                  if (vars.size() == 1)
                    return vars.front();
                  return LinearizeOp::create(
                      rewriter, op->getLoc(), vars,
                      rewriter.getDenseI64ArrayAttr(plan.sizes[dim]));
                });
}

/// split %a dim d [sizes]: result dimensions d..d+k-1 read the source's d
/// through one linearized coordinate. Where planSplit fails, the runtime
/// moves the entries (sparse-array-lower-storage).
struct SplitToKernel : public OpRewritePattern<SplitOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(SplitOp op,
                                PatternRewriter &rewriter) const override {
    // Alone, a split whose entries keep their positions computes their
    // coordinates in one pass (sparse-array-lower-shape, SplitLevels.cpp).
    if (!hasFusionNeighbour(op) && getSplitStoredLevel(op))
      return rewriter.notifyMatchFailure(op, "entries keep their positions");
    auto resultType = cast<ArrayType>(op.getResult().getType());
    auto sourceType = cast<ArrayType>(op.getSource().getType());
    unsigned d = op.getDim(), k = op.getSizes().size();
    SmallVector<SmallVector<unsigned>> groups;
    for (unsigned dim = 0; dim < sourceType.getRank(); ++dim) {
      SmallVector<unsigned> &g = groups.emplace_back();
      if (dim < d)
        g.push_back(dim);
      else if (dim > d)
        g.push_back(dim + k - 1);
      else
        for (unsigned i = 0; i < k; ++i)
          g.push_back(d + i);
    }
    FailureOr<SplitPlan> plan =
        planSplit(resultType, groups, op.getOrder() == "F");
    if (failed(plan))
      return rewriter.notifyMatchFailure(op, "no iterable split");
    replaceBySplitView(rewriter, op, op.getSource(), resultType, *plan);
    return success();
  }
};

/// numpy.reshape: the sizes split into groups whose products agree
/// (source dims si -> result dims tj; the same in C and F order; with
/// sizes known only at run time, groupsFromInside). Groups of several source
/// dimensions are collapsed (merging their levels, seed 001 §4.1), then one
/// kernel splits the groups of several result dimensions (fused like any
/// kernel). Where a collapse cannot merge levels or the split cannot be
/// iterated, the runtime moves the entries.
struct ReshapeToKernel : public OpRewritePattern<ReshapeOp> {
  using OpRewritePattern::OpRewritePattern;
  static std::optional<SmallVector<std::pair<SmallVector<unsigned>,
                                             SmallVector<unsigned>>>>
  groupsOf(ArrayRef<int64_t> from, ArrayRef<int64_t> to) {
    SmallVector<std::pair<SmallVector<unsigned>, SmallVector<unsigned>>> g;
    unsigned i = 0, j = 0;
    while (i < from.size() && j < to.size()) {
      auto &group = g.emplace_back();
      int64_t ps = from[i], pt = to[j];
      group.first.push_back(i++);
      group.second.push_back(j++);
      while (ps != pt) {
        if (ps < pt && i < from.size()) {
          ps *= from[i];
          group.first.push_back(i++);
        } else if (pt < ps && j < to.size()) {
          pt *= to[j];
          group.second.push_back(j++);
        } else {
          return std::nullopt;
        }
      }
    }
    // Trailing size-1 dimensions join the last group.
    for (; i < from.size(); ++i) {
      if (from[i] != 1 || g.empty())
        return std::nullopt;
      g.back().first.push_back(i);
    }
    for (; j < to.size(); ++j) {
      if (to[j] != 1 || g.empty())
        return std::nullopt;
      g.back().second.push_back(j);
    }
    return g;
  }

  /// Sizes known only at run time: the dimensions innermost in the
  /// linearization (C: the last) group as groupsOf does while their sizes
  /// are static; every dimension from the first dynamic one outwards forms
  /// the outermost group, whose product is known at run time only (its
  /// collapse and split take their outer sizes there: planSplit and the
  /// collapse need static inner parts only). The result must have a size
  /// known only at run time in that group (numpy's -1), else the runtime
  /// checks the sizes.
  static std::optional<
      SmallVector<std::pair<SmallVector<unsigned>, SmallVector<unsigned>>>>
  groupsFromInside(ArrayRef<int64_t> from, ArrayRef<int64_t> to, bool fortran) {
    auto inward = [&](size_t n) {
      SmallVector<unsigned> o;
      for (unsigned k = 0; k < n; ++k)
        o.push_back(fortran ? k : unsigned(n - 1 - k));
      return o;
    };
    SmallVector<unsigned> fi = inward(from.size()), ti = inward(to.size());
    auto dyn = [](int64_t s) { return ShapedType::isDynamic(s); };
    SmallVector<std::pair<SmallVector<unsigned>, SmallVector<unsigned>>> g;
    unsigned i = 0, j = 0;
    while (i < fi.size() && j < ti.size() && !dyn(from[fi[i]]) &&
           !dyn(to[ti[j]])) {
      unsigned i0 = i, j0 = j;
      int64_t ps = from[fi[i++]], pt = to[ti[j++]];
      while (ps != pt) {
        if (ps < pt && i < fi.size() && !dyn(from[fi[i]]))
          ps *= from[fi[i++]];
        else if (pt < ps && j < ti.size() && !dyn(to[ti[j]]))
          pt *= to[ti[j++]];
        else
          break;
      }
      if (ps != pt) {
        i = i0, j = j0; // These join the outermost group.
        break;
      }
      auto &group = g.emplace_back();
      group.first.append(fi.begin() + i0, fi.begin() + i);
      group.second.append(ti.begin() + j0, ti.begin() + j);
    }
    if (i == fi.size() || j == ti.size())
      return std::nullopt;
    auto &rest = g.emplace_back();
    rest.first.append(fi.begin() + i, fi.end());
    rest.second.append(ti.begin() + j, ti.end());
    if (llvm::none_of(rest.second, [&](unsigned r) { return dyn(to[r]); }))
      return std::nullopt;
    // In dimension order: groups outermost first, dimensions ascending.
    if (!fortran)
      std::reverse(g.begin(), g.end());
    for (auto &[a, b] : g) {
      llvm::sort(a);
      llvm::sort(b);
    }
    return g;
  }

  LogicalResult matchAndRewrite(ReshapeOp op,
                                PatternRewriter &rewriter) const override {
    auto sourceType = cast<ArrayType>(op.getSource().getType());
    auto resultType = cast<ArrayType>(op.getResult().getType());
    bool fortran = op.getOrder() == "F";
    if (llvm::is_contained(sourceType.getShape(), 0) ||
        llvm::is_contained(resultType.getShape(), 0))
      return rewriter.notifyMatchFailure(op, "empty sizes");
    auto groups = sourceType.hasStaticShape() && resultType.hasStaticShape()
                      ? groupsOf(sourceType.getShape(), resultType.getShape())
                      : groupsFromInside(sourceType.getShape(),
                                         resultType.getShape(), fortran);
    if (!groups)
      return rewriter.notifyMatchFailure(op, "no grouping");
    bool splits = llvm::any_of(*groups, [](auto &g) {
      return g.second.size() > 1;
    });
    // The collapses, right to left (the dimensions left of a group keep
    // their numbers), each merging levels.
    SmallVector<std::pair<SmallVector<int64_t>, ArrayType>> collapses;
    ArrayType current = sourceType;
    for (auto &g : llvm::reverse(*groups)) {
      if (g.first.size() < 2)
        continue;
      SmallVector<int64_t> dims(g.first.begin(), g.first.end());
      ArrayType next = getCollapsedStorageType(current, dims, fortran);
      if (!next)
        return rewriter.notifyMatchFailure(op, "levels not mergeable");
      collapses.push_back({dims, next});
      current = next;
    }
    if (!splits) {
      if (collapses.empty())
        return failure(); // Same shape: left for the runtime (a copy).
      collapses.back().second = resultType;
    }
    FailureOr<SplitPlan> plan;
    if (splits) {
      SmallVector<SmallVector<unsigned>> byDim;
      for (auto &g : *groups)
        byDim.push_back(g.second);
      plan = planSplit(resultType, byDim, fortran);
      if (failed(plan))
        return rewriter.notifyMatchFailure(op, "no iterable split");
    }
    Value v = op.getSource();
    StringAttr order = op.getOrderAttr();
    for (auto &[dims, type] : collapses)
      v = CollapseOp::create(rewriter, op.getLoc(), type, v,
                             rewriter.getDenseI64ArrayAttr(dims), order,
                             /*plan=*/nullptr);
    if (!splits) {
      rewriter.replaceOp(op, v);
      return success();
    }
    // Alone, a reshape that splits one dimension (of the collapsed array)
    // is that split, which may keep every entry at its position
    // (SplitLevels.cpp) instead of a kernel searching the rows' runs.
    auto isSplit = [](auto &g) { return g.second.size() > 1; };
    if (!hasFusionNeighbour(op) && llvm::count_if(*groups, isSplit) == 1) {
      auto g = llvm::find_if(*groups, isSplit);
      SmallVector<int64_t> sizes =
          llvm::map_to_vector(g->second, [&](unsigned r) -> int64_t {
            int64_t n = resultType.getShape()[r];
            return ShapedType::isDynamic(n) ? -1 : n; // Inferred.
          });
      auto split =
          SplitOp::create(rewriter, op.getLoc(), resultType, v,
                          g - groups->begin(), sizes, order, /*plan=*/nullptr);
      if (getSplitStoredLevel(split)) {
        rewriter.replaceOp(op, split.getResult());
        return success();
      }
      rewriter.eraseOp(split);
    }
    replaceBySplitView(rewriter, op, v, resultType, *plan);
    return success();
  }
};

/// concat %a, %b dim d: each input read through a padded window of d at
/// its offset, the part a coordinate lies in picked by select_range (seed
/// 001 §5.1: a ⊔ b, then |a| + b).
struct ConcatToKernel : public OpRewritePattern<ConcatOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(ConcatOp concat,
                                PatternRewriter &rewriter) const override {
    // Otherwise moved ranges or the runtime (sparse-array-lower-shape,
    // sparse-array-lower-storage), unfused.
    if (!hasStaticOffsets(concat))
      return rewriter.notifyMatchFailure(
          concat, "a size along the axis known only at run time");
    auto resultType = cast<ArrayType>(concat.getResult().getType());
    // A part whose fill is not the result's is a value at every point of
    // its range (seed 001 §5.1 with fills: the other part is a dense region
    // only where its fill differs). The kernel reads it through its window
    // with a range marker (a dense array present at exactly the part's
    // range, whose values are never read: select_range's `ranges`), so that
    // it is iterated over its range alone, stored, computed or a shape op
    // of either, and fuses: no refilled temporary (which would store every
    // point of that range anyway). Dense parts are read in their window as
    // they are; a dense result computes every point anyway. When no part
    // brings the result's fill, the select's is no part's and the kernel's
    // space the universe: every point is a value of some part then.
    SmallVector<bool> marked(concat.getInputs().size(), false);
    if (!resultType.isAllDense()) {
      TypedAttr fill = resultType.getFillValue();
      for (auto [p, part] : llvm::enumerate(concat.getInputs())) {
        auto type = cast<ArrayType>(part.getType());
        marked[p] =
            !type.isAllDense() && !isSameScalar(type.getFillValue(), fill);
      }
    }
    if (!llvm::is_contained(marked, true) && !hasFusionNeighbour(concat) &&
        (getMovedRangeLevel(concat) || isConcatIntoRows(concat) ||
         isConcatIntoCoo(concat)))
      return rewriter.notifyMatchFailure(concat, "moves stored ranges");
    unsigned rank = resultType.getRank();
    unsigned dim = concat.getDim();
    int64_t total = resultType.getShape()[dim];
    Location loc = concat.getLoc();
    // The marked parts' markers: true at each coordinate of the part's
    // extent along `dim`, read at that coordinate only.
    SmallVector<Value> inputs(concat.getInputs());
    SmallVector<int64_t> ranged;
    for (auto [p, part] : llvm::enumerate(concat.getInputs())) {
      if (!marked[p])
        continue;
      int64_t n = cast<ArrayType>(part.getType()).getShape()[dim];
      Type i1 = rewriter.getI1Type();
      auto markerType = ArrayType::get(
          {n}, i1, FormatAttr::getDefault(rewriter.getContext(), 1, i1));
      inputs.push_back(ConstantOp::create(
          rewriter, loc, markerType,
          DenseElementsAttr::get(RankedTensorType::get({n}, i1), true)));
      ranged.push_back(p);
    }
    auto kernel = KernelOp::create(rewriter, loc, resultType, inputs, rank);
    OpBuilder::InsertionGuard guard(rewriter);
    rewriter.setInsertionPointToStart(&kernel.getBody().front());
    SmallVector<Value> parts, ranges;
    SmallVector<int64_t> bounds;
    int64_t offset = 0;
    for (auto [k, input] : llvm::enumerate(concat.getInputs())) {
      auto type = cast<ArrayType>(input.getType());
      if (marked[k]) {
        unsigned m = concat.getInputs().size() + ranges.size();
        auto access = AccessOp::create(
            rewriter, loc, kernel.getInputArg(m),
            ValueRange{kernel.getIndex(dim)},
            rewriter.getDenseI64ArrayAttr({-offset, total - offset, 1}));
        access.setPadded(true);
        ranges.push_back(access);
      }
      SmallVector<Value> indices;
      SmallVector<int64_t> triples;
      for (unsigned d = 0; d < rank; ++d) {
        indices.push_back(kernel.getIndex(d));
        if (d == dim)
          triples.append({-offset, total - offset, 1});
        else
          triples.append({0, -1, 0});
      }
      auto access =
          AccessOp::create(rewriter, loc, kernel.getInputArg(k), indices,
                           rewriter.getDenseI64ArrayAttr(triples));
      access.setPadded(true);
      parts.push_back(access);
      offset += type.getShape()[dim];
      if (k + 1 < concat.getInputs().size())
        bounds.push_back(offset);
    }
    Value value = parts.front();
    if (parts.size() > 1)
      value = SelectRangeOp::create(
          rewriter, loc, resultType.getElementType(), kernel.getIndex(dim),
          rewriter.getDenseI64ArrayAttr(bounds), parts,
          ranged.empty() ? DenseI64ArrayAttr()
                         : rewriter.getDenseI64ArrayAttr(ranged),
          ranges);
    YieldOp::create(rewriter, loc, value);
    rewriter.replaceOp(concat, kernel.getResult());
    return success();
  }
};

/// concat along a dimension of run-time sizes (not fused: its windows need
/// the parts' offsets when compiling) whose parts' stored ranges do not
/// move as they are (another fill, levels, order or widths: the runtime
/// would add every part's entries, and every point of a part with another
/// fill, and pack them all). Where parts stored like the result would
/// move, each part stored otherwise becomes a kernel storing it with the
/// result's levels and fill (a declared fill other than the part's makes
/// the kernel's space the part's whole extent, seed 000 §4.3): the parts
/// stored alike move untouched, and only the others are computed once. The
/// kernel fuses with a computed part and is freed after the
/// concatenation.
struct StoreDynamicConcatParts : public OpRewritePattern<ConcatOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(ConcatOp concat,
                                PatternRewriter &rewriter) const override {
    if (hasStaticOffsets(concat))
      return rewriter.notifyMatchFailure(concat, "fused by ConcatToKernel");
    if (getMovedRangeLevel(concat) || isConcatIntoRows(concat) ||
        isConcatIntoCoo(concat))
      return rewriter.notifyMatchFailure(concat, "moves stored ranges");
    auto resultType = cast<ArrayType>(concat.getResult().getType());
    if (!getConcatRangeLevel(resultType.getFormat(), concat.getDim()))
      return rewriter.notifyMatchFailure(
          concat, "the result's storage moves no ranges");
    SmallVector<Value> inputs;
    bool changed = false;
    for (Value part : concat.getInputs()) {
      auto type = cast<ArrayType>(part.getType());
      if (isStoredAlike(type, resultType)) {
        inputs.push_back(part);
        continue;
      }
      changed = true;
      auto storedType = ArrayType::get(
          type.getShape(), resultType.getElementType(), resultType.getFormat());
      KernelOp kernel = buildView(rewriter, concat.getLoc(), part, storedType,
                                  [](KernelOp kernel, unsigned dim) -> Value {
                                    return kernel.getIndex(dim);
                                  });
      inputs.push_back(kernel.getResult());
    }
    // Every part stored alike would have moved (above); reporting a change
    // that was not made would loop the rewrite driver.
    if (!changed)
      return rewriter.notifyMatchFailure(concat, "every part stored alike");
    rewriter.modifyOpInPlace(concat,
                             [&] { concat.getInputsMutable().assign(inputs); });
    return success();
  }
};

/// collapse %a [d0, ..., dk] whose one user becomes a kernel, or whose
/// source is computed (a kernel, map or reduce it alone uses): a kernel
/// reading the collapsed dimension's variable x through
/// sparse_array.delinearize (outer part first: d0 in C order, dk in F
/// order), which fusion composes into the consumer, whose loop over x then
/// iterates the product of the levels storing the parts (seed 001 §5.1
/// a × b, §8.5) without building the collapsed array. Alone (nothing to
/// fuse with), or with inner sizes known only at run time, the collapse is
/// left to sparse-array-lower-shape (merged levels) or the runtime.
struct CollapseToKernel : public OpRewritePattern<CollapseOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(CollapseOp op,
                                PatternRewriter &rewriter) const override {
    Value result = op.getResult();
    bool consumer = result.hasOneUse() &&
                    isa<KernelOp, MapOp, ReduceOp>(*result.getUsers().begin());
    // A computed source (the collapse is its one user) fuses too: the
    // producer's accesses then read the delinearized parts, and no
    // uncollapsed temporary is built (a reshape of a sum).
    Operation *def = op.getSource().getDefiningOp();
    bool producer = def && op.getSource().hasOneUse() &&
                    isa<KernelOp, MapOp, ReduceOp>(def);
    if (!consumer && !producer)
      return rewriter.notifyMatchFailure(op, "nothing to fuse with");
    // A kernel must read the collapsed dimension at a plain variable or a
    // fixed coordinate (a split of an array's collapse, a reshape, stays
    // merged levels). A split of a computed one reads the product in
    // windows (sparse-array-fuse composes the delinearize with the split's
    // linearize): no collapsed temporary either.
    if (auto consumer = result.hasOneUse()
                            ? dyn_cast<KernelOp>(*result.getUsers().begin())
                            : KernelOp()) {
      unsigned k = llvm::find(consumer.getInputs(), result) -
                   consumer.getInputs().begin();
      for (Operation *user : consumer.getInputArg(k).getUsers()) {
        auto access = dyn_cast<AccessOp>(user);
        unsigned at = op.getDims().front();
        if (!access || access.isSliced(at))
          return rewriter.notifyMatchFailure(op, "not read plainly");
        Value index = access.getIndices()[at];
        bool windows = producer && index.getDefiningOp<LinearizeOp>();
        if (!isa<BlockArgument>(index) && !getConstantIndex(index) && !windows)
          return rewriter.notifyMatchFailure(op, "not read plainly");
      }
    }
    auto sourceType = cast<ArrayType>(op.getSource().getType());
    auto resultType = cast<ArrayType>(result.getType());
    ArrayRef<int64_t> dims = op.getDims();
    // The parts, outer first, and the inner parts' sizes.
    SmallVector<int64_t> parts(dims.begin(), dims.end());
    if (op.getOrder() == "F")
      std::reverse(parts.begin(), parts.end());
    SmallVector<int64_t> sizes;
    for (int64_t d : ArrayRef(parts).drop_front()) {
      int64_t size = sourceType.getShape()[d];
      if (ShapedType::isDynamic(size) || size <= 0)
        return rewriter.notifyMatchFailure(op, "inner sizes not static");
      sizes.push_back(size);
    }
    unsigned first = dims.front(), count = dims.size();
    replaceByView(rewriter, op, op.getSource(), resultType,
                  [&](KernelOp kernel, unsigned dim) -> Value {
                    if (dim < first)
                      return kernel.getIndex(dim);
                    if (dim >= first + count)
                      return kernel.getIndex(dim - count + 1);
                    // One delinearize per kernel, created at the first part
                    // asked.
                    DelinearizeOp delin;
                    for (Operation &o : kernel.getBody().front())
                      if ((delin = dyn_cast<DelinearizeOp>(o)))
                        break;
                    if (!delin) {
                      SmallVector<Type> types(count, rewriter.getIndexType());
                      delin = DelinearizeOp::create(
                          rewriter, op.getLoc(), types, kernel.getIndex(first),
                          rewriter.getDenseI64ArrayAttr(sizes));
                    }
                    return delin.getResult(llvm::find(parts, int64_t(dim)) -
                                           parts.begin());
                  });
    return success();
  }
};

} // namespace

void mlir::sparse_array::populateShapeToKernelPatterns(
    RewritePatternSet &patterns) {
  patterns.add<SliceToKernel, TransposeToKernel, ExpandDimsToKernel,
               SqueezeToKernel, ConcatToKernel, StoreDynamicConcatParts,
               SplitToKernel, ReshapeToKernel, CollapseToKernel>(
      patterns.getContext());
}
