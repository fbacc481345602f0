//===- LoopEmitter.cpp - Loops over lattices and level iterators ----------===//
//
// seed 000 §7.1 (one loop per lattice point, cases per sub-point,
// omitters skipped at the innermost loop); seed 001 §6.3 (iterate vs
// locate) and §7.2 (loops from the iterator model).
//
//===----------------------------------------------------------------------===//

#include "KernelLowering.h"
#include "LoopLeaves.h"
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
#include "Iterators/SequenceIteratorImpl.h"

#include "mlir/Analysis/SliceAnalysis.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/Support/InterleavedRange.h"

#include <limits>

using namespace mlir;
using namespace mlir::sparse_array;
using namespace mlir::sparse_array::detail;

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
    // The iterator maps the coordinate through the access's combinators.
    // Where a miss still lands at a stored position (missLandsInBounds)
    // and nothing missed before, the value is loaded and selected away.
    bool foundBefore = ctx.found[k] != Value();
    Value pos = level.iterator->locateAccess(b, loc, ctx.lo[k], crd,
                                             ctx.coords, ctx.found[k]);
    if (!foundBefore && ctx.found[k] && level.iterator->missLandsInBounds()) {
      ctx.inBounds |= uint64_t(1) << k;
      ctx.locatedMisses |= uint64_t(1) << k;
    }
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
  // A miss leaves the search's end: possibly past every stored value.
  ctx.inBounds &= ~(uint64_t(1) << k);
  ctx.locatedMisses &= ~(uint64_t(1) << k);
  ctx.found[k] =
      ctx.found[k] ? Value(arith::AndIOp::create(b, loc, ctx.found[k], r.found))
                   : r.found;
  ++ctx.processed[k];
}

SmallVector<Value> KernelLowering::emitLoop(OpBuilder &b, unsigned d,
                                            const Context &ctx,
                                            ValueRange out) {
  SmallVector<Value> o = emitLoopBody(b, d, ctx, out);
  // The output may finish a result level's segment (positions per parent).
  if (d < rank)
    return output->endLoop(b, d, ctx.coords, o);
  return o;
}

