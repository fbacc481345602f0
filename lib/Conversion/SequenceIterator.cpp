//===- SequenceIterator.cpp - Iterators over sequence expressions ---------===//
//
// seed 001 §7.1 (iterator model: init, valid, eval, equals, next, locate),
// §7.1.1 (formats, through LevelIterator) and §7.1.2 (combinators; Fig. 20
// product, Fig. 21 slice); §6.3.1 (locators in intersections).
//
//===----------------------------------------------------------------------===//

#include "SparseArray/Conversion/SequenceIterator.h"

#include "CodegenUtils.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

#include <limits>

using namespace mlir;
using namespace mlir::sparse_array;

using Kind = SequenceExpr::Kind;

SequenceIterator::~SequenceIterator() = default;

void SequenceIterator::advance(OpBuilder &b, Location loc) {
  next(b, loc, eval(b, loc));
}

void SequenceIterator::locate(OpBuilder &, Location, Value) {
  llvm_unreachable("sequence cannot locate");
}

static Value andAll(OpBuilder &b, Location loc, ArrayRef<Value> values) {
  Value r;
  for (Value v : values)
    r = r ? Value(arith::AndIOp::create(b, loc, r, v)) : v;
  return r;
}

/// cond ? f() : false, evaluating f only under cond (it may read past a
/// buffer otherwise).
static Value guarded(OpBuilder &b, Location loc, Value cond,
                     llvm::function_ref<Value(OpBuilder &, Location)> f) {
  auto branch = scf::IfOp::create(
      b, loc, cond,
      [&](OpBuilder &tb, Location l) { scf::YieldOp::create(tb, l, f(tb, l)); },
      [&](OpBuilder &eb, Location l) {
        scf::YieldOp::create(
            eb, l, arith::ConstantIntOp::create(eb, l, 0, 1).getResult());
      });
  return branch.getResult(0);
}

/// valid ? eval : the largest index (past every coordinate).
static Value evalOrEnd(OpBuilder &b, Location loc, SequenceIterator &it) {
  auto branch = scf::IfOp::create(
      b, loc, it.valid(b, loc),
      [&](OpBuilder &tb, Location l) {
        scf::YieldOp::create(tb, l, it.eval(tb, l));
      },
      [&](OpBuilder &eb, Location l) {
        scf::YieldOp::create(
            eb, l, constIndex(eb, l, std::numeric_limits<int64_t>::max()));
      });
  return branch.getResult(0);
}

/// Whether the cursor's current coordinate is x (what a loop steps: its
/// `equals` may ask more, e.g. every part of a union at x for a case).
static Value isAt(OpBuilder &b, Location loc, SequenceIterator &it, Value x) {
  return guarded(b, loc, it.valid(b, loc), [&](OpBuilder &tb, Location l) {
    return arith::CmpIOp::create(tb, l, arith::CmpIPredicate::eq,
                                 it.eval(tb, l), x)
        .getResult();
  });
}

static Value orAll(OpBuilder &b, Location loc, ArrayRef<Value> values) {
  Value r;
  for (Value v : values)
    r = r ? Value(arith::OrIOp::create(b, loc, r, v)) : v;
  return r;
}

//===----------------------------------------------------------------------===//
// Cursors
//===----------------------------------------------------------------------===//

SmallVector<Value> SequenceCursors::get() const {
  SmallVector<Value> values;
  for (LeafIterator *leaf : leaves)
    values.append({leaf->begin, leaf->pos, leaf->end});
  return values;
}

void SequenceCursors::set(ValueRange values) {
  for (auto [i, leaf] : llvm::enumerate(leaves)) {
    leaf->begin = values[3 * i];
    leaf->pos = values[3 * i + 1];
    leaf->end = values[3 * i + 2];
  }
}

void SequenceCursors::emitIf(
    OpBuilder &b, Location loc, Value cond,
    llvm::function_ref<void(OpBuilder &, Location)> then) {
  SmallVector<Value> before = get();
  auto branch = scf::IfOp::create(
      b, loc, cond,
      [&](OpBuilder &tb, Location l) {
        then(tb, l);
        scf::YieldOp::create(tb, l, get());
        set(before);
      },
      [&](OpBuilder &eb, Location l) { scf::YieldOp::create(eb, l, before); });
  set(branch.getResults());
}

