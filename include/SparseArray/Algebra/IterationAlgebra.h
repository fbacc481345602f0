//===- IterationAlgebra.h - Set expressions over operands -------*- C++ -*-===//
//
// Iteration algebra (seed 000 §5.1, thesis 003 §4.1): set expressions over
// the coordinate sets of operands, with union, intersection and complement,
// plus the universe U and the empty set. A leaf `k` stands for "the
// coordinates where operand k is defined" (stores an entry).
//
// This is a small value-semantic library with no MLIR dependency; the
// dialect stores algebras in `#sparse_array.algebra` through encode/decode.
//
//===----------------------------------------------------------------------===//

#ifndef SPARSEARRAY_ALGEBRA_ITERATIONALGEBRA_H
#define SPARSEARRAY_ALGEBRA_ITERATIONALGEBRA_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace mlir {
namespace sparse_array {

class IterationAlgebra {
public:
  enum class Kind : uint8_t { Empty, Universe, Leaf, Complement, Union, Intersection };

  /// The universe U (every coordinate of the dense space).
  static IterationAlgebra universe();
  static IterationAlgebra empty();
  static IterationAlgebra leaf(unsigned operand);
  static IterationAlgebra complement(IterationAlgebra operand);
  static IterationAlgebra unite(llvm::ArrayRef<IterationAlgebra> operands);
  static IterationAlgebra intersect(llvm::ArrayRef<IterationAlgebra> operands);

  Kind getKind() const { return node->kind; }
  bool isUniverse() const { return getKind() == Kind::Universe; }
  bool isEmpty() const { return getKind() == Kind::Empty; }
  bool isLeaf() const { return getKind() == Kind::Leaf; }
  /// Operand of a leaf.
  unsigned getLeaf() const;
  /// Children of a complement (one), union or intersection.
  llvm::ArrayRef<IterationAlgebra> getChildren() const {
    return node->children;
  }

  /// Structural equality.
  bool operator==(const IterationAlgebra &other) const;
  bool operator!=(const IterationAlgebra &other) const {
    return !(*this == other);
  }

  /// Whether a coordinate belongs to the set, given which operands are
  /// defined there (bit k = operand k defined).
  bool contains(llvm::ArrayRef<bool> defined) const;

  /// Whether the set lies within the union of its operands' stored
  /// entries (no universe, no complement that escapes an intersection).
  /// Meaningful on the normal form.
  bool withinStoredEntries() const;

  /// The operands mentioned, sorted and unique.
  llvm::SmallVector<unsigned> getLeaves() const;

  /// Replaces every leaf k by `replacement(k)`.
  IterationAlgebra
  substitute(llvm::function_ref<IterationAlgebra(unsigned)> replacement) const;

  /// De Morgan normal form (seed 000 §6.3, thesis §4.2.3): complements only
  /// on leaves, nested unions/intersections flattened, U and the empty set
  /// folded, duplicate children removed, x ∪ ¬x = U, x ∩ ¬x = ∅, and
  /// absorption (x ∪ (x ∩ y) = x, x ∩ (x ∪ y) = x). The result denotes the
  /// same set (`contains` agrees everywhere).
  IterationAlgebra normalize() const;

  /// Prints `union(0, intersect(1, complement(2)))`, `universe`, `empty`;
  /// `leafName` spells leaves (default: the operand number).
  void print(llvm::raw_ostream &os,
             llvm::function_ref<void(llvm::raw_ostream &, unsigned)> leafName =
                 nullptr) const;
  std::string str() const;

  /// Serialization used by the attribute: prefix order, one word per node
  /// (kind in the low 3 bits, leaf operand or child count above).
  std::vector<uint32_t> encode() const;
  static std::optional<IterationAlgebra> decode(llvm::ArrayRef<uint32_t> code);

private:
  struct Node {
    Kind kind;
    unsigned leaf = 0;
    std::vector<IterationAlgebra> children;
  };
  explicit IterationAlgebra(std::shared_ptr<const Node> node)
      : node(std::move(node)) {}
  static IterationAlgebra make(Kind kind, unsigned leaf,
                               std::vector<IterationAlgebra> children);

  std::shared_ptr<const Node> node;
};

inline llvm::raw_ostream &operator<<(llvm::raw_ostream &os,
                                     const IterationAlgebra &algebra) {
  algebra.print(os);
  return os;
}

} // namespace sparse_array
} // namespace mlir

#endif // SPARSEARRAY_ALGEBRA_ITERATIONALGEBRA_H
