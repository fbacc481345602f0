//===- SequenceExprTest.cpp - Sequence expressions (seed 001 §5–6) --------===//

#include "SparseArray/Algebra/SequenceExpr.h"

#include "AlgebraBuilders.h"

#include "gtest/gtest.h"

using namespace mlir::sparse_array;

namespace {

using S = SequenceExpr;
S sp(unsigned k, int64_t size = S::kDynamic) { return S::leaf(k, false, size); }
S dn(unsigned k, int64_t size = S::kDynamic) { return S::leaf(k, true, size); }

std::string edges(const S &s) {
  std::string out;
  for (const S &e : s.edges())
    out += (out.empty() ? "" : " ") + e.str();
  return out;
}

// Fig. 13: unions and intersections collect both sides, products and
// concatenations their outer/first side, slices and projections
// themselves and their operand.
TEST(SequenceExprTest, EdgeSequences) {
  EXPECT_EQ(edges(S::unite({sp(0), sp(1)})), "s0 s1");
  EXPECT_EQ(edges(S::intersect({sp(0), S::complement(sp(1))})), "s0 s1");
  EXPECT_EQ(edges(S::product(S::unite({sp(0), sp(1)}), sp(2))), "s0 s1");
  EXPECT_EQ(edges(S::concat(sp(0), sp(1))), "s0");
  EXPECT_EQ(edges(S::offset(sp(0), sp(1))), "s1");
  EXPECT_EQ(edges(S::slice(sp(0), 1, 9, 2)), "slice(s0, 1, 9, 2) s0");
  EXPECT_EQ(edges(S::project(sp(0), 1, 4)), "project1(s0, 4) s0");
  EXPECT_EQ(edges(S::unite({sp(0), sp(0)})), "s0");
  EXPECT_EQ(edges(S::empty()), "");
}

// Appendix A's worked example: (a × b) ∪ c.
TEST(SequenceExprTest, RemovalFollowsFigure27) {
  auto expr = [](bool aDense, bool bDense, bool cDense) {
    return S::unite({S::product(S::leaf(0, aDense), S::leaf(1, bDense)),
                     S::leaf(2, cDense)});
  };
  // c sparse runs out: the product goes on alone.
  EXPECT_EQ(expr(false, false, false).remove(sp(2)).str(), "product(s0, s1)");
  // c dense runs out: the dimension is done.
  EXPECT_TRUE(expr(false, false, true).remove(dn(2)).is(S::Kind::Full));
  // a sparse runs out: c goes on.
  EXPECT_EQ(expr(false, false, false).remove(sp(0)).str(), "s2");
  // a dense but b sparse: the product space was not all visited.
  EXPECT_EQ(expr(true, false, false).remove(dn(0)).str(), "s2");
  // a and b dense: the whole space was visited, so c is done too.
  EXPECT_TRUE(expr(true, true, false).remove(dn(0)).is(S::Kind::Full));
}

TEST(SequenceExprTest, RemovalRules) {
  // Intersections die with either side, complements of a finished level
  // cover everything.
  EXPECT_TRUE(S::intersect({sp(0), sp(1)}).remove(sp(1)).is(S::Kind::Empty));
  EXPECT_EQ(S::intersect({sp(0), S::complement(sp(1))}).remove(sp(1)).str(),
            "intersect(s0, universe)");
  // A dense operand of a union ends the union (Fig. 14d).
  EXPECT_TRUE(S::unite({sp(0), dn(1)}).remove(dn(1)).is(S::Kind::Full));
  EXPECT_EQ(S::unite({sp(0), dn(1)}).remove(sp(0)).str(), "d1");
  // The universe running out is the end of the dimension.
  EXPECT_TRUE(
      S::unite({sp(0), S::universe()}).remove(S::universe()).is(S::Kind::Full));
  // A concatenation moves on to its second part, shifted, and says so.
  bool disjoint = false;
  S c = S::concat(sp(0, 5), sp(1, 7));
  S after = c.remove(sp(0, 5), &disjoint);
  EXPECT_TRUE(disjoint);
  EXPECT_EQ(after.str(), "offset(|s0|, s1)");
  EXPECT_EQ(after.size(), 12);
  EXPECT_TRUE(after.remove(sp(1, 7)).is(S::Kind::Empty));
  // Right padding: the first part goes on, the second keeps its size.
  S padded = S::concat(sp(0, 5), sp(1, 7)).remove(sp(1, 7), &disjoint);
  EXPECT_FALSE(disjoint);
  EXPECT_EQ(padded.str(), "concat(s0, empty)");
  EXPECT_EQ(padded.size(), 12);
  // A slice runs out before its operand does.
  S sl = S::slice(sp(0), 2, 8, 3);
  EXPECT_TRUE(sl.remove(sl).is(S::Kind::Empty));
  EXPECT_TRUE(S::slice(dn(0), 2, 8, 3)
                  .remove(S::slice(dn(0), 2, 8, 3))
                  .is(S::Kind::Full));
  EXPECT_TRUE(S::project(sp(0), 0, 4).remove(sp(0)).is(S::Kind::Empty));
}

TEST(SequenceExprTest, Sizes) {
  EXPECT_EQ(S::product(sp(0, 3), sp(1, 4)).size(), 12);
  EXPECT_EQ(S::concat(sp(0, 3), sp(1, 4)).size(), 7);
  EXPECT_EQ(S::project(sp(0, 12), 0, 4).size(), 3);
  EXPECT_EQ(S::project(sp(0, 12), 1, 4).size(), 4);
  EXPECT_EQ(S::slice(sp(0, 10), 1, 10, 3).size(), 3);  // 1, 4, 7
  EXPECT_EQ(S::slice(sp(0, 10), 1, 100, 4).size(), 3); // stop clamps
  EXPECT_EQ(S::slice(sp(0, 10), 7, 3, 1).size(), 0);
  EXPECT_EQ(S::product(sp(0), sp(1, 4)).size(), S::kDynamic);
  EXPECT_EQ(S::unite({sp(0), sp(1, 9)}).size(), 9);
  // Counting down: the start clamps to |a| - 1, the stop to -1.
  EXPECT_EQ(S::slice(sp(0, 10), 9, -1, -1).size(), 10);
  EXPECT_EQ(S::slice(sp(0, 10), 8, 0, -3).size(), 3);   // 8, 5, 2
  EXPECT_EQ(S::slice(sp(0, 10), 50, -9, -4).size(), 3); // 9, 5, 1
  EXPECT_EQ(S::slice(sp(0, 10), 3, 3, -1).size(), 0);
}

// sliceLength agrees with Python's len(range(lo, hi, step)) either way.
TEST(SequenceExprTest, SliceLengthMatchesRange) {
  for (int64_t lo = -3; lo <= 12; ++lo)
    for (int64_t hi = -3; hi <= 12; ++hi)
      for (int64_t step : {-4, -3, -2, -1, 1, 2, 3, 4}) {
        int64_t n = 0;
        for (int64_t c = lo; step > 0 ? c < hi : c > hi; c += step)
          ++n;
        EXPECT_EQ(sliceLength(lo, hi, step), n)
            << lo << ":" << hi << ":" << step;
      }
}

TEST(SequenceExprTest, Density) {
  EXPECT_TRUE(S::product(dn(0), dn(1)).isDense());
  EXPECT_FALSE(S::product(dn(0), sp(1)).isDense());
  EXPECT_TRUE(S::unite({sp(0), dn(1)}).isDense());
  EXPECT_FALSE(S::intersect({sp(0), dn(1)}).isDense());
  EXPECT_TRUE(S::slice(dn(0), 0, 4, 2).isDense());
  EXPECT_FALSE(S::offset(dn(0), dn(1)).isDense());
  EXPECT_TRUE(S::complement(sp(0)).needsUniverse());
  EXPECT_FALSE(S::unite({sp(0), dn(1)}).needsUniverse());
}

TEST(SequenceExprTest, ContainsThroughCombinators) {
  S a = sp(0), b = sp(1);
  auto only = [](unsigned k) {
    return
        [k](const S &s) { return s.is(S::Kind::Leaf) && s.getOperand() == k; };
  };
  S xorSeq =
      S::intersect({S::unite({a, b}), S::complement(S::intersect({a, b}))});
  EXPECT_TRUE(xorSeq.contains(only(0)));
  EXPECT_FALSE(xorSeq.contains([](const S &) { return true; }));
  EXPECT_TRUE(S::product(a, b).contains([](const S &) { return true; }));
  EXPECT_FALSE(S::product(a, b).contains(only(0)));
  EXPECT_TRUE(S::slice(a, 0, 4, 1).contains(only(0)));
}

TEST(SequenceExprTest, FromAlgebraAugments) {
  using namespace mlir::sparse_array::testing;
  EXPECT_EQ(S::fromAlgebra(u({x(0), x(1)}), {0, 1}).str(), "union(s0, s1)");
  EXPECT_EQ(S::fromAlgebra(x(0), {0, 1}).str(),
            "union(s0, intersect(s1, not(s1)))");
  EXPECT_EQ(S::fromAlgebra(u({x(0), no(x(0))})).str(), "universe");
  EXPECT_EQ((S::fromAlgebra(x(2)).getOperands()),
            (llvm::SmallVector<unsigned>{2}));
}

TEST(SequenceExprTest, StructuralEquality) {
  EXPECT_EQ(S::slice(sp(0), 1, 2, 1), S::slice(sp(0), 1, 2, 1));
  EXPECT_NE(S::slice(sp(0), 1, 2, 1), S::slice(sp(0), 1, 3, 1));
  EXPECT_NE(sp(0), dn(0));
  EXPECT_NE(S::offset(sp(0, 3), sp(1)), S::offset(sp(0, 4), sp(1)));
  EXPECT_EQ(S::project(sp(0), 0, S::kDynamic).str(), "project0(s0, ?)");
}

TEST(SequenceExprTest, ParsePrintRoundTrip) {
  for (const char *text :
       {"s0", "d3", "s0.1", "union(product(s0, s0.1), s1)",
        "intersect(project1(s0, 4), d1)", "concat(s0, slice(s1, 1, ?, 2))",
        "offset(|s0|, s1)", "not(union(s0, universe))", "project0(s2, ?)",
        "slice(s0, -3, 9, 1)"}) {
    std::optional<S> e = S::parse(text);
    ASSERT_TRUE(e) << text;
    EXPECT_EQ(e->str(), text);
    EXPECT_EQ(*S::parse(e->str()), *e);
  }
  EXPECT_EQ(S::parse(" union( s0 ,s1 ) ")->str(), "union(s0, s1)");
  // One operand is the operand itself, which prints as text that parses
  // (a linear loop's plan over one sliced input was "union(slice(...))").
  S one = S::unite({S::slice(S::leaf(2), 1, 8, 2)});
  EXPECT_EQ(one.str(), "slice(s2, 1, 8, 2)");
  EXPECT_EQ(*S::parse(one.str()), one);
  EXPECT_EQ(S::intersect({S::leaf(0)}), S::leaf(0));
  EXPECT_TRUE(S::parse("s0.1")->getLevel() == 1);
  for (const char *bad : {"", "s", "x0", "union(s0)", "product(s0)",
                          "slice(s0, 1, 2, 0)", "slice(s0, 1)", "s0 s1",
                          "union(s0, s1", "project0(s0)", "offset(s0, s1)"})
    EXPECT_FALSE(S::parse(bad)) << bad;
}

} // namespace

