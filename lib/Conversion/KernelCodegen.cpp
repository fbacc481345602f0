//===- KernelCodegen.cpp - Kernels to loops over level iterators ----------===//
//
// seed 000 §7.1 (lowering generalized lattices: one loop per lattice point,
// cases per sub-point, omitters skipped only at the innermost loop and only
// after explicit-fill checks); seed 002 §4 (format-agnostic coiteration and
// assembly by append); thesis 003 §6.2.1 (explicit vs implicit fill) and
// §6.2.3 (case bodies chosen per lattice point).
//
//===----------------------------------------------------------------------===//

#include "SparseArray/Conversion/KernelCodegen.h"
#include "SparseArray/Conversion/LevelIterator.h"
#include "SparseArray/Conversion/RuntimeCalls.h"
#include "SparseArray/Algebra/Lattice.h"
#include "SparseArray/Analysis/AlgebraDerivation.h"
#include "SparseArray/Analysis/Evaluator.h"
#include "SparseArray/Analysis/Speculation.h"
#include "SparseArray/Dialect/LevelFormat.h"
#include "SparseArray/Dialect/Storage.h"
#include "SparseArray/Transforms/Coiteration.h"

#include "CodegenUtils.h"

#include "mlir/Analysis/SliceAnalysis.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/Support/InterleavedRange.h"

#include <limits>

using namespace mlir;
using namespace mlir::sparse_array;

namespace {

struct InputLevel {
  LevelSpec spec;
  /// Loop that binds the coordinate, or -1 for a constant coordinate.
  int loop = -1;
  int64_t constant = 0;
  std::unique_ptr<LevelIterator> iterator;
};

struct Input {
  bool used = false;
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
};

/// Sparse output levels and their growing buffers, threaded through every
/// loop and branch as SSA values.
struct OutputLevel {
  LevelSpec spec;
  bool sparse = false;       // appended (stores coordinates)
  bool hasPositions = false; // compressed-like
  int crdSlot = -1, countSlot = -1, posSlot = -1;
};

class KernelLowering {
public:
  KernelLowering(KernelOp kernel, SymbolTableCollection &symbols,
                 StringRef workspaceMode)
      : kernel(kernel), loc(kernel.getLoc()), symbols(symbols),
        derivation(symbols, evaluator), workspaceMode(workspaceMode) {}

  LogicalResult run();

private:
  /// C(i, j) = ⊕_k P(i, k) ⊗ Q(k, j) row by row (Gustavson; the reduction's
  /// `scatter` plan): a dense workspace per row.
  LogicalResult runRowWiseProduct();
  LogicalResult analyze(OpBuilder &b);
  void setUpOutput(OpBuilder &b);
  /// The innermost output level's positions are stored once per parent
  /// after the innermost loop: it has positions, and its parent is an
  /// entry of the level above (sparse) or a full prefix — never a dense
  /// level below a sparse one, whose slots an unreached parent would alias.
  bool positionsAfterLoop = false;
  /// Whether every parent of the innermost level is visited, so that its
  /// positions are all written after their loops: no zeroing before and no
  /// running-max fix-up after (only when every level above is full and
  /// every outer loop's lattice has U alone, i.e. visits each coordinate).
  bool everyParentVisited = false;
  /// The initial capacity bounds every output buffer, so appends need no
  /// capacity checks (see setUpOutput).
  bool capacityIsBound = false;
  /// A vector output whose loop visits every coordinate in order: the
  /// entries appended before coordinate c are fewer than c + 1 <= extent =
  /// capacity, so each point stores its coordinate and value in the next
  /// slot unconditionally and counts them only when the value is not the
  /// fill (no branch on the value; see storeResult).
  bool appendBranchFree = false;
  /// Set while emitting the cases of an innermost coiteration loop: the
  /// iterator positions travel with the outputs (last in `out`) and each
  /// case advances the operands it matched by itself. The advance then sits
  /// behind the case's branch instead of a select, so the next coordinate
  /// loads do not wait for this one's comparisons (the hardware predicts
  /// the branch and runs ahead).
  ArrayRef<Value> threadedEnds;
  Value finishOutput(OpBuilder &b, ValueRange out);

  SmallVector<Value> emitLoopBody(OpBuilder &b, unsigned d,
                                  const Context &ctx, ValueRange out);
  SmallVector<Value> emitLoop(OpBuilder &b, unsigned d, const Context &ctx,
                              ValueRange out);
  SmallVector<Value> emitCases(OpBuilder &b, unsigned d, const Context &ctx,
                               const Lattice &lattice,
                               ArrayRef<unsigned> subPoints, unsigned next,
                               ArrayRef<unsigned> participants,
                               ArrayRef<Value> matched, ArrayRef<Value> pos,
                               ArrayRef<Value> segEnd, Value x,
                               ValueRange out);
  /// The loops of loop d over the given iterator ranges (emitLoopBody's
  /// second half).
  SmallVector<Value> emitLoops(OpBuilder &b, unsigned d, const Context &ctx,
                               const Lattice &lattice,
                               ArrayRef<unsigned> participants,
                               ArrayRef<Value> begin, ArrayRef<Value> end,
                               Value extent, ValueRange out);
  /// A keyed min/max reduction's loop, chosen per result point by the
  /// length of its ranges: short ones accumulate floats (see fastFloat),
  /// long ones keys.
  SmallVector<Value> emitKeyedDispatch(OpBuilder &b, unsigned d,
                                       const Context &ctx,
                                       const Lattice &lattice,
                                       ArrayRef<unsigned> participants,
                                       ArrayRef<Value> begin,
                                       ArrayRef<Value> end, Value extent,
                                       ValueRange out);
  /// for x in [0, extent) carrying `init` (the reduction's state from
  /// `stateOffset` on); a while loop instead when the reduction may exit
  /// early. `body` returns the values to carry on.
  SmallVector<Value> emitCountedLoop(
      OpBuilder &b, Value extent, ValueRange init, unsigned stateOffset,
      function_ref<SmallVector<Value>(OpBuilder &, Location, Value, ValueRange)>
          body);
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
  SmallVector<Value> emitCompute(OpBuilder &b, const Context &ctx,
                                 bool omitter, ValueRange out);
  /// Resolves the levels of input k that need no iteration: constant
  /// coordinates and full levels whose loop is below `boundLoops`.
  void locateLevels(OpBuilder &b, Context &ctx, unsigned k,
                    unsigned boundLoops);
  void searchLevel(OpBuilder &b, Context &ctx, unsigned k);
  /// The segment of input k's next level under its current position.
  std::pair<Value, Value> initSegment(OpBuilder &b, const Context &ctx,
                                      unsigned k);
  SmallVector<Value> storeResult(OpBuilder &b, const Context &ctx, Value v,
                                 ValueRange out);
  /// The kernel's value (`root` null) or the value of `root`, from the
  /// inputs' values; `given` maps values computed already (a reduction's
  /// result).
  Value emitBody(OpBuilder &b, uint64_t absent, ArrayRef<Value> inputValues,
                 Value root = Value(), const IRMapping *given = nullptr);
  /// What happens at the innermost loop of the current nest: compute and
  /// store a result entry, or accumulate one point of the reduction.
  SmallVector<Value> emitLeaf(OpBuilder &b, const Context &ctx, bool omitter,
                              ValueRange out) {
    return inReduction ? emitCombine(b, ctx, omitter, out)
                       : emitCompute(b, ctx, omitter, out);
  }
  /// The reduction at one result point: its loop nest (loops rank..N-1)
  /// and the finishing of its accumulator (seed 000 §7.2).
  Value emitReduction(OpBuilder &b, const Context &ctx);
  SmallVector<Value> emitCombine(OpBuilder &b, const Context &ctx,
                                 bool omitter, ValueRange state);
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
  bool mayExitEarly() {
    return inReduction && reductionPlan.annihilator && reduction.getEarlyExit();
  }
  /// A loop condition, also requiring the accumulator (first in `state`)
  /// not to hold the annihilator when the reduction may exit early.
  Value withEarlyExit(OpBuilder &b, Location l, Value cond, ValueRange state) {
    if (!mayExitEarly())
      return cond;
    return arith::AndIOp::create(b, l, cond, emitNotAnnihilated(b, l, state));
  }
  FailureOr<Value> inlineCall(OpBuilder &b, FuncOp func, ValueRange args,
                              Region *region, unsigned depth);
  IterationAlgebra algebraWithout(uint64_t absent) const;
  /// The buffers of level `l` of `array` its iterator reads (the extent of
  /// its dimension for full levels).
  LevelBuffers fetchLevelBuffers(OpBuilder &b, Value array, unsigned l);
  Value ensureCapacity(OpBuilder &b, Value buffer, Value needed);
  /// A fresh output buffer of `size` elements.
  Value allocOutput(OpBuilder &b, MemRefType type, Value size);
  SmallVector<Value> extentsInDimOrder() const {
    SmallVector<Value> dims(rank);
    for (unsigned d = 0; d < rank; ++d)
      dims[loopDim[d]] = extents[d];
    return dims;
  }

  KernelOp kernel;
  Location loc;
  SymbolTableCollection &symbols;
  Evaluator evaluator;
  AlgebraDerivation derivation;
  /// Row-wise products: "auto" (chosen at run time), "dense" or "hash".
  StringRef workspaceMode;
  bool hadError = false;

  unsigned rank = 0;
  /// Loops: the result's levels, then the reduction's variables.
  unsigned numLoops = 0;
  /// The loop after the innermost one of the nest being emitted: rank for
  /// the result's loops, numLoops inside the reduction.
  unsigned nestEnd = 0;
  bool inReduction = false;
  /// Set while emitting a reduction at a result point that may lie outside
  /// the kernel's space (a mask): the reduction's outermost loop collapses
  /// its ranges to nothing where this i1 is false (see emitCompute).
  Value rangeGuard;
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
  /// Set while emitting the short-range variant of a keyed reduction: the
  /// accumulator is the float itself, combined by one compare and select
  /// (v < acc ? v : acc; a vminsd), with the NaN flag as for keys. Exact
  /// unless the result is a zero (the select keeps the first of -0.0 and
  /// +0.0): that case is recomputed with keys. Keys vectorize on long
  /// ranges; on ranges of a few entries their encoding costs more than
  /// the loop (tropical mxv on cryg2500, 5 entries a row: 11.7 -> 9.5 us
  /// in C).
  bool fastFloat = false;
  /// Index of the visited-points count in the reduction's state.
  unsigned countIndex() const { return keyed ? 2 : 1; }
  Value toKey(OpBuilder &b, Value v);
  Value fromKey(OpBuilder &b, Value key);
  ArrayType resultType;
  TypedAttr resultFill;
  IterationAlgebra algebra = IterationAlgebra::universe();
  SmallVector<unsigned> loopDim; // result dimension of each loop
  SmallVector<Value> extents;    // per loop
  SmallVector<Input> inputs;

