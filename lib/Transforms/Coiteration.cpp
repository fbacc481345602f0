//===- Coiteration.cpp - Loop order and lattices of kernels ---------------===//

#include "SparseArray/Transforms/Coiteration.h"
#include "SparseArray/Algebra/Lattice.h"
#include "SparseArray/Algebra/SequenceExpr.h"
#include "SparseArray/Analysis/AlgebraDerivation.h"
#include "SparseArray/Analysis/Evaluator.h"
#include "SparseArray/Analysis/Speculation.h"

#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/SetVector.h"

using namespace mlir;
using namespace mlir::sparse_array;

SmallVector<int> mlir::sparse_array::getLoopOfIndex(KernelOp kernel) {
  FormatAttr format = kernel.getResultType().getFormat();
  unsigned rank = kernel.getResultType().getRank();
  SmallVector<int> loopOf(kernel.getNumIndices(), -1);
  for (unsigned d = 0; d < rank; ++d)
    loopOf[format.getLevelDim(d)] = d;
  // Reduction variables (not lowered yet) come after the result's.
  for (unsigned v = rank; v < loopOf.size(); ++v)
    loopOf[v] = v;
  return loopOf;
}

std::optional<std::pair<unsigned, unsigned>>
mlir::sparse_array::matchRowWiseShape(KernelOp kernel, ReduceOverOp reduce) {
  ArrayType result = kernel.getResultType();
  // Stored by "rows" of its first level: a full level over a compressed
  // one, in either dimension order (CSR, or CSC, whose rows are columns).
  // The product runs over levels, not dimensions: C = A · B with all three
  // CSC is the same loop nest over columns (C(:, j) = Σ_k A(:, k) B(k, j)).
  auto isCsr = [](ArrayType t) {
    FormatAttr f = t.getFormat();
    return t.getRank() == 2 && f.getNumLevels() == 2 &&
           f.isRowsOfSegments() && f.getLevels()[1].unique;
  };
  // The index an access uses at a level of its array.
  auto at = [](AccessOp access, ArrayType t, unsigned level) {
    return access.getIndices()[t.getFormat().getLevelDim(level)];
  };
  // A sparse vector: one compressed level (positions [0, nnz]), the
  // one-row case (vector x matrix: BFS push, a frontier scattering its
  // out-edges).
  auto isSparseVector = [](ArrayType t) {
    FormatAttr f = t.getFormat();
    return t.getRank() == 1 && f.getNumLevels() == 1 &&
           f.getLevels()[0].isSegmented() && f.getLevels()[0].unique;
  };
  bool vec = result.getRank() == 1;
  unsigned reduced = vec ? 1 : 2;
  if (kernel.getNumIndices() != reduced + 1 ||
      !(vec ? isSparseVector(result) : isCsr(result)) ||
      reduce.getIndices().size() != 1 ||
      reduce.getIndices()[0] != kernel.getIndex(reduced))
    return std::nullopt;
  // The result is the reduction, or a function of it and one mask M(i, j)
  // that is the fill wherever the product is (checked below on the
  // kernel's algebra).
  Value yielded = kernel.getYield().getValue();
  std::optional<unsigned> mask;
  if (yielded != reduce.getResult()) {
    auto apply = yielded.getDefiningOp<ApplyOp>();
    if (!apply || apply.getArgs().size() != 2)
      return std::nullopt;
    Value other;
    if (apply.getArgs()[1] == reduce.getResult())
      other = apply.getArgs()[0];
    else if (apply.getArgs()[0] == reduce.getResult())
      other = apply.getArgs()[1];
    auto maskAccess = other ? other.getDefiningOp<AccessOp>() : AccessOp();
    if (!maskAccess)
      return std::nullopt;
    mask = cast<BlockArgument>(maskAccess.getArray()).getArgNumber() -
           kernel.getNumIndices();
  }
  // The result's levels: rows i (its first level), then j; the vector's
  // only level j. Rows of P and of the mask: (i, ·) for matrices, the
  // vector itself.
  FormatAttr rf = result.getFormat();
  Value j = kernel.getIndex(vec ? 0 : rf.getLevelDim(1));
  Value k = kernel.getIndex(reduced);
  Value i = vec ? Value() : kernel.getIndex(rf.getLevelDim(0));
  auto rowAccess = [&](AccessOp access, ArrayType type, Value col) {
    if (vec)
      return isSparseVector(type) && access.getIndices()[0] == col;
    return isCsr(type) && at(access, type, 0) == i &&
           at(access, type, 1) == col;
  };
  std::optional<unsigned> p, q;
  for (unsigned in = 0; in < kernel.getInputs().size(); ++in) {
    AccessOp access = kernel.getAccessOf(in);
    if (!access)
      continue;
    auto type = cast<ArrayType>(kernel.getInputs()[in].getType());
    if (!access.getSlices().empty())
      return std::nullopt;
    if (mask && in == *mask) {
      if (!rowAccess(access, type, j))
        return std::nullopt;
      continue;
    }
    if (rowAccess(access, type, k) && !p)
      p = in;
    else if (isCsr(type) && at(access, type, 0) == k &&
             at(access, type, 1) == j && !q)
      q = in;
    else
      return std::nullopt;
  }
  if (!p || !q)
    return std::nullopt;
  return std::make_pair(*p, *q);
}

