//===- IterationAlgebra.cpp - Set expressions over operands ---------------===//

#include "SparseArray/Algebra/IterationAlgebra.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/ErrorHandling.h"

#include <algorithm>
#include <cassert>
#include <functional>

using namespace mlir::sparse_array;
using llvm::ArrayRef;

using Kind = IterationAlgebra::Kind;

IterationAlgebra IterationAlgebra::make(Kind kind, unsigned leaf,
                                        std::vector<IterationAlgebra> children) {
  auto node = std::make_shared<Node>();
  node->kind = kind;
  node->leaf = leaf;
  node->children = std::move(children);
  return IterationAlgebra(std::move(node));
}

IterationAlgebra IterationAlgebra::universe() {
  static const IterationAlgebra u = make(Kind::Universe, 0, {});
  return u;
}
IterationAlgebra IterationAlgebra::empty() {
  static const IterationAlgebra e = make(Kind::Empty, 0, {});
  return e;
}
IterationAlgebra IterationAlgebra::leaf(unsigned operand) {
  return make(Kind::Leaf, operand, {});
}
IterationAlgebra IterationAlgebra::complement(IterationAlgebra operand) {
  return make(Kind::Complement, 0, {std::move(operand)});
}
IterationAlgebra IterationAlgebra::unite(ArrayRef<IterationAlgebra> operands) {
  return make(Kind::Union, 0, operands.vec());
}
IterationAlgebra
IterationAlgebra::intersect(ArrayRef<IterationAlgebra> operands) {
  return make(Kind::Intersection, 0, operands.vec());
}

unsigned IterationAlgebra::getLeaf() const {
  assert(isLeaf() && "not a leaf");
  return node->leaf;
}

bool IterationAlgebra::operator==(const IterationAlgebra &other) const {
  if (node == other.node)
    return true;
  if (getKind() != other.getKind() || node->leaf != other.node->leaf ||
      getChildren().size() != other.getChildren().size())
    return false;
  return llvm::equal(getChildren(), other.getChildren());
}

bool IterationAlgebra::contains(ArrayRef<bool> defined) const {
  switch (getKind()) {
  case Kind::Empty:
    return false;
  case Kind::Universe:
    return true;
  case Kind::Leaf:
    return node->leaf < defined.size() && defined[node->leaf];
  case Kind::Complement:
    return !getChildren()[0].contains(defined);
  case Kind::Union:
    return llvm::any_of(getChildren(), [&](const IterationAlgebra &child) {
      return child.contains(defined);
    });
  case Kind::Intersection:
    return llvm::all_of(getChildren(), [&](const IterationAlgebra &child) {
      return child.contains(defined);
    });
  }
  return false;
}

static void collectLeaves(const IterationAlgebra &algebra,
                          llvm::SmallVectorImpl<unsigned> &leaves) {
  if (algebra.isLeaf()) {
    leaves.push_back(algebra.getLeaf());
    return;
  }
  for (const IterationAlgebra &child : algebra.getChildren())
    collectLeaves(child, leaves);
}

llvm::SmallVector<unsigned> IterationAlgebra::getLeaves() const {
  llvm::SmallVector<unsigned> leaves;
  collectLeaves(*this, leaves);
  llvm::sort(leaves);
  leaves.erase(std::unique(leaves.begin(), leaves.end()), leaves.end());
  return leaves;
}

IterationAlgebra IterationAlgebra::substitute(
    llvm::function_ref<IterationAlgebra(unsigned)> replacement) const {
  switch (getKind()) {
  case Kind::Empty:
  case Kind::Universe:
    return *this;
  case Kind::Leaf:
    return replacement(node->leaf);
  default: {
    std::vector<IterationAlgebra> children;
    for (const IterationAlgebra &child : getChildren())
      children.push_back(child.substitute(replacement));
    return make(getKind(), 0, std::move(children));
  }
  }
}

//===----------------------------------------------------------------------===//
// Normalization
//===----------------------------------------------------------------------===//

