//===- KernelLowering.h - One kernel's lowering, by concern --- -*- C++ -*-===//
//
// The state of lowering one sparse_array.kernel (private to
// lib/Conversion). Its members are defined by concern: analysis of the
// kernel and its inputs (KernelAnalysis.cpp), output assembly
// (OutputAssembly.cpp), loops over lattices and iterators
// (LoopEmitter.cpp), the computation at a point (KernelCompute.cpp),
// reductions (KernelReduction.cpp), row-wise products (RowWiseProduct.cpp)
// and the driver (KernelCodegen.cpp).
//
//===----------------------------------------------------------------------===//

#ifndef SPARSEARRAY_LIB_CONVERSION_KERNELLOWERING_H
#define SPARSEARRAY_LIB_CONVERSION_KERNELLOWERING_H

#include "SparseArray/Algebra/Lattice.h"
#include "SparseArray/Analysis/AlgebraDerivation.h"
#include "SparseArray/Analysis/Evaluator.h"
#include "SparseArray/Conversion/KernelCodegen.h"
#include "SparseArray/Conversion/LevelIterator.h"
#include "SparseArray/Conversion/SequenceIterator.h"

#include "Output/OutputAssembler.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/SymbolTable.h"

#include <array>
#include <functional>
#include <optional>

namespace mlir {
namespace sparse_array {
namespace detail {

class LoopLeaves;
struct RowWise;
class Workspace;

struct InputLevel {
  LevelSpec spec;
  /// Loop that binds the coordinate, or -1 for a constant coordinate.
  int loop = -1;
  int64_t constant = 0;
  /// The level's iterator, wrapped by the combinators the access reads it
  /// through (AccessIterators.cpp).
  std::unique_ptr<LevelIterator> iterator;
};

struct Input {
  bool used = false;
  /// Whether its values are read (a concatenation part's range marker is
  /// only iterated: select_range's `ranges`).
  bool valuesRead = true;
  ArrayType type;
  TypedAttr fill;
  SmallVector<InputLevel> levels;
  Value values;
};

/// What is known inside a loop nest: which inputs still have entries here,
/// how many of their levels are resolved, and the segment of positions.
struct Context {
  uint64_t alive = 0;
  SmallVector<unsigned> processed;
  SmallVector<Value> lo, hi;
  /// Per input: an i1 that is false when a constant coordinate was not
  /// found in one of its stored levels (null: stored as far as known). The
  /// segment is then empty and the input's value is its fill.
  SmallVector<Value> found;
  SmallVector<Value> coords; // one per loop entered
  /// Inputs whose position `lo` holds a stored entry even where `found` is
  /// false (a branchless merge's cursor, ahead of the coordinate): their
  /// value is loaded and the fill selected in, without a branch.
  uint64_t inBounds = 0;
  /// Inputs located at a loop's coordinate by a level that can miss (seed
  /// 002's hashed level): their `found` decides whether the point has them.
  uint64_t locatedMisses = 0;

  // The nest being emitted: parameters the emitters pass down (a copy set
  // where a nest of another kind starts), not modes of the lowering.
  /// The loop after the innermost one of the nest: the result's rank for
  /// its loops, numLoops inside a reduction's (KernelReduction.cpp).
  unsigned nestEnd = 0;
  /// Inside a reduction's nest: a leaf combines into the accumulator.
  bool inReduction = false;
  /// A reduction at a result point that may lie outside the kernel's space
  /// (a mask): its outermost loop collapses its ranges to nothing where
  /// this i1 is false (KernelCompute.cpp).
  Value rangeGuard;
  /// The short-range variant of a keyed reduction (emitKeyedDispatch): the
  /// accumulator is the float itself, combined by one compare and select
  /// (v < acc ? v : acc; a vminsd), with the NaN flag as for keys. Exact
  /// unless the result is a zero (the select keeps the first of -0.0 and
  /// +0.0): that case is recomputed with keys. Keys vectorize on long
  /// ranges; on ranges of a few entries their encoding costs more than
  /// the loop (tropical mxv on cryg2500, 5 entries a row: 11.7 -> 9.5 us
  /// in C).
  bool fastFloat = false;
  /// Inside one part of a loop planned parallel: its loop is sequential.
  bool sharingOut = false;
  /// Inside one range of a loop planned "ranges": the coordinates [from,
  /// to) the outermost counted loop (U) runs over instead of [0, extent).
  std::optional<std::pair<Value, Value>> partCoordinates;
  /// While emitting a loop: what each of its participants iterates as (the
  /// plan's views, in participant order).
  ArrayRef<SequenceExpr> loopViews;
  /// signed_zero_dot's counting pass (emitSignedZeroDot): the state is the
  /// sum (unchanged), the count of +0.0 classes and of non-finite ones.
  bool dotCountPass = false;
};

class KernelLowering {
public:
  KernelLowering(KernelOp kernel, SymbolTableCollection &symbols)
      : kernel(kernel), loc(kernel.getLoc()), symbols(symbols),
        derivation(symbols, evaluator) {}

