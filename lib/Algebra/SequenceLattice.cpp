//===- SequenceLattice.cpp - Lattices over sequence expressions -----------===//
//
// seed 001 §6.2 (Fig. 12 top-down construction, §6.2.3 sub-points), with
// seed 000 §6.3's producer/omitter points and pruning.
//
//===----------------------------------------------------------------------===//

#include "SparseArray/Algebra/SequenceLattice.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/ErrorHandling.h"

using namespace mlir::sparse_array;
using llvm::SmallVector;

using Kind = SequenceExpr::Kind;

static bool isAlgebraicExpr(const SequenceExpr &s);

/// t ∩ ¬t: holds nothing, yet iterates t (seed 000 §6.3 augmentation).
static const SequenceExpr *augmentedTerm(const SequenceExpr &s) {
  if (!s.is(Kind::Intersection) || s.getChildren().size() != 2)
    return nullptr;
  const SequenceExpr &l = s.getChildren()[0], &r = s.getChildren()[1];
  if (r.is(Kind::Complement) && r.getChildren()[0] == l)
    return &l;
  return nullptr;
}

/// A canonical order for augmentation terms: leaves by operand and level,
/// then other sequences by their text.
static bool termBefore(const SequenceExpr &a, const SequenceExpr &b) {
  bool la = a.is(Kind::Leaf), lb = b.is(Kind::Leaf);
  if (la != lb)
    return la;
  if (la)
    return std::make_pair(a.getOperand(), a.getLevel()) <
           std::make_pair(b.getOperand(), b.getLevel());
  return a.str() < b.str();
}

/// `child` with the sequences in `terms` iterated again, in a canonical
/// form: augmentation terms last, in termBefore order.
static SequenceExpr augment(const SequenceExpr &child,
                            llvm::ArrayRef<SequenceExpr> terms) {
  SmallVector<SequenceExpr> main, aug(terms.begin(), terms.end());
  llvm::ArrayRef<SequenceExpr> parts(child);
  if (child.is(Kind::Union))
    parts = child.getChildren();
  for (const SequenceExpr &t : parts) {
    if (t.isExhausted())
      continue;
    if (const SequenceExpr *kept = augmentedTerm(t))
      aug.push_back(*kept);
    else
      main.push_back(t);
  }
  llvm::sort(aug, termBefore);
  aug.erase(std::unique(aug.begin(), aug.end()), aug.end());
  for (const SequenceExpr &l : aug)
    main.push_back(SequenceExpr::intersect({l, SequenceExpr::complement(l)}));
  return main.size() == 1 ? main.front() : SequenceExpr::unite(main);
}

static bool containsSubtree(const SequenceExpr &s, const SequenceExpr &sub) {
  return s == sub || llvm::any_of(s.getChildren(), [&](const SequenceExpr &c) {
           return containsSubtree(c, sub);
         });
}

/// Union, intersection and complement: the nodes of one coordinate space.
static bool isMerge(const SequenceExpr &s) {
  return s.is(Kind::Union) || s.is(Kind::Intersection) ||
         s.is(Kind::Complement);
}

/// The operands of the merges from `s` down (levels, slices, products,
/// concatenations...): the sequences whose coordinates are those of `s`
/// itself. A dense one is kept for its values and located, not iterated.
static void collectRegionAtoms(const SequenceExpr &s,
                               llvm::SmallVectorImpl<SequenceExpr> &out) {
  if (isMerge(s)) {
    for (const SequenceExpr &c : s.getChildren())
      collectRegionAtoms(c, out);
    return;
  }
  if (!s.isExhausted() && !s.is(Kind::Universe) && !llvm::is_contained(out, s))
    out.push_back(s);
  // A concatenation's first part has the concatenation's coordinates: its
  // dense operands are located at what the region visits there even once
  // the concatenation moved on (they report no match past their extent).
  if (s.is(Kind::Concat)) {
    SmallVector<SequenceExpr> first;
    collectRegionAtoms(s.getChildren()[0], first);
    for (const SequenceExpr &t : first)
      if (t.isDense() && t.is(Kind::Leaf) && !llvm::is_contained(out, t))
        out.push_back(t);
  }
}

namespace {
/// The point after an edge ran out. A level can drop out of a union,
/// intersection or complement while it still has entries (c ∪ (b ∩ ¬a)
/// once b ran out is c, yet a's values still matter where c is stored):
/// like seed 000's augmentation it stays iterated, as t ∩ ¬t, in the
/// largest merge around it — one coordinate space; below a product, slice
/// or concatenation that is the operand's, not the loop's.
struct NextPoint {
  const SequenceExpr &edge;
  /// A concatenation whose first part ran out becomes ∅ (the first part
  /// misses the coordinate) instead of moving on: the case, not the loop.
  bool missing = false;
  bool disjoint = false;
  const SequenceExpr *entering = nullptr;
  /// Concatenations around the node being removed: a merge in a first part
  /// that lost its last iterated level must run out, so that the
  /// concatenation moves on.
  unsigned underConcat = 0;