/// Pushes complements down to the leaves (De Morgan); `negated` says whether
/// an odd number of complements is pending.
static IterationAlgebra pushComplements(const IterationAlgebra &algebra,
                                        bool negated) {
  switch (algebra.getKind()) {
  case Kind::Empty:
    return negated ? IterationAlgebra::universe() : algebra;
  case Kind::Universe:
    return negated ? IterationAlgebra::empty() : algebra;
  case Kind::Leaf:
    return negated ? IterationAlgebra::complement(algebra) : algebra;
  case Kind::Complement:
    return pushComplements(algebra.getChildren()[0], !negated);
  case Kind::Union:
  case Kind::Intersection: {
    std::vector<IterationAlgebra> children;
    for (const IterationAlgebra &child : algebra.getChildren())
      children.push_back(pushComplements(child, negated));
    bool isUnion = (algebra.getKind() == Kind::Union) != negated;
    return isUnion ? IterationAlgebra::unite(children)
                   : IterationAlgebra::intersect(children);
  }
  }
  return algebra;
}

/// Whether `a` is the complement of `b` (both in normal form).
static bool areComplementary(const IterationAlgebra &a,
                             const IterationAlgebra &b) {
  return (a.getKind() == Kind::Complement && a.getChildren()[0] == b) ||
         (b.getKind() == Kind::Complement && b.getChildren()[0] == a);
}

/// The terms of `child` seen as a conjunction (for a union) or disjunction
/// (for an intersection): its children if it is of the inner kind, else
/// itself.
static std::vector<IterationAlgebra> innerTerms(const IterationAlgebra &child,
                                                Kind inner) {
  if (child.getKind() == inner)
    return child.getChildren().vec();
  return {child};
}

static bool isSubset(const std::vector<IterationAlgebra> &small,
                     const std::vector<IterationAlgebra> &large) {
  return llvm::all_of(small, [&](const IterationAlgebra &term) {
    return llvm::is_contained(large, term);
  });
}

/// Simplifies an algebra whose complements are on leaves only.
static IterationAlgebra simplify(const IterationAlgebra &algebra) {
  Kind kind = algebra.getKind();
  if (kind != Kind::Union && kind != Kind::Intersection)
    return algebra;
  bool isUnion = kind == Kind::Union;
  // The element that absorbs everything (U for union) and the neutral one.
  Kind absorbing = isUnion ? Kind::Universe : Kind::Empty;
  Kind neutral = isUnion ? Kind::Empty : Kind::Universe;
  Kind inner = isUnion ? Kind::Intersection : Kind::Union;

  std::vector<IterationAlgebra> flat;
  std::function<void(const IterationAlgebra &)> add =
      [&](const IterationAlgebra &child) {
        IterationAlgebra simple = simplify(child);
        if (simple.getKind() == kind) {
          for (const IterationAlgebra &grandChild : simple.getChildren())
            add(grandChild);
          return;
        }
        flat.push_back(simple);
      };
  for (const IterationAlgebra &child : algebra.getChildren())
    add(child);

  std::vector<IterationAlgebra> children;
  for (const IterationAlgebra &child : flat) {
    if (child.getKind() == absorbing)
      return child;
    if (child.getKind() == neutral || llvm::is_contained(children, child))
      continue;
    children.push_back(child);
  }
  // x ∪ ¬x = U and x ∩ ¬x = ∅.
  for (size_t i = 0; i < children.size(); ++i)
    for (size_t j = i + 1; j < children.size(); ++j)
      if (areComplementary(children[i], children[j]))
        return isUnion ? IterationAlgebra::universe()
                       : IterationAlgebra::empty();
  // Absorption: drop a child whose inner terms include all inner terms of
  // another child, e.g. x ∪ (x ∩ y) = x.
  std::vector<IterationAlgebra> kept;
  for (size_t i = 0; i < children.size(); ++i) {
    std::vector<IterationAlgebra> terms = innerTerms(children[i], inner);
    bool absorbed = false;
    for (size_t j = 0; j < children.size() && !absorbed; ++j)
      absorbed = j != i && isSubset(innerTerms(children[j], inner), terms) &&
                 // Of two children with equal terms keep the first.
                 (innerTerms(children[j], inner).size() < terms.size() || j < i);
    if (!absorbed)
      kept.push_back(children[i]);
  }
  if (kept.empty())
    return isUnion ? IterationAlgebra::empty() : IterationAlgebra::universe();
  if (kept.size() == 1)
    return kept.front();
  return isUnion ? IterationAlgebra::unite(kept)
                 : IterationAlgebra::intersect(kept);
}

