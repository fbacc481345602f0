//===- SequenceLatticeTest.cpp - Lattices over sequence expressions -------===//
//
// Seed 001 §6.2, Fig. 14 (a–f), and the randomized comparison with seed
// 000's construction (Lattice::build) on expressions without shape
// combinators.
//
//===----------------------------------------------------------------------===//

#include "SparseArray/Algebra/SequenceLattice.h"

#include "AlgebraBuilders.h"

#include "gtest/gtest.h"

#include <random>

using namespace mlir::sparse_array;
using namespace mlir::sparse_array::testing;

namespace {

using S = SequenceExpr;
S sp(unsigned k, int64_t size = S::kDynamic) { return S::leaf(k, false, size); }
S dn(unsigned k, int64_t size = S::kDynamic) { return S::leaf(k, true, size); }

std::string lattice(const S &s) { return SequenceLattice::build(s).str(); }

// Fig. 14a: a union falls back to each side as the other runs out; every
// point is a case of the root.
TEST(SequenceLatticeTest, Union) {
  EXPECT_EQ(lattice(S::unite({sp(0), sp(1)})),
            "[0] union(s0, s1) + edges: s0->2 s1->1 subs: 0 1 2\n"
            "[1] s0 + edges: s0->end subs: 1\n"
            "[2] s1 + edges: s1->end subs: 2\n");
}

// Fig. 14b: a concatenation moves to its shifted second part once the
// first runs out; that point is no case of the first loop (dotted edge).
TEST(SequenceLatticeTest, ConcatenationIsFissioned) {
  EXPECT_EQ(lattice(S::concat(sp(0), sp(1))),
            "[0] concat(s0, s1) + edges: s0->1 subs: 0\n"
            "[1] offset(|s0|, s1) + edges: s1->end subs: 1\n");
}

// Fig. 14c: (a ∪ b) × c: c restarts per outer coordinate, so only a and b
// label edges.
TEST(SequenceLatticeTest, ProductOfAUnion) {
  EXPECT_EQ(lattice(S::product(S::unite({sp(0), sp(1)}), sp(2))),
            "[0] product(union(s0, s1), s2) + edges: s0->2 s1->1 subs: 0 1 2\n"
            "[1] product(s0, s2) + edges: s0->end subs: 1\n"
            "[2] product(s1, s2) + edges: s1->end subs: 2\n");
}

// Fig. 14d: a sparse a with a dense b: when b runs out the union is done.
TEST(SequenceLatticeTest, DenseOperandEndsTheUnion) {
  EXPECT_EQ(lattice(S::unite({sp(0), dn(1)})),
            "[0] union(s0, d1) + edges: s0->1 d1->end subs: 0 1\n"
            "[1] d1 + edges: d1->end subs: 1\n");
}

// Fig. 14e: a union inside the first part of a concatenation: its points
// are cases, the offset point is not.
TEST(SequenceLatticeTest, ConcatenationOfAUnion) {
  SequenceLattice l =
      SequenceLattice::build(S::concat(S::unite({sp(0), sp(1)}), sp(2)));
  ASSERT_EQ(l.getPoints().size(), 4u);
  EXPECT_EQ(l.getPoints()[0].sequence.str(), "concat(union(s0, s1), s2)");
  EXPECT_EQ(l.getPoints()[0].subPoints.size(), 3u);
  // Both sides of the union end in the same shifted loop.
  EXPECT_EQ(l.getPoints()[1].next[0], 3u);
  EXPECT_EQ(l.getPoints()[2].next[0], 3u);
  const SequencePoint &last = l.getPoints().back();
  EXPECT_EQ(last.sequence.str(), "offset(|union(s0, s1)|, s2)");
  EXPECT_EQ(last.subPoints.size(), 1u);
  EXPECT_FALSE(l.isAlgebraic());
}

// Fig. 14f: a[s:e:r] ∪ (b × c): the slice is an edge of its own, and both
// sides are sub-points.
TEST(SequenceLatticeTest, SliceUnionProduct) {
  S sl = S::slice(sp(0), 1, 9, 2);
  EXPECT_EQ(lattice(S::unite({sl, S::product(sp(1), sp(2))})),
            "[0] union(slice(s0, 1, 9, 2), product(s1, s2)) + edges: "
            "slice(s0, 1, 9, 2)->2 s0->2 s1->1 subs: 0 1 2\n"
            "[1] slice(s0, 1, 9, 2) + edges: slice(s0, 1, 9, 2)->end "
            "s0->end subs: 1\n"
            "[2] product(s1, s2) + edges: s1->end subs: 2\n");
}

// Fig. 10 (split): the inner loop iterates π₁(k_a, J) ∩ j_B; it ends when
// the projection leaves the current row even if a goes on.
TEST(SequenceLatticeTest, ProjectionIntersection) {
  S proj = S::project(sp(0), 1, 4);
  EXPECT_EQ(lattice(S::intersect({proj, sp(1)})),
            "[0] intersect(project1(s0, 4), s1) + edges: "
            "project1(s0, 4)->end s0->end s1->end subs: 0\n");
}

// A union beside a concatenation keeps iterating a level its intersection
// dropped (seed 000's augmentation, in the union's coordinate space): once
// s2 ran out, s1 still has values where s0 is stored. Inside the
// concatenation's first part, the part's own union keeps them instead.
TEST(SequenceLatticeTest, AugmentationBesideShapeCombinators) {
  S inter = S::intersect({sp(1), sp(2)});
  SequenceLattice l = SequenceLattice::build(
      S::unite({sp(0), inter, S::concat(sp(3), sp(4))}));
  auto has = [&](llvm::StringRef text) {
    return llvm::any_of(l.getPoints(), [&](const SequencePoint &p) {
      return p.sequence.str() == text;
    });
  };
  EXPECT_TRUE(has("union(s0, concat(s3, s4), intersect(s1, not(s1)))"))
      << l.str();
  SequenceLattice inner = SequenceLattice::build(
      S::concat(S::unite({sp(0), inter}), sp(3)));
  EXPECT_EQ(inner.getPoints()[0].next[2].has_value(), true);
  EXPECT_EQ(inner.getPoints()[*inner.getPoints()[0].next[2]].sequence.str(),
            "concat(union(s0, intersect(s1, not(s1))), s3)")
      << inner.str();
}

// A merge below a slice that runs out entirely still leaves its other
// levels iterated (their values count wherever the union holds), as a slice
// of the augmentation term.
TEST(SequenceLatticeTest, AugmentationBelowASlice) {
  SequenceLattice l = SequenceLattice::build(
      S::unite({sp(0), S::slice(S::intersect({sp(1), sp(2)}), 2, 7, 1)}));
  ASSERT_GE(l.getPoints().size(), 2u);
  EXPECT_EQ(l.getPoints()[1].sequence.str(),
            "union(s0, slice(intersect(s1, not(s1)), 2, 7, 1))")
      << l.str();
  EXPECT_TRUE(l.getPoints()[1].producer);
}

// Seed 001 §6.2.3 takes sub-points along subset edges only, so in
// union(a ⊔ b, d) no edge reaches "a misses x, d holds it" (a running out
// moves the concatenation on). That state is a case of the root's loop
// without a loop of its own; so it is of the next loop's, where a dense
// |a| + b misses the coordinates below |a| that d still visits.
TEST(SequenceLatticeTest, CaseOnlyPointBesideAConcatenation) {
  EXPECT_EQ(lattice(S::unite({S::concat(sp(0), dn(1)), dn(2)})),
            "[0] union(concat(s0, d1), d2) + edges: s0->1 d2->end cases: 2 "
            "subs: 0 2\n"
            "[1] union(offset(|s0|, d1), d2) + edges: d1->end d2->end "
            "cases: 2 subs: 1 2\n"
            "[2] d2 + edges: d2->end subs: 2 (case only)\n");
}

// Seed 000 Fig. 15 through the sequence construction: xor's root omits.
TEST(SequenceLatticeTest, OmitterPoints) {
  S xorSeq = S::fromAlgebra(n({u({x(0), x(1)}), no(n({x(0), x(1)}))}), {0, 1});
  SequenceLattice l = SequenceLattice::build(xorSeq);
  Lattice seed = l.toLattice();
  seed.dropUnneededUniverse();
  EXPECT_EQ(seed.str(), "{0, 1}- {0}+ {1}+");
  // An omitter with no producer below it is pruned (augmentation alone).
  EXPECT_TRUE(SequenceLattice::build(S::fromAlgebra(A::empty(), {0})).empty());
}

// For ∪, ∩ and ¬ the top-down construction gives seed 000's lattice:
// same points, same order, same producers. Where seed 000's filtered
// product is not exact (repeated operands) it falls back to the complete
// lattice; there the top-down one must be exact instead.
TEST(SequenceLatticeTest, MatchesSeed000OnRandomAlgebras) {
  std::mt19937 rng(2026);
  unsigned compared = 0, fallbacks = 0, trials = 4000;
  for (unsigned trial = 0; trial < trials; ++trial) {
    unsigned numOperands = 1 + trial % 4;
    A algebra = randomAlgebra(rng, numOperands, 3);
    std::vector<unsigned> operands;
    for (unsigned k = 0; k < numOperands; ++k)
      if (rng() % 4 != 0 || algebra.getLeaves().size() == 0)
        operands.push_back(k);
    for (unsigned k : algebra.getLeaves())
      if (!llvm::is_contained(operands, k))
        operands.push_back(k);
    Lattice seed = Lattice::build(algebra, operands);
    SequenceLattice top =
        SequenceLattice::build(S::fromAlgebra(algebra, operands));
    Lattice converted = top.toLattice();
    if (seed.isFallback()) {
      ++fallbacks;
      EXPECT_TRUE(converted.isExactFor(algebra)) << algebra.str() << "\n"
                                                 << top.str();
    } else {
      ++compared;
      EXPECT_EQ(converted.str(), seed.str()) << algebra.str() << "\n"
                                             << top.str();
    }
    seed.dropUnneededUniverse();
    converted.dropUnneededUniverse();
    if (!seed.isFallback())
      EXPECT_EQ(converted.str(), seed.str()) << algebra.str();
    if (HasFailure())
      return;
  }
  EXPECT_GT(compared, trials / 2);
  std::printf("compared %u, exact where seed 000 falls back: %u\n", compared,
              fallbacks);
}

} // namespace
