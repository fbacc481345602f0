//===- ParallelLoop.cpp - A kernel's outermost loop, planned parallel -----===//
//
// The plan (sparse-array-plan-parallel) vouched that the outermost loop's
// iterations write disjoint parts of the output. How they share it out
// depends on the output's assembly: stored in place or in two phases, each
// iteration is on its own (an scf.parallel over rows or over parts of
// equal work, once per phase); assembled in parts, each part of the
// iterations carries its own state through its rows. A scalar reduction's
// first loop is shared out the same way, each part reducing on its own and
// the parts' states combined in order.
//
//===----------------------------------------------------------------------===//

#include "Loops/KernelLowering.h"
#include "SparseArray/Conversion/LevelIterator.h"

#include "CodegenUtils.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"

using namespace mlir;
using namespace mlir::sparse_array;
using namespace mlir::sparse_array::detail;

bool KernelLowering::rejectCarriedParallelLoop(unsigned carried) {
  // The plan vouched that the iterations share nothing; a hand-written
  // plan may be wrong.
  if (carried == 0)
    return false;
  if (!hadError)
    kernel.emitError() << "kernel is planned parallel, but its outermost "
                          "loop carries "
                       << carried << " values";
  hadError = true;
  return true;
}

Value KernelLowering::parallelBalancePositions(OpBuilder &b) {
  // Parts of equal work: the balancing input's positions below its
  // outermost level (full, or the stored coordinates ranges are cut at);
  // equal counts when that level has none.
  int64_t k = parallelPlan.getBalance();
  if (k < 0)
    return Value();
  auto type = cast<ArrayType>(kernel.getInputs()[k].getType());
  if (type.getRank() < 2 || !type.getFormat().getLevels()[1].isSegmented())
    return Value();
  return fetchLevelBuffers(b, loc, kernel.getInputs()[k], 1).positions;
}

Value KernelLowering::parallelWork(OpBuilder &b, int64_t atMost) {
  Value work = storedValuesRead(b, loc, kernel, atMost);
  if (algebra.normalize().withinStoredEntries())
    return work;
  // p stays <= atMost and each factor is below it before multiplying:
  // the product fits in 64 bits for any atMost below 2^31.
  Value most = constIndex(b, loc, atMost);
  Value p = constIndex(b, loc, 1);
  for (Value e : extents) {
    if (!e)
      continue;
    Value prod = b.createOrFold<arith::MulIOp>(
        loc, p, b.createOrFold<arith::MinUIOp>(loc, e, most));
    p = b.createOrFold<arith::MinUIOp>(loc, prod, most);
  }
  return b.createOrFold<arith::AddIOp>(loc, work, p);
}

Value KernelLowering::parallelWorthwhile(OpBuilder &b, Value extent) {
  int64_t minExtent = parallelPlan.getMinExtent();
  int64_t minWork = parallelPlan.getMinWork();
  Type i1 = b.getI1Type();
  std::optional<int64_t> size = getConstantIntValue(extent);
  if (size && *size < minExtent)
    return arith::ConstantIntOp::create(b, loc, i1, 0);
  Value large = size ? arith::ConstantIntOp::create(b, loc, i1, 1).getResult()
                     : arith::CmpIOp::create(b, loc, arith::CmpIPredicate::uge,
                                             extent,
                                             constIndex(b, loc, minExtent))
                           .getResult();
  // One thread: the sequential code (the single part) is the faster one.
  large = b.createOrFold<arith::AndIOp>(loc, large,
                                        severalThreads(b, loc, kernel));
  if (minWork <= 1)
    return large;
  Value enough = b.createOrFold<arith::CmpIOp>(
      loc, arith::CmpIPredicate::uge, parallelWork(b, minWork),
      constIndex(b, loc, minWork));
  return b.createOrFold<arith::AndIOp>(loc, large, enough);
}