std::optional<std::pair<unsigned, unsigned>>
mlir::sparse_array::matchRowWiseProduct(KernelOp kernel, ReduceOverOp reduce,
                                        const IterationAlgebra &valueAlgebra,
                                        ReductionStrategy strategy) {
  if (strategy != ReductionStrategy::Identity || reduce.getStart())
    return std::nullopt;
  std::optional<std::pair<unsigned, unsigned>> factors =
      matchRowWiseShape(kernel, reduce);
  if (!factors)
    return std::nullopt;
  std::optional<unsigned> p = factors->first, q = factors->second;
  // The product's algebra: exactly P ∩ Q.
  IterationAlgebra a = valueAlgebra.normalize();
  if (a.getKind() != IterationAlgebra::Kind::Intersection ||
      a.getChildren().size() != 2 || !a.getChildren()[0].isLeaf() ||
      !a.getChildren()[1].isLeaf())
    return std::nullopt;
  SmallVector<unsigned> leaves = {a.getChildren()[0].getLeaf(),
                                  a.getChildren()[1].getLeaf()};
  if (!llvm::is_contained(leaves, *p) || !llvm::is_contained(leaves, *q))
    return std::nullopt;
  // Where no product is stored the result must be the result's fill: the
  // kernel's algebra without P (or without Q) is empty. With or without a
  // mask: a declared result fill other than the empty reduction's value
  // makes the derived algebra the universe (every point stored), which a
  // scatter of the stored products cannot produce.
  if (!kernel.getAlgebra())
    return std::nullopt;
  IterationAlgebra whole = kernel.getAlgebra()->getAlgebra();
  if (!removeOperand(whole, *p).normalize().isEmpty() ||
      !removeOperand(whole, *q).normalize().isEmpty())
    return std::nullopt;
  return std::make_pair(*p, *q);
}

/// Whether a collapsed read's parts are stored other than as adjacent
/// levels in part order (outer first).
static bool misorderedParts(AccessOp access, FormatAttr format) {
  DelinearizeOp seen;
  unsigned expected = 0;
  for (unsigned l = 0; l < format.getNumLevels(); ++l) {
    Value index = access.getIndices()[format.getLevelDim(l)];
    auto delin = index.getDefiningOp<DelinearizeOp>();
    unsigned part = delin ? cast<OpResult>(index).getResultNumber() : 0;
    if (seen && expected < seen.getResults().size() &&
        (delin != seen || part != expected))
      return true;
    if (delin && delin != seen) {
      if (part != 0)
        return true;
      seen = delin;
      expected = 0;
    }
    if (delin)
      ++expected;
  }
  return false;
}

/// Whether locating input k's level bound to loop d — a level with random
/// access but not full: seed 002's hashed level, which stores no order —
/// makes the loop visit every coordinate where iterating the level would
/// not (seed 000 §6: the loop's space, the inputs it locates taken as
/// stored everywhere, needs U because k is one of them: H alone, H * D,
/// H + S). Such a level is iterated, in order, from an ordered copy:
/// located, a 32k x 32k hashed SpMV visited 10^9 points (2.2 s; as CSR,
/// under a millisecond).
static bool locatingVisitsAll(KernelOp kernel, unsigned k, int d,
                              ArrayRef<int> loopOf) {
  unsigned rank = kernel.getResultType().getRank();
  IterationAlgebra space = kernel.getAlgebra()->getAlgebra();
  if (d >= static_cast<int>(rank)) {
    ReduceOverOp reduce;
    kernel.getBody().walk([&](ReduceOverOp r) { reduce = r; });
    ReductionPlanAttr plan = reduce ? reduce.getPlanAttr() : nullptr;
    if (!plan || !plan.getAlgebra())
      return false;
    space = plan.getAlgebra().getAlgebra();
  }
  space = space.normalize();
  // The inputs the loop iterates: a level bound to it that stores
  // coordinates without random access. The others it locates (or reads
  // at no level): stored everywhere as far as the loop is concerned.
  auto iterated = [&](unsigned o) {
    AccessOp access = kernel.getAccessOf(o);
    if (!access)
      return false;
    FormatAttr format = cast<ArrayType>(kernel.getInputs()[o].getType())
                            .getFormat();
    for (const AccessedLevel &al : getAccessedLevels(access)) {
      auto arg = dyn_cast<BlockArgument>(al.index);
      const LevelSpec &spec = format.getLevels()[al.level];
      if (arg && loopOf[arg.getArgNumber()] == d && !spec.isFull() &&
          !spec.canLocate())
        return true;
    }
    return false;
  };
  for (unsigned o : space.getLeaves())
    if (o != k && !iterated(o))
      space = eliminateOperand(space, o);
  SmallVector<bool> nothingStored(kernel.getInputs().size(), false);
  return !space.normalize().contains(nothingStored) &&
         eliminateOperand(space, k).normalize().contains(nothingStored);
}

