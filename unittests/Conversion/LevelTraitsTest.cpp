//===- LevelTraitsTest.cpp - Compiler and runtime agree on every format ---===//
//
// A level format has two halves (the compiler's LevelFormat, the runtime's
// LevelKind) joined by a keyword. Both are built from one LevelTraits, and
// this test holds the registries to it: every format one half knows, the
// other knows under the same name with the very same description, and the
// buffers an array type lays out are the ones the runtime expects.
//
//===----------------------------------------------------------------------===//

#include "SparseArray/Dialect/LevelFormat.h"
#include "SparseArray/Dialect/SparseArray.h"
#include "SparseArray/Dialect/Storage.h"

#include "Format.h" // the runtime's LevelKind registry

#include "mlir/AsmParser/AsmParser.h"
#include "mlir/IR/MLIRContext.h"

#include "gtest/gtest.h"

#include <set>
#include <string>

using namespace mlir;
using namespace mlir::sparse_array;

namespace {

TEST(LevelTraits, CompilerAndRuntimeRegistriesAgree) {
  std::set<std::string> compilerNames;
  for (const std::string &name : LevelFormatRegistry::getNames()) {
    compilerNames.insert(name);
    const LevelFormat *format = LevelFormatRegistry::lookup(name);
    const sa_rt::LevelKind *kind = sa_rt::lookupLevelKind(name);
    ASSERT_NE(kind, nullptr) << "no runtime level kind for '" << name << "'";
    // The same description object, not merely equal fields.
    EXPECT_EQ(&format->getTraits(), &kind->getTraits()) << name;
  }
  for (const sa_rt::LevelKind *kind : sa_rt::getLevelKinds())
    EXPECT_TRUE(compilerNames.count(kind->name()))
        << "runtime level kind '" << kind->name()
        << "' has no compiler LevelFormat";
}

TEST(LevelTraits, ArrayBuffersMatchTheRuntimeLayout) {
  MLIRContext ctx;
  ctx.loadDialect<SparseArrayDialect>();
  for (const char *text :
       {"!sparse_array.array<4x5xf64, #sparse_array.format<[dense, "
        "compressed]>>",
        "!sparse_array.array<4x5x6xi32, #sparse_array.format<[compressed("
        "nonunique), singleton(nonunique), singleton], pos_width = 32>>",
        "!sparse_array.array<4x5xf32, #sparse_array.format<[dense, dense]>>"}) {
    auto type = dyn_cast_or_null<ArrayType>(parseType(text, &ctx));
    ASSERT_TRUE(type) << text;
    sa_rt::FormatSpec spec;
    std::string error;
    ASSERT_TRUE(sa_rt::FormatSpec::parse(getRuntimeSpec(type), spec, error))
        << error;
    SmallVector<ArrayBuffer> buffers = getArrayBuffers(type);
    ASSERT_EQ(buffers.size(), spec.numBuffers()) << text;
    for (auto [k, buffer] : llvm::enumerate(buffers)) {
      EXPECT_EQ(buffer.elementType.getIntOrFloatBitWidth() / 8,
                spec.bufferElemBytes(k))
          << text << " buffer " << k;
      if (buffer.kind == BufferKind::Positions)
        EXPECT_EQ(spec.posBufferIndex(buffer.level), int(k));
      if (buffer.kind == BufferKind::Coordinates)
        EXPECT_EQ(spec.crdBufferIndex(buffer.level), int(k));
    }
  }
}

} // namespace
