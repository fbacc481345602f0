//===- SequenceIterator.cpp - Iterators over sequence expressions ---------===//
//
// seed 001 §7.1 (iterator model: init, valid, eval, equals, next, locate),
// §7.1.1 (formats, through LevelIterator); the cursors loops thread and the
// factory over expressions. The combinators (§7.1.2) are in
// MergeIterator.cpp and ShapeIterators.cpp.
//
//===----------------------------------------------------------------------===//

#include "SequenceIteratorImpl.h"

#include "CodegenUtils.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

#include <limits>

using namespace mlir;
using namespace mlir::sparse_array;
using namespace mlir::sparse_array::detail;

using Kind = SequenceExpr::Kind;

SequenceIterator::~SequenceIterator() = default;

void SequenceIterator::advance(OpBuilder &b, Location loc) {
  next(b, loc, eval(b, loc));
}

void SequenceIterator::locate(OpBuilder &, Location, Value) {
  llvm_unreachable("sequence cannot locate");
}

Value sparse_array::detail::andAll(OpBuilder &b, Location loc,
                                   ArrayRef<Value> values) {
  Value r;
  for (Value v : values)
    r = r ? Value(arith::AndIOp::create(b, loc, r, v)) : v;
  return r;
}

/// cond ? f() : false, evaluating f only under cond (it may read past a
/// buffer otherwise).
Value sparse_array::detail::guarded(
    OpBuilder &b, Location loc, Value cond,
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
Value sparse_array::detail::evalOrEnd(OpBuilder &b, Location loc,
                                      SequenceIterator &it) {
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
Value sparse_array::detail::isAt(OpBuilder &b, Location loc,
                                 SequenceIterator &it, Value x) {
  return guarded(b, loc, it.valid(b, loc), [&](OpBuilder &tb, Location l) {
    return arith::CmpIOp::create(tb, l, arith::CmpIPredicate::eq,
                                 it.eval(tb, l), x)
        .getResult();
  });
}

void sparse_array::detail::advanceIfAt(OpBuilder &b, Location loc,
                                       SequenceIterator &it, Value x,
                                       SequenceCursors &cursors) {
  cursors.emitIf(b, loc, isAt(b, loc, it, x),
                 [&](OpBuilder &tb, Location l) { it.advance(tb, l); });
}

Value sparse_array::detail::orAll(OpBuilder &b, Location loc,
                                  ArrayRef<Value> values) {
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
  emitWhile(
      b, loc, ValueRange(),
      [&](OpBuilder &cb, Location l, ValueRange) { return cond(cb, l); },
      [&](OpBuilder &bb, Location l, ValueRange) {
        body(bb, l);
        return SmallVector<Value>();
      });
}

SmallVector<Value> SequenceCursors::emitWhile(
    OpBuilder &b, Location loc, ValueRange carried,
    llvm::function_ref<Value(OpBuilder &, Location, ValueRange)> cond,
    CarriedBody body, bool fewTrips) {
  unsigned n = size();
  SmallVector<Value> init = get();
  init.append(carried.begin(), carried.end());
  SmallVector<Type> types = llvm::to_vector(ValueRange(init).getTypes());
  auto loop = scf::WhileOp::create(
      b, loc, types, init,
      [&](OpBuilder &bb, Location l, ValueRange args) {
        set(args.take_front(n));
        scf::ConditionOp::create(bb, l, cond(bb, l, args.drop_front(n)), args);
      },
      [&](OpBuilder &bb, Location l, ValueRange args) {
        set(args.take_front(n));
        SmallVector<Value> rest = body(bb, l, args.drop_front(n));
        SmallVector<Value> yield = get();
        yield.append(rest.begin(), rest.end());
        scf::YieldOp::create(bb, l, yield);
      });
  if (fewTrips)
    markNotUnrolled(loop);
  set(loop.getResults().take_front(n));
  return SmallVector<Value>(loop.getResults().drop_front(n));
}

SmallVector<Value> SequenceCursors::emitIfElse(
    OpBuilder &b, Location loc, Value cond,
    llvm::function_ref<SmallVector<Value>(OpBuilder &, Location)> then,
    llvm::function_ref<SmallVector<Value>(OpBuilder &, Location)> otherwise) {
  unsigned n = size();
  SmallVector<Value> before = get();
  auto branch = [&](auto &&f) {
    return [&, f](OpBuilder &bb, Location l) {
      set(before);
      SmallVector<Value> rest = f(bb, l);
      SmallVector<Value> yield = get();
      yield.append(rest.begin(), rest.end());
      scf::YieldOp::create(bb, l, yield);
    };
  };
  auto op = scf::IfOp::create(b, loc, cond, branch(then), branch(otherwise));
  set(op.getResults().take_front(n));
  return SmallVector<Value>(op.getResults().drop_front(n));
}

//===----------------------------------------------------------------------===//
// Leaves (seed 001 §7.1.1)
//===----------------------------------------------------------------------===//

void LeafIterator::init(OpBuilder &b, Location loc) {
  if (segmentGiven) {
    pos = begin;
    return;
  }
  Value lo = parent ? parent->pos : constIndex(b, loc, 0);
  Value hi = arith::AddIOp::create(b, loc, lo, constIndex(b, loc, 1));
  // Below a non-unique level the children are those of its whole run.
  if (parent && parent->level->hasSegments())
    hi = parent->runEnd(b, loc, arith::ConstantIntOp::create(b, loc, 1, 1));
  std::tie(lo, hi) =
      parent ? parent->storedSegment(b, loc, lo, hi) : std::make_pair(lo, hi);
  std::tie(begin, end) = level->init(b, loc, lo, hi);
  pos = begin;
}

Value LeafIterator::valid(OpBuilder &b, Location loc) {
  if (knownValid())
    return arith::ConstantIntOp::create(b, loc, 1, 1);
  return level->valid(b, loc, pos, end);
}

Value LeafIterator::eval(OpBuilder &b, Location loc) {
  if (knownValid())
    return coordinateAt;
  return coordinateOf(b, loc, pos);
}

Value LeafIterator::equals(OpBuilder &b, Location loc, Value x) {
  if (knownValid())
    return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, coordinateAt,
                                 x);
  return level->matches(b, loc, begin, pos, end, x);
}

Value LeafIterator::equalsGiven(OpBuilder &b, Location loc, Value x,
                                const LeafMatches &m) {
  if (Value known = m.lookup(this))
    return known;
  return equals(b, loc, x);
}

void LeafIterator::nextGiven(OpBuilder &b, Location loc, Value x,
                             const LeafMatches &m) {
  pos = level->advance(b, loc, equalsGiven(b, loc, x, m), pos, end);
}

Value LeafIterator::runEnd(OpBuilder &b, Location loc, Value matched) {
  return level->advance(b, loc, matched, pos, end);
}

void LeafIterator::seek(OpBuilder &b, Location loc, Value target) {
  // A full level holds coordinate c at begin + c: no search.
  if (level->getSpec().isFull()) {
    Value at = arith::MinUIOp::create(
        b, loc, arith::AddIOp::create(b, loc, begin, target), end);
    pos = arith::MaxUIOp::create(b, loc, pos, at);
    return;
  }
  if (!level->getSpec().ordered)
    return;
  pos = level->search(b, loc, pos, end, target).first;
}

Value LeafIterator::coordinateOf(OpBuilder &b, Location loc, Value at) {
  if (segmentGiven && givenParentPos)
    return level->coordinateBelow(b, loc, givenParentPos, begin, at);
  return level->coordinate(b, loc, begin, at);
}

void LeafIterator::gallop(OpBuilder &b, Location loc, Value target) {
  Value here = eval(b, loc);
  Value behind =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, here, target);
  Value from = pos, to = end;
  auto jump = scf::IfOp::create(
      b, loc, behind,
      [&](OpBuilder &tb, Location l) {
        // (lo, step): lo's coordinate is below target; probe lo + step,
        // clamped into the segment (its last position is a valid one).
        Value one = constIndex(tb, l, 1);
        Value last = arith::SubIOp::create(tb, l, to, one);
        Type index = tb.getIndexType();
        auto probe = scf::WhileOp::create(
            tb, l, TypeRange{index, index}, ValueRange{from, one},
            [&](OpBuilder &cb, Location cl, ValueRange args) {
              Value q = arith::AddIOp::create(cb, cl, args[0], args[1]);
              Value inside =
                  arith::CmpIOp::create(cb, cl, arith::CmpIPredicate::ult, q, to);
              Value at = arith::MinUIOp::create(cb, cl, q, last);
              Value below = arith::CmpIOp::create(
                  cb, cl, arith::CmpIPredicate::ult,
                  coordinateOf(cb, cl, at), target);
              scf::ConditionOp::create(
                  cb, cl, arith::AndIOp::create(cb, cl, inside, below), args);
            },
            [&](OpBuilder &wb, Location wl, ValueRange args) {
              Value q = arith::AddIOp::create(wb, wl, args[0], args[1]);
              Value twice = arith::ShLIOp::create(wb, wl, args[1],
                                                  constIndex(wb, wl, 1));
              scf::YieldOp::create(wb, wl, ValueRange{q, twice});
            });
        Value lo = arith::AddIOp::create(tb, l, probe.getResult(0), one);
        Value hi = arith::MinUIOp::create(
            tb, l,
            arith::AddIOp::create(tb, l, probe.getResult(0), probe.getResult(1)),
            to);
        Value first = emitLowerBound(
            tb, l, lo, hi, [&](OpBuilder &bb, Location bl, Value mid) -> Value {
              return arith::CmpIOp::create(bb, bl, arith::CmpIPredicate::ult,
                                           coordinateOf(bb, bl, mid),
                                           target);
            });
        scf::YieldOp::create(tb, l, first);
      },
      [&](OpBuilder &eb, Location l) { scf::YieldOp::create(eb, l, from); });
  pos = jump.getResult(0);
}