unsigned mlir::sparse_array::convertMisorderedInputs(KernelOp kernel) {
  SmallVector<int> loopOf = getLoopOfIndex(kernel);
  OpBuilder before(kernel);
  SmallVector<Value> temporaries;
  for (unsigned k = 0; k < kernel.getInputs().size(); ++k) {
    auto type = cast<ArrayType>(kernel.getInputs()[k].getType());
    AccessOp access = kernel.getAccessOf(k);
    if (!access || type.isAllDense())
      continue;
    FormatAttr format = type.getFormat();
    // A linearized dimension's level sorts by its first part's loop.
    // A collapsed read of a split read iterates at its last variable's.
    auto keyOf = [&](unsigned dim) {
      Value index = access.getIndices()[dim];
      SmallVector<BlockArgument> vars = getIndexVariables(index);
      if (vars.empty())
        return -1;
      return loopOf[(index.getDefiningOp<DelinearizeOp>() ? vars.back()
                                                          : vars.front())
                        .getArgNumber()];
    };
    // The loop emitter iterates a level once the levels above it are
    // positioned, at its loop; a level it can locate (a full one, read
    // plainly: e.g. a block's rows below the block columns) it locates as
    // soon as its loop's coordinate is known too, even from a loop outside
    // its parent's. So only the iterated levels must follow the loops:
    // each after every loop a level above it is bound to.
    SmallVector<unsigned> dims;
    bool followsLoops = true;
    int above = -1;
    for (unsigned l = 0; l < format.getNumLevels(); ++l) {
      dims.push_back(format.getLevelDim(l));
      int key = keyOf(dims.back());
      if (key < 0)
        continue;
      bool located = format.getLevels()[l].canLocate() &&
                     isa<BlockArgument>(access.getIndices()[dims.back()]) &&
                     !access.isSliced(dims.back());
      if (!located && key < above)
        followsLoops = false;
      above = std::max(above, key);
    }
    // Coiteration merges coordinates in increasing order, so a level bound
    // to a loop must be ordered: a `nonordered` one is sorted by a
    // conversion too (its entries after an out-of-order one would be
    // skipped, and a sparse result would come out unordered). Levels read
    // at constant coordinates are searched by a scan and may stay as they
    // are.
    // (A level that can locate is located, never merged — its order does
    // not matter, seed 002's hashed level — unless locating it would visit
    // every coordinate: locatingVisitsAll.)
    bool unorderedBound = false;
    for (unsigned l = 0; l < format.getNumLevels(); ++l) {
      const LevelSpec &spec = format.getLevels()[l];
      int key = keyOf(dims[l]);
      unorderedBound |=
          !spec.ordered && key >= 0 &&
          (!spec.canLocate() ||
           (!spec.isFull() && locatingVisitsAll(kernel, k, key, loopOf)));
    }
    // Constant coordinates may sit at any level (located or searched where
    // they are); only the levels bound to loops must follow the loops.
    if (followsLoops && !unorderedBound && !misorderedParts(access, format))
      continue;
    SmallVector<LevelSpec> levels(format.getLevels());
    if (unorderedBound)
      for (LevelSpec &level : levels)
        level = level.orderedForm();
    SmallVector<unsigned> sorted(dims);
    // Ties (constant coordinates) keep their level order; the parts of a
    // collapsed read (one loop) go outer first.
    auto levelOf = [&](unsigned dim) {
      return llvm::find(dims, dim) - dims.begin();
    };
    auto partOf = [&](unsigned dim) -> unsigned {
      Value index = access.getIndices()[dim];
      return index.getDefiningOp<DelinearizeOp>()
                 ? cast<OpResult>(index).getResultNumber()
                 : 0;
    };
    llvm::sort(sorted, [&](unsigned a, unsigned c) {
      return std::make_tuple(keyOf(a), partOf(a), levelOf(a)) <
             std::make_tuple(keyOf(c), partOf(c), levelOf(c));
    });
    if (sorted == dims && !unorderedBound)
      continue;
    // A level that comes to store a dimension a loop iterates must be
    // ordered too (a nonordered level read at a constant may move there:
    // constants sort first).
    for (unsigned l = 0; l < levels.size(); ++l)
      if (keyOf(sorted[l]) >= 0)
        levels[l] = levels[l].orderedForm();
    // A level moved to another dimension or below another parent stays in
    // its format only where that format allows the place (ELL and DIA
    // below a full level; structured[n, m] at extent m); elsewhere it is
    // stored compressed, ordered (what every place allows).
    for (unsigned l = 0; l < levels.size(); ++l) {
      const LevelFormat *f = levels[l].format;
      std::optional<LevelSpec> parent;
      if (l > 0)
        parent = levels[l - 1];
      int64_t size = type.getShape()[sorted[l]];
      std::optional<uint64_t> extent;
      if (!format.isBlocked() && !ShapedType::isDynamic(size))
        extent = size;
      // (An extent known only at run time is not known to fit.)
      if (f->checkParent(parent) ||
          (f->getNumParams() &&
           (!extent || f->checkExtent(levels[l], extent)))) {
        levels[l] = levels[l].withFormat(LevelFormatRegistry::compressed());
        levels[l].ordered = true;
      }
    }
    bool identity = llvm::all_of(llvm::enumerate(sorted),
                                 [](auto e) { return e.index() == e.value(); });
    auto newFormat = FormatAttr::get(
        kernel.getContext(), levels,
        identity ? ArrayRef<unsigned>() : ArrayRef<unsigned>(sorted),
        format.getPosWidth(), format.getCrdWidth(), format.getFill());
    auto newType =
        ArrayType::get(type.getShape(), type.getElementType(), newFormat);
    Value converted = ConvertOp::create(before, kernel.getLoc(), newType,
                                        kernel.getInputs()[k]);
    kernel->setOperand(k, converted);
    kernel.getInputArg(k).setType(newType);
    temporaries.push_back(converted);
  }
  // The copies die with the kernel: its lowering reads them, nothing else.
  OpBuilder after(kernel->getContext());
  after.setInsertionPointAfter(kernel);
  for (Value t : llvm::reverse(temporaries))
    DeallocOp::create(after, kernel.getLoc(), t);
  return temporaries.size();
}