  LogicalResult run();

  /// Makes the result's assembler instead of the one its format calls for
  /// (a scatter reduction's loops: ScatterReduction.cpp).
  std::function<std::unique_ptr<OutputAssembler>(OpBuilder &,
                                                 const OutputShape &)>
      outputFactory;

private:
  /// A reduction planned `scatter_loops`: the map of the reduced value
  /// lowered in the inputs' storage order, each point combined into its
  /// result entry's accumulator (ScatterReduction.cpp).
  LogicalResult runScatterReduction(ReduceOverOp reduce);
  /// C(i, j) = ⊕_k P(i, k) ⊗ Q(k, j) row by row (Gustavson; the reduction's
  /// `scatter` plan): a dense workspace per row.
  LogicalResult runRowWiseProduct();
  /// Rows [lo, hi) of a row-wise product through a workspace of their own
  /// (RowWiseProduct.cpp), appended to `acc` (count, coordinates, values);
  /// positions[i + 1] gets the entries so far, or with `rowCounts` row i's
  /// own count. The new count and buffers.
  SmallVector<Value> emitRowWiseRange(OpBuilder &b, RowWise rw, Value lo,
                                      Value hi, ValueRange acc,
                                      bool rowCounts);
  /// emitRowWiseRange's rows through workspace `ws`: per row its products
  /// scattered, then gathered in column order.
  SmallVector<Value> emitRowWiseRows(OpBuilder &b, const RowWise &rw,
                                     Workspace &ws, Value lo, Value hi,
                                     ValueRange acc, bool rowCounts);
  /// The rows of a row-wise product planned parallel: in parts of equal
  /// work when there are enough of them, else `sequentialRows`
  /// (RowWiseParallel.cpp). The result's coordinate and value buffers.
  SmallVector<Value> emitParallelRowWise(
      OpBuilder &b, const RowWise &rw,
      function_ref<SmallVector<Value>(OpBuilder &, Location)> sequentialRows);
  /// Row i's products into `ws`; the number of columns touched.
  Value emitRowScatter(OpBuilder &b, const RowWise &rw, Workspace &ws, Value i,
                       Value gen);
  /// The touched columns appended to the result (`acc`: count, coordinates,
  /// values so far); the new count and buffers.
  SmallVector<Value> emitRowGather(OpBuilder &b, const RowWise &rw,
                                   Workspace &ws, Value gen, Value count,
                                   ValueRange acc);
  LogicalResult analyze(OpBuilder &b);
  /// The output assembler for the result, with the plan the analysis
  /// makes for appended outputs (OutputAssembly.cpp).
  void setUpOutput(OpBuilder &b);