  // Output.
  SmallVector<OutputLevel> outLevels;
  bool denseOutput = false;
  Value denseValues; // all-dense result
  int valuesSlot = -1;
  SmallVector<Value> initialOut;
};

IterationAlgebra KernelLowering::algebraWithout(uint64_t absent) const {
  IterationAlgebra a = algebra;
  for (unsigned k = 0; k < inputs.size(); ++k)
    if (absent >> k & 1)
      a = removeOperand(a, k);
  return a.normalize();
}

LevelBuffers KernelLowering::fetchLevelBuffers(OpBuilder &b, Value array,
                                               unsigned l) {
  auto type = cast<ArrayType>(array.getType());
  FormatAttr format = type.getFormat();
  LevelSpec spec = format.getLevels()[l];
  const LevelFormat *lf = spec.format;
  LevelBuffers buffers;
  if (spec.isFull()) {
    unsigned dim = format.getLevelDim(l);
    buffers.size =
        ShapedType::isDynamic(type.getShape()[dim])
            ? Value(DimOp::create(b, loc, array, static_cast<int64_t>(dim)))
            : constIndex(b, loc, type.getShape()[dim]);
    return buffers;
  }
  auto widthType = [&](unsigned w) {
    return MemRefType::get({ShapedType::kDynamic}, b.getIntegerType(w));
  };
  if (lf->hasPositionsBuffer())
    buffers.positions =
        PositionsOp::create(b, loc, widthType(format.getPosWidth()), array, l);
  if (lf->hasCoordinatesBuffer())
    buffers.coordinates = CoordinatesOp::create(
        b, loc, widthType(format.getCrdWidth()), array, l);
  return buffers;
}

LogicalResult KernelLowering::analyze(OpBuilder &b) {
  auto fail = [&](const Twine &message) {
    kernel.emitError() << message;
    return failure();
  };
  if (!kernel.getAlgebra() || !kernel.getFill())
    return fail("kernel has no derived iteration algebra; run "
                "--sparse-array-derive-algebra first");
  algebra = kernel.getAlgebra()->getAlgebra();
  resultType = kernel.getResultType();
  resultFill = resultType.getFillValue();
  rank = resultType.getRank();
  numLoops = kernel.getNumIndices();
  nestEnd = rank;
  if (kernel.getInputs().size() >= kMaxLatticeOperands)
    return fail("kernel has too many inputs");
  if (!kernel.getLattices())
    return fail("kernel has no coiteration lattices; run "
                "--sparse-array-build-lattices first");
  for (Operation &op : kernel.getBody().front()) {
    if (auto reduce = dyn_cast<ReduceOverOp>(op)) {
      if (reduction)
        return fail("cannot lower more than one sparse_array.reduce_over per "
                    "kernel yet");
      if (!reduce.getStrategy())
        return fail("sparse_array.reduce_over has no strategy; run "
                    "--sparse-array-build-lattices first");
      reduction = reduce;
      continue;
    }
    if (!isa<AccessOp, ApplyOp, YieldOp, arith::ConstantOp>(op))
      return fail("cannot lower '" + op.getName().getStringRef() +
                  "' in a kernel body");
  }

  if (reduction) {
    // Everything the reduced value depends on stays inside the reduction.
    SetVector<Operation *> inside;
    (void)getBackwardSlice(reduction.getValue(), &inside);
    for (Operation *op : inside)
      if (isa<ReduceOverOp>(op))
        return fail("cannot lower nested sparse_array.reduce_over yet");
    reductionPlan = derivation.planReduction(kernel, reduction);
    speculatableBody = isSpeculatableKernel(kernel, symbols);
    combiner = symbols.lookupNearestSymbolFrom<FuncOp>(
        kernel, reduction.getCombinerAttr());
    Block &body = combiner.getBody().front();
    if (isa<Float32Type, Float64Type>(reduction.getType()) &&
        !reductionPlan.annihilator && body.getNumArguments() == 2 &&
        llvm::hasSingleElement(body.without_terminator())) {
      Operation &op = body.front();
      auto yield = cast<YieldOp>(body.getTerminator());
      bool onArgs = op.getNumOperands() == 2 &&
                    llvm::is_contained(op.getOperands(), body.getArgument(0)) &&
                    llvm::is_contained(op.getOperands(), body.getArgument(1)) &&
                    yield.getValue() == op.getResult(0);
      if (onArgs && isa<arith::MinimumFOp, arith::MaximumFOp>(op)) {
        keyed = true;
        keyedMax = isa<arith::MaximumFOp>(op);
      }
    }
  }

  FormatAttr resultFormat = resultType.getFormat();
  for (unsigned d = 0; d < rank; ++d)
    loopDim.push_back(resultFormat.getLevelDim(d));
  SmallVector<int> varLoop(numLoops);
  for (unsigned d = 0; d < rank; ++d)
    varLoop[loopDim[d]] = d;
  // Reduction variables: loops after the result's, in variable order.
  for (unsigned v = rank; v < numLoops; ++v)
    varLoop[v] = v;
  extents.assign(numLoops, Value());
  for (unsigned d = 0; d < rank; ++d) {
    int64_t size = resultType.getShape()[loopDim[d]];
    if (!ShapedType::isDynamic(size))
      extents[d] = constIndex(b, loc, size);
  }

  for (unsigned k = 0; k < kernel.getInputs().size(); ++k) {
    Input &in = inputs.emplace_back();
    in.type = cast<ArrayType>(kernel.getInputs()[k].getType());
    in.fill = in.type.getFillValue();
    AccessOp access = kernel.getAccessOf(k);
    if (!access)
      continue;
    in.used = true;
    for (Operation *user : kernel.getInputArg(k).getUsers())
      if (auto other = dyn_cast<AccessOp>(user))
        if (other.getIndices() != access.getIndices())
          return fail("input " + Twine(k) + " is accessed two ways");
    if (!access.getSlices().empty())
      for (unsigned dim = 0; dim < in.type.getRank(); ++dim)
        if (access.isSliced(dim))
          return fail("cannot lower a sliced access (input " + Twine(k) +
                      ") yet");
    Value array = kernel.getInputs()[k];
    FormatAttr format = in.type.getFormat();
    int lastLoop = -1;
    bool allFull = in.type.isAllDense();
    for (unsigned l = 0; l < format.getNumLevels(); ++l) {
      InputLevel &level = in.levels.emplace_back();
      level.spec = format.getLevels()[l];
      unsigned dim = format.getLevelDim(l);
      Value index = access.getIndices()[dim];
      if (auto arg = dyn_cast<BlockArgument>(index)) {
        level.loop = varLoop[arg.getArgNumber()];
        if (!extents[level.loop] &&
            !(in.type.getShape()[dim] == 1))
          extents[level.loop] =
              DimOp::create(b, loc, array, static_cast<int64_t>(dim));
      } else {
        IntegerAttr c;
        if (!matchPattern(index, m_Constant(&c)))
          return fail("input " + Twine(k) +
                      " is indexed by a value that is neither an index "
                      "variable nor a constant");
        level.constant = c.getInt();
      }
      if (level.loop >= 0 && !allFull && level.loop == lastLoop)
        return fail("input " + Twine(k) +
                    " repeats an index variable at two of its stored levels "
                    "(a diagonal such as A[i, i]); only arrays stored dense "
                    "may repeat one yet");
      if (level.loop >= 0 && !allFull) {
        if (level.loop <= lastLoop)
          return fail("input " + Twine(k) +
                      " is stored in an order the loops do not follow");
        lastLoop = level.loop;
      }
      level.iterator = LevelIteratorRegistry::create(
          level.spec, fetchLevelBuffers(b, array, l));
      if (!level.iterator)
        return fail("level format '" + level.spec.getName() +
                    "' has no iterator");
      if (l + 1 < format.getNumLevels() && !level.spec.unique &&
          format.getLevels()[l + 1].isFull())
        return fail("a full level below a non-unique one");
    }
    if (!in.levels.empty() && !in.levels.back().spec.unique)
      return fail("input " + Twine(k) + " has a non-unique innermost level");
    in.values = ValuesOp::create(
        b, loc,
        MemRefType::get({ShapedType::kDynamic}, in.type.getElementType()),
        array);
  }
  for (unsigned d = 0; d < numLoops; ++d)
    if (!extents[d])
      extents[d] = constIndex(b, loc, 1);
  // Sizes known only at run time must agree, or the loops would read past
  // the buffers of the smaller operand (static ones are verified).
  Type i64 = b.getI64Type();
  for (unsigned k = 0; k < inputs.size(); ++k) {
    AccessOp access = kernel.getAccessOf(k);
    if (!access)
      continue;
    for (auto [dim, index] : llvm::enumerate(access.getIndices())) {
      auto arg = dyn_cast<BlockArgument>(index);
      if (!arg)
        continue;
      unsigned d = varLoop[arg.getArgNumber()];
      bool staticInput = !inputs[k].type.isDynamicDim(dim);
      bool staticResult = d < rank ? !resultType.isDynamicDim(loopDim[d])
                                   : getConstantIntValue(extents[d]).has_value();
      if (staticInput && staticResult)
        continue;
      Value actual = DimOp::create(b, loc, kernel.getInputs()[k],
                                   static_cast<int64_t>(dim));
      auto toI64 = [&](Value v) {
        return arith::IndexCastOp::create(b, loc, i64, v);
      };
      Value args[] = {arith::ConstantIntOp::create(b, loc, i64, k),
                      arith::ConstantIntOp::create(b, loc, i64, dim),
                      toI64(actual), toI64(extents[d])};
      callRuntime(b, loc, kernel, "sa_rt_check_extent", {}, args);
    }
  }
  return success();
}

//===----------------------------------------------------------------------===//
// Output assembly (seed 002 §4.3: append in order)
//===----------------------------------------------------------------------===//

/// Whether the set lies within the union of its operands' stored entries
/// (no universe, no complement that escapes an intersection).
static bool withinStoredEntries(const IterationAlgebra &a) {
  switch (a.getKind()) {
  case IterationAlgebra::Kind::Empty:
  case IterationAlgebra::Kind::Leaf:
    return true;
  case IterationAlgebra::Kind::Universe:
  case IterationAlgebra::Kind::Complement:
    return false;
  case IterationAlgebra::Kind::Union:
    return llvm::all_of(a.getChildren(), withinStoredEntries);
  case IterationAlgebra::Kind::Intersection:
    return llvm::any_of(a.getChildren(), withinStoredEntries);
  }
  llvm_unreachable("unknown algebra kind");
}

Value KernelLowering::ensureCapacity(OpBuilder &b, Value buffer,
                                     Value needed) {
  if (capacityIsBound)
    return buffer;
  Value cap = memref::DimOp::create(b, loc, buffer, 0);
  Value full =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ugt, needed, cap);
  auto grow = scf::IfOp::create(
      b, loc, full,
      [&](OpBuilder &tb, Location l) {
        Value twice = arith::MulIOp::create(tb, l, cap, constIndex(tb, l, 2));
        Value size = arith::MaxUIOp::create(tb, l, twice, needed);
        Value bigger = memref::ReallocOp::create(
            tb, l, cast<MemRefType>(buffer.getType()), buffer, size);
        scf::YieldOp::create(tb, l, bigger);
      },
      [&](OpBuilder &eb, Location l) { scf::YieldOp::create(eb, l, buffer); });
  return grow.getResult(0);
}

Value KernelLowering::allocOutput(OpBuilder &b, MemRefType type,
                                  Value size) {
  Value buffer = memref::AllocOp::create(b, loc, type, ValueRange{size});
  // Written once, in order: ask for huge pages (runtime/lib/Memory.cpp).
  Type i64 = b.getI64Type();
  Value address = arith::IndexCastOp::create(
      b, loc, i64,
      memref::ExtractAlignedPointerAsIndexOp::create(b, loc, buffer));
  unsigned bytes = (type.getElementTypeBitWidth() + 7) / 8;
  Value total = arith::MulIOp::create(
      b, loc, arith::IndexCastOp::create(b, loc, i64, size),
      arith::ConstantIntOp::create(b, loc, i64, bytes));
  callRuntime(b, loc, kernel, "sa_rt_advise_sequential_buffer", {},
              {address, total});
  return buffer;
}

static void fillBuffer(OpBuilder &b, Location loc, Value buffer, Value from,
                       Value to, Value value) {
  scf::ForOp::create(b, loc, from, to, constIndex(b, loc, 1), ValueRange{},
                     [&](OpBuilder &fb, Location l, Value i, ValueRange) {
                       memref::StoreOp::create(fb, l, value, buffer, i);
                       scf::YieldOp::create(fb, l);
                     });
}

void KernelLowering::setUpOutput(OpBuilder &b) {
  FormatAttr format = resultType.getFormat();
  Type elt = resultType.getElementType();
  Value fill = arith::ConstantOp::create(b, loc, resultFill);
  denseOutput = resultType.isAllDense();
  if (denseOutput) {
    Value size = constIndex(b, loc, 1);
    for (Value e : ArrayRef(extents).take_front(rank))
      size = arith::MulIOp::create(b, loc, size, e);
    denseValues = allocOutput(
        b, MemRefType::get({ShapedType::kDynamic}, elt), size);
    fillBuffer(b, loc, denseValues, constIndex(b, loc, 0), size, fill);
    return;
  }
  // Initial capacity: the entries the inputs store (a union of them fits),
  // at least 16; buffers double when full. When the iteration space lies
  // within the inputs' stored entries and no input is broadcast (each binds
  // every loop), no level can have more entries than that: no checks.
  capacityIsBound =
      withinStoredEntries(algebra.normalize()) &&
      llvm::all_of(inputs, [&](const Input &in) {
        if (!in.used)
          return true;
        llvm::SmallBitVector bound(rank);
        for (const InputLevel &level : in.levels)
          if (level.loop >= 0 && static_cast<unsigned>(level.loop) < rank)
            bound.set(level.loop);
        return bound.all();
      });
  Value cap = constIndex(b, loc, 16);
  for (Input &in : inputs)
    if (in.used)
      cap = arith::AddIOp::create(b, loc, cap,
                                  memref::DimOp::create(b, loc, in.values, 0));
  // A sparse vector has at most one entry per coordinate: when its loop
  // visits every coordinate anyway (a lattice with U alone: mxv results,
  // masked vectors), its extent bounds it at no more memory than the work.
  bool visitsEveryCoordinate =
      rank == 1 &&
      llvm::any_of(kernel.getLattices()->getAsRange<LatticeAttr>(),
                   [](LatticeAttr lattice) {
                     return lattice.getLoop() == 0 &&
                            llvm::any_of(lattice.getPoints(),
                                         [](const LatticePoint &p) {
                                           return p.universe && !p.operands;
                                         });
                   });
  if (visitsEveryCoordinate) {
    cap = arith::MaxUIOp::create(b, loc, extents[0], constIndex(b, loc, 1));
    capacityIsBound = true;
    appendBranchFree = format.getLevels()[0].format->hasPositionsBuffer() &&
                       format.getLevels()[0].unique;
  }
  auto memrefOf = [&](Type t) {
    return MemRefType::get({ShapedType::kDynamic}, t);
  };
  Value denseParents = constIndex(b, loc, 1); // positions of a full prefix
  bool prefixFull = true;
  Value zero = constIndex(b, loc, 0);
  for (unsigned l = 0; l < format.getNumLevels(); ++l) {
    OutputLevel &ol = outLevels.emplace_back();
    ol.spec = format.getLevels()[l];
    if (ol.spec.isFull()) {
      denseParents = arith::MulIOp::create(b, loc, denseParents, extents[l]);
      continue;
    }
    prefixFull = false;
    ol.sparse = true;
    ol.hasPositions = ol.spec.format->hasPositionsBuffer();
    Type crdType = b.getIntegerType(format.getCrdWidth());
    Type posType = b.getIntegerType(format.getPosWidth());
    ol.crdSlot = initialOut.size();
    initialOut.push_back(
        allocOutput(b, memrefOf(crdType), cap));
    ol.countSlot = initialOut.size();
    initialOut.push_back(zero);
    if (ol.hasPositions) {
      // Parents: the full prefix's positions, or those appended above.
      bool parentAppended = l > 0 && outLevels[l - 1].sparse;
      Value size = parentAppended
                       ? arith::AddIOp::create(b, loc, cap,
                                               constIndex(b, loc, 1))
                       : arith::AddIOp::create(b, loc, denseParents,
                                               constIndex(b, loc, 1));
      ol.posSlot = initialOut.size();
      Value pos =
          allocOutput(b, memrefOf(posType), size);
      initialOut.push_back(pos);
    }
  }
  (void)prefixFull;
  // A full level below an appended one multiplies its entries by its
  // extent: the inputs' entry count no longer bounds the buffers.
  for (unsigned l = 1; l < outLevels.size(); ++l)
    if (outLevels[l - 1].sparse && !outLevels[l].sparse)
      capacityIsBound = false;
  {
    unsigned d = outLevels.size() - 1;
    bool allFullAbove = llvm::all_of(ArrayRef(outLevels).take_front(d),
                                     [](const OutputLevel &ol) { return !ol.sparse; });
    positionsAfterLoop = outLevels[d].hasPositions &&
                         ((d > 0 && outLevels[d - 1].sparse) || allFullAbove);
    everyParentVisited =
        positionsAfterLoop && allFullAbove &&
        llvm::all_of(kernel.getLattices()->getAsRange<LatticeAttr>(),
                     [&](LatticeAttr lattice) {
                       return lattice.getLoop() >= d ||
                              llvm::any_of(lattice.getPoints(),
                                           [](const LatticePoint &p) {
                                             return p.universe && !p.operands;
                                           });
                     });
  }
  // Positions start at 0; parents that might not be visited keep 0 until
  // finishOutput's running max.
  for (OutputLevel &ol : outLevels) {
    if (!ol.sparse || !ol.hasPositions)
      continue;
    Value pos = initialOut[ol.posSlot];
    Value zeroPos =
        arith::ConstantIntOp::create(b, loc, 0, format.getPosWidth());
    if (&ol == &outLevels.back() && everyParentVisited)
      memref::StoreOp::create(b, loc, zeroPos, pos, ValueRange{zero});
    else
      fillBuffer(b, loc, pos, zero, memref::DimOp::create(b, loc, pos, 0),
                 zeroPos);
  }
  valuesSlot = initialOut.size();
  initialOut.push_back(
      allocOutput(b, memrefOf(elt), cap));
}

