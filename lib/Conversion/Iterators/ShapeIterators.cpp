//===- ShapeIterators.cpp - Shape combinator iterators --------------------===//
//
// seed 001 §7.1.2: product (Fig. 20), concatenation and offset (§6.2.2),
// slice (Fig. 21), projection π₀ (§5.1), and ∅/F standing for a part that
// ran out (Fig. 27).
//
//===----------------------------------------------------------------------===//

#include "SequenceIteratorImpl.h"

#include "CodegenUtils.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;
using namespace mlir::sparse_array;
using namespace mlir::sparse_array::detail;

namespace {

class ProductIterator : public SequenceIterator {
public:
  ProductIterator(IteratorPtr outer, IteratorPtr inner,
                  SequenceCursors &cursors)
      : outer(std::move(outer)), inner(std::move(inner)), cursors(cursors) {}
  Value size(OpBuilder &b, Location loc) override {
    return arith::MulIOp::create(b, loc, outer->size(b, loc),
                                 inner->size(b, loc));
  }
  void init(OpBuilder &b, Location loc) override {
    outer->init(b, loc);
    initInner(b, loc);
    skipEmpty(b, loc);
  }
  Value valid(OpBuilder &b, Location loc) override {
    return arith::AndIOp::create(b, loc, outer->valid(b, loc),
                                 inner->valid(b, loc));
  }
  Value anyLeft(OpBuilder &b, Location loc) override {
    return arith::AndIOp::create(b, loc, outer->anyLeft(b, loc),
                                 inner->valid(b, loc));
  }
  Value eval(OpBuilder &b, Location loc) override {
    return linearize(b, loc, outer->eval(b, loc), inner->size(b, loc),
                     inner->eval(b, loc));
  }
  Value equals(OpBuilder &b, Location loc, Value x) override {
    Value n = inner->size(b, loc);
    Value o = outer->equals(b, loc, arith::DivUIOp::create(b, loc, x, n));
    return guarded(b, loc, o, [&](OpBuilder &tb, Location l) {
      return inner->equals(tb, l, arith::RemUIOp::create(tb, l, x, n));
    });
  }
  /// From the leaves' answers at x (asked before the loop stepped them).
  Value equalsGiven(OpBuilder &b, Location loc, Value x,
                    const LeafMatches &m) override {
    Value n = inner->size(b, loc);
    Value o =
        outer->equalsGiven(b, loc, arith::DivUIOp::create(b, loc, x, n), m);
    return guarded(b, loc, o, [&](OpBuilder &tb, Location l) {
      return inner->equalsGiven(tb, l, arith::RemUIOp::create(tb, l, x, n), m);
    });
  }
  void next(OpBuilder &b, Location loc, Value x) override {
    advanceIfAt(b, loc, *this, x, cursors);
  }
  void advance(OpBuilder &b, Location loc) override {
    inner->advance(b, loc);
    skipEmpty(b, loc);
  }
  /// Seeks the outer part to t / n and, there, the inner one to t % n:
  /// the parts before are never visited (a window of a collapse).
  void initAt(OpBuilder &b, Location loc, Value t) override {
    Value n = inner->size(b, loc);
    Value q = arith::DivUIOp::create(b, loc, t, n);
    outer->initAt(b, loc, q);
    initInner(b, loc);
    // Past the start of the outer coordinate q only (a window aligned
    // with the inner part's size starts where init put it).
    Value r = arith::RemUIOp::create(b, loc, t, n);
    Value inside = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ne, r,
                                         constIndex(b, loc, 0));
    Value atQ = guarded(b, loc, inside, [&](OpBuilder &tb, Location l) {
      return guarded(
          tb, l, outer->valid(tb, l), [&](OpBuilder &ib, Location il) {
            return arith::CmpIOp::create(ib, il, arith::CmpIPredicate::eq,
                                         outer->eval(ib, il), q)
                .getResult();
          });
    });
    cursors.emitIf(b, loc, atQ,
                   [&](OpBuilder &tb, Location l) { inner->initAt(tb, l, r); });
    skipEmpty(b, loc);
  }
  bool canLocate() const override {
    return outer->canLocate() && inner->canLocate();
  }
  void locate(OpBuilder &b, Location loc, Value x) override {
    Value n = inner->size(b, loc);
    outer->locate(b, loc, arith::DivUIOp::create(b, loc, x, n));
    inner->init(b, loc);
    inner->locate(b, loc, arith::RemUIOp::create(b, loc, x, n));
  }
  void bindLocated(OpBuilder &b, Location loc, Value x) override {
    Value n = inner->size(b, loc);
    outer->bindLocated(b, loc, arith::DivUIOp::create(b, loc, x, n));
    inner->bindLocated(b, loc, arith::RemUIOp::create(b, loc, x, n));
  }
  void collectActiveLeaves(SmallVectorImpl<LeafIterator *> &out) override {
    outer->collectActiveLeaves(out);
    inner->collectActiveLeaves(out);
  }
  Value holds(OpBuilder &b, Location loc, Value x) override {
    Value n = inner->size(b, loc);
    Value o = outer->holds(b, loc, arith::DivUIOp::create(b, loc, x, n));
    return guarded(b, loc, o, [&](OpBuilder &tb, Location l) {
      return inner->holds(tb, l, arith::RemUIOp::create(tb, l, x, n));
    });
  }
  /// A product holds x only where both factors hold their parts: its
  /// factors' leaves count as matched only then (seed 000: the value of a
  /// stored operand is seen where the expression holds x).
  void collectMatched(
      OpBuilder &b, Location loc, Value x,
      SmallVectorImpl<std::pair<LeafIterator *, Value>> &out) override {
    Value n = inner->size(b, loc);
    SmallVector<std::pair<LeafIterator *, Value>> matched;
    outer->collectMatched(b, loc, arith::DivUIOp::create(b, loc, x, n),
                          matched);
    inner->collectMatched(b, loc, arith::RemUIOp::create(b, loc, x, n),
                          matched);
    Value member = holds(b, loc, x);
    for (auto [leaf, here] : matched)
      out.push_back({leaf, arith::AndIOp::create(b, loc, here, member)});
  }

private:
  /// while (valid(a) && !valid(b)) { advance(a); init(b); }
  void skipEmpty(OpBuilder &b, Location loc) {
    cursors.emitWhile(
        b, loc,
        [&](OpBuilder &cb, Location l) {
          Value innerDone =
              arith::XOrIOp::create(cb, l, inner->valid(cb, l),
                                    arith::ConstantIntOp::create(cb, l, 1, 1));
          // valid, not anyLeft: a union at the top of a lattice point that
          // lost a part stops here (eval reads every part); the next
          // point's resume() goes on from the coordinate reached.
          return arith::AndIOp::create(cb, l, outer->valid(cb, l), innerDone)
              .getResult();
        },
        [&](OpBuilder &bb, Location l) {
          outer->advance(bb, l);
          initInner(bb, l);
        });
  }