  SequenceExpr from(const SequenceExpr &seq) {
    // Regions report their own moves (removeRegion): accumulate.
    bool moved = false;
    SequenceExpr result = seq.remove(edge, &moved, *this);
    disjoint |= moved;
    return result;
  }

  /// The remove hook: each outermost merge is removed as a region.
  std::optional<SequenceExpr> operator()(const SequenceExpr &node,
                                         const SequenceExpr *parent) {
    // Missing, not run out: even a dense sequence is then ∅.
    if (missing && node == edge)
      return SequenceExpr::empty(node);
    if (&node == entering)
      return std::nullopt;
    if (node.is(Kind::Concat)) {
      if (missing) {
        NextPoint first{edge, true};
        first.underConcat = underConcat + 1;
        if (first.from(node.getChildren()[0]).isExhausted())
          return SequenceExpr::empty(node);
      }
      ++underConcat;
      SequenceExpr result = removeEntered(node);
      --underConcat;
      return result;
    }
    if (!isMerge(node) || (parent && isMerge(*parent)))
      return std::nullopt;
    return removeRegion(node);
  }

private:
  /// `node` once the edge ran out, simplified by Fig. 27 (this hook then
  /// sees its descendants, not the node itself again).
  SequenceExpr removeEntered(const SequenceExpr &node) {
    const SequenceExpr *outer = entering;
    entering = &node;
    bool moved = false;
    SequenceExpr result = node.remove(edge, &moved, *this);
    entering = outer;
    disjoint |= moved;
    return result;
  }

  SequenceExpr removeRegion(const SequenceExpr &region) {
    SequenceExpr child = removeEntered(region);
    if (child.is(Kind::Full))
      return child;
    // An operand whose merge ran out while it goes on (a ∩ b once b ran
    // out) keeps being read: its sequence once the edge ran out. Also when
    // nothing is left of the merge itself (a slice of a ∩ b inside a
    // union): the values still matter where the enclosing union holds.
    SmallVector<SequenceExpr> atoms, lost;
    collectRegionAtoms(region, atoms);
    for (const SequenceExpr &atom : atoms) {
      NextPoint inner{edge, missing};
      inner.underConcat = underConcat;
      SequenceExpr rest = inner.from(atom);
      if (!rest.isExhausted() && !containsSubtree(child, rest))
        lost.push_back(rest);
    }
    // Nothing left to iterate but dense operands, which are located at
    // what other parts of the loop visit. In a concatenation's first part
    // the part is done instead (the concatenation moves on), except in a
    // case (the part only misses the coordinate).
    if (!missing && underConcat > 0 && child.isExhausted() &&
        llvm::all_of(lost, [](const SequenceExpr &t) { return t.isDense(); }))
      return child;
    return lost.empty() ? child : augment(child, lost);
  }
};
} // namespace

/// The offsets of dense sequences a loop over `s` evaluates (through merges and
/// the iterated operands of shape combinators).
static void collectLoopOffsets(const SequenceExpr &s,
                               llvm::SmallVectorImpl<SequenceExpr> &out) {
  if (s.is(Kind::Offset) && s.getChildren()[0].isDense() &&
      !llvm::is_contained(out, s))
    out.push_back(s);
  if (isMerge(s)) {
    for (const SequenceExpr &c : s.getChildren())
      collectLoopOffsets(c, out);
    return;
  }
  if (!s.getChildren().empty() && !s.is(Kind::Offset))
    collectLoopOffsets(s.getChildren()[0], out);
}

