//===- Fuse.cpp - Array ops to kernels, kernel fusion ---------------------===//
//
// seed 000 §8.2.2: fusing array operations into one index-notation
// statement avoids the temporaries of operation-at-a-time evaluation.
//
//===----------------------------------------------------------------------===//

#include "SparseArray/Analysis/AlgebraDerivation.h"
#include "SparseArray/Analysis/Evaluator.h"
#include "SparseArray/Analysis/Speculation.h"
#include "SparseArray/Dialect/SparseArray.h"
#include "SparseArray/Transforms/Coiteration.h"
#include "SparseArray/Transforms/Passes.h"

#include "Composition.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include "llvm/ADT/SmallBitVector.h"

namespace mlir {
namespace sparse_array {
#define GEN_PASS_DEF_SPARSEARRAYFUSEPASS
#include "SparseArray/Transforms/Passes.h.inc"
} // namespace sparse_array
} // namespace mlir

using namespace mlir;
using namespace mlir::sparse_array;
using namespace mlir::sparse_array::detail;

namespace {

/// map @f(inputs) -> kernel: one index variable per result dimension; each
/// input reads the trailing ones, or coordinate 0 along a broadcast size-1
/// dimension.
struct MapToKernel : public OpRewritePattern<MapOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(MapOp map,
                                PatternRewriter &rewriter) const override {
    ArrayType resultType = cast<ArrayType>(map.getResult().getType());
    unsigned rank = resultType.getRank();
    Location loc = map.getLoc();
    auto kernel =
        KernelOp::create(rewriter, loc, resultType, map.getInputs(), rank);
    kernel.setInferFill(map.getInferFill());
    kernel.setInferFormat(map.getInferFormat());
    Block &body = kernel.getBody().front();
    OpBuilder::InsertionGuard guard(rewriter);
    rewriter.setInsertionPointToStart(&body);
    Value zero;
    SmallVector<Value> args;
    for (auto [k, input] : llvm::enumerate(map.getInputs())) {
      ArrayType type = cast<ArrayType>(input.getType());
      unsigned offset = rank - type.getRank();
      SmallVector<Value> indices;
      for (unsigned dim = 0; dim < type.getRank(); ++dim) {
        int64_t in = type.getShape()[dim];
        int64_t out = resultType.getShape()[offset + dim];
        if (in == 1 && out != 1) {
          if (!zero)
            zero = arith::ConstantIndexOp::create(rewriter, loc, 0);
          indices.push_back(zero);
        } else {
          indices.push_back(kernel.getIndex(offset + dim));
        }
      }
      args.push_back(AccessOp::create(rewriter, loc, kernel.getInputArg(k),
                                      indices, DenseI64ArrayAttr()));
    }
    auto apply = ApplyOp::create(rewriter, loc, resultType.getElementType(),
                                 map.getFnAttr(), args);
    YieldOp::create(rewriter, loc, apply.getResult());
    rewriter.replaceOp(map, kernel.getResult());
    return success();
  }
};

/// reduce @f %a dims [...] -> kernel: index variables for the kept
/// dimensions (the result's), then for the reduced ones.
struct ReduceToKernel : public OpRewritePattern<ReduceOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(ReduceOp reduce,
                                PatternRewriter &rewriter) const override {
    ArrayType inputType = cast<ArrayType>(reduce.getInput().getType());
    ArrayType resultType = cast<ArrayType>(reduce.getResult().getType());
    Location loc = reduce.getLoc();
    unsigned rank = inputType.getRank();
    auto kernel = KernelOp::create(rewriter, loc, resultType,
                                   ValueRange{reduce.getInput()}, rank);
    OpBuilder::InsertionGuard guard(rewriter);
    rewriter.setInsertionPointToStart(&kernel.getBody().front());
    ArrayRef<int64_t> dims = reduce.getDims();
    SmallVector<Value> indices(rank), reduced;
    unsigned kept = 0, next = resultType.getRank();
    for (unsigned dim = 0; dim < rank; ++dim) {
      if (llvm::is_contained(dims, dim)) {
        indices[dim] = kernel.getIndex(next++);
        reduced.push_back(indices[dim]);
      } else {
        indices[dim] = kernel.getIndex(kept++);
      }
    }
    Value entry = AccessOp::create(rewriter, loc, kernel.getInputArg(0),
                                   indices, DenseI64ArrayAttr());
    Value total = ReduceOverOp::create(
        rewriter, loc, entry.getType(), entry, reduced, Value(), reduce.getFnAttr(),
        ReductionPlanAttr(), UnitAttr(), DenseI32ArrayAttr(),
        DenseI32ArrayAttr());
    YieldOp::create(rewriter, loc, total);
    rewriter.replaceOp(reduce, kernel.getResult());
    return success();
  }
};

