//===- LoopEmitter.cpp - Loops over lattices and level iterators ----------===//
//
// seed 000 §7.1 (one loop per lattice point, cases per sub-point,
// omitters skipped at the innermost loop); seed 001 §6.3 (iterate vs
// locate) and §7.2 (loops from the iterator model).
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
#include "llvm/Support/SaveAndRestore.h"

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
  ctx.found[k] =
      ctx.found[k] ? Value(arith::AndIOp::create(b, loc, ctx.found[k], r.found))
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
                         << " with inputs "
                         << llvm::interleaved_array(participants)
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
    return emitKeyedDispatch(b, d, ctx, lattice, plan.getMerged(), participants,
                             begin, end, extent, out);
  return emitLoops(b, d, ctx, lattice, plan.getMerged(), participants, begin,
                   end, extent, out);
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
  Value isShort = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ule, len,
                                        constIndex(b, loc, 16));
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
        SmallVector<Value> r;
        {
          llvm::SaveAndRestore floats(fastFloat, true);
          r = emitLoops(tb, d, ctx, lattice, merged, participants, begin, end,
                        extent, in);
        }
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

SmallVector<Value> KernelLowering::emitLoops(
    OpBuilder &b, unsigned d, const Context &ctx, const Lattice &lattice,
    bool merged, ArrayRef<unsigned> participants, ArrayRef<Value> begin,
    ArrayRef<Value> end, Value extent, ValueRange out) {
  unsigned n = participants.size();
  auto iteratorOf = [&](unsigned i) -> LevelIterator & {
    unsigned k = participants[i];
    return *inputs[k].levels[ctx.processed[k]].iterator;
  };
  unsigned numOut = out.size();
  ArrayRef<LatticePoint> points = lattice.getPoints();

  // The plan's `merged` outer loops need no per-point loops and cases
  // (omitters descend like producers there): one loop whose body descends
  // with each input's segment, empty where it does not match.
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
            segEnd[i] =
                iteratorOf(i).advance(fb, l, matched[i], pos[i], end[i]);
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
            SmallVector<Value> res;
            {
              llvm::SaveAndRestore threaded(threadedEnds, end);
              res = emitCases(bb, d, ctx, lattice, subPoints, 0, participants,
                              matched, cur, cur, x, state);
            }
            SmallVector<Value> yield(ArrayRef(res).take_back(n));
            yield.append(res.begin(), res.end() - n);
            scf::YieldOp::create(bb, l, yield);
            return;
          }
          for (unsigned i : members)
            segEnd[i] =
                iteratorOf(i).advance(bb, l, matched[i], cur[i], end[i]);
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
            bb, l,
            withEarlyExit(bb, l, anyPoint(bb, l, valid), args.drop_front(n)),
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

SmallVector<Value>
KernelLowering::emitCases(OpBuilder &b, unsigned d, const Context &ctx,
                          const Lattice &lattice, ArrayRef<unsigned> subPoints,
                          unsigned next, ArrayRef<unsigned> participants,
                          ArrayRef<Value> matched, ArrayRef<Value> pos,
                          ArrayRef<Value> segEnd, Value x, ValueRange out) {
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
      r.push_back(
          iteratorOf(i).advance(b, loc, matched[i], pos[i], threadedEnds[i]));
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
                        ? iteratorOf(i).next(cb, loc, pos[i], threadedEnds[i])
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
                             emitCases(eb, d, ctx, lattice, subPoints, next + 1,
                                       participants, matched, pos, segEnd, x,
                                       out));
      });
  (void)types;
  return SmallVector<Value>(branch.getResults());
}