  SmallVector<Value> emitLoopBody(OpBuilder &b, unsigned d, const Context &ctx,
                                  ValueRange out);
  SmallVector<Value> emitLoop(OpBuilder &b, unsigned d, const Context &ctx,
                              ValueRange out);
  /// The cases of a loop body at coordinate x: the first of `subPoints`
  /// (from `next` on) whose sequence holds x (seed 001 §6.3.2, Fig. 23a's
  /// switch), given the leaves' matches `m`. Inputs it holds continue in
  /// the segment [before, after) of their positions. `threadedLoop` (the
  /// innermost loop's point): each case steps what it matched itself,
  /// behind its branch, and no case taken steps the loop.
  SmallVector<Value>
  emitCases(OpBuilder &b, unsigned d, const Context &ctx,
            const Lattice &lattice, ArrayRef<unsigned> subPoints, unsigned next,
            LoopLeaves &leaves, const SequenceIterator::LeafMatches &m,
            ArrayRef<Value> before, ArrayRef<Value> after, Value x,
            ValueRange out, SequenceIterator *threadedLoop = nullptr);
  /// The leaves of loop d over the given iterator ranges: per
  /// participant, its level bound to the loop, or the parts of a collapsed
  /// read.
  std::unique_ptr<LoopLeaves> makeLoopLeaves(OpBuilder &b, const Context &ctx,
                                             unsigned d,
                                             ArrayRef<unsigned> participants,
                                             ArrayRef<Value> begin,
                                             ArrayRef<Value> end, Value extent);
  /// How many of input k's levels from its next one loop d binds: one, or
  /// the parts of a collapsed read (a product, seed 001 §5.1).
  unsigned boundLevels(const Context &ctx, unsigned k, unsigned d) const;
  /// The loops of loop d over the given iterator ranges (emitLoopBody's
  /// second half); `merged`: the plan's one loop descending with every
  /// input; `branchless`: the root point's loop evaluates once per step
  /// instead of per case.
  /// One step of a `branchless` root loop at x (matches m): all inputs
  /// at x behind one branch, the branch-free step otherwise.
  SmallVector<Value>
  emitBranchlessRoot(OpBuilder &b, unsigned d, const Context &ctx,
                     LoopLeaves &leaves, SequenceIterator &it,
                     const SequenceIterator::LeafMatches &m, Value x,
                     ValueRange out);
  /// One step of a `branchless` root loop at x (matches m).
  SmallVector<Value>
  emitBranchlessStep(OpBuilder &b, unsigned d, const Context &ctx,
                     LoopLeaves &leaves, SequenceIterator &it,
                     const SequenceIterator::LeafMatches &m, Value x,
                     ValueRange out);
  SmallVector<Value> emitLoops(OpBuilder &b, unsigned d, const Context &ctx,
                               const Lattice &lattice, bool merged,
                               ArrayRef<unsigned> participants,
                               ArrayRef<Value> begin, ArrayRef<Value> end,
                               Value extent, ValueRange out,
                               bool branchless = false);
  /// A keyed min/max reduction's loop, chosen per result point by the
  /// length of its ranges: short ones accumulate floats (see fastFloat),
  /// long ones keys.
  SmallVector<Value>
  emitKeyedDispatch(OpBuilder &b, unsigned d, const Context &ctx,
                    const Lattice &lattice, bool merged,
                    ArrayRef<unsigned> participants, ArrayRef<Value> begin,
                    ArrayRef<Value> end, Value extent, ValueRange out);
  /// for x in [0, extent) carrying `init` (the reduction's state from
  /// `stateOffset` on); a while loop instead when the reduction may exit
  /// early. `body` returns the values to carry on.
  /// Loop 0 of a kernel planned parallel (`parallelPlan`) carries
  /// nothing: an scf.parallel from the plan's min_extent on.
  SmallVector<Value> emitCountedLoop(
      OpBuilder &b, unsigned d, const Context &ctx, Value extent,
      ValueRange init,
      unsigned stateOffset,
      function_ref<SmallVector<Value>(OpBuilder &, Location, Value, ValueRange)>
          body);
  /// Loop 0 planned parallel (ParallelLoop.cpp): per phase of the output's
  /// assembly an scf.parallel over rows (or parts of equal work), or, for
  /// an output assembled in parts, a loop over parts each running its rows
  /// with state of its own. `init` must be empty.
  SmallVector<Value> emitParallelOuterLoop(
      OpBuilder &b, Value extent, ValueRange init,
      function_ref<SmallVector<Value>(OpBuilder &, Location, Value, ValueRange)>
          body);
  /// The outermost loop planned "ranges" (ParallelLoop.cpp): its
  /// coordinates cut into ranges at the balancing input's stored ones, or
  /// into equal ranges without one (`universe`: the loop visits every
  /// coordinate), each range a part in parallel (one part below
  /// min_extent) whose participants' segments [begin, end) are narrowed to
  /// it by bisection before `loops` runs them (a counted loop over the
  /// range's coordinates: partCoordinates); the output assembled in parts.
  /// The state after the loop (empty).
  /// `loops` runs in the range's context (sharingOut, partCoordinates).
  using SegmentLoops = function_ref<SmallVector<Value>(
      OpBuilder &, const Context &, ArrayRef<Value>, ArrayRef<Value>,
      ValueRange)>;
  SmallVector<Value> emitParallelRanges(OpBuilder &b, const Context &ctx,
                                        ArrayRef<unsigned> participants,
                                        ArrayRef<Value> begin,
                                        ArrayRef<Value> end, Value extent,
                                        bool universe, ValueRange out,
                                        SegmentLoops loops);
  /// A hand-written parallel plan whose outermost loop carries values (a
  /// diagnostic, once); false when it carries none.
  bool rejectCarriedParallelLoop(unsigned carried);
  /// The positions the parallel plan balances parts on, or null.
  Value parallelBalancePositions(OpBuilder &b);
  /// Whether loop 0 (of `extent` iterations) runs in parallel: at least
  /// the plan's min_extent iterations and, with its min_work, that much
  /// work (parallelWork). An i1, constant when known here.
  Value parallelWorthwhile(OpBuilder &b, Value extent);
  /// The kernel's work as min_work counts it: the stored values of the
  /// inputs it reads, plus, when its iteration space reaches outside
  /// their stored entries, the product of its loops' extents — saturated
  /// at `atMost` (only the comparison with it matters; no overflow).
  Value parallelWork(OpBuilder &b, int64_t atMost);
  /// [0, extent) in up to kBalancedParts parts run in parallel from the
  /// plan's min_extent on, else as one part run sequentially (decided here
  /// for a static extent, at run time otherwise): `setUp` sees the number
  /// of parts before, `runPart(p, lo, hi)` runs each. The number of parts;
  /// at most what `assembler` (when given) affords (maxParts).
  Value emitPartsOrOne(
      OpBuilder &b, Value extent, OutputAssembler *assembler,
      function_ref<void(OpBuilder &, Value)> setUp,
      function_ref<void(OpBuilder &, Location, Value, Value, Value)> runPart);
  /// Loop 0 of a scalar reduction planned parallel (ParallelLoop.cpp): up
  /// to kBalancedParts parts (fixed by the extent, not the thread count)
  /// reduce from `init` each, early exit included; their states are then
  /// combined in part order (combineReductionStates). The state after the
  /// whole loop.
  SmallVector<Value> emitParallelReduction(
      OpBuilder &b, const Context &ctx, Value extent, ValueRange init,
      unsigned stateOffset,
      function_ref<SmallVector<Value>(OpBuilder &, Location, Value, ValueRange)>
          body);
  /// The reduction state of a run of points followed by that of the next
  /// run: accumulators combined in this order (an empty run's start value
  /// skipped when the combiner has no identity), NaN flags or'ed, counts
  /// added (KernelReduction.cpp); `ctx`: the nest the states come from
  /// (keyed floats, signed_zero_dot's counting pass).
  SmallVector<Value> combineReductionStates(OpBuilder &b, ValueRange first,
                                            ValueRange second,
                                            const Context &ctx);
  /// One loop over the coordinates some point of `lattice` needs, which
  /// descends with every input (an empty segment where one does not
  /// match). `linear` (no lattice: the plan's linear coiteration) visits
  /// every coordinate some input stores and, at the innermost loop,
  /// computes there with absent inputs read as their fills.
  SmallVector<Value> emitMergedLoop(OpBuilder &b, unsigned d,
                                    const Context &ctx, const Lattice &lattice,
                                    ArrayRef<unsigned> participants,
                                    ArrayRef<Value> begin, ArrayRef<Value> end,
                                    Value extent, ValueRange out,
                                    bool linear = false);
  SmallVector<Value> emitCompute(OpBuilder &b, const Context &ctx, bool omitter,
                                 ValueRange out);
  /// Resolves the levels of input k that need no iteration: constant
  /// coordinates and full levels whose loop is below `boundLoops`.
  void locateLevels(OpBuilder &b, Context &ctx, unsigned k,
                    unsigned boundLoops);
  void searchLevel(OpBuilder &b, Context &ctx, unsigned k);
  /// The segment of input k's next level under its current position.
  std::pair<Value, Value> initSegment(OpBuilder &b, const Context &ctx,
                                      unsigned k);
  /// The kernel's value (`root` null) or the value of `root`, from the
  /// inputs' values; `given` maps values computed already (a reduction's
  /// result); `coords`: the coordinate of each loop entered (for bodies
  /// that read index variables: select_range). A function that may trap
  /// takes its case at run time by its operands' values; `presence` (when
  /// given: per input, whether it is stored here, for inputs known only at
  /// run time — a linear or merged loop's misses, read as their fills)
  /// makes such a function's value its fill where it lies outside its space
  /// instead of evaluating it.
  Value emitBody(OpBuilder &b, uint64_t absent, ArrayRef<Value> inputValues,
                 Value root = Value(), const IRMapping *given = nullptr,
                 ArrayRef<Value> coords = {}, ArrayRef<Value> presence = {});
  /// The run-time presence emitBody needs when the kernel's functions
  /// cannot be evaluated anywhere: ctx.found per input read under it;
  /// empty for a speculatable body (evaluated with fills, branch-free).
  SmallVector<Value> runTimePresence(const Context &ctx) const;
  /// emitBody's apply of a function that may trap: the fill when
  /// `outside`, else its case for the operands `defined` and those whose
  /// `isFill[i]` (an i1, null when decided) is false at run time.
  Value emitApplyCases(OpBuilder &b, FuncOp func, ValueRange args,
                       ArrayRef<int32_t> defined, ArrayRef<Value> isFill,
                       Value outside, TypedAttr fill);
  /// The loop of index variable `var`.
  unsigned loopOfVar(unsigned var) const;
  /// What happens at the innermost loop of the current nest: compute and
  /// store a result entry, or accumulate one point of the reduction.
  SmallVector<Value> emitLeaf(OpBuilder &b, const Context &ctx, bool omitter,
                              ValueRange out) {
    return ctx.inReduction ? emitCombine(b, ctx, omitter, out)
                       : emitCompute(b, ctx, omitter, out);
  }
  /// The reduction at one result point: its loop nest (loops rank..N-1)
  /// and the finishing of its accumulator (seed 000 §7.2). `start` is the
  /// value of a `from` operand at this point (null without one).
  Value emitReduction(OpBuilder &b, const Context &ctx, Value start);
  /// Whether the accumulator holds a value before the first point (an
  /// identity or a `from` start value): else the first point replaces it.
  bool accumulatorStartsDefined() {
    return reductionPlan.identity || (reduction && reduction.getStart());
  }
  /// A counted reduction's result from its accumulator, the points it
  /// visited and the points there are (`total`): the fills of the points
  /// not visited combined in (reassociate: by repeated squaring;
  /// idempotent: once); the accumulator otherwise. signed_zero_dot counts
  /// instead the visited points whose omitted term would be +0.0 (`count`)
  /// and NaN (`nonFinite`), against the dense factor's counts
  /// `denseCounts` (+0.0-making, non-finite) at this point, by default
  /// dotPositives and dotNonFinite.
  Value finishReduction(OpBuilder &b, Value acc, Value count, Value total,
                        Value nonFinite = Value(),
                        std::pair<Value, Value> denseCounts = {});
  /// signed_zero_dot: whether a value of the dense factor makes the
  /// omitted product fill * y +0.0 (y finite, sign of the fill), and
  /// whether it makes it NaN (y not finite).
  std::pair<Value, Value> classifyDenseFactor(OpBuilder &b, Value y);
  /// signed_zero_dot: dotPositives and dotNonFinite over the whole dense
  /// factor, once per kernel call, before any loop; per coordinate of the
  /// dense factor's kept dimensions (dotKeptDims, row-major) in the
  /// buffers dotPositivesPer / dotNonFinitePer when it has any.
  void emitDenseFactorCounts(OpBuilder &b);
  void emitDenseFactorCountsPerKept(OpBuilder &b);
  /// The counts that apply at the result point `ctx` is at.
  std::pair<Value, Value> denseFactorCountsAt(OpBuilder &b, const Context &ctx);
  Value dotPositives, dotNonFinite;
  Value dotPositivesPer, dotNonFinitePer;
  SmallVector<unsigned> dotKeptDims;
  /// A signed_zero_dot reduction at one result point: the sum over the
  /// stored points; where it may need them (x not all finite, or a -0.0
  /// sum), the same points again counted by the class of their x
  /// (`dotCountPass`), and the sum finished with the counts.
  Value emitSignedZeroDot(OpBuilder &b, const Context &ctx, Value start);
  bool isSignedZeroDot() const {
    return reductionPlan.strategy == ReductionPlan::Strategy::SignedZeroDot;
  }
  SmallVector<Value> emitCombine(OpBuilder &b, const Context &ctx, bool omitter,
                                 ValueRange state);
  /// The values of the inputs at a point; `absent` gets the inputs known
  /// absent (they read as their fills). Inputs with levels still to
  /// iterate get no value.
  SmallVector<Value> loadInputValues(OpBuilder &b, const Context &ctx,
                                     uint64_t &absent);
  /// `then` where the point lies in `space` once stored entries equal to
  /// their input's fill count as absent (thesis §6.2.1), else `otherwise`
  /// unchanged. Leaves without a value here must have been eliminated.
  SmallVector<Value>
  emitIfMember(OpBuilder &b, const IterationAlgebra &space,
               ArrayRef<Value> values, uint64_t absent, ValueRange otherwise,
               function_ref<SmallVector<Value>(OpBuilder &)> then);
  /// Whether a point lies in `space` (see emitIfMember).
  Value emitIsMember(OpBuilder &b, const IterationAlgebra &space,
                     ArrayRef<Value> values, uint64_t absent);
  /// combiner(acc, v), inlined.
  Value emitCombinerCall(OpBuilder &b, Value acc, Value v);
  /// Whether the accumulator may still change (early exit, seed 000 §7.2).
  Value emitNotAnnihilated(OpBuilder &b, Location l, ValueRange state);
  /// Inside a reduction planned `early_exit` (an annihilator).
  /// The context of a reduction's nest at a result point: loops rank to
  /// numLoops - 1, whose leaves combine; the enclosing result loop's
  /// threaded cases do not reach into them.
  Context reductionNest(const Context &ctx) const {
    Context nest = ctx;
    nest.nestEnd = numLoops;
    nest.inReduction = true;
    return nest;
  }
  bool mayExitEarly(const Context &ctx) {
    return ctx.inReduction && reductionPlan.annihilator &&
           reduction.getEarlyExit();
  }
  /// A loop condition, also requiring the accumulator (first in `state`)
  /// not to hold the annihilator when the reduction may exit early.
  Value withEarlyExit(const Context &ctx, OpBuilder &b, Location l, Value cond,
                      ValueRange state) {
    if (!mayExitEarly(ctx))
      return cond;
    return arith::AndIOp::create(b, l, cond, emitNotAnnihilated(b, l, state));
  }
  FailureOr<Value> inlineCall(OpBuilder &b, FuncOp func, ValueRange args,
                              Region *region, unsigned depth);
  IterationAlgebra algebraWithout(uint64_t absent) const;
  KernelOp kernel;
  Location loc;
  SymbolTableCollection &symbols;
  Evaluator evaluator;
  AlgebraDerivation derivation;
  bool hadError = false;
  /// sparse-array-plan-parallel's decision (null: sequential).
  ParallelAttr parallelPlan;

