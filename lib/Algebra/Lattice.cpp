//===- Lattice.cpp - Generalized iteration lattices -----------------------===//
//
// seed 000 §6.3, Alg. 1 and appendix Alg. 2.
//
//===----------------------------------------------------------------------===//

#include "SparseArray/Algebra/Lattice.h"
#include "SparseArray/Algebra/SequenceLattice.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/bit.h"
#include "llvm/Support/ErrorHandling.h"

#include <algorithm>

using namespace mlir::sparse_array;
using llvm::SmallVector;

unsigned LatticePoint::size() const {
  return llvm::popcount(operands) + (universe ? 1 : 0);
}

SmallVector<unsigned> LatticePoint::getOperands() const {
  SmallVector<unsigned> result;
  for (unsigned k = 0; k < 64; ++k)
    if (hasOperand(k))
      result.push_back(k);
  return result;
}

LatticePoint Lattice::root() const {
  LatticePoint r;
  r.producer = false;
  for (const LatticePoint &p : points) {
    r.operands |= p.operands;
    r.universe |= p.universe;
  }
  return r;
}

void Lattice::sortPoints() {
  // Larger first; equal sizes in a fixed order (lowest operands first)
  // so that the generated code does not depend on construction order.
  llvm::sort(points, [](const LatticePoint &a, const LatticePoint &b) {
    if (a.size() != b.size())
      return a.size() > b.size();
    if (a.operands != b.operands)
      return a.operands < b.operands;
    return a.universe > b.universe;
  });
}

// Seed 000 §6.3: duplicates from the Cartesian product keep the producer
// in a union and the omitter in an intersection.
void Lattice::removeDuplicates(bool producerPrecedence) {
  SmallVector<LatticePoint> unique;
  for (const LatticePoint &p : points) {
    auto *it = llvm::find_if(
        unique, [&](const LatticePoint &q) { return q.sameSet(p); });
    if (it == unique.end()) {
      unique.push_back(p);
      continue;
    }
    it->producer = producerPrecedence ? (it->producer || p.producer)
                                      : (it->producer && p.producer);
  }
  points = std::move(unique);
}

// Omitters that dominate no producer are the same as missing points.
void Lattice::prune() {
  SmallVector<LatticePoint> kept;
  for (const LatticePoint &p : points) {
    if (!p.producer &&
        llvm::none_of(points, [&](const LatticePoint &q) {
          return q.producer && !q.sameSet(p) && q.isSubsetOf(p);
        }))
      continue;
    kept.push_back(p);
  }
  points = std::move(kept);
}

// Appendix Alg. 2: a pair overlaps unless one side's point lacks an operand
// that the other side's point has and that the first side's root (its whole
// lattice) iterates: the first point then lies where that operand ran out.
Lattice Lattice::combine(const Lattice &left, const Lattice &right,
                         bool isUnion) {
  LatticePoint leftRoot = left.root(), rightRoot = right.root();
  Lattice result;
  for (const LatticePoint &l : left.points) {
    for (const LatticePoint &r : right.points) {
      uint64_t missingInRight = l.operands & rightRoot.operands & ~r.operands;
      uint64_t missingInLeft = r.operands & leftRoot.operands & ~l.operands;
      if (missingInRight || missingInLeft)
        continue;
      LatticePoint merged;
      merged.operands = l.operands | r.operands;
      merged.universe = l.universe || r.universe;
      merged.producer =
          isUnion ? (l.producer || r.producer) : (l.producer && r.producer);
      result.points.push_back(merged);
    }
  }
  if (isUnion) {
    result.points.append(left.points.begin(), left.points.end());
    result.points.append(right.points.begin(), right.points.end());
  }
  result.removeDuplicates(/*producerPrecedence=*/isUnion);
  result.sortPoints();
  return result;
}

Lattice Lattice::buildNormalized(const IterationAlgebra &algebra) {
  using Kind = IterationAlgebra::Kind;
  Lattice result;
  switch (algebra.getKind()) {
  case Kind::Empty:
    return result;
  case Kind::Universe:
    result.points.push_back({0, /*universe=*/true, /*producer=*/true});
    return result;
  case Kind::Leaf: // Segment rule.
    result.points.push_back({uint64_t(1) << algebra.getLeaf(), false, true});
    return result;
  case Kind::Complement: { // Complement rule.
    const IterationAlgebra &child = algebra.getChildren()[0];
    if (!child.isLeaf())
      llvm::report_fatal_error("lattice of an algebra not in De Morgan form");
    result.points.push_back({uint64_t(1) << child.getLeaf(), true, false});
    result.points.push_back({0, true, true});
    return result;
  }
  case Kind::Union:
  case Kind::Intersection: {
    bool isUnion = algebra.getKind() == Kind::Union;
    llvm::ArrayRef<IterationAlgebra> children = algebra.getChildren();
    result = buildNormalized(children.front());
    for (const IterationAlgebra &child : children.drop_front())
      result = combine(result, buildNormalized(child), isUnion);
    return result;
  }
  }
  llvm_unreachable("unknown algebra kind");
}

