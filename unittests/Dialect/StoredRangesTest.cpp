//===- StoredRangesTest.cpp - When shape operators move stored ranges -----===//

#include "SparseArray/Dialect/SparseArray.h"

#include "mlir/AsmParser/AsmParser.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"

#include "gtest/gtest.h"

using namespace mlir;
using namespace mlir::sparse_array;

namespace {

class StoredRangesTest : public ::testing::Test {
protected:
  StoredRangesTest() {
    ctx.loadDialect<SparseArrayDialect, func::FuncDialect>();
  }

  FormatAttr format(StringRef levels) {
    auto type = dyn_cast_or_null<ArrayType>(parseType(
        ("!sparse_array.array<4x5x6xf64, #sparse_array.format<" + levels + ">>")
            .str(),
        &ctx));
    return type ? type.getFormat() : FormatAttr();
  }

  /// The one op of interest in `body` (a function over arrays %a, %b).
  template <typename OpT> OpT parseOp(StringRef args, StringRef body) {
    std::string text = ("func.func @f(" + args + ") {\n" + body +
                        "\n  return\n}\n")
                           .str();
    module = parseSourceString<ModuleOp>(text, &ctx);
    if (!module)
      return OpT();
    OpT found;
    module->walk([&](OpT op) { found = op; });
    return found;
  }

