//===- LevelIteratorPluginTest.cpp - A level format brings its iterator ---===//
//
// Seed 002's promise, end to end: a level format registered here (both
// halves: the compiler's LevelFormat and the runtime's LevelKind, under one
// keyword) with its own LevelIterator factory compiles and runs a kernel —
// the lowering asks the registry and never names the format.
//
//===----------------------------------------------------------------------===//

#include "SparseArray/Conversion/LevelIterator.h"
#include "SparseArray/Conversion/Pipeline.h"
#include "SparseArray/Dialect/LevelFormat.h"
#include "SparseArray/ExecutionEngine/Jit.h"
#include "SparseArray/InitSparseArray.h"
#include "SparseArrayRuntime.h"

#include "Format.h" // the runtime's LevelKind registry

#include "mlir/ExecutionEngine/ExecutionEngine.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"

#include "gtest/gtest.h"

#include <atomic>

using namespace mlir;
using namespace mlir::sparse_array;

namespace {

/// Stores like compressed; a plugin would differ in layout (seed 002's
/// range, offset, hashed), which this test does not need to prove the
/// plumbing. One description for both halves.
constexpr sparse_array_levels::LevelTraits kPluginTraits = {
    "plugin_compressed", /*full=*/false, /*branchless=*/false,
    /*compact=*/true, /*allowsNonUnique=*/false, /*allowsNonOrdered=*/false,
    /*acceptsNonUniqueParent=*/false, /*needsFullParent=*/false,
    sparse_array_levels::kPositionIteration | sparse_array_levels::kAppend, 2,
    {{sparse_array_levels::kPositionsRole,
      sparse_array_levels::BufferWidth::Positions},
     {sparse_array_levels::kCoordinatesRole,
      sparse_array_levels::BufferWidth::Coordinates}}};

class PluginFormat final : public LevelFormat {
public:
  PluginFormat() : LevelFormat(kPluginTraits) {}
};

/// The runtime half: packing, printing and conversion of the same layout.
class PluginKind final : public sa_rt::LevelKind {
public:
  PluginKind()
      : LevelKind(kPluginTraits), base(sa_rt::lookupLevelKind("compressed")) {}
  bool numPositions(const sa_rt::LevelBuffers &b, uint64_t parentPositions,
                    uint64_t dimSize, uint64_t groups,
                    uint64_t &out) const override {
    return base->numPositions(b, parentPositions, dimSize, groups, out);
  }
  uint64_t append(sa_rt::LevelBuffers &b, uint64_t parentPos, uint64_t coord,
                  uint64_t dimSize) const override {
    return base->append(b, parentPos, coord, dimSize);
  }
  void finish(sa_rt::LevelBuffers &b, uint64_t parentPositions) const override {
    base->finish(b, parentPositions);
  }
  sa_rt::ChildRange children(const sa_rt::LevelBuffers &b, uint64_t parentPos,
                             uint64_t dimSize) const override {
    return base->children(b, parentPos, dimSize);
  }

private:
  const sa_rt::LevelKind *base;
};

std::atomic<unsigned> iteratorsMade{0};

const char *kProgram = R"mlir(
!pv = !sparse_array.array<8xf64, #sparse_array.format<[plugin_compressed]>>
!dv = !sparse_array.array<8xf64, #sparse_array.format<[dense]>>
sparse_array.func @add(%x: f64, %y: f64) -> f64
    attributes {commutative, identity = #sparse_array.identity<-0.0 : f64>} {
  %r = arith.addf %x, %y : f64
  sparse_array.yield %r : f64
}
// numpy: a + b
memref.global "private" constant @expected : memref<8xf64> =
    dense<[1.0, 0.0, 0.0, 12.0, 0.0, 0.0, 20.0, 3.0]>
// Returns the number of entries of a + b that differ from @expected.
func.func @main() -> i32 {
  %a = sparse_array.constant sparse<[[0], [3], [7]], [1.0, 2.0, 3.0]> : tensor<8xf64> : !pv
  %b = sparse_array.constant sparse<[[3], [6]], [10.0, 20.0]> : tensor<8xf64> : !pv
  %c = sparse_array.map @add(%a, %b) : (!pv, !pv) -> !dv
  %v = sparse_array.values %c : !dv -> memref<?xf64>
  %expected = memref.get_global @expected : memref<8xf64>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %zero = arith.constant 0 : i32
  %one = arith.constant 1 : i32
  %bad = scf.for %i = %c0 to %c8 step %c1 iter_args(%n = %zero) -> i32 {
    %x = memref.load %v[%i] : memref<?xf64>
    %e = memref.load %expected[%i] : memref<8xf64>
    %same = arith.cmpf oeq, %x, %e : f64
    %inc = arith.select %same, %zero, %one : i32
    %m = arith.addi %n, %inc : i32
    scf.yield %m : i32
  }
  return %bad : i32
}
)mlir";

TEST(LevelIteratorPlugin, RegisteredFormatRunsAKernel) {
  const LevelFormat *format =
      LevelFormatRegistry::registerFormat(std::make_unique<PluginFormat>());
  ASSERT_NE(format, nullptr);
  static PluginKind kind;
  sa_rt::registerLevelKind(&kind);
  LevelIteratorRegistry::registerFactory(
      format, [](LevelSpec spec, const LevelBuffers &buffers) {
        ++iteratorsMade;
        return makeStoredCoordinateIterator(spec, buffers.positions,
                                            buffers.coordinates);
      });

  DialectRegistry registry;
  registerSparseArrayDialects(registry);
  registerJitTranslations(registry);
  MLIRContext context(registry);
  context.loadAllAvailableDialects();
  OwningOpRef<ModuleOp> module =
      parseSourceString<ModuleOp>(kProgram, &context);
  ASSERT_TRUE(module);

  PassManager pm(&context);
  SparseArrayPipelineOptions options;
  options.enableOpenMP = false;
  buildSparseArrayPipeline(pm, options);
  ASSERT_TRUE(succeeded(pm.run(*module)));
  // One iterator per coiterated level of the plugin format (a and b).
  EXPECT_EQ(iteratorsMade.load(), 2u);

  JitOptions jitOptions;
  jitOptions.optLevel = 2;
  jitOptions.enableOpenMP = false;
  std::string jitError;
  std::unique_ptr<ExecutionEngine> engine =
      createJit(*module, jitOptions, jitError);
  ASSERT_TRUE(engine) << jitError;
  int32_t mismatches = -1;
  SmallVector<void *, 1> results{&mismatches};
  llvm::Error error = engine->invokePacked("main", results);
  ASSERT_FALSE(bool(error)) << llvm::toString(std::move(error));
  EXPECT_EQ(mismatches, 0);
}

} // namespace