SmallVector<Value> KernelLowering::storeResult(OpBuilder &b,
                                               const Context &ctx, Value v,
                                               ValueRange outIn) {
  SmallVector<Value> out(outIn);
  FormatAttr format = resultType.getFormat();
  // Coordinate of result level l = loop l.
  if (denseOutput) {
    Value q = constIndex(b, loc, 0);
    for (unsigned l = 0; l < rank; ++l)
      q = linearize(b, loc, q, extents[l], ctx.coords[l]);
    memref::StoreOp::create(b, loc, v, denseValues, q);
    return out;
  }
  Value differs = differsFrom(b, loc, v, resultFill);
  if (appendBranchFree) {
    const OutputLevel &ol = outLevels[0];
    Value count = out[ol.countSlot];
    Type crdType = b.getIntegerType(format.getCrdWidth());
    memref::StoreOp::create(
        b, loc, arith::IndexCastUIOp::create(b, loc, crdType, ctx.coords[0]),
        out[ol.crdSlot], count);
    memref::StoreOp::create(b, loc, v, out[valuesSlot], count);
    out[ol.countSlot] = arith::AddIOp::create(
        b, loc, count,
        arith::IndexCastUIOp::create(b, loc, b.getIndexType(), differs));
    return out;
  }
  auto branch = scf::IfOp::create(
      b, loc, differs,
      [&](OpBuilder &tb, Location l) {
        SmallVector<Value> o(out);
        Value one = constIndex(tb, l, 1);
        Value q = constIndex(tb, l, 0);
        for (unsigned lv = 0; lv < rank; ++lv) {
          OutputLevel &ol = outLevels[lv];
          Value c = ctx.coords[lv];
          if (!ol.sparse) {
            q = linearize(tb, l, q, extents[lv], c);
            continue;
          }
          Type crdType = b.getIntegerType(format.getCrdWidth());
          Value cc = arith::IndexCastUIOp::create(tb, l, crdType, c);
          Value count = o[ol.countSlot];
          // The storage below a new entry: the full levels directly below
          // multiply it by their extents; the next appended level's
          // positions there start at 0, and values there start as the fill.
          unsigned next = lv + 1;
          Value blockSize = one;
          while (next < rank && !outLevels[next].sparse)
            blockSize = arith::MulIOp::create(tb, l, blockSize,
                                              extents[next++]);
          int belowSlot = -1;
          if (next < rank && outLevels[next].hasPositions)
            belowSlot = outLevels[next].posSlot;
          else if (next == rank && next != lv + 1)
            belowSlot = valuesSlot;
          auto initBelow = [&](OpBuilder &ab, Location al, Value n) {
            Value hi = arith::MulIOp::create(ab, al, n, blockSize);
            Value lo = arith::SubIOp::create(ab, al, hi, blockSize);
            if (belowSlot == valuesSlot) {
              Value vals = ensureCapacity(ab, o[belowSlot], hi);
              fillBuffer(ab, al, vals, lo, hi,
                         arith::ConstantOp::create(ab, al, resultFill));
              return vals;
            }
            // positions[parent + 1] for every new parent
            hi = arith::AddIOp::create(ab, al, hi, one);
            lo = arith::AddIOp::create(ab, al, lo, one);
            Value pos = ensureCapacity(ab, o[belowSlot], hi);
            fillBuffer(ab, al, pos, lo, hi,
                       arith::ConstantIntOp::create(
                           ab, al, ab.getIntegerType(format.getPosWidth()), 0));
            return pos;
          };
          auto append = [&](OpBuilder &ab, Location al) {
            SmallVector<Value> r;
            Value n = arith::AddIOp::create(ab, al, count, one);
            Value crd = ensureCapacity(ab, o[ol.crdSlot], n);
            memref::StoreOp::create(ab, al, cc, crd, count);
            r = {crd, n};
            if (belowSlot >= 0)
              r.push_back(initBelow(ab, al, n));
            return r;
          };
          SmallVector<Value> appended;
          if (ol.hasPositions && ol.spec.unique && lv + 1 == rank) {
            // The innermost loop visits each coordinate of a parent once,
            // in order: nothing to merge with (the hot path).
            appended = append(tb, l);
          } else if (ol.hasPositions && ol.spec.unique) {
            // A new coordinate under parent q unless the last one appended
            // (under this parent) is c: positions[q + 1] != 0 says q has
            // children already.
            Value qp1 = arith::AddIOp::create(tb, l, q, one);
            Value posEnd = loadIndex(tb, l, o[ol.posSlot], qp1);
            Value has = arith::CmpIOp::create(tb, l, arith::CmpIPredicate::ne,
                                              posEnd, constIndex(tb, l, 0));
            Value same = emitGuardedCoordinateIs(
                tb, l, has, o[ol.crdSlot],
                arith::SubIOp::create(tb, l, count, one), c);
            auto branch = scf::IfOp::create(
                tb, l, same,
                [&](OpBuilder &sb, Location sl) {
                  SmallVector<Value> keep{o[ol.crdSlot], count};
                  if (belowSlot >= 0)
                    keep.push_back(o[belowSlot]);
                  scf::YieldOp::create(sb, sl, keep);
                },
                [&](OpBuilder &ab, Location al) {
                  scf::YieldOp::create(ab, al, append(ab, al));
                });
            appended = SmallVector<Value>(branch.getResults());
          } else if (ol.hasPositions) {
            // Non-unique: one position per entry.
            appended = append(tb, l);
          } else {
            // Singleton: the position is the parent's.
            Value needed = arith::AddIOp::create(tb, l, q, one);
            Value crd = ensureCapacity(tb, o[ol.crdSlot], needed);
            memref::StoreOp::create(tb, l, cc, crd, q);
            appended = {crd, needed};
            if (belowSlot >= 0)
              appended.push_back(initBelow(tb, l, needed));
          }
          Value newCount = appended[1];
          o[ol.crdSlot] = appended[0];
          o[ol.countSlot] = newCount;
          if (belowSlot >= 0)
            o[belowSlot] = appended[2];
          if (ol.hasPositions && !(lv + 1 == rank && positionsAfterLoop)) {
            Value qp1 = arith::AddIOp::create(tb, l, q, one);
            Type posType = b.getIntegerType(format.getPosWidth());
            memref::StoreOp::create(
                tb, l, arith::IndexCastUIOp::create(tb, l, posType, newCount),
                o[ol.posSlot], qp1);
          }
          q = arith::SubIOp::create(tb, l, newCount, one);
        }
        Value vals = ensureCapacity(tb, o[valuesSlot],
                                    arith::AddIOp::create(tb, l, q, one));
        memref::StoreOp::create(tb, l, v, vals, q);
        o[valuesSlot] = vals;
        scf::YieldOp::create(tb, l, o);
      },
      [&](OpBuilder &eb, Location l) { scf::YieldOp::create(eb, l, out); });
  return SmallVector<Value>(branch.getResults());
}

Value KernelLowering::finishOutput(OpBuilder &b, ValueRange out) {
  SmallVector<Value> buffers;
  if (denseOutput) {
    buffers.push_back(denseValues);
  } else {
    FormatAttr format = resultType.getFormat();
    Value one = constIndex(b, loc, 1);
    Value parents = one; // positions of the level above
    auto shrink = [&](Value buffer, Value size) {
      return memref::ReallocOp::create(
          b, loc, cast<MemRefType>(buffer.getType()), buffer, size);
    };
    for (unsigned l = 0; l < rank; ++l) {
      OutputLevel &ol = outLevels[l];
      if (!ol.sparse) {
        parents = arith::MulIOp::create(b, loc, parents, extents[l]);
        continue;
      }
      if (ol.hasPositions) {
        Value size = arith::AddIOp::create(b, loc, parents, one);
        Value pos = out[ol.posSlot];
        Type posType = b.getIntegerType(format.getPosWidth());
        // Parents without children kept 0: positions are the running max.
        if (!(l + 1 == rank && everyParentVisited))
          scf::ForOp::create(
            b, loc, one, size, one,
            ValueRange{arith::ConstantIntOp::create(b, loc, posType, 0)},
            [&](OpBuilder &fb, Location fl, Value i, ValueRange acc) {
              Value p = memref::LoadOp::create(fb, fl, pos, ValueRange{i});
              Value m = arith::MaxUIOp::create(fb, fl, p, acc[0]);
              memref::StoreOp::create(fb, fl, m, pos, i);
              scf::YieldOp::create(fb, fl, m);
            });
        buffers.push_back(shrink(pos, size));
      }
      buffers.push_back(shrink(out[ol.crdSlot], out[ol.countSlot]));
      parents = out[ol.countSlot];
    }
    buffers.push_back(shrink(out[valuesSlot], parents));
  }
  return AssembleOp::create(b, loc, resultType, buffers,
                            ValueRange(extentsInDimOrder()));
}


//===----------------------------------------------------------------------===//
// Loops (seed 000 §7.1)
//===----------------------------------------------------------------------===//

void KernelLowering::locateLevels(OpBuilder &b, Context &ctx, unsigned k,
                                  unsigned boundLoops) {
  Input &in = inputs[k];
  while (ctx.processed[k] < in.levels.size()) {
    InputLevel &level = in.levels[ctx.processed[k]];
    if (!level.iterator->canLocate()) {
      if (level.loop >= 0)
        return;
      searchLevel(b, ctx, k);
      continue;
    }
    Value crd;
    if (level.loop < 0)
      crd = constIndex(b, loc, level.constant);
    else if (static_cast<unsigned>(level.loop) < boundLoops)
      crd = ctx.coords[level.loop];
    else
      return;
    Value pos = level.iterator->locate(b, loc, ctx.lo[k], crd);
    ctx.lo[k] = pos;
    ctx.hi[k] = arith::AddIOp::create(b, loc, pos, constIndex(b, loc, 1));
    ++ctx.processed[k];
  }
}

/// After a constant coordinate was missed above (ctx.found[k] false), the
/// parent position is not one the level stores (a miss leaves the search's
/// end, and full levels below multiply it out of range): its positions are
/// not read then, and the segment is empty.
std::pair<Value, Value>
KernelLowering::initSegment(OpBuilder &b, const Context &ctx, unsigned k) {
  LevelIterator &it = *inputs[k].levels[ctx.processed[k]].iterator;
  if (!ctx.found[k])
    return it.init(b, loc, ctx.lo[k], ctx.hi[k]);
  auto guarded = scf::IfOp::create(
      b, loc, ctx.found[k],
      [&](OpBuilder &tb, Location l) {
        auto [begin, end] = it.init(tb, l, ctx.lo[k], ctx.hi[k]);
        scf::YieldOp::create(tb, l, ValueRange{begin, end});
      },
      [&](OpBuilder &eb, Location l) {
        Value zero = constIndex(eb, l, 0);
        scf::YieldOp::create(eb, l, ValueRange{zero, zero});
      });
  return {guarded.getResult(0), guarded.getResult(1)};
}

/// A constant coordinate into a level that stores coordinates (a sparse
/// array broadcast along a size-1 dimension): search the parent's segment
/// for it. Found: its segment; not found: an empty segment, and the input
/// is absent below (its value is the fill).
void KernelLowering::searchLevel(OpBuilder &b, Context &ctx, unsigned k) {
  Input &in = inputs[k];
  InputLevel &level = in.levels[ctx.processed[k]];
  auto [begin, end] = initSegment(b, ctx, k);
  Value target = constIndex(b, loc, level.constant);
  LevelIterator::SearchResult r =
      level.iterator->search(b, loc, begin, end, target);
  // The matching segment, or [first, first) when there is none.
  ctx.lo[k] = r.first;
  ctx.hi[k] = r.last;
  ctx.found[k] = ctx.found[k] ? Value(arith::AndIOp::create(b, loc,
                                                            ctx.found[k],
                                                            r.found))
                              : r.found;
  ++ctx.processed[k];
}

SmallVector<Value> KernelLowering::emitLoop(OpBuilder &b, unsigned d,
                                            const Context &ctx,
                                            ValueRange out) {
  SmallVector<Value> o = emitLoopBody(b, d, ctx, out);
  if (d + 1 != rank || !positionsAfterLoop)
    return o;
  // The innermost level's positions: stored once per parent, after its
  // loop, instead of with every entry (see positionsAfterLoop). Parents
  // never reached keep 0, fixed by finishOutput.
  const OutputLevel &last = outLevels[d];
  Value slot;
  if (d > 0 && outLevels[d - 1].sparse) {
    // The end of the parent level's last entry: this coordinate's entry
    // when it got children, otherwise an earlier parent whose end is the
    // unchanged count.
    slot = o[outLevels[d - 1].countSlot];
  } else {
    Value q = constIndex(b, loc, 0);
    for (unsigned lv = 0; lv < d; ++lv)
      q = linearize(b, loc, q, extents[lv], ctx.coords[lv]);
    slot = arith::AddIOp::create(b, loc, q, constIndex(b, loc, 1));
  }
  Type posType = b.getIntegerType(resultType.getFormat().getPosWidth());
  memref::StoreOp::create(
      b, loc, arith::IndexCastUIOp::create(b, loc, posType, o[last.countSlot]),
      o[last.posSlot], slot);
  return o;
}

