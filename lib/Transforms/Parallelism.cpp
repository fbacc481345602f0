//===- Parallelism.cpp - Which kernel loops run in parallel ---------------===//
//
// The outermost result loop runs in parallel when its iterations are
// independent by construction: every output point is stored in place (a
// dense result) or a sparse one is assembled in two phases (CSR, CSC) or
// in parts (each part's rows of the outermost level on their own, joined
// in order), and the loop carries no cursor (every input level bound to
// it is located at the loop's coordinate, so the loop is counted and
// driven by U). A row-wise product's rows run in parts with a workspace
// each; a scatter reduction's parts accumulate on their own. Everything
// else stays sequential, and the plan says why.
//
//===----------------------------------------------------------------------===//

#include "SparseArray/Transforms/Parallelism.h"
#include "SparseArray/Transforms/Coiteration.h"

#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/InterleavedRange.h"

using namespace mlir;
using namespace mlir::sparse_array;

/// An input whose entries measure each outer iteration's work: stored
/// with a full outermost level read at loop 0 and a level with positions
/// below it read at a plain variable (CSR rows under SpMV, row sums, maps).
/// The first such input; -1 when there is none (the iterations then cost
/// alike: dense operands).
static int64_t balancingInput(KernelOp kernel, uint64_t used) {
  SmallVector<int> loopOf = getLoopOfIndex(kernel);
  for (unsigned k = 0; k < kernel.getInputs().size(); ++k) {
    if (!(used >> k & 1))
      continue;
    auto type = cast<ArrayType>(kernel.getInputs()[k].getType());
    FormatAttr format = type.getFormat();
    if (type.getRank() < 2 || !format.isRowsOfSegments())
      continue;
    AccessOp access = kernel.getAccessOf(k);
    auto plainVar = [&](unsigned level) -> int {
      unsigned dim = format.getLevelDim(level);
      auto arg = dyn_cast<BlockArgument>(access.getIndices()[dim]);
      if (!arg || access.isSliced(dim))
        return -1;
      return loopOf[arg.getArgNumber()];
    };
    if (plainVar(0) == 0 && plainVar(1) > 0)
      return k;
  }
  return -1;
}

/// How the outermost loop's coordinates are cut into ranges that run in
/// parallel: at the stored coordinates of an input (the first coiterated
/// one whose outermost level holds the loop's coordinate, plainly, in
/// order: ranges of equal entries below them), or -1: into equal ranges —
/// when the loop visits every coordinate (U, the inputs' cursors carried
/// through a counted loop: equal ranges are equal work) or no input stores
/// the coordinates at its outermost level. Every coiterated level must be
/// iterated as it is stored (a view that is the input itself) and ordered,
/// so that bisection narrows its segment to a range. nullopt and `why`
/// otherwise.
static std::optional<int64_t> rangesCutInput(KernelOp kernel,
                                             LatticeAttr outer,
                                             std::string &why) {
  if (kernel.getResultType().getRank() == 0) {
    why = "scalar reduction over stored coordinates: its fold stays in order";
    return std::nullopt;
  }
  bool universe =
      !outer.getPoints().empty() && outer.getPoints().front().universe;
  SmallVector<int> loopOf = getLoopOfIndex(kernel);
  int64_t cut = -1;
  for (unsigned k : outer.getCoiterated()) {
    if (outer.getView(k) != SequenceExpr::leaf(k)) {
      why = "the outermost loop iterates input " + std::to_string(k) + " as " +
            outer.getView(k).str();
      return std::nullopt;
    }
    auto type = cast<ArrayType>(kernel.getInputs()[k].getType());
    FormatAttr format = type.getFormat();
    AccessOp access = kernel.getAccessOf(k);
    for (unsigned l = 0; l < format.getNumLevels(); ++l) {
      unsigned dim = format.getLevelDim(l);
      auto arg = dyn_cast<BlockArgument>(access.getIndices()[dim]);
      if (!arg || loopOf[arg.getArgNumber()] != 0)
        continue;
      const LevelSpec &spec = format.getLevels()[l];
      if (!spec.ordered) {
        why = "the outermost loop coiterates input " + std::to_string(k) +
              "'s level " + std::to_string(l) +
              ", not ordered: no range of coordinates is a segment";
        return std::nullopt;
      }
      if (!universe && cut < 0 && l == 0 && !spec.isFull() &&
          !access.isSliced(dim))
        cut = k;
    }
  }
  return cut;
}