Value KernelLowering::emitPartsOrOne(
    OpBuilder &b, Value extent, OutputAssembler *assembler,
    function_ref<void(OpBuilder &, Value)> setUp,
    function_ref<void(OpBuilder &, Location, Value, Value, Value)> runPart) {
  Value positions = parallelBalancePositions(b);
  int64_t minExtent = parallelPlan.getMinExtent();
  Value one = constIndex(b, loc, 1);
  Value large = parallelWorthwhile(b, extent);
  // The number of parts depends on the extent alone (a regrouped scalar
  // reduction is then the same for any thread count) — unless the
  // assembler limits it: a scatter reduction's accumulator per part is the
  // result's size, so it runs one part per thread.
  Value many =
      arith::MinUIOp::create(b, loc, extent, constIndex(b, loc, kBalancedParts));
  auto work = [&](OpBuilder &wb) {
    return positions ? loadIndex(wb, loc, positions, extent) : extent;
  };
  if (assembler)
    if (Value most = assembler->maxParts(b, work, minExtent))
      many = arith::MinUIOp::create(b, loc, many, most);
  auto parallel = [&](OpBuilder &pb, Location l, Value parts) {
    // Parts that wait for the one before them are claimed in order.
    if (Value chain = assembler ? assembler->chain() : Value())
      emitClaimedParts(pb, l, kernel, extent, parts, positions, chain, runPart);
    else
      emitParallelParts(pb, l, extent, parts, positions, runPart);
  };
  auto single = [&](OpBuilder &sb, Location l) {
    runPart(sb, l, constIndex(sb, l, 0), constIndex(sb, l, 0), extent);
  };
  if (std::optional<int64_t> known = getConstantIntValue(large)) {
    Value parts = *known ? many : one;
    setUp(b, parts);
    if (*known)
      parallel(b, loc, parts);
    else
      single(b, loc);
    return parts;
  }
  Value parts = arith::SelectOp::create(b, loc, large, many, one);
  setUp(b, parts);
  scf::IfOp::create(
      b, loc, large,
      [&](OpBuilder &tb, Location l) {
        parallel(tb, l, parts);
        scf::YieldOp::create(tb, l);
      },
      [&](OpBuilder &eb, Location l) {
        single(eb, l);
        scf::YieldOp::create(eb, l);
      });
  return parts;
}

SmallVector<Value> KernelLowering::emitParallelOuterLoop(
    OpBuilder &b, Value extent, ValueRange init,
    function_ref<SmallVector<Value>(OpBuilder &, Location, Value, ValueRange)>
        body) {
  if (rejectCarriedParallelLoop(init.size()))
    return SmallVector<Value>(init);
  if (!output->assemblesInParts()) {
    // One parallel loop per phase of the output's assembly; an iteration
    // carries only the state its row starts with (two-phase: its count or
    // its write position).
    Value positions = parallelBalancePositions(b);
    Value large = parallelWorthwhile(b, extent);
    for (unsigned phase = 0; phase < output->numPhases(); ++phase) {
      output->beginPhase(b, phase);
      emitBalancedParallelForIf(
          b, loc, extent, large, positions,
          [&](OpBuilder &pb, Location l, Value x) {
            SmallVector<Value> row = output->rowState(pb, x);
            output->endRow(pb, x, body(pb, l, x, row));
          });
    }
    return {};
  }
  // In parts, each carrying the output's state through its iterations.
  emitPartsOrOne(
      b, extent,
      output.get(),
      [&](OpBuilder &sb, Value parts) { output->beginParts(sb, parts); },
      [&](OpBuilder &pb, Location l, Value p, Value lo, Value hi) {
        SmallVector<Value> state = output->beginPart(pb, p, lo, hi);
        auto rows = scf::ForOp::create(
            pb, l, lo, hi, constIndex(pb, l, 1), state,
            [&](OpBuilder &fb, Location fl, Value x, ValueRange args) {
              scf::YieldOp::create(fb, fl, body(fb, fl, x, args));
            });
        output->endPart(pb, p, rows.getResults());
      });
  output->endParts(b);
  return {};
}

