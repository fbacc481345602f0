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

#include "KernelLowering.h"
#include "SparseArray/Conversion/LevelIterator.h"

#include "CodegenUtils.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "llvm/Support/SaveAndRestore.h"

using namespace mlir;
using namespace mlir::sparse_array;
using namespace mlir::sparse_array::detail;

SmallVector<Value> KernelLowering::emitParallelOuterLoop(
    OpBuilder &b, Value extent, ValueRange init,
    function_ref<SmallVector<Value>(OpBuilder &, Location, Value, ValueRange)>
        body) {
  // The plan vouched that the iterations share nothing; a hand-written
  // plan may be wrong.
  if (!init.empty()) {
    if (!hadError)
      kernel.emitError() << "kernel is planned parallel, but its outermost "
                            "loop carries "
                         << init.size() << " values";
    hadError = true;
    return SmallVector<Value>(init);
  }
  // Parts of equal work: the balancing input's positions below its
  // outermost (full) level.
  Value positions;
  if (int64_t k = parallelPlan.getBalance(); k >= 0)
    positions = fetchLevelBuffers(b, loc, kernel.getInputs()[k], 1).positions;
  int64_t minExtent = parallelPlan.getMinExtent();
  if (!output->assemblesInParts()) {
    // One parallel loop per phase of the output's assembly; an iteration
    // carries only the state its row starts with (two-phase: its count or
    // its write position).
    for (unsigned phase = 0; phase < output->numPhases(); ++phase) {
      output->beginPhase(b, phase);
      emitBalancedParallelFor(b, loc, extent, minExtent, positions,
                              [&](OpBuilder &pb, Location l, Value x) {
                                SmallVector<Value> row = output->rowState(pb, x);
                                output->endRow(pb, x, body(pb, l, x, row));
                              });
    }
    return {};
  }
  // In parts: up to kBalancedParts from min_extent iterations on, else one
  // part run sequentially (no parallel region for a short loop).
  auto runPart = [&](OpBuilder &pb, Location l, Value p, Value lo, Value hi) {
    SmallVector<Value> state = output->beginPart(pb, p, lo, hi);
    auto rows = scf::ForOp::create(
        pb, l, lo, hi, constIndex(pb, l, 1), state,
        [&](OpBuilder &fb, Location fl, Value x, ValueRange args) {
          scf::YieldOp::create(fb, fl, body(fb, fl, x, args));
        });
    output->endPart(pb, p, rows.getResults());
  };
  Value zero = constIndex(b, loc, 0), one = constIndex(b, loc, 1);
  Value many =
      arith::MinUIOp::create(b, loc, extent, constIndex(b, loc, kBalancedParts));
  std::optional<int64_t> staticExtent = getConstantIntValue(extent);
  if (staticExtent) {
    bool large = *staticExtent >= minExtent;
    Value parts = large ? many : one;
    output->beginParts(b, parts);
    if (large)
      emitParallelParts(b, loc, extent, parts, positions, runPart);
    else
      runPart(b, loc, zero, zero, extent);
    output->endParts(b);
    return {};
  }
  Value large = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::uge, extent,
                                      constIndex(b, loc, minExtent));
  Value parts = arith::SelectOp::create(b, loc, large, many, one);
  output->beginParts(b, parts);
  scf::IfOp::create(
      b, loc, large,
      [&](OpBuilder &tb, Location l) {
        emitParallelParts(tb, l, extent, parts, positions, runPart);
        scf::YieldOp::create(tb, l);
      },
      [&](OpBuilder &eb, Location l) {
        runPart(eb, l, constIndex(eb, l, 0), constIndex(eb, l, 0), extent);
        scf::YieldOp::create(eb, l);
      });
  output->endParts(b);
  return {};
}

SmallVector<Value> KernelLowering::emitParallelReduction(
    OpBuilder &b, Value extent, ValueRange init, unsigned stateOffset,
    function_ref<SmallVector<Value>(OpBuilder &, Location, Value, ValueRange)>
        body) {
  if (stateOffset != 0) {
    if (!hadError)
      kernel.emitError() << "kernel is planned parallel, but its outermost "
                            "loop carries "
                         << stateOffset << " cursors";
    hadError = true;
    return SmallVector<Value>(init);
  }
  Value positions;
  if (int64_t k = parallelPlan.getBalance(); k >= 0)
    positions = fetchLevelBuffers(b, loc, kernel.getInputs()[k], 1).positions;
  int64_t minExtent = parallelPlan.getMinExtent();
  Value zero = constIndex(b, loc, 0), one = constIndex(b, loc, 1);
  // The parts depend on the extent alone, so the regrouped fold (and a
  // float result) is the same for any number of threads.
  Value many =
      arith::MinUIOp::create(b, loc, extent, constIndex(b, loc, kBalancedParts));
  std::optional<int64_t> staticExtent = getConstantIntValue(extent);
  Value large;
  Value parts;
  if (staticExtent) {
    parts = *staticExtent >= minExtent ? many : one;
  } else {
    large = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::uge, extent,
                                  constIndex(b, loc, minExtent));
    parts = arith::SelectOp::create(b, loc, large, many, one);
  }
  // Each part's final state, one buffer per state value.
  SmallVector<Value> partials;
  for (Value v : init)
    partials.push_back(memref::AllocOp::create(
        b, loc, MemRefType::get({ShapedType::kDynamic}, v.getType()),
        ValueRange{parts}));
  auto runPart = [&](OpBuilder &pb, Location l, Value p, Value lo, Value hi) {
    llvm::SaveAndRestore inPart(sharingOut, true);
    SmallVector<Value> state = emitCountedLoop(
        pb, 0, arith::SubIOp::create(pb, l, hi, lo), init, 0,
        [&](OpBuilder &fb, Location fl, Value x, ValueRange args) {
          return body(fb, fl, arith::AddIOp::create(fb, fl, x, lo), args);
        });
    for (auto [v, buffer] : llvm::zip(state, partials))
      memref::StoreOp::create(pb, l, v, buffer, ValueRange{p});
  };
  auto sequential = [&](OpBuilder &sb, Location l) {
    runPart(sb, l, constIndex(sb, l, 0), constIndex(sb, l, 0), extent);
  };
  if (staticExtent && *staticExtent >= minExtent) {
    emitParallelParts(b, loc, extent, parts, positions, runPart);
  } else if (staticExtent) {
    sequential(b, loc);
  } else {
    scf::IfOp::create(
        b, loc, large,
        [&](OpBuilder &tb, Location l) {
          emitParallelParts(tb, l, extent, parts, positions, runPart);
          scf::YieldOp::create(tb, l);
        },
        [&](OpBuilder &eb, Location l) {
          sequential(eb, l);
          scf::YieldOp::create(eb, l);
        });
  }
  // Part 0's state, then each next part's in order.
  auto load = [&](OpBuilder &lb, Location l, Value p) {
    SmallVector<Value> state;
    for (Value buffer : partials)
      state.push_back(memref::LoadOp::create(lb, l, buffer, ValueRange{p}));
    return state;
  };
  auto combined = scf::ForOp::create(
      b, loc, one, parts, one, load(b, loc, zero),
      [&](OpBuilder &fb, Location l, Value p, ValueRange acc) {
        scf::YieldOp::create(
            fb, l, combineReductionStates(fb, acc, load(fb, l, p)));
      });
  for (Value buffer : partials)
    memref::DeallocOp::create(b, loc, buffer);
  return SmallVector<Value>(combined.getResults());
}
