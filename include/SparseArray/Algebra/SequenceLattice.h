//===- SequenceLattice.h - Lattices over sequence expressions ---*- C++ -*-===//
//
// Top-down lattice construction (seed 001 §6.2, Fig. 12): a point is a
// sequence expression; for each of its edge sequences (Fig. 13) the point
// once that edge ran out is simplified (Fig. 27) and becomes a child,
// unless nothing is left (∅) or the dimension is done (F). Sub-points
// (§6.2.3) are the descendants reached without a concatenation moving to
// its second part. Seed 000's producer/omitter points are the same
// construction: a point produces iff its sequence holds the coordinates at
// which all of its edges match, and omitters above no producer are
// dropped. For expressions of ∪, ∩ and ¬ alone, `toLattice` gives
// Lattice::build's points (a randomized unit test compares the two).
//
//===----------------------------------------------------------------------===//

#ifndef SPARSEARRAY_ALGEBRA_SEQUENCELATTICE_H
#define SPARSEARRAY_ALGEBRA_SEQUENCELATTICE_H

#include "SparseArray/Algebra/Lattice.h"
#include "SparseArray/Algebra/SequenceExpr.h"

#include <optional>
#include <vector>

namespace mlir {
namespace sparse_array {

struct SequencePoint {
  explicit SequencePoint(SequenceExpr sequence)
      : sequence(std::move(sequence)) {}
  SequenceExpr sequence;
  /// What the loop of this point iterates; it runs while all are valid.
  llvm::SmallVector<SequenceExpr> edges;
  /// For edge k: the point the iteration moves to once it ran out, if any.
  llvm::SmallVector<std::optional<unsigned>> next;
  /// Where an edge moves a concatenation on to its second part (a disjoint
  /// point), the state in which the first part only misses the coordinate:
  /// a case of this point's loop, not a loop (seed 001 §6.2.3 counts only
  /// subsets as sub-points; union(a ⊔ b, d) at a coordinate a lacks is d's
  /// case, which no edge reaches).
  llvm::SmallVector<unsigned> cases;
  /// Points included in this one (itself first), in lattice order: the
  /// cases of its loop, tried in order.
  llvm::SmallVector<unsigned> subPoints;
  bool producer = true;
  /// Whether the point has a loop (the root's edges reach it); else it is
  /// only a case of the loops above it.
  bool loop = true;
};

class SequenceLattice {
public:
  static SequenceLattice build(const SequenceExpr &root);

  /// Topological order, root first: a point precedes every descendant.
  llvm::ArrayRef<SequencePoint> getPoints() const { return points; }
  bool empty() const { return points.empty(); }

  /// Whether the expression has no shape combinator, so that seed 000's
  /// operand-set lattice describes it.
  bool isAlgebraic() const;
  /// The seed-000 form: a point per sequence point, its sparse leaf edges
  /// as operands, U when the root needs the universe. Only for algebraic
  /// lattices.
  Lattice toLattice() const;

  /// One line per point: `[i] seq (+|-) edges: e -> j, ... subs: ...`.
  void print(llvm::raw_ostream &os) const;
  std::string str() const;

private:
  unsigned visit(const SequenceExpr &seq);
  void prune();

  std::vector<SequencePoint> points;
  /// Edges that keep their child a subset (not through a concatenation).
  llvm::SmallVector<llvm::SmallVector<bool>> subsetEdge;
};

} // namespace sparse_array
} // namespace mlir

#endif // SPARSEARRAY_ALGEBRA_SEQUENCELATTICE_H