SmallVector<Value> KernelLowering::emitLoopBody(OpBuilder &b, unsigned d,
                                                const Context &ctxIn,
                                                ValueRange out) {
  Context ctx = ctxIn;
  for (unsigned k = 0; k < inputs.size(); ++k)
    if (ctx.alive >> k & 1)
      locateLevels(b, ctx, k, d);

  // Inputs coiterated by this loop: their next level is bound here and
  // cannot be located.
  SmallVector<unsigned> participants;
  for (unsigned k = 0; k < inputs.size(); ++k) {
    if (!(ctx.alive >> k & 1))
      continue;
    Input &in = inputs[k];
    if (ctx.processed[k] < in.levels.size()) {
      InputLevel &level = in.levels[ctx.processed[k]];
      if (level.loop == static_cast<int>(d) && !level.iterator->canLocate())
        participants.push_back(k);
    }
  }
  // The plan sparse-array-build-lattices made for this loop and these
  // inputs (seed 000 §6).
  LatticeAttr plan;
  ArrayAttr lattices = *kernel.getLattices();
  for (Attribute a : lattices) {
    auto candidate = cast<LatticeAttr>(a);
    if (candidate.getLoop() == d && candidate.getPresentMask() == ctx.alive)
      plan = candidate;
  }
  if (!plan || plan.getCoiterated() != ArrayRef<unsigned>(participants)) {
    if (!hadError)
      kernel.emitError() << "kernel has no lattice for loop " << d
                         << " with inputs " << llvm::interleaved_array(participants)
                         << " coiterated; run --sparse-array-build-lattices";
    hadError = true;
    return SmallVector<Value>(out);
  }
  Lattice lattice = plan.getLattice();
  if (lattice.empty() && !plan.getLinear())
    return SmallVector<Value>(out);

  // Iterator ranges.
  unsigned n = participants.size();
  SmallVector<Value> begin(n), end(n);
  for (unsigned i = 0; i < n; ++i) {
    std::tie(begin[i], end[i]) = initSegment(b, ctx, participants[i]);
  }
  // A reduction at a point outside the kernel's space: nothing to visit.
  Value extent = extents[d];
  if (inReduction && d == rank && rangeGuard) {
    for (unsigned i = 0; i < n; ++i)
      end[i] = arith::SelectOp::create(b, loc, rangeGuard, end[i], begin[i]);
    extent = arith::SelectOp::create(b, loc, rangeGuard, extent,
                                     constIndex(b, loc, 0));
  }
  if (plan.getLinear())
    return emitMergedLoop(b, d, ctx, lattice, participants, begin, end, extent,
                          out, /*linear=*/true);
  if (inReduction && d == rank && keyed && n > 0 && !fastFloat)
    return emitKeyedDispatch(b, d, ctx, lattice, participants, begin, end,
                             extent, out);
  return emitLoops(b, d, ctx, lattice, participants, begin, end, extent, out);
}

SmallVector<Value> KernelLowering::emitKeyedDispatch(
    OpBuilder &b, unsigned d, const Context &ctx, const Lattice &lattice,
    ArrayRef<unsigned> participants, ArrayRef<Value> begin,
    ArrayRef<Value> end, Value extent, ValueRange out) {
  // The longest range: what the loop visits at most.
  Value len = constIndex(b, loc, 0);
  for (unsigned i = 0; i < participants.size(); ++i)
    len = arith::MaxUIOp::create(
        b, loc, len, arith::SubIOp::create(b, loc, end[i], begin[i]));
  Value isShort = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ule, len,
                                        constIndex(b, loc, 16));
  auto keyedLoops = [&](OpBuilder &kb) {
    return emitLoops(kb, d, ctx, lattice, participants, begin, end, extent,
                     out);
  };
  auto branch = scf::IfOp::create(
      b, loc, isShort,
      [&](OpBuilder &tb, Location l) {
        // Floats in, floats out; the state's other values pass unchanged.
        SmallVector<Value> in(out);
        in[0] = fromKey(tb, out[0]);
        fastFloat = true;
        SmallVector<Value> r = emitLoops(tb, d, ctx, lattice, participants,
                                         begin, end, extent, in);
        fastFloat = false;
        // A zero may have the wrong sign (and a NaN flag settles it all).
        Value zero = arith::CmpFOp::create(
            tb, l, arith::CmpFPredicate::OEQ, r[0],
            arith::ConstantOp::create(tb, l, tb.getFloatAttr(r[0].getType(), 0.0)));
        Value redo = arith::AndIOp::create(
            tb, l, zero,
            arith::XOrIOp::create(tb, l, r[1],
                                  arith::ConstantIntOp::create(tb, l, 1, 1)));
        auto exact = scf::IfOp::create(
            tb, l, redo,
            [&](OpBuilder &eb, Location) {
              scf::YieldOp::create(eb, l, keyedLoops(eb));
            },
            [&](OpBuilder &fb, Location) {
              SmallVector<Value> res(r);
              res[0] = toKey(fb, r[0]);
              scf::YieldOp::create(fb, l, res);
            });
        scf::YieldOp::create(tb, l, exact.getResults());
      },
      [&](OpBuilder &eb, Location l) {
        scf::YieldOp::create(eb, l, keyedLoops(eb));
      });
  return SmallVector<Value>(branch.getResults());
}

SmallVector<Value> KernelLowering::emitLoops(
    OpBuilder &b, unsigned d, const Context &ctx, const Lattice &lattice,
    ArrayRef<unsigned> participants, ArrayRef<Value> begin,
    ArrayRef<Value> end, Value extent, ValueRange out) {
  unsigned n = participants.size();
  auto iteratorOf = [&](unsigned i) -> LevelIterator & {
    unsigned k = participants[i];
    return *inputs[k].levels[ctx.processed[k]].iterator;
  };
  unsigned numOut = out.size();
  ArrayRef<LatticePoint> points = lattice.getPoints();

  // Outer loops need no per-point loops and cases (omitters descend like
  // producers there): one loop whose body descends with each input's
  // segment, empty where it does not match, keeps the code linear in the
  // number of loops instead of exponential. Needs every remaining level of
  // the coiterated inputs to be stored-coordinate levels, which iterate an
  // empty segment as nothing.
  bool merged = d + 1 < nestEnd && d + 1 != rank;
  for (unsigned k : participants)
    for (unsigned l = ctx.processed[k]; l < inputs[k].levels.size(); ++l)
      if (inputs[k].levels[l].iterator->canLocate())
        merged = false;
  if (merged)
    return emitMergedLoop(b, d, ctx, lattice, participants, begin, end, extent,
                          out);

  if (points.front().universe) {
    // U: every coordinate of the dimension, as an scf.for; the stored
    // operands advance when they match.
    SmallVector<Value> init(begin);
    init.append(out.begin(), out.end());
    SmallVector<Value> res = emitCountedLoop(
        b, extent, init, n,
        [&](OpBuilder &fb, Location l, Value x, ValueRange args) {
          SmallVector<Value> pos(args.take_front(n));
          SmallVector<Value> matched(n), segEnd(n);
          for (unsigned i = 0; i < n; ++i) {
            matched[i] =
                iteratorOf(i).matches(fb, l, begin[i], pos[i], end[i], x);
            segEnd[i] = iteratorOf(i).advance(fb, l, matched[i], pos[i],
                                    end[i]);
          }
          SmallVector<unsigned> subPoints = lattice.getSubPoints(0);
          SmallVector<Value> o =
              emitCases(fb, d, ctx, lattice, subPoints, 0, participants,
                        matched, pos, segEnd, x, args.drop_front(n));
          SmallVector<Value> yield(segEnd); // segEnd = pos when unmatched
          yield.append(o.begin(), o.end());
          return yield;
        });
    return SmallVector<Value>(ArrayRef(res).drop_front(n));
  }

  // One while-loop per lattice point, root first: each runs while all of
  // its operands have entries, then the next point's loop continues with
  // the positions reached (seed 000 §7.1).
  SmallVector<Value> pos(begin);
  SmallVector<Value> o(out);
  for (unsigned p = 0; p < points.size(); ++p) {
    SmallVector<unsigned> members; // indices into participants
    for (unsigned i = 0; i < n; ++i)
      if (points[p].hasOperand(participants[i]))
        members.push_back(i);
    SmallVector<Value> init(pos);
    init.append(o.begin(), o.end());
    SmallVector<Type> types = llvm::to_vector(ValueRange(init).getTypes());
    auto loop = scf::WhileOp::create(
        b, loc, types, init,
        [&](OpBuilder &bb, Location l, ValueRange args) {
          Value cond = arith::ConstantIntOp::create(bb, l, 1, 1);
          for (unsigned i : members)
            cond = arith::AndIOp::create(
                bb, l, cond, iteratorOf(i).valid(bb, l, args[i], end[i]));
          scf::ConditionOp::create(
              bb, l, withEarlyExit(bb, l, cond, args.drop_front(n)), args);
        },
        [&](OpBuilder &bb, Location l, ValueRange args) {
          SmallVector<Value> cur(args.take_front(n));
          SmallVector<Value> crd(n), matched(n), segEnd(n);
          Value x;
          for (unsigned i : members) {
            crd[i] = iteratorOf(i).coordinate(bb, l, begin[i], cur[i]);
            x = x ? arith::MinUIOp::create(bb, l, x, crd[i]) : crd[i];
          }
          Value f = arith::ConstantIntOp::create(bb, l, 0, 1);
          for (unsigned i = 0; i < n; ++i) {
            if (!llvm::is_contained(members, i)) {
              matched[i] = f;
              segEnd[i] = cur[i];
              continue;
            }
            matched[i] = arith::CmpIOp::create(bb, l, arith::CmpIPredicate::eq,
                                               crd[i], x);
          }
          SmallVector<unsigned> subPoints = lattice.getSubPoints(p);
          if (d + 1 == nestEnd) {
            // Innermost: each case advances what it matched (threadedEnds).
            SmallVector<Value> state(args.drop_front(n));
            state.append(cur.begin(), cur.end());
            threadedEnds = end;
            SmallVector<Value> res =
                emitCases(bb, d, ctx, lattice, subPoints, 0, participants,
                          matched, cur, cur, x, state);
            threadedEnds = {};
            SmallVector<Value> yield(ArrayRef(res).take_back(n));
            yield.append(res.begin(), res.end() - n);
            scf::YieldOp::create(bb, l, yield);
            return;
          }
          for (unsigned i : members)
            segEnd[i] = iteratorOf(i).advance(bb, l, matched[i], cur[i],
                                    end[i]);
          SmallVector<Value> res =
              emitCases(bb, d, ctx, lattice, subPoints, 0, participants,
                        matched, cur, segEnd, x, args.drop_front(n));
          SmallVector<Value> yield(segEnd);
          yield.append(res.begin(), res.end());
          scf::YieldOp::create(bb, l, yield);
        });
    pos = SmallVector<Value>(loop.getResults().take_front(n));
    o = SmallVector<Value>(loop.getResults().drop_front(n));
  }
  (void)numOut;
  return o;
}

SmallVector<Value> KernelLowering::emitCountedLoop(
    OpBuilder &b, Value extent, ValueRange init, unsigned stateOffset,
    function_ref<SmallVector<Value>(OpBuilder &, Location, Value, ValueRange)>
        body) {
  Value zero = constIndex(b, loc, 0), one = constIndex(b, loc, 1);
  // Without an early exit the trip count is known: scf.for.
  if (!mayExitEarly()) {
    auto loop = scf::ForOp::create(
        b, loc, zero, extent, one, init,
        [&](OpBuilder &fb, Location l, Value x, ValueRange args) {
          scf::YieldOp::create(fb, l, body(fb, l, x, args));
        });
    return SmallVector<Value>(loop.getResults());
  }
  // Every point, in order, until the accumulator holds the annihilator
  // (seed 000 §7.2: a universe reduction exits early too).
  SmallVector<Value> whileInit(init);
  whileInit.push_back(zero);
  SmallVector<Type> types = llvm::to_vector(ValueRange(whileInit).getTypes());
  auto loop = scf::WhileOp::create(
      b, loc, types, whileInit,
      [&](OpBuilder &bb, Location l, ValueRange args) {
        Value more = arith::CmpIOp::create(bb, l, arith::CmpIPredicate::ult,
                                           args.back(), extent);
        scf::ConditionOp::create(
            bb, l,
            withEarlyExit(bb, l, more,
                          args.drop_back().drop_front(stateOffset)),
            args);
      },
      [&](OpBuilder &bb, Location l, ValueRange args) {
        Value x = args.back();
        SmallVector<Value> yield = body(bb, l, x, args.drop_back());
        yield.push_back(arith::AddIOp::create(bb, l, x, one));
        scf::YieldOp::create(bb, l, yield);
      });
  return SmallVector<Value>(loop.getResults().drop_back());
}

