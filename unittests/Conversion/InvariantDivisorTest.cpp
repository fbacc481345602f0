//===- InvariantDivisorTest.cpp - Division by a kernel-invariant divisor --===//
//
// InvariantDivisor (lib/Conversion/CodegenUtils.h) replaces n / d and n % d
// by a high multiply with d's reciprocal and one correction, claiming exact
// results for every n < 2^63 and d > 0. The claim is checked here on the
// generated code itself, lowered and run by the JIT, against the CPU's own
// division: boundary dividends and divisors, then random ones.
//
//===----------------------------------------------------------------------===//

#include "CodegenUtils.h"

#include "SparseArray/Conversion/Pipeline.h"
#include "SparseArray/ExecutionEngine/Jit.h"
#include "SparseArray/InitSparseArray.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/ExecutionEngine/ExecutionEngine.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Pass/PassManager.h"

#include "gtest/gtest.h"

#include <random>

using namespace mlir;
using namespace mlir::sparse_array;

namespace {

TEST(InvariantDivisor, ExactBelowTwoToThe63) {
  DialectRegistry registry;
  registerSparseArrayDialects(registry);
  registerJitTranslations(registry);
  MLIRContext context(registry);
  context.loadAllAvailableDialects();

  // func @divrem(%n: index, %d: index) -> (index, index): the divisor a
  // block argument (not a constant), so the reciprocal path is taken.
  OpBuilder b(&context);
  Location loc = b.getUnknownLoc();
  OwningOpRef<ModuleOp> module = ModuleOp::create(loc);
  b.setInsertionPointToEnd(module->getBody());
  Type index = b.getIndexType();
  auto func = func::FuncOp::create(
      b, loc, "divrem", b.getFunctionType({index, index}, {index, index}));
  Block *entry = func.addEntryBlock();
  b.setInsertionPointToEnd(entry);
  InvariantDivisor divisor(entry->getArgument(1));
  auto [q, r] = divisor.divRem(b, loc, entry->getArgument(0));
  func::ReturnOp::create(b, loc, ValueRange{q, r});

  PassManager pm(&context);
  SparseArrayPipelineOptions options;
  options.enableOpenMP = false;
  buildSparseArrayPipeline(pm, options);
  ASSERT_TRUE(succeeded(pm.run(*module)));
  JitOptions jitOptions;
  jitOptions.enableOpenMP = false;
  std::string jitError;
  std::unique_ptr<ExecutionEngine> engine =
      createJit(*module, jitOptions, jitError);
  ASSERT_TRUE(engine) << jitError;

  unsigned checked = 0;
  auto check = [&](uint64_t n, uint64_t d) {
    // Two results come back as one LLVM struct through one pointer.
    struct {
      uint64_t q, r;
    } got = {0, 0};
    SmallVector<void *, 3> args{&n, &d, &got};
    llvm::Error error = engine->invokePacked("divrem", args);
    ASSERT_FALSE(bool(error)) << llvm::toString(std::move(error));
    EXPECT_EQ(got.q, n / d) << n << " / " << d;
    EXPECT_EQ(got.r, n % d) << n << " % " << d;
    ++checked;
  };
  const uint64_t top = (uint64_t(1) << 63) - 1;
  std::vector<uint64_t> divisors = {1,
                                    2,
                                    3,
                                    5,
                                    7,
                                    10,
                                    11,
                                    1000,
                                    (uint64_t(1) << 31) - 1,
                                    (uint64_t(1) << 32) - 1,
                                    uint64_t(1) << 32,
                                    (uint64_t(1) << 32) + 1,
                                    (uint64_t(1) << 40) + 3,
                                    uint64_t(1) << 62,
                                    top - 1,
                                    top};
  std::mt19937_64 rng(63);
  for (int k = 0; k < 40; ++k)
    divisors.push_back(rng() >> (1 + rng() % 63) | 1);
  for (uint64_t d : divisors) {
    std::vector<uint64_t> dividends = {0, 1, d - 1, d, d + 1, top, top - 1,
                                       top - top % d, top - top % d - 1};
    for (uint64_t m : {uint64_t(2), uint64_t(3), uint64_t(1000), top / d})
      if (m <= top / d)
        for (uint64_t delta : {uint64_t(0), uint64_t(1)})
          dividends.push_back(m * d - delta);
    for (int k = 0; k < 50; ++k)
      dividends.push_back(rng() >> (1 + rng() % 63));
    for (uint64_t n : dividends)
      if (n <= top)
        check(n, d);
  }
  EXPECT_GT(checked, 3000u);
}

} // namespace