void LeafIterator::assumeValid(OpBuilder &b, Location loc) {
  coordinateAt = coordinateOf(b, loc, pos);
  validAt = pos;
}

SequenceIterator::LeafMatches SequenceIterator::toMatches(
    ArrayRef<std::pair<LeafIterator *, Value>> matched) {
  LeafMatches m;
  for (auto [leaf, here] : matched)
    m.try_emplace(leaf, here);
  return m;
}

void LeafIterator::next(OpBuilder &b, Location loc, Value x) {
  pos = level->advance(b, loc, equals(b, loc, x), pos, end);
}

void LeafIterator::advance(OpBuilder &b, Location loc) {
  pos = level->next(b, loc, pos, end);
}

void LeafIterator::locate(OpBuilder &b, Location loc, Value x) {
  // A given segment lies under its parent's position, not the root's (a
  // padded window of an inner dense level located from row 0 read the
  // previous row).
  Value parentPos = parent           ? parent->pos
                    : givenParentPos ? givenParentPos
                                     : constIndex(b, loc, 0);
  pos = level->locate(b, loc, parentPos, x);
}

namespace {
/// U, every coordinate of a dimension of size n (seed 001 §6.2.2: dense,
/// so a union with it is done when it is). It has no cursor of its own:
/// its coordinate is the induction variable of the counted loop it drives
/// (countedExtent), given by bindLocated.
class UniverseIterator : public SequenceIterator {
public:
  explicit UniverseIterator(Value n) : n(n) {}
  Value size(OpBuilder &, Location) override { return n; }
  void init(OpBuilder &b, Location l) override { cur = constIndex(b, l, 0); }
  Value valid(OpBuilder &b, Location l) override {
    return arith::CmpIOp::create(b, l, arith::CmpIPredicate::ult, cur, n);
  }
  Value eval(OpBuilder &, Location) override { return cur; }
  /// Holds every coordinate the loop reaches.
  Value equals(OpBuilder &b, Location l, Value) override {
    return arith::ConstantIntOp::create(b, l, 1, 1);
  }
  /// The counted loop steps it.
  void next(OpBuilder &, Location, Value) override {}
  void advance(OpBuilder &, Location) override {}
  void stepAll(OpBuilder &, Location) override {}
  bool canLocate() const override { return true; }
  void locate(OpBuilder &, Location, Value x) override { cur = x; }
  void bindLocated(OpBuilder &, Location, Value x) override { cur = x; }
  Value countedExtent(OpBuilder &, Location) override { return n; }
  bool isCounted() const override { return true; }
  void collectActiveLeaves(SmallVectorImpl<LeafIterator *> &) override {}
  void
  collectMatched(OpBuilder &, Location, Value,
                 SmallVectorImpl<std::pair<LeafIterator *, Value>> &) override {
  }

private:
  Value n, cur;
};

/// t ∩ ¬t for a dense t: holds nothing; t is located at the loop's
/// coordinate for its values (seed 000's augmentation of a dense operand
/// that left the sequence), never iterated.
class LocatedOnlyIterator : public SequenceIterator {
public:
  explicit LocatedOnlyIterator(IteratorPtr kept) : kept(std::move(kept)) {}
  Value size(OpBuilder &b, Location l) override { return kept->size(b, l); }
  void init(OpBuilder &b, Location l) override { kept->init(b, l); }
  Value valid(OpBuilder &b, Location l) override {
    return arith::ConstantIntOp::create(b, l, 0, 1);
  }
  Value eval(OpBuilder &b, Location l) override { return kept->eval(b, l); }
  Value equals(OpBuilder &b, Location l, Value x) override {
    return kept->equals(b, l, x);
  }
  void next(OpBuilder &, Location, Value) override {}
  bool canLocate() const override { return true; }
  bool locatedOnly() const override { return true; }
  void locate(OpBuilder &b, Location l, Value x) override {
    kept->locate(b, l, x);
  }
  void bindLocated(OpBuilder &b, Location l, Value x) override {
    kept->locate(b, l, x);
  }
  void collectActiveLeaves(SmallVectorImpl<LeafIterator *> &out) override {
    kept->collectActiveLeaves(out);
  }
  void collectMatched(
      OpBuilder &b, Location l, Value x,
      SmallVectorImpl<std::pair<LeafIterator *, Value>> &out) override {
    kept->collectMatched(b, l, x, out);
  }

private:
  IteratorPtr kept;
};
/// Asks `target` everything (a view of an iterator owned elsewhere, or,
/// with `owned`, of its own).
class ForwardingIterator : public SequenceIterator {
public:
  explicit ForwardingIterator(SequenceIterator *target) : target(target) {}
  explicit ForwardingIterator(IteratorPtr owned)
      : owned(std::move(owned)), target(this->owned.get()) {}
  Value size(OpBuilder &b, Location l) override { return target->size(b, l); }
  void init(OpBuilder &b, Location l) override { target->init(b, l); }
  Value valid(OpBuilder &b, Location l) override {
    return target->valid(b, l);
  }
  Value anyLeft(OpBuilder &b, Location l) override {
    return target->anyLeft(b, l);
  }
  void resume(OpBuilder &b, Location l) override { target->resume(b, l); }
  Value eval(OpBuilder &b, Location l) override { return target->eval(b, l); }
  Value equals(OpBuilder &b, Location l, Value x) override {
    return target->equals(b, l, x);
  }
  Value holds(OpBuilder &b, Location l, Value x) override {
    return target->holds(b, l, x);
  }
  void next(OpBuilder &b, Location l, Value x) override {
    target->next(b, l, x);
  }
  void advance(OpBuilder &b, Location l) override { target->advance(b, l); }
  bool canLocate() const override { return target->canLocate(); }
  bool locatedOnly() const override { return target->locatedOnly(); }
  void locate(OpBuilder &b, Location l, Value x) override {
    target->locate(b, l, x);
  }
  void bindLocated(OpBuilder &b, Location l, Value x) override {
    target->bindLocated(b, l, x);
  }
  void collectActiveLeaves(SmallVectorImpl<LeafIterator *> &out) override {
    target->collectActiveLeaves(out);
  }
  void collectMatched(
      OpBuilder &b, Location l, Value x,
      SmallVectorImpl<std::pair<LeafIterator *, Value>> &out) override {
    target->collectMatched(b, l, x, out);
  }
  Value equalsGiven(OpBuilder &b, Location l, Value x,
                    const LeafMatches &m) override {
    return target->equalsGiven(b, l, x, m);
  }
  void nextGiven(OpBuilder &b, Location l, Value x,
                 const LeafMatches &m) override {
    target->nextGiven(b, l, x, m);
  }
  void assumeValid(OpBuilder &b, Location l) override {
    target->assumeValid(b, l);
  }
  void stepAll(OpBuilder &b, Location l) override { target->stepAll(b, l); }
  Value countedExtent(OpBuilder &b, Location l) override {
    return target->countedExtent(b, l);
  }
  bool isCounted() const override { return target->isCounted(); }
  void seek(OpBuilder &b, Location l, Value t) override {
    target->seek(b, l, t);
  }

private:
  IteratorPtr owned;
  SequenceIterator *target;
};

/// t ∩ ¬t (seed 000's augmentation): t's iterator in every respect — its
/// cursor moves with t and a case reads t's value where t is at x — except
/// membership: it holds no coordinate (a product over it holds nothing).
class AugmentedIterator : public ForwardingIterator {
public:
  using ForwardingIterator::ForwardingIterator;
  Value holds(OpBuilder &b, Location l, Value) override {
    return arith::ConstantIntOp::create(b, l, 0, 1);
  }
};
} // namespace

