//===- FormatAttrTest.cpp - Format attribute and array type ---------------===//

#include "SparseArray/Dialect/SparseArray.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/AsmParser/AsmParser.h"
#include "llvm/ADT/bit.h"
#include "llvm/Support/raw_ostream.h"

#include "gtest/gtest.h"

#include <cmath>
#include <limits>
#include <random>

using namespace mlir;
using namespace mlir::sparse_array;

namespace {

class FormatAttrTest : public ::testing::Test {
protected:
  FormatAttrTest() { ctx.loadDialect<SparseArrayDialect>(); }

  ArrayType parseArray(StringRef text) {
    return dyn_cast_or_null<ArrayType>(parseType(text, &ctx));
  }
  static std::string print(Type type) {
    std::string text;
    llvm::raw_string_ostream os(text);
    type.print(os);
    return text;
  }
  static std::string fillText(TypedAttr fill) {
    std::string text;
    llvm::raw_string_ostream os(text);
    printFillValue(os, fill);
    return text;
  }

  MLIRContext ctx;
  Builder b{&ctx};
};

TEST_F(FormatAttrTest, DefaultFormatIsDenseWithZeroFill) {
  ArrayType type = ArrayType::get({2, 3}, b.getF32Type());
  EXPECT_TRUE(type.isAllDense());
  EXPECT_EQ(type.getNumLevels(), 2u);
  auto fill = dyn_cast<FloatAttr>(type.getFillValue());
  ASSERT_TRUE(fill);
  EXPECT_TRUE(fill.getValue().isPosZero());
  EXPECT_EQ(print(type), "!sparse_array.array<2x3xf32>");
}

TEST_F(FormatAttrTest, MissingFillMeansZeroOfElementType) {
  ArrayType implicit = parseArray(
      "!sparse_array.array<4xi32, #sparse_array.format<[compressed]>>");
  ArrayType explicitZero = parseArray(
      "!sparse_array.array<4xi32, #sparse_array.format<[compressed], "
      "fill = 0 : i32>>");
  ASSERT_TRUE(implicit);
  EXPECT_EQ(implicit, explicitZero);
  // Likewise the identity order and default widths.
  ArrayType spelledOut = parseArray(
      "!sparse_array.array<4xi32, #sparse_array.format<[compressed], "
      "order = [0], pos_width = 64, crd_width = 64>>");
  EXPECT_EQ(implicit, spelledOut);
}

TEST_F(FormatAttrTest, SpecialFillValuesRoundTrip) {
  const char *cases[][2] = {
      {"nan : f64", "nan"},          {"inf : f32", "inf"},
      {"-inf : f16", "-inf"},        {"-0.0 : f64", "-0.0"},
      {"0x7FF8000000000001 : f64", "0x7FF8000000000001"},
      {"-9223372036854775808 : i64", "-9223372036854775808"},
      {"255 : i8", "-1"},            {"-128 : i8", "-128"},
      {"1 : i1", "1"},               {"42 : i32", "42"},
      {"0.1 : f64", "0.1"},          {"1.0e+300 : f64", "1.0e+300"},
      {"inf : bf16", "inf"},
  };
  for (auto &[input, expected] : cases) {
    std::string text = std::string("#sparse_array.format<[dense], fill = ") +
                       input + ">";
    auto format = dyn_cast_or_null<FormatAttr>(parseAttribute(text, &ctx));
    ASSERT_TRUE(format) << input;
    EXPECT_EQ(fillText(format.getFill()), expected) << input;
    // Print and parse again: the same attribute.
    std::string printed;
    llvm::raw_string_ostream os(printed);
    Attribute(format).print(os);
    EXPECT_EQ(parseAttribute(printed, &ctx), format) << printed;
  }
}

TEST_F(FormatAttrTest, FloatFillPrintingIsExactForRandomBits) {
  std::mt19937_64 rng(7);
  for (int i = 0; i < 2000; ++i) {
    double value = llvm::bit_cast<double>(rng());
    if (std::isnan(value))
      continue;
    auto fill = FloatAttr::get(b.getF64Type(), value);
    auto format = FormatAttr::get(&ctx, {LevelSpec{LevelFormatRegistry::dense()}},
                                  {}, 64, 64, fill);
    std::string printed;
    llvm::raw_string_ostream os(printed);
    Attribute(format).print(os);
    auto reparsed = dyn_cast_or_null<FormatAttr>(parseAttribute(printed, &ctx));
    ASSERT_TRUE(reparsed) << printed;
    EXPECT_EQ(reparsed, format) << printed;
  }
}

TEST_F(FormatAttrTest, OrderMapsLevelsToDimensions) {
  ArrayType csc = parseArray(
      "!sparse_array.array<3x5xf64, #sparse_array.format<[dense, compressed], "
      "order = [1, 0]>>");
  ASSERT_TRUE(csc);
  FormatAttr format = csc.getFormat();
  EXPECT_EQ(format.getLevelDim(0), 1u);
  EXPECT_EQ(format.getLevelDim(1), 0u);
  EXPECT_EQ(format.getDimLevel(1), 0u);
  EXPECT_FALSE(format.isAllDense());
}

TEST_F(FormatAttrTest, NumElementsAndOverflow) {
  EXPECT_EQ(ArrayType::get({}, b.getF64Type()).getNumElements(), 1);
  EXPECT_EQ(ArrayType::get({0, 7}, b.getF64Type()).getNumElements(), 0);
  EXPECT_EQ(ArrayType::get({ShapedType::kDynamic, 7}, b.getF64Type())
                .getNumElements(),
            std::nullopt);
  int64_t big = int64_t(1) << 40;
  EXPECT_EQ(ArrayType::get({big, big}, b.getF64Type()).getNumElements(),
            std::nullopt);
}

TEST_F(FormatAttrTest, VerifierRejectsThroughGetChecked) {
  ctx.getDiagEngine().registerHandler([](Diagnostic &) { return success(); });
  auto emit = [&] { return emitError(UnknownLoc::get(&ctx)); };
  FormatAttr fmt = FormatAttr::getDefault(&ctx, 1, b.getF32Type());
  // Fill of the wrong type.
  EXPECT_FALSE(ArrayType::getChecked(emit, ArrayRef<int64_t>{4},
                                     b.getF64Type(), fmt));
  // Rank mismatch.
  EXPECT_FALSE(ArrayType::getChecked(emit, ArrayRef<int64_t>{4, 4},
                                     b.getF32Type(), fmt));
  // Negative size.
  EXPECT_FALSE(ArrayType::getChecked(emit, ArrayRef<int64_t>{-4},
                                     b.getF32Type(), fmt));
  // Bad widths.
  EXPECT_FALSE(FormatAttr::getChecked(emit, &ctx, fmt.getLevels(), {}, 16, 64,
                                      fmt.getFill()));
  // A hashed level marked ordered (text cannot say it: `hashed` parses as
  // unordered; code building specs could).
  LevelSpec hashed{LevelFormatRegistry::lookup("hashed"), /*ordered=*/true,
                   /*unique=*/true};
  EXPECT_FALSE(FormatAttr::getChecked(emit, &ctx, ArrayRef<LevelSpec>{hashed},
                                      {}, 64, 64, fmt.getFill()));
  hashed.ordered = false;
  EXPECT_TRUE(FormatAttr::getChecked(emit, &ctx, ArrayRef<LevelSpec>{hashed},
                                     {}, 64, 64, fmt.getFill()));
  // Parameters on a format that takes none (text cannot say it either).
  LevelSpec withParams{LevelFormatRegistry::dense()};
  withParams.params = {3, 0};
  EXPECT_FALSE(FormatAttr::getChecked(emit, &ctx,
                                      ArrayRef<LevelSpec>{withParams}, {}, 64,
                                      64, fmt.getFill()));
}

} // namespace