namespace {
/// The levels of one input: at which loop each is bound (-1: a constant
/// coordinate) and whether it is full (located, never coiterated).
struct InputLevels {
  bool used = false;
  SmallVector<int> loop;
  SmallVector<bool> full;
  /// The access's slice of each level (lo, hi, step), if any.
  SmallVector<std::optional<std::array<int64_t, 3>>> slice;
  /// The bound of a padded window over a slice, if any (AccessOp::bounds).
  SmallVector<std::optional<std::array<int64_t, 2>>> bound;
  /// Whether the level stores a part of a collapsed read (delinearize),
  /// and whether that read is in windows of a split (AccessedLevel::window).
  SmallVector<bool> collapsed, windowed;
  /// Whether the level stores each coordinate once per parent.
  SmallVector<bool> unique;
  /// Whether the level is full but iterated in its window (isPlainWindow).
  SmallVector<bool> window;
};
} // namespace

/// Whether `al` is read through a padded window with step 1 and no bound
/// that reaches past the level's extent (ShapeToKernels' concatenation
/// parts): the coordinates outside are absent, so the level's range is a
/// part of the loop's.
static bool isPlainWindow(AccessOp access, const AccessedLevel &al) {
  if (!access.getPadded() || al.isSplit() || al.isCollapsed() ||
      !access.isSliced(al.dim) || access.getBound(al.dim))
    return false;
  auto [lo, hi, step] = access.getSlice(al.dim);
  int64_t size = access.getArrayType().getShape()[al.dim];
  return step == 1 && !ShapedType::isDynamic(size) && (lo < 0 || hi > size);
}

