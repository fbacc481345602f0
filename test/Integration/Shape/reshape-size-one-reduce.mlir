// RUN: sa-run %s | FileCheck %s
// RUN: sa-opt %s --sparse-array-fuse | FileCheck %s --check-prefix=FUSE
// A scalar expanded to [1], reshaped to 1x1 (a split into [1, 1]: the
// kernel reads it at linearize(i, j)) and reduced along the second
// dimension. Fusing the expand_dims view dropped that read and with it the
// only use of the reduced variable: the fused kernel failed to verify
// ("index variable 1 is not used by any access"; found by
// python/tests/fuzz_programs.py). The view now stays a kernel of its own.
// numpy: np.all(np.full((1, 1), 3.0) != 2.0, axis=-1) = [True];
// with 2.0 in place of 3.0: [False].

sparse_array.func @ne(%x: f64, %y: f64) -> i1 {
  %r = arith.cmpf une, %x, %y : f64
  sparse_array.yield %r : i1
}
sparse_array.func @and(%x: i1, %y: i1) -> i1
    attributes {commutative, associative, idempotent,
                identity = #sparse_array.identity<1 : i1>,
                annihilator = #sparse_array.annihilator<0 : i1>} {
  %r = arith.andi %x, %y : i1
  sparse_array.yield %r : i1
}
!s = !sparse_array.array<f64, #sparse_array.format<[], fill = 1.0 : f64>>
!t = !sparse_array.array<f64, #sparse_array.format<[], fill = 2.0 : f64>>
!v = !sparse_array.array<1xf64, #sparse_array.format<[dense], fill = 1.0 : f64>>
!m = !sparse_array.array<1x1xf64, #sparse_array.format<[dense, dense], fill = 1.0 : f64>>
!b = !sparse_array.array<1x1xi1, #sparse_array.format<[dense, dense], fill = true>>
!r = !sparse_array.array<1xi1, #sparse_array.format<[dense], fill = true>>

// FUSE-LABEL: func.func @all_ne(
// FUSE: sparse_array.kernel
// FUSE: sparse_array.kernel
// FUSE: sparse_array.reduce_over
func.func @all_ne(%x: !s, %y: !t) -> !r {
  %e = sparse_array.expand_dims %x [0] : !s -> !v
  %m = sparse_array.reshape %e [1, 1] : !v -> !m
  %c = sparse_array.map @ne(%m, %y) : (!m, !t) -> !b
  %r = sparse_array.reduce @and %c dims [1] : !b -> !r
  return %r : !r
}

func.func @main() {
  %x = sparse_array.constant dense<3.0> : tensor<f64> : !s
  %two = sparse_array.constant dense<2.0> : tensor<f64> : !s
  %y = sparse_array.constant dense<2.0> : tensor<f64> : !t
  // [True] is the fill: rank 1, no entry printed, size 1.
  // CHECK:      # fill: 1
  // CHECK-NEXT: 1 0
  // CHECK-NEXT: 1{{$}}
  %r = func.call @all_ne(%x, %y) : (!s, !t) -> !r
  sparse_array.print %r : !r
  // [False]: one entry, at (1-based) coordinate 1.
  // CHECK-NEXT: # fill: 1
  // CHECK-NEXT: 1 1
  // CHECK-NEXT: 1
  // CHECK-NEXT: 1 0
  %q = func.call @all_ne(%two, %y) : (!s, !t) -> !r
  sparse_array.print %q : !r
  return
}
