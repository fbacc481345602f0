//===- SequenceExpr.h - Sequence expressions over levels --------*- C++ -*-===//
//
// The planner's language for what one loop iterates (seed 001 §5.1): leaves
// are the coordinates of one input's level (sparse, or dense: every
// coordinate of its extent) or the dense universe U of the dimension;
// operators are seed 000's union, intersection and complement (whose
// omitter points stay) and seed 001's shape combinators — product a × b
// (a·|b| + b), concatenation a ⊔ b, offset |a| + b (what a concatenation
// becomes once a ran out), projections π₀(a, J) = a / J and π₁(a, J) =
// a mod J, and the strided slice a[s:e:r].
//
// Two sentinels drive lattice construction (seed 001 §6.2.2, App. A
// Fig. 27): ∅ (sparse-and-empty: a sparse sequence ran out, others may go
// on) and F (dense-and-empty: a dense sequence ran out, so the whole
// dimension has been iterated). Both remember the sequence they replaced
// (`getShape`), whose logical size the enclosing combinators still need.
//
// Value-semantic, no MLIR dependency, like IterationAlgebra.
//
//===----------------------------------------------------------------------===//

#ifndef SPARSEARRAY_ALGEBRA_SEQUENCEEXPR_H
#define SPARSEARRAY_ALGEBRA_SEQUENCEEXPR_H

#include "SparseArray/Algebra/IterationAlgebra.h"

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

/// The number of coordinates lo, lo + step, ... before hi (exclusive), for
/// either sign of step (a negative step counts down: Python's slice).
inline int64_t sliceLength(int64_t lo, int64_t hi, int64_t step) {
  if (step > 0)
    return hi > lo ? (hi - lo + step - 1) / step : 0;
  return lo > hi ? (lo - hi - step - 1) / -step : 0;
}

class SequenceExpr {
public:
  enum class Kind : uint8_t {
    Empty,    // ∅: sparse-and-empty
    Full,     // F: dense-and-empty (the dimension is done)
    Universe, // U: every coordinate of the dimension
    Leaf,     // one input's level
    Complement,
    Union,
    Intersection,
    Product, // a × b
    Concat,  // a ⊔ b
    Offset,  // |a| + b: b shifted by the size of a (a is shape only)
    Project, // π_k(a, J)
    Slice,   // a[s:e:r]
  };
  /// A size or slice bound that is only known at run time.
  static constexpr int64_t kDynamic = INT64_MIN;

  static SequenceExpr empty();
  static SequenceExpr full();
  /// ∅ and F standing for `shape`, which ran out.
  static SequenceExpr empty(const SequenceExpr &shape);
  static SequenceExpr full(const SequenceExpr &shape);
  static SequenceExpr universe(int64_t size = kDynamic);
  /// The level of input `operand`; `dense` when it stores every coordinate
  /// of its extent (it is then located, and its running out is F).
  static SequenceExpr leaf(unsigned operand, bool dense = false,
                           int64_t size = kDynamic);
  /// Level `level` (in storage order) of input `operand`: a product of
  /// two levels of one array (a collapse) iterates both in one loop.
  static SequenceExpr leafLevel(unsigned operand, unsigned level, bool dense,
                                int64_t size = kDynamic);
  static SequenceExpr complement(SequenceExpr operand);
  static SequenceExpr unite(llvm::ArrayRef<SequenceExpr> operands);
  static SequenceExpr intersect(llvm::ArrayRef<SequenceExpr> operands);
  static SequenceExpr product(SequenceExpr outer, SequenceExpr inner);
  static SequenceExpr concat(SequenceExpr first, SequenceExpr second);
  /// |shift| + operand; `shift` contributes only its size.
  static SequenceExpr offset(SequenceExpr shift, SequenceExpr operand);
  /// π_index(operand, inner) for index 0 (a / inner) or 1 (a mod inner).
  static SequenceExpr project(SequenceExpr operand, unsigned index,
                              int64_t inner);
  /// operand[start:stop:step]: coordinates start + step * x before stop;
  /// a negative step counts down (a reversal; its iterator reads the
  /// operand's level backwards, makeReflectedIterator).
  static SequenceExpr slice(SequenceExpr operand, int64_t start, int64_t stop,
                            int64_t step);

  /// The seed-000 iteration space of `algebra` as a sequence expression
  /// (leaves sparse), with every operand of `coiterated` that the algebra
  /// does not mention added as t ∩ ¬t: empty, yet iterated so that its
  /// value is known (seed 000 §6.3 augmentation). The algebra is put in
  /// De Morgan form first.
  static SequenceExpr fromAlgebra(const IterationAlgebra &algebra,
                                  llvm::ArrayRef<unsigned> coiterated = {});

