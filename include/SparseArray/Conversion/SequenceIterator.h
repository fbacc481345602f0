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
  static std::unique_ptr<SequenceIterator>
  fromExpr(const SequenceExpr &expr,
           llvm::function_ref<LeafIterator *(const SequenceExpr &)> leafOf,
           SequenceCursors &cursors, std::string &error,
           bool latticeMode = true);
};

/// One level of one array: the cursor [begin, end) / pos of its
/// LevelIterator, under the current position of its parent level (another
/// leaf of the same array) or the root.
class LeafIterator : public SequenceIterator {
public:
  LeafIterator(std::unique_ptr<LevelIterator> level, Value extent,
               LeafIterator *parent)
      : level(std::move(level)), extent(extent), parent(parent) {}

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

  /// The cursor: begin, position, end.
  Value begin, pos, end;

private:
  std::unique_ptr<LevelIterator> level;
  Value extent;
  LeafIterator *parent;
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

private:
  SmallVector<LeafIterator *> leaves;
};

} // namespace sparse_array
} // namespace mlir

#endif // SPARSEARRAY_CONVERSION_SEQUENCEITERATOR_H