SmallVector<Value> KernelLowering::emitMergedLoop(
    OpBuilder &b, unsigned d, const Context &ctx, const Lattice &lattice,
    ArrayRef<unsigned> participants, ArrayRef<Value> begin, ArrayRef<Value> end,
    Value extent, ValueRange out, bool linear) {
  unsigned n = participants.size();
  ArrayRef<LatticePoint> points = lattice.getPoints();
  bool universe = !points.empty() && points.front().universe;
  auto iteratorOf = [&](unsigned i) -> LevelIterator & {
    unsigned k = participants[i];
    return *inputs[k].levels[ctx.processed[k]].iterator;
  };
  // Whether some point has all its operands in `bits` (U always there).
  auto anyPoint = [&](OpBuilder &bb, Location l, ArrayRef<Value> bits) {
    Value any;
    if (linear) {
      for (Value bit : bits)
        any = any ? Value(arith::OrIOp::create(bb, l, any, bit)) : bit;
      return any;
    }
    for (const LatticePoint &p : points) {
      Value all = arith::ConstantIntOp::create(bb, l, 1, 1);
      for (unsigned i = 0; i < n; ++i)
        if (p.hasOperand(participants[i]))
          all = arith::AndIOp::create(bb, l, all, bits[i]);
      any = any ? Value(arith::OrIOp::create(bb, l, any, all)) : all;
    }
    return any;
  };
  // The body at coordinate x: descend where some point matches.
  auto body = [&](OpBuilder &bb, Location l, Value x, ArrayRef<Value> pos,
                  ArrayRef<Value> matched, ValueRange o) {
    SmallVector<Value> segEnd(n);
    for (unsigned i = 0; i < n; ++i)
      segEnd[i] = iteratorOf(i).advance(bb, l, matched[i], pos[i], end[i]);
    auto descend = [&](OpBuilder &tb, Location tl) -> SmallVector<Value> {
      Context inner = ctx;
      for (unsigned i = 0; i < n; ++i) {
        unsigned k = participants[i];
        // Unmatched: the empty segment [pos, pos). An input whose last
        // level this is has nothing below to find that segment empty
        // (it is broadcast along the inner loops): record the miss.
        inner.lo[k] = pos[i];
        inner.hi[k] = segEnd[i];
        // Linear: any level may lie below (a full one would locate a
        // position under the empty segment), so the miss is recorded
        // and reads below it are guarded (initSegment, the value load).
        if (ctx.processed[k] + 1 == inputs[k].levels.size() || linear)
          inner.found[k] = ctx.found[k] ? Value(arith::AndIOp::create(
                                              tb, tl, ctx.found[k], matched[i]))
                                        : matched[i];
        ++inner.processed[k];
      }
      inner.coords.push_back(x);
      for (unsigned k = 0; k < inputs.size(); ++k)
        if (inner.alive >> k & 1)
          locateLevels(tb, inner, k, d + 1);
      // Linear at the innermost loop: the function in general form,
      // every input present or its fill (no omitters to skip: a value
      // equal to the result's fill is not stored).
      if (d + 1 == nestEnd)
        return emitLeaf(tb, inner, /*omitter=*/false, o);
      return emitLoop(tb, d + 1, inner, o);
    };
    SmallVector<Value> yield(segEnd);
    if (linear) {
      // The loop's coordinate is one some input stores: always visited.
      SmallVector<Value> r = descend(bb, l);
      yield.append(r.begin(), r.end());
      return yield;
    }
    Value visit = anyPoint(bb, l, matched);
    auto branch = scf::IfOp::create(
        bb, l, visit,
        [&](OpBuilder &tb, Location tl) {
          scf::YieldOp::create(tb, tl, descend(tb, tl));
        },
        [&](OpBuilder &eb, Location el) { scf::YieldOp::create(eb, el, o); });
    yield.append(branch.getResults().begin(), branch.getResults().end());
    return yield;
  };
  auto validAndMatch = [&](OpBuilder &bb, Location l, ArrayRef<Value> pos,
                           Value x, SmallVectorImpl<Value> &matched) {
    for (unsigned i = 0; i < n; ++i)
      matched.push_back(
          iteratorOf(i).matches(bb, l, begin[i], pos[i], end[i], x));
  };
  SmallVector<Value> init(begin);
  init.append(out.begin(), out.end());
  if (universe) {
    SmallVector<Value> res = emitCountedLoop(
        b, extent, init, n,
        [&](OpBuilder &fb, Location l, Value x, ValueRange args) {
          SmallVector<Value> pos(args.take_front(n)), matched;
          validAndMatch(fb, l, pos, x, matched);
          return body(fb, l, x, pos, matched, args.drop_front(n));
        });
    return SmallVector<Value>(ArrayRef(res).drop_front(n));
  }
  SmallVector<Type> types = llvm::to_vector(ValueRange(init).getTypes());
  auto loop = scf::WhileOp::create(
      b, loc, types, init,
      [&](OpBuilder &bb, Location l, ValueRange args) {
        SmallVector<Value> valid;
        for (unsigned i = 0; i < n; ++i)
          valid.push_back(iteratorOf(i).valid(bb, l, args[i], end[i]));
        scf::ConditionOp::create(
            bb, l, withEarlyExit(bb, l, anyPoint(bb, l, valid), args.drop_front(n)),
            args);
      },
      [&](OpBuilder &bb, Location l, ValueRange args) {
        SmallVector<Value> pos(args.take_front(n));
        // x: the least coordinate among iterators with entries left.
        Value x = constIndex(bb, l, std::numeric_limits<int64_t>::max());
        for (unsigned i = 0; i < n; ++i) {
          Value valid = iteratorOf(i).valid(bb, l, pos[i], end[i]);
          auto c = scf::IfOp::create(
              bb, l, valid,
              [&](OpBuilder &tb, Location tl) {
                scf::YieldOp::create(
                    tb, tl, iteratorOf(i).coordinate(tb, tl, begin[i], pos[i]));
              },
              [&](OpBuilder &eb, Location el) {
                scf::YieldOp::create(eb, el, x);
              });
          x = arith::MinUIOp::create(bb, l, x, c.getResult(0));
        }
        SmallVector<Value> matched;
        validAndMatch(bb, l, pos, x, matched);
        scf::YieldOp::create(bb, l,
                             body(bb, l, x, pos, matched, args.drop_front(n)));
      });
  return SmallVector<Value>(loop.getResults().drop_front(n));
}

SmallVector<Value> KernelLowering::emitCases(
    OpBuilder &b, unsigned d, const Context &ctx, const Lattice &lattice,
    ArrayRef<unsigned> subPoints, unsigned next,
    ArrayRef<unsigned> participants, ArrayRef<Value> matched,
    ArrayRef<Value> pos, ArrayRef<Value> segEnd, Value x, ValueRange out) {
  unsigned n = participants.size();
  bool threaded = !threadedEnds.empty();
  auto iteratorOf = [&](unsigned i) -> LevelIterator & {
    unsigned k = participants[i];
    return *inputs[k].levels[ctx.processed[k]].iterator;
  };
  if (next == subPoints.size()) {
    if (!threaded)
      return SmallVector<Value>(out);
    // No case taken: still step past the matched entries.
    SmallVector<Value> r(out.drop_back(n));
    for (unsigned i = 0; i < n; ++i)
      r.push_back(iteratorOf(i).advance(b, loc, matched[i], pos[i],
                              threadedEnds[i]));
    return r;
  }
  const LatticePoint &point = lattice.getPoints()[subPoints[next]];
  auto emitCase = [&](OpBuilder &cb) -> SmallVector<Value> {
    // Threaded: this case matched exactly its point's operands, so it
    // advances them itself.
    SmallVector<Value> ends(segEnd);
    if (threaded)
      for (unsigned i = 0; i < n; ++i)
        if (point.hasOperand(participants[i]))
          ends[i] = iteratorOf(i).hasSegments()
                        ? iteratorOf(i).next(cb, loc, pos[i],
                                                   threadedEnds[i])
                        : arith::AddIOp::create(cb, loc, pos[i],
                                                constIndex(cb, loc, 1))
                              .getResult();
    Context inner = ctx;
    for (unsigned i = 0; i < n; ++i) {
      unsigned k = participants[i];
      if (point.hasOperand(k)) {
        inner.lo[k] = pos[i];
        inner.hi[k] = ends[i];
        ++inner.processed[k];
      } else {
        inner.alive &= ~(uint64_t(1) << k);
      }
    }
    inner.coords.push_back(x);
    for (unsigned k = 0; k < inputs.size(); ++k)
      if (inner.alive >> k & 1)
        locateLevels(cb, inner, k, d + 1);
    // Omitters skip only at the innermost loop: outer loops cannot know
    // whether the inner coordinates are omitted too (seed 000 §7.1).
    if (threaded) {
      SmallVector<Value> r =
          emitLeaf(cb, inner, !point.producer, out.drop_back(n));
      r.append(ends.begin(), ends.end());
      return r;
    }
    if (d + 1 == nestEnd)
      return emitLeaf(cb, inner, !point.producer, out);
    return emitLoop(cb, d + 1, inner, out);
  };
  Value cond;
  for (unsigned i = 0; i < participants.size(); ++i)
    if (point.hasOperand(participants[i]))
      cond = cond ? Value(arith::AndIOp::create(b, loc, cond, matched[i]))
                  : matched[i];
  if (!cond) // U alone: always taken.
    return emitCase(b);
  SmallVector<Type> types = llvm::to_vector(out.getTypes());
  auto branch = scf::IfOp::create(
      b, loc, cond,
      [&](OpBuilder &tb, Location l) {
        scf::YieldOp::create(tb, l, emitCase(tb));
      },
      [&](OpBuilder &eb, Location l) {
        scf::YieldOp::create(eb, l,
                             emitCases(eb, d, ctx, lattice, subPoints,
                                       next + 1, participants, matched, pos,
                                       segEnd, x, out));
      });
  (void)types;
  return SmallVector<Value>(branch.getResults());
}

//===----------------------------------------------------------------------===//
// Computation at a point
//===----------------------------------------------------------------------===//

/// Membership of `a` given one i1 per operand (null: not stored).
static Value emitMembership(OpBuilder &b, Location loc,
                            const IterationAlgebra &a,
                            ArrayRef<Value> defined) {
  using Kind = IterationAlgebra::Kind;
  auto constant = [&](bool v) -> Value {
    return arith::ConstantIntOp::create(b, loc, v, 1);
  };
  switch (a.getKind()) {
  case Kind::Empty:
    return constant(false);
  case Kind::Universe:
    return constant(true);
  case Kind::Leaf:
    return defined[a.getLeaf()] ? defined[a.getLeaf()] : constant(false);
  case Kind::Complement:
    return arith::XOrIOp::create(
        b, loc, emitMembership(b, loc, a.getChildren()[0], defined),
        constant(true));
  case Kind::Union:
  case Kind::Intersection: {
    Value acc;
    for (const IterationAlgebra &c : a.getChildren()) {
      Value v = emitMembership(b, loc, c, defined);
      acc = !acc ? v
            : a.getKind() == Kind::Union
                ? Value(arith::OrIOp::create(b, loc, acc, v))
                : Value(arith::AndIOp::create(b, loc, acc, v));
    }
    return acc;
  }
  }
  llvm_unreachable("unknown algebra kind");
}

SmallVector<Value> KernelLowering::loadInputValues(OpBuilder &b,
                                                   const Context &ctx,
                                                   uint64_t &absent) {
  absent = 0;
  SmallVector<Value> values(inputs.size());
  for (unsigned k = 0; k < inputs.size(); ++k) {
    Input &in = inputs[k];
    if (!in.used)
      continue;
    if (!(ctx.alive >> k & 1)) {
      absent |= uint64_t(1) << k;
      values[k] = arith::ConstantOp::create(b, loc, in.fill);
      continue;
    }
    // Levels left to iterate (in the reduction's loops): no value here.
    if (ctx.processed[k] < in.levels.size())
      continue;
    if (!ctx.found[k]) {
      values[k] =
          memref::LoadOp::create(b, loc, in.values, ValueRange{ctx.lo[k]});
      continue;
    }
    // A constant coordinate that may be missing: the fill then, and no
    // load past the segment.
    auto guarded = scf::IfOp::create(
        b, loc, ctx.found[k],
        [&](OpBuilder &tb, Location l) {
          scf::YieldOp::create(
              tb, l,
              memref::LoadOp::create(tb, l, in.values, ValueRange{ctx.lo[k]})
                  .getResult());
        },
        [&](OpBuilder &eb, Location l) {
          scf::YieldOp::create(
              eb, l, arith::ConstantOp::create(eb, l, in.fill).getResult());
        });
    values[k] = guarded.getResult(0);
  }
  return values;
}

SmallVector<Value> KernelLowering::emitCompute(OpBuilder &b,
                                               const Context &ctx,
                                               bool omitter, ValueRange out) {
  uint64_t absent = 0;
  SmallVector<Value> values = loadInputValues(b, ctx, absent);
  if (reduction) {
    auto computeReduced = [&](OpBuilder &cb) {
      IRMapping given;
      given.map(reduction.getResult(), emitReduction(cb, ctx));
      Value v = emitBody(cb, absent, values, Value(), &given);
      return storeResult(cb, ctx, v, out);
    };
    // Whether the point can differ from the fill is decided from the inputs
    // known here (a mask, dense or coiterated: seed 000 §7.2); those only
    // the reduction reads may or may not be there (eliminated). Points
    // ruled out never run their reduction.
    IterationAlgebra space = algebraWithout(absent);
    for (unsigned k : space.getLeaves())
      if (!values[k])
        space = eliminateOperand(space, k);
    space = space.normalize();
    if (space.isUniverse() || (!omitter && space.getLeaves().empty()))
      return computeReduced(b);
    if (!speculatableBody || denseOutput)
      return emitIfMember(b, space, values, absent, out, computeReduced);
    // Branch-free: a point outside the space reduces over nothing (its
    // loops' ranges collapse) and stores the fill, which appends nothing.
    // A mask and the emptiness of a row are then one loop-entry test
    // instead of two unpredictable branches per row (BFS pull's rows are
    // a few entries long; the branches cost more than the work).
    Value inside = emitIsMember(b, space, values, absent);
    rangeGuard = inside;
    IRMapping given;
    given.map(reduction.getResult(), emitReduction(b, ctx));
    rangeGuard = Value();
    Value v = emitBody(b, absent, values, Value(), &given);
    Value fill = arith::ConstantOp::create(b, loc, resultFill);
    v = arith::SelectOp::create(b, loc, inside, v, fill);
    return storeResult(b, ctx, v, out);
  }
  auto compute = [&](OpBuilder &cb) {
    Value v = emitBody(cb, absent, values);
    return storeResult(cb, ctx, v, out);
  };
  if (!omitter)
    return compute(b);
  // An omitter at the innermost loop: skip only if the stored entries are
  // not explicit fill values (thesis 003 §6.2.1): an entry equal to its
  // array's fill is treated as absent.
  return emitIfMember(b, algebraWithout(absent), values, absent, out,
                      compute);
}

SmallVector<Value> KernelLowering::emitIfMember(
    OpBuilder &b, const IterationAlgebra &space, ArrayRef<Value> values,
    uint64_t absent, ValueRange otherwise,
    function_ref<SmallVector<Value>(OpBuilder &)> then) {
  Value inside = emitIsMember(b, space, values, absent);
  auto branch = scf::IfOp::create(
      b, loc, inside,
      [&](OpBuilder &tb, Location l) { scf::YieldOp::create(tb, l, then(tb)); },
      [&](OpBuilder &eb, Location l) {
        scf::YieldOp::create(eb, l, otherwise);
      });
  return SmallVector<Value>(branch.getResults());
}