  /// init(b) under a valid outer coordinate only: b's init may read the
  /// buffers at a's position (its positions past the last row otherwise).
  void initInner(OpBuilder &b, Location loc) {
    cursors.emitIf(b, loc, outer->anyLeft(b, loc),
                   [&](OpBuilder &tb, Location l) { inner->init(tb, l); });
  }

public:
  void resume(OpBuilder &b, Location loc) override {
    outer->resume(b, loc);
    Value stale = arith::AndIOp::create(
        b, loc, outer->anyLeft(b, loc),
        arith::XOrIOp::create(b, loc, inner->valid(b, loc),
                              arith::ConstantIntOp::create(b, loc, 1, 1)));
    cursors.emitIf(b, loc, stale,
                   [&](OpBuilder &tb, Location l) { inner->init(tb, l); });
    skipEmpty(b, loc);
  }

  IteratorPtr outer, inner;
  SequenceCursors &cursors;
};

/// a ⊔ b. In lattice mode while a lasts (the lattice moves to |a| + b once
/// a ran out, seed 001 §6.2.2): a's coordinates. As a whole sequence (below
/// a shape combinator): a's coordinates, then b's shifted by |a|.
class ConcatIterator : public SequenceIterator {
public:
  ConcatIterator(IteratorPtr first, IteratorPtr second, bool latticeMode)
      : first(std::move(first)), second(std::move(second)),
        latticeMode(latticeMode) {}
  Value size(OpBuilder &b, Location loc) override {
    return arith::AddIOp::create(b, loc, first->size(b, loc),
                                 second->size(b, loc));
  }
  void resume(OpBuilder &b, Location loc) override { first->resume(b, loc); }
  void init(OpBuilder &b, Location loc) override {
    first->init(b, loc);
    if (!latticeMode)
      second->init(b, loc);
  }
  Value valid(OpBuilder &b, Location loc) override {
    if (latticeMode)
      return first->valid(b, loc);
    return arith::OrIOp::create(b, loc, first->valid(b, loc),
                                second->valid(b, loc));
  }
  Value eval(OpBuilder &b, Location loc) override {
    if (latticeMode)
      return first->eval(b, loc);
    Value shifted = arith::AddIOp::create(b, loc, evalOrEnd(b, loc, *second),
                                          first->size(b, loc));
    return arith::MinUIOp::create(b, loc, evalOrEnd(b, loc, *first), shifted);
  }
  Value equals(OpBuilder &b, Location loc, Value x) override {
    if (latticeMode)
      return first->equals(b, loc, x);
    return arith::OrIOp::create(b, loc, first->equals(b, loc, x),
                                second->equals(b, loc, shifted(b, loc, x)));
  }
  void next(OpBuilder &b, Location loc, Value x) override {
    first->next(b, loc, x);
    if (!latticeMode)
      second->next(b, loc, shifted(b, loc, x));
  }
  void bindLocated(OpBuilder &b, Location loc, Value x) override {
    first->bindLocated(b, loc, x);
    if (!latticeMode)
      second->bindLocated(b, loc, shifted(b, loc, x));
  }
  void collectActiveLeaves(SmallVectorImpl<LeafIterator *> &out) override {
    first->collectActiveLeaves(out);
    if (!latticeMode)
      second->collectActiveLeaves(out);
  }
  void collectMatched(
      OpBuilder &b, Location loc, Value x,
      SmallVectorImpl<std::pair<LeafIterator *, Value>> &out) override {
    first->collectMatched(b, loc, x, out);
    if (!latticeMode)
      second->collectMatched(b, loc, shifted(b, loc, x), out);
  }

private:
  /// x in the second part's coordinates (wraps below |a|: matches nothing).
  Value shifted(OpBuilder &b, Location loc, Value x) {
    return arith::SubIOp::create(b, loc, x, first->size(b, loc));
  }
  IteratorPtr first, second;
  bool latticeMode;
};

