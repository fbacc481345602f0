//===- ScatterReduction.cpp - Reductions scattered in storage order -------===//
//
// A reduction planned `scatter_loops` (ScatterLoops.cpp; issue 20): its
// loops follow the inputs' storage order over every index variable, as the
// map of the reduced value would (buildScatterMapKernel, lowered by the
// ordinary loop emitter with the plan's lattices), and the output assembler
// below combines each visited point's value into an accumulator per result
// entry. The accumulators start and finish as the nested fold's would
// (KernelReduction.cpp): the start value, the combiner per visited point in
// the same order, then the fills of the points not visited. The finished
// entries go to the result through its ordinary assembler (dense in place,
// a compressed vector appended with its fills dropped). A sparse result of
// rank >= 2 accumulates one row (coordinate of its leading levels, the
// outermost loops) at a time in a workspace drained after the row's loops
// (ScatterRowsOutput.cpp). Planned parallel (an associative combiner), the
// loops' parts accumulate on their own — one per thread, the result's size
// each, no more parts than the work over that size — and the parts are
// combined per entry in order after the loop.
//
//===----------------------------------------------------------------------===//

#include "Loops/KernelLowering.h"
#include "Scatter.h"
#include "SparseArray/Transforms/Coiteration.h"
#include "SparseArray/Transforms/Parallelism.h"

#include "CodegenUtils.h"
#include "SparseArray/Conversion/RuntimeCalls.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

#include <functional>

using namespace mlir;
using namespace mlir::sparse_array;
using namespace mlir::sparse_array::detail;

namespace {

class ScatterOutput : public OutputAssembler {
public:
  ScatterOutput(OpBuilder &b, const OutputShape &shape, ScatterTarget target,
                Value *result)
      : OutputAssembler(shape), target(std::move(target)), result(result) {
    Location loc = getLoc();
    ArrayType type = this->target.kernel.getResultType();
    unsigned rank = type.getRank();
    // Result level l's coordinate is that of the loop over its variable.
    for (unsigned l = 0; l < rank; ++l) {
      unsigned var = type.getFormat().getLevelDim(l);
      unsigned p = llvm::find(this->target.order, int32_t(var)) -
                   this->target.order.begin();
      levelLoop.push_back(p);
      resultExtents.push_back(shape.extents[p]);
    }
    size = constIndex(b, loc, 1);
    for (Value e : resultExtents)
      size = b.createOrFold<arith::MulIOp>(loc, size, e);
    perEntry = constIndex(b, loc, 1);
    for (auto [p, var] : llvm::enumerate(this->target.order))
      if (unsigned(var) >= rank)
        perEntry = b.createOrFold<arith::MulIOp>(loc, perEntry, shape.extents[p]);
    Type elt = type.getElementType();
    acc = memref::AllocOp::create(
        b, loc, MemRefType::get({ShapedType::kDynamic}, elt), ValueRange{size});
    fill(b, acc, size, arith::ConstantOp::create(b, loc, this->target.start));
    if (this->target.countNegativeZerosOnly) {
      Value log = memref::AllocOp::create(
          b, loc, MemRefType::get({ShapedType::kDynamic}, b.getIndexType()),
          ValueRange{constIndex(b, loc, 16)});
      initial = {log, constIndex(b, loc, 0)};
    } else if (this->target.counting) {
      count = memref::AllocOp::create(
          b, loc, MemRefType::get({ShapedType::kDynamic}, b.getIndexType()),
          ValueRange{size});
      fill(b, count, size, constIndex(b, loc, 0));
    }
  }

  bool isDense() const override { return false; }

