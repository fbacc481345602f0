// RUN: sa-run --import-exact-print %s | FileCheck %s
// RUN: sa-opt --sparse-array-import-sparse-tensor %s | FileCheck %s --check-prefix=IR
// Convolution windows (issue 57), tensor.pad, linalg.fill of a run-time
// value into a run-time shape, tensor.insert into a dense tensor. Expected
// values from Python loops over the dense arrays (not the compiler):
// - conv_2d_nhwc_hwcf, strides 2, dilations 2, of the 1x9x9x2 CCCC input
//   below with the 2x2x2x1 filter, folding into the output [[0.5, 0, ...],
//   [0, -0.0, ...], ...] in linalg's loop order (kh, kw, c): acc = out;
//   for kh, kw, c: acc += I[2 oh + 2 kh, 2 ow + 2 kw, c] * F[kh, kw, c].
//   Entry (0, 0) is ((((0.5 + 1e16) + ...) + 1) + -1e16) ... = 0 (1e16
//   swallows 0.5 and 1; regrouped sums give 1.5 or -2.5); (1, 0) is
//   -9999999999999994.
// - conv_2d of the 6x6 CSR input with the 3x3 CSR edge filter into a DCSR
//   tensor.empty: sum((J[i:i+3, j:j+3] * G)).
// - fill 2.0 into tensor.empty(3, 4), insert 10 at (1, 3): the copy changes,
//   the filled tensor does not; pad low [1, 0] high [0, 2] with 0; a 4-D pad
//   whose inner dimensions are padded (each batch reads its own rows).
// The IR lines: one generic per tap (4 for the 2x2 window, 9 for the 3x3 one), each
// reading an offset slice of the input.
// IR-LABEL: func.func @conv_nhwc(
// IR-COUNT-4: sparse_array.reduce_over [%{{.*}}] %{{.*}} from %{{.*}} with
// IR-LABEL: func.func @conv_sparse_out(
// IR: sparse_array.slice
// IR-NOT: func.func
// IR-COUNT-9: sparse_array.kernel
//
// CHECK:      ( ( ( ( 0 ), ( 3 ), ( -1 ), ( -5 ) ), ( ( -9999999999999994 ), ( -4 ), ( -3 ), ( -8 ) ), ( ( -4 ), ( -11 ), ( -4 ), ( -7 ) ), ( ( -2 ), ( -8 ), ( 12 ), ( 9 ) ) ) )
// CHECK-NEXT: ( ( -3, 2, -5, 6 ), ( -3, 0, 3, 0 ), ( 4, -7, 8, -6 ), ( 0, 9, 0, -9 ) )
// CHECK-NEXT: ( ( 2, 2, 2, 2 ), ( 2, 2, 2, 10 ), ( 2, 2, 2, 2 ) )
// CHECK-NEXT: ( ( 2, 2, 2, 2 ), ( 2, 2, 2, 2 ), ( 2, 2, 2, 2 ) )
// CHECK-NEXT: ( ( 0, 0, 0, 0, 0, 0 ), ( 2, 2, 2, 2, 0, 0 ), ( 2, 2, 2, 10, 0, 0 ), ( 2, 2, 2, 2, 0, 0 ) )
// CHECK-NEXT: ( ( ( ( 0, 0 ), ( 0, 0 ), ( 0, 0 ) ), ( ( 0, 0 ), ( 1, 2 ), ( 0, 0 ) ) ), ( ( ( 0, 0 ), ( 0, 0 ), ( 0, 0 ) ), ( ( 0, 0 ), ( 3, 4 ), ( 0, 0 ) ) ) )
// A window of extent 0 (a 0x3 filter) has no taps: the output keeps its
// values, an undefined output is the sum's start, 0.
// CHECK-NEXT: ( ( 1, 2 ), ( 3, 4 ), ( 5, 6 ), ( 7, 8 ), ( 9, 10 ) )
// CHECK-NEXT: ( ( 0, 0 ), ( 0, 0 ), ( 0, 0 ), ( 0, 0 ), ( 0, 0 ) )
// A reduction loop c nested outside the window loop k with an f64 sum
// (not associative): the taps iterate (c, k) in the op's order. Python:
// acc = y[i]; for c: for k: acc += A[i + k][c] gives [3, -1.9999999999999996e16,
// -1e16, 6] (k outside c would give 1 and 7 first and last).
// CHECK-NEXT: ( 3, -19999999999999996, -10000000000000000, 6 )