unsigned SequenceLattice::visit(const SequenceExpr &seq) {
  for (unsigned p = 0; p < points.size(); ++p)
    if (points[p].sequence == seq)
      return p;
  unsigned index = points.size();
  SequencePoint point(seq);
  point.edges = seq.edges();
  // At its own case every edge of the point matches; leaves that are not
  // edges (inner sides of products) match whenever the loop evaluates.
  point.producer = seq.contains([](const SequenceExpr &) { return true; });
  points.push_back(point);
  subsetEdge.emplace_back();
  // The case where `missingPart` lacks the coordinate without running out.
  auto addCase = [&](const SequenceExpr &missingPart,
                     const SequenceExpr &unlike) {
    NextPoint missing{missingPart, true};
    SequenceExpr missed = missing.from(seq);
    if (missed.isExhausted() || missed == unlike)
      return;
    unsigned c = visit(missed);
    if (!llvm::is_contained(points[index].cases, c))
      points[index].cases.push_back(c);
  };
  SmallVector<SequenceExpr> edges = points[index].edges;
  for (const SequenceExpr &edge : edges) {
    NextPoint step{edge};
    SequenceExpr child = step.from(seq);
    std::optional<unsigned> next;
    if (!child.isExhausted())
      next = visit(child);
    points[index].next.push_back(next);
    subsetEdge[index].push_back(!step.disjoint);
    // The edge missing the coordinate is not always the edge ran out: a
    // concatenation stays in its first part, and dense levels of a merge
    // that lost its last iterated level are still read (located).
    if (step.disjoint || !edge.isDense())
      addCase(edge, child);
  }
  // A dense |a| + b in the loop's sequence holds nothing below |a|, yet
  // never runs out there: the loop may visit coordinates it misses (the
  // other parts started before a ran out), a case no edge reaches.
  SmallVector<SequenceExpr> offsets;
  collectLoopOffsets(seq, offsets);
  for (const SequenceExpr &offset : offsets)
    addCase(offset, seq);
  return index;
}

SequenceLattice SequenceLattice::build(const SequenceExpr &root) {
  SequenceLattice lattice;
  if (root.isExhausted())
    return lattice;
  lattice.visit(root);

  // Topological order (Kahn), choosing among ready points the one with
  // the most edges, then the lowest operands: seed 000's order where the
  // two apply.
  unsigned n = lattice.points.size();
  SmallVector<unsigned> indegree(n, 0);
  for (const SequencePoint &p : lattice.points) {
    for (std::optional<unsigned> next : p.next)
      if (next)
        ++indegree[*next];
    for (unsigned c : p.cases)
      ++indegree[c];
  }
  auto operandMask = [&](unsigned p) {
    uint64_t mask = 0;
    for (const SequenceExpr &e : lattice.points[p].edges)
      if (e.is(Kind::Leaf) && e.getOperand() < 64)
        mask |= uint64_t(1) << e.getOperand();
    return mask;
  };
  // Cases are tried in this order, so a point that asks more levels to
  // match comes first; dense levels always match (they only end the
  // dimension) and do not count.
  auto askedEdges = [&](unsigned p) {
    return llvm::count_if(lattice.points[p].edges,
                          [](const SequenceExpr &e) { return !e.isDense(); });
  };
  // Then, among points asking as many, the one with more edges: a loop
  // runs whenever its edges are valid, so a point must not run before one
  // that iterates the same and a dense sequence more (a concatenation's
  // dense first part, a dense window) — it would visit that sequence's
  // coordinates without it.
  auto before = [&](unsigned a, unsigned b) {
    size_t ea = askedEdges(a), eb = askedEdges(b);
    if (ea != eb)
      return ea > eb;
    size_t na = lattice.points[a].edges.size(),
           nb = lattice.points[b].edges.size();
    if (na != nb)
      return na > nb;
    if (operandMask(a) != operandMask(b))
      return operandMask(a) < operandMask(b);
    return a < b;
  };
  SmallVector<unsigned> ready{0}, order;
  SmallVector<unsigned> seenIndegree(n, 0);
  while (!ready.empty()) {
    auto *best = llvm::min_element(ready, before);
    unsigned p = *best;
    ready.erase(best);
    order.push_back(p);
    for (std::optional<unsigned> next : lattice.points[p].next)
      if (next && ++seenIndegree[*next] == indegree[*next])
        ready.push_back(*next);
    for (unsigned c : lattice.points[p].cases)
      if (++seenIndegree[c] == indegree[c])
        ready.push_back(c);
  }
  SmallVector<unsigned> newIndex(n);
  for (unsigned i = 0; i < n; ++i)
    newIndex[order[i]] = i;
  std::vector<SequencePoint> ordered;
  SmallVector<SmallVector<bool>> orderedSubset;
  for (unsigned old : order) {
    SequencePoint p = lattice.points[old];
    for (std::optional<unsigned> &next : p.next)
      if (next)
        next = newIndex[*next];
    for (unsigned &c : p.cases)
      c = newIndex[c];
    ordered.push_back(std::move(p));
    orderedSubset.push_back(lattice.subsetEdge[old]);
  }
  lattice.points = std::move(ordered);
  lattice.subsetEdge = std::move(orderedSubset);

  // Sub-points: closure over the edges that keep a subset.
  for (unsigned p = 0; p < lattice.points.size(); ++p) {
    SmallVector<bool> seen(lattice.points.size(), false);
    SmallVector<unsigned> work{p};
    seen[p] = true;
    while (!work.empty()) {
      unsigned q = work.pop_back_val();
      for (auto [n, subset] :
           llvm::zip(lattice.points[q].next, lattice.subsetEdge[q]))
        if (n && subset && !seen[*n]) {
          seen[*n] = true;
          work.push_back(*n);
        }
      for (unsigned c : lattice.points[q].cases)
        if (!seen[c]) {
          seen[c] = true;
          work.push_back(c);
        }
    }
    for (unsigned q = 0; q < lattice.points.size(); ++q)
      if (seen[q])
        lattice.points[p].subPoints.push_back(q);
  }
  // Loops: what the root's edges reach (points in topological order).
  for (unsigned p = 0; p < lattice.points.size(); ++p)
    lattice.points[p].loop = p == 0;
  for (SequencePoint &p : lattice.points)
    if (p.loop)
      for (std::optional<unsigned> next : p.next)
        if (next)
          lattice.points[*next].loop = true;
  lattice.prune();
  return lattice;
}