/// |shift| + b: b's coordinates shifted by the size of what preceded it.
class OffsetIterator : public SequenceIterator {
public:
  OffsetIterator(IteratorPtr shift, IteratorPtr operand)
      : shift(std::move(shift)), operand(std::move(operand)) {}
  Value size(OpBuilder &b, Location loc) override {
    return arith::AddIOp::create(b, loc, shift->size(b, loc),
                                 operand->size(b, loc));
  }
  bool locatedOnly() const override { return operand->locatedOnly(); }
  void resume(OpBuilder &b, Location loc) override { operand->resume(b, loc); }
  void init(OpBuilder &b, Location loc) override { operand->init(b, loc); }
  Value valid(OpBuilder &b, Location loc) override {
    return operand->valid(b, loc);
  }
  Value eval(OpBuilder &b, Location loc) override {
    return arith::AddIOp::create(b, loc, operand->eval(b, loc),
                                 shift->size(b, loc));
  }
  Value equals(OpBuilder &b, Location loc, Value x) override {
    Value s = shift->size(b, loc);
    Value inRange =
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::uge, x, s);
    return guarded(b, loc, inRange, [&](OpBuilder &tb, Location l) {
      return operand->equals(tb, l, arith::SubIOp::create(tb, l, x, s));
    });
  }
  void next(OpBuilder &b, Location loc, Value x) override {
    // Below the shift the operand matches nothing and stays.
    operand->next(b, loc,
                  arith::SubIOp::create(b, loc, x, shift->size(b, loc)));
  }
  void advance(OpBuilder &b, Location loc) override {
    operand->advance(b, loc);
  }
  bool canLocate() const override { return operand->canLocate(); }
  void locate(OpBuilder &b, Location loc, Value x) override {
    operand->locate(b, loc,
                    arith::SubIOp::create(b, loc, x, shift->size(b, loc)));
  }
  void bindLocated(OpBuilder &b, Location loc, Value x) override {
    operand->bindLocated(b, loc,
                         arith::SubIOp::create(b, loc, x, shift->size(b, loc)));
  }
  void collectActiveLeaves(SmallVectorImpl<LeafIterator *> &out) override {
    operand->collectActiveLeaves(out);
  }
  void collectMatched(
      OpBuilder &b, Location loc, Value x,
      SmallVectorImpl<std::pair<LeafIterator *, Value>> &out) override {
    // Below the shift the wrapped coordinate matches no entry.
    operand->collectMatched(
        b, loc, arith::SubIOp::create(b, loc, x, shift->size(b, loc)), out);
  }