std::optional<ParallelOptions::Assembly>
mlir::sparse_array::parseAssembly(StringRef name) {
  return llvm::StringSwitch<std::optional<ParallelOptions::Assembly>>(name)
      .Case("auto", ParallelOptions::Assembly::Auto)
      .Case("two-phase", ParallelOptions::Assembly::TwoPhase)
      .Case("parts", ParallelOptions::Assembly::Parts)
      .Case("chained", ParallelOptions::Assembly::Chained)
      .Default(std::nullopt);
}

/// Whether the entries the kernel's inputs store bound its result's rank-2
/// result: its iteration space lies within them and every input it reads
/// is indexed by both result variables (none broadcast along a result
/// dimension) — the lowering's capacity bound (setUpOutput), which chained
/// parts allocate the result at.
static bool inputsBoundEntries(KernelOp kernel, unsigned rank) {
  std::optional<AlgebraAttr> algebra = kernel.getAlgebra();
  if (!algebra || !algebra->getAlgebra().normalize().withinStoredEntries())
    return false;
  Block &body = kernel.getBody().front();
  for (unsigned k = 0; k < kernel.getInputs().size(); ++k) {
    AccessOp access = kernel.getAccessOf(k);
    if (!access)
      continue;
    llvm::SmallBitVector bound(rank);
    for (Value index : access.getIndices())
      if (auto arg = dyn_cast<BlockArgument>(index);
          arg && arg.getOwner() == &body && arg.getArgNumber() < rank)
        bound.set(arg.getArgNumber());
    if (!bound.all())
      return false;
  }
  return true;
}

/// Whether computing a result entry costs more than copying it (16 bytes):
/// a reduction per entry, or a function reaching math (sin, exp, ...),
/// loops or calls. Two phases compute every entry twice; parts copy each
/// once.
static bool entryCostsMoreThanCopy(KernelOp kernel) {
  bool costly = false;
  SmallVector<FuncOp> pending;
  llvm::SmallPtrSet<Operation *, 8> seen;
  kernel.getBody().walk([&](Operation *op) {
    if (isa<ReduceOverOp>(op))
      costly = true;
    if (auto apply = dyn_cast<ApplyOp>(op))
      if (auto f = SymbolTable::lookupNearestSymbolFrom<FuncOp>(
              kernel, apply.getCalleeAttr()))
        pending.push_back(f);
  });
  while (!costly && !pending.empty()) {
    FuncOp f = pending.pop_back_val();
    if (!seen.insert(f).second)
      continue;
    f.getBody().walk([&](Operation *op) {
      StringRef dialect = op->getDialect() ? op->getDialect()->getNamespace()
                                           : StringRef();
      if (dialect == "math" || dialect == "scf" || dialect == "func")
        costly = true;
      if (auto apply = dyn_cast<ApplyOp>(op))
        if (auto g = SymbolTable::lookupNearestSymbolFrom<FuncOp>(
                f, apply.getCalleeAttr()))
          pending.push_back(g);
    });
  }
  return costly;
}

/// The static extent of `loop` from an input dimension it indexes plainly,
/// or dynamic.
static int64_t staticLoopExtent(KernelOp kernel, unsigned loop) {
  SmallVector<int> loopOf = getLoopOfIndex(kernel);
  for (unsigned k = 0; k < kernel.getInputs().size(); ++k) {
    AccessOp access = kernel.getAccessOf(k);
    if (!access)
      continue;
    auto type = cast<ArrayType>(kernel.getInputs()[k].getType());
    for (auto [dim, index] : llvm::enumerate(access.getIndices())) {
      auto arg = dyn_cast<BlockArgument>(index);
      if (arg && !access.isSliced(dim) &&
          loopOf[arg.getArgNumber()] == static_cast<int>(loop) &&
          !ShapedType::isDynamic(type.getShape()[dim]))
        return type.getShape()[dim];
    }
  }
  return ShapedType::kDynamic;
}