/// Whether the root's cases are every non-empty subset of its inputs, each
/// computed: evaluating the function once in general form at every
/// coordinate of the root's loop then does exactly the cases' work, with
/// no case branch (the LatticeAttr's `branchless`). With `rootMayOmit` the
/// root itself (where every input is stored: the rarest case of sparse
/// inputs) may be an omitter, evaluated and dropped there (for functions
/// cheap to evaluate needlessly).
static bool coversEverySubset(const Lattice &lattice, bool rootMayOmit) {
  ArrayRef<LatticePoint> points = lattice.getPoints();
  if (points.empty() || points.front().universe)
    return false;
  unsigned n = points.front().size();
  return n >= 2 && n < 16 && points.size() == (size_t(1) << n) - 1 &&
         llvm::all_of(points, [&](const LatticePoint &p) {
           return (p.producer || (rootMayOmit && &p == &points.front())) &&
                  !p.universe;
         });
}

FailureOr<ArrayAttr>
mlir::sparse_array::buildKernelLattices(KernelOp kernel,
                                        unsigned linearThreshold,
                                        bool branchlessMerge,
                                        ReductionWorkspace workspace) {
  if (!kernel.getAlgebra())
    return kernel.emitError("kernel has no derived iteration algebra; run "
                            "--sparse-array-derive-algebra first");
  unsigned numInputs = kernel.getInputs().size();
  if (numInputs >= kMaxLatticeOperands)
    return kernel.emitError("kernel has too many inputs");
  IterationAlgebra algebra = kernel.getAlgebra()->getAlgebra();
  unsigned numLoops = kernel.getNumIndices();
  unsigned rank = kernel.getResultType().getRank();
  SmallVector<int> loopOf = getLoopOfIndex(kernel);

  // Reductions: the loops after the result's iterate what the reduction's
  // plan says (seed 000 §7.2). One reduce_over per kernel for now.
  IterationAlgebra reductionAlgebra = IterationAlgebra::universe();
  // Reductions that fold every visited point alike (identity: points
  // outside the space contribute the identity; idempotent: the fill again)
  // may visit more points than their space; reassociate counts the points
  // it skips and universe visits all, so they keep their lattices.
  bool reductionVisitsAnyPoint = true;
  if (numLoops > rank) {
    SmallVector<ReduceOverOp> reductions;
    kernel.getBody().walk([&](ReduceOverOp r) { reductions.push_back(r); });
    if (reductions.size() != 1)
      return kernel.emitError("cannot lower a kernel with ")
             << reductions.size()
             << " sparse_array.reduce_over ops yet (one is supported)";
    ReduceOverOp reduce = reductions.front();
    SymbolTableCollection symbols;
    Evaluator evaluator;
    AlgebraDerivation derivation(symbols, evaluator);
    ReductionPlan plan = derivation.planReduction(kernel, reduce);
    reductionAlgebra = plan.algebra.normalize();
    reductionVisitsAnyPoint =
        plan.strategy == ReductionStrategy::Identity ||
        plan.strategy == ReductionStrategy::Idempotent;
    std::optional<std::pair<unsigned, unsigned>> factors =
        matchRowWiseProduct(kernel, reduce, reductionAlgebra, plan.strategy);
    bool scatter = factors.has_value();
    if (scatter)
      plan.workspace = workspace;
    reduce.setPlanAttr(plan.toAttr(kernel->getContext()));
    if (scatter)
      reduce.setScatter(
          ArrayRef<int32_t>{int32_t(factors->first), int32_t(factors->second)});
    else
      reduce.removeScatterAttr();
    // A scatter reduction accumulates many results at once: no early exit.
    reduce.setEarlyExit(plan.annihilator != nullptr && !scatter);
  }

  SmallVector<InputLevels, 4> inputs(numInputs);
  uint64_t used = 0;
  for (unsigned k = 0; k < numInputs; ++k) {
    AccessOp access = kernel.getAccessOf(k);
    if (!access)
      continue;
    InputLevels &in = inputs[k];
    in.used = true;
    used |= uint64_t(1) << k;
    FormatAttr format =
        cast<ArrayType>(kernel.getInputs()[k].getType()).getFormat();
    // Levels as the loops see them: a linearized level once per part.
    for (const AccessedLevel &al : getAccessedLevels(access)) {
      auto arg = dyn_cast<BlockArgument>(al.index);
      in.loop.push_back(arg ? loopOf[arg.getArgNumber()] : -1);
      // A dense level read through a plain padded window (a part of a
      // concatenation) is iterated, not located: its coordinates are its
      // window's range, not the loop's whole extent (seed 001 §5.1: the
      // part's range; the loop skips the other parts' ranges where they
      // are sparse).
      // A level that can locate but is not full (hashed) is located too:
      // the loop visits what the other inputs (or the whole dimension)
      // give, and the locate tells whether the level stores each point
      // (seed 002 §4: locate where a level need not be iterated).
      const LevelSpec &spec = format.getLevels()[al.level];
      in.full.push_back(spec.isFull() ? !isPlainWindow(access, al)
                                      : spec.canLocate());
      in.window.push_back(!in.full.back() &&
                          format.getLevels()[al.level].isFull());
      in.unique.push_back(format.getLevels()[al.level].unique);
      in.collapsed.push_back(al.isCollapsed());
      in.windowed.push_back(al.isCollapsed() && al.window);
      in.slice.push_back(!al.isSplit() && access.isSliced(al.dim)
                             ? std::optional(access.getSlice(al.dim))
                             : std::nullopt);
      in.bound.push_back(access.getBound(al.dim));
    }
    // A window is iterated only where the loops follow the storage order
    // down to it (the levels above it bound to outer loops, in order);
    // elsewhere the level is located, as every full level is.
    for (unsigned l = 0; l < in.window.size(); ++l) {
      bool ordered = in.loop[l] >= 0;
      for (unsigned j = 0; j < l && ordered; ++j)
        ordered = in.loop[j] >= 0 && in.loop[j] < in.loop[l] &&
                  (j == 0 || in.loop[j - 1] < in.loop[j]);
      if (in.window[l] && !ordered) {
        in.full[l] = true;
        in.window[l] = false;
      }
    }
  }
  // And only where knowing the window's range saves work: another input
  // stores sparse coordinates at that loop (the window's part is iterated
  // alone, not the whole loop), or the input is dense (a full level) or
  // broadcast (no level) at a loop below, where being present would make
  // that loop dense across the other parts' ranges too. Two CSR parts'
  // row windows (SpMV over a vstack) cover the rows between them: located,
  // the rows loop stays one plain loop (coiterated, it was 1.6x slower).
  for (unsigned k = 0; k < numInputs; ++k) {
    InputLevels &in = inputs[k];
    for (unsigned l = 0; l < in.window.size(); ++l) {
      if (!in.window[l])
        continue;
      int d = in.loop[l];
      bool sparseBeside = false;
      for (unsigned o = 0; o < numInputs && !sparseBeside; ++o)
        for (unsigned j = 0; o != k && j < inputs[o].loop.size(); ++j)
          sparseBeside |= inputs[o].loop[j] == d && !inputs[o].full[j] &&
                          !inputs[o].window[j];
      bool denseBelow = llvm::any_of(ArrayRef(in.full).drop_front(l + 1),
                                     [](bool full) { return full; });
      bool broadcastBelow = false;
      for (int e = d + 1; e < int(numLoops) && !broadcastBelow; ++e)
        broadcastBelow = !llvm::is_contained(in.loop, e);
      if (!sparseBeside && !denseBelow && !broadcastBelow)
        in.full[l] = true;
    }
  }
  // The level of input k bound at loop d that must be iterated, or -1.
  auto coiteratedLevel = [&](unsigned k, unsigned d) -> int {
    for (unsigned l = 0; l < inputs[k].loop.size(); ++l)
      if (inputs[k].loop[l] == static_cast<int>(d) && !inputs[k].full[l])
        return l;
    return -1;
  };

  // What input k's level at loop d iterates as (seed 001 §5.2): the level,
  // or the slice of it its access reads.
  auto viewOf = [&](unsigned k, unsigned d) {
    SequenceExpr leaf = SequenceExpr::leaf(k);
    // A collapsed read binds several adjacent levels to the loop: their
    // product (seed 001 §5.1).
    unsigned bound = 0;
    bool windowed = false;
    for (unsigned l = 0; l < inputs[k].loop.size(); ++l)
      if (inputs[k].loop[l] == static_cast<int>(d) && inputs[k].collapsed[l]) {
        ++bound;
        windowed |= inputs[k].windowed[l];
      }
    if (bound > 1)
      return collapsedView(k, bound, windowed);
    int l = coiteratedLevel(k, d);
    if (l < 0 || !inputs[k].slice[l])
      return leaf;
    return slicedView(k, *inputs[k].slice[l], inputs[k].bound[l]);
  };
  MLIRContext *ctx = kernel.getContext();
  // The loop's sequence expression, recorded when some input is read
  // through a shape combinator (the lowering iterates each input's part).
  auto sequenceOf = [&](unsigned d, ArrayRef<unsigned> coiterated,
                        const IterationAlgebra &space,
                        bool linear) -> StringAttr {
    if (llvm::all_of(coiterated, [&](unsigned k) {
          return viewOf(k, d).is(SequenceExpr::Kind::Leaf);
        }))
      return StringAttr();
    SequenceExpr seq =
        linear ? SequenceExpr::unite(llvm::map_to_vector(
                     coiterated, [&](unsigned k) { return viewOf(k, d); }))
               : SequenceExpr::fromAlgebra(space, coiterated)
                     .mapLeaves([&](const SequenceExpr &leaf) {
                       return viewOf(leaf.getOperand(), d);
                     });
    return StringAttr::get(ctx, seq.str());
  };
  SmallVector<Attribute> result;
  // A linear loop evaluates the general body wherever some input is stored
  // (or everywhere): where a lattice takes a case region or skips an
  // omitter. Only functions that cannot trap may run there (a division by
  // an absent input's fill 0 that a case region avoids would trap).
  SymbolTableCollection symbolTables;
  bool speculatable = isSpeculatableKernel(kernel, symbolTables);
  bool cheap = speculatable && isCheapKernel(kernel, symbolTables);
  // Sets of present inputs reaching each loop, in discovery order, with the
  // number of copies of the loop the code will have for it (an outer loop
  // that descends per case emits the inner loop once per case).
  llvm::MapVector<uint64_t, uint64_t> reaching;
  reaching[used] = 1;
  auto saturatingMul = [](uint64_t a, uint64_t b) {
    uint64_t r;
    return __builtin_mul_overflow(a, b, &r) ? UINT64_MAX : r;
  };
  for (unsigned d = 0; d < numLoops; ++d) {
    llvm::MapVector<uint64_t, uint64_t> next;
    auto reach = [&](uint64_t present, uint64_t copies) {
      uint64_t &c = next[present];
      c = c + copies < c ? UINT64_MAX : c + copies;
    };
    for (auto [present, copies] : reaching) {
      SmallVector<unsigned> presentList, coiterated;
      IterationAlgebra space = d < rank ? algebra : reductionAlgebra;
      for (unsigned k = 0; k < numInputs; ++k) {
        if (!(present >> k & 1)) {
          space = removeOperand(space, k);
          continue;
        }
        presentList.push_back(k);
        if (coiteratedLevel(k, d) >= 0)
          coiterated.push_back(k);
      }
      space = space.normalize();
      for (unsigned k : space.getLeaves())
        if (!llvm::is_contained(coiterated, k))
          space = eliminateOperand(space, k);
      // Outer loops whose coiterated inputs have only stored-coordinate
      // levels left descend with every input (empty segments where one
      // does not match); others descend per case, dropping the coiterated
      // inputs the case does not contain.
      // (The last result loop descends per case into the reduction.)
      // An input whose last level is this loop's (a vector broadcast over
      // the inner loops) has no segment below to be empty: merged, the
      // inner loops would not know it absent and visit every point of a
      // union with it (x[:, None] * y[None, :] with the exact multiply:
      // n^2 points for nnz(x) n + n nnz(y)).
      bool storedBelow = llvm::all_of(coiterated, [&](unsigned k) {
        int l = coiteratedLevel(k, d);
        return l + 1 < static_cast<int>(inputs[k].full.size()) &&
               llvm::none_of(ArrayRef(inputs[k].full).drop_front(l),
                             [](bool full) { return full; });
      });
      bool merged = d + 1 != rank && storedBelow;
      // A lattice over n inputs has up to 2^n points and 3^n cases (a union
      // of n sparse vectors), and checking it is exact costs 4^n: past the
      // threshold, one loop over the union of the inputs' coordinates with
      // a presence bit per input (issue 14, class 6), or over every
      // coordinate when the space needs U. It descends with all inputs, an
      // unmatched one marked absent (nothing below it is read). A
      // reduction visiting only the union must fold points outside its
      // space harmlessly (identity, idempotent); one visiting every point
      // is the dense fold.
      // Below the threshold the lattice is built, and still replaced when
      // the loop's cases times its copies exceed kMaxLatticeCases: cases
      // multiply across loops that descend per case (4 inputs over two
      // loops were 15 s of compilation).
      SmallVector<bool> nothingStored(numInputs, false);
      bool needsUniverse = space.contains(nothingStored);
      // A body that may trap (or loop) where the dense program takes a
      // case is linear only past kMaxLatticeCases: its loop then picks each
      // function's case at run time from the inputs' presence bits
      // (emitBody), slower per point than a lattice's static cases but
      // code linear in the inputs instead of exponential (5 inputs over
      // three loops with gcd were 86 MB of LLVM IR).
      bool mayBeLinear = linearThreshold > 0 && !coiterated.empty() &&
                         (d < rank || reductionVisitsAnyPoint || needsUniverse);
      std::optional<Lattice> lattice;
      if (!mayBeLinear || !speculatable ||
          coiterated.size() < linearThreshold) {
        lattice = Lattice::build(space, coiterated);
        lattice->dropUnneededUniverse();
        uint64_t cases = 0;
        for (unsigned p = 0; p < lattice->getPoints().size(); ++p)
          cases += lattice->getSubPoints(p).size();
        if (mayBeLinear && saturatingMul(cases, copies) > kMaxLatticeCases)
          lattice.reset();
      }
      if (!lattice) {
        SmallVector<LatticePoint> points;
        if (needsUniverse)
          points.emplace_back().universe = true;
        result.push_back(LatticeAttr::get(ctx, d, presentList, coiterated,
                                          points, /*linear=*/true,
                                          /*merged=*/false, /*branchless=*/false,
                                          sequenceOf(d, coiterated, space,
                                                     /*linear=*/true)));
        if (d + 1 < numLoops)
          reach(present, copies);
        continue;
      }
      merged &= !lattice->empty() && d + 1 != numLoops;
      StringAttr sequence = sequenceOf(d, coiterated, space, /*linear=*/false);
      bool branchless = branchlessMerge && d + 1 == numLoops && d < rank &&
                        speculatable && !sequence &&
                        llvm::all_of(coiterated, [&](unsigned k) {
                          int l = coiteratedLevel(k, d);
                          return l + 1 == int(inputs[k].loop.size()) &&
                                 !inputs[k].collapsed[l] && inputs[k].unique[l];
                        }) &&
                        coversEverySubset(*lattice, cheap);
      result.push_back(LatticeAttr::get(ctx, d, presentList, coiterated,
                                        lattice->getPoints(),
                                        /*linear=*/false, merged, branchless,
                                        sequence));
      if (lattice->empty() || d + 1 == numLoops)
        continue;
      if (merged) {
        reach(present, copies);
        continue;
      }
      // Each case (a point q inside the loop of a point p ⊇ q) descends
      // with q's coiterated inputs.
      uint64_t coiteratedMask = 0;
      for (unsigned k : coiterated)
        coiteratedMask |= uint64_t(1) << k;
      ArrayRef<LatticePoint> points = lattice->getPoints();
      for (const LatticePoint &q : points) {
        uint64_t containing = llvm::count_if(
            points, [&](const LatticePoint &p) { return q.isSubsetOf(p); });
        reach(present & ~(coiteratedMask & ~q.operands),
              saturatingMul(copies, containing));
      }
    }
    reaching = std::move(next);
  }
  return ArrayAttr::get(ctx, result);
}