// mapLeaves rebuilds the combinators around the replaced leaves: the loop
// sequence a planner records for a sliced input (issue 16).
TEST(SequenceExprTest, MapLeavesKeepsCombinators) {
  SequenceExpr a = SequenceExpr::leaf(0), b = SequenceExpr::leaf(1);
  SequenceExpr e = SequenceExpr::unite(
      {a, SequenceExpr::intersect({b, SequenceExpr::complement(a)})});
  SequenceExpr sliced = e.mapLeaves([](const SequenceExpr &leaf) {
    return leaf.getOperand() == 1 ? SequenceExpr::slice(leaf, 1, 9, 2) : leaf;
  });
  EXPECT_EQ(sliced.str(), "union(s0, intersect(slice(s1, 1, 9, 2), not(s0)))");
  // Identity leaves the expression as it was.
  EXPECT_EQ(e.mapLeaves([](const SequenceExpr &l) { return l; }), e);
  // Round trip through the printed form (what a lattice attribute keeps).
  std::optional<SequenceExpr> parsed = SequenceExpr::parse(sliced.str());
  ASSERT_TRUE(parsed.has_value());
  EXPECT_EQ(*parsed, sliced);
  // Shape combinators keep their parameters.
  SequenceExpr shaped = SequenceExpr::concat(SequenceExpr::product(a, b),
                                             SequenceExpr::project(b, 0, 4));
  EXPECT_EQ(shaped.mapLeaves([](const SequenceExpr &l) { return l; }), shaped);
}