  /// Planned parallel (an associative combiner; Parallelism.cpp): each
  /// part of the outer loop's iterations accumulates into accumulators
  /// (and counts) of its own — part 0 into the result's, part p > 0 into
  /// its slice of `partAcc` — combined per entry in part order after the
  /// loop: every entry's fold regrouped by parts.
  bool assemblesInParts() const override { return shape.parallel; }
  /// One part per thread, and no more than the work pays for: a part's
  /// accumulators cost `size` to start and to combine, so each part visits
  /// at least `size` points (parts <= work / size) — which also bounds the
  /// extra accumulators by the work (a sparse input summed into a larger
  /// dense result stays one part).
  Value maxParts(OpBuilder &b, function_ref<Value(OpBuilder &)> work,
                 int64_t) override {
    Location loc = getLoc();
    Value threads = arith::IndexCastOp::create(
        b, loc, b.getIndexType(),
        callRuntime(b, loc, target.kernel, "omp_get_max_threads",
                    {b.getI32Type()}, {}));
    Value one = constIndex(b, loc, 1);
    Value afforded = arith::DivUIOp::create(
        b, loc, work(b), arith::MaxUIOp::create(b, loc, size, one));
    return arith::MaxUIOp::create(
        b, loc, arith::MinUIOp::create(b, loc, threads, afforded), one);
  }
  void beginParts(OpBuilder &b, Value n) override {
    Location loc = getLoc();
    parts = n;
    Value others = arith::MulIOp::create(
        b, loc, arith::SubIOp::create(b, loc, n, constIndex(b, loc, 1)), size);
    auto buffer = [&](Type t) -> Value {
      return memref::AllocOp::create(
          b, loc, MemRefType::get({ShapedType::kDynamic}, t),
          ValueRange{others});
    };
    partAcc = buffer(target.kernel.getResultType().getElementType());
    if (count)
      partCount = buffer(b.getIndexType());
  }
  SmallVector<Value> beginPart(OpBuilder &b, Value p, Value, Value,
                               Value) override {
    Location loc = getLoc();
    Value zero = constIndex(b, loc, 0);
    Value first = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, p, zero);
    Value base = arith::SelectOp::create(
        b, loc, first, zero,
        arith::MulIOp::create(
            b, loc, arith::SubIOp::create(b, loc, p, constIndex(b, loc, 1)),
            size));
    // A later part starts its slice itself (the thread that uses it).
    scf::IfOp::create(b, loc, first, [&](OpBuilder &tb, Location l) {
      scf::YieldOp::create(tb, l);
    }, [&](OpBuilder &eb, Location l) {
      Value end = arith::AddIOp::create(eb, l, base, size);
      fill(eb, partAcc, base, end,
           arith::ConstantOp::create(eb, l, target.start));
      if (count)
        fill(eb, partCount, base, end, constIndex(eb, l, 0));
      scf::YieldOp::create(eb, l);
    });
    auto pick = [&](Value mine, Value later) {
      auto which = scf::IfOp::create(
          b, loc, first,
          [&](OpBuilder &tb, Location l) { scf::YieldOp::create(tb, l, mine); },
          [&](OpBuilder &eb, Location l) {
            scf::YieldOp::create(eb, l, later);
          });
      return which.getResult(0);
    };
    SmallVector<Value> state{pick(acc, partAcc), base};
    if (count)
      state.push_back(pick(count, partCount));
    return state;
  }
  void endParts(OpBuilder &b) override {
    Location loc = getLoc();
    Value one = constIndex(b, loc, 1);
    Value several =
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ugt, parts, one);
    scf::IfOp::create(b, loc, several, [&](OpBuilder &tb, Location l) {
      emitParallelFor(tb, l, size, kMinParallelEntries,
                      [&](OpBuilder &fb, Location fl, Value q) {
                        combineParts(fb, fl, q);
                      });
      scf::YieldOp::create(tb, l);
    });
    memref::DeallocOp::create(b, loc, partAcc);
    if (partCount)
      memref::DeallocOp::create(b, loc, partCount);
  }

  SmallVector<Value> store(OpBuilder &b, ArrayRef<Value> coords, Value v,
                           ValueRange state) override {
    Location loc = getLoc();
    Value q = constIndex(b, loc, 0);
    for (auto [l, p] : llvm::enumerate(levelLoop))
      q = linearize(b, loc, q, resultExtents[l], coords[p]);
    if (parts) {
      // In a part: its accumulators, from its base.
      Value at = arith::AddIOp::create(b, loc, state[1], q);
      Value next = target.combine(
          b, memref::LoadOp::create(b, loc, state[0], at), v);
      if (count)
        next = countPoint(b, loc, target, state[2], at, v, next);
      memref::StoreOp::create(b, loc, next, state[0], at);
      return SmallVector<Value>(state);
    }
    Value a = memref::LoadOp::create(b, loc, acc, q);
    Value next = target.combine(b, a, v);
    SmallVector<Value> nextState(state);
    if (target.countNegativeZerosOnly) {
      // Log the entry of a -0.0 value (rare: behind a branch).
      auto logged = scf::IfOp::create(
          b, loc, isNegativeZero(b, loc, v),
          [&](OpBuilder &tb, Location l) {
            Value n = arith::AddIOp::create(tb, l, state[1], constIndex(tb, l, 1));
            Value buf = growToFit(tb, l, state[0], n);
            memref::StoreOp::create(tb, l, q, buf, state[1]);
            scf::YieldOp::create(tb, l, ValueRange{buf, n});
          },
          [&](OpBuilder &eb, Location l) {
            scf::YieldOp::create(eb, l, ValueRange{state[0], state[1]});
          });
      nextState.assign(logged.getResults().begin(), logged.getResults().end());
    } else if (target.counting) {
      next = countPoint(b, loc, target, count, q, v, next);
    }
    memref::StoreOp::create(b, loc, next, acc, q);
    return nextState;
  }

  Value finish(OpBuilder &b, ValueRange loopState) override {
    Location loc = getLoc();
    ArrayType type = target.kernel.getResultType();
    if (target.countNegativeZerosOnly)
      countLoggedEntries(b, loopState[0], loopState[1]);
    if (type.isAllDense()) {
      // The accumulators are the result's values, in its storage order:
      // finished in place.
      if (target.counting)
        scf::ForOp::create(
            b, loc, constIndex(b, loc, 0), size, constIndex(b, loc, 1),
            ValueRange{}, [&](OpBuilder &fb, Location l, Value q, ValueRange) {
              Value v = target.finishEntry(
                  fb, memref::LoadOp::create(fb, l, acc, q),
                  loadCount(fb, q), perEntry);
              memref::StoreOp::create(fb, l, v, acc, q);
              scf::YieldOp::create(fb, l);
            });
      if (count)
        memref::DeallocOp::create(b, loc, count);
      SmallVector<Value> dims(resultExtents.size());
      for (auto [l, e] : llvm::enumerate(resultExtents))
        dims[type.getFormat().getLevelDim(l)] = e;
      *result = AssembleOp::create(b, loc, type, ValueRange{acc}, dims);
      return *result;
    }
    OutputShape outShape{target.kernel, type, resultExtents, false};
    AppendPlan plan;
    plan.capacity = size;
    plan.capacityIsBound = true;
    plan.outerLoopsVisitEveryCoordinate = true;
    plan.vectorVisitsEveryCoordinate = type.getRank() == 1;
    std::unique_ptr<OutputAssembler> out =
        OutputAssembler::create(b, outShape, plan);
    // Every entry, in the result's storage order.
    SmallVector<Value> coords;
    std::function<SmallVector<Value>(OpBuilder &, unsigned, ValueRange)> nest =
        [&](OpBuilder &nb, unsigned l, ValueRange state) -> SmallVector<Value> {
      if (l == resultExtents.size()) {
        Value q = constIndex(nb, loc, 0);
        for (auto [e, c] : llvm::zip(resultExtents, coords))
          q = linearize(nb, loc, q, e, c);
        Value v = memref::LoadOp::create(nb, loc, acc, q);
        if (target.counting)
          v = target.finishEntry(nb, v, loadCount(nb, q), perEntry);
        return out->store(nb, coords, v, state);
      }
      auto loop = scf::ForOp::create(
          nb, loc, constIndex(nb, loc, 0), resultExtents[l],
          constIndex(nb, loc, 1), state,
          [&](OpBuilder &fb, Location fl, Value c, ValueRange inner) {
            coords.push_back(c);
            SmallVector<Value> r = nest(fb, l + 1, inner);
            coords.pop_back();
            scf::YieldOp::create(fb, fl, r);
          });
      return out->endLoop(nb, l, coords, loop.getResults());
    };
    SmallVector<Value> state = nest(b, 0, out->initialState());
    *result = out->finish(b, state);
    memref::DeallocOp::create(b, loc, acc);
    if (count)
      memref::DeallocOp::create(b, loc, count);
    return *result;
  }

