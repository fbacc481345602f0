//===- MergeIterator.cpp - Union and intersection iterators ---------------===//
//
// seed 001 §7.1.2 (union, intersection as iterators), §6.3.1 (locators in
// intersections); seed 000 §6.3 (coiteration at the top of a lattice
// point).
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
    bool someIterated = llvm::any_of(this->parts, [](const IteratorPtr &p) {
      return !p->canLocate() && !p->locatedOnly();
    });
    for (IteratorPtr &p : this->parts)
      (p->locatedOnly() || (intersection && someIterated && p->canLocate())
           ? located
           : iterated)
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
    if (SequenceIterator *d = driver())
      return d->valid(b, loc);
    SmallVector<Value> v;
    for (SequenceIterator *p : iterated)
      v.push_back(p->valid(b, loc));
    if (v.empty()) // only located augmentation: nothing to visit
      return arith::ConstantIntOp::create(b, loc, 0, 1);
    return latticeMode || intersection ? andAll(b, loc, v) : orAll(b, loc, v);
  }
  Value anyLeft(OpBuilder &b, Location loc) override {
    SmallVector<Value> v;
    for (SequenceIterator *p : iterated)
      v.push_back(p->anyLeft(b, loc));
    if (v.empty())
      return arith::ConstantIntOp::create(b, loc, 0, 1);
    return intersection ? andAll(b, loc, v) : orAll(b, loc, v);
  }
  void resume(OpBuilder &b, Location loc) override {
    for (IteratorPtr &p : parts)
      p->resume(b, loc);
  }
  Value eval(OpBuilder &b, Location loc) override {
    if (aligns()) // aligned: every part is here
      return iterated.front()->eval(b, loc);
    if (SequenceIterator *d = driver()) // holds every coordinate
      return d->eval(b, loc);
    Value x;
    for (SequenceIterator *p : iterated) {
      Value c = latticeMode ? p->eval(b, loc) : evalOrEnd(b, loc, *p);
      x = x ? Value(arith::MinUIOp::create(b, loc, x, c)) : c;
    }
    // Only located parts: never valid, no coordinate.
    return x ? x : constIndex(b, loc, 0);
  }
  Value equals(OpBuilder &b, Location loc, Value x) override {
    return equalsGiven(b, loc, x, LeafMatches());
  }
  Value equalsGiven(OpBuilder &b, Location loc, Value x,
                    const LeafMatches &m) override {
    // Located-only parts hold nothing: read where they match, never asked
    // for (no edge removes a dense level, so no case lacks them).
    SmallVector<Value> v;
    for (IteratorPtr &p : parts)
      if (!p->locatedOnly())
        v.push_back(p->equalsGiven(b, loc, x, m));
    if (v.empty())
      return arith::ConstantIntOp::create(b, loc, 0, 1);
    return latticeMode || intersection ? andAll(b, loc, v) : orAll(b, loc, v);
  }
  /// Membership: all parts hold x (an intersection) or one does.
  Value holds(OpBuilder &b, Location loc, Value x) override {
    SmallVector<Value> v;
    for (IteratorPtr &p : parts)
      v.push_back(p->holds(b, loc, x));
    return intersection ? andAll(b, loc, v) : orAll(b, loc, v);
  }
  void next(OpBuilder &b, Location loc, Value x) override {
    nextGiven(b, loc, x, LeafMatches());
  }
  void nextGiven(OpBuilder &b, Location loc, Value x,
                 const LeafMatches &m) override {
    if (!aligns()) {
      for (SequenceIterator *p : iterated)
        p->nextGiven(b, loc, x, m);
      return;
    }
    advanceIfAt(b, loc, *this, x, cursors);
  }
  /// A loop running while this is valid: in lattice mode and for
  /// intersections, every iterated part is.
  void assumeValid(OpBuilder &b, Location loc) override {
    if (!(latticeMode || intersection) || driver())
      return;
    for (SequenceIterator *p : iterated)
      p->assumeValid(b, loc);
  }
  void stepAll(OpBuilder &b, Location loc) override {
    if (aligns() || !latticeMode)
      return advance(b, loc);
    for (SequenceIterator *p : iterated)
      p->stepAll(b, loc);
  }
  Value countedExtent(OpBuilder &b, Location loc) override {
    SequenceIterator *d = driver();
    return d ? d->countedExtent(b, loc) : Value();
  }
  bool isCounted() const override { return driver() != nullptr; }
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
  /// Augmentation terms alone (dense levels kept for their values).
  bool locatedOnly() const override {
    return llvm::all_of(parts,
                        [](const IteratorPtr &p) { return p->locatedOnly(); });
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
  /// A union with a part that holds every coordinate (U): that part
  /// drives the loop, the others are followed (seed 001 §6.2.2: the union
  /// is done when its dense part is).
  SequenceIterator *driver() const {
    if (intersection)
      return nullptr;
    for (SequenceIterator *p : iterated)
      if (p->isCounted())
        return p;
    return nullptr;
  }
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

} // namespace

IteratorPtr
sparse_array::detail::makeMergeIterator(SmallVector<IteratorPtr> parts,
                                        bool intersection, bool latticeMode,
                                        SequenceCursors &cursors) {
  return std::make_unique<MergeIterator>(std::move(parts), intersection,
                                         latticeMode, cursors);
}