std::unique_ptr<SequenceIterator> SequenceIterator::fromExpr(
    const SequenceExpr &expr,
    llvm::function_ref<LeafIterator *(const SequenceExpr &)> leafOf,
    SequenceCursors &cursors, std::string &error, bool latticeMode,
    Value universeSize, BoundsFn boundsOf) {
  // The lattice handles the running out of exactly the parts Fig. 13 takes
  // edges from: every operand of a union or intersection, the outer side of
  // a product, the first part of a concatenation, the operand of an offset,
  // slice or projection. Other parts are whole sequences.
  auto child = [&](unsigned i) {
    bool onEdges =
        expr.is(Kind::Union) || expr.is(Kind::Intersection) || i == 0;
    return fromExpr(expr.getChildren()[i], leafOf, cursors, error,
                    latticeMode && onEdges, universeSize, boundsOf);
  };

  switch (expr.getKind()) {
  case Kind::Leaf: {
    LeafIterator *leaf = leafOf(expr);
    if (!leaf) {
      error = "no level for leaf " + expr.str();
      return nullptr;
    }
    // A non-owning view: leaves belong to the caller.
    return std::make_unique<ForwardingIterator>(leaf);
  }
  case Kind::Union:
  case Kind::Intersection: {
    // t ∩ ¬t (seed 000's augmentation, SequenceLattice.cpp): holds no
    // coordinate yet iterates t, whose value a case may need: t's cursor;
    // a dense t is located at the loop's coordinate instead.
    ArrayRef<SequenceExpr> c = expr.getChildren();
    if (expr.is(Kind::Intersection) && c.size() == 2 &&
        c[1].is(Kind::Complement) && c[1].getChildren()[0] == c[0]) {
      IteratorPtr kept = fromExpr(c[0], leafOf, cursors, error, latticeMode,
                                  universeSize, boundsOf);
      if (!kept)
        return kept;
      if (kept->canLocate())
        kept = std::make_unique<LocatedOnlyIterator>(std::move(kept));
      return std::make_unique<AugmentedIterator>(std::move(kept));
    }
    SmallVector<IteratorPtr> parts;
    for (unsigned i = 0; i < expr.getChildren().size(); ++i) {
      parts.push_back(child(i));
      if (!parts.back())
        return nullptr;
    }
    return makeMergeIterator(std::move(parts), expr.is(Kind::Intersection),
                             latticeMode, cursors);
  }
  case Kind::Product: {
    IteratorPtr a = child(0), b = child(1);
    if (!a || !b)
      return nullptr;
    return makeProductIterator(std::move(a), std::move(b), cursors);
  }
  case Kind::Concat: {
    IteratorPtr a = child(0), b = child(1);
    if (!a || !b)
      return nullptr;
    return makeConcatIterator(std::move(a), std::move(b), latticeMode);
  }
  case Kind::Offset: {
    IteratorPtr shift = fromExpr(*expr.getShape(), leafOf, cursors, error);
    IteratorPtr operand = child(0);
    if (!shift || !operand)
      return nullptr;
    return makeOffsetIterator(std::move(shift), std::move(operand));
  }
  case Kind::Slice: {
    IteratorPtr a = child(0);
    if (!a)
      return nullptr;
    // Bounds may lie outside the operand (a padded window): coordinates
    // there are simply not stored.
    int64_t start = expr.getSliceStart(), stop = expr.getSliceStop(),
            step = expr.getSliceStep();
    if (start == SequenceExpr::kDynamic || stop == SequenceExpr::kDynamic) {
      // A window whose bounds enclosing loops fix (a collapse read through
      // a split): step 1, bounds within the operand.
      if (step != 1 || !boundsOf) {
        error = "slice bounds must be static: " + expr.str();
        return nullptr;
      }
      auto [lo, hi] = boundsOf(expr);
      return makeWindowIterator(std::move(a), lo, hi, cursors);
    }
    if (step < 0) {
      // Counting down reads a level backwards: its leaf must be reflected
      // (K - c ascends; the slice iterator then takes the ascending slice
      // of the reflected coordinates).
      const SequenceExpr &operand = expr.getChildren()[0];
      LeafIterator *leaf = operand.is(Kind::Leaf) ? leafOf(operand) : nullptr;
      if (!leaf || !leaf->isReflected()) {
        error = "a slice with a negative step needs a level read backwards: " +
                expr.str();
        return nullptr;
      }
    }
    return makeSliceIterator(std::move(a), start, stop, step, cursors);
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
    return makeProjectOuterIterator(std::move(a), expr.getProjectInner(),
                                    cursors);
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
    return makeExhaustedIterator(std::move(shape));
  }
  case Kind::Universe:
    if (universeSize)
      return std::make_unique<UniverseIterator>(universeSize);
    [[fallthrough]];
  case Kind::Complement:
    error = "no iterator for " + expr.str() + " yet";
    return nullptr;
  }
  return nullptr;
}
