// RUN: sa-opt %s --sparse-array-exact-libcalls | FileCheck %s
// Every defined LLVM function is marked so that LLVM's library-call
// simplifier does not rewrite pow(2^n, x) into exp2(n * x) or pow(10, x)
// into exp10(x) (issue 55, class 13); declarations are left alone, and
// passthrough attributes already there are kept. The values are checked
// by Integration/Exactness/pow-constant-base.mlir.

// CHECK-LABEL: llvm.func @kernel
// CHECK-SAME: passthrough = ["no-builtin-exp2", "no-builtin-exp2f", "no-builtin-exp2l", "no-builtin-exp10", "no-builtin-exp10f", "no-builtin-exp10l"]
llvm.func @kernel(%y: f64) -> f64 {
  %c = llvm.mlir.constant(9.007199254740992E+15 : f64) : f64
  %r = llvm.intr.pow(%c, %y) : (f64, f64) -> f64
  llvm.return %r : f64
}

// CHECK-LABEL: llvm.func @marked
// CHECK-SAME: passthrough = ["nounwind", "no-builtin-exp2"
llvm.func @marked() attributes {passthrough = ["nounwind"]} {
  llvm.return
}

// CHECK-LABEL: llvm.func @pow(f64, f64) -> f64
// CHECK-NOT: passthrough
llvm.func @pow(f64, f64) -> f64
