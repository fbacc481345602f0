//===- LatticeTest.cpp - Generalized iteration lattices -------------------===//

#include "SparseArray/Algebra/Lattice.h"

#include "AlgebraBuilders.h"

#include "gtest/gtest.h"

#include <random>

using namespace mlir::sparse_array;
using namespace mlir::sparse_array::testing;

namespace {


std::string lattice(const A &a, std::vector<unsigned> operands) {
  return Lattice::build(a, operands).str();
}

// Seed 000 Fig. 15: xor coiterates a and b and omits where both are stored.
TEST(LatticeTest, SymmetricDifferenceHasAnOmitterAtTheTop) {
  A xorAlgebra = n({u({x(0), x(1)}), no(n({x(0), x(1)}))});
  Lattice l = Lattice::build(xorAlgebra, {0, 1});
  EXPECT_EQ(l.str(), "{0, 1, U}- {0, U}+ {1, U}+");
  l.dropUnneededUniverse();
  EXPECT_EQ(l.str(), "{0, 1}- {0}+ {1}+");
}

// Seed 000 Fig. 16: a ∩ ¬b.
TEST(LatticeTest, IntersectionWithComplement) {
  Lattice l = Lattice::build(n({x(0), no(x(1))}), {0, 1});
  EXPECT_EQ(l.str(), "{0, 1, U}- {0, U}+");
  l.dropUnneededUniverse();
  EXPECT_EQ(l.str(), "{0, 1}- {0}+");
}

// Seed 000 Fig. 17: a ∪ ¬b needs every coordinate.
TEST(LatticeTest, UnionWithComplementKeepsTheUniverse) {
  Lattice l = Lattice::build(u({x(0), no(x(1))}), {0, 1});
  EXPECT_EQ(l.str(), "{0, 1, U}+ {0, U}+ {1, U}- {U}+");
  EXPECT_TRUE(l.needsUniverse());
  l.dropUnneededUniverse();
  EXPECT_EQ(l.str(), "{0, 1, U}+ {0, U}+ {1, U}- {U}+");
}

// a / b with annihilator at a: the algebra is a, b is brought back by
// augmentation so that its value is known where a is stored.
TEST(LatticeTest, AugmentationCoiteratesOperandsMissingFromTheAlgebra) {
  Lattice l = Lattice::build(x(0), {0, 1});
  l.dropUnneededUniverse();
  EXPECT_EQ(l.str(), "{0, 1}+ {0}+");
}

TEST(LatticeTest, EmptyAndUniverse) {
  EXPECT_EQ(lattice(A::empty(), {}), "{}");
  EXPECT_EQ(lattice(A::universe(), {}), "{U}+");
  // Augmenting the universe with a dense-iterated operand.
  Lattice l = Lattice::build(A::universe(), {0});
  EXPECT_TRUE(l.needsUniverse());
  EXPECT_EQ(l.str(), "{0, U}+ {U}+");
}

// Seed 000 Fig. 18: a repeated operand; the filtered product must not merge
// regions that do not overlap.
TEST(LatticeTest, RepeatedOperandUsesTheFilteredProduct) {
  // (a ∩ b) ∪ (b ∩ ¬c)... with b repeated.
  A algebra = u({n({x(0), x(1)}), n({x(1), no(x(2))})});
  Lattice l = Lattice::build(algebra, {0, 1, 2});
  l.dropUnneededUniverse();
  for (const LatticePoint &p : l.getPoints())
    EXPECT_NE(p.operands, 0u);
  EXPECT_EQ(l.str(), "{0, 1, 2}+ {0, 1}+ {1, 2}- {1}+");
}

// c ∪ (b ∩ ¬a): where a and c are stored but b is not, the case must
// compute with a's value. Alg. 2's filtered product drops {a, c} (a is
// repeated), so the loop took case {c}, computing with a's fill; the
// lattice now comes from the top-down construction, which keeps it.
TEST(LatticeTest, CaseKeepsEveryStoredOperand) {
  A algebra = u({x(2), n({x(1), no(x(0))})});
  Lattice l = Lattice::build(algebra, {0, 1, 2});
  l.dropUnneededUniverse();
  EXPECT_TRUE(l.isFallback());
  EXPECT_EQ(l.str(), "{0, 1, 2}+ {0, 1}- {0, 2}+ {1, 2}+ {1}+ {2}+");
  Lattice missing = Lattice::fromUnorderedPoints(
      {{7, false, true}, {3, false, false}, {6, false, true},
       {2, false, true}, {4, false, true}});
  EXPECT_FALSE(missing.isExactFor(algebra));
}

void expectExact(const A &algebra, unsigned numOperands, bool dropUniverse,
                 unsigned &fallbacks) {
  std::vector<unsigned> operands;
  for (unsigned k = 0; k < numOperands; ++k)
    operands.push_back(k);
  Lattice l = Lattice::build(algebra, operands);
  if (dropUniverse)
    l.dropUnneededUniverse();
  fallbacks += l.isFallback();
  EXPECT_TRUE(l.isExactFor(algebra)) << algebra.str() << " lattice " << l.str();
}

TEST(LatticeTest, RandomAlgebrasGiveExactLattices) {
  std::mt19937 rng(5);
  unsigned fallbacks = 0, trials = 3000;
  for (unsigned trial = 0; trial < trials; ++trial) {
    unsigned numOperands = 1 + trial % 4;
    A algebra = randomAlgebra(rng, numOperands, 3);
    expectExact(algebra, numOperands, /*dropUniverse=*/false, fallbacks);
    expectExact(algebra, numOperands, /*dropUniverse=*/true, fallbacks);
    if (HasFailure())
      return;
  }
  // The seed's construction is exact for most algebras; the complete
  // lattice only backs up the rest.
  EXPECT_LT(fallbacks, trials / 2);
  std::printf("complete-lattice fallbacks: %u of %u\n", fallbacks, 2 * trials);
}

// The loop structure itself: a point whose operands are all still stored
// is never skipped by a smaller loop (checked by isExactFor), and a
// lattice that is not exact is recognized.
TEST(LatticeTest, NonExactLatticeIsDetected) {
  Lattice l = Lattice::build(n({x(0), x(1)}), {0, 1});
  EXPECT_TRUE(l.isExactFor(n({x(0), x(1)})));
  EXPECT_FALSE(l.isExactFor(u({x(0), x(1)})));
}

TEST(LatticeTest, EliminationCoversBothCases) {
  // a ∩ ¬d with d dense: a loop over a alone must visit every a.
  EXPECT_EQ(eliminateOperand(n({x(0), no(x(1))}), 1).str(), "0");
  EXPECT_EQ(eliminateOperand(n({x(0), x(1)}), 1).str(), "0");
  EXPECT_EQ(removeOperand(n({x(0), no(x(1))}), 1).str(), "0");
  EXPECT_EQ(removeOperand(n({x(0), x(1)}), 1).str(), "empty");
}

} // namespace
