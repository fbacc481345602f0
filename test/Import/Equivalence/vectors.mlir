// REQUIRES: mlir-sparsifier
// RUN: sa-run %s | FileCheck %s
// RUN: mlir-opt %s --sparsifier | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_c_runner_utils,%mlir_runner_utils | FileCheck %s
//
// Dense results read with vector.transfer_read and printed with
// vector.print, both ways through the same checks (values with few
// digits): y = A x of a CSR matrix read whole, from an offset past its end
// (the padding, -1, where a coordinate lies outside), a 2-D read of a
// scaled matrix, and the same matrix read transposed (a permutation map).
// A = [[1, 0, 2, 0], [0, 0.5, 0, 0], [0, 0, 0, 0], [-1, 0, 0, 3]],
// x = [1, 2, 3, 4]: y = [7, 1, 0, 11]; 2 A's rows 0-1 and columns 0-2;
// A times y reversed (tensor.from_elements of y's elements) is
// [13, 0, 0, 10].

#CSR = #sparse_tensor.encoding<{ map = (d0, d1) -> (d0 : dense, d1 : compressed) }>
#ew = { indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"] }

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %pad = arith.constant -1.0 : f64
  %d = arith.constant dense<[[1.0, 0.0, 2.0, 0.0], [0.0, 0.5, 0.0, 0.0], [0.0, 0.0, 0.0, 0.0], [-1.0, 0.0, 0.0, 3.0]]> : tensor<4x4xf64>
  %A = sparse_tensor.convert %d : tensor<4x4xf64> to tensor<4x4xf64, #CSR>
  %x = arith.constant dense<[1.0, 2.0, 3.0, 4.0]> : tensor<4xf64>
  %z = arith.constant 0.0 : f64
  %e = tensor.empty() : tensor<4xf64>
  %y0 = linalg.fill ins(%z : f64) outs(%e : tensor<4xf64>) -> tensor<4xf64>
  %y = linalg.matvec ins(%A, %x : tensor<4x4xf64, #CSR>, tensor<4xf64>) outs(%y0 : tensor<4xf64>) -> tensor<4xf64>
  // CHECK: ( 7, 1, 0, 11 )
  %v = vector.transfer_read %y[%c0], %pad : tensor<4xf64>, vector<4xf64>
  vector.print %v : vector<4xf64>
  // CHECK-NEXT: ( 0, 11, -1, -1 )
  %w = vector.transfer_read %y[%c2], %pad : tensor<4xf64>, vector<4xf64>
  vector.print %w : vector<4xf64>
  %em = tensor.empty() : tensor<4x4xf64>
  %m = linalg.generic #ew ins(%A : tensor<4x4xf64, #CSR>) outs(%em : tensor<4x4xf64>) {
  ^bb0(%a: f64, %o: f64):
    %two = arith.constant 2.0 : f64
    %r = arith.mulf %a, %two : f64
    linalg.yield %r : f64
  } -> tensor<4x4xf64>
  // CHECK-NEXT: ( ( 2, 0, 4 ), ( 0, 1, 0 ) )
  %r2 = vector.transfer_read %m[%c0, %c0], %pad {in_bounds = [true, true]} : tensor<4x4xf64>, vector<2x3xf64>
  vector.print %r2 : vector<2x3xf64>
  // CHECK-NEXT: ( ( 2, 0 ), ( 0, 1 ), ( 4, 0 ) )
  %t = vector.transfer_read %m[%c0, %c0], %pad {permutation_map = affine_map<(i, j) -> (j, i)>} : tensor<4x4xf64>, vector<3x2xf64>
  vector.print %t : vector<3x2xf64>
  // y reversed with tensor.from_elements, then A times it: [13, 0, 0, 10].
  %c3 = arith.constant 3 : index
  %y0e = tensor.extract %y[%c0] : tensor<4xf64>
  %y1e = tensor.extract %y[%c1] : tensor<4xf64>
  %y2e = tensor.extract %y[%c2] : tensor<4xf64>
  %y3e = tensor.extract %y[%c3] : tensor<4xf64>
  %rev = tensor.from_elements %y3e, %y2e, %y1e, %y0e : tensor<4xf64>
  %u = linalg.matvec ins(%A, %rev : tensor<4x4xf64, #CSR>, tensor<4xf64>) outs(%y0 : tensor<4xf64>) -> tensor<4xf64>
  // CHECK-NEXT: ( 13, 0, 0, 10 )
  %uv = vector.transfer_read %u[%c0], %pad : tensor<4xf64>, vector<4xf64>
  vector.print %uv : vector<4xf64>
  bufferization.dealloc_tensor %A : tensor<4x4xf64, #CSR>
  return
}