// Seed 000 §6.3: an omitter with no producer below it iterates for
// nothing; the loop that would move there stops instead.
void SequenceLattice::prune() {
  unsigned n = points.size();
  SmallVector<bool> live(n, false);
  // Topological order: children come later, so walk backwards.
  for (unsigned p = n; p-- > 0;) {
    live[p] = points[p].producer;
    for (std::optional<unsigned> next : points[p].next)
      if (next && live[*next])
        live[p] = true;
    for (unsigned c : points[p].cases)
      if (live[c])
        live[p] = true;
  }
  SmallVector<std::optional<unsigned>> newIndex(n);
  unsigned count = 0;
  for (unsigned p = 0; p < n; ++p)
    if (live[p])
      newIndex[p] = count++;
  std::vector<SequencePoint> kept;
  SmallVector<SmallVector<bool>> keptSubset;
  for (unsigned p = 0; p < n; ++p) {
    if (!live[p])
      continue;
    SequencePoint point = points[p];
    for (std::optional<unsigned> &next : point.next)
      if (next)
        next = newIndex[*next];
    SmallVector<unsigned> cases;
    for (unsigned c : point.cases)
      if (newIndex[c])
        cases.push_back(*newIndex[c]);
    point.cases = std::move(cases);
    SmallVector<unsigned> subs;
    for (unsigned q : point.subPoints)
      if (newIndex[q])
        subs.push_back(*newIndex[q]);
    point.subPoints = std::move(subs);
    kept.push_back(std::move(point));
    keptSubset.push_back(subsetEdge[p]);
  }
  points = std::move(kept);
  subsetEdge = std::move(keptSubset);
}

static bool isAlgebraicExpr(const SequenceExpr &s) {
  switch (s.getKind()) {
  case Kind::Product:
  case Kind::Concat:
  case Kind::Offset:
  case Kind::Project:
  case Kind::Slice:
    return false;
  default:
    return llvm::all_of(s.getChildren(), isAlgebraicExpr);
  }
}

bool SequenceLattice::isAlgebraic() const {
  return points.empty() || isAlgebraicExpr(points.front().sequence);
}

Lattice SequenceLattice::toLattice() const {
  if (!isAlgebraic())
    llvm::report_fatal_error("operand-set lattice of a shape combinator");
  SmallVector<LatticePoint> out;
  bool universe = !points.empty() && points.front().sequence.needsUniverse();
  for (const SequencePoint &p : points) {
    LatticePoint lp;
    lp.universe = universe;
    lp.producer = p.producer;
    for (const SequenceExpr &e : p.edges)
      if (e.is(Kind::Leaf) && !e.isDenseLeaf())
        lp.operands |= uint64_t(1) << e.getOperand();
    if (llvm::none_of(out,
                      [&](const LatticePoint &q) { return q.sameSet(lp); }))
      out.push_back(lp);
  }
  return Lattice::fromUnorderedPoints(out);
}

void SequenceLattice::print(llvm::raw_ostream &os) const {
  for (auto [i, p] : llvm::enumerate(points)) {
    os << '[' << i << "] " << p.sequence << (p.producer ? " +" : " -");
    os << " edges:";
    for (auto [e, n] : llvm::zip(p.edges, p.next)) {
      os << ' ' << e << "->";
      if (n)
        os << *n;
      else
        os << "end";
    }
    if (!p.cases.empty()) {
      os << " cases:";
      for (unsigned c : p.cases)
        os << ' ' << c;
    }
    os << " subs:";
    for (unsigned q : p.subPoints)
      os << ' ' << q;
    if (!p.loop)
      os << " (case only)";
    os << '\n';
  }
}

std::string SequenceLattice::str() const {
  std::string s;
  llvm::raw_string_ostream os(s);
  print(os);
  return s;
}