private:
  IteratorPtr shift, operand;
};

/// A view whose coordinate x is its operand's toOperand(x) (a slice, a
/// window): locating, the case tests and value access go through the map.
class MappedIterator : public SequenceIterator {
public:
  explicit MappedIterator(IteratorPtr operand) : operand(std::move(operand)) {}
  bool locatedOnly() const override { return operand->locatedOnly(); }
  Value equals(OpBuilder &b, Location loc, Value x) override {
    return operand->equals(b, loc, toOperand(b, loc, x));
  }
  Value equalsGiven(OpBuilder &b, Location loc, Value x,
                    const LeafMatches &m) override {
    return operand->equalsGiven(b, loc, toOperand(b, loc, x), m);
  }
  /// Inside the view's own loop its operand is valid too.
  void assumeValid(OpBuilder &b, Location loc) override {
    operand->assumeValid(b, loc);
  }
  bool canLocate() const override { return operand->canLocate(); }
  void locate(OpBuilder &b, Location loc, Value x) override {
    operand->locate(b, loc, toOperand(b, loc, x));
  }
  void bindLocated(OpBuilder &b, Location loc, Value x) override {
    operand->bindLocated(b, loc, toOperand(b, loc, x));
  }
  void collectActiveLeaves(SmallVectorImpl<LeafIterator *> &out) override {
    operand->collectActiveLeaves(out);
  }
  void collectMatched(
      OpBuilder &b, Location loc, Value x,
      SmallVectorImpl<std::pair<LeafIterator *, Value>> &out) override {
    operand->collectMatched(b, loc, toOperand(b, loc, x), out);
  }

protected:
  virtual Value toOperand(OpBuilder &b, Location loc, Value x) = 0;
  IteratorPtr operand;
};

