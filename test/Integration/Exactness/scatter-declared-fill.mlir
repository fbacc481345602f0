// RUN: sa-run %s | FileCheck %s
// RUN: sa-run --workspace=hash --bounds-checks %s | FileCheck %s
// RUN: sa-opt %s --sparse-array-fuse --sparse-array-derive-algebra --sparse-array-build-lattices | FileCheck %s --check-prefix=PLAN
// Issue 14, class 4: products that a row-wise (scatter) plan would compute
// from the stored products only, with a declared result fill other than
// the value where no product is (the empty sum 0, or false). Every point
// must then be stored, so these are not scatter plans; the same product
// with its natural fill still is. Expected values by hand (numpy: A @ x,
// A @ B, and the Boolean product).

sparse_array.func @add(%x: f64, %y: f64) -> f64
    attributes {commutative, associative, identity = #sparse_array.identity<0.0 : f64>} {
  %r = arith.addf %x, %y : f64
  sparse_array.yield %r : f64
}
sparse_array.func @mul(%x: f64, %y: f64) -> f64
    attributes {commutative, annihilator = #sparse_array.annihilator<0.0 : f64>} {
  %r = arith.mulf %x, %y : f64
  sparse_array.yield %r : f64
}
sparse_array.func @lor(%x: i1, %y: i1) -> i1
    attributes {commutative, associative, idempotent, identity = #sparse_array.identity<false>, annihilator = #sparse_array.annihilator<true>} {
  %r = arith.ori %x, %y : i1
  sparse_array.yield %r : i1
}
sparse_array.func @land(%x: i1, %y: i1) -> i1
    attributes {commutative, associative, idempotent, identity = #sparse_array.identity<true>, annihilator = #sparse_array.annihilator<false>} {
  %r = arith.andi %x, %y : i1
  sparse_array.yield %r : i1
}

!csc = !sparse_array.array<2x2xf64, #sparse_array.format<[dense, compressed], order = [1, 0]>>
!csr = !sparse_array.array<2x2xf64, #sparse_array.format<[dense, compressed]>>
!sv = !sparse_array.array<2xf64, #sparse_array.format<[compressed]>>
!y7 = !sparse_array.array<2xf64, #sparse_array.format<[compressed], fill = 7.0 : f64>>
!y0 = !sparse_array.array<2xf64, #sparse_array.format<[compressed]>>
!c7 = !sparse_array.array<2x2xf64, #sparse_array.format<[dense, compressed], fill = 7.0 : f64>>
!bcsr = !sparse_array.array<3x3xi1, #sparse_array.format<[dense, compressed]>>
!bv = !sparse_array.array<3xi1, #sparse_array.format<[compressed]>>
!bvt = !sparse_array.array<3xi1, #sparse_array.format<[compressed], fill = true>>

// PLAN-LABEL: func.func @main
// PLAN: sparse_array.reduce_over {{.*}} {plan = #sparse_array.reduction<strategy = identity{{[,>].*}}, scatter = array<i32: 0, 1>}
// PLAN-NOT: {scatter =
func.func @main() {
  %a = sparse_array.constant sparse<[[0, 1]], [3.0]> : tensor<2x2xf64> : !csc
  %x = sparse_array.constant sparse<[[1]], [5.0]> : tensor<2xf64> : !sv

  // y(i) = sum_k A(i, k) x(k) over CSC A (with fill 0 a scatter of A's
  // columns k where x is stored): [15, 0].
  // CHECK:      # fill: 0
  // CHECK-NEXT: 1 1
  // CHECK-NEXT: 2
  // CHECK-NEXT: 1 15
  %y0 = sparse_array.kernel ins(%x, %a : !sv, !csc) -> !y0 {
  ^bb0(%i: index, %k: index, %X: !sv, %A: !csc):
    %xv = sparse_array.access %X[%k] : !sv
    %av = sparse_array.access %A[%i, %k] : !csc
    %p = sparse_array.apply @mul(%av, %xv) : (f64, f64) -> f64
    %s = sparse_array.reduce_over [%k] %p with @add : f64
    sparse_array.yield %s : f64
  }
  sparse_array.print %y0 : !y0

  // The same with fill 7: y(1) = 0 is stored.
  // CHECK:      # fill: 7
  // CHECK-NEXT: 1 2
  // CHECK-NEXT: 2
  // CHECK-NEXT: 1 15
  // CHECK-NEXT: 2 0
  %y7 = sparse_array.kernel ins(%x, %a : !sv, !csc) -> !y7 {
  ^bb0(%i: index, %k: index, %X: !sv, %A: !csc):
    %xv = sparse_array.access %X[%k] : !sv
    %av = sparse_array.access %A[%i, %k] : !csc
    %p = sparse_array.apply @mul(%av, %xv) : (f64, f64) -> f64
    %s = sparse_array.reduce_over [%k] %p with @add : f64
    sparse_array.yield %s : f64
  }
  sparse_array.print %y7 : !y7

  // CSR x CSR -> CSR with fill 7: A = [[1, 2], [0, 0]], B = [[3, 0],
  // [0, 4]]: C = [[3, 8], [0, 0]], every entry stored.
  // CHECK:      # fill: 7
  // CHECK-NEXT: 2 4
  // CHECK-NEXT: 2 2
  // CHECK-NEXT: 1 1 3
  // CHECK-NEXT: 1 2 8
  // CHECK-NEXT: 2 1 0
  // CHECK-NEXT: 2 2 0
  %ma = sparse_array.constant sparse<[[0, 0], [0, 1]], [1.0, 2.0]> : tensor<2x2xf64> : !csr
  %mb = sparse_array.constant sparse<[[0, 0], [1, 1]], [3.0, 4.0]> : tensor<2x2xf64> : !csr
  %c = sparse_array.kernel ins(%ma, %mb : !csr, !csr) -> !c7 {
  ^bb0(%i: index, %j: index, %k: index, %A: !csr, %B: !csr):
    %av = sparse_array.access %A[%i, %k] : !csr
    %bv = sparse_array.access %B[%k, %j] : !csr
    %p = sparse_array.apply @mul(%av, %bv) : (f64, f64) -> f64
    %s = sparse_array.reduce_over [%k] %p with @add : f64
    sparse_array.yield %s : f64
  }
  sparse_array.print %c : !c7

  // Boolean v x M (BFS push) with result fill true: v = {0}, M(0, 2) =
  // true: [false, false, true], the falses stored.
  // CHECK:      # fill: 1
  // CHECK-NEXT: 1 2
  // CHECK-NEXT: 3
  // CHECK-NEXT: 1 0
  // CHECK-NEXT: 2 0
  %bm = sparse_array.constant sparse<[[0, 2], [1, 0]], [true, true]> : tensor<3x3xi1> : !bcsr
  %fv = sparse_array.constant sparse<[[0]], [true]> : tensor<3xi1> : !bv
  %bres = sparse_array.kernel ins(%fv, %bm : !bv, !bcsr) -> !bvt {
  ^bb0(%j: index, %k: index, %F: !bv, %M: !bcsr):
    %f = sparse_array.access %F[%k] : !bv
    %m = sparse_array.access %M[%k, %j] : !bcsr
    %p = sparse_array.apply @land(%f, %m) : (i1, i1) -> i1
    %s = sparse_array.reduce_over [%k] %p with @lor : i1
    sparse_array.yield %s : i1
  }
  sparse_array.print %bres : !bvt
  return
}