#CCCC = #sparse_tensor.encoding<{ map = (d0, d1, d2, d3) -> (d0 : compressed, d1 : compressed, d2 : compressed, d3 : compressed) }>
#CSR = #sparse_tensor.encoding<{ map = (d0, d1) -> (d0 : dense, d1 : compressed) }>
#DCSR = #sparse_tensor.encoding<{ map = (d0, d1) -> (d0 : compressed, d1 : compressed) }>

func.func @conv_nhwc(%in: tensor<1x9x9x2xf64, #CCCC>, %f: tensor<2x2x2x1xf64>, %o: tensor<1x4x4x1xf64>) -> tensor<1x4x4x1xf64> {
  %r = linalg.conv_2d_nhwc_hwcf {dilations = dense<2> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
     ins(%in, %f : tensor<1x9x9x2xf64, #CCCC>, tensor<2x2x2x1xf64>) outs(%o : tensor<1x4x4x1xf64>) -> tensor<1x4x4x1xf64>
  return %r : tensor<1x4x4x1xf64>
}

func.func @conv_sparse_out(%in: tensor<6x6xi32, #CSR>, %f: tensor<3x3xi32, #CSR>) -> tensor<4x4xi32, #DCSR> {
  %e = tensor.empty() : tensor<4x4xi32, #DCSR>
  %r = linalg.conv_2d ins(%in, %f : tensor<6x6xi32, #CSR>, tensor<3x3xi32, #CSR>) outs(%e : tensor<4x4xi32, #DCSR>) -> tensor<4x4xi32, #DCSR>
  return %r : tensor<4x4xi32, #DCSR>
}

func.func @main() {
  %c0 = arith.constant 0 : index
  %d = arith.constant -1.0 : f64
  %di = arith.constant -1 : i32
  %id = arith.constant dense<[[[[1.0e16, 0.0], [0.0, -3.0], [1.0, 0.0], [4.0, 0.0], [0.0, 0.0], [0.0, 1.0], [-1.0, 0.0], [0.0, 0.0], [0.0, 0.0]], [[0.0, 0.0], [-1.0, 1.0], [0.0, -3.0], [2.0, 0.0], [0.0, 0.0], [0.0, 0.0], [0.0, 3.0], [4.0, 2.0], [0.0, -3.0]], [[-1.0e16, 4.0], [0.0, 3.0], [2.0, 0.0], [0.0, 0.0], [0.0, 0.0], [-2.0, 0.0], [0.0, 0.0], [0.0, 0.0], [-2.0, 0.0]], [[2.0, -2.0], [0.0, 0.0], [0.0, 0.0], [0.0, 0.0], [0.0, 1.0], [0.0, -3.0], [0.0, 2.0], [0.0, -4.0], [0.0, -2.0]], [[0.0, 0.0], [3.0, 0.0], [0.0, 0.0], [0.0, 1.0], [-3.0, -0.0], [0.0, -3.0], [0.0, 0.0], [0.0, 0.0], [0.0, 3.0]], [[0.0, 0.0], [0.0, 0.0], [-4.0, 0.0], [1.0, 0.0], [3.0, -2.0], [0.0, 0.0], [0.0, 0.0], [0.0, 3.0], [0.0, 0.0]], [[0.0, 0.0], [0.0, 0.0], [-2.0, 0.0], [3.0, 0.0], [0.0, 3.0], [0.0, 0.0], [1.0, 0.0], [0.0, 0.0], [0.0, 1.0]], [[3.0, 0.0], [0.0, 1.0], [0.0, 0.0], [4.0, 3.0], [0.0, 0.0], [0.0, 0.0], [0.0, 0.0], [0.0, 0.0], [0.0, 0.0]], [[0.0, 0.0], [-1.0, 0.0], [0.0, 0.0], [1.0, 0.0], [0.0, 0.0], [0.0, 0.0], [4.0, 0.0], [-3.0, -2.0], [3.0, 0.0]]]]> : tensor<1x9x9x2xf64>
  %in = sparse_tensor.convert %id : tensor<1x9x9x2xf64> to tensor<1x9x9x2xf64, #CCCC>
  %f = arith.constant dense<[[[[1.0], [1.0]], [[1.0], [-2.0]]], [[[1.0], [-1.0]], [[2.0], [-2.0]]]]> : tensor<2x2x2x1xf64>
  %o = arith.constant dense<[[[[0.5], [0.0], [0.0], [0.0]], [[0.0], [-0.0], [0.0], [0.0]], [[0.0], [0.0], [0.0], [0.0]], [[0.0], [0.0], [0.0], [0.0]]]]> : tensor<1x4x4x1xf64>
  %r = call @conv_nhwc(%in, %f, %o) : (tensor<1x9x9x2xf64, #CCCC>, tensor<2x2x2x1xf64>, tensor<1x4x4x1xf64>) -> tensor<1x4x4x1xf64>
  %v = vector.transfer_read %r[%c0, %c0, %c0, %c0], %d : tensor<1x4x4x1xf64>, vector<1x4x4x1xf64>
  vector.print %v : vector<1x4x4x1xf64>

  %jd = arith.constant dense<[[1, 2, 0, 0, 5, 0], [0, 0, 3, 0, 0, 0], [4, 0, 0, 0, 0, 6], [0, 0, 0, 0, 0, 0], [0, 7, 0, 0, 8, 0], [0, 0, 0, 9, 0, 0]]> : tensor<6x6xi32>
  %j = sparse_tensor.convert %jd : tensor<6x6xi32> to tensor<6x6xi32, #CSR>
  %gd = arith.constant dense<[[1, 0, -1], [0, 0, 0], [-1, 0, 1]]> : tensor<3x3xi32>
  %g = sparse_tensor.convert %gd : tensor<3x3xi32> to tensor<3x3xi32, #CSR>
  %s = call @conv_sparse_out(%j, %g) : (tensor<6x6xi32, #CSR>, tensor<3x3xi32, #CSR>) -> tensor<4x4xi32, #DCSR>
  %sd = sparse_tensor.convert %s : tensor<4x4xi32, #DCSR> to tensor<4x4xi32>
  %sv = vector.transfer_read %sd[%c0, %c0], %di : tensor<4x4xi32>, vector<4x4xi32>
  vector.print %sv : vector<4x4xi32>
  call @pad_fill_insert() : () -> ()
  call @empty_window() : () -> ()
  call @window_inside_reduction() : () -> ()
  return
}

#outside = { indexing_maps = [affine_map<(i, c, k) -> (i + k, c)>, affine_map<(i, c, k) -> (k)>, affine_map<(i, c, k) -> (i)>], iterator_types = ["parallel", "reduction", "reduction"] }
func.func @window_inside_reduction() {
  %c0 = arith.constant 0 : index
  %m1 = arith.constant -1.0 : f64
  %A = arith.constant dense<[[1.0e16, 1.0], [1.0, 1.0], [-1.0e16, 1.0], [1.0, -1.0e16], [0.5, 1.0e16], [3.0, 0.0]]> : tensor<6x2xf64>
  %F = arith.constant dense<[7.0, 8.0, 9.0]> : tensor<3xf64>
  %y = arith.constant dense<[0.0, 0.5, 0.0, 2.0]> : tensor<4xf64>
  %r = linalg.generic #outside ins(%A, %F : tensor<6x2xf64>, tensor<3xf64>) outs(%y : tensor<4xf64>) {
  ^bb0(%a: f64, %f: f64, %o: f64):
    %s = arith.addf %o, %a : f64
    linalg.yield %s : f64
  } -> tensor<4xf64>
  %v = vector.transfer_read %r[%c0], %m1 : tensor<4xf64>, vector<4xf64>
  vector.print %v : vector<4xf64>
  return
}

func.func @empty_window() {
  %c0 = arith.constant 0 : index
  %di = arith.constant -1 : i32
  %in = arith.constant dense<[[1, 2, 0, 0], [0, 0, 3, 0], [4, 0, 0, 0], [0, 5, 0, 6]]> : tensor<4x4xi32>
  %s = sparse_tensor.convert %in : tensor<4x4xi32> to tensor<4x4xi32, #CSR>
  %f = arith.constant dense<> : tensor<0x3xi32>
  %o = arith.constant dense<[[1, 2], [3, 4], [5, 6], [7, 8], [9, 10]]> : tensor<5x2xi32>
  %r = linalg.conv_2d ins(%s, %f : tensor<4x4xi32, #CSR>, tensor<0x3xi32>) outs(%o : tensor<5x2xi32>) -> tensor<5x2xi32>
  %v = vector.transfer_read %r[%c0, %c0], %di : tensor<5x2xi32>, vector<5x2xi32>
  vector.print %v : vector<5x2xi32>
  %e = tensor.empty() : tensor<5x2xi32>
  %r2 = linalg.conv_2d ins(%s, %f : tensor<4x4xi32, #CSR>, tensor<0x3xi32>) outs(%e : tensor<5x2xi32>) -> tensor<5x2xi32>
  %v2 = vector.transfer_read %r2[%c0, %c0], %di : tensor<5x2xi32>, vector<5x2xi32>
  vector.print %v2 : vector<5x2xi32>
  return
}

func.func @alloc_2d_filled_f32(%s1 : index, %s2 : index, %f : f32) -> tensor<?x?xf32> {
  %buf = tensor.empty(%s1, %s2) : tensor<?x?xf32>
  %ret = linalg.fill ins(%f : f32) outs(%buf : tensor<?x?xf32>) -> tensor<?x?xf32>
  return %ret : tensor<?x?xf32>
}

func.func @pad_fill_insert() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %f10 = arith.constant 10.0 : f32
  %val = arith.constant 2.0 : f32
  %zero = arith.constant 0.0 : f32
  %t = call @alloc_2d_filled_f32(%c3, %c4, %val) : (index, index, f32) -> tensor<?x?xf32>
  %u = tensor.insert %f10 into %t[%c1, %c3] : tensor<?x?xf32>
  %s = tensor.cast %u : tensor<?x?xf32> to tensor<3x4xf32>
  %v = vector.transfer_read %s[%c0, %c0], %zero : tensor<3x4xf32>, vector<3x4xf32>
  vector.print %v : vector<3x4xf32>
  %w = vector.transfer_read %t[%c0, %c0], %zero : tensor<?x?xf32>, vector<3x4xf32>
  vector.print %w : vector<3x4xf32>
  %pd = tensor.pad %s low[1, 0] high[0, 2] {
   ^bb0(%a: index, %b: index):
     tensor.yield %zero : f32
   } : tensor<3x4xf32> to tensor<4x6xf32>
  %p = vector.transfer_read %pd[%c0, %c0], %zero : tensor<4x6xf32>, vector<4x6xf32>
  vector.print %p : vector<4x6xf32>
  %in = arith.constant dense<[[[[1.0, 2.0]]], [[[3.0, 4.0]]]]> : tensor<2x1x1x2xf32>
  %pd4 = tensor.pad %in low[0, 1, 1, 0] high[0, 0, 1, 0] {
   ^bb0(%a: index, %b: index, %c: index, %d: index):
     tensor.yield %zero : f32
   } : tensor<2x1x1x2xf32> to tensor<2x2x3x2xf32>
  %v4 = vector.transfer_read %pd4[%c0, %c0, %c0, %c0], %zero : tensor<2x2x3x2xf32>, vector<2x2x3x2xf32>
  vector.print %v4 : vector<2x2x3x2xf32>
  return
}