/// a[s:e:r] (seed 001 Fig. 21): the coordinates c of a with s <= c < e and
/// c - s a multiple of r, as (c - s) / r.
class SliceIterator : public MappedIterator {
public:
  /// A negative step reads a reflected leaf (coordinates K - c ascend, see
  /// makeReflectedIterator): the ascending slice K - start to K - stop of
  /// those; the size counts the original slice.
  SliceIterator(IteratorPtr operand, int64_t start, int64_t stop, int64_t step,
                SequenceCursors &cursors)
      : MappedIterator(std::move(operand)), start(start), stop(stop),
        step(step), cursors(cursors) {
    if (step < 0) {
      reversed = {start, stop, step};
      this->start = kReflectionBase - start;
      this->stop = kReflectionBase - stop;
      this->step = -step;
    }
  }
  Value size(OpBuilder &b, Location loc) override {
    if (reversed) {
      // Counting down from min(start, |a| - 1) to above max(stop, -1).
      auto [s0, e0, r] = *reversed;
      e0 = std::max<int64_t>(e0, -1);
      Value last = arith::SubIOp::create(b, loc, operand->size(b, loc),
                                         constIndex(b, loc, 1));
      Value s = arith::MinSIOp::create(b, loc, constIndex(b, loc, s0), last);
      Value span = arith::SubIOp::create(b, loc, s, constIndex(b, loc, e0));
      Value count = arith::DivSIOp::create(
          b, loc,
          arith::AddIOp::create(b, loc, span, constIndex(b, loc, -r - 1)),
          constIndex(b, loc, -r));
      Value empty = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sle, s,
                                          constIndex(b, loc, e0));
      return arith::SelectOp::create(b, loc, empty, constIndex(b, loc, 0),
                                     count);
    }
    // ceil((min(e, |a|) - s) / r), 0 when empty.
    // Signed throughout: a padded window may start (and stop) before 0.
    Value e = arith::MinSIOp::create(b, loc, constIndex(b, loc, stop),
                                     operand->size(b, loc));
    Value s = constIndex(b, loc, start);
    Value span = arith::SubIOp::create(b, loc, e, s);
    Value count = arith::DivUIOp::create(
        b, loc,
        arith::AddIOp::create(b, loc, span, constIndex(b, loc, step - 1)),
        constIndex(b, loc, step));
    Value empty =
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sle, e, s);
    return arith::SelectOp::create(b, loc, empty, constIndex(b, loc, 0), count);
  }
  /// The previous point's loop may have stopped (one part of a union ran
  /// out) before skipping what lies before s or off the stride.
  void resume(OpBuilder &b, Location loc) override {
    operand->resume(b, loc);
    skipOutside(b, loc);
  }
  void init(OpBuilder &b, Location loc) override {
    operand->init(b, loc);
    // Jump to s, unless the operand starts later (an offset part of a
    // concatenation: |a| + b holds nothing below |a|); a stored level
    // seeks it (bisection) instead of stepping there.
    if (!operand->canLocate() && start > 0)
      operand->seek(b, loc, constIndex(b, loc, start));
    if (operand->canLocate()) {
      Value s = constIndex(b, loc, start);
      auto first = scf::IfOp::create(
          b, loc, operand->valid(b, loc),
          [&](OpBuilder &tb, Location l) {
            scf::YieldOp::create(
                tb, l,
                arith::MaxSIOp::create(tb, l, operand->eval(tb, l), s)
                    .getResult());
          },
          // Empty: stay past its end (a window may start below 0, where
          // locating would land before the level's first position).
          [&](OpBuilder &eb, Location l) {
            scf::YieldOp::create(
                eb, l,
                arith::MaxSIOp::create(eb, l, s, constIndex(eb, l, 0))
                    .getResult());
          });
      operand->locate(b, loc, first.getResult(0));
    }
    skipOutside(b, loc);
  }
  Value valid(OpBuilder &b, Location loc) override {
    return guarded(
        b, loc, operand->valid(b, loc), [&](OpBuilder &tb, Location l) {
          return arith::CmpIOp::create(tb, l, arith::CmpIPredicate::slt,
                                       operand->eval(tb, l),
                                       constIndex(tb, l, stop))
              .getResult();
        });
  }
  Value eval(OpBuilder &b, Location loc) override {
    Value shifted = arith::SubIOp::create(b, loc, operand->eval(b, loc),
                                          constIndex(b, loc, start));
    return arith::DivUIOp::create(b, loc, shifted, constIndex(b, loc, step));
  }
  void next(OpBuilder &b, Location loc, Value x) override {
    advanceIfAt(b, loc, *this, x, cursors);
  }
  void advance(OpBuilder &b, Location loc) override {
    operand->advance(b, loc);
    skipOutside(b, loc);
  }