  unsigned rank = 0;
  /// Loops: the result's levels, then the reduction's variables.
  unsigned numLoops = 0;
  /// Every operation computing the result from the reduced value can run
  /// at any point without trapping (no integer division): a masked-out
  /// point may then evaluate it and discard the value.
  bool speculatableBody = false;
  ReduceOverOp reduction;
  ReductionPlan reductionPlan;
  FuncOp combiner;
  /// The combiner is exactly minimumf/maximumf: accumulate the IEEE total
  /// order key of each value (an integer min/max, one instruction on the
  /// accumulator's chain) and whether a NaN was seen, instead of the
  /// NaN-and-signed-zero-aware float min/max per element. Same result:
  /// NaN if any value is NaN, else the least/greatest with -0.0 < +0.0.
  bool keyed = false, keyedMax = false;
  /// Index of the visited-points count in the reduction's state.
  unsigned countIndex() const { return keyed ? 2 : 1; }
  /// Index of signed_zero_dot's count of visited non-finite dense values.
  unsigned nonFiniteIndex() const { return countIndex() + 1; }
  Value toKey(OpBuilder &b, Value v);
  Value fromKey(OpBuilder &b, Value key);
  ArrayType resultType;
  TypedAttr resultFill;
  IterationAlgebra algebra = IterationAlgebra::universe();
  SmallVector<unsigned> loopDim; // result dimension of each loop
  SmallVector<Value> extents;    // per loop
  SmallVector<Input> inputs;

  std::unique_ptr<OutputAssembler> output;
};

/// Membership of `a` given one i1 per operand (null: not stored).
Value emitMembership(OpBuilder &b, Location loc, const IterationAlgebra &a,
                     ArrayRef<Value> defined);

/// The stored values `kernel` reads (ParallelAttr's min_work): its used
/// inputs' values buffers, a dense input of static shape as a constant
/// (at most `atMost`, so that a static decision folds).
Value storedValuesRead(OpBuilder &b, Location loc, KernelOp kernel,
                       int64_t atMost);

/// Appends `kernel` to `kernels`, or — a sparse result planned parallel
/// with a min_work the inputs' sizes leave open — the two versions it
/// becomes behind scf.if (work >= min_work): the parallel one (its plan's
/// min_work tested here, dropped) and a sequential one (VersionByWork.cpp).
void versionByWork(KernelOp kernel, SmallVectorImpl<KernelOp> &kernels);

} // namespace detail
} // namespace sparse_array
} // namespace mlir

#endif // SPARSEARRAY_LIB_CONVERSION_KERNELLOWERING_H