bool mlir::sparse_array::splitReadsIterable(ArrayRef<SmallVector<int>> loopsPerDim) {
  for (auto [d, loops] : llvm::enumerate(loopsPerDim)) {
    if (loops.size() < 2)
      continue;
    if (!llvm::is_sorted(loops) || llvm::adjacent_find(loops) != loops.end())
      return false;
    for (auto [e, other] : llvm::enumerate(loopsPerDim))
      for (int l : other)
        if (e != d && l > loops.front() && l < loops.back())
          return false;
  }
  return true;
}

SequenceExpr
mlir::sparse_array::slicedView(unsigned k, std::array<int64_t, 3> slice,
                               std::optional<std::array<int64_t, 2>> bound) {
  auto [lo, hi, step] = slice;
  SequenceExpr leaf = SequenceExpr::leaf(k);
  int64_t length = sliceLength(lo, hi, step);
  int64_t last = lo + step * std::max<int64_t>(length - 1, 0);
  if (!bound || !length ||
      (std::min(lo, last) >= (*bound)[0] && std::max(lo, last) < (*bound)[1]))
    return SequenceExpr::slice(leaf, lo, hi, step);
  auto [blo, bhi] = *bound;
  if (step > 0)
    return SequenceExpr::slice(SequenceExpr::slice(leaf, blo, bhi, 1),
                               lo - blo, hi - blo, step);
  // Reversed, coordinate c of the bound is bhi - 1 - c.
  int64_t start = bhi - 1 - lo;
  return SequenceExpr::slice(SequenceExpr::slice(leaf, bhi - 1, blo - 1, -1),
                             start, start - step * length, -step);
}

SequenceExpr mlir::sparse_array::collapsedView(unsigned k, unsigned parts,
                                               bool windowed) {
  SequenceExpr view = SequenceExpr::leafLevel(k, parts - 1, false);
  for (unsigned j = parts - 1; j-- > 0;)
    view = SequenceExpr::product(SequenceExpr::leafLevel(k, j, false), view);
  // Its window [w * n, w * n + n), w fixed by enclosing loops: a slice
  // whose bounds are known in the loop only.
  if (windowed)
    view = SequenceExpr::slice(view, SequenceExpr::kDynamic,
                               SequenceExpr::kDynamic, 1);
  return view;
}