SmallVector<Value> KernelLowering::emitParallelRanges(
    OpBuilder &b, const Context &ctx, ArrayRef<unsigned> participants,
    ArrayRef<Value> begin, ArrayRef<Value> end, Value extent, bool universe,
    ValueRange out, SegmentLoops loops) {
  if (rejectCarriedParallelLoop(out.size()))
    return SmallVector<Value>(out);
  // Bisection narrows a segment to a range of coordinates only on ordered
  // levels (KernelAnalysis checked that the cut input is coiterated).
  std::optional<unsigned> cut;
  for (auto [i, k] : llvm::enumerate(participants)) {
    const InputLevel &level = inputs[k].levels[ctx.processed[k]];
    if (!level.spec.ordered) {
      if (!hadError)
        kernel.emitError() << "kernel is planned parallel over ranges of "
                              "stored coordinates, but input "
                           << k << "'s outermost iterated level is not ordered";
      hadError = true;
      return SmallVector<Value>(out);
    }
    if (static_cast<int64_t>(k) == parallelPlan.getBalance())
      cut = i;
  }
  // The cut input's coordinate at stored position r; the extent past its
  // last (the last range ends there).
  auto coordinateAt = [&](OpBuilder &pb, Location l, Value r) {
    LevelIterator &cutLevel =
        *inputs[participants[*cut]].levels[ctx.processed[participants[*cut]]]
             .iterator;
    Value inside = arith::CmpIOp::create(pb, l, arith::CmpIPredicate::ult, r,
                                         end[*cut]);
    auto at = scf::IfOp::create(
        pb, l, inside,
        [&](OpBuilder &tb, Location tl) {
          scf::YieldOp::create(
              tb, tl, cutLevel.coordinate(tb, tl, begin[*cut], r));
        },
        [&](OpBuilder &eb, Location el) { scf::YieldOp::create(eb, el, extent); });
    return at.getResult(0);
  };
  // Parts of the cut input's positions [0, end) (its outermost level's
  // segment starts at 0), or of equal coordinates [0, extent) without one
  // (a loop that visits every coordinate, U: equal ranges, equal work).
  emitPartsOrOne(
      b, cut ? end[*cut] : extent, output.get(),
      [&](OpBuilder &sb, Value parts) { output->beginParts(sb, parts); },
      [&](OpBuilder &pb, Location l, Value p, Value lo, Value hi) {
        // Coordinates [from, to): with a cut input, the first part from 0
        // (other inputs may store coordinates before the cut input's first).
        Value from = lo, to = hi;
        if (cut) {
          Value first = arith::CmpIOp::create(
              pb, l, arith::CmpIPredicate::eq, p, constIndex(pb, l, 0));
          from = arith::SelectOp::create(pb, l, first, constIndex(pb, l, 0),
                                         coordinateAt(pb, l, lo));
          to = coordinateAt(pb, l, hi);
        }
        SmallVector<Value> partBegin, partEnd;
        // What the loop visits: every coordinate of the range under U,
        // else at most the range's stored coordinates (a part's buffers are
        // not sized by a hypersparse range's span).
        Value visits = universe ? arith::SubIOp::create(pb, l, to, from)
                                : constIndex(pb, l, 0);
        for (auto [i, k] : llvm::enumerate(participants)) {
          LevelIterator &it = *inputs[k].levels[ctx.processed[k]].iterator;
          Value lower = it.search(pb, l, begin[i], end[i], from).first;
          partBegin.push_back(lower);
          partEnd.push_back(it.search(pb, l, lower, end[i], to).first);
          if (!universe)
            visits = arith::AddIOp::create(
                pb, l, visits,
                arith::SubIOp::create(pb, l, partEnd.back(), lower));
        }
        SmallVector<Value> state = output->beginPart(pb, p, from, to, visits);
        // The range's loops are sequential; a counted loop (U) runs over
        // its coordinates only.
        Context part = ctx;
        part.sharingOut = true;
        part.partCoordinates = std::pair(from, to);
        output->endPart(pb, p, loops(pb, part, partBegin, partEnd, state));
      });
  output->endParts(b);
  return {};
}

SmallVector<Value> KernelLowering::emitParallelReduction(
    OpBuilder &b, const Context &ctx, Value extent, ValueRange init,
    unsigned stateOffset,
    function_ref<SmallVector<Value>(OpBuilder &, Location, Value, ValueRange)>
        body) {
  if (rejectCarriedParallelLoop(stateOffset))
    return SmallVector<Value>(init);
  // Each part's final state, one buffer per state value.
  SmallVector<Value> partials;
  Value parts = emitPartsOrOne(
      b, extent, nullptr,
      [&](OpBuilder &sb, Value n) {
        for (Value v : init)
          partials.push_back(memref::AllocOp::create(
              sb, loc, MemRefType::get({ShapedType::kDynamic}, v.getType()),
              ValueRange{n}));
      },
      [&](OpBuilder &pb, Location l, Value p, Value lo, Value hi) {
        // The part's loop is sequential.
        Context part = ctx;
        part.sharingOut = true;
        SmallVector<Value> state = emitCountedLoop(
            pb, 0, part, arith::SubIOp::create(pb, l, hi, lo), init, 0,
            [&](OpBuilder &fb, Location fl, Value x, ValueRange args) {
              return body(fb, fl, arith::AddIOp::create(fb, fl, x, lo), args);
            });
        for (auto [v, buffer] : llvm::zip(state, partials))
          memref::StoreOp::create(pb, l, v, buffer, ValueRange{p});
      });
  // Part 0's state, then each next part's in order.
  auto load = [&](OpBuilder &lb, Location l, Value p) {
    SmallVector<Value> state;
    for (Value buffer : partials)
      state.push_back(memref::LoadOp::create(lb, l, buffer, ValueRange{p}));
    return state;
  };
  Value one = constIndex(b, loc, 1);
  auto combined = scf::ForOp::create(
      b, loc, one, parts, one, load(b, loc, constIndex(b, loc, 0)),
      [&](OpBuilder &fb, Location l, Value p, ValueRange acc) {
        scf::YieldOp::create(
            fb, l, combineReductionStates(fb, acc, load(fb, l, p), ctx));
      });
  for (Value buffer : partials)
    memref::DeallocOp::create(b, loc, buffer);
  return SmallVector<Value>(combined.getResults());
}
