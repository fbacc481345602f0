// RUN: sa-run --import-exact-print %s | FileCheck %s
// (--import-exact-print: sparse_array.print's exact text, which lists the
// entries that are not the fill, 0 here, with round-trip digits.)
//
// Imported programs that upstream's --sparsifier gets wrong or rejects
// (LLVM 22.1.8), run against values computed independently (numpy, shown
// in the comments):
// - exp of a sparse vector into a dense vector: upstream fails ("failed to
//   legalize unresolved materialization"); here the derived fill is
//   exp(0) = 1: np.exp([1, 0, 0, 2, 0, -3, 0, 4]).
// - an i32 row product from 1: upstream fails ("'tensor.extract' op
//   incorrect number of indices"): np.prod(A, axis=1, dtype=np.int32) of
//   [[2, 3, 4, 5], [0, 7, 0, 0], [-1, -2, 65536, 65536]] = [120, 0, 0]
//   (65536 * 65536 wraps to 0).
// - SpMV with an inf in x: the dense program's 0 * inf is NaN, which
//   upstream's sparsifier skips (it computes [5, 0, inf]); A @ x in numpy
//   with A = [[1, 0, 2], [0, 0, 0], [0, 3, 0]], x = [1, inf, 2] is
//   [nan, nan, inf].
// - tensor.extract_slice of a CSR matrix (upstream needs
//   enable-runtime-library=false for slices): with the 4x5 matrix
//   M = [[1, 0, 2, 0, 0], [0, 0, 0, 0, 0], [0, 3, 0, 4, 0], [0, 0, 0, 0, 5.5]],
//   M[2:4, 1:4:2] = [[3, 4], [0, 0]] and the rank-reducing M[2, :] =
//   [0, 3, 0, 4, 0].
// - tensor.extract of a sparse tensor (upstream: "failed to legalize
//   unresolved materialization", with or without its runtime library):
//   M[2, 3] = 4 and M[1, 3] = 0 of CSR, M[3, 4] = 5.5 and M[3, 0] = 0 of
//   COO, M[2, :][1] = 3 of a sliced row.

#SV = #sparse_tensor.encoding<{ map = (d0) -> (d0 : compressed) }>
#CSR = #sparse_tensor.encoding<{ map = (d0, d1) -> (d0 : dense, d1 : compressed) }>
#DV = #sparse_tensor.encoding<{ map = (d0) -> (d0 : dense) }>
#COO = #sparse_tensor.encoding<{ map = (d0, d1) -> (d0 : compressed(nonunique), d1 : singleton) }>
#ew = { indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>], iterator_types = ["parallel"] }

