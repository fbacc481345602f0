//===- SequenceIterator.h - Iterators over sequence expressions -*- C++ -*-===//
//
// The iterator model of seed 001 §7.1 over any sequence expression
// (SparseArray/Algebra/SequenceExpr.h): a leaf wraps a level's
// LevelIterator (its cursor: begin, position, end); every combinator —
// union, intersection, product, concatenation, offset, slice, projection —
// is a stateless view that composes its operands' init, valid, eval,
// equals, next and locate (Fig. 20 and 21 for product and slice). All
// state lives in the leaves, so a loop carries exactly the leaves' cursors
// (SequenceCursors) through scf.while and scf.if.
//
// `fromExpr` builds the iterator of an expression over given leaves; a new
// combinator is a subclass and a case there, nothing else.
//
//===----------------------------------------------------------------------===//

#ifndef SPARSEARRAY_CONVERSION_SEQUENCEITERATOR_H
#define SPARSEARRAY_CONVERSION_SEQUENCEITERATOR_H

#include "SparseArray/Algebra/SequenceExpr.h"
#include "SparseArray/Conversion/LevelIterator.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/STLFunctionalExtras.h"

#include <memory>

namespace mlir {
namespace sparse_array {

class LeafIterator;
class SequenceCursors;

class SequenceIterator {
public:
  virtual ~SequenceIterator();

  /// The logical size |s| (seed 001 §4.2).
  virtual Value size(OpBuilder &b, Location loc) = 0;
  /// Positions the cursor on the first coordinate.
  virtual void init(OpBuilder &b, Location loc) = 0;
  /// Whether the sequence has not run out (no operand has).
  virtual Value valid(OpBuilder &b, Location loc) = 0;
  /// Whether any coordinate is left, whatever the lattice: differs from
  /// valid() for a union at the top of a lattice point (its loop stops when
  /// one part runs out; the union itself goes on).
  virtual Value anyLeft(OpBuilder &b, Location loc) { return valid(b, loc); }
  /// At the start of a later lattice point's loop: re-establishes what the
  /// previous loop may have left undone (a product's inner part for the
  /// outer coordinate reached).
  virtual void resume(OpBuilder &b, Location loc) {}
  /// The current coordinate (only when valid).
  virtual Value eval(OpBuilder &b, Location loc) = 0;
  /// Whether the sequence is at coordinate x (false when not valid).
  virtual Value equals(OpBuilder &b, Location loc, Value x) = 0;
  /// Whether x is a member of the sequence: `equals`, except for t ∩ ¬t
  /// (seed 000's augmentation), which is at t's coordinates (a union's
  /// case reads t's value there) but holds none. A product holds x only
  /// where both factors hold their parts of it.
  virtual Value holds(OpBuilder &b, Location loc, Value x) {
    return equals(b, loc, x);
  }
  /// Steps the parts that are at x past it (x = eval of the enclosing
  /// loop's sequence).
  virtual void next(OpBuilder &b, Location loc, Value x) = 0;
  /// Steps past the current coordinate (only when valid).
  virtual void advance(OpBuilder &b, Location loc);
  /// Random access (seed 001 §6.1.3): only if every part can locate.
  virtual bool canLocate() const { return false; }
  /// Holds no coordinate and is only located at the loop's coordinate for
  /// its values, never iterated: t ∩ ¬t of a dense t (seed 000's
  /// augmentation of a level that left the sequence).
  virtual bool locatedOnly() const { return false; }
  virtual void locate(OpBuilder &b, Location loc, Value x);
  /// Once a loop evaluated x: positions the parts this iterator locates
  /// instead of iterating (dense operands of an intersection, §6.3.1).
  virtual void bindLocated(OpBuilder &b, Location loc, Value x) {}
  /// The leaves a loop over this sequence iterates or locates (not the
  /// second part of a concatenation, not an offset's shift).
  virtual void collectActiveLeaves(SmallVectorImpl<LeafIterator *> &out) = 0;
  /// Value access through the chain: each active leaf with an i1 telling
  /// whether it stores coordinate x of this sequence (x mapped through the
  /// combinators to the leaf's own coordinate).
  virtual void
  collectMatched(OpBuilder &b, Location loc, Value x,
                 SmallVectorImpl<std::pair<LeafIterator *, Value>> &out) = 0;