void SequenceCursors::emitWhile(
    OpBuilder &b, Location loc,
    llvm::function_ref<Value(OpBuilder &, Location)> cond,
    llvm::function_ref<void(OpBuilder &, Location)> body) {
  SmallVector<Value> init = get();
  SmallVector<Type> types = llvm::to_vector(ValueRange(init).getTypes());
  auto loop = scf::WhileOp::create(
      b, loc, types, init,
      [&](OpBuilder &bb, Location l, ValueRange args) {
        set(args);
        scf::ConditionOp::create(bb, l, cond(bb, l), args);
      },
      [&](OpBuilder &bb, Location l, ValueRange args) {
        set(args);
        body(bb, l);
        scf::YieldOp::create(bb, l, get());
      });
  set(loop.getResults());
}

//===----------------------------------------------------------------------===//
// Leaves (seed 001 §7.1.1)
//===----------------------------------------------------------------------===//

void LeafIterator::init(OpBuilder &b, Location loc) {
  Value lo = parent ? parent->pos : constIndex(b, loc, 0);
  Value hi = arith::AddIOp::create(b, loc, lo, constIndex(b, loc, 1));
  std::tie(begin, end) = level->init(b, loc, lo, hi);
  pos = begin;
}

Value LeafIterator::valid(OpBuilder &b, Location loc) {
  return level->valid(b, loc, pos, end);
}

Value LeafIterator::eval(OpBuilder &b, Location loc) {
  return level->coordinate(b, loc, begin, pos);
}

Value LeafIterator::equals(OpBuilder &b, Location loc, Value x) {
  return level->matches(b, loc, begin, pos, end, x);
}

void LeafIterator::next(OpBuilder &b, Location loc, Value x) {
  pos = level->advance(b, loc, equals(b, loc, x), pos, end);
}

void LeafIterator::advance(OpBuilder &b, Location loc) {
  pos = level->next(b, loc, pos, end);
}

void LeafIterator::locate(OpBuilder &b, Location loc, Value x) {
  Value parentPos = parent ? parent->pos : constIndex(b, loc, 0);
  pos = level->locate(b, loc, parentPos, x);
}

//===----------------------------------------------------------------------===//
// Combinators (seed 001 §7.1.2)
//===----------------------------------------------------------------------===//

