//===- Lattice.h - Generalized iteration lattices ---------------*- C++ -*-===//
//
// Iteration lattices with producer and omitter points (seed 000 §6, Alg. 1
// and appendix Alg. 2; thesis 003 §4.2). A point is a set of operands that
// are coiterated together, optionally with U, the dense iteration over the
// whole dimension. Producer points compute; omitter points must not, but
// are kept when they dominate producers so that the generated loops know to
// skip the region explicitly.
//
// Code generation (lib/Conversion/Loops/KernelCodegen.cpp) builds one
// lattice per loop and statement: one while-loop per point (root first), and
// in it one case per sub-point, tried from the largest.
//
//===----------------------------------------------------------------------===//

#ifndef SPARSEARRAY_ALGEBRA_LATTICE_H
#define SPARSEARRAY_ALGEBRA_LATTICE_H

#include "SparseArray/Algebra/IterationAlgebra.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/Hashing.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdint>
#include <string>

namespace mlir {
namespace sparse_array {

/// Operand sets are bit masks: kernels have at most this many inputs.
constexpr unsigned kMaxLatticeOperands = 63;

struct LatticePoint {
  /// Bit k: operand k is coiterated (and present) at this point.
  uint64_t operands = 0;
  /// Whether the point contains U (every coordinate of the dimension).
  bool universe = false;
  bool producer = true;

  bool hasOperand(unsigned k) const { return operands >> k & 1; }
  unsigned size() const;
  /// Set inclusion, U included.
  bool isSubsetOf(const LatticePoint &other) const {
    return (operands & ~other.operands) == 0 && (!universe || other.universe);
  }
  bool sameSet(const LatticePoint &other) const {
    return operands == other.operands && universe == other.universe;
  }
  llvm::SmallVector<unsigned> getOperands() const;
};

inline bool operator==(const LatticePoint &a, const LatticePoint &b) {
  return a.operands == b.operands && a.universe == b.universe &&
         a.producer == b.producer;
}
inline llvm::hash_code hash_value(const LatticePoint &p) {
  return llvm::hash_combine(p.operands, p.universe, p.producer);
}

class Lattice {
public:
  /// Seed 000 appendix Alg. 2: De Morgan normalization, augmentation
  /// (A ∪ (t ∩ ¬t) for every operand in `operands` the algebra does not
  /// mention, so that it is still coiterated and its value known), the
  /// segment/complement/intersection/union rules with a filtered Cartesian
  /// product (repeated operands) and the producer/omitter precedences, then
  /// pruning of omitters that dominate no producer. Leaves not in
  /// `operands` must have been eliminated by the caller.
  static Lattice build(const IterationAlgebra &algebra,
                       llvm::ArrayRef<unsigned> operands);

  /// Whether the loops generated from this lattice (one per point, in
  /// order, each running while its operands last, cases chosen with
  /// selectCase) compute exactly at the coordinates `algebra` contains,
  /// whichever operands run out first, and each with the values of every
  /// operand its loop coiterates that is stored there (a case computes
  /// with the fills of the operands it lacks). Checked over every
  /// combination of stored operands.
  bool isExactFor(const IterationAlgebra &algebra) const;

  /// The lattice whose points are every operand set that can hold a
  /// computed coordinate, a producer iff the algebra contains it. Exact by
  /// construction; `build`'s last resort when neither the seed's
  /// construction (repeated operands under both union and intersection,
  /// where the filtered product of Alg. 2 drops overlapping pairs) nor the
  /// top-down one is exact.
  static Lattice buildComplete(const IterationAlgebra &algebra,
                               llvm::ArrayRef<unsigned> operands);

  /// A lattice with the given points (root first, as `getPoints` returns
  /// them), e.g. read back from a `#sparse_array.lattice` attribute.
  static Lattice fromPoints(llvm::ArrayRef<LatticePoint> points);
  /// A lattice with the given points (distinct sets) put in lattice order.
  static Lattice fromUnorderedPoints(llvm::ArrayRef<LatticePoint> points);

  /// Whether `build` had to fall back from Alg. 2 (to the top-down
  /// construction of SequenceLattice.h, or to buildComplete).
  bool isFallback() const { return fallback; }

  /// The points, root (largest) first, in decreasing size.
  llvm::ArrayRef<LatticePoint> getPoints() const { return points; }
  bool empty() const { return points.empty(); }

  /// Whether some producer is U alone: only then do coordinates that no
  /// operand stores need visiting.
  bool needsUniverse() const;
  /// Removes U from every point when it is not needed: a case then depends
  /// only on which operands match, so U adds iterations and no cases
  /// (Burrito's simplification of full sequences, seed 001 §6).
  void dropUnneededUniverse();

  /// Indices of the points included in point `p` (itself first), in order.
  llvm::SmallVector<unsigned> getSubPoints(unsigned p) const;

  /// The case a coordinate takes inside the loop of point `p` when exactly
  /// the operands in `matched` are there: the first (largest) sub-point of
  /// `p` included in the matched set, or -1 (nothing to do).
  int selectCase(unsigned p, uint64_t matched) const;

  /// `{0, 1}+ {0}+ {1}+` style: `+` producer, `-` omitter, `U` universe.
  void print(llvm::raw_ostream &os,
             llvm::function_ref<void(llvm::raw_ostream &, unsigned)> leafName =
                 nullptr) const;
  std::string str() const;

private:
  /// Alg. 2 proper.
  static Lattice buildSeed(const IterationAlgebra &algebra,
                           llvm::ArrayRef<unsigned> operands);
  static Lattice buildNormalized(const IterationAlgebra &algebra);
  static Lattice combine(const Lattice &left, const Lattice &right,
                         bool isUnion);
  void removeDuplicates(bool producerPrecedence);
  void sortPoints();
  void prune();
  /// The largest point (what the paper calls the root).
  LatticePoint root() const;

  llvm::SmallVector<LatticePoint> points;
  bool fallback = false;
};

/// The coordinates that may belong to `algebra` whatever operand `k` is:
/// A[k := U] ∪ A[k := ∅]. Used for operands a loop does not coiterate
/// (dense or broadcast ones): their presence is decided later, so the loop
/// must cover both possibilities.
IterationAlgebra eliminateOperand(const IterationAlgebra &algebra, unsigned k);

/// A with operand k replaced by the empty set (k stores nothing here).
IterationAlgebra removeOperand(const IterationAlgebra &algebra, unsigned k);

} // namespace sparse_array
} // namespace mlir

#endif // SPARSEARRAY_ALGEBRA_LATTICE_H
