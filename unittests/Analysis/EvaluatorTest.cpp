//===- EvaluatorTest.cpp - Compile-time evaluation of functions -----------===//

#include "SparseArray/Analysis/Evaluator.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Builders.h"
#include "mlir/Parser/Parser.h"

#include "gtest/gtest.h"

#include <cmath>
#include <limits>

using namespace mlir;
using namespace mlir::sparse_array;

namespace {

const char *kProgram = R"mlir(
sparse_array.func @gcd(%x: i64, %y: i64) -> i64 {
  %ax = math.absi %x : i64
  %ay = math.absi %y : i64
  %r:2 = scf.while (%a = %ax, %b = %ay) : (i64, i64) -> (i64, i64) {
    %c0 = arith.constant 0 : i64
    %nz = arith.cmpi ne, %a, %c0 : i64
    scf.condition(%nz) %a, %b : i64, i64
  } do {
  ^bb0(%a: i64, %b: i64):
    %m = arith.remsi %b, %a : i64
    scf.yield %m, %a : i64, i64
  }
  sparse_array.yield %r#1 : i64
} case [0] {
^bb0(%x: i64, %y: i64):
  %a = math.absi %x : i64
  sparse_array.yield %a : i64
}
sparse_array.func @fmul(%x: f64, %y: f64) -> f64 {
  %r = arith.mulf %x, %y : f64
  sparse_array.yield %r : f64
}
sparse_array.func @addi(%x: i32, %y: i32) -> i32 {
  %r = arith.addi %x, %y : i32
  sparse_array.yield %r : i32
}
sparse_array.func @udiv(%x: i8, %y: i8) -> i8 {
  %r = arith.divui %x, %y : i8
  sparse_array.yield %r : i8
}
sparse_array.func @sdiv(%x: i8, %y: i8) -> i8 {
  %r = arith.divsi %x, %y : i8
  sparse_array.yield %r : i8
}
sparse_array.func @power(%x: f64, %n: i64) -> f64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n_idx = arith.index_cast %n : i64 to index
  %one = arith.constant 1.0 : f64
  %r = scf.for %i = %c0 to %n_idx step %c1 iter_args(%acc = %one) -> f64 {
    %m = arith.mulf %acc, %x : f64
    scf.yield %m : f64
  }
  sparse_array.yield %r : f64
}
sparse_array.func @square_of_gcd(%x: i64, %y: i64) -> i64 {
  %g = sparse_array.apply @gcd(%x, %y) : (i64, i64) -> i64
  %s = arith.muli %g, %g : i64
  sparse_array.yield %s : i64
}
sparse_array.func @spin(%x: i64) -> i64 {
  %r = scf.while (%a = %x) : (i64) -> i64 {
    %t = arith.constant true
    scf.condition(%t) %a : i64
  } do {
  ^bb0(%a: i64):
    scf.yield %a : i64
  }
  sparse_array.yield %r : i64
}
sparse_array.func @pick(%c: i1, %x: f32) -> f32 {
  %r = scf.if %c -> f32 {
    scf.yield %x : f32
  } else {
    %z = arith.constant -0.0 : f32
    scf.yield %z : f32
  }
  sparse_array.yield %r : f32
}
sparse_array.func @maxnum(%x: f64, %y: f64) -> f64 {
  %r = arith.maximumf %x, %y : f64
  sparse_array.yield %r : f64
}
)mlir";

class EvaluatorTest : public ::testing::Test {
protected:
  EvaluatorTest() {
    ctx.loadDialect<SparseArrayDialect, arith::ArithDialect, math::MathDialect,
                    scf::SCFDialect>();
    module = parseSourceString<ModuleOp>(kProgram, &ctx);
  }
  FuncOp func(StringRef name) { return module->lookupSymbol<FuncOp>(name); }
  TypedAttr i(int64_t v, unsigned width = 64) {
    return b.getIntegerAttr(b.getIntegerType(width), APInt(width, v, true));
  }
  TypedAttr f(double v) { return b.getF64FloatAttr(v); }
  TypedAttr f32(float v) { return b.getF32FloatAttr(v); }
  FailureOr<TypedAttr> eval(StringRef name, ArrayRef<TypedAttr> args,
                            Region *region = nullptr) {
    return evaluator.evaluate(func(name), args, region);
  }
  int64_t asInt(FailureOr<TypedAttr> r) {
    EXPECT_TRUE(succeeded(r)) << evaluator.getLastError();
    return succeeded(r) ? cast<IntegerAttr>(*r).getValue().getSExtValue()
                        : INT64_MIN;
  }
  double asDouble(FailureOr<TypedAttr> r) {
    EXPECT_TRUE(succeeded(r)) << evaluator.getLastError();
    return succeeded(r) ? cast<FloatAttr>(*r).getValueAsDouble() : -12345.0;
  }

  MLIRContext ctx;
  Builder b{&ctx};
  OwningOpRef<ModuleOp> module;
  Evaluator evaluator;
};