private:
  Value toOperand(OpBuilder &b, Location loc, Value x) override {
    return linearize(b, loc, x, constIndex(b, loc, step),
                     constIndex(b, loc, start));
  }
  /// Steps over coordinates below s or off the stride (those at or past e
  /// end the slice: valid() sees them).
  void skipOutside(OpBuilder &b, Location loc) {
    cursors.emitWhile(
        b, loc,
        [&](OpBuilder &cb, Location l) {
          return guarded(
              cb, l, operand->valid(cb, l), [&](OpBuilder &tb, Location tl) {
                Value c = operand->eval(tb, tl);
                Value s = constIndex(tb, tl, start);
                // Signed: a window may start before 0.
                Value below = arith::CmpIOp::create(
                    tb, tl, arith::CmpIPredicate::slt, c, s);
                Value off = arith::CmpIOp::create(
                    tb, tl, arith::CmpIPredicate::ne,
                    arith::RemUIOp::create(tb, tl,
                                           arith::SubIOp::create(tb, tl, c, s),
                                           constIndex(tb, tl, step)),
                    constIndex(tb, tl, 0));
                Value before =
                    arith::CmpIOp::create(tb, tl, arith::CmpIPredicate::slt, c,
                                          constIndex(tb, tl, stop));
                return arith::AndIOp::create(
                           tb, tl, before,
                           arith::OrIOp::create(tb, tl, below, off))
                    .getResult();
              });
        },
        [&](OpBuilder &bb, Location l) { operand->advance(bb, l); });
  }

  int64_t start, stop, step;
  std::optional<std::array<int64_t, 3>> reversed;
  SequenceCursors &cursors;
};

/// π₀(a, J) = { c / J | c in a } (seed 001 §5.1): each run of a's
/// coordinates with one quotient is one coordinate.
class ProjectOuterIterator : public SequenceIterator {
public:
  ProjectOuterIterator(IteratorPtr operand, int64_t inner,
                       SequenceCursors &cursors)
      : operand(std::move(operand)), inner(inner), cursors(cursors) {}
  Value size(OpBuilder &b, Location loc) override {
    return arith::DivUIOp::create(b, loc, operand->size(b, loc),
                                  constIndex(b, loc, inner));
  }
  bool locatedOnly() const override { return operand->locatedOnly(); }
  void resume(OpBuilder &b, Location loc) override { operand->resume(b, loc); }
  void init(OpBuilder &b, Location loc) override { operand->init(b, loc); }
  Value valid(OpBuilder &b, Location loc) override {
    return operand->valid(b, loc);
  }
  Value eval(OpBuilder &b, Location loc) override {
    return arith::DivUIOp::create(b, loc, operand->eval(b, loc),
                                  constIndex(b, loc, inner));
  }
  Value equals(OpBuilder &b, Location loc, Value x) override {
    return guarded(b, loc, operand->valid(b, loc),
                   [&](OpBuilder &tb, Location l) {
                     return arith::CmpIOp::create(
                                tb, l, arith::CmpIPredicate::eq, eval(tb, l), x)
                         .getResult();
                   });
  }
  void next(OpBuilder &b, Location loc, Value x) override {
    // Past every coordinate of a in block x.
    cursors.emitWhile(
        b, loc, [&](OpBuilder &cb, Location l) { return equals(cb, l, x); },
        [&](OpBuilder &bb, Location l) { operand->advance(bb, l); });
  }
  void collectActiveLeaves(SmallVectorImpl<LeafIterator *> &out) override {
    operand->collectActiveLeaves(out);
  }
  void collectMatched(
      OpBuilder &b, Location loc, Value x,
      SmallVectorImpl<std::pair<LeafIterator *, Value>> &out) override {
    // The block's first entry: the operand's leaves at its coordinate.
    SmallVector<std::pair<LeafIterator *, Value>> inner;
    operand->collectMatched(b, loc, evalOrEnd(b, loc, *operand), inner);
    Value here = equals(b, loc, x);
    for (auto [leaf, matched] : inner)
      out.push_back({leaf, arith::AndIOp::create(b, loc, here, matched)});
  }

private:
  IteratorPtr operand;
  int64_t inner;
  SequenceCursors &cursors;
};

