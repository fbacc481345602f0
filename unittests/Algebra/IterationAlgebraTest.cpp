//===- IterationAlgebraTest.cpp - Iteration algebra library ---------------===//

#include "SparseArray/Algebra/IterationAlgebra.h"

#include "AlgebraBuilders.h"

#include "gtest/gtest.h"

#include <random>

using namespace mlir::sparse_array;
using namespace mlir::sparse_array::testing;

namespace {


/// Same set: equal membership for every combination of defined operands.
void expectSameSet(const A &a, const A &b, unsigned numOperands) {
  for (unsigned mask = 0; mask < (1u << numOperands); ++mask) {
    std::vector<bool> defined(numOperands);
    for (unsigned k = 0; k < numOperands; ++k)
      defined[k] = mask & (1u << k);
    llvm::SmallVector<bool> d(defined.begin(), defined.end());
    ASSERT_EQ(a.contains(d), b.contains(d))
        << a.str() << " vs " << b.str() << " at mask " << mask;
  }
}

/// Whether complements sit only on leaves.
bool isDeMorganNormal(const A &a) {
  if (a.getKind() == A::Kind::Complement)
    return a.getChildren()[0].isLeaf();
  for (const A &child : a.getChildren())
    if (!isDeMorganNormal(child))
      return false;
  return true;
}

TEST(IterationAlgebra, PrintsPrefixForm) {
  EXPECT_EQ(n({u({x(0), x(1)}), no(n({x(0), x(1)}))}).str(),
            "intersect(union(0, 1), complement(intersect(0, 1)))");
  EXPECT_EQ(A::universe().str(), "universe");
  EXPECT_EQ(A::empty().str(), "empty");
}

TEST(IterationAlgebra, DeMorgan) {
  // ¬(a ∩ b) = ¬a ∪ ¬b, ¬(a ∪ b) = ¬a ∩ ¬b, ¬¬a = a.
  EXPECT_EQ(no(n({x(0), x(1)})).normalize(), u({no(x(0)), no(x(1))}));
  EXPECT_EQ(no(u({x(0), x(1)})).normalize(), n({no(x(0)), no(x(1))}));
  EXPECT_EQ(no(no(x(3))).normalize(), x(3));
  EXPECT_EQ(no(A::universe()).normalize(), A::empty());
}

TEST(IterationAlgebra, Simplification) {
  EXPECT_EQ(u({x(0), A::empty()}).normalize(), x(0));
  EXPECT_EQ(u({x(0), A::universe()}).normalize(), A::universe());
  EXPECT_EQ(n({x(0), A::universe()}).normalize(), x(0));
  EXPECT_EQ(n({x(0), A::empty()}).normalize(), A::empty());
  EXPECT_EQ(u({x(0), x(0)}).normalize(), x(0));
  EXPECT_EQ(u({x(0), no(x(0))}).normalize(), A::universe());
  EXPECT_EQ(n({x(0), no(x(0))}).normalize(), A::empty());
  // Flattening.
  EXPECT_EQ(u({x(0), u({x(1), x(2)})}).normalize(), u({x(0), x(1), x(2)}));
  // Absorption.
  EXPECT_EQ(u({x(0), n({x(0), x(1)})}).normalize(), x(0));
  EXPECT_EQ(n({x(0), u({x(0), x(1)})}).normalize(), x(0));
  EXPECT_EQ(u({n({x(0), x(1)}), n({x(0), x(1), x(2)})}).normalize(),
            n({x(0), x(1)}));
  // Order of operands is kept (FileCheck-stable output).
  EXPECT_EQ(n({u({x(1), x(2)}), x(3)}).normalize(), n({u({x(1), x(2)}), x(3)}));
}

TEST(IterationAlgebra, XorNormalForm) {
  A xorAlgebra = n({u({x(0), x(1)}), no(n({x(0), x(1)}))});
  A normal = xorAlgebra.normalize();
  EXPECT_EQ(normal.str(),
            "intersect(union(0, 1), union(complement(0), complement(1)))");
  expectSameSet(xorAlgebra, normal, 2);
}

TEST(IterationAlgebra, Substitution) {
  // bitwise_and(gcd(b, c), d): and = x ∩ y, gcd = x ∪ y.
  A andAlgebra = n({x(0), x(1)});
  A gcdOfBC = u({x(0), x(1)});
  A result = andAlgebra.substitute([&](unsigned k) {
    return k == 0 ? gcdOfBC : x(2);
  });
  EXPECT_EQ(result.normalize().str(), "intersect(union(0, 1), 2)");
  EXPECT_EQ(result.getLeaves(), (llvm::SmallVector<unsigned>{0, 1, 2}));
}

A randomNaryAlgebra(std::mt19937 &rng, unsigned depth, unsigned numOperands) {
  unsigned pick = rng() % (depth == 0 ? 3 : 7);
  switch (pick) {
  case 0:
    return rng() % 8 == 0 ? (rng() % 2 ? A::universe() : A::empty())
                          : x(rng() % numOperands);
  case 1:
  case 2:
    return x(rng() % numOperands);
  case 3:
    return no(randomNaryAlgebra(rng, depth - 1, numOperands));
  default: {
    std::vector<A> children;
    unsigned count = 1 + rng() % 3;
    for (unsigned i = 0; i < count; ++i)
      children.push_back(randomNaryAlgebra(rng, depth - 1, numOperands));
    return pick % 2 ? A::unite(children) : A::intersect(children);
  }
  }
}

// Property test: normalization preserves the set and is idempotent, and
// encode/decode round-trips.
TEST(IterationAlgebra, NormalizationPreservesSetsRandomized) {
  std::mt19937 rng(42);
  for (int i = 0; i < 3000; ++i) {
    A a = randomNaryAlgebra(rng, 4, 4);
    A normal = a.normalize();
    expectSameSet(a, normal, 4);
    EXPECT_TRUE(isDeMorganNormal(normal)) << normal.str();
    EXPECT_EQ(normal.normalize(), normal) << a.str();
    std::optional<A> decoded = A::decode(a.encode());
    ASSERT_TRUE(decoded);
    EXPECT_EQ(*decoded, a);
  }
}

TEST(IterationAlgebra, DecodeRejectsMalformed) {
  EXPECT_FALSE(A::decode({}));
  std::vector<uint32_t> code = u({x(0), x(1)}).encode();
  code.pop_back();
  EXPECT_FALSE(A::decode(code));
  code = x(0).encode();
  code.push_back(code[0]);
  EXPECT_FALSE(A::decode(code));
}

} // namespace