private:
  /// The counts per entry of the `n` logged entries: `count` of the
  /// result's size when there are any, else one zero that every entry
  /// reads (countIndex).
  void countLoggedEntries(OpBuilder &b, Value log, Value n) {
    Location loc = getLoc();
    Value zero = constIndex(b, loc, 0), one = constIndex(b, loc, 1);
    anyLogged = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ne, n, zero);
    Value length = arith::SelectOp::create(b, loc, anyLogged, size, one);
    count = memref::AllocOp::create(
        b, loc, MemRefType::get({ShapedType::kDynamic}, b.getIndexType()),
        ValueRange{length});
    fill(b, count, length, zero);
    scf::ForOp::create(b, loc, zero, n, one, ValueRange{},
                       [&](OpBuilder &fb, Location l, Value e, ValueRange) {
                         Value q = memref::LoadOp::create(fb, l, log, e);
                         Value c = memref::LoadOp::create(fb, l, count, q);
                         memref::StoreOp::create(
                             fb, l, arith::AddIOp::create(fb, l, c, one),
                             count, q);
                         scf::YieldOp::create(fb, l);
                       });
    memref::DeallocOp::create(b, loc, log);
  }

  Value loadCount(OpBuilder &b, Value q) {
    if (anyLogged)
      q = arith::SelectOp::create(b, getLoc(), anyLogged, q,
                                  constIndex(b, getLoc(), 0));
    return memref::LoadOp::create(b, getLoc(), count, q);
  }

  /// Entry q's accumulator (and count) combined with those of parts
  /// 1 .. parts-1 in order: counts added; without an identity a part that
  /// reached no point of q is skipped and the first that did starts it
  /// (as the sequential loop's first point does).
  void combineParts(OpBuilder &b, Location loc, Value q) {
    Value one = constIndex(b, loc, 1);
    SmallVector<Value> init{memref::LoadOp::create(b, loc, acc, q)};
    if (count)
      init.push_back(memref::LoadOp::create(b, loc, count, q));
    auto loop = scf::ForOp::create(
        b, loc, one, parts, one, init,
        [&](OpBuilder &fb, Location l, Value p, ValueRange s) {
          Value at = arith::AddIOp::create(
              fb, l,
              arith::MulIOp::create(fb, l, arith::SubIOp::create(fb, l, p, one),
                                    size),
              q);
          Value v = memref::LoadOp::create(fb, l, partAcc, at);
          if (!count) {
            scf::YieldOp::create(fb, l, target.combine(fb, s[0], v));
            return;
          }
          Value n = memref::LoadOp::create(fb, l, partCount, at);
          Value a = target.hasIdentity
                        ? target.combine(fb, s[0], v)
                        : combineCountedRuns(fb, l, s[0], s[1], v, n,
                                             target.combine);
          scf::YieldOp::create(
              fb, l, ValueRange{a, arith::AddIOp::create(fb, l, s[1], n)});
        });
    memref::StoreOp::create(b, loc, loop.getResult(0), acc, q);
    if (count)
      memref::StoreOp::create(b, loc, loop.getResult(1), count, q);
  }

  void fill(OpBuilder &b, Value buffer, Value length, Value value) {
    fill(b, buffer, constIndex(b, getLoc(), 0), length, value);
  }
  void fill(OpBuilder &b, Value buffer, Value from, Value to, Value value) {
    Location loc = getLoc();
    scf::ForOp::create(b, loc, from, to, constIndex(b, loc, 1), ValueRange{},
                       [&](OpBuilder &fb, Location l, Value i, ValueRange) {
                         memref::StoreOp::create(fb, l, value, buffer, i);
                         scf::YieldOp::create(fb, l);
                       });
  }

  ScatterTarget target;
  Value *result;
  SmallVector<unsigned> levelLoop;
  SmallVector<Value> resultExtents;
  Value size, perEntry, acc, count;
  /// countNegativeZerosOnly: whether some -0.0 value was logged.
  Value anyLogged;
  /// In parts: how many, and parts 1.. 's accumulators and counts.
  Value parts, partAcc, partCount;
};

} // namespace