/// The window [lo, hi) of a sequence, shifted down by lo (a slice with
/// step 1 whose bounds enclosing loops fix at run time: a collapse read
/// through a split iterates its product from w * n to w * n + n for each
/// outer coordinate w, seed 001 §5.2). Every coordinate x asked is
/// operand's x + lo.
class WindowIterator : public MappedIterator {
public:
  WindowIterator(IteratorPtr operand, Value lo, Value hi,
                 SequenceCursors &cursors)
      : MappedIterator(std::move(operand)), lo(lo), hi(hi), cursors(cursors) {}
  Value size(OpBuilder &b, Location loc) override {
    return arith::SubIOp::create(b, loc, hi, lo);
  }
  void resume(OpBuilder &b, Location loc) override { operand->resume(b, loc); }
  void init(OpBuilder &b, Location loc) override {
    operand->initAt(b, loc, lo);
    // What the seek could not skip (a non-leaf inner part).
    cursors.emitWhile(
        b, loc,
        [&](OpBuilder &cb, Location l) {
          return guarded(
              cb, l, operand->valid(cb, l), [&](OpBuilder &tb, Location tl) {
                return arith::CmpIOp::create(tb, tl, arith::CmpIPredicate::ult,
                                             operand->eval(tb, tl), lo)
                    .getResult();
              });
        },
        [&](OpBuilder &bb, Location l) { operand->advance(bb, l); });
  }
  Value valid(OpBuilder &b, Location loc) override {
    return guarded(
        b, loc, operand->valid(b, loc), [&](OpBuilder &tb, Location l) {
          return arith::CmpIOp::create(tb, l, arith::CmpIPredicate::ult,
                                       operand->eval(tb, l), hi)
              .getResult();
        });
  }
  Value eval(OpBuilder &b, Location loc) override {
    return arith::SubIOp::create(b, loc, operand->eval(b, loc), lo);
  }
  /// The operand is a product of a collapse's levels: it holds y exactly
  /// where its cursor is at y, and then every leaf is matched. One compare
  /// of the linearized coordinate instead of the parts' quotients and
  /// remainders, asked once per step for every leaf.
  Value equals(OpBuilder &b, Location loc, Value x) override {
    return isAt(b, loc, *operand, toOperand(b, loc, x));
  }
  Value holds(OpBuilder &b, Location loc, Value x) override {
    return equals(b, loc, x);
  }
  Value equalsGiven(OpBuilder &b, Location loc, Value x,
                    const LeafMatches &m) override {
    SmallVector<LeafIterator *> leaves;
    operand->collectActiveLeaves(leaves);
    if (Value known = m.lookup(leaves.back()))
      return known;
    return equals(b, loc, x);
  }
  void collectMatched(
      OpBuilder &b, Location loc, Value x,
      SmallVectorImpl<std::pair<LeafIterator *, Value>> &out) override {
    Value here = equals(b, loc, x);
    SmallVector<LeafIterator *> leaves;
    operand->collectActiveLeaves(leaves);
    for (LeafIterator *leaf : leaves)
      out.push_back({leaf, here});
  }
  void next(OpBuilder &b, Location loc, Value x) override {
    operand->next(b, loc, toOperand(b, loc, x));
  }
  void nextGiven(OpBuilder &b, Location loc, Value x,
                 const LeafMatches &m) override {
    operand->nextGiven(b, loc, toOperand(b, loc, x), m);
  }
  void advance(OpBuilder &b, Location loc) override {
    operand->advance(b, loc);
  }
  void stepAll(OpBuilder &b, Location loc) override {
    operand->stepAll(b, loc);
  }
  void seek(OpBuilder &b, Location loc, Value target) override {
    operand->seek(b, loc, toOperand(b, loc, target));
  }

private:
  Value toOperand(OpBuilder &b, Location loc, Value x) override {
    return arith::AddIOp::create(b, loc, x, lo);
  }