  /// What collectMatched found, per leaf: a loop body asks it once and
  /// answers every case test and step from it.
  using LeafMatches = llvm::SmallDenseMap<const LeafIterator *, Value, 8>;
  static LeafMatches
  toMatches(ArrayRef<std::pair<LeafIterator *, Value>> matched);
  /// `equals(x)` where the leaves' answers are in `m` (those not in it
  /// are asked).
  virtual Value equalsGiven(OpBuilder &b, Location loc, Value x,
                            const LeafMatches &m) {
    return equals(b, loc, x);
  }
  /// `next(x)` where the leaves' answers are in `m`.
  virtual void nextGiven(OpBuilder &b, Location loc, Value x,
                         const LeafMatches &m) {
    next(b, loc, x);
  }
  /// Inside the body of a loop that runs while valid(): records what that
  /// condition guarantees (the leaves a lattice point runs on have entries),
  /// so that eval and equals read their coordinates without guards.
  virtual void assumeValid(OpBuilder &b, Location loc) {}
  /// Every part is at the current coordinate (a case of a lattice point
  /// matched them all): steps them all past it.
  virtual void stepAll(OpBuilder &b, Location loc) { advance(b, loc); }
  /// When a loop over this sequence visits every coordinate of [0, n) in
  /// order (a union driven by the dense U): n. The loop is then counted,
  /// and bindLocated gives the iterator the loop's coordinate.
  virtual Value countedExtent(OpBuilder &b, Location loc) { return Value(); }
  /// Whether countedExtent gives one.
  virtual bool isCounted() const { return false; }
  /// Moves the cursor forward to the first coordinate >= target, where it
  /// can do so faster than stepping (bisection on ordered levels); else
  /// nothing (the caller steps).
  virtual void seek(OpBuilder &b, Location loc, Value target) {}
  /// init(), then on the first coordinate >= target where it can get there
  /// faster than stepping (a product seeks its outer part, then the inner
  /// part of the outer coordinate reached, without visiting the parts
  /// before); the caller steps over what may be left below target.
  virtual void initAt(OpBuilder &b, Location loc, Value target) {
    init(b, loc);
    seek(b, loc, target);
  }

  /// The iterator of `expr`; `leafOf` gives the leaf of a Leaf expression
  /// and `cursors` threads the state of every leaf through the control
  /// flow combinators emit. Null (and `error` set) for what has no iterator
  /// yet (U, complements, π₁, which iterates within an enclosing π₀ loop).
  /// `latticeMode`: unions and intersections at the top of a lattice
  /// point's sequence run while all their parts do (the lattice moves on
  /// when one runs out) and `equals` means every part is at x (the case
  /// of that point); below a shape combinator, where no lattice point
  /// splits them, they are whole sequences: a union runs while any part
  /// does, an intersection aligns its parts on common coordinates.
  /// `universeSize`: the extent U ranges over (without it, U has no
  /// iterator). `boundsOf`: the run-time [start, stop) of a slice whose
  /// bounds the expression leaves dynamic (a window enclosing loops fix);
  /// without it, such slices have no iterator.
  using BoundsFn =
      llvm::function_ref<std::pair<Value, Value>(const SequenceExpr &)>;
  static std::unique_ptr<SequenceIterator>
  fromExpr(const SequenceExpr &expr,
           llvm::function_ref<LeafIterator *(const SequenceExpr &)> leafOf,
           SequenceCursors &cursors, std::string &error,
           bool latticeMode = true, Value universeSize = Value(),
           BoundsFn boundsOf = nullptr);
};

/// One level of one array: the cursor [begin, end) / pos of its
/// LevelIterator, under the current position of its parent level (another
/// leaf of the same array) or the root.
class LeafIterator : public SequenceIterator {
public:
  LeafIterator(std::unique_ptr<LevelIterator> level, Value extent,
               LeafIterator *parent)
      : owned(std::move(level)), level(owned.get()), extent(extent),
        parent(parent) {}
  /// A cursor over the segment [begin, end) of `level` that enclosing
  /// loops found (a kernel's coiterated input; `level` stays the caller's)
  /// under the parent position `parentPos` (where locate finds a
  /// coordinate): init starts it over at `begin`.
  LeafIterator(LevelIterator &level, Value begin, Value end, Value parentPos)
      : begin(begin), pos(begin), end(end), level(&level),
        givenParentPos(parentPos), segmentGiven(true) {}
  /// A cursor over the children of `parent`'s entry (a product's inner
  /// part: the next level of the same array, `level` the caller's).
  LeafIterator(LevelIterator &level, Value extent, LeafIterator *parent)
      : level(&level), extent(extent), parent(parent) {}

