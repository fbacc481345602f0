// RUN: sa-run %s | FileCheck %s
// RUN: sa-opt %s --sparse-array-import-sparse-tensor | FileCheck %s --check-prefix=IR
//
// Control flow carrying tensors, imported by retyping the loops' and
// branches' values to arrays in place: three steps of x = A x (scf.for
// carrying a dense vector), a loop carrying a CSR matrix (B = 3 B each
// step: a sparse result as the loop-carried value), scf.if choosing between
// two tensors, and scf.while halving x while its first entry is at least 1
// (before/after regions and scf.condition carrying it). Upstream's
// sparsifier rejects these loops ("Yield operand #0 is not equivalent to
// the corresponding iter bbArg"). Reference (numpy), with
// A = [[1, 0, 2, 0], [0, .5, 0, 0], [0, 0, 0, 0], [-1, 0, 0, 3]] and
// x0 = [1, 2, 3, 4]: A @ A @ A @ x0 = [7, .25, 0, 71]; 27 * A; x0 (7 is not
// above 10); [7, .25, 0, 71] / 8 = [.875, .03125, 0, 8.875].
// CHECK:      ---- Sparse Tensor ----
// CHECK-NEXT: nse = 3
// CHECK-NEXT: dim = ( 4 )
// CHECK-NEXT: lvl = ( 4 )
// CHECK-NEXT: pos[0] : ( 0, 3 )
// CHECK-NEXT: crd[0] : ( 0, 1, 3 )
// CHECK-NEXT: values : ( 7, 0.25, 71 )
// CHECK-NEXT: ----
// CHECK:      ---- Sparse Tensor ----
// CHECK-NEXT: nse = 5
// CHECK-NEXT: dim = ( 4, 4 )
// CHECK-NEXT: lvl = ( 4, 4 )
// CHECK-NEXT: pos[1] : ( 0, 2, 3, 3, 5 )
// CHECK-NEXT: crd[1] : ( 0, 2, 1, 0, 3 )
// CHECK-NEXT: values : ( 27, 54, 13.5, -27, 81 )
// CHECK-NEXT: ----
// CHECK:      ---- Sparse Tensor ----
// CHECK-NEXT: nse = 4
// CHECK-NEXT: dim = ( 4 )
// CHECK-NEXT: lvl = ( 4 )
// CHECK-NEXT: pos[0] : ( 0, 4 )
// CHECK-NEXT: crd[0] : ( 0, 1, 2, 3 )
// CHECK-NEXT: values : ( 1, 2, 3, 4 )
// CHECK-NEXT: ----
// CHECK:      ---- Sparse Tensor ----
// CHECK-NEXT: nse = 3
// CHECK-NEXT: dim = ( 4 )
// CHECK-NEXT: lvl = ( 4 )
// CHECK-NEXT: pos[0] : ( 0, 3 )
// CHECK-NEXT: crd[0] : ( 0, 1, 3 )
// CHECK-NEXT: values : ( 0.875, 0.03125, 8.875 )
// CHECK-NEXT: ----

// The loops carry arrays: initial values, region arguments, yields and
// results retyped in place.
// IR-LABEL: func.func @main()
// IR: %[[X3:.*]] = scf.for %{{.*}} iter_args(%[[X:.*]] = %{{.*}}) -> (!sparse_array.array<4xf64>) {
// IR: %[[Y:.*]] = func.call @spmv(%{{.*}}, %[[X]])
// IR: scf.yield %[[Y]] : !sparse_array.array<4xf64>
// IR: scf.for {{.*}} -> (!sparse_array.array<4x4xf64, #{{.*}}>) {
// IR: sparse_array.kernel
// IR: scf.yield %{{.*}} : !sparse_array.array<4x4xf64,
// IR: scf.if %{{.*}} -> (!sparse_array.array<4xf64>) {
// IR: scf.yield %[[X3]] : !sparse_array.array<4xf64>
// IR: scf.while (%{{.*}} = %[[X3]]) : (!sparse_array.array<4xf64>) -> !sparse_array.array<4xf64> {
// IR: sparse_array.extract
// IR: scf.condition(%{{.*}}) %{{.*}} : !sparse_array.array<4xf64>
// IR: ^bb0(%{{.*}}: !sparse_array.array<4xf64>):
// IR-NOT: tensor<

