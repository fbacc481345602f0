// RUN: sa-run --print-llvm %s | FileCheck %s
// RUN: sa-run --verify-each -O2 %s
// The JIT's LLVM pipeline (lib/ExecutionEngine/Optimizer.cpp) compiles
// small what does not pay for its code:
// exact SpMV's recount of a row (a sum of -0.0, or x holding inf/NaN) is a
// fallback the lowering marks with llvm.expect: its loops are neither
// vectorized nor unrolled. Shapes are dynamic so that no loop is unrolled
// fully; SpGEMM's loops keep LLVM's defaults.

sparse_array.func @add_f64(%x: f64, %y: f64) -> f64
    attributes {commutative, identity = #sparse_array.identity<-0.0 : f64>} {
  %r = arith.addf %x, %y : f64
  sparse_array.yield %r : f64
}
sparse_array.func @mul_f64(%x: f64, %y: f64) -> f64
    attributes {commutative, identity = #sparse_array.identity<1.0 : f64>} {
  %r = arith.mulf %x, %y : f64
  sparse_array.yield %r : f64
}
sparse_array.func @fadd(%x: f64, %y: f64) -> f64
    attributes {commutative, associative, identity = #sparse_array.identity<0.0 : f64>} {
  %r = arith.addf %x, %y : f64
  sparse_array.yield %r : f64
}
sparse_array.func @fmul(%x: f64, %y: f64) -> f64
    attributes {commutative, annihilator = #sparse_array.annihilator<0.0 : f64>} {
  %r = arith.mulf %x, %y : f64
  sparse_array.yield %r : f64
}

!csr = !sparse_array.array<?x?xf64, #sparse_array.format<[dense, compressed]>>
!x = !sparse_array.array<?xf64>
!y = !sparse_array.array<?xf64>

// CHECK-LABEL: define {{.*}} @spmv_exact(
func.func @spmv_exact(%a: !csr, %x: !x) -> !y {
  %r = sparse_array.kernel ins(%a, %x : !csr, !x) -> !y {
  ^bb0(%i: index, %j: index, %A: !csr, %X: !x):
    %aij = sparse_array.access %A[%i, %j] : !csr
    %xj = sparse_array.access %X[%j] : !x
    %p = sparse_array.apply @mul_f64(%aij, %xj) : (f64, f64) -> f64
    %s = sparse_array.reduce_over [%j] %p with @add_f64 : f64
    sparse_array.yield %s : f64
  }
  return %r : !y
}

// CHECK-LABEL: define {{.*}} @spgemm(
func.func @spgemm(%a: !csr, %b: !csr) -> !csr {
  %r = sparse_array.kernel ins(%a, %b : !csr, !csr) -> !csr {
  ^bb0(%i: index, %j: index, %k: index, %P: !csr, %Q: !csr):
    %p = sparse_array.access %P[%i, %k] : !csr
    %q = sparse_array.access %Q[%k, %j] : !csr
    %pq = sparse_array.apply @fmul(%p, %q) : (f64, f64) -> f64
    %s = sparse_array.reduce_over [%k] %pq with @fadd : f64
    sparse_array.yield %s : f64
  }
  return %r : !csr
}

func.func @main() {
  return
}

// The guard's fallback branch, expected not taken.
// CHECK-DAG: !{!"branch_weights", !"expected", i32 1, i32 2000}
// CHECK-DAG: !{!"llvm.loop.vectorize.enable", i32 0}
// CHECK-DAG: !{!"llvm.loop.interleave.count", i32 1}
// The pipeline's own mark carries an i32 (the vectorizer's has none).
// CHECK-DAG: !{!"llvm.loop.unroll.disable", i32 0}
// CHECK-NOT: !{!"llvm.loop.unroll.runtime.disable", i32 0}