namespace {

using IteratorPtr = std::unique_ptr<SequenceIterator>;

/// Union and intersection. In lattice mode (the top of a point's
/// sequence) TACO's coiteration: the least coordinate of the iterated parts,
/// each part at it steps, the lattice moves on when one runs out. In
/// sequence mode (below a shape combinator) the whole set: a union runs
/// while any part does; an intersection steps its parts to common
/// coordinates. Parts that can locate are located at the coordinate
/// instead (§6.3.1) in an intersection with some part to iterate.
class MergeIterator : public SequenceIterator {
public:
  MergeIterator(SmallVector<IteratorPtr> parts, bool intersection,
                bool latticeMode, SequenceCursors &cursors)
      : parts(std::move(parts)), intersection(intersection),
        latticeMode(latticeMode), cursors(cursors) {
    bool someIterated = llvm::any_of(
        this->parts, [](const IteratorPtr &p) { return !p->canLocate(); });
    for (IteratorPtr &p : this->parts)
      (intersection && someIterated && p->canLocate() ? located : iterated)
          .push_back(p.get());
  }
  Value size(OpBuilder &b, Location loc) override {
    return parts.front()->size(b, loc);
  }
  void init(OpBuilder &b, Location loc) override {
    for (IteratorPtr &p : parts)
      p->init(b, loc);
    if (aligns())
      align(b, loc);
  }
  Value valid(OpBuilder &b, Location loc) override {
    SmallVector<Value> v;
    for (SequenceIterator *p : iterated)
      v.push_back(p->valid(b, loc));
    return latticeMode || intersection ? andAll(b, loc, v) : orAll(b, loc, v);
  }
  Value anyLeft(OpBuilder &b, Location loc) override {
    SmallVector<Value> v;
    for (SequenceIterator *p : iterated)
      v.push_back(p->anyLeft(b, loc));
    return intersection ? andAll(b, loc, v) : orAll(b, loc, v);
  }
  void resume(OpBuilder &b, Location loc) override {
    for (IteratorPtr &p : parts)
      p->resume(b, loc);
  }
  Value eval(OpBuilder &b, Location loc) override {
    if (aligns()) // aligned: every part is here
      return iterated.front()->eval(b, loc);
    Value x;
    for (SequenceIterator *p : iterated) {
      Value c = latticeMode ? p->eval(b, loc) : evalOrEnd(b, loc, *p);
      x = x ? Value(arith::MinUIOp::create(b, loc, x, c)) : c;
    }
    return x;
  }
  Value equals(OpBuilder &b, Location loc, Value x) override {
    SmallVector<Value> v;
    for (IteratorPtr &p : parts)
      v.push_back(p->equals(b, loc, x));
    return latticeMode || intersection ? andAll(b, loc, v) : orAll(b, loc, v);
  }
  void next(OpBuilder &b, Location loc, Value x) override {
    if (!aligns()) {
      for (SequenceIterator *p : iterated)
        p->next(b, loc, x);
      return;
    }
    cursors.emitIf(b, loc, isAt(b, loc, *this, x),
                   [&](OpBuilder &tb, Location l) { advance(tb, l); });
  }
  void advance(OpBuilder &b, Location loc) override {
    if (!aligns())
      return SequenceIterator::advance(b, loc);
    for (SequenceIterator *p : iterated)
      p->advance(b, loc);
    align(b, loc);
  }
  bool canLocate() const override {
    return llvm::all_of(parts,
                        [](const IteratorPtr &p) { return p->canLocate(); });
  }
  void locate(OpBuilder &b, Location loc, Value x) override {
    for (IteratorPtr &p : parts)
      p->locate(b, loc, x);
  }
  void bindLocated(OpBuilder &b, Location loc, Value x) override {
    for (SequenceIterator *p : located)
      p->locate(b, loc, x);
    for (SequenceIterator *p : iterated)
      p->bindLocated(b, loc, x);
  }
  void collectActiveLeaves(SmallVectorImpl<LeafIterator *> &out) override {
    for (IteratorPtr &p : parts)
      p->collectActiveLeaves(out);
  }
  void collectMatched(
      OpBuilder &b, Location loc, Value x,
      SmallVectorImpl<std::pair<LeafIterator *, Value>> &out) override {
    for (IteratorPtr &p : parts)
      p->collectMatched(b, loc, x, out);
  }

private:
  /// A whole intersection keeps its parts on a common coordinate.
  bool aligns() const { return intersection && !latticeMode; }
  /// while (all valid && not all at the largest coordinate) step the
  /// parts below it.
  void align(OpBuilder &b, Location loc) {
    auto largest = [&](OpBuilder &ib, Location l) {
      Value m;
      for (SequenceIterator *p : iterated) {
        Value c = p->eval(ib, l);
        m = m ? Value(arith::MaxUIOp::create(ib, l, m, c)) : c;
      }
      return m;
    };
    cursors.emitWhile(
        b, loc,
        [&](OpBuilder &cb, Location l) {
          SmallVector<Value> v;
          for (SequenceIterator *p : iterated)
            v.push_back(p->valid(cb, l));
          Value all = andAll(cb, l, v);
          return guardedValue(cb, l, all, [&](OpBuilder &tb, Location tl) {
            Value m = largest(tb, tl);
            SmallVector<Value> behind;
            for (SequenceIterator *p : iterated)
              behind.push_back(arith::CmpIOp::create(
                  tb, tl, arith::CmpIPredicate::ult, p->eval(tb, tl), m));
            return orAll(tb, tl, behind);
          });
        },
        [&](OpBuilder &bb, Location l) {
          Value m = largest(bb, l);
          for (SequenceIterator *p : iterated) {
            Value behind = arith::CmpIOp::create(
                bb, l, arith::CmpIPredicate::ult, p->eval(bb, l), m);
            cursors.emitIf(bb, l, behind, [&](OpBuilder &tb, Location tl) {
              p->advance(tb, tl);
            });
          }
        });
  }
  static Value guardedValue(OpBuilder &b, Location loc, Value cond,
                            llvm::function_ref<Value(OpBuilder &, Location)> f);

