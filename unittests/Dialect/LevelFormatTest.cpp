//===- LevelFormatTest.cpp - Level formats and the plugin registry --------===//

#include "SparseArray/Dialect/LevelFormat.h"
#include "SparseArray/Dialect/SparseArray.h"

#include "mlir/IR/MLIRContext.h"
#include "mlir/AsmParser/AsmParser.h"

#include "gtest/gtest.h"

using namespace mlir;
using namespace mlir::sparse_array;

namespace {

const LevelFormat *dense() { return LevelFormatRegistry::dense(); }
const LevelFormat *compressed() { return LevelFormatRegistry::compressed(); }
const LevelFormat *singleton() { return LevelFormatRegistry::singleton(); }

TEST(LevelFormat, BuiltinsAreRegisteredByName) {
  EXPECT_EQ(LevelFormatRegistry::lookup("dense"), dense());
  EXPECT_EQ(LevelFormatRegistry::lookup("compressed"), compressed());
  EXPECT_EQ(LevelFormatRegistry::lookup("singleton"), singleton());
  EXPECT_EQ(LevelFormatRegistry::lookup("no_such_format"), nullptr);
  std::vector<std::string> names = LevelFormatRegistry::getNames();
  ASSERT_GE(names.size(), 3u);
  EXPECT_EQ(names[0], "dense");
  EXPECT_EQ(names[1], "compressed");
  EXPECT_EQ(names[2], "singleton");
}

// Seed 002 Table 1: properties and capabilities of the built-in formats.
TEST(LevelFormat, PropertiesFollowSeedTable) {
  EXPECT_TRUE(dense()->isFull());
  EXPECT_FALSE(dense()->allowsNonUnique());
  EXPECT_FALSE(dense()->allowsNonOrdered());
  EXPECT_FALSE(dense()->isBranchless());
  EXPECT_TRUE(hasCapability(dense()->getCapabilities(),
                            LevelCapability::CoordinateValueIteration));
  EXPECT_TRUE(hasCapability(dense()->getCapabilities(), LevelCapability::Locate));
  EXPECT_FALSE(hasCapability(dense()->getCapabilities(),
                             LevelCapability::PositionIteration));

  EXPECT_FALSE(compressed()->isFull());
  EXPECT_TRUE(compressed()->allowsNonUnique());
  EXPECT_TRUE(compressed()->allowsNonOrdered());
  EXPECT_TRUE(hasCapability(compressed()->getCapabilities(),
                            LevelCapability::PositionIteration));
  EXPECT_TRUE(hasCapability(compressed()->getCapabilities(),
                            LevelCapability::Append));
  EXPECT_FALSE(hasCapability(compressed()->getCapabilities(),
                             LevelCapability::Locate));

  EXPECT_TRUE(singleton()->isBranchless());
  EXPECT_FALSE(singleton()->isFull());
  EXPECT_TRUE(singleton()->acceptsNonUniqueParent());
  for (const LevelFormat *format : {dense(), compressed(), singleton()})
    EXPECT_TRUE(format->isCompact());
}

TEST(LevelFormat, CompositionRules) {
  LevelSpec denseLvl{dense()};
  LevelSpec csrCol{compressed()};
  LevelSpec cooRow{compressed(), /*ordered=*/true, /*unique=*/false};
  LevelSpec cooMid{singleton(), /*ordered=*/true, /*unique=*/false};

  EXPECT_FALSE(dense()->checkParent(std::nullopt));
  EXPECT_FALSE(compressed()->checkParent(denseLvl));
  EXPECT_FALSE(compressed()->checkParent(csrCol));    // DCSR
  EXPECT_TRUE(singleton()->checkParent(std::nullopt)); // outermost
  EXPECT_TRUE(singleton()->checkParent(denseLvl));     // unique, not compressed
  EXPECT_FALSE(singleton()->checkParent(csrCol));
  EXPECT_FALSE(singleton()->checkParent(cooRow)); // COO
  EXPECT_FALSE(singleton()->checkParent(cooMid)); // COO-3
  // Duplicates of a non-unique parent can only go to a singleton level.
  EXPECT_TRUE(compressed()->checkParent(cooRow));
  EXPECT_TRUE(dense()->checkParent(cooRow));
  // Slot-per-parent formats (traits: needsFullParent) only below a full level.
  for (StringRef name : {"diagonal", "ellpack"}) {
    const LevelFormat *format = LevelFormatRegistry::lookup(name);
    ASSERT_NE(format, nullptr) << name.str();
    EXPECT_FALSE(format->checkParent(denseLvl)) << name.str();
    EXPECT_EQ(format->checkParent(csrCol),
              std::string("must follow a full (dense) level"))
        << name.str();
    EXPECT_TRUE(format->checkParent(std::nullopt)) << name.str();
  }
  // seed 002's hashed level: anywhere a unique parent is, and only full
  // levels below it (its positions are hash slots, filled out of order).
  const LevelFormat *hashed = LevelFormatRegistry::lookup("hashed");
  ASSERT_NE(hashed, nullptr);
  EXPECT_TRUE(hashed->hasHashOrder());
  EXPECT_FALSE(hashed->checkParent(std::nullopt));
  EXPECT_FALSE(hashed->checkParent(denseLvl));
  EXPECT_FALSE(hashed->checkParent(csrCol));
  EXPECT_TRUE(hashed->checkParent(cooRow));
  LevelSpec hashedLvl{hashed, /*ordered=*/false, /*unique=*/true};
  EXPECT_FALSE(dense()->checkParent(hashedLvl));
  EXPECT_TRUE(compressed()->checkParent(hashedLvl));
  EXPECT_TRUE(singleton()->checkParent(hashedLvl));
  // Sorted, it is a compressed level; other levels keep their format.
  EXPECT_EQ(hashedLvl.orderedForm().format, compressed());
  EXPECT_TRUE(hashedLvl.orderedForm().ordered);
  EXPECT_EQ(csrCol.orderedForm(), csrCol);
}

TEST(LevelFormat, StructuredTakesNAndMAndHasExtentM) {
  const LevelFormat *nm = LevelFormatRegistry::lookup("structured");
  ASSERT_NE(nm, nullptr);
  EXPECT_EQ(nm->getNumParams(), 2u);
  EXPECT_EQ(dense()->getNumParams(), 0u);
  EXPECT_FALSE(nm->checkParams({2, 4}));
  EXPECT_FALSE(nm->checkParams({4, 4}));
  EXPECT_TRUE(nm->checkParams({0, 4}));
  EXPECT_TRUE(nm->checkParams({5, 4}));
  LevelSpec lvl{nm};
  lvl.params = {2, 4};
  EXPECT_FALSE(nm->checkExtent(lvl, 4));
  EXPECT_TRUE(nm->checkExtent(lvl, 8));
  // Dynamic: checked by the runtime when an array is made.
  EXPECT_FALSE(nm->checkExtent(lvl, std::nullopt));
  // Parameters are part of the level: 2:4 and 1:4 differ, and a generic
  // level made from one drops them.
  LevelSpec other = lvl;
  other.params = {1, 4};
  EXPECT_NE(lvl, other);
  EXPECT_NE(hash_value(lvl), hash_value(other));
  EXPECT_EQ(lvl.withFormat(compressed()), LevelSpec{compressed()});
  EXPECT_FALSE(nm->checkParent(LevelSpec{dense()}));
  EXPECT_TRUE(nm->checkParent(std::nullopt));
}

/// A stand-in for a future plugin (e.g. seed 002's offset format): only the
/// registry and the verifier's use of the interface are exercised.
constexpr sparse_array_levels::LevelTraits kTestPluginTraits = {
    "test_plugin", /*full=*/true, /*branchless=*/false, /*compact=*/false,
    /*allowsNonUnique=*/false, /*allowsNonOrdered=*/true,
    /*acceptsNonUniqueParent=*/false, /*needsFullParent=*/false,
    sparse_array_levels::kCoordinateValueIteration |
        sparse_array_levels::kLocate,
    1,
    {{sparse_array_levels::kCoordinatesRole,
      sparse_array_levels::BufferWidth::Coordinates}}};

class TestPluginFormat final : public LevelFormat {
public:
  TestPluginFormat() : LevelFormat(kTestPluginTraits) {}
};

TEST(LevelFormat, PluginsRegisterAndParse) {
  const LevelFormat *plugin =
      LevelFormatRegistry::registerFormat(std::make_unique<TestPluginFormat>());
  ASSERT_NE(plugin, nullptr);
  EXPECT_EQ(LevelFormatRegistry::lookup("test_plugin"), plugin);
  // A second format with the same name is refused.
  EXPECT_EQ(LevelFormatRegistry::registerFormat(
                std::make_unique<TestPluginFormat>()),
            nullptr);

  MLIRContext ctx;
  ctx.loadDialect<SparseArrayDialect>();
  auto format = dyn_cast_or_null<FormatAttr>(parseAttribute(
      "#sparse_array.format<[dense, test_plugin(nonordered)]>", &ctx));
  ASSERT_TRUE(format);
  EXPECT_EQ(format.getLevels()[1].format, plugin);
  EXPECT_FALSE(format.getLevels()[1].ordered);
  // The plugin's own property rules apply: it refuses non-unique.
  ctx.getDiagEngine().registerHandler([](Diagnostic &) { return success(); });
  EXPECT_FALSE(parseAttribute(
      "#sparse_array.format<[dense, test_plugin(nonunique)]>", &ctx));
}

} // namespace