Value KernelLowering::emitIsMember(OpBuilder &b,
                                   const IterationAlgebra &space,
                                   ArrayRef<Value> values, uint64_t absent) {
  SmallVector<Value> defined(inputs.size());
  for (unsigned k : space.getLeaves())
    if (values[k] && !(absent >> k & 1))
      defined[k] = differsFrom(b, loc, values[k], inputs[k].fill);
  return emitMembership(b, loc, space, defined);
}

//===----------------------------------------------------------------------===//
// Reductions (seed 000 §7.2; thesis §6.3)
//===----------------------------------------------------------------------===//

// bits, with the magnitude bits flipped for negative values: signed integer
// order is then IEEE total order (-0.0 < +0.0). An involution.
Value KernelLowering::toKey(OpBuilder &b, Value v) {
  unsigned width = v.getType().getIntOrFloatBitWidth();
  Type it = b.getIntegerType(width);
  Value bits = arith::BitcastOp::create(b, loc, it, v);
  Value sign = arith::ShRSIOp::create(
      b, loc, bits, arith::ConstantIntOp::create(b, loc, it, width - 1));
  Value mask = arith::ShRUIOp::create(
      b, loc, sign, arith::ConstantIntOp::create(b, loc, it, 1));
  return arith::XOrIOp::create(b, loc, bits, mask);
}

Value KernelLowering::fromKey(OpBuilder &b, Value key) {
  unsigned width = key.getType().getIntOrFloatBitWidth();
  Type it = key.getType();
  Value sign = arith::ShRSIOp::create(
      b, loc, key, arith::ConstantIntOp::create(b, loc, it, width - 1));
  Value mask = arith::ShRUIOp::create(
      b, loc, sign, arith::ConstantIntOp::create(b, loc, it, 1));
  Value bits = arith::XOrIOp::create(b, loc, key, mask);
  return arith::BitcastOp::create(b, loc, reduction.getType(), bits);
}

Value KernelLowering::emitCombinerCall(OpBuilder &b, Value acc, Value v) {
  SmallVector<int32_t> both = {0, 1};
  FailureOr<Value> r =
      inlineCall(b, combiner, ValueRange{acc, v}, combiner.getCaseFor(both), 0);
  if (failed(r)) {
    hadError = true;
    return acc;
  }
  return *r;
}

Value KernelLowering::emitNotAnnihilated(OpBuilder &b, Location l,
                                         ValueRange state) {
  TypedAttr ann = reductionPlan.annihilator;
  Value acc = state[0];
  Value differs;
  if (auto f = dyn_cast<FloatAttr>(ann)) {
    if (f.getValue().isNaN())
      differs = arith::CmpFOp::create(b, l, arith::CmpFPredicate::ORD, acc, acc);
    else
      differs = arith::CmpFOp::create(b, l, arith::CmpFPredicate::UNE, acc,
                                      arith::ConstantOp::create(b, l, ann));
  } else {
    differs = arith::CmpIOp::create(b, l, arith::CmpIPredicate::ne, acc,
                                    arith::ConstantOp::create(b, l, ann));
  }
  // Without an identity the accumulator means nothing before the first
  // point.
  if (state.size() > countIndex() && !reductionPlan.identity)
    differs = arith::OrIOp::create(
        b, l, differs,
        arith::CmpIOp::create(b, l, arith::CmpIPredicate::eq, state[countIndex()],
                              constIndex(b, l, 0)));
  return differs;
}

Value KernelLowering::emitReduction(OpBuilder &b, const Context &ctx) {
  Type t = reduction.getType();
  auto constant = [&](OpBuilder &cb, TypedAttr a) -> Value {
    return arith::ConstantOp::create(cb, loc, a);
  };
  // Inputs absent at this result point may make the reduction a constant.
  const DerivedSpace &space = derivation.derive(kernel, reduction.getResult());
  if (space.fill) {
    IterationAlgebra a = space.algebra;
    for (unsigned k = 0; k < inputs.size(); ++k)
      if (inputs[k].used && !(ctx.alive >> k & 1))
        a = removeOperand(a, k);
    if (a.normalize().isEmpty())
      return constant(b, space.fill);
  }
  using Strategy = ReductionPlan::Strategy;
  bool counting = reductionPlan.strategy != Strategy::Identity;
  TypedAttr zero = isa<FloatType>(t) ? TypedAttr(b.getFloatAttr(t, 0.0))
                                     : TypedAttr(b.getIntegerAttr(t, 0));
  TypedAttr start = reductionPlan.identity     ? reductionPlan.identity
                    : reductionPlan.valueFill ? reductionPlan.valueFill
                                              : zero;
  SmallVector<Value> state = {constant(b, start)};
  if (keyed) {
    state[0] = toKey(b, state[0]);
    state.push_back(arith::ConstantIntOp::create(b, loc, 0, 1)); // NaN seen
  }
  if (counting)
    state.push_back(constIndex(b, loc, 0));
  // The reduction's loops are a nest of their own: the enclosing result
  // loop's threaded cases do not reach into them.
  unsigned savedEnd = nestEnd;
  ArrayRef<Value> savedThreaded = threadedEnds;
  nestEnd = numLoops;
  inReduction = true;
  threadedEnds = {};
  SmallVector<Value> res = emitLoop(b, rank, ctx, state);
  threadedEnds = savedThreaded;
  inReduction = false;
  nestEnd = savedEnd;
  Value acc = res[0];
  if (keyed) {
    Value nan = arith::ConstantOp::create(
        b, loc, b.getFloatAttr(t, APFloat::getNaN(
                                      cast<FloatType>(t).getFloatSemantics())));
    acc = arith::SelectOp::create(b, loc, res[1], nan, fromKey(b, acc));
  }
  if (!counting)
    return acc;
  Value count = res[countIndex()];
  Value total = constIndex(b, loc, 1);
  for (unsigned d = rank; d < numLoops; ++d)
    total = arith::MulIOp::create(b, loc, total, extents[d]);
  if (reductionPlan.strategy == Strategy::Reassociate) {
    // The points not visited hold the fill: acc ⊕ fill^(total - count),
    // the power by repeated squaring (associativity regroups the fold,
    // commutativity moves the fills to the end).
    Value zero = constIndex(b, loc, 0), one = constIndex(b, loc, 1);
    Value missing = arith::SubIOp::create(b, loc, total, count);
    Value fill = constant(b, reductionPlan.valueFill);
    Value f = arith::ConstantIntOp::create(b, loc, 0, 1);
    // (k, base, power, has power): power = base^(bits of k consumed).
    SmallVector<Value> init = {missing, fill, fill, f};
    auto loop = scf::WhileOp::create(
        b, loc, ValueRange(init).getTypes(), init,
        [&](OpBuilder &wb, Location l, ValueRange args) {
          scf::ConditionOp::create(
              wb, l,
              arith::CmpIOp::create(wb, l, arith::CmpIPredicate::ne, args[0],
                                    zero),
              args);
        },
        [&](OpBuilder &wb, Location l, ValueRange args) {
          Value k = args[0], base = args[1], power = args[2], has = args[3];
          Value odd = arith::CmpIOp::create(
              wb, l, arith::CmpIPredicate::ne,
              arith::AndIOp::create(wb, l, k, one), zero);
          // Only combinations the grouping needs are evaluated.
          auto take = scf::IfOp::create(
              wb, l, odd,
              [&](OpBuilder &tb, Location tl) {
                Value both = scf::IfOp::create(
                                 tb, tl, has,
                                 [&](OpBuilder &hb, Location hl) {
                                   scf::YieldOp::create(
                                       hb, hl,
                                       emitCombinerCall(hb, power, base));
                                 },
                                 [&](OpBuilder &nb, Location nl) {
                                   scf::YieldOp::create(nb, nl, base);
                                 })
                                 .getResult(0);
                scf::YieldOp::create(tb, tl, both);
              },
              [&](OpBuilder &eb, Location el) {
                scf::YieldOp::create(eb, el, power);
              });
          Value rest = arith::ShRUIOp::create(wb, l, k, one);
          Value square =
              scf::IfOp::create(
                  wb, l,
                  arith::CmpIOp::create(wb, l, arith::CmpIPredicate::ne, rest,
                                        zero),
                  [&](OpBuilder &tb, Location tl) {
                    scf::YieldOp::create(tb, tl,
                                         emitCombinerCall(tb, base, base));
                  },
                  [&](OpBuilder &eb, Location el) {
                    scf::YieldOp::create(eb, el, base);
                  })
                  .getResult(0);
          Value hasNow = arith::OrIOp::create(wb, l, has, odd);
          scf::YieldOp::create(
              wb, l, ValueRange{rest, square, take.getResult(0), hasNow});
        });
    Value power = loop.getResult(2);
    Value none = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq,
                                       missing, zero);
    Value noneVisited =
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, count, zero);
    // Nothing missing: acc. Nothing visited: the power (an empty range
    // keeps the start value). Else both.
    auto fix = scf::IfOp::create(
        b, loc, none,
        [&](OpBuilder &tb, Location l) { scf::YieldOp::create(tb, l, acc); },
        [&](OpBuilder &eb, Location l) {
          auto both = scf::IfOp::create(
              eb, l, noneVisited,
              [&](OpBuilder &nb, Location nl) {
                scf::YieldOp::create(nb, nl, power);
              },
              [&](OpBuilder &cb, Location cl) {
                scf::YieldOp::create(cb, cl,
                                     emitCombinerCall(cb, acc, power));
              });
          scf::YieldOp::create(eb, l, both.getResult(0));
        });
    return fix.getResult(0);
  }
  if (reductionPlan.strategy == Strategy::Idempotent) {
    // Some point was not visited: it holds the fill; once is enough.
    Value missing =
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, count, total);
    auto fix = scf::IfOp::create(
        b, loc, missing,
        [&](OpBuilder &tb, Location l) {
          Value fill = constant(tb, reductionPlan.valueFill);
          Value first = arith::CmpIOp::create(tb, l, arith::CmpIPredicate::eq,
                                              count, constIndex(tb, l, 0));
          Value combined = emitCombinerCall(tb, acc, fill);
          scf::YieldOp::create(
              tb, l, arith::SelectOp::create(tb, l, first, fill, combined)
                         .getResult());
        },
        [&](OpBuilder &eb, Location l) { scf::YieldOp::create(eb, l, acc); });
    return fix.getResult(0);
  }
  return acc;
}

SmallVector<Value> KernelLowering::emitCombine(OpBuilder &b,
                                               const Context &ctx,
                                               bool omitter,
                                               ValueRange state) {
  uint64_t absent = 0;
  SmallVector<Value> values = loadInputValues(b, ctx, absent);
  bool counting = state.size() > countIndex();
  auto combineAt = [&](OpBuilder &cb) {
    Value v = emitBody(cb, absent, values, reduction.getValue());
    SmallVector<Value> r;
    Value next, first;
    if (keyed && fastFloat) {
      first = v;
      Value better = arith::CmpFOp::create(
          cb, loc,
          keyedMax ? arith::CmpFPredicate::OGT : arith::CmpFPredicate::OLT, v,
          state[0]);
      next = arith::SelectOp::create(cb, loc, better, v, state[0]);
    } else if (keyed) {
      first = toKey(cb, v);
      next = keyedMax ? Value(arith::MaxSIOp::create(cb, loc, state[0], first))
                      : Value(arith::MinSIOp::create(cb, loc, state[0], first));
    } else {
      first = v;
      next = emitCombinerCall(cb, state[0], v);
    }
    if (counting && !reductionPlan.identity)
      next = arith::SelectOp::create(
          cb, loc,
          arith::CmpIOp::create(cb, loc, arith::CmpIPredicate::eq,
                                state[countIndex()], constIndex(cb, loc, 0)),
          first, next);
    r.push_back(next);
    if (keyed)
      r.push_back(arith::OrIOp::create(
          cb, loc, state[1],
          arith::CmpFOp::create(cb, loc, arith::CmpFPredicate::UNO, v, v)));
    if (counting)
      r.push_back(arith::AddIOp::create(cb, loc, state[countIndex()],
                                        constIndex(cb, loc, 1)));
    return r;
  };
  if (!omitter)
    return combineAt(b);
  // An omitted point holds the value's fill unless a stored entry is an
  // explicit fill (thesis §6.2.1): then it is combined after all.
  IterationAlgebra space = reductionPlan.algebra;
  for (unsigned k = 0; k < inputs.size(); ++k)
    if (absent >> k & 1)
      space = removeOperand(space, k);
  return emitIfMember(b, space.normalize(), values, absent, state, combineAt);
}

/// The fill a function's case regions assume for argument `i`: its explicit
/// algebra's, else zero (thesis 003 §6.2.3).
static TypedAttr caseFill(FuncOp func, unsigned i) {
  if (auto algebra = func.getAlgebraAttr())
    if (i < algebra.getFills().size())
      return algebra.getFills()[i];
  Type t = func.getArgumentTypes()[i];
  Builder b(func.getContext());
  if (isa<FloatType>(t))
    return b.getFloatAttr(t, 0.0);
  return b.getIntegerAttr(t, 0);
}