Lattice Lattice::build(const IterationAlgebra &algebra,
                       llvm::ArrayRef<unsigned> operands) {
  Lattice seed = buildSeed(algebra, operands);
  if (seed.isExactFor(algebra))
    return seed;
  // Seed 001's top-down construction keeps every case a repeated operand
  // needs (it agrees with the seed's wherever that one is exact).
  Lattice topDown =
      SequenceLattice::build(SequenceExpr::fromAlgebra(algebra, operands))
          .toLattice();
  topDown.fallback = true;
  if (topDown.isExactFor(algebra))
    return topDown;
  Lattice complete = buildComplete(algebra, operands);
  complete.fallback = true;
  return complete;
}

/// Membership of the coordinates where exactly `stored` is stored.
static bool containsSet(const IterationAlgebra &algebra, uint64_t stored) {
  SmallVector<bool> defined(kMaxLatticeOperands + 1, false);
  for (unsigned k = 0; k < kMaxLatticeOperands; ++k)
    defined[k] = stored >> k & 1;
  return algebra.contains(defined);
}

bool Lattice::isExactFor(const IterationAlgebra &algebra) const {
  uint64_t all = root().operands;
  if (llvm::popcount(all) > 16)
    return false;
  bool universe = !points.empty() && points.front().universe;
  // Without U, coordinates that no operand stores are never visited.
  if (!universe && containsSet(algebra, 0))
    return false;
  // The loop running while exactly the operands `valid` have entries left
  // is the first point within `valid`; with U it is always the root's.
  for (uint64_t valid = all;; valid = (valid - 1) & all) {
    int loop = -1;
    for (unsigned p = 0; p < points.size() && loop < 0; ++p)
      if ((points[p].operands & ~valid) == 0)
        loop = p;
    if (universe)
      loop = 0;
    for (uint64_t stored = valid;; stored = (stored - 1) & valid) {
      bool produces = false;
      // A coordinate no operand stores is visited only by a U loop.
      if (loop >= 0 && (stored != 0 || universe)) {
        uint64_t matched = stored & points[loop].operands;
        int c = selectCase(loop, matched);
        produces = c >= 0 && points[c].producer;
        // A case computes with the fill of every operand it lacks: one
        // that is stored here would give a wrong value.
        if (produces && points[c].operands != matched)
          return false;
      }
      if (produces != containsSet(algebra, stored) &&
          (stored != 0 || universe))
        return false;
      if (stored == 0)
        break;
    }
    if (valid == 0)
      break;
  }
  return true;
}

Lattice Lattice::fromPoints(llvm::ArrayRef<LatticePoint> points) {
  Lattice l;
  l.points.assign(points.begin(), points.end());
  return l;
}

Lattice Lattice::fromUnorderedPoints(llvm::ArrayRef<LatticePoint> points) {
  Lattice l = fromPoints(points);
  l.sortPoints();
  return l;
}

Lattice Lattice::buildComplete(const IterationAlgebra &algebra,
                               llvm::ArrayRef<unsigned> operands) {
  uint64_t all = 0;
  for (unsigned k : operands)
    all |= uint64_t(1) << k;
  for (unsigned k : algebra.getLeaves())
    all |= uint64_t(1) << k;
  if (llvm::popcount(all) > 16)
    llvm::report_fatal_error("too many operands for a complete lattice");
  bool universe = containsSet(algebra, 0);
  SmallVector<uint64_t> producers;
  for (uint64_t set = all;; set = (set - 1) & all) {
    if (containsSet(algebra, set))
      producers.push_back(set);
    if (set == 0)
      break;
  }
  Lattice result;
  for (uint64_t set = all;; set = (set - 1) & all) {
    bool needed = llvm::any_of(producers, [&](uint64_t m) {
      return (m & ~set) == 0;
    });
    if (needed && (set != 0 || universe))
      result.points.push_back({set, universe, containsSet(algebra, set)});
    if (set == 0)
      break;
  }
  result.sortPoints();
  return result;
}