#CSR = #sparse_tensor.encoding<{ map = (d0, d1) -> (d0 : dense, d1 : compressed) }>
#SV = #sparse_tensor.encoding<{ map = (d0) -> (d0 : compressed) }>
#ew = { indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"] }
#half = { indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>], iterator_types = ["parallel"] }

func.func @spmv(%A: tensor<4x4xf64, #CSR>, %x: tensor<4xf64>) -> tensor<4xf64> {
  %z = arith.constant 0.0 : f64
  %e = tensor.empty() : tensor<4xf64>
  %y = linalg.fill ins(%z : f64) outs(%e : tensor<4xf64>) -> tensor<4xf64>
  %r = linalg.matvec ins(%A, %x : tensor<4x4xf64, #CSR>, tensor<4xf64>) outs(%y : tensor<4xf64>) -> tensor<4xf64>
  return %r : tensor<4xf64>
}

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %d = arith.constant dense<[[1.0, 0.0, 2.0, 0.0], [0.0, 0.5, 0.0, 0.0], [0.0, 0.0, 0.0, 0.0], [-1.0, 0.0, 0.0, 3.0]]> : tensor<4x4xf64>
  %A = sparse_tensor.convert %d : tensor<4x4xf64> to tensor<4x4xf64, #CSR>
  %x0 = arith.constant dense<[1.0, 2.0, 3.0, 4.0]> : tensor<4xf64>
  %x3 = scf.for %k = %c0 to %c3 step %c1 iter_args(%x = %x0) -> (tensor<4xf64>) {
    %y = func.call @spmv(%A, %x) : (tensor<4x4xf64, #CSR>, tensor<4xf64>) -> tensor<4xf64>
    scf.yield %y : tensor<4xf64>
  }
  %p1 = sparse_tensor.convert %x3 : tensor<4xf64> to tensor<4xf64, #SV>
  sparse_tensor.print %p1 : tensor<4xf64, #SV>

  %B3 = scf.for %k = %c0 to %c3 step %c1 iter_args(%B = %A) -> (tensor<4x4xf64, #CSR>) {
    %e = tensor.empty() : tensor<4x4xf64, #CSR>
    %t = linalg.generic #ew ins(%B : tensor<4x4xf64, #CSR>) outs(%e : tensor<4x4xf64, #CSR>) {
    ^bb0(%v: f64, %o: f64):
      %three = arith.constant 3.0 : f64
      %w = arith.mulf %v, %three : f64
      linalg.yield %w : f64
    } -> tensor<4x4xf64, #CSR>
    scf.yield %t : tensor<4x4xf64, #CSR>
  }
  sparse_tensor.print %B3 : tensor<4x4xf64, #CSR>

  %first = tensor.extract %x3[%c0] : tensor<4xf64>
  %big = arith.constant 10.0 : f64
  %cond = arith.cmpf ogt, %first, %big : f64
  %s = scf.if %cond -> (tensor<4xf64>) {
    scf.yield %x3 : tensor<4xf64>
  } else {
    scf.yield %x0 : tensor<4xf64>
  }
  %p2 = sparse_tensor.convert %s : tensor<4xf64> to tensor<4xf64, #SV>
  sparse_tensor.print %p2 : tensor<4xf64, #SV>

  %one = arith.constant 1.0 : f64
  %h = scf.while (%x = %x3) : (tensor<4xf64>) -> tensor<4xf64> {
    %f = tensor.extract %x[%c0] : tensor<4xf64>
    %more = arith.cmpf oge, %f, %one : f64
    scf.condition(%more) %x : tensor<4xf64>
  } do {
  ^bb0(%x: tensor<4xf64>):
    %e = tensor.empty() : tensor<4xf64>
    %y = linalg.generic #half ins(%x : tensor<4xf64>) outs(%e : tensor<4xf64>) {
    ^bb0(%v: f64, %o: f64):
      %two = arith.constant 2.0 : f64
      %w = arith.divf %v, %two : f64
      linalg.yield %w : f64
    } -> tensor<4xf64>
    scf.yield %y : tensor<4xf64>
  }
  %p3 = sparse_tensor.convert %h : tensor<4xf64> to tensor<4xf64, #SV>
  sparse_tensor.print %p3 : tensor<4xf64, #SV>
  return
}