Value KernelLowering::emitBody(OpBuilder &b, uint64_t absent,
                               ArrayRef<Value> inputValues, Value root,
                               const IRMapping *given) {
  IRMapping map;
  // Only what the result depends on, not through values given already (a
  // reduction's operands are not available outside it).
  Block &body = kernel.getBody().front();
  Value target = root ? root : cast<YieldOp>(body.getTerminator()).getValue();
  DenseSet<Operation *> needed;
  SmallVector<Value> work = {target};
  while (!work.empty()) {
    Value v = work.pop_back_val();
    Operation *def = v.getDefiningOp();
    if (!def || def->getBlock() != &body || needed.contains(def))
      continue;
    needed.insert(def);
    if (given && given->contains(v))
      continue;
    for (Value operand : def->getOperands())
      work.push_back(operand);
  }
  DenseMap<Value, TypedAttr> known; // values fixed by absent operands
  auto staticValue = [&](Value v) -> TypedAttr {
    const DerivedSpace &space = derivation.derive(kernel, v);
    if (!space.fill)
      return {};
    IterationAlgebra a = space.algebra;
    for (unsigned k = 0; k < inputs.size(); ++k)
      if (absent >> k & 1)
        a = removeOperand(a, k);
    return a.normalize().isEmpty() ? space.fill : TypedAttr();
  };
  for (Operation &op : kernel.getBody().front()) {
    if (auto yield = dyn_cast<YieldOp>(op))
      return map.lookup(root ? root : yield.getValue());
    if (!needed.contains(&op))
      continue;
    if (given && op.getNumResults() == 1 && given->contains(op.getResult(0))) {
      map.map(op.getResult(0), given->lookup(op.getResult(0)));
      continue;
    }
    if (auto access = dyn_cast<AccessOp>(op)) {
      unsigned k =
          cast<BlockArgument>(access.getArray()).getArgNumber() -
          kernel.getNumIndices();
      map.map(access.getResult(), inputValues[k]);
      if (absent >> k & 1)
        known[access.getResult()] = inputs[k].fill;
      continue;
    }
    if (auto apply = dyn_cast<ApplyOp>(op)) {
      if (TypedAttr fixed = staticValue(apply.getResult())) {
        known[apply.getResult()] = fixed;
        map.map(apply.getResult(), arith::ConstantOp::create(b, loc, fixed));
        continue;
      }
      auto func = symbols.lookupNearestSymbolFrom<FuncOp>(
          kernel, apply.getCalleeAttr());
      SmallVector<Value> args;
      SmallVector<int32_t> definedPositions;
      for (auto [i, arg] : llvm::enumerate(apply.getArgs())) {
        args.push_back(map.lookup(arg));
        TypedAttr a = known.lookup(arg);
        if (!a || !isSameScalar(a, caseFill(func, i)))
          definedPositions.push_back(i);
      }
      Region *region = func.getCaseFor(definedPositions);
      FailureOr<Value> r = inlineCall(b, func, args, region, 0);
      if (failed(r)) {
        hadError = true;
        return arith::ConstantOp::create(b, loc, resultFill);
      }
      map.map(apply.getResult(), *r);
      continue;
    }
    Operation *clone = b.clone(op, map);
    if (auto c = dyn_cast<arith::ConstantOp>(clone))
      if (auto typed = dyn_cast<TypedAttr>(c.getValue()))
        known[op.getResult(0)] = typed;
  }
  llvm_unreachable("kernel body without yield");
}

FailureOr<Value> KernelLowering::inlineCall(OpBuilder &b, FuncOp func,
                                            ValueRange args, Region *region,
                                            unsigned depth) {
  if (depth > 32) {
    kernel.emitError() << "cannot inline @" << func.getSymName()
                       << ": calls nest too deeply (recursion?)";
    return failure();
  }
  Region &body = region ? *region : func.getBody();
  if (!body.hasOneBlock()) {
    func.emitError() << "cannot inline a function body of several blocks";
    return failure();
  }
  IRMapping map;
  Block &block = body.front();
  for (auto [arg, v] : llvm::zip(block.getArguments(), args))
    map.map(arg, v);
  for (Operation &op : block) {
    if (auto yield = dyn_cast<YieldOp>(op))
      return map.lookup(yield.getValue());
    // A call at the top of the body is inlined in place (cloning it first
    // would leave the mapping pointing at the erased clone).
    if (auto call = dyn_cast<ApplyOp>(op)) {
      auto callee =
          symbols.lookupNearestSymbolFrom<FuncOp>(kernel, call.getCalleeAttr());
      SmallVector<Value> callArgs;
      for (Value a : call.getArgs())
        callArgs.push_back(map.lookupOrDefault(a));
      FailureOr<Value> r = inlineCall(b, callee, callArgs, nullptr, depth + 1);
      if (failed(r))
        return failure();
      map.map(call.getResult(), *r);
      continue;
    }
    Operation *clone = b.clone(op, map);
    // Calls inside (also nested in loops) are ordinary calls: inline them.
    SmallVector<ApplyOp> calls;
    clone->walk([&](ApplyOp call) { calls.push_back(call); });
    for (ApplyOp call : calls) {
      auto callee = symbols.lookupNearestSymbolFrom<FuncOp>(
          kernel, call.getCalleeAttr());
      OpBuilder cb(call);
      FailureOr<Value> r =
          inlineCall(cb, callee, call.getArgs(), nullptr, depth + 1);
      if (failed(r))
        return failure();
      call.getResult().replaceAllUsesWith(*r);
      call.erase();
    }
  }
  func.emitError() << "function body without yield";
  return failure();
}