IterationAlgebra IterationAlgebra::normalize() const {
  return simplify(pushComplements(*this, /*negated=*/false));
}

//===----------------------------------------------------------------------===//
// Printing and serialization
//===----------------------------------------------------------------------===//

void IterationAlgebra::print(
    llvm::raw_ostream &os,
    llvm::function_ref<void(llvm::raw_ostream &, unsigned)> leafName) const {
  switch (getKind()) {
  case Kind::Empty:
    os << "empty";
    return;
  case Kind::Universe:
    os << "universe";
    return;
  case Kind::Leaf:
    if (leafName)
      leafName(os, node->leaf);
    else
      os << node->leaf;
    return;
  case Kind::Complement:
    os << "complement(";
    break;
  case Kind::Union:
    os << "union(";
    break;
  case Kind::Intersection:
    os << "intersect(";
    break;
  }
  llvm::interleaveComma(getChildren(), os, [&](const IterationAlgebra &child) {
    child.print(os, leafName);
  });
  os << ")";
}

std::string IterationAlgebra::str() const {
  std::string text;
  llvm::raw_string_ostream os(text);
  print(os);
  return text;
}

static constexpr unsigned kKindBits = 3;

static void encodeInto(const IterationAlgebra &algebra,
                       std::vector<uint32_t> &code) {
  uint32_t payload = algebra.isLeaf() ? algebra.getLeaf()
                                      : algebra.getChildren().size();
  code.push_back(static_cast<uint32_t>(algebra.getKind()) |
                 (payload << kKindBits));
  for (const IterationAlgebra &child : algebra.getChildren())
    encodeInto(child, code);
}

std::vector<uint32_t> IterationAlgebra::encode() const {
  std::vector<uint32_t> code;
  encodeInto(*this, code);
  return code;
}

static std::optional<IterationAlgebra> decodeFrom(ArrayRef<uint32_t> code,
                                                  size_t &pos) {
  if (pos >= code.size())
    return std::nullopt;
  uint32_t word = code[pos++];
  uint32_t payload = word >> kKindBits;
  switch (static_cast<Kind>(word & ((1u << kKindBits) - 1))) {
  case Kind::Empty:
    return IterationAlgebra::empty();
  case Kind::Universe:
    return IterationAlgebra::universe();
  case Kind::Leaf:
    return IterationAlgebra::leaf(payload);
  case Kind::Complement: {
    if (payload != 1)
      return std::nullopt;
    std::optional<IterationAlgebra> child = decodeFrom(code, pos);
    if (!child)
      return std::nullopt;
    return IterationAlgebra::complement(*child);
  }
  case Kind::Union:
  case Kind::Intersection: {
    std::vector<IterationAlgebra> children;
    for (uint32_t i = 0; i < payload; ++i) {
      std::optional<IterationAlgebra> child = decodeFrom(code, pos);
      if (!child)
        return std::nullopt;
      children.push_back(*child);
    }
    bool isUnion = static_cast<Kind>(word & 7u) == Kind::Union;
    return isUnion ? IterationAlgebra::unite(children)
                   : IterationAlgebra::intersect(children);
  }
  }
  return std::nullopt;
}

std::optional<IterationAlgebra>
IterationAlgebra::decode(ArrayRef<uint32_t> code) {
  size_t pos = 0;
  std::optional<IterationAlgebra> result = decodeFrom(code, pos);
  if (!result || pos != code.size())
    return std::nullopt;
  return result;
}

bool IterationAlgebra::withinStoredEntries() const {
  switch (getKind()) {
  case Kind::Empty:
  case Kind::Leaf:
    return true;
  case Kind::Universe:
  case Kind::Complement:
    return false;
  case Kind::Union:
    return llvm::all_of(getChildren(), [](const IterationAlgebra &c) {
      return c.withinStoredEntries();
    });
  case Kind::Intersection:
    return llvm::any_of(getChildren(), [](const IterationAlgebra &c) {
      return c.withinStoredEntries();
    });
  }
  llvm_unreachable("unknown algebra kind");
}