  Kind getKind() const { return node->kind; }
  bool is(Kind kind) const { return getKind() == kind; }
  /// ∅ or F: nothing left to iterate.
  bool isExhausted() const { return is(Kind::Empty) || is(Kind::Full); }
  unsigned getOperand() const;
  unsigned getLevel() const { return node->level; }
  bool isDenseLeaf() const { return is(Kind::Leaf) && node->dense; }
  llvm::ArrayRef<SequenceExpr> getChildren() const { return node->children; }
  /// For ∅ and F: the sequence they replaced; for offsets: the shift; for
  /// concatenations: the first part as written (its size is the offset).
  const SequenceExpr *getShape() const { return node->shape.get(); }
  /// Projection index, slice start/stop/step.
  unsigned getProjectIndex() const { return unsigned(node->params[0]); }
  int64_t getProjectInner() const { return node->params[1]; }
  int64_t getSliceStart() const { return node->params[0]; }
  int64_t getSliceStop() const { return node->params[1]; }
  int64_t getSliceStep() const { return node->params[2]; }

  /// The logical size of the dimension the sequence ranges over (seed 001
  /// §4.2's |a|), kDynamic when not known statically.
  int64_t size() const;
  /// Whether the sequence holds every coordinate of its size, so that it
  /// can be located into rather than iterated (seed 001 §6.1.3) and its
  /// running out means the dimension is done.
  bool isDense() const;
  /// Whether the sequence needs U to enumerate its coordinates (it holds
  /// coordinates that no level stores, e.g. under a complement).
  bool needsUniverse() const;

  /// Seed 001 §6.2.1, Fig. 13: the sub-sequences whose running out changes
  /// the state of a loop over this sequence (levels, slices, projections;
  /// only the outer side of products and concatenations), unique, in
  /// first-seen order.
  llvm::SmallVector<SequenceExpr, 4> edges() const;

  /// This sequence once `edge` ran out: `edge` becomes F if it is dense,
  /// else ∅, then Fig. 27's rules simplify bottom-up. `disjoint` is set
  /// when a concatenation moved on to its second part (the result is no
  /// subset of this sequence: seed 001 §6.2.3).
  SequenceExpr remove(const SequenceExpr &edge, bool *disjoint = nullptr) const;
  /// A node's result after a removal (given the node and its parent, null
  /// at the top; asked before the node is compared with the edge), or
  /// std::nullopt to simplify its children's results by Fig. 27 as
  /// `remove` does.
  using RemoveHook = llvm::function_ref<std::optional<SequenceExpr>(
      const SequenceExpr &, const SequenceExpr *)>;
  /// `remove` where `hook` may give the result for a node (before its
  /// children are visited): the lattice keeps values of operands a union
  /// dropped inside shape combinators this way.
  SequenceExpr remove(const SequenceExpr &edge, bool *disjoint,
                      RemoveHook hook) const;

  /// Whether a coordinate at which exactly the edges in `present` match
  /// (compared structurally) belongs to the sequence. Seed 000's producer
  /// test, through the combinators: inside a loop a product, slice or
  /// projection holds the coordinate iff its operand does.
  bool contains(llvm::function_ref<bool(const SequenceExpr &)> present) const;

  /// The input operands of the leaves (sparse and dense), sorted, unique.
  llvm::SmallVector<unsigned> getOperands() const;

  /// This expression with every leaf replaced by `f(leaf)` (e.g. a leaf by
  /// the slice of it a loop reads), the combinators around kept.
  SequenceExpr mapLeaves(
      llvm::function_ref<SequenceExpr(const SequenceExpr &)> f) const;

  bool operator==(const SequenceExpr &other) const;
  bool operator!=(const SequenceExpr &other) const { return !(*this == other); }

  /// `union(s0, d1)`, `product(s0, s1)`, `slice(s0, 1, 9, 2)`, `offset(|s0|,
  /// s1)`, `project1(s0, 4)`, `not(s0)`, `intersect(...)`, `concat(...)`,
  /// `empty`, `full`, `universe`: leaves are `s<k>` (sparse) or `d<k>`
  /// (dense), `s<k>.<level>` below the outermost level; `?` is a dynamic
  /// bound.
  void print(llvm::raw_ostream &os) const;
  std::string str() const;
  /// Reads what print writes (offsets, ∅ and F without their shapes).
  /// std::nullopt on malformed text.
  static std::optional<SequenceExpr> parse(llvm::StringRef text);

private:
  struct Node {
    explicit Node(Kind kind) : kind(kind) {}
    Kind kind;
    unsigned operand = 0;
    unsigned level = 0;
    bool dense = false;
    int64_t size = kDynamic;
    int64_t params[3] = {0, 0, 0};
    std::vector<SequenceExpr> children;
    /// ∅/F: what they replaced; Offset: the shift; Concat: the first part.
    std::shared_ptr<const SequenceExpr> shape;
  };
  explicit SequenceExpr(std::shared_ptr<const Node> node)
      : node(std::move(node)) {}
  static SequenceExpr make(Node node);
  SequenceExpr removeImpl(const SequenceExpr &edge, bool &disjoint,
                          RemoveHook hook, const SequenceExpr *parent) const;

  std::shared_ptr<const Node> node;
};

inline llvm::raw_ostream &operator<<(llvm::raw_ostream &os,
                                     const SequenceExpr &seq) {
  seq.print(os);
  return os;
}

} // namespace sparse_array
} // namespace mlir

#endif // SPARSEARRAY_ALGEBRA_SEQUENCEEXPR_H