/// A kernel input produced by another kernel used nowhere else is replaced
/// by the producer's expression: its output index variables become the
/// consumer's access indices, its reduction variables and inputs new ones
/// of the consumer.
struct FuseProducerKernel : public OpRewritePattern<KernelOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(KernelOp consumer,
                                PatternRewriter &rewriter) const override {
    for (unsigned k = 0, e = consumer.getInputs().size(); k < e; ++k) {
      auto producer = consumer.getInputs()[k].getDefiningOp<KernelOp>();
      if (!producer ||
          !(producer.getResult().hasOneUse() || isView(producer)))
        continue;
      // A reduction of a reduction (minimax: max_i min_j A(i, j)) stays two
      // kernels: one reduction per kernel is what the lowering handles.
      auto hasReduction = [](KernelOp kernel) {
        return kernel.getNumIndices() > kernel.getResultType().getRank();
      };
      if (hasReduction(producer) && hasReduction(consumer))
        continue;
      // A reduction whose input stores a reduced variable above a kept one
      // (column sums of CSR) scatters into its result only when it yields
      // the reduced value itself (ScatterLoops.cpp); with the consumer's
      // function after it, its input would be converted instead (45x the
      // time of lazy (a * a).sum(axis=0) + 1 on 20000^2 CSR). The
      // consumer stays a kernel over the reduced result.
      if (hasReduction(producer) && reducesAboveKept(producer))
        continue;
      AccessOp access = consumer.getAccessOf(k);
      if (!access || !readOneWay(consumer, k, access))
        continue;
      if (!extentsKnownAfterFusion(consumer, k, producer, access))
        continue;
      if (!boundedLattices(consumer, producer))
        continue;
      if (!composable(consumer, producer, access))
        continue;
      if (!keepsPartSpace(consumer, producer, access))
        continue;
      if (!keepsEmptyReduction(consumer, producer))
        continue;
      fuse(consumer, k, producer, access, rewriter);
      return success();
    }
    return failure();
  }

  /// A reduction over an empty range whose combiner declares no identity
  /// gives the reduced value's fill: the producer's declared fill while it
  /// is an array, its derived fill once fused. Fusing is exact only where
  /// the two agree (a map declared with another fill stays an array).
  static bool keepsEmptyReduction(KernelOp consumer, KernelOp producer) {
    SymbolTableCollection symbols;
    bool withoutIdentity = false;
    consumer.walk([&](ReduceOverOp reduce) {
      auto combiner = symbols.lookupNearestSymbolFrom<FuncOp>(
          reduce, reduce.getCombinerAttr());
      IdentityAttr identity = combiner ? combiner.getIdentityAttr() : nullptr;
      withoutIdentity |= !identity || !identity.getPositions().empty();
    });
    if (!withoutIdentity)
      return true;
    Evaluator evaluator;
    AlgebraDerivation derivation(symbols, evaluator);
    const DerivedSpace &space =
        derivation.derive(producer, producer.getYield().getValue());
    return space.fill &&
           isSameScalar(space.fill, producer.getResultType().getFillValue());
  }

  /// Whether a sparse input of `kernel` stores a reduced index variable at
  /// a level above one of the result's.
  static bool reducesAboveKept(KernelOp kernel) {
    unsigned rank = kernel.getResultType().getRank();
    for (unsigned k = 0; k < kernel.getInputs().size(); ++k) {
      AccessOp access = kernel.getAccessOf(k);
      auto type = cast<ArrayType>(kernel.getInputs()[k].getType());
      if (!access || type.isAllDense())
        continue;
      bool reducedAbove = false;
      FormatAttr format = type.getFormat();
      for (unsigned l = 0; l < format.getNumLevels(); ++l) {
        auto arg =
            dyn_cast<BlockArgument>(access.getIndices()[format.getLevelDim(l)]);
        if (!arg)
          continue;
        if (arg.getArgNumber() >= rank)
          reducedAbove = true;
        else if (reducedAbove)
          return true;
      }
    }
    return false;
  }

  /// A kernel that only reads its input, as a slice does (seed 001 §5.2:
  /// a view): fused into each of several consumers it computes nothing
  /// twice, and no temporary holds it for the others.
  static bool isView(KernelOp producer) {
    if (producer.getNumIndices() != producer.getResultType().getRank() ||
        producer.getInputs().size() != 1)
      return false;
    Value yielded = producer.getYield().getValue();
    if (!yielded.getDefiningOp<AccessOp>())
      return false;
    return llvm::all_of(producer.getBody().front(), [](Operation &op) {
      return isa<AccessOp, YieldOp, arith::ConstantOp>(op);
    });
  }

  /// A kernel coiterating many inputs is planned one linear loop instead of
  /// a lattice exponential in them (issue 14, class 6), but only when its
  /// functions cannot trap (the linear loop evaluates the general body
  /// where a lattice would take a case region). A fused kernel with a
  /// function that may trap therefore stays within kMaxTrappingInputs
  /// inputs (the planner's default linear threshold): beyond, the producer
  /// stays a kernel of its own (a temporary instead of 2^n-point lattices).
  static constexpr unsigned kMaxTrappingInputs = 5;
  static bool boundedLattices(KernelOp consumer, KernelOp producer) {
    unsigned inputs =
        consumer.getInputs().size() - 1 + producer.getInputs().size();
    if (inputs <= kMaxTrappingInputs)
      return true;
    SymbolTableCollection symbols;
    return isSpeculatableKernel(consumer, symbols) &&
           isSpeculatableKernel(producer, symbols);
  }

  /// Split reads compose when every variable of a linearized coordinate
  /// stays a plain variable (not a fixed coordinate, a slice or another
  /// linearization; seed 001 §5.2's composition for the projections that
  /// loops can iterate) and their loops come in linearization order (the
  /// parts are iterated outermost first). Otherwise the producer stays a
  /// kernel of its own.
  static bool composable(KernelOp consumer, KernelOp producer,
                         AccessOp access) {
    unsigned producerRank = producer.getResultType().getRank();
    SmallVector<int> loopOf = getLoopOfIndex(consumer);
    // The loops of what the consumer reads at producer dimension r.
    auto loopsOfOuter = [&](unsigned r) {
      SmallVector<int> loops;
      Value index = access.getIndices()[r];
      SmallVector<BlockArgument> vars = getIndexVariables(index);
      // A collapse read in windows of a split: its last part's loop.
      if (index.getDefiningOp<DelinearizeOp>())
        vars.erase(vars.begin(), vars.end() - 1);
      for (BlockArgument v : vars)
        loops.push_back(loopOf[v.getArgNumber()]);
      return loops;
    };
    auto plainVar = [&](unsigned r) {
      return isa<BlockArgument>(access.getIndices()[r]) && !access.isSliced(r);
    };
    // Loops of the fused kernel's variables: the consumer's, then the
    // producer's reduction variables after them.
    auto loopOfProducerVar = [&](unsigned v) -> int {
      if (v < producerRank)
        return loopOf
            [getIndexVariables(access.getIndices()[v]).front().getArgNumber()];
      return consumer.getNumIndices() + (v - producerRank);
    };
    // The consumer splits producer dimension r, which the producer reads
    // through a collapse: the last part's loop iterates the collapse's
    // product within the window the others' loops fix (the windows' count
    // taken at run time where the collapse's first part's size is).
    auto windowable = [&](unsigned r) {
      auto lin = access.getIndices()[r].getDefiningOp<LinearizeOp>();
      if (!lin || access.isSliced(r))
        return false;
      int last =
          loopOf[cast<BlockArgument>(lin.getIndices().back()).getArgNumber()];
      return llvm::all_of(lin.getIndices().drop_back(), [&](Value v) {
        return loopOf[cast<BlockArgument>(v).getArgNumber()] < last;
      });
    };
    // The consumer reads producer dimension r through a collapse.
    auto collapsedAt = [&](unsigned r) {
      return access.getIndices()[r].getDefiningOp<DelinearizeOp>() != nullptr;
    };
    bool ok = true;
    producer.getBody().walk([&](Operation *op) {
      // (A range of one of the producer's reduction variables, r past its
      // rank, stays the producer's own loop: the consumer reads nothing
      // there.)
      if (auto select = dyn_cast<SelectRangeOp>(op)) {
        unsigned r = cast<BlockArgument>(select.getIndex()).getArgNumber();
        if (r < producerRank &&
            (access.getIndices()[r].getDefiningOp<LinearizeOp>() ||
             collapsedAt(r)))
          ok = false;
      }
      // A producer's collapse of r composes with a plain variable or a
      // fixed coordinate there.
      // Read through the consumer's split (a reshape: the collapse's
      // product iterated in windows), its variables' loops enclose the
      // last one's, which iterates the product.
      if (auto delin = dyn_cast<DelinearizeOp>(op)) {
        auto arg = dyn_cast<BlockArgument>(delin.getIndex());
        if (!arg) {
          ok = false; // already a window: not composed again
          return;
        }
        unsigned r = arg.getArgNumber();
        if (r < producerRank && !plainVar(r) &&
            !getConstantIndex(access.getIndices()[r]) && !windowable(r))
          ok = false;
      }
      auto inner = dyn_cast<AccessOp>(op);
      if (!inner || !ok)
        return;
      // Through the consumer's collapse, an input read along some parts
      // must be read along all of them (the loop iterates their product).
      llvm::SmallDenseMap<Operation *, unsigned> partsRead;
      for (Value index : inner.getIndices()) {
        auto arg = dyn_cast<BlockArgument>(index);
        if (!arg || arg.getArgNumber() >= producerRank)
          continue;
        if (auto d = access.getIndices()[arg.getArgNumber()]
                         .getDefiningOp<DelinearizeOp>())
          ++partsRead[d];
      }
      for (auto [d, n] : partsRead)
        if (n != d->getNumResults())
          ok = false;
      if (!ok)
        return;
      // The fused access's loops per dimension.
      SmallVector<SmallVector<int>> loops;
      for (auto [dim, index] : llvm::enumerate(inner.getIndices())) {
        SmallVector<int> &here = loops.emplace_back();
        if (auto lin = index.getDefiningOp<LinearizeOp>()) {
          for (Value v : lin.getIndices()) {
            unsigned var = cast<BlockArgument>(v).getArgNumber();
            if (var < producerRank && !plainVar(var)) {
              ok = false;
              return;
            }
            here.push_back(loopOfProducerVar(var));
          }
          continue;
        }
        if (auto delin = index.getDefiningOp<DelinearizeOp>()) {
          unsigned var = cast<BlockArgument>(delin.getIndex()).getArgNumber();
          if (var >= producerRank || plainVar(var))
            here.push_back(loopOfProducerVar(var));
          else if (auto lin =
                       access.getIndices()[var].getDefiningOp<LinearizeOp>())
            here.push_back(loopOf[cast<BlockArgument>(lin.getIndices().back())
                                      .getArgNumber()]);
          continue;
        }
        auto arg = dyn_cast<BlockArgument>(index);
        if (!arg)
          continue;
        unsigned var = arg.getArgNumber();
        if (var >= producerRank) {
          here.push_back(loopOfProducerVar(var));
          continue;
        }
        // A sliced dimension read through the consumer's collapse: no.
        if (collapsedAt(var) && inner.isSliced(dim)) {
          ok = false;
          return;
        }
        // A sliced dimension read through the consumer's split: no.
        if (access.getIndices()[var].getDefiningOp<LinearizeOp>() &&
            inner.isSliced(dim)) {
          ok = false;
          return;
        }
        // A slice read through a window (a concatenation's part) reads its
        // array only within the slice's range (composeAccess bounds it).
        // Where the dimension's size is known only at run time, the
        // slice's range must lie within it (a plain slice: checked at run
        // time against the bound); a window over it could reach outside.
        if (access.getPadded() && access.isSliced(var) && inner.isSliced(dim) &&
            inner.getArrayType().isDynamicDim(dim) && inner.getPadded()) {
          ok = false;
          return;
        }
        here = loopsOfOuter(var);
      }
      ok &= splitReadsIterable(loops);
    });
    return ok;
  }

  /// A concatenation's part (read through a padded window by select_range)
  /// fused as an expression is present where its algebra holds; where it
  /// is absent it takes its derived fill. Unless that is the fill the
  /// other parts share, every point of its range is a value, which no
  /// algebra over the inputs describes: the fused kernel would iterate the
  /// universe of the whole (sparse) result (AlgebraDerivation's
  /// select_range rule), unless the select gives the part a range marker
  /// (ConcatToKernel, when another part brings the common fill): its leaf
  /// is then exactly the part's range. Without one, read from the
  /// producer's result instead, the part is its stored entries (a dense
  /// one: its window), so the producer stays a kernel of its own (seed 001
  /// §5.1 with fills).
  static bool keepsPartSpace(KernelOp consumer, KernelOp producer,
                             AccessOp access) {
    if (!access.getPadded() || consumer.getResultType().isAllDense())
      return true;
    SymbolTableCollection symbols;
    Evaluator evaluator;
    AlgebraDerivation derivation(symbols, evaluator);
    Value yielded =
        producer.getBody().front().getTerminator()->getOperand(0);
    TypedAttr partFill = derivation.derive(producer, yielded).fill;
    for (OpOperand &use : access->getUses()) {
      auto select = dyn_cast<SelectRangeOp>(use.getOwner());
      if (!select)
        continue;
      // A part with a range marker is iterated over its whole range
      // whatever its fill.
      unsigned first = select.getODSOperandIndexAndLength(1).first;
      if (use.getOperandNumber() >= first &&
          use.getOperandNumber() < first + select.getParts().size() &&
          select.getRangeOf(use.getOperandNumber() - first))
        continue;
      TypedAttr common = derivation.derive(consumer, select).fill;
      if (!partFill || !common || !isSameScalar(partFill, common))
        return false;
    }
    return true;
  }

  /// Every access of input k reads it as `access` does (the fused
  /// expression replaces them all).
  static bool readOneWay(KernelOp consumer, unsigned k, AccessOp access) {
    return llvm::all_of(consumer.getInputArg(k).getUsers(), [&](Operation *u) {
      auto other = dyn_cast<AccessOp>(u);
      return other && other.getSlices() == access.getSlices() &&
             other.getPadded() == access.getPadded() &&
             other.getBoundsAttr() == access.getBoundsAttr() &&
             llvm::all_of_zip(
                 other.getIndices(), access.getIndices(), [](Value a, Value b) {
                   return a == b ||
                          (getConstantIndex(a) &&
                           getConstantIndex(a) == getConstantIndex(b));
                 });
    });
  }

  /// A producer's result dimension that no producer access reads (the
  /// producer broadcasts a lower-rank input along it) takes its extent from
  /// the producer's result type. Once fused, the consumer's variable at that
  /// place must get its extent elsewhere: from another consumer access or
  /// from a static dimension of the consumer's result. Otherwise (the
  /// consumer reduces over a broadcast-only dimension, or the result's size
  /// is dynamic) the producer stays a separate kernel.
  static bool extentsKnownAfterFusion(KernelOp consumer, unsigned k,
                                      KernelOp producer, AccessOp access) {
    unsigned producerRank = producer.getResultType().getRank();
    llvm::SmallBitVector producerUsed(producer.getNumIndices());
    llvm::SmallBitVector consumerUsed(consumer.getNumIndices());
    auto markUses = [](KernelOp kernel, llvm::SmallBitVector &used,
                       Value skipArray) {
      kernel.getBody().walk([&](AccessOp a) {
        if (a.getArray() == skipArray)
          return;
        for (Value index : a.getIndices())
          for (BlockArgument arg : getIndexVariables(index))
            used.set(arg.getArgNumber());
      });
    };
    markUses(producer, producerUsed, Value());
    markUses(consumer, consumerUsed, consumer.getInputArg(k));
    ArrayType resultType = consumer.getResultType();
    for (unsigned r = 0; r < producerRank; ++r) {
      if (producerUsed.test(r))
        continue;
      // A fixed coordinate needs no extent. The variables of a split read
      // (linearize) lose it with the read: they need another use too (a
      // 1-entry vector reshaped to 1x1 and reduced along the second).
      for (BlockArgument arg : getIndexVariables(access.getIndices()[r])) {
        unsigned var = arg.getArgNumber();
        if (consumerUsed.test(var))
          continue;
        if (var >= resultType.getRank() || resultType.isDynamicDim(var))
          return false;
      }
    }
    return true;
  }

  static void fuse(KernelOp consumer, unsigned k, KernelOp producer,
                   AccessOp access, PatternRewriter &rewriter) {
    Location loc = consumer.getLoc();
    unsigned producerRank = producer.getResultType().getRank();
    unsigned producerReduced = producer.getNumIndices() - producerRank;
    unsigned consumerIndices = consumer.getNumIndices();
    unsigned numInputs = consumer.getInputs().size();

    // New consumer: its indices, the producer's reduction indices; its
    // inputs with the producer's in place of input k (so the left-to-right
    // order of the original expression is kept).
    unsigned numProducerInputs = producer.getInputs().size();
    SmallVector<Value> inputs(consumer.getInputs().take_front(k));
    inputs.append(producer.getInputs().begin(), producer.getInputs().end());
    inputs.append(consumer.getInputs().begin() + k + 1,
                  consumer.getInputs().end());
    auto fused = KernelOp::create(rewriter, loc, consumer.getResultType(),
                                  inputs, consumerIndices + producerReduced);
    fused.setInferFill(consumer.getInferFill());
    fused.setInferFormat(consumer.getInferFormat());
    Block &body = fused.getBody().front();

    IRMapping mapping;
    for (unsigned i = 0; i < consumerIndices; ++i)
      mapping.map(consumer.getIndex(i), fused.getIndex(i));
    for (unsigned i = 0; i < numInputs; ++i)
      if (i != k)
        mapping.map(consumer.getInputArg(i),
                    fused.getInputArg(i < k ? i : i - 1 + numProducerInputs));
    // Producer: its reduction variables -> the new ones; its inputs -> the
    // appended ones. Its output variables take what the consumer's access
    // reads at each of its dimensions (composed into the producer's
    // accesses below).
    for (unsigned r = 0; r < producerReduced; ++r)
      mapping.map(producer.getIndex(producerRank + r),
                  fused.getIndex(consumerIndices + r));
    for (unsigned i = 0; i < numProducerInputs; ++i)
      mapping.map(producer.getInputArg(i), fused.getInputArg(k + i));

    OpBuilder::InsertionGuard guard(rewriter);
    rewriter.setInsertionPointToStart(&body);
    // The consumer's collapsed reads of the producer (delinearize results
    // at its dimensions) are what the producer's accesses compose with:
    // they come first.
    for (Value index : access.getIndices())
      if (auto delin = index.getDefiningOp<DelinearizeOp>())
        if (!mapping.contains(delin.getResult(0))) {
          // In windows of a split: its linearize first.
          if (auto lin = delin.getIndex().getDefiningOp<LinearizeOp>();
              lin && !mapping.contains(lin.getResult()))
            rewriter.clone(*lin, mapping);
          rewriter.clone(*delin, mapping);
        }
    DenseMap<Value, Value> composedReads;
    for (Operation &op : producer.getBody().front().without_terminator()) {
      if (auto delin = dyn_cast<DelinearizeOp>(op)) {
        composeDelinearize(rewriter, delin, producer, access, mapping);
        continue;
      }
      if (auto inner = dyn_cast<AccessOp>(op)) {
        // An input the producer reads at several places (one list of index
        // values): composed once, so the fused kernel reads it alike too.
        Value &composed = composedReads[inner.getArray()];
        if (!composed)
          composed = composeAccess(rewriter, inner, producer, access, mapping);
        mapping.map(inner.getResult(), composed);
        continue;
      }
      if (auto select = dyn_cast<SelectRangeOp>(op)) {
        mapping.map(select.getResult(),
                    composeSelect(rewriter, select, producer, access, mapping));
        continue;
      }
      rewriter.clone(op, mapping);
    }
    Value produced = mapping.lookup(producer.getYield().getValue());
    for (Operation &op : consumer.getBody().front()) {
      if (&op == access.getOperation() ||
          (isa<AccessOp>(op) &&
           cast<AccessOp>(op).getArray() == consumer.getInputArg(k))) {
        mapping.map(op.getResult(0), produced);
        continue;
      }
      // Cloned already (a collapsed read of the producer).
      if (op.getNumResults() && mapping.contains(op.getResult(0)))
        continue;
      rewriter.clone(op, mapping);
    }
    rewriter.replaceOp(consumer, fused.getResult());
    // A view read by other consumers too stays for them (isView).
    if (producer->use_empty())
      rewriter.eraseOp(producer);
  }

  /// A producer's collapsed read of its output variable r in the fused
  /// kernel: the delinearization of what the consumer reads at r (a plain
  /// variable), or the parts of a fixed coordinate (composable()).
  static void composeDelinearize(PatternRewriter &rewriter, DelinearizeOp delin,
                                 KernelOp producer, AccessOp outer,
                                 IRMapping &mapping) {
    unsigned r = cast<BlockArgument>(delin.getIndex()).getArgNumber();
    if (r >= producer.getResultType().getRank()) {
      rewriter.clone(*delin, mapping);
      return;
    }
    Value outerIndex = outer.getIndices()[r];
    if (std::optional<int64_t> c = getConstantIndex(outerIndex)) {
      for (auto [j, part] : llvm::enumerate(delin.getResults())) {
        int64_t v = *c / delin.getDivisor(j);
        if (int64_t m = delin.getModulus(j))
          v %= m;
        mapping.map(
            part, arith::ConstantIndexOp::create(rewriter, delin.getLoc(), v));
      }
      return;
    }
    // Through the consumer's split: the delinearize of its linearize.
    if (auto lin = outerIndex.getDefiningOp<LinearizeOp>();
        lin && !mapping.contains(lin.getResult()))
      rewriter.clone(*lin, mapping);
    auto fused =
        DelinearizeOp::create(rewriter, delin.getLoc(), delin.getResultTypes(),
                              mapping.lookup(outerIndex), delin.getSizesAttr());
    mapping.map(delin.getResults(), fused.getResults());
  }
};