LogicalResult KernelLowering::runScatterReduction(ReduceOverOp reduce) {
  ArrayRef<int32_t> order = *reduce.getScatterLoops();
  if (kernel.getYield().getValue() != reduce.getResult() ||
      !reduce.getStrategy())
    return kernel.emitError(
        "a reduction planned scatter_loops must be the kernel's result");
  reduction = reduce;
  combiner =
      symbols.lookupNearestSymbolFrom<FuncOp>(kernel, reduce.getCombinerAttr());
  reductionPlan = ReductionPlan::fromAttr(reduce.getPlanAttr(), combiner);
  using Strategy = ReductionPlan::Strategy;
  Type t = reduce.getType();
  TypedAttr zero = isa<FloatType>(t) ? TypedAttr(FloatAttr::get(t, 0.0))
                                     : TypedAttr(IntegerAttr::get(t, 0));
  ScatterTarget target;
  target.kernel = kernel;
  target.order = order;
  target.hasIdentity = reductionPlan.identity != nullptr;
  // Counts finish the fills in, or find each entry's first point when
  // there is no identity to start from.
  target.counting = reductionPlan.strategy == Strategy::Idempotent ||
                    reductionPlan.strategy == Strategy::Reassociate ||
                    reductionPlan.strategy == Strategy::SignedZeroSum ||
                    (reductionPlan.strategy == Strategy::Universe &&
                     !target.hasIdentity);
  target.countNegativeZerosOnly =
      reductionPlan.strategy == Strategy::SignedZeroSum;
  target.start = reductionPlan.identity    ? reductionPlan.identity
                 : reductionPlan.valueFill ? reductionPlan.valueFill
                                           : zero;
  target.combine = [this](OpBuilder &b, Value a, Value v) {
    return emitCombinerCall(b, a, v);
  };
  target.finishEntry = [this](OpBuilder &b, Value a, Value n, Value total) {
    return finishReduction(b, a, n, total);
  };

  OpBuilder b(kernel);
  KernelOp map = buildScatterMapKernel(b, kernel, reduce, order);
  map.setLatticesAttr(*kernel.getLattices());
  // The plan of the map's loops (a dense result: no `parts`; the
  // accumulators below assemble in parts).
  if (ParallelAttr plan = kernel.getParallelAttr())
    map.setParallelAttr(ParallelAttr::get(
        plan.getContext(), plan.getMode(), plan.getMinExtent(),
        plan.getMinWork(), plan.getBalance(), false, false, false,
        plan.getReason()));
  Value result;
  KernelLowering loops(map, symbols);
  ArrayType resultType = kernel.getResultType();
  unsigned prefix = resultType.isAllDense() || resultType.getRank() == 1
                        ? 0
                        : scatterRowPrefix(resultType, order);
  if (!resultType.isAllDense() && resultType.getRank() > 1 &&
      (prefix == 0 || prefix >= resultType.getRank()))
    return kernel.emitError("a sparse result of rank >= 2 planned "
                            "scatter_loops needs its leading level as the "
                            "outermost loop");
  loops.outputFactory = [&](OpBuilder &ob, const OutputShape &shape)
      -> std::unique_ptr<OutputAssembler> {
    if (prefix)
      return createScatterRowsOutput(ob, shape, target, prefix, &result);
    return std::make_unique<ScatterOutput>(ob, shape, target, &result);
  };
  if (failed(loops.run()) || hadError || !result)
    return failure();
  kernel.getResult().replaceAllUsesWith(result);
  kernel.erase();
  return success();
}