/// A scatter reduction (ScatterReduction.cpp): iterations of its outer
/// loop combine into the same result entries, so each part of them
/// accumulates into an accumulator of its own (one per thread: each is the
/// result's size), combined per entry in part order after the loop — a
/// regrouping of every entry's fold, exact only for an associative
/// combiner. Its loops are those of the reduced value's map (a dense
/// result over every variable, in the scatter order): they are planned as
/// that map's, and the parts assemble the accumulators.
static ParallelAttr planScatterReduction(KernelOp kernel, ReduceOverOp reduce,
                                         const ParallelOptions &options) {
  MLIRContext *ctx = kernel.getContext();
  auto sequential = [&](const Twine &why) {
    return ParallelAttr::get(ctx, "none", 0, 0, -1, false, false, false,
                             ("scatter reduction: " + why).str());
  };
  ArrayType resultType = kernel.getResultType();
  if (!resultType.isAllDense() && resultType.getRank() > 1)
    return sequential("a sparse result accumulated row by row in one "
                      "workspace");
  auto combiner = SymbolTable::lookupNearestSymbolFrom<FuncOp>(
      kernel, reduce.getCombinerAttr());
  if (!combiner || !combiner.getAssociative())
    return sequential("iterations of its outer loop combine into the same "
                      "result entries, and its combiner is not declared "
                      "associative: the entries' folds cannot be regrouped");
  if (reduce.getStrategy() == ReductionStrategy::SignedZeroSum)
    return sequential("signed_zero_sum logs its -0.0 points in one buffer");
  OpBuilder b(kernel);
  SmallVector<int32_t> order(*reduce.getScatterLoops());
  KernelOp map = buildScatterMapKernel(b, kernel, reduce, order);
  map.setLatticesAttr(*kernel.getLattices());
  ParallelAttr loops = planParallelism(map, options);
  map.erase();
  if (!loops.isParallel())
    return sequential("its loops: " + loops.getReason());
  return ParallelAttr::get(ctx, loops.getMode(), loops.getMinExtent(),
                           loops.getMinWork(), loops.getBalance(), false, true,
                           false, "");
}

/// The least work (stored values read) worth a parallel region: the
/// option, or the default when it is 0 — more for a sparse result, whose
/// parts or phases cost more than a dense one's stores.
static int64_t minParallelWork(const ParallelOptions &options,
                               bool sparseResult) {
  if (options.minWork > 0)
    return options.minWork;
  return sparseResult ? kMinParallelWorkSparse : kMinParallelWork;
}