SmallVector<Value> KernelLowering::emitLoopBody(OpBuilder &b, unsigned d,
                                                const Context &ctxIn,
                                                ValueRange out) {
  Context ctx = ctxIn;
  for (unsigned k = 0; k < inputs.size(); ++k)
    if (ctx.alive >> k & 1)
      locateLevels(b, ctx, k, d);

  // Inputs coiterated by this loop: those whose next level is bound here
  // and cannot be located, and those the plan chose to iterate although
  // they could be located (a dense part of a concatenation, iterated in
  // its window only: seed 001 §5.1's range of a part).
  SmallVector<unsigned> bound, participants;
  for (unsigned k = 0; k < inputs.size(); ++k) {
    if (!(ctx.alive >> k & 1))
      continue;
    Input &in = inputs[k];
    unsigned first = ctx.processed[k];
    if (first < in.levels.size() &&
        in.levels[first].loop == static_cast<int>(d)) {
      bound.push_back(k);
      // Iterated when some bound level cannot be located (a collapsed
      // read's parts are iterated together, full ones too).
      unsigned g = boundLevels(ctx, k, d);
      if (llvm::any_of(
              ArrayRef(in.levels).slice(first, g),
              [](const InputLevel &l) { return !l.iterator->canLocate(); }))
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
  if (plan &&
      llvm::all_of(plan.getCoiterated(),
                   [&](unsigned k) { return llvm::is_contained(bound, k); }) &&
      llvm::all_of(participants, [&](unsigned k) {
        return llvm::is_contained(plan.getCoiterated(), k);
      }))
    participants.assign(plan.getCoiterated().begin(),
                        plan.getCoiterated().end());
  if (!plan || plan.getCoiterated() != ArrayRef<unsigned>(participants)) {
    if (!hadError)
      kernel.emitError() << "kernel has no lattice for loop " << d
                         << " with inputs "
                         << llvm::interleaved_array(participants)
                         << " coiterated; run --sparse-array-build-lattices";
    hadError = true;
    return SmallVector<Value>(out);
  }
  Lattice lattice = plan.getLattice();
  if (lattice.empty() && !plan.getLinear())
    return SmallVector<Value>(out);
  // What each input iterates as (seed 001 §5.2): the plan's view, which
  // must read what the access reads (a hand-written plan may not).
  SmallVector<SequenceExpr> views;
  for (unsigned k : participants) {
    const InputLevel &level = inputs[k].levels[ctx.processed[k]];
    SequenceExpr expected =
        level.iterator->accessView(k, boundLevels(ctx, k, d));
    views.push_back(plan.getView(k));
    if (views.back() != expected) {
      if (!hadError)
        kernel.emitError() << "the plan of loop " << d << " iterates input "
                           << k << " as " << views.back().str()
                           << ", but its access reads " << expected.str();
      hadError = true;
      return SmallVector<Value>(out);
    }
  }
  ctx.loopViews = views;

  // Iterator ranges.
  unsigned n = participants.size();
  SmallVector<Value> begin(n), end(n);
  for (unsigned i = 0; i < n; ++i) {
    std::tie(begin[i], end[i]) = initSegment(b, ctx, participants[i]);
  }
  // A reduction at a point outside the kernel's space: nothing to visit.
  Value extent = extents[d];
  if (ctx.inReduction && d == rank && ctx.rangeGuard) {
    for (unsigned i = 0; i < n; ++i)
      end[i] =
          arith::SelectOp::create(b, loc, ctx.rangeGuard, end[i], begin[i]);
    extent = arith::SelectOp::create(b, loc, ctx.rangeGuard, extent,
                                     constIndex(b, loc, 0));
  }
  auto loops = [&](OpBuilder &lb, const Context &lctx, ArrayRef<Value> from,
                   ArrayRef<Value> to, ValueRange o) -> SmallVector<Value> {
    if (plan.getLinear())
      return emitMergedLoop(lb, d, lctx, lattice, participants, from, to,
                            extent, o, /*linear=*/true);
    if (lctx.inReduction && d == rank && keyed && n > 0 && !lctx.fastFloat &&
        reductionPlan.keyShortRange > 0)
      return emitKeyedDispatch(lb, d, lctx, lattice, plan.getMerged(),
                               participants, from, to, extent, o);
    return emitLoops(lb, d, lctx, lattice, plan.getMerged(), participants,
                     from, to, extent, o, plan.getBranchless());
  };
  if (d == 0 && !ctx.sharingOut && parallelPlan && parallelPlan.isRanges())
    return emitParallelRanges(
        b, ctx, participants, begin, end, extent,
        !lattice.empty() && lattice.getPoints().front().universe, out, loops);
  return loops(b, ctx, begin, end, out);
}

SmallVector<Value> KernelLowering::emitKeyedDispatch(
    OpBuilder &b, unsigned d, const Context &ctx, const Lattice &lattice,
    bool merged, ArrayRef<unsigned> participants, ArrayRef<Value> begin,
    ArrayRef<Value> end, Value extent, ValueRange out) {
  // The longest range: what the loop visits at most.
  Value len = constIndex(b, loc, 0);
  for (unsigned i = 0; i < participants.size(); ++i)
    len = arith::MaxUIOp::create(
        b, loc, len, arith::SubIOp::create(b, loc, end[i], begin[i]));
  Value isShort =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ule, len,
                            constIndex(b, loc, reductionPlan.keyShortRange));
  auto keyedLoops = [&](OpBuilder &kb) {
    return emitLoops(kb, d, ctx, lattice, merged, participants, begin, end,
                     extent, out);
  };
  auto branch = scf::IfOp::create(
      b, loc, isShort,
      [&](OpBuilder &tb, Location l) {
        // Floats in, floats out; the state's other values pass unchanged.
        SmallVector<Value> in(out);
        in[0] = fromKey(tb, out[0]);
        Context floats = ctx;
        floats.fastFloat = true;
        SmallVector<Value> r = emitLoops(tb, d, floats, lattice, merged,
                                         participants, begin, end, extent, in);
        // A zero may have the wrong sign (and a NaN flag settles it all).
        Value zero = arith::CmpFOp::create(
            tb, l, arith::CmpFPredicate::OEQ, r[0],
            arith::ConstantOp::create(tb, l,
                                      tb.getFloatAttr(r[0].getType(), 0.0)));
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

/// What a loop body asks once: which leaves are at x.
static SequenceIterator::LeafMatches matchesAt(OpBuilder &b, Location loc,
                                               SequenceIterator &it, Value x) {
  SmallVector<std::pair<LeafIterator *, Value>> found;
  it.collectMatched(b, loc, x, found);
  return SequenceIterator::toMatches(found);
}

SmallVector<Value> KernelLowering::emitLoops(
    OpBuilder &b, unsigned d, const Context &ctx, const Lattice &lattice,
    bool merged, ArrayRef<unsigned> participants, ArrayRef<Value> begin,
    ArrayRef<Value> end, Value extent, ValueRange out, bool branchless) {
  // The plan's `merged` outer loops need no per-point loops and cases
  // (omitters descend like producers there): one loop whose body descends
  // with each input's segment, empty where it does not match.
  if (merged)
    return emitMergedLoop(b, d, ctx, lattice, participants, begin, end, extent,
                          out);
  std::unique_ptr<LoopLeaves> ownedLeaves =
      makeLoopLeaves(b, ctx, d, participants, begin, end, extent);
  LoopLeaves &leaves = *ownedLeaves;
  leaves.init(b, loc);
  SequenceCursors &cursors = leaves.getCursors();
  ArrayRef<LatticePoint> points = lattice.getPoints();

  if (points.front().universe) {
    // U: one counted loop over every coordinate of the dimension, which U
    // drives; the stored operands step where they match.
    std::unique_ptr<SequenceIterator> it = leaves.of(points.front());
    unsigned nc = cursors.size();
    SmallVector<Value> init = cursors.get();
    init.append(out.begin(), out.end());
    SmallVector<Value> res = emitCountedLoop(
        b, d, ctx, it->countedExtent(b, loc), init, nc,
        [&](OpBuilder &fb, Location l, Value x, ValueRange args) {
          cursors.set(args.take_front(nc));
          it->bindLocated(fb, l, x);
          SequenceIterator::LeafMatches m = matchesAt(fb, l, *it, x);
          SmallVector<Value> before, after;
          std::tie(before, after) =
              leaves.step(fb, l, m, [&] { it->nextGiven(fb, l, x, m); });
          SmallVector<Value> o =
              emitCases(fb, d, ctx, lattice, lattice.getSubPoints(0), 0, leaves,
                        m, before, after, x, args.drop_front(nc));
          SmallVector<Value> yield = cursors.get();
          yield.append(o.begin(), o.end());
          return yield;
        });
    return SmallVector<Value>(ArrayRef(res).drop_front(nc));
  }

  // One while-loop per lattice point, root first: each runs while all of
  // its operands have entries, then the next point's loop continues with
  // the positions reached (seed 000 §7.1).
  SmallVector<Value> o(out);
  for (unsigned p = 0; p < points.size(); ++p) {
    std::unique_ptr<SequenceIterator> it = leaves.of(points[p]);
    SmallVector<unsigned> subPoints = lattice.getSubPoints(p);
    // Each trip steps a leaf: over leaves of short segments only (N:M,
    // ELL, DIA), the loop runs a few times.
    SmallVector<LeafIterator *> active;
    it->collectActiveLeaves(active);
    bool fewTrips = !active.empty() &&
                    llvm::all_of(active, [](const LeafIterator *leaf) {
                      return leaf->shortSegments();
                    });
    o = cursors.emitWhile(
        b, loc, o,
        [&](OpBuilder &cb, Location l, ValueRange state) {
          return withEarlyExit(ctx, cb, l, it->valid(cb, l), state);
        },
        [&](OpBuilder &bb, Location l, ValueRange state) {
          it->assumeValid(bb, l);
          Value x = it->eval(bb, l);
          SequenceIterator::LeafMatches m = matchesAt(bb, l, *it, x);
          if (p == 0 && branchless && d + 1 == ctx.nestEnd)
            return emitBranchlessRoot(bb, d, ctx, leaves, *it, m, x, state);
          // Innermost: each case steps what it matched, behind its branch,
          // so the next coordinate loads do not wait for this one's
          // comparisons (the hardware predicts the branch and runs ahead).
          if (d + 1 == ctx.nestEnd)
            return emitCases(bb, d, ctx, lattice, subPoints, 0, leaves, m, {},
                             {}, x, state, it.get());
          SmallVector<Value> before, after;
          std::tie(before, after) =
              leaves.step(bb, l, m, [&] { it->nextGiven(bb, l, x, m); });
          return emitCases(bb, d, ctx, lattice, subPoints, 0, leaves, m, before,
                           after, x, state);
        },
        fewTrips);
  }
  return o;
}

/// The plan's `branchless` root loop, one step: where every input is at x
/// (a branch that is predicted on both kinds of data: rarely taken where
/// the inputs' coordinates interleave at random, mostly taken where they
/// share runs, as banded matrices do) all inputs step unconditionally, so
/// the next coordinates' loads do not wait for this step's comparisons;
/// elsewhere the branch-free step. Branch-free steps alone made a banded
/// CSR add 1.6x and xor 2.1x slower than a branch per case (issue 56).
SmallVector<Value> KernelLowering::emitBranchlessRoot(
    OpBuilder &b, unsigned d, const Context &ctx, LoopLeaves &leaves,
    SequenceIterator &it, const SequenceIterator::LeafMatches &m, Value x,
    ValueRange out) {
  unsigned n = leaves.getParticipants().size();
  if (n < 2)
    return emitBranchlessStep(b, d, ctx, leaves, it, m, x, out);
  Value all;
  for (unsigned i = 0; i < n; ++i) {
    Value here = m.lookup(&leaves.leaf(i));
    all = all ? Value(arith::AndIOp::create(b, loc, all, here)) : here;
  }
  SequenceCursors &cursors = leaves.getCursors();
  SmallVector<Value> carried(out);
  return cursors.emitIfElse(
      b, loc, all,
      [&](OpBuilder &tb, Location l) {
        // Every input matched: the matches are known true here.
        SequenceIterator::LeafMatches every = m;
        Value yes = arith::ConstantIntOp::create(tb, l, 1, 1);
        for (auto &entry : every)
          entry.second = yes;
        return emitBranchlessStep(tb, d, ctx, leaves, it, every, x, carried);
      },
      [&](OpBuilder &eb, Location l) {
        return emitBranchlessStep(eb, d, ctx, leaves, it, m, x, carried);
      });
}

/// The plan's `branchless` root loop (innermost; its cases are every subset
/// of its inputs, all computed): the inputs at x step (a select each), the
/// others read as their fills at their cursors, which are in bounds while
/// the root runs, and the function is evaluated once in general form.
SmallVector<Value> KernelLowering::emitBranchlessStep(
    OpBuilder &b, unsigned d, const Context &ctx, LoopLeaves &leaves,
    SequenceIterator &it, const SequenceIterator::LeafMatches &m, Value x,
    ValueRange out) {
  SmallVector<Value> before, after;
  std::tie(before, after) =
      leaves.step(b, loc, m, [&] { it.nextGiven(b, loc, x, m); });
  Context inner = ctx;
  ArrayRef<unsigned> participants = leaves.getParticipants();
  for (unsigned i = 0; i < participants.size(); ++i) {
    unsigned k = participants[i];
    Value here = m.lookup(&leaves.leaf(i));
    assert(here && "a root loop's inputs are all matched at x or not");
    inner.lo[k] = before[i];
    inner.hi[k] = after[i];
    inner.found[k] =
        ctx.found[k] ? Value(arith::AndIOp::create(b, loc, ctx.found[k], here))
                     : here;
    inner.inBounds |= uint64_t(1) << k;
    inner.processed[k] += boundLevels(ctx, k, d);
  }
  inner.coords.push_back(x);
  for (unsigned k = 0; k < inputs.size(); ++k)
    if (inner.alive >> k & 1)
      locateLevels(b, inner, k, d + 1);
  return emitLeaf(b, inner, /*omitter=*/false, out);
}

std::unique_ptr<LoopLeaves>
KernelLowering::makeLoopLeaves(OpBuilder &b, const Context &ctx, unsigned d,
                               ArrayRef<unsigned> participants,
                               ArrayRef<Value> begin, ArrayRef<Value> end,
                               Value extent) {
  SmallVector<SmallVector<LevelIterator *>> levels;
  SmallVector<SmallVector<Value>> sizes;
  SmallVector<std::pair<Value, Value>> windows;
  SmallVector<Value> parentPos;
  for (unsigned k : participants) {
    parentPos.push_back(ctx.lo[k]);
    unsigned first = ctx.processed[k], g = boundLevels(ctx, k, d);
    const InputLevel &top = inputs[k].levels[first];
    windows.push_back(top.iterator->accessWindow(b, loc, ctx.coords));
    SmallVector<LevelIterator *> &group = levels.emplace_back();
    SmallVector<Value> &extents = sizes.emplace_back();
    for (unsigned l = first; l < first + g; ++l) {
      const InputLevel &level = inputs[k].levels[l];
      group.push_back(level.iterator.get());
      // An inner part's extent (the first's is not asked).
      extents.push_back(level.iterator->partExtent(b, loc));
    }
  }
  return std::make_unique<LoopLeaves>(participants, levels, sizes,
                                      ctx.loopViews,
                                      begin, end, parentPos, extent,
                                      std::move(windows));
}

unsigned KernelLowering::boundLevels(const Context &ctx, unsigned k,
                                     unsigned d) const {
  const Input &in = inputs[k];
  unsigned first = ctx.processed[k], g = 1;
  while (first + g < in.levels.size() &&
         in.levels[first + g].loop == static_cast<int>(d) &&
         in.levels[first + g].iterator->continuesCollapse())
    ++g;
  return g;
}

SmallVector<Value> KernelLowering::emitCountedLoop(
    OpBuilder &b, unsigned d, const Context &ctx, Value extent, ValueRange init,
    unsigned stateOffset,
    function_ref<SmallVector<Value>(OpBuilder &, Location, Value, ValueRange)>
        body) {
  Value zero = constIndex(b, loc, 0), one = constIndex(b, loc, 1);
  if (d == 0 && !ctx.sharingOut && parallelPlan &&
      parallelPlan.isParallel()) {
    if (!ctx.inReduction)
      return emitParallelOuterLoop(b, extent, init, body);
    if (rank == 0)
      return emitParallelReduction(b, ctx, extent, init, stateOffset, body);
  }
  // One range of a loop planned "ranges": its coordinates only.
  if (d == 0 && ctx.partCoordinates)
    std::tie(zero, extent) = *ctx.partCoordinates;
  // Without an early exit the trip count is known: scf.for.
  if (!mayExitEarly(ctx)) {
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
            withEarlyExit(ctx, bb, l, more,
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
  std::unique_ptr<LoopLeaves> ownedLeaves =
      makeLoopLeaves(b, ctx, d, participants, begin, end, extent);
  LoopLeaves &leaves = *ownedLeaves;
  leaves.init(b, loc);
  SequenceCursors &cursors = leaves.getCursors();
  // The loop visits every participant's coordinates (U's too: then it is
  // counted); a lattice's points say where its body runs.
  std::unique_ptr<SequenceIterator> all = leaves.ofAll(universe);
  SmallVector<std::unique_ptr<SequenceIterator>> pointIts;
  if (!linear)
    for (const LatticePoint &p : points)
      pointIts.push_back(leaves.of(p));
  // The body at coordinate x: descend where some point matches.
  auto body = [&](OpBuilder &bb, Location l, Value x,
                  ValueRange o) -> SmallVector<Value> {
    SequenceIterator::LeafMatches m = matchesAt(bb, l, *all, x);
    SmallVector<Value> before, after;
    std::tie(before, after) =
        leaves.step(bb, l, m, [&] { all->nextGiven(bb, l, x, m); });
    auto descend = [&](OpBuilder &tb, Location tl) -> SmallVector<Value> {
      Context inner = ctx;
      for (unsigned i = 0; i < n; ++i) {
        unsigned k = participants[i];
        // Unmatched: the empty segment [pos, pos). An input whose last
        // level this is has nothing below to find that segment empty
        // (it is broadcast along the inner loops): record the miss.
        inner.lo[k] = before[i];
        inner.hi[k] = after[i];
        // Linear: any level may lie below (a full one would locate a
        // position under the empty segment), so the miss is recorded
        // and reads below it are guarded (initSegment, the value load).
        unsigned g = boundLevels(ctx, k, d);
        if (ctx.processed[k] + g == inputs[k].levels.size() || linear) {
          Value here = m.lookup(&leaves.leaf(i));
          inner.found[k] =
              ctx.found[k]
                  ? Value(arith::AndIOp::create(tb, tl, ctx.found[k], here))
                  : here;
        }
        inner.processed[k] += g;
      }
      inner.coords.push_back(x);
      for (unsigned k = 0; k < inputs.size(); ++k)
        if (inner.alive >> k & 1)
          locateLevels(tb, inner, k, d + 1);
      // Linear at the innermost loop: the function in general form,
      // every input present or its fill (no omitters to skip: a value
      // equal to the result's fill is not stored).
      if (d + 1 == ctx.nestEnd)
        return emitLeaf(tb, inner, /*omitter=*/false, o);
      return emitLoop(tb, d + 1, inner, o);
    };
    // Linear: the loop's coordinate is one some input stores, always
    // visited.
    if (linear)
      return descend(bb, l);
    SmallVector<Value> some;
    for (std::unique_ptr<SequenceIterator> &p : pointIts)
      some.push_back(p->equalsGiven(bb, l, x, m));
    auto branch = scf::IfOp::create(
        bb, l, orAll(bb, l, some),
        [&](OpBuilder &tb, Location tl) {
          scf::YieldOp::create(tb, tl, descend(tb, tl));
        },
        [&](OpBuilder &eb, Location el) { scf::YieldOp::create(eb, el, o); });
    return SmallVector<Value>(branch.getResults());
  };
  if (universe) {
    unsigned nc = cursors.size();
    SmallVector<Value> init = cursors.get();
    init.append(out.begin(), out.end());
    SmallVector<Value> res = emitCountedLoop(
        b, d, ctx, all->countedExtent(b, loc), init, nc,
        [&](OpBuilder &fb, Location l, Value x, ValueRange args) {
          cursors.set(args.take_front(nc));
          all->bindLocated(fb, l, x);
          SmallVector<Value> o = body(fb, l, x, args.drop_front(nc));
          SmallVector<Value> yield = cursors.get();
          yield.append(o.begin(), o.end());
          return yield;
        });
    return SmallVector<Value>(ArrayRef(res).drop_front(nc));
  }
  return cursors.emitWhile(
      b, loc, out,
      [&](OpBuilder &cb, Location l, ValueRange state) {
        Value more;
        if (linear) {
          more = all->valid(cb, l);
        } else {
          SmallVector<Value> some;
          for (std::unique_ptr<SequenceIterator> &p : pointIts)
            some.push_back(p->valid(cb, l));
          more = orAll(cb, l, some);
        }
        return withEarlyExit(ctx, cb, l, more, state);
      },
      [&](OpBuilder &bb, Location l, ValueRange state) {
        // x: the least coordinate among iterators with entries left.
        return body(bb, l, all->eval(bb, l), state);
      });
}

SmallVector<Value> KernelLowering::emitCases(
    OpBuilder &b, unsigned d, const Context &ctx, const Lattice &lattice,
    ArrayRef<unsigned> subPoints, unsigned next, LoopLeaves &leaves,
    const SequenceIterator::LeafMatches &m, ArrayRef<Value> before,
    ArrayRef<Value> after, Value x, ValueRange out,
    SequenceIterator *threadedLoop) {
  ArrayRef<unsigned> participants = leaves.getParticipants();
  unsigned n = participants.size();
  if (next == subPoints.size()) {
    // No case taken: still step past the matched entries — by a gallop
    // in an intersection, straight to where the operands may meet where
    // what is left of their segments differs in length eightfold or more
    // (LoopLeaves::segmentsSkewed; else one branch-free step). Marked
    // unlikely: its code then sits off the loop's path, which rows whose
    // entries all match (a symmetric A .* Aᵀ) took 15 % longer to run
    // through otherwise; taken every time, the branch predicts as well.
    if (threadedLoop && subPoints.size() == 1 &&
        leaves.canGallop(lattice.getPoints()[subPoints.front()])) {
      const LatticePoint &point = lattice.getPoints()[subPoints.front()];
      return leaves.getCursors().emitIfElse(
          b, loc, unlikely(b, loc, leaves.segmentsSkewed(b, loc, point)),
          [&](OpBuilder &tb, Location) {
            leaves.gallop(tb, loc, point);
            return SmallVector<Value>(out);
          },
          [&](OpBuilder &eb, Location) {
            threadedLoop->nextGiven(eb, loc, x, m);
            return SmallVector<Value>(out);
          });
    }
    if (threadedLoop)
      threadedLoop->nextGiven(b, loc, x, m);
    return SmallVector<Value>(out);
  }
  const LatticePoint &point = lattice.getPoints()[subPoints[next]];
  std::unique_ptr<SequenceIterator> caseIt = leaves.of(point);
  auto emitCase = [&](OpBuilder &cb, Location) -> SmallVector<Value> {
    SmallVector<Value> lo(before), hi(after);
    if (threadedLoop) {
      // This case matched exactly its point's operands: it steps them.
      std::tie(lo, hi) =
          leaves.step(cb, loc, m, [&] { caseIt->stepAll(cb, loc); });
    }
    Context inner = ctx;
    for (unsigned i = 0; i < n; ++i) {
      unsigned k = participants[i];
      if (point.hasOperand(k)) {
        inner.lo[k] = lo[i];
        inner.hi[k] = hi[i];
        inner.processed[k] += boundLevels(ctx, k, d);
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
    if (threadedLoop || d + 1 == ctx.nestEnd)
      return emitLeaf(cb, inner, !point.producer, out);
    return emitLoop(cb, d + 1, inner, out);
  };
  auto otherwise = [&](OpBuilder &eb, Location) {
    return emitCases(eb, d, ctx, lattice, subPoints, next + 1, leaves, m,
                     before, after, x, out, threadedLoop);
  };
  Value cond = caseIt->equalsGiven(b, loc, x, m);
  if (matchPattern(cond, m_One())) // U alone: always taken.
    return emitCase(b, loc);
  // Threaded cases step the cursors, so they travel through the branches.
  if (threadedLoop)
    return leaves.getCursors().emitIfElse(b, loc, cond, emitCase, otherwise);
  auto branch = scf::IfOp::create(
      b, loc, cond,
      [&](OpBuilder &tb, Location l) {
        scf::YieldOp::create(tb, l, emitCase(tb, l));
      },
      [&](OpBuilder &eb, Location l) {
        scf::YieldOp::create(eb, l, otherwise(eb, l));
      });
  return SmallVector<Value>(branch.getResults());
}