  SmallVector<IteratorPtr> parts;
  bool intersection, latticeMode;
  SequenceCursors &cursors;
  SmallVector<SequenceIterator *> iterated, located;
};

Value MergeIterator::guardedValue(
    OpBuilder &b, Location loc, Value cond,
    llvm::function_ref<Value(OpBuilder &, Location)> f) {
  return guarded(b, loc, cond, f);
}

/// a × b (seed 001 Fig. 20): for each coordinate of a every coordinate of
/// b, as a·|b| + b; b restarts under each a (its init may read a's
/// position: two levels of one array).
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
  void next(OpBuilder &b, Location loc, Value x) override {
    cursors.emitIf(b, loc, isAt(b, loc, *this, x),
                   [&](OpBuilder &tb, Location l) { advance(tb, l); });
  }
  void advance(OpBuilder &b, Location loc) override {
    inner->advance(b, loc);
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
  void collectMatched(
      OpBuilder &b, Location loc, Value x,
      SmallVectorImpl<std::pair<LeafIterator *, Value>> &out) override {
    Value n = inner->size(b, loc);
    outer->collectMatched(b, loc, arith::DivUIOp::create(b, loc, x, n), out);
    inner->collectMatched(b, loc, arith::RemUIOp::create(b, loc, x, n), out);
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
          return arith::AndIOp::create(cb, l, outer->anyLeft(cb, l), innerDone)
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

/// a[s:e:r] (seed 001 Fig. 21): the coordinates c of a with s <= c < e and
/// c - s a multiple of r, as (c - s) / r.
class SliceIterator : public SequenceIterator {
public:
  SliceIterator(IteratorPtr operand, int64_t start, int64_t stop, int64_t step,
                SequenceCursors &cursors)
      : operand(std::move(operand)), start(start), stop(stop), step(step),
        cursors(cursors) {}
  Value size(OpBuilder &b, Location loc) override {
    // ceil((min(e, |a|) - s) / r), 0 when empty.
    Value e = arith::MinUIOp::create(b, loc, constIndex(b, loc, stop),
                                     operand->size(b, loc));
    Value s = constIndex(b, loc, start);
    Value span = arith::SubIOp::create(b, loc, e, s);
    Value count = arith::DivUIOp::create(
        b, loc,
        arith::AddIOp::create(b, loc, span, constIndex(b, loc, step - 1)),
        constIndex(b, loc, step));
    Value empty =
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ule, e, s);
    return arith::SelectOp::create(b, loc, empty, constIndex(b, loc, 0), count);
  }
  void resume(OpBuilder &b, Location loc) override { operand->resume(b, loc); }
  void init(OpBuilder &b, Location loc) override {
    operand->init(b, loc);
    if (operand->canLocate())
      operand->locate(b, loc, constIndex(b, loc, start));
    skipOutside(b, loc);
  }
  Value valid(OpBuilder &b, Location loc) override {
    return guarded(
        b, loc, operand->valid(b, loc), [&](OpBuilder &tb, Location l) {
          return arith::CmpIOp::create(tb, l, arith::CmpIPredicate::ult,
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
  Value equals(OpBuilder &b, Location loc, Value x) override {
    return operand->equals(b, loc, toOperand(b, loc, x));
  }
  void next(OpBuilder &b, Location loc, Value x) override {
    cursors.emitIf(b, loc, isAt(b, loc, *this, x),
                   [&](OpBuilder &tb, Location l) { advance(tb, l); });
  }
  void advance(OpBuilder &b, Location loc) override {
    operand->advance(b, loc);
    skipOutside(b, loc);
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

private:
  Value toOperand(OpBuilder &b, Location loc, Value x) {
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
                Value below = arith::CmpIOp::create(
                    tb, tl, arith::CmpIPredicate::ult, c, s);
                Value off = arith::CmpIOp::create(
                    tb, tl, arith::CmpIPredicate::ne,
                    arith::RemUIOp::create(tb, tl,
                                           arith::SubIOp::create(tb, tl, c, s),
                                           constIndex(tb, tl, step)),
                    constIndex(tb, tl, 0));
                Value before =
                    arith::CmpIOp::create(tb, tl, arith::CmpIPredicate::ult, c,
                                          constIndex(tb, tl, stop));
                return arith::AndIOp::create(
                           tb, tl, before,
                           arith::OrIOp::create(tb, tl, below, off))
                    .getResult();
              });
        },
        [&](OpBuilder &bb, Location l) { operand->advance(bb, l); });
  }

  IteratorPtr operand;
  int64_t start, stop, step;
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

std::unique_ptr<SequenceIterator> SequenceIterator::fromExpr(
    const SequenceExpr &expr,
    llvm::function_ref<LeafIterator *(const SequenceExpr &)> leafOf,
    SequenceCursors &cursors, std::string &error, bool latticeMode) {
  // The lattice handles the running out of exactly the parts Fig. 13 takes
  // edges from: every operand of a union or intersection, the outer side of
  // a product, the first part of a concatenation, the operand of an offset,
  // slice or projection. Other parts are whole sequences.
  auto child = [&](unsigned i) {
    bool onEdges =
        expr.is(Kind::Union) || expr.is(Kind::Intersection) || i == 0;
    return fromExpr(expr.getChildren()[i], leafOf, cursors, error,
                    latticeMode && onEdges);
  };
  /// A non-owning view of a leaf (leaves belong to the caller).
  class LeafView : public SequenceIterator {
  public:
    explicit LeafView(LeafIterator *leaf) : leaf(leaf) {}
    Value size(OpBuilder &b, Location l) override { return leaf->size(b, l); }
    void init(OpBuilder &b, Location l) override { leaf->init(b, l); }
    Value valid(OpBuilder &b, Location l) override { return leaf->valid(b, l); }
    Value eval(OpBuilder &b, Location l) override { return leaf->eval(b, l); }
    Value equals(OpBuilder &b, Location l, Value x) override {
      return leaf->equals(b, l, x);
    }
    void next(OpBuilder &b, Location l, Value x) override {
      leaf->next(b, l, x);
    }
    void advance(OpBuilder &b, Location l) override { leaf->advance(b, l); }
    bool canLocate() const override { return leaf->canLocate(); }
    void locate(OpBuilder &b, Location l, Value x) override {
      leaf->locate(b, l, x);
    }
    void collectActiveLeaves(SmallVectorImpl<LeafIterator *> &out) override {
      out.push_back(leaf);
    }
    void collectMatched(
        OpBuilder &b, Location l, Value x,
        SmallVectorImpl<std::pair<LeafIterator *, Value>> &out) override {
      leaf->collectMatched(b, l, x, out);
    }

  private:
    LeafIterator *leaf;
  };

  switch (expr.getKind()) {
  case Kind::Leaf: {
    LeafIterator *leaf = leafOf(expr);
    if (!leaf) {
      error = "no level for leaf " + expr.str();
      return nullptr;
    }
    return std::make_unique<LeafView>(leaf);
  }
  case Kind::Union:
  case Kind::Intersection: {
    // t ∩ ¬t (seed 000's augmentation, SequenceLattice.cpp): holds no
    // coordinate yet iterates t, whose value a case may need: t's cursor.
    ArrayRef<SequenceExpr> c = expr.getChildren();
    if (expr.is(Kind::Intersection) && c.size() == 2 && c[0].is(Kind::Leaf) &&
        c[1].is(Kind::Complement) && c[1].getChildren()[0] == c[0])
      return fromExpr(c[0], leafOf, cursors, error, latticeMode);
    SmallVector<IteratorPtr> parts;
    for (unsigned i = 0; i < expr.getChildren().size(); ++i) {
      parts.push_back(child(i));
      if (!parts.back())
        return nullptr;
    }
    return std::make_unique<MergeIterator>(
        std::move(parts), expr.is(Kind::Intersection), latticeMode, cursors);
  }
  case Kind::Product: {
    IteratorPtr a = child(0), b = child(1);
    if (!a || !b)
      return nullptr;
    return std::make_unique<ProductIterator>(std::move(a), std::move(b),
                                             cursors);
  }
  case Kind::Concat: {
    IteratorPtr a = child(0), b = child(1);
    if (!a || !b)
      return nullptr;
    return std::make_unique<ConcatIterator>(std::move(a), std::move(b),
                                            latticeMode);
  }
  case Kind::Offset: {
    IteratorPtr shift = fromExpr(*expr.getShape(), leafOf, cursors, error);
    IteratorPtr operand = child(0);
    if (!shift || !operand)
      return nullptr;
    return std::make_unique<OffsetIterator>(std::move(shift),
                                            std::move(operand));
  }
  case Kind::Slice: {
    IteratorPtr a = child(0);
    if (!a)
      return nullptr;
    if (expr.getSliceStart() < 0 || expr.getSliceStop() < 0 ||
        expr.getSliceStep() <= 0 ||
        expr.getSliceStart() == SequenceExpr::kDynamic ||
        expr.getSliceStop() == SequenceExpr::kDynamic) {
      error =
          "slice bounds must be static, non-negative, step > 0: " + expr.str();
      return nullptr;
    }
    return std::make_unique<SliceIterator>(std::move(a), expr.getSliceStart(),
                                           expr.getSliceStop(),
                                           expr.getSliceStep(), cursors);
  }
  case Kind::Project: {
    IteratorPtr a = child(0);
    if (!a)
      return nullptr;
    if (expr.getProjectIndex() != 0 || expr.getProjectInner() <= 0) {
      error =
          "only π₀ with a static inner size iterates on its own: " + expr.str();
      return nullptr;
    }
    return std::make_unique<ProjectOuterIterator>(
        std::move(a), expr.getProjectInner(), cursors);
  }
  case Kind::Empty:
  case Kind::Full: {
    if (!expr.getShape()) {
      error = "no size for " + expr.str();
      return nullptr;
    }
    IteratorPtr shape =
        fromExpr(*expr.getShape(), leafOf, cursors, error, false);
    if (!shape)
      return nullptr;
    return std::make_unique<ExhaustedIterator>(std::move(shape));
  }
  case Kind::Universe:
  case Kind::Complement:
    error = "no iterator for " + expr.str() + " yet";
    return nullptr;
  }
  return nullptr;
}