  Value size(OpBuilder &, Location) override { return extent; }
  void init(OpBuilder &b, Location loc) override;
  Value valid(OpBuilder &b, Location loc) override;
  Value eval(OpBuilder &b, Location loc) override;
  Value equals(OpBuilder &b, Location loc, Value x) override;
  void next(OpBuilder &b, Location loc, Value x) override;
  void advance(OpBuilder &b, Location loc) override;
  bool canLocate() const override { return level->canLocate(); }
  void locate(OpBuilder &b, Location loc, Value x) override;
  void collectActiveLeaves(SmallVectorImpl<LeafIterator *> &out) override {
    out.push_back(this);
  }
  void collectMatched(
      OpBuilder &b, Location loc, Value x,
      SmallVectorImpl<std::pair<LeafIterator *, Value>> &out) override {
    out.push_back({this, equals(b, loc, x)});
  }
  Value equalsGiven(OpBuilder &b, Location loc, Value x,
                    const LeafMatches &m) override;
  void nextGiven(OpBuilder &b, Location loc, Value x,
                 const LeafMatches &m) override;
  void assumeValid(OpBuilder &b, Location loc) override;
  void seek(OpBuilder &b, Location loc, Value target) override;
  /// The end of the run of positions holding the current coordinate when
  /// `matched`, else the position itself: the segment [pos, runEnd) an
  /// entry's children live under (whatever the sequences above step over,
  /// e.g. a slice skipping coordinates off its stride).
  Value runEnd(OpBuilder &b, Location loc, Value matched);
  /// Whether the level is read backwards (a slice with a negative step).
  bool isReflected() const { return level->isReflected(); }
  /// What the level is (ordered, unique, full, ...).
  const LevelSpec &getSpec() const { return level->getSpec(); }
  /// Whether the level's segments hold a few entries (LevelIterator).
  bool shortSegments() const { return level->shortSegments(); }
  /// Moves a valid cursor to the first position whose coordinate is at
  /// least `target` (it stays where it is at or past it), by galloping:
  /// probes 1, 2, 4, ... positions ahead, then bisection in the last gap —
  /// O(log gap), one probe for a gap of one. Ordered levels only.
  void gallop(OpBuilder &b, Location loc, Value target);
  /// The cursor's run [lo, hi) as the level stores it (LevelIterator::
  /// storedSegment).
  std::pair<Value, Value> storedSegment(OpBuilder &b, Location loc, Value lo,
                                        Value hi) {
    return level->storedSegment(b, loc, lo, hi);
  }

  /// The cursor: begin, position, end.
  Value begin, pos, end;

private:
  /// Whether the cursor is where assumeValid found it valid.
  bool knownValid() const { return validAt && validAt == pos; }
  /// The coordinate at position `at` (coordinateBelow the given segment's
  /// parent where there is one).
  Value coordinateOf(OpBuilder &b, Location loc, Value at);

  std::unique_ptr<LevelIterator> owned;
  LevelIterator *level;
  Value extent;
  LeafIterator *parent = nullptr;
  /// The parent's position of a given segment.
  Value givenParentPos;
  bool segmentGiven = false;
  /// The position assumeValid vouched for, and its coordinate (read there,
  /// so it dominates the loop body that may use it).
  Value validAt, coordinateAt;
};

/// The cursors of a set of leaves, threaded through the control flow a
/// loop over them builds.
class SequenceCursors {
public:
  explicit SequenceCursors(ArrayRef<LeafIterator *> leaves)
      : leaves(leaves.begin(), leaves.end()) {}
  SmallVector<Value> get() const;
  void set(ValueRange values);
  /// if (cond) then(); the cursors after it are the branch's.
  void emitIf(OpBuilder &b, Location loc, Value cond,
              llvm::function_ref<void(OpBuilder &, Location)> then);
  /// while (cond()) body(); the cursors after it are the loop's.
  void emitWhile(OpBuilder &b, Location loc,
                 llvm::function_ref<Value(OpBuilder &, Location)> cond,
                 llvm::function_ref<void(OpBuilder &, Location)> body);

  /// The same with values of the caller's carried along (outputs, a
  /// reduction's state): `cond` and `body` see them, `body` and the
  /// branches return their new values, and so does the construct. With
  /// `fewTrips`, the loop is known to run a few times (not unrolled).
  using CarriedBody =
      llvm::function_ref<SmallVector<Value>(OpBuilder &, Location, ValueRange)>;
  SmallVector<Value>
  emitWhile(OpBuilder &b, Location loc, ValueRange carried,
            llvm::function_ref<Value(OpBuilder &, Location, ValueRange)> cond,
            CarriedBody body, bool fewTrips = false);
  /// cond ? then() : otherwise(), each from the cursors before the branch.
  SmallVector<Value> emitIfElse(
      OpBuilder &b, Location loc, Value cond,
      llvm::function_ref<SmallVector<Value>(OpBuilder &, Location)> then,
      llvm::function_ref<SmallVector<Value>(OpBuilder &, Location)> otherwise);
  unsigned size() const { return 3 * leaves.size(); }

private:
  SmallVector<LeafIterator *> leaves;
};

} // namespace sparse_array
} // namespace mlir

#endif // SPARSEARRAY_CONVERSION_SEQUENCEITERATOR_H