TEST_F(EvaluatorTest, LoopsRunToCompletion) {
  ASSERT_TRUE(module);
  EXPECT_EQ(asInt(eval("gcd", {i(12), i(18)})), 6);
  EXPECT_EQ(asInt(eval("gcd", {i(0), i(-5)})), 5);
  EXPECT_EQ(asInt(eval("gcd", {i(0), i(0)})), 0);
  EXPECT_EQ(asDouble(eval("power", {f(2.0), i(10)})), 1024.0);
  EXPECT_EQ(asDouble(eval("power", {f(2.0), i(0)})), 1.0);
}

TEST_F(EvaluatorTest, CaseRegions) {
  Region *onlyX = &func("gcd").getCases()[0];
  EXPECT_EQ(asInt(eval("gcd", {i(-7), i(0)}, onlyX)), 7);
}

TEST_F(EvaluatorTest, NestedCalls) {
  EXPECT_EQ(asInt(eval("square_of_gcd", {i(12), i(18)})), 36);
}

TEST_F(EvaluatorTest, IEEESemanticsAreExact) {
  double inf = std::numeric_limits<double>::infinity();
  EXPECT_TRUE(std::isnan(asDouble(eval("fmul", {f(0.0), f(inf)}))));
  FailureOr<TypedAttr> negZero = eval("fmul", {f(-0.0), f(5.0)});
  ASSERT_TRUE(succeeded(negZero)) << evaluator.getLastError();
  EXPECT_TRUE(cast<FloatAttr>(*negZero).getValue().isNegZero());
  EXPECT_TRUE(std::isnan(asDouble(eval("maxnum", {f(NAN), f(1.0)}))));
  FailureOr<TypedAttr> picked = eval("pick", {i(0, 1), f32(3.0f)});
  ASSERT_TRUE(succeeded(picked)) << evaluator.getLastError();
  EXPECT_TRUE(cast<FloatAttr>(*picked).getValue().isNegZero());
}

TEST_F(EvaluatorTest, InvalidOperationsGiveTheMachinesNaN) {
  // The generated code's 0 * inf is the FPU's default NaN (negative on
  // x86); APFloat's is positive. copysign can tell them apart.
  volatile double zero = 0.0;
  volatile double inf = std::numeric_limits<double>::infinity();
  double machine = zero * inf;
  FailureOr<TypedAttr> invalid = eval("fmul", {f(0.0), f(inf)});
  ASSERT_TRUE(succeeded(invalid)) << evaluator.getLastError();
  APFloat nan = cast<FloatAttr>(*invalid).getValue();
  EXPECT_TRUE(nan.isNaN());
  EXPECT_EQ(nan.isNegative(), std::signbit(machine));
  // A NaN operand propagates with its sign, as in hardware.
  for (double operand : {std::copysign(NAN, 1.0), std::copysign(NAN, -1.0)}) {
    FailureOr<TypedAttr> propagated = eval("fmul", {f(operand), f(2.0)});
    ASSERT_TRUE(succeeded(propagated)) << evaluator.getLastError();
    EXPECT_EQ(cast<FloatAttr>(*propagated).getValue().isNegative(),
              std::signbit(operand));
  }
}

TEST_F(EvaluatorTest, IntegerWrapAndUnsigned) {
  EXPECT_EQ(asInt(eval("addi", {i(INT32_MAX, 32), i(1, 32)})), INT32_MIN);
  // 200 / 3 as unsigned i8 (bit pattern -56) is 66; signed -56 / 3 = -18.
  EXPECT_EQ(asInt(eval("udiv", {i(-56, 8), i(3, 8)})), 66);
  EXPECT_EQ(asInt(eval("sdiv", {i(-56, 8), i(3, 8)})), -18);
}

TEST_F(EvaluatorTest, UndefinedBehaviourIsNotFolded) {
  // Division by zero has no value: the evaluator says so instead of
  // guessing.
  EXPECT_TRUE(failed(eval("sdiv", {i(1, 8), i(0, 8)})));
  EXPECT_NE(evaluator.getLastError().find("arith.divsi"), std::string::npos);
}

TEST_F(EvaluatorTest, NonTerminatingLoopsGiveUp) {
  Evaluator small(Evaluator::Options{/*maxSteps=*/10000, /*maxCallDepth=*/8});
  EXPECT_TRUE(failed(small.evaluate(func("spin"), {i(1)})));
  EXPECT_NE(small.getLastError().find("gave up"), std::string::npos);
}

TEST_F(EvaluatorTest, ProgramIsNotModified) {
  std::string before, after;
  llvm::raw_string_ostream os1(before), os2(after);
  module->print(os1);
  (void)eval("gcd", {i(12), i(18)});
  (void)eval("fmul", {f(1.0), f(2.0)});
  module->print(os2);
  EXPECT_EQ(before, after);
}

} // namespace