Lattice Lattice::buildSeed(const IterationAlgebra &algebra,
                           llvm::ArrayRef<unsigned> operands) {
  IterationAlgebra normal = algebra.normalize();
  // Augmentation (seed 000 §6.3): t ∩ ¬t is empty, so A ∪ (t ∩ ¬t) is A,
  // yet its lattice coiterates t. Built without normalizing, which would
  // fold it away.
  SmallVector<unsigned> mentioned = normal.getLeaves();
  SmallVector<IterationAlgebra> terms{normal};
  for (unsigned k : operands) {
    if (k >= kMaxLatticeOperands)
      llvm::report_fatal_error("too many operands for a lattice");
    if (!llvm::is_contained(mentioned, k))
      terms.push_back(IterationAlgebra::intersect(
          {IterationAlgebra::leaf(k),
           IterationAlgebra::complement(IterationAlgebra::leaf(k))}));
  }
  Lattice result;
  if (terms.size() == 1) {
    result = buildNormalized(normal);
  } else {
    result = buildNormalized(terms.front());
    for (const IterationAlgebra &term : llvm::ArrayRef(terms).drop_front())
      result = combine(result, buildNormalized(term), /*isUnion=*/true);
  }
  result.prune();
  result.sortPoints();
  // When the root iterates U, its loop runs to the end of the dimension and
  // U matches every coordinate: a point {a} then means {a, U}. When both
  // exist, the larger one is the case taken, so it keeps its kind.
  if (!result.points.empty() && result.points.front().universe) {
    SmallVector<LatticePoint> withUniverse;
    for (LatticePoint p : result.points) {
      p.universe = true;
      if (llvm::none_of(withUniverse,
                        [&](const LatticePoint &q) { return q.sameSet(p); }))
        withUniverse.push_back(p);
    }
    result.points = std::move(withUniverse);
    result.prune();
    result.sortPoints();
  }
  return result;
}

bool Lattice::needsUniverse() const {
  return llvm::any_of(points, [](const LatticePoint &p) {
    return p.producer && p.operands == 0 && p.universe;
  });
}

void Lattice::dropUnneededUniverse() {
  if (needsUniverse())
    return;
  SmallVector<LatticePoint> kept;
  for (LatticePoint p : points) {
    p.universe = false;
    // A point that was only U (an omitter here) covers nothing.
    if (p.operands == 0)
      continue;
    // {a, U} and {a}: inside any loop U always matches, so the case with U
    // was the one taken; keep its kind.
    auto *it = llvm::find_if(
        kept, [&](const LatticePoint &q) { return q.sameSet(p); });
    if (it == kept.end())
      kept.push_back(p);
  }
  points = std::move(kept);
  if (!fallback)
    prune();
  sortPoints();
}

SmallVector<unsigned> Lattice::getSubPoints(unsigned p) const {
  SmallVector<unsigned> result;
  for (unsigned q = 0; q < points.size(); ++q)
    if (points[q].isSubsetOf(points[p]))
      result.push_back(q);
  return result;
}

int Lattice::selectCase(unsigned p, uint64_t matched) const {
  for (unsigned q : getSubPoints(p)) {
    const LatticePoint &point = points[q];
    // U never runs out inside a loop that iterates it.
    if ((point.operands & ~matched) == 0)
      return q;
  }
  return -1;
}

void Lattice::print(
    llvm::raw_ostream &os,
    llvm::function_ref<void(llvm::raw_ostream &, unsigned)> leafName) const {
  if (points.empty()) {
    os << "{}";
    return;
  }
  bool firstPoint = true;
  for (const LatticePoint &p : points) {
    if (!firstPoint)
      os << ' ';
    firstPoint = false;
    os << '{';
    bool first = true;
    for (unsigned k : p.getOperands()) {
      if (!first)
        os << ", ";
      first = false;
      if (leafName)
        leafName(os, k);
      else
        os << k;
    }
    if (p.universe)
      os << (first ? "U" : ", U");
    os << '}' << (p.producer ? '+' : '-');
  }
}

std::string Lattice::str() const {
  std::string s;
  llvm::raw_string_ostream os(s);
  print(os);
  return s;
}

IterationAlgebra mlir::sparse_array::removeOperand(const IterationAlgebra &a,
                                                   unsigned k) {
  return a
      .substitute([&](unsigned leaf) {
        return leaf == k ? IterationAlgebra::empty()
                         : IterationAlgebra::leaf(leaf);
      })
      .normalize();
}

IterationAlgebra
mlir::sparse_array::eliminateOperand(const IterationAlgebra &a, unsigned k) {
  IterationAlgebra full = a.substitute([&](unsigned leaf) {
    return leaf == k ? IterationAlgebra::universe()
                     : IterationAlgebra::leaf(leaf);
  });
  return IterationAlgebra::unite({full, removeOperand(a, k)}).normalize();
}