ParallelAttr
mlir::sparse_array::planParallelism(KernelOp kernel,
                                    const ParallelOptions &options) {
  MLIRContext *ctx = kernel.getContext();
  auto sequential = [&](const Twine &why) {
    return ParallelAttr::get(ctx, "none", 0, 0, -1, false, false, false,
                             why.str());
  };
  ReduceOverOp rowWise, scatterLoops;
  kernel.getBody().walk([&](ReduceOverOp r) {
    if (r.getScatter())
      rowWise = r;
    if (r.getScatterLoops())
      scatterLoops = r;
  });
  if (scatterLoops)
    return planScatterReduction(kernel, scatterLoops, options);
  ArrayType resultType = kernel.getResultType();
  // A row-wise product (Gustavson): its rows are independent once each
  // part of them has a workspace of its own; the parts are balanced by
  // the rows' products, counted through P's rows (its stored entries and
  // Q's row lengths), and the result assembled from the parts' entries
  // in part order (RowWiseParallel.cpp).
  if (rowWise) {
    if (resultType.getRank() != 2)
      return sequential("row-wise product with one row (a vector result): "
                        "its products share one workspace");
    int64_t minExtent =
        options.minExtent > 0 ? options.minExtent : kMinParallelRows;
    int64_t rows =
        resultType.getShape()[resultType.getFormat().getLevelDim(0)];
    if (!ShapedType::isDynamic(rows) && rows < minExtent)
      return sequential("the row-wise product has " + Twine(rows) +
                        " rows, fewer than " + Twine(minExtent));
    return ParallelAttr::get(ctx, "outer", minExtent,
                             minParallelWork(options, true),
                             (*rowWise.getScatter())[0], false, true, false,
                             "");
  }
  unsigned rank = resultType.getRank();
  // A scalar result: the reduction's first loop in parts, each reducing on
  // its own, their results combined in part order — a regrouping of the
  // fold, exact only for an associative combiner.
  if (rank == 0) {
    ReduceOverOp reduce;
    kernel.getBody().walk([&](ReduceOverOp r) { reduce = r; });
    if (!reduce)
      return sequential("scalar result without a reduction: nothing to share "
                        "out");
    auto combiner = SymbolTable::lookupNearestSymbolFrom<FuncOp>(
        kernel, reduce.getCombinerAttr());
    if (!combiner || !combiner.getAssociative())
      return sequential("scalar reduction whose combiner is not declared "
                        "associative: its fold cannot be regrouped into parts");
    if (reduce.getStart())
      return sequential("scalar reduction from a start value: one fold");
  }
  // A sparse result: rows assembled in two phases when they are one
  // compressed level under a full one (CSR, CSC) and an entry is cheap; in
  // parts otherwise (a compressed vector: each coordinate of the counted
  // loop gives at most one entry, computing it twice would double the
  // work).
  FormatAttr format = resultType.getFormat();
  bool twoPhase = false, parts = false, chained = false;
  auto uniqueWithPositions = [&](unsigned level) {
    const LevelSpec &spec = format.getLevels()[level];
    return spec.isSegmented() && spec.unique;
  };
  if (!resultType.isAllDense()) {
    if (rank == 1 && uniqueWithPositions(0)) {
      parts = true;
    } else if (rank == 2 && format.isRowsOfSegments() &&
               format.getLevels()[1].unique) {
      using Assembly = ParallelOptions::Assembly;
      // Chained parts compute each entry once and copy it from a scratch
      // buffer still in cache: the better assembly wherever the result's
      // buffers can be allocated at a bound before the loop.
      chained = (options.assembly == Assembly::Auto ||
                 options.assembly == Assembly::Chained) &&
                inputsBoundEntries(kernel, rank);
      parts = chained || options.assembly == Assembly::Parts ||
              (options.assembly != Assembly::TwoPhase &&
               entryCostsMoreThanCopy(kernel));
      twoPhase = !parts;
    } else {
      // DCSR, COO, CSF, ...: each part assembles its rows of the outermost
      // level on its own; the parts' buffers are joined in order.
      parts = true;
    }
  }
  // The outermost loop's lattice with every accessed input present.
  uint64_t used = 0;
  for (unsigned k = 0; k < kernel.getInputs().size(); ++k)
    if (kernel.getAccessOf(k))
      used |= uint64_t(1) << k;
  LatticeAttr outer;
  ArrayAttr lattices = *kernel.getLattices();
  for (Attribute a : lattices) {
    auto lattice = cast<LatticeAttr>(a);
    if (lattice.getLoop() == 0 && lattice.getPresentMask() == used)
      outer = lattice;
  }
  if (!outer)
    return sequential("no lattice for the outermost loop");
  int64_t minExtent = options.minExtent;
  if (minExtent <= 0)
    minExtent = kernel.getNumIndices() == 1 ? kMinParallelEntries
                                            : kMinParallelRows;
  int64_t size = rank ? resultType.getShape()[format.getLevelDim(0)]
                      : staticLoopExtent(kernel, 0);
  if (!ShapedType::isDynamic(size) && size < minExtent)
    return sequential("the outermost loop has " + Twine(size) +
                      " iterations, fewer than " + Twine(minExtent));
  if (!outer.getCoiterated().empty()) {
    // Stored coordinates: ranges of them, cut at an input's, run as parts.
    std::string why;
    std::optional<int64_t> cut = rangesCutInput(kernel, outer, why);
    if (!cut)
      return sequential(why);
    return ParallelAttr::get(ctx, "ranges", minExtent,
                             minParallelWork(options, !resultType.isAllDense()),
                             *cut, false,
                             !resultType.isAllDense(), false, "");
  }
  ArrayRef<LatticePoint> points = outer.getPoints();
  if (points.size() != 1 || !points.front().universe || outer.getLinear())
    return sequential("the outermost loop is not one counted loop");
  return ParallelAttr::get(ctx, "outer", minExtent,
                           minParallelWork(options, !resultType.isAllDense()),
                           balancingInput(kernel, used), twoPhase, parts,
                           chained, "");
}