  Value lo, hi;
  SequenceCursors &cursors;
};

/// ∅ or F standing for a part that ran out (a concatenation's second part
/// once padded, seed 001 Fig. 27): nothing to visit; its size is the part's.
class ExhaustedIterator : public SequenceIterator {
public:
  explicit ExhaustedIterator(IteratorPtr shape) : shape(std::move(shape)) {}
  Value size(OpBuilder &b, Location loc) override {
    return shape->size(b, loc);
  }
  void init(OpBuilder &, Location) override {}
  Value valid(OpBuilder &b, Location loc) override {
    return arith::ConstantIntOp::create(b, loc, 0, 1);
  }
  Value eval(OpBuilder &b, Location loc) override {
    return constIndex(b, loc, 0);
  }
  Value equals(OpBuilder &b, Location loc, Value) override {
    return valid(b, loc);
  }
  void next(OpBuilder &, Location, Value) override {}
  void collectActiveLeaves(SmallVectorImpl<LeafIterator *> &) override {}
  void
  collectMatched(OpBuilder &, Location, Value,
                 SmallVectorImpl<std::pair<LeafIterator *, Value>> &) override {
  }

private:
  IteratorPtr shape;
};

} // namespace

IteratorPtr
sparse_array::detail::makeProductIterator(IteratorPtr outer, IteratorPtr inner,
                                          SequenceCursors &cursors) {
  return std::make_unique<ProductIterator>(std::move(outer), std::move(inner),
                                           cursors);
}
IteratorPtr sparse_array::detail::makeConcatIterator(IteratorPtr first,
                                                     IteratorPtr second,
                                                     bool latticeMode) {
  return std::make_unique<ConcatIterator>(std::move(first), std::move(second),
                                          latticeMode);
}
IteratorPtr sparse_array::detail::makeOffsetIterator(IteratorPtr shift,
                                                     IteratorPtr operand) {
  return std::make_unique<OffsetIterator>(std::move(shift), std::move(operand));
}
IteratorPtr sparse_array::detail::makeSliceIterator(IteratorPtr operand,
                                                    int64_t start, int64_t stop,
                                                    int64_t step,
                                                    SequenceCursors &cursors) {
  return std::make_unique<SliceIterator>(std::move(operand), start, stop, step,
                                         cursors);
}
IteratorPtr sparse_array::detail::makeWindowIterator(IteratorPtr operand,
                                                     Value lo, Value hi,
                                                     SequenceCursors &cursors) {
  return std::make_unique<WindowIterator>(std::move(operand), lo, hi, cursors);
}
IteratorPtr sparse_array::detail::makeProjectOuterIterator(
    IteratorPtr operand, int64_t inner, SequenceCursors &cursors) {
  return std::make_unique<ProjectOuterIterator>(std::move(operand), inner,
                                                cursors);
}
IteratorPtr sparse_array::detail::makeExhaustedIterator(IteratorPtr shape) {
  return std::make_unique<ExhaustedIterator>(std::move(shape));
}