func.func @exp_of(%a: tensor<8xf64, #SV>) -> tensor<8xf64> {
  %e = tensor.empty() : tensor<8xf64>
  %r = linalg.generic #ew ins(%a : tensor<8xf64, #SV>) outs(%e : tensor<8xf64>) {
  ^bb0(%x: f64, %o: f64):
    %y = math.exp %x : f64
    linalg.yield %y : f64
  } -> tensor<8xf64>
  return %r : tensor<8xf64>
}
func.func @rowprod(%A: tensor<3x4xi32, #CSR>) -> tensor<3xi32> {
  %one = arith.constant 1 : i32
  %e = tensor.empty() : tensor<3xi32>
  %y = linalg.fill ins(%one : i32) outs(%e : tensor<3xi32>) -> tensor<3xi32>
  %r = linalg.reduce ins(%A : tensor<3x4xi32, #CSR>) outs(%y : tensor<3xi32>) dimensions = [1]
    (%in: i32, %acc: i32) {
      %s = arith.muli %acc, %in : i32
      linalg.yield %s : i32
    }
  return %r : tensor<3xi32>
}
func.func @spmv(%A: tensor<3x3xf64, #CSR>, %x: tensor<3xf64>) -> tensor<3xf64> {
  %z = arith.constant 0.0 : f64
  %e = tensor.empty() : tensor<3xf64>
  %y = linalg.fill ins(%z : f64) outs(%e : tensor<3xf64>) -> tensor<3xf64>
  %r = linalg.matvec ins(%A, %x : tensor<3x3xf64, #CSR>, tensor<3xf64>) outs(%y : tensor<3xf64>) -> tensor<3xf64>
  return %r : tensor<3xf64>
}

func.func @window(%m: tensor<4x5xf64, #CSR>) -> tensor<2x2xf64, #CSR> {
  %r = tensor.extract_slice %m[2, 1] [2, 2] [1, 2] : tensor<4x5xf64, #CSR> to tensor<2x2xf64, #CSR>
  return %r : tensor<2x2xf64, #CSR>
}
func.func @row(%m: tensor<4x5xf64, #CSR>) -> tensor<5xf64, #SV> {
  %r = tensor.extract_slice %m[2, 0] [1, 5] [1, 1] : tensor<4x5xf64, #CSR> to tensor<5xf64, #SV>
  return %r : tensor<5xf64, #SV>
}

func.func @main() {
  %va = arith.constant dense<[1.0, 0.0, 0.0, 2.0, 0.0, -3.0, 0.0, 4.0]> : tensor<8xf64>
  %a = sparse_tensor.convert %va : tensor<8xf64> to tensor<8xf64, #SV>
  %r1 = call @exp_of(%a) : (tensor<8xf64, #SV>) -> tensor<8xf64>
  %pr1 = sparse_tensor.convert %r1 : tensor<8xf64> to tensor<8xf64, #DV>
  sparse_tensor.print %pr1 : tensor<8xf64, #DV>
  %di = arith.constant dense<[[2, 3, 4, 5], [0, 7, 0, 0], [-1, -2, 65536, 65536]]> : tensor<3x4xi32>
  %B = sparse_tensor.convert %di : tensor<3x4xi32> to tensor<3x4xi32, #CSR>
  %r2 = call @rowprod(%B) : (tensor<3x4xi32, #CSR>) -> tensor<3xi32>
  %pr2 = sparse_tensor.convert %r2 : tensor<3xi32> to tensor<3xi32, #DV>
  sparse_tensor.print %pr2 : tensor<3xi32, #DV>
  %dm = arith.constant dense<[[1.0, 0.0, 2.0], [0.0, 0.0, 0.0], [0.0, 3.0, 0.0]]> : tensor<3x3xf64>
  %M = sparse_tensor.convert %dm : tensor<3x3xf64> to tensor<3x3xf64, #CSR>
  %x = arith.constant dense<[1.0, 0x7FF0000000000000, 2.0]> : tensor<3xf64>
  %r3 = call @spmv(%M, %x) : (tensor<3x3xf64, #CSR>, tensor<3xf64>) -> tensor<3xf64>
  %pr3 = sparse_tensor.convert %r3 : tensor<3xf64> to tensor<3xf64, #DV>
  sparse_tensor.print %pr3 : tensor<3xf64, #DV>
  %dw = arith.constant dense<[[1.0, 0.0, 2.0, 0.0, 0.0], [0.0, 0.0, 0.0, 0.0, 0.0], [0.0, 3.0, 0.0, 4.0, 0.0], [0.0, 0.0, 0.0, 0.0, 5.5]]> : tensor<4x5xf64>
  %W = sparse_tensor.convert %dw : tensor<4x5xf64> to tensor<4x5xf64, #CSR>
  %r4 = call @window(%W) : (tensor<4x5xf64, #CSR>) -> tensor<2x2xf64, #CSR>
  sparse_tensor.print %r4 : tensor<2x2xf64, #CSR>
  %r5 = call @row(%W) : (tensor<4x5xf64, #CSR>) -> tensor<5xf64, #SV>
  sparse_tensor.print %r5 : tensor<5xf64, #SV>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %x1 = tensor.extract %W[%c2, %c3] : tensor<4x5xf64, #CSR>
  %x2 = tensor.extract %W[%c1, %c3] : tensor<4x5xf64, #CSR>
  %C = sparse_tensor.convert %dw : tensor<4x5xf64> to tensor<4x5xf64, #COO>
  %x3 = tensor.extract %C[%c3, %c4] : tensor<4x5xf64, #COO>
  %x4 = tensor.extract %C[%c3, %c0] : tensor<4x5xf64, #COO>
  %x5 = tensor.extract %r5[%c1] : tensor<5xf64, #SV>
  vector.print %x1 : f64
  vector.print %x2 : f64
  vector.print %x3 : f64
  vector.print %x4 : f64
  vector.print %x5 : f64
  return
}
// CHECK: # fill: 0
// CHECK-NEXT: 1 8
// CHECK-NEXT: 8
// CHECK-NEXT: 1 2.718281828459045
// CHECK-NEXT: 2 1
// CHECK-NEXT: 3 1
// CHECK-NEXT: 4 7.38905609893065
// CHECK-NEXT: 5 1
// CHECK-NEXT: 6 0.049787068367863944
// CHECK-NEXT: 7 1
// CHECK-NEXT: 8 54.598150033144236
// CHECK: # fill: 0
// CHECK-NEXT: 1 1
// CHECK-NEXT: 3
// CHECK-NEXT: 1 120
// CHECK: # fill: 0
// CHECK-NEXT: 1 3
// CHECK-NEXT: 3
// CHECK-NEXT: 1 nan
// CHECK-NEXT: 2 nan
// CHECK-NEXT: 3 inf
// CHECK: # fill: 0
// CHECK-NEXT: 2 2
// CHECK-NEXT: 2 2
// CHECK-NEXT: 1 1 3
// CHECK-NEXT: 1 2 4
// CHECK: # fill: 0
// CHECK-NEXT: 1 2
// CHECK-NEXT: 5
// CHECK-NEXT: 2 3
// CHECK-NEXT: 4 4
// CHECK-NEXT: 4{{$}}
// CHECK-NEXT: 0{{$}}
// CHECK-NEXT: 5.5{{$}}
// CHECK-NEXT: 0{{$}}
// CHECK-NEXT: 3{{$}}