  MLIRContext ctx;
  OwningOpRef<ModuleOp> module;
};

TEST_F(StoredRangesTest, RangeLevelNeedsFullLevelsAbove) {
  FormatAttr csf = format("[dense, dense, compressed]");
  ASSERT_TRUE(csf);
  EXPECT_EQ(getStoredRangeLevel(csf, 0), 0u);
  EXPECT_EQ(getStoredRangeLevel(csf, 2), 2u);
  // A compressed level above the cut dimension's: its parents differ from
  // one array to the next.
  FormatAttr dcc = format("[dense, compressed, compressed]");
  EXPECT_EQ(getStoredRangeLevel(dcc, 1), 1u);
  EXPECT_FALSE(getStoredRangeLevel(dcc, 2).has_value());
  FormatAttr coo =
      format("[compressed(nonunique), singleton(nonunique), singleton]");
  EXPECT_EQ(getStoredRangeLevel(coo, 0), 0u);
  EXPECT_FALSE(getStoredRangeLevel(coo, 1).has_value());
  // The dimension's level, not its number: order = [2, 0, 1] stores
  // dimension 0 at level 1.
  FormatAttr permuted = format("[dense, compressed, compressed], order = [2, 0, 1]");
  EXPECT_EQ(getStoredRangeLevel(permuted, 0), 1u);
  EXPECT_FALSE(getStoredRangeLevel(permuted, 1).has_value());
}

TEST_F(StoredRangesTest, ConcatPartsMustBeStoredLikeTheResult) {
  // Two 2x3 CSR parts concatenated along `dim` into `result`.
  auto concat = [&](unsigned dim, const std::string &result) {
    std::string csr =
        "!sparse_array.array<2x3xf64, #sparse_array.format<[dense, compressed]>>";
    return parseOp<ConcatOp>(
        "%a: " + csr + ", %b: " + csr,
        "  %r = sparse_array.concat %a, %b dim " + std::to_string(dim) + " : " +
            csr + ", " + csr + " -> !sparse_array.array<" + result + ">");
  };
  auto vstack = concat(0, "4x3xf64, #sparse_array.format<[dense, compressed]>");
  ASSERT_TRUE(vstack);
  EXPECT_EQ(getMovedRangeLevel(vstack), 0u);
  auto hstack = concat(1, "2x6xf64, #sparse_array.format<[dense, compressed]>");
  ASSERT_TRUE(hstack);
  EXPECT_EQ(getMovedRangeLevel(hstack), 1u);
  // Another fill in the result: the parts' implicit entries are values.
  auto otherFill = concat(
      0, "4x3xf64, #sparse_array.format<[dense, compressed], fill = 1.0 : f64>");
  ASSERT_TRUE(otherFill);
  EXPECT_FALSE(getMovedRangeLevel(otherFill).has_value());
  // Other widths: the buffers are not the result's.
  auto widths = concat(
      0, "4x3xf64, #sparse_array.format<[dense, compressed], crd_width = 32>");
  ASSERT_TRUE(widths);
  EXPECT_FALSE(getMovedRangeLevel(widths).has_value());
}

TEST_F(StoredRangesTest, ConcatMergesOrderedStoredLevelsAbove) {
  // hstack of `levels` parts of shape 2x3 into 2x6.
  auto hstack = [&](const std::string &levels) {
    std::string part = "!sparse_array.array<2x3xf64, #sparse_array.format<" +
                       levels + ">>";
    return parseOp<ConcatOp>(
        "%a: " + part + ", %b: " + part,
        "  %r = sparse_array.concat %a, %b dim 1 : " + part + ", " + part +
            " -> !sparse_array.array<2x6xf64, #sparse_array.format<" + levels +
            ">>");
  };
  // DCSR: rows merged by coordinate; COO: the non-unique row level right
  // above the cut keeps each part's run whole.
  auto dcsr = hstack("[compressed, compressed]");
  ASSERT_TRUE(dcsr);
  EXPECT_EQ(getMovedRangeLevel(dcsr), 1u);
  auto coo = hstack("[compressed(nonunique), singleton]");
  ASSERT_TRUE(coo);
  EXPECT_EQ(getMovedRangeLevel(coo), 1u);
  // A full cut level under merged rows: a part without the row would
  // leave a hole in it.
  auto denseRows = hstack("[compressed, dense]");
  ASSERT_TRUE(denseRows);
  EXPECT_FALSE(getMovedRangeLevel(denseRows).has_value());
  // Unordered rows cannot be merged.
  auto unordered = hstack("[compressed(nonordered), compressed]");
  ASSERT_TRUE(unordered);
  EXPECT_FALSE(getMovedRangeLevel(unordered).has_value());
}

TEST_F(StoredRangesTest, SliceOfOneDimensionByUnitSteps) {
  const char *csr = "!sparse_array.array<8x6xf64, #sparse_array.format<[dense, compressed]>>";
  std::string args = std::string("%a: ") + csr;
  auto slice = [&](StringRef spec, StringRef result) {
    return parseOp<SliceOp>(args, ("  %r = sparse_array.slice %a" + spec +
                                   " : " + csr + " -> " + result)
                                      .str());
  };
  auto rows = slice("[2:5]", "!sparse_array.array<3x6xf64, #sparse_array.format<[dense, compressed]>>");
  ASSERT_TRUE(rows);
  EXPECT_EQ(getMovedRangeLevel(rows), std::make_pair(0u, 0u));
  auto columns = slice("[:, -4:-1]", "!sparse_array.array<8x3xf64, #sparse_array.format<[dense, compressed]>>");
  ASSERT_TRUE(columns);
  EXPECT_EQ(getMovedRangeLevel(columns), std::make_pair(1u, 1u));
  auto strided = slice("[0:8:2]", "!sparse_array.array<4x6xf64, #sparse_array.format<[dense, compressed]>>");
  ASSERT_TRUE(strided);
  EXPECT_FALSE(getMovedRangeLevel(strided).has_value());
  auto reversed = slice("[::-1]", "!sparse_array.array<8x6xf64, #sparse_array.format<[dense, compressed]>>");
  ASSERT_TRUE(reversed);
  EXPECT_FALSE(getMovedRangeLevel(reversed).has_value());
  auto both = slice("[1:3, 1:3]", "!sparse_array.array<2x2xf64, #sparse_array.format<[dense, compressed]>>");
  ASSERT_TRUE(both);
  EXPECT_FALSE(getMovedRangeLevel(both).has_value());
  auto index = slice("[3]", "!sparse_array.array<6xf64, #sparse_array.format<[compressed]>>");
  ASSERT_TRUE(index);
  EXPECT_FALSE(getMovedRangeLevel(index).has_value());
  auto intoCoo = slice("[2:5]", "!sparse_array.array<3x6xf64, #sparse_array.format<[compressed(nonunique), singleton]>>");
  ASSERT_TRUE(intoCoo);
  EXPECT_FALSE(getMovedRangeLevel(intoCoo).has_value());
}

TEST_F(StoredRangesTest, SlicedStoredLevelMustBeOrdered) {
  const char *unordered = "!sparse_array.array<8x6xf64, #sparse_array.format<[dense, compressed(nonordered)]>>";
  auto op = parseOp<SliceOp>(
      std::string("%a: ") + unordered,
      std::string("  %r = sparse_array.slice %a[:, 1:3] : ") + unordered +
          " -> !sparse_array.array<8x2xf64, "
          "#sparse_array.format<[dense, compressed(nonordered)]>>");
  ASSERT_TRUE(op);
  // No bisection on a level whose coordinates are in no order.
  EXPECT_FALSE(getMovedRangeLevel(op).has_value());
}

} // namespace
