//===- KernelAnalysis.cpp - What a kernel reads and how -------------------===//
//
// Checks a kernel against what the lowering supports, binds each input
// level to a loop and its iterator (seed 002 §4), and checks run-time
// extents.
//
//===----------------------------------------------------------------------===//

#include "KernelLowering.h"
#include "SparseArray/Algebra/Lattice.h"
#include "SparseArray/Analysis/AlgebraDerivation.h"
#include "SparseArray/Analysis/Evaluator.h"
#include "SparseArray/Analysis/Speculation.h"
#include "SparseArray/Conversion/LevelIterator.h"
#include "SparseArray/Conversion/RuntimeCalls.h"
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
#include <numeric>

using namespace mlir;
using namespace mlir::sparse_array;
using namespace mlir::sparse_array::detail;

IterationAlgebra KernelLowering::algebraWithout(uint64_t absent) const {
  IterationAlgebra a = algebra;
  for (unsigned k = 0; k < inputs.size(); ++k)
    if (absent >> k & 1)
      a = removeOperand(a, k);
  return a.normalize();
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
  parallelPlan = kernel.getParallelAttr();
  if (kernel.getInputs().size() >= kMaxLatticeOperands)
    return fail("kernel has too many inputs");
  if (!kernel.getLattices())
    return fail("kernel has no coiteration lattices; run "
                "--sparse-array-build-lattices first");
  // A parallel plan shares out a counted outermost loop ("outer": one whose
  // loop moves cursors over stored coordinates cannot be) or ranges of the
  // coordinates of an outermost loop that coiterates stored ones, cut at
  // the balancing input's or equal ("ranges"); a hand-written plan may
  // claim either wrongly.
  if (parallelPlan && parallelPlan.isParallel()) {
    bool ranges = parallelPlan.isRanges();
    int64_t cut = parallelPlan.getBalance();
    for (auto lattice : kernel.getLattices()->getAsRange<LatticeAttr>()) {
      if (lattice.getLoop() != 0)
        continue;
      ArrayRef<unsigned> coiterated = lattice.getCoiterated();
      if (!ranges && !coiterated.empty())
        return fail("kernel is planned parallel, but its outermost loop "
                    "coiterates stored levels (their cursors carry from one "
                    "iteration to the next)");
      if (!ranges)
        continue;
      if (cut >= 0 &&
          !llvm::is_contained(coiterated, static_cast<unsigned>(cut)))
        return fail("kernel is planned parallel over ranges cut at input " +
                    Twine(cut) + "'s coordinates, but its outermost loop "
                    "does not coiterate that input");
      for (unsigned k : coiterated)
        if (lattice.getView(k) != SequenceExpr::leaf(k))
          return fail("kernel is planned parallel over ranges of stored "
                      "coordinates, but its outermost loop iterates input " +
                      Twine(k) + " as " + lattice.getView(k).str());
    }
  }
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
    if (!isa<AccessOp, ApplyOp, YieldOp, arith::ConstantOp, SelectRangeOp,
             LinearizeOp, DelinearizeOp>(op))
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
    speculatableBody = isSpeculatableKernel(kernel, symbols);
    combiner = symbols.lookupNearestSymbolFrom<FuncOp>(
        kernel, reduction.getCombinerAttr());
    // The planner's decision (sparse-array-build-lattices), not re-planned.
    reductionPlan = ReductionPlan::fromAttr(reduction.getPlanAttr(), combiner);
    keyed = reductionPlan.keys != ReductionKeys::None;
    keyedMax = reductionPlan.keys == ReductionKeys::Max;
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
    // What its entries are tested against and a read outside its window
    // yields (a concatenation's dense part: the common fill).
    in.fill = derivation.leafFill(kernel, k);
    AccessOp access = kernel.getAccessOf(k);
    if (!access)
      continue;
    in.used = true;
    for (Operation *user : kernel.getInputArg(k).getUsers())
      if (auto other = dyn_cast<AccessOp>(user))
        if (other.getIndices() != access.getIndices())
          return fail("input " + Twine(k) + " is accessed two ways");
    Value array = kernel.getInputs()[k];
    FormatAttr format = in.type.getFormat();
    int lastLoop = -1;
    unsigned lastPart = 0;
    bool allFull = in.type.isAllDense();
    SmallVector<AccessedLevel> accessed = getAccessedLevels(access);
    for (auto [v, al] : llvm::enumerate(accessed)) {
      InputLevel &level = in.levels.emplace_back();
      unsigned l = al.level, dim = al.dim;
      level.spec = format.getLevels()[l];
      Value index = al.index;
      // The combinators the access applies at the level (wrappers of its
      // iterator, made once it exists below).
      std::optional<std::array<int64_t, 3>> slice;
      std::optional<std::array<int64_t, 2>> validRange;
      SmallVector<unsigned, 1> windowLoops;
      SmallVector<int64_t, 1> windowSizes;
      int64_t windowSize = 0;
      if (auto arg = dyn_cast<BlockArgument>(index)) {
        level.loop = varLoop[arg.getArgNumber()];
        if (al.isCollapsed()) {
          if (al.window) {
            // Its loop ranges over the window; the other variables' loops
            // (enclosing ones: Fuse's composable()) fix where it lies.
            ArrayRef<int64_t> sizes = al.window.getSizes();
            windowSize = sizes.back();
            windowSizes.assign(sizes.begin(), sizes.end() - 1);
            for (Value v : al.window.getIndices().drop_back()) {
              int l = varLoop[cast<BlockArgument>(v).getArgNumber()];
              if (l >= level.loop)
                return fail("input " + Twine(k) +
                            " is read through a collapse in windows of a "
                            "split whose outer parts' loops do not enclose "
                            "the last part's");
              windowLoops.push_back(l);
            }
            if (!extents[level.loop])
              extents[level.loop] = constIndex(b, loc, windowSize);
            // The outer parts' extents (reduction variables have no
            // result size): the collapse's size over the inner parts'.
            // Only the collapse's first part may have a size known only
            // at run time (the others' make the delinearize's sizes).
            if (!al.collapsePart) {
              int64_t inner = 1;
              for (int64_t s : sizes)
                inner *= s;
              int64_t divisor = al.collapseDivisor;
              Value size;
              Value total;
              if (in.type.isDynamicDim(dim)) {
                size = DimOp::create(b, loc, array, static_cast<int64_t>(dim));
                total = arith::MulIOp::create(b, loc, size,
                                              constIndex(b, loc, divisor));
              } else {
                total = constIndex(b, loc, in.type.getShape()[dim] * divisor);
              }
              for (auto [i, l] : llvm::enumerate(windowLoops))
                if (!extents[l])
                  extents[l] = i ? constIndex(b, loc, sizes[i - 1])
                                 : arith::DivUIOp::create(
                                       b, loc, total, constIndex(b, loc, inner))
                                       .getResult();
              // The split must divide the collapsed size n * divisor, in
              // exactly as many windows as the outer loop's extent E
              // (another input's or the result's: E = 3 windows of 2 over
              // one row of 4 must fail, though floor(3 * 2 / 4) = 1 = n).
              if (size) {
                Value windows =
                    windowLoops.empty()
                        ? arith::DivUIOp::create(b, loc, total,
                                                 constIndex(b, loc, inner))
                              .getResult()
                        : extents[windowLoops[0]];
                emitWindowsCheck(b, loc, kernel, k, dim, size, divisor, inner,
                                 windows);
              }
            }
          }
          // The loop ranges over the first part's size times the others'.
          if (!al.collapsePart && !extents[level.loop])
            extents[level.loop] = arith::MulIOp::create(
                b, loc, DimOp::create(b, loc, array, static_cast<int64_t>(dim)),
                constIndex(b, loc, al.collapseDivisor));
        } else if (al.isSplit()) {
          // A part of a linearized read: its extent is its size (the
          // first part's: the dimension's size over the others').
          if (!extents[level.loop]) {
            Value e = constIndex(b, loc, al.modulus);
            if (!al.part)
              e = arith::DivUIOp::create(
                  b, loc, DimOp::create(b, loc, array, static_cast<int64_t>(dim)),
                  constIndex(b, loc, al.divisor));
            extents[level.loop] = e;
          }
        } else if (access.isSliced(dim)) {
          slice = access.getSlice(dim);
          auto [lo, hi, step] = *slice;
          int64_t size = in.type.getShape()[dim];
          // The least and greatest coordinates read, either direction.
          int64_t length = sliceLength(lo, hi, step);
          int64_t last = lo + step * std::max<int64_t>(length - 1, 0);
          std::array<int64_t, 2> valid = access.getBound(dim).value_or(
              std::array<int64_t, 2>{0, ShapedType::isDynamic(size)
                                            ? std::numeric_limits<int64_t>::max()
                                            : size});
          if (access.getPadded() && (std::min(lo, last) < valid[0] ||
                                     std::max(lo, last) >= valid[1]))
            validRange = valid;
          if (!extents[level.loop])
            extents[level.loop] = constIndex(b, loc, length);
        } else if (!extents[level.loop] && !(in.type.getShape()[dim] == 1)) {
          extents[level.loop] =
              DimOp::create(b, loc, array, static_cast<int64_t>(dim));
        }
      } else {
        IntegerAttr c;
        if (!matchPattern(index, m_Constant(&c)))
          return fail("input " + Twine(k) +
                      " is indexed by a value that is neither an index "
                      "variable nor a constant");
        level.constant = c.getInt();
      }
      // The next part of a collapsed read, stored right below the previous
      // one: the loop iterates their product.
      bool nextPart = al.isCollapsed() && level.loop == lastLoop &&
                      al.collapsePart == lastPart + 1;
      if (level.loop >= 0 && !allFull && level.loop == lastLoop && !nextPart)
        return fail("input " + Twine(k) +
                    (al.isCollapsed()
                         ? Twine(" is read through a collapse of dimensions "
                                 "that are not stored by adjacent levels in "
                                 "the linearization's order")
                         : Twine(" repeats an index variable at two of its "
                                 "stored levels (a diagonal such as A[i, i]); "
                                 "only arrays stored dense may repeat one "
                                 "yet")));
      // A full level read plainly at a loop outside the levels above it
      // (a block's rows below the block columns): located once they are
      // positioned (locateLevels), not iterated; sparse-array-coiteration
      // keeps such inputs as they are.
      bool locatedLater = level.loop >= 0 && level.loop < lastLoop &&
                          format.getLevels()[l].canLocate() &&
                          !al.isCollapsed() && !slice && !windowSize;
      if (level.loop >= 0 && !allFull && !locatedLater) {
        if (level.loop < lastLoop || (level.loop == lastLoop && !nextPart) ||
            (al.isCollapsed() && level.loop != lastLoop &&
             al.collapsePart != 0))
          return fail("input " + Twine(k) +
                      " is stored in an order the loops do not follow");
        lastLoop = level.loop;
        lastPart = al.collapsePart;
      }
      LevelBuffers buffers = fetchLevelBuffers(b, loc, array, l);
      if (al.isSplit() && level.spec.isFull()) {
        // A part of a full level is full: positions compose as
        // (parent * s0 + q) * s1 + r = parent * size + c.
        Value size = al.part ? constIndex(b, loc, al.modulus)
                             : arith::DivUIOp::create(
                                   b, loc, buffers.size,
                                   constIndex(b, loc, al.divisor));
        level.iterator = makeFullIterator(level.spec, size);
      } else {
        level.iterator = LevelIteratorRegistry::create(level.spec, buffers);
        if (level.iterator && al.isSplit()) {
          level.iterator = makeSplitPartIterator(
              std::move(level.iterator), al.part == 0, al.isLastPart(),
              constIndex(b, loc, al.divisor),
              al.part ? constIndex(b, loc, al.modulus) : Value());
          level.spec = level.iterator->getSpec();
        }
      }
      if (!level.iterator)
        return fail("level format '" + level.spec.getName() +
                    "' has no iterator");
      // A slice counting down iterates a stored level backwards (the
      // plan's view slice(s, lo, hi, step < 0) reads it reflected); a
      // level with random access is located at lo + step * x instead.
      if (slice && (*slice)[2] < 0 &&
          !level.iterator->canLocate()) {
        if (!level.spec.ordered)
          return fail("input " + Twine(k) +
                      " is sliced with a negative step at a level whose "
                      "coordinates are not ordered");
        level.iterator = makeReflectedIterator(std::move(level.iterator));
      }
      if (validRange)
        level.iterator = makePaddedAccess(std::move(level.iterator),
                                          (*validRange)[0], (*validRange)[1]);
      if (slice)
        level.iterator = makeSlicedAccess(std::move(level.iterator), *slice,
                                          access.getBound(dim));
      if (al.isCollapsed() && level.loop >= 0) {
        level.iterator = makeCollapsedPartAccess(
            std::move(level.iterator), al.collapsePart, al.collapseDivisor,
            al.collapseModulus);
        if (windowSize)
          level.iterator = makeWindowedAccess(
              std::move(level.iterator), windowLoops, windowSizes, windowSize);
      }
      if (v + 1 < accessed.size() && !level.spec.unique &&
          format.getLevels()[accessed[v + 1].level].isFull())
        return fail("a full level below a non-unique one");
    }
    // A collapsed read iterates the product of all its parts' levels.
    if (!allFull)
      for (const AccessedLevel &al : accessed)
        if (al.isCollapsed() &&
            llvm::count_if(accessed, [&](const AccessedLevel &o) {
              return o.index == al.index && o.isCollapsed();
            }) != al.collapseParts)
          return fail("input " + Twine(k) +
                      " reads only some parts of a collapsed index");
    if (!in.levels.empty() && !in.levels.back().spec.unique)
      return fail("input " + Twine(k) + " has a non-unique innermost level");
    in.valuesRead = llvm::any_of(access->getUses(), [](OpOperand &use) {
      auto select = dyn_cast<SelectRangeOp>(use.getOwner());
      return !select || use.getOperandNumber() <
                            select.getODSOperandIndexAndLength(2).first;
    });
    if (in.valuesRead)
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
  for (unsigned k = 0; k < inputs.size(); ++k) {
    AccessOp access = kernel.getAccessOf(k);
    if (!access)
      continue;
    for (auto [dim, index] : llvm::enumerate(access.getIndices())) {
      if (auto lin = index.getDefiningOp<LinearizeOp>()) {
        // A size known only at run time must be a multiple of the
        // linearized sizes' product.
        if (inputs[k].type.isDynamicDim(dim)) {
          int64_t inner = 1;
          for (int64_t s : lin.getSizes())
            inner *= s;
          Value actual = DimOp::create(b, loc, kernel.getInputs()[k],
                                       static_cast<int64_t>(dim));
          emitSplitCheck(b, loc, kernel, k, dim, actual, inner);
          // ... and the product of the parts' extents: the first part's
          // loop may be bounded by the result (a split into [2, 4] of a
          // 12-entry vector read coordinates past the result's rows). A
          // fixed first part (a row of the split) must lie within it.
          Value first = lin.getIndices().front();
          if (auto arg = dyn_cast<BlockArgument>(first))
            emitExtentCheck(b, loc, kernel, k, dim, actual,
                            arith::MulIOp::create(
                                b, loc, extents[varLoop[arg.getArgNumber()]],
                                constIndex(b, loc, inner)));
          else if (std::optional<int64_t> c = getConstantIndex(first))
            emitSliceCheck(b, loc, kernel, k, dim, actual, (*c + 1) * inner);
        }
        continue;
      }
      auto arg = dyn_cast<BlockArgument>(index);
      if (!arg) {
        // A fixed coordinate of a dimension known only at run time (an
        // integer index of a slice) must lie within it.
        std::optional<int64_t> c = getConstantIndex(index);
        if (c && inputs[k].type.isDynamicDim(dim))
          emitSliceCheck(b, loc, kernel, k, dim,
                         DimOp::create(b, loc, kernel.getInputs()[k],
                                       static_cast<int64_t>(dim)),
                         *c + 1);
        continue;
      }
      unsigned d = varLoop[arg.getArgNumber()];
      if (access.isSliced(dim)) {
        // The slice's length is static (the kernel's verifier compared it
        // with the loop's); a dimension known only at run time must hold
        // the greatest coordinate read (the last one ascending, the first
        // counting down).
        auto [lo, hi, step] = access.getSlice(dim);
        int64_t length = sliceLength(lo, hi, step);
        int64_t reach = length ? std::max(lo, lo + step * (length - 1)) + 1 : 0;
        // A window with bounds reads the array only within them (a fused
        // concatenation's part that slices it): the bound's end.
        if (std::optional<std::array<int64_t, 2>> bound = access.getBound(dim))
          reach = (*bound)[1];
        if (inputs[k].type.isDynamicDim(dim))
          emitSliceCheck(b, loc, kernel, k, dim,
                         DimOp::create(b, loc, kernel.getInputs()[k],
                                       static_cast<int64_t>(dim)),
                         reach);
        continue;
      }
      bool staticInput = !inputs[k].type.isDynamicDim(dim);
      bool staticResult = d < rank
                              ? !resultType.isDynamicDim(loopDim[d])
                              : getConstantIntValue(extents[d]).has_value();
      if (staticInput && staticResult)
        continue;
      Value actual = DimOp::create(b, loc, kernel.getInputs()[k],
                                   static_cast<int64_t>(dim));
      emitExtentCheck(b, loc, kernel, k, dim, actual, extents[d]);
    }
  }
  if (reduction && isSignedZeroDot())
    emitDenseFactorCounts(b);
  return success();
}