LogicalResult KernelLowering::runRowWiseProduct() {
  OpBuilder b(kernel);
  kernel.getBody().walk([&](ReduceOverOp r) { reduction = r; });
  if (!kernel.getAlgebra() || !kernel.getFill() || !reduction.getStrategy())
    return kernel.emitError("kernel has no coiteration plan; run "
                            "--sparse-array-derive-algebra and "
                            "--sparse-array-build-lattices first");
  combiner = symbols.lookupNearestSymbolFrom<FuncOp>(
      kernel, reduction.getCombinerAttr());
  reductionPlan = derivation.planReduction(kernel, reduction);
  std::optional<std::pair<unsigned, unsigned>> factors = matchRowWiseProduct(
      kernel, reduction, reductionPlan.algebra, *reduction.getStrategy());
  if (!factors)
    return kernel.emitError("sparse_array.reduce_over is marked scatter but "
                            "the kernel is not a row-wise matrix product");
  unsigned pk = factors->first, qk = factors->second;
  resultType = kernel.getResultType();
  resultFill = resultType.getFillValue();
  bool vec = resultType.getRank() == 1;
  rank = resultType.getRank();
  numLoops = rank + 1;
  algebra = kernel.getAlgebra()->getAlgebra();
  for (unsigned k = 0; k < kernel.getInputs().size(); ++k) {
    Input &in = inputs.emplace_back();
    in.type = cast<ArrayType>(kernel.getInputs()[k].getType());
    in.fill = in.type.getFillValue();
    in.used = static_cast<bool>(kernel.getAccessOf(k));
  }
  Type elt = resultType.getElementType();
  FormatAttr resultFormat = resultType.getFormat();
  auto memrefOf = [](Type t) {
    return MemRefType::get({ShapedType::kDynamic}, t);
  };
  struct Factor {
    Value pos, crd, vals;
  };
  // The compressed level: a matrix's second, a vector's only one (a vector
  // is a one-row matrix here: its positions are [0, nnz]).
  auto factor = [&](unsigned k) {
    Value array = kernel.getInputs()[k];
    FormatAttr f = inputs[k].type.getFormat();
    unsigned level = inputs[k].type.getRank() - 1;
    return Factor{
        PositionsOp::create(b, loc, memrefOf(b.getIntegerType(f.getPosWidth())),
                            array, level),
        CoordinatesOp::create(b, loc,
                              memrefOf(b.getIntegerType(f.getCrdWidth())),
                              array, level),
        ValuesOp::create(b, loc, memrefOf(inputs[k].type.getElementType()),
                         array)};
  };
  Factor P = factor(pk), Q = factor(qk);
  // A mask M(i, j) the result is a function of, if any.
  std::optional<unsigned> mk;
  if (kernel.getYield().getValue() != reduction.getResult())
    for (Value arg : kernel.getYield().getValue().getDefiningOp()->getOperands())
      if (auto access = arg.getDefiningOp<AccessOp>())
        mk = cast<BlockArgument>(access.getArray()).getArgNumber() -
             kernel.getNumIndices();
  std::optional<Factor> M;
  if (mk)
    M = factor(*mk);
  // Rows and columns are levels: a CSC product runs over columns.
  auto dimOfLevel = [&](unsigned k, unsigned level) {
    return static_cast<int64_t>(inputs[k].type.getFormat().getLevelDim(level));
  };
  Value rows = vec ? constIndex(b, loc, 1)
                   : Value(DimOp::create(b, loc, kernel.getInputs()[pk],
                                         dimOfLevel(pk, 0)));
  Value inner = DimOp::create(b, loc, kernel.getInputs()[pk],
                              vec ? int64_t(0) : dimOfLevel(pk, 1));
  Value cols =
      DimOp::create(b, loc, kernel.getInputs()[qk], dimOfLevel(qk, 1));
  // The shared dimension must agree (static sizes are verified).
  Type i64 = b.getI64Type();
  auto toI64 = [&](Value v) { return arith::IndexCastOp::create(b, loc, i64, v); };
  Value checkArgs[] = {arith::ConstantIntOp::create(b, loc, i64, qk),
                       arith::ConstantIntOp::create(b, loc, i64,
                                                    dimOfLevel(qk, 0)),
                       toI64(DimOp::create(b, loc, kernel.getInputs()[qk],
                                           dimOfLevel(qk, 0))),
                       toI64(inner)};
  callRuntime(b, loc, kernel, "sa_rt_check_extent", {}, checkArgs);
  // So must the mask's (its rows are scattered into column-sized marks).
  if (mk) {
    SmallVector<std::pair<int64_t, Value>> expected = {
        {vec ? 0 : dimOfLevel(*mk, 1), cols}};
    if (!vec)
      expected.push_back({dimOfLevel(*mk, 0), rows});
    for (auto [dim, size] : expected) {
      Value args[] = {
          arith::ConstantIntOp::create(b, loc, i64, *mk),
          arith::ConstantIntOp::create(b, loc, i64, dim),
          toI64(DimOp::create(b, loc, kernel.getInputs()[*mk], dim)),
          toI64(size)};
      callRuntime(b, loc, kernel, "sa_rt_check_extent", {}, args);
    }
  }

  Value zero = constIndex(b, loc, 0), one = constIndex(b, loc, 1);
  // The most products a row can have: the sum of Q's row lengths over the
  // row of P, at most the number of columns.
  auto maxProducts = scf::ForOp::create(
      b, loc, zero, rows, one, ValueRange{zero},
      [&](OpBuilder &fb, Location l, Value i, ValueRange m) {
        auto sum = scf::ForOp::create(
            fb, l, loadIndex(fb, l, P.pos, i),
            loadIndex(fb, l, P.pos, arith::AddIOp::create(fb, l, i, one)), one,
            ValueRange{zero},
            [&](OpBuilder &sb, Location sl, Value p, ValueRange acc) {
              Value k = loadIndex(sb, sl, P.crd, p);
              Value len = arith::SubIOp::create(
                  sb, sl,
                  loadIndex(sb, sl, Q.pos, arith::AddIOp::create(sb, sl, k, one)),
                  loadIndex(sb, sl, Q.pos, k));
              scf::YieldOp::create(
                  sb, sl, arith::AddIOp::create(sb, sl, acc[0], len).getResult());
            });
        scf::YieldOp::create(
            fb, l, arith::MaxUIOp::create(fb, l, m[0], sum.getResult(0)).getResult());
      });
  Value bound =
      arith::MinUIOp::create(b, loc, maxProducts.getResult(0), cols);
  // Workspace (SuiteSparse's choice, seed 000 §8): dense over the columns,
  // or, when rows have far fewer products than columns, an open-addressing
  // hash table of twice the densest row's products (a power of two).
  Value tableSize = constIndex(b, loc, 16);
  {
    Value twice = arith::MulIOp::create(b, loc, bound, constIndex(b, loc, 2));
    auto grow = scf::WhileOp::create(
        b, loc, TypeRange{b.getIndexType()}, ValueRange{tableSize},
        [&](OpBuilder &wb, Location l, ValueRange args) {
          scf::ConditionOp::create(
              wb, l,
              arith::CmpIOp::create(wb, l, arith::CmpIPredicate::ult, args[0], twice),
              args);
        },
        [&](OpBuilder &wb, Location l, ValueRange args) {
          scf::YieldOp::create(
              wb, l, arith::MulIOp::create(wb, l, args[0], constIndex(wb, l, 2))
                         .getResult());
        });
    tableSize = grow.getResult(0);
  }
  Value useHash;
  if (workspaceMode == "hash")
    useHash = arith::ConstantIntOp::create(b, loc, 1, 1);
  else if (workspaceMode == "dense")
    useHash = arith::ConstantIntOp::create(b, loc, 0, 1);
  else
    useHash = arith::CmpIOp::create(
        b, loc, arith::CmpIPredicate::ult,
        arith::MulIOp::create(b, loc, bound, constIndex(b, loc, 8)), cols);
  Value wsSize = arith::SelectOp::create(b, loc, useHash, tableSize, cols);
  Value tableMask = arith::IndexCastOp::create(
      b, loc, i64, arith::SubIOp::create(b, loc, tableSize, one));
  // Values, the row that last wrote each slot (i + 1: nothing to clear
  // between rows), the column held by each hash slot, and the columns the
  // current row touched.
  Value work = memref::AllocOp::create(b, loc, memrefOf(elt), ValueRange{wsSize});
  Value mark = memref::AllocOp::create(b, loc, memrefOf(i64), ValueRange{wsSize});
  Value keys = memref::AllocOp::create(
      b, loc, memrefOf(i64),
      ValueRange{arith::SelectOp::create(b, loc, useHash, tableSize, one)});
  Value touched = memref::AllocOp::create(
      b, loc, memrefOf(i64),
      ValueRange{arith::AddIOp::create(b, loc, bound, one)});
  Value maskMark, maskVal;
  if (M) {
    maskMark = memref::AllocOp::create(b, loc, memrefOf(i64), ValueRange{cols});
    maskVal = memref::AllocOp::create(
        b, loc, memrefOf(inputs[*mk].type.getElementType()), ValueRange{cols});
  }
  auto clear = [&](Value buffer, Value size) {
    scf::ForOp::create(b, loc, zero, size, one, ValueRange{},
                       [&](OpBuilder &fb, Location l, Value j, ValueRange) {
                         memref::StoreOp::create(
                             fb, l, arith::ConstantIntOp::create(fb, l, i64, 0),
                             buffer, j);
                         scf::YieldOp::create(fb, l);
                       });
  };
  clear(mark, wsSize);
  if (M)
    clear(maskMark, cols);
  // Whether a product at (i, j) can matter, from the mask alone (the
  // kernel's algebra with both factors eliminated).
  IterationAlgebra maskSpace = IterationAlgebra::universe();
  if (M) {
    maskSpace = kernel.getAlgebra()->getAlgebra();
    maskSpace = eliminateOperand(eliminateOperand(maskSpace, pk), qk).normalize();
  }
  // Output: CSR, appended row by row.
  Type posType = b.getIntegerType(resultFormat.getPosWidth());
  Type crdType = b.getIntegerType(resultFormat.getCrdWidth());
  Value cap = arith::AddIOp::create(
      b, loc, constIndex(b, loc, 16),
      arith::AddIOp::create(b, loc, memref::DimOp::create(b, loc, P.vals, 0),
                            memref::DimOp::create(b, loc, Q.vals, 0)));
  Value posOut = allocOutput(b, memrefOf(posType),
                             arith::AddIOp::create(b, loc, rows, one));
  memref::StoreOp::create(b, loc, arith::ConstantIntOp::create(b, loc, posType, 0),
                          posOut, ValueRange{zero});
  Value crdOut = allocOutput(b, memrefOf(crdType), cap);
  Value valOut = allocOutput(b, memrefOf(elt), cap);
  capacityIsBound = false;

  // The rows, with the dense workspace or the hash table.
  auto emitRows = [&](OpBuilder &ob, bool hash) -> SmallVector<Value> {
  // The slot of column j: j itself, or its hash table slot (linear probing
  // from a multiplicative hash) - the first slot that holds j or was not
  // written by this row.
  auto slotOf = [&](OpBuilder &sb, Location sl, Value j, Value gen) -> Value {
    if (!hash)
      return j;
    Value j64 = arith::IndexCastOp::create(sb, sl, i64, j);
    Value h = arith::AndIOp::create(
        sb, sl,
        arith::ShRUIOp::create(
            sb, sl,
            arith::MulIOp::create(
                sb, sl, j64,
                arith::ConstantIntOp::create(sb, sl, i64,
                                             int64_t(0x9E3779B97F4A7C15ull))),
            arith::ConstantIntOp::create(sb, sl, i64, 32)),
        tableMask);
    auto probe = scf::WhileOp::create(
        sb, sl, TypeRange{i64}, ValueRange{h},
        [&](OpBuilder &wb, Location wl, ValueRange args) {
          Value s = arith::IndexCastOp::create(wb, wl, wb.getIndexType(), args[0]);
          Value mine = arith::CmpIOp::create(
              wb, wl, arith::CmpIPredicate::eq,
              memref::LoadOp::create(wb, wl, mark, ValueRange{s}), gen);
          Value other = arith::CmpIOp::create(
              wb, wl, arith::CmpIPredicate::ne,
              memref::LoadOp::create(wb, wl, keys, ValueRange{s}), j64);
          scf::ConditionOp::create(
              wb, wl, arith::AndIOp::create(wb, wl, mine, other), args);
        },
        [&](OpBuilder &wb, Location wl, ValueRange args) {
          scf::YieldOp::create(
              wb, wl,
              arith::AndIOp::create(
                  wb, wl,
                  arith::AddIOp::create(wb, wl, args[0],
                                        arith::ConstantIntOp::create(wb, wl, i64, 1)),
                  tableMask)
                  .getResult());
        });
    return arith::IndexCastOp::create(sb, sl, sb.getIndexType(),
                                      probe.getResult(0));
  };
  auto rowLoop = scf::ForOp::create(
      ob, loc, zero, rows, one, ValueRange{zero, crdOut, valOut},
      [&](OpBuilder &rb, Location l, Value i, ValueRange acc) {
        Value gen = arith::AddIOp::create(
            rb, l, arith::IndexCastOp::create(rb, l, i64, i),
            arith::ConstantIntOp::create(rb, l, i64, 1));
        Value next = arith::AddIOp::create(rb, l, i, one);
        if (M)
          scf::ForOp::create(
              rb, l, loadIndex(rb, l, M->pos, i), loadIndex(rb, l, M->pos, next),
              one, ValueRange{},
              [&](OpBuilder &mb, Location ml, Value e, ValueRange) {
                Value j = loadIndex(mb, ml, M->crd, e);
                memref::StoreOp::create(mb, ml, gen, maskMark, ValueRange{j});
                memref::StoreOp::create(
                    mb, ml, memref::LoadOp::create(mb, ml, M->vals, ValueRange{e}),
                    maskVal, ValueRange{j});
                scf::YieldOp::create(mb, ml);
              });
        // M(i, j): its stored value in this row, else its fill.
        auto maskAt = [&](OpBuilder &mb, Location ml, Value j) -> Value {
          Value here = arith::CmpIOp::create(
              mb, ml, arith::CmpIPredicate::eq,
              memref::LoadOp::create(mb, ml, maskMark, ValueRange{j}), gen);
          return arith::SelectOp::create(
              mb, ml, here, memref::LoadOp::create(mb, ml, maskVal, ValueRange{j}),
              arith::ConstantOp::create(mb, ml, inputs[*mk].fill));
        };
        Value pLo = loadIndex(rb, l, P.pos, i);
        Value pHi = loadIndex(rb, l, P.pos, next);
        // Scatter: every stored P(i, k) times the row k of Q.
        auto overP = scf::ForOp::create(
            rb, l, pLo, pHi, one, ValueRange{zero},
            [&](OpBuilder &pb, Location pl, Value p, ValueRange pc) {
              Value k = loadIndex(pb, pl, P.crd, p);
              Value a = memref::LoadOp::create(pb, pl, P.vals, ValueRange{p});
              Value qLo = loadIndex(pb, pl, Q.pos, k);
              Value qHi = loadIndex(pb, pl, Q.pos,
                                    arith::AddIOp::create(pb, pl, k, one));
              auto overQ = scf::ForOp::create(
                  pb, pl, qLo, qHi, one, ValueRange{pc[0]},
                  [&](OpBuilder &qb, Location ql, Value q, ValueRange qc) {
                    Value j = loadIndex(qb, ql, Q.crd, q);
                    auto accumulate = [&](OpBuilder &ab) -> SmallVector<Value> {
                    Value bv = memref::LoadOp::create(ab, ql, Q.vals, ValueRange{q});
                    SmallVector<Value> values(inputs.size());
                    values[pk] = a;
                    values[qk] = bv;
                    Value v = emitBody(ab, 0, values, reduction.getValue());
                    Value slot = slotOf(ab, ql, j, gen);
                    Value seen = arith::CmpIOp::create(
                        ab, ql, arith::CmpIPredicate::eq,
                        memref::LoadOp::create(ab, ql, mark, ValueRange{slot}), gen);
                    auto upd = scf::IfOp::create(
                        ab, ql, seen,
                        [&](OpBuilder &tb, Location tl) {
                          Value old = memref::LoadOp::create(tb, tl, work, ValueRange{slot});
                          memref::StoreOp::create(tb, tl, emitCombinerCall(tb, old, v),
                                                  work, ValueRange{slot});
                          scf::YieldOp::create(tb, tl, qc[0]);
                        },
                        [&](OpBuilder &eb, Location el) {
                          Value j64 = arith::IndexCastOp::create(eb, el, i64, j);
                          memref::StoreOp::create(eb, el, gen, mark, ValueRange{slot});
                          memref::StoreOp::create(eb, el, v, work, ValueRange{slot});
                          if (hash)
                            memref::StoreOp::create(eb, el, j64, keys, ValueRange{slot});
                          memref::StoreOp::create(eb, el, j64, touched,
                                                  ValueRange{qc[0]});
                          scf::YieldOp::create(
                              eb, el, arith::AddIOp::create(eb, el, qc[0], one).getResult());
                        });
                    return SmallVector<Value>(upd.getResults());
                    };
                    if (!M || maskSpace.isUniverse()) {
                      scf::YieldOp::create(qb, ql, accumulate(qb));
                      return;
                    }
                    // A masked-out column takes no products.
                    SmallVector<Value> defined(inputs.size());
                    defined[*mk] = differsFrom(qb, ql, maskAt(qb, ql, j),
                                               inputs[*mk].fill);
                    Value member = emitMembership(qb, ql, maskSpace, defined);
                    auto guarded = scf::IfOp::create(
                        qb, ql, member,
                        [&](OpBuilder &tb, Location tl) {
                          scf::YieldOp::create(tb, tl, accumulate(tb));
                        },
                        [&](OpBuilder &eb, Location el) {
                          scf::YieldOp::create(eb, el, qc[0]);
                        });
                    scf::YieldOp::create(qb, ql, guarded.getResults());
                  });
              scf::YieldOp::create(pb, pl, overQ.getResults());
            });
        Value count = overP.getResult(0);
        // Gather in column order; entries equal to the fill are dropped.
        Value touchedPtr = arith::IndexCastOp::create(
            rb, l, i64, memref::ExtractAlignedPointerAsIndexOp::create(rb, l, touched));
        callRuntime(rb, l, kernel, "sa_rt_sort_i64", {},
                    {touchedPtr, arith::IndexCastOp::create(rb, l, i64, count)});
        Value needed = arith::AddIOp::create(rb, l, acc[0], count);
        Value crd = ensureCapacity(rb, acc[1], needed);
        Value val = ensureCapacity(rb, acc[2], needed);
        auto gather = scf::ForOp::create(
            rb, l, zero, count, one, ValueRange{acc[0]},
            [&](OpBuilder &gb, Location gl, Value t, ValueRange gc) {
              Value j64 = memref::LoadOp::create(gb, gl, touched, ValueRange{t});
              Value j = arith::IndexCastOp::create(gb, gl, gb.getIndexType(), j64);
              Value x = memref::LoadOp::create(
                  gb, gl, work, ValueRange{slotOf(gb, gl, j, gen)});
              if (M) {
                SmallVector<Value> values(inputs.size());
                values[*mk] = maskAt(gb, gl, j);
                IRMapping given;
                given.map(reduction.getResult(), x);
                x = emitBody(gb, 0, values, Value(), &given);
              }
              auto keep = scf::IfOp::create(
                  gb, gl, differsFrom(gb, gl, x, resultFill),
                  [&](OpBuilder &tb, Location tl) {
                    Value c = crdType == j64.getType()
                                  ? j64
                                  : arith::TruncIOp::create(tb, tl, crdType, j64)
                                        .getResult();
                    memref::StoreOp::create(tb, tl, c, crd, ValueRange{gc[0]});
                    memref::StoreOp::create(tb, tl, x, val, ValueRange{gc[0]});
                    scf::YieldOp::create(
                        tb, tl, arith::AddIOp::create(tb, tl, gc[0], one).getResult());
                  },
                  [&](OpBuilder &eb, Location el) {
                    scf::YieldOp::create(eb, el, gc[0]);
                  });
              scf::YieldOp::create(gb, gl, keep.getResults());
            });
        Value nnz = gather.getResult(0);
        memref::StoreOp::create(
            rb, l, arith::IndexCastUIOp::create(rb, l, posType, nnz), posOut,
            ValueRange{arith::AddIOp::create(rb, l, i, one)});
        scf::YieldOp::create(rb, l, ValueRange{nnz, crd, val});
      });
  return SmallVector<Value>(rowLoop.getResults());
  };
  SmallVector<Value> rowResults;
  if (workspaceMode == "auto") {
    auto choice = scf::IfOp::create(
        b, loc, useHash,
        [&](OpBuilder &tb, Location l) {
          scf::YieldOp::create(tb, l, emitRows(tb, true));
        },
        [&](OpBuilder &eb, Location l) {
          scf::YieldOp::create(eb, l, emitRows(eb, false));
        });
    rowResults.assign(choice.getResults().begin(), choice.getResults().end());
  } else {
    rowResults = emitRows(b, workspaceMode == "hash");
  }
  Value nnz = rowResults[0];
  auto shrink = [&](Value buffer, Value size) {
    return memref::ReallocOp::create(
        b, loc, cast<MemRefType>(buffer.getType()), buffer, size);
  };
  Value crdFinal = shrink(rowResults[1], nnz);
  Value valFinal = shrink(rowResults[2], nnz);
  memref::DeallocOp::create(b, loc, work);
  memref::DeallocOp::create(b, loc, mark);
  memref::DeallocOp::create(b, loc, touched);
  memref::DeallocOp::create(b, loc, keys);
  if (M) {
    memref::DeallocOp::create(b, loc, maskMark);
    memref::DeallocOp::create(b, loc, maskVal);
  }
  if (hadError)
    return failure();
  // Dimension order: rows are the result's first level.
  SmallVector<Value> dims = {rows, cols};
  if (vec)
    dims = {cols};
  else if (resultType.getFormat().getLevelDim(0) != 0)
    std::swap(dims[0], dims[1]);
  Value result = AssembleOp::create(b, loc, resultType,
                                    ValueRange{posOut, crdFinal, valFinal}, dims);
  kernel.getResult().replaceAllUsesWith(result);
  kernel.erase();
  return success();
}

LogicalResult KernelLowering::run() {
  bool scatter = false;
  kernel.getBody().walk([&](ReduceOverOp r) { scatter |= r.getScatter(); });
  if (scatter)
    return runRowWiseProduct();
  OpBuilder b(kernel);
  if (failed(analyze(b)))
    return failure();
  setUpOutput(b);
  Context ctx;
  for (unsigned k = 0; k < inputs.size(); ++k) {
    if (inputs[k].used)
      ctx.alive |= uint64_t(1) << k;
    ctx.processed.push_back(0);
    ctx.lo.push_back(constIndex(b, loc, 0));
    ctx.hi.push_back(constIndex(b, loc, 1));
    ctx.found.push_back(Value());
  }
  SmallVector<Value> out;
  if (rank == 0) {
    for (unsigned k = 0; k < inputs.size(); ++k)
      if (ctx.alive >> k & 1)
        locateLevels(b, ctx, k, 0);
    out = emitCompute(b, ctx, false, initialOut);
  } else {
    out = emitLoop(b, 0, ctx, initialOut);
  }
  if (hadError)
    return failure();
  Value result = finishOutput(b, out);
  kernel.getResult().replaceAllUsesWith(result);
  kernel.erase();
  return success();
}

} // namespace

LogicalResult mlir::sparse_array::lowerKernels(Operation *root,
                                               StringRef workspaceMode) {
  SmallVector<KernelOp> kernels;
  root->walk([&](KernelOp k) { kernels.push_back(k); });
  SymbolTableCollection symbols;
  bool ok = true;
  for (KernelOp k : kernels) {
    KernelLowering lowering(k, symbols, workspaceMode);
    if (failed(lowering.run()))
      ok = false;
  }
  return success(ok);
}