/// An array passed twice and accessed alike (xor(a, a), a·b + a) becomes
/// one input read at several places of the expression: its leaf repeats in
/// the algebra, and the lattice's filtered Cartesian product (seed 000
/// Alg. 2) knows that both occurrences are stored or absent together.
struct MergeRepeatedInputs : public OpRewritePattern<KernelOp> {
  using OpRewritePattern::OpRewritePattern;
  static bool sameIndex(Value a, Value b) {
    if (a == b)
      return true;
    std::optional<int64_t> ca = getConstantIndex(a), cb = getConstantIndex(b);
    return ca && cb && *ca == *cb;
  }
  LogicalResult matchAndRewrite(KernelOp kernel,
                                PatternRewriter &rewriter) const override {
    // Derived attributes number the inputs; leave annotated kernels alone.
    if (kernel.getAlgebra() || kernel.getLattices())
      return failure();
    unsigned n = kernel.getInputs().size();
    for (unsigned later = 1; later < n; ++later) {
      AccessOp second = kernel.getAccessOf(later);
      if (!second)
        continue;
      for (unsigned first = 0; first < later; ++first) {
        AccessOp one = kernel.getAccessOf(first);
        if (!one || kernel.getInputs()[first] != kernel.getInputs()[later] ||
            one.getSlices() != second.getSlices() ||
            one.getPadded() != second.getPadded() ||
            one.getBoundsAttr() != second.getBoundsAttr() ||
            !llvm::all_of_zip(one.getIndices(), second.getIndices(), sameIndex))
          continue;
        BlockArgument from = kernel.getInputArg(later);
        BlockArgument to = kernel.getInputArg(first);
        // Equal constants may be distinct values: every access of the
        // merged input reads the earlier access's index values (one list of
        // index values per input).
        AccessOp earlier = one->isBeforeInBlock(second) ? one : second;
        SmallVector<Value> indices(earlier.getIndices());
        for (AccessOp access : {one, second})
          if (access != earlier)
            rewriter.modifyOpInPlace(access, [&] {
              access.getIndicesMutable().assign(indices);
            });
        rewriter.modifyOpInPlace(kernel, [&] {
          for (OpOperand &use : llvm::make_early_inc_range(from.getUses()))
            use.set(to);
          kernel->eraseOperand(later);
          kernel.getBody().front().eraseArgument(from.getArgNumber());
        });
        return success();
      }
    }
    return failure();
  }
};

struct SparseArrayFusePass
    : public sparse_array::impl::SparseArrayFusePassBase<SparseArrayFusePass> {
  using Base::Base;
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    populateSparseArrayFusionPatterns(patterns);
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      return signalPassFailure();
  }
};

} // namespace

void mlir::sparse_array::populateSparseArrayFusionPatterns(
    RewritePatternSet &patterns) {
  patterns.add<MapToKernel, ReduceToKernel, FuseProducerKernel,
               MergeRepeatedInputs>(patterns.getContext());
  populateShapeToKernelPatterns(patterns);
  populateRefillKernelPatterns(patterns);
}
