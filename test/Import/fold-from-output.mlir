// RUN: sa-run --import-exact-print %s | FileCheck %s
// RUN: sa-opt --sparse-array-import-sparse-tensor %s | FileCheck %s --check-prefix=IR
// Reductions into an output that holds values (issue 57): the fold starts
// from the output's entry and adds the products in the loop order, for
// any combiner (reduce_over ... from). Expected values from a Python loop
// over the dense arrays (acc = y[i]; for j: acc = acc + A[i, j] * x[j]),
// not from the compiler:
//   A = [[1, 1, 0, 1, 0], [0, 0, 0, 0, 0], [0, -0.0, 0, 0, 0], [3, 0, 0, 0, 2.5]],
//   y = [1e16, -0.0, -0.0, 0.5]:
//   x = [1, 1, 2, 1, 4]: [1e16, 0, 0, 13.5] (each + 1 is lost at 1e16;
//     regrouped, 1e16 + 3 = 1.0000000000000004e16; -0.0 + (0 * 1) = +0.0);
//   x = -x: [1e16, -0.0, 0, -12.5] (0 * -1 = -0.0 keeps y's -0.0; the
//     stored -0.0 times -1 is +0.0);
//   x = [1, 1, inf, 1, 4]: all NaN (0 * inf in every row);
//   y = 1 everywhere (linalg.fill), x = [1, 1, 2, 1, 4]: [4, 1, 1, 14].
//   dot of a = [1, 1, 0, 1, 0] and x into 1e16: 1e16.
//   C + A B with B = [[1, 2, 0], [1, 0, 0], [0, 0, 0], [1, 0, 0], [0, 1, -1]],
//   C = [[1e16, 1e16, -0], [-0, 1, 0], [-0, -0, -0], [0, 0, 0]]:
//   [[1e16, 1.0000000000000002e16, 0], [0, 1, 0], [0, 0, 0], [3, 8.5, -2.5]].
//   A custom product (sparse_tensor.reduce, identity 1) of the stored
//   entries of each row of
//   D = [[3, 0, 0, 0.5, 0], [0, 0, 0, 0, 0], [1e300, 1e300, 0, 1e-300, 0], [3, 4, 5, 6, 2.5]]
//   into an output filled with 2: [3, 2, inf, 1800].
// Upstream's sparsifier (LLVM 22) prints instead: -0 where an implicit
// product is +0.0 ([1e16, -0, -0, 13.5]), [1e16, -0, -0, 13.5] for the x
// with an inf (it skips 0 * inf), and [1.5, 1, inf, 900] for the custom
// product (it starts from the identity, not from the output's 2).
// IR-COUNT-5: sparse_array.reduce_over [%{{.*}}] %{{.*}} from %{{.*}} with @
#CSR = #sparse_tensor.encoding<{ map = (d0, d1) -> (d0 : dense, d1 : compressed) }>
#SV = #sparse_tensor.encoding<{ map = (d0) -> (d0 : compressed) }>
#rows = { indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i)>], iterator_types = ["parallel", "reduction"] }

func.func @spmv_into(%A: tensor<4x5xf64, #CSR>, %x: tensor<5xf64>, %y: tensor<4xf64>) -> tensor<4xf64> {
  %r = linalg.matvec ins(%A, %x : tensor<4x5xf64, #CSR>, tensor<5xf64>) outs(%y : tensor<4xf64>) -> tensor<4xf64>
  return %r : tensor<4xf64>
}

func.func @sum_from_one(%A: tensor<4x5xf64, #CSR>, %x: tensor<5xf64>) -> tensor<4xf64> {
  %one = arith.constant 1.0 : f64
  %e = tensor.empty() : tensor<4xf64>
  %y = linalg.fill ins(%one : f64) outs(%e : tensor<4xf64>) -> tensor<4xf64>
  %r = linalg.matvec ins(%A, %x : tensor<4x5xf64, #CSR>, tensor<5xf64>) outs(%y : tensor<4xf64>) -> tensor<4xf64>
  return %r : tensor<4xf64>
}

func.func @dot_into(%a: tensor<5xf64, #SV>, %b: tensor<5xf64>, %s: tensor<f64>) -> tensor<f64> {
  %r = linalg.dot ins(%a, %b : tensor<5xf64, #SV>, tensor<5xf64>) outs(%s : tensor<f64>) -> tensor<f64>
  return %r : tensor<f64>
}

func.func @matmul_into(%A: tensor<4x5xf64, #CSR>, %B: tensor<5x3xf64>, %C: tensor<4x3xf64>) -> tensor<4x3xf64> {
  %r = linalg.matmul ins(%A, %B : tensor<4x5xf64, #CSR>, tensor<5x3xf64>) outs(%C : tensor<4x3xf64>) -> tensor<4x3xf64>
  return %r : tensor<4x3xf64>
}

func.func @custom_reduce(%A: tensor<4x5xf64, #CSR>) -> tensor<4xf64> {
  %two = arith.constant 2.0 : f64
  %e = tensor.empty() : tensor<4xf64>
  %y = linalg.fill ins(%two : f64) outs(%e : tensor<4xf64>) -> tensor<4xf64>
  %id = arith.constant 1.0 : f64
  %r = linalg.generic #rows ins(%A : tensor<4x5xf64, #CSR>) outs(%y : tensor<4xf64>) {
  ^bb0(%a: f64, %o: f64):
    %s = sparse_tensor.reduce %a, %o, %id : f64 {
      ^bb0(%x: f64, %u: f64):
        %m = arith.mulf %x, %u : f64
        sparse_tensor.yield %m : f64
    }
    linalg.yield %s : f64
  } -> tensor<4xf64>
  return %r : tensor<4xf64>
}

func.func @main() {
  %c0 = arith.constant 0 : index
  %d = arith.constant -1.0 : f64
  %Ad = arith.constant dense<[[1.0, 1.0, 0.0, 1.0, 0.0],
                              [0.0, 0.0, 0.0, 0.0, 0.0],
                              [0.0, -0.0, 0.0, 0.0, 0.0],
                              [3.0, 0.0, 0.0, 0.0, 2.5]]> : tensor<4x5xf64>
  %A = sparse_tensor.convert %Ad : tensor<4x5xf64> to tensor<4x5xf64, #CSR>
  %x = arith.constant dense<[1.0, 1.0, 2.0, 1.0, 4.0]> : tensor<5xf64>
  %y = arith.constant dense<[1.0e16, -0.0, -0.0, 0.5]> : tensor<4xf64>
  %r = call @spmv_into(%A, %x, %y) : (tensor<4x5xf64, #CSR>, tensor<5xf64>, tensor<4xf64>) -> tensor<4xf64>
  %v = vector.transfer_read %r[%c0], %d : tensor<4xf64>, vector<4xf64>
  vector.print %v : vector<4xf64>
  %xn = arith.constant dense<[-1.0, -1.0, -2.0, -1.0, -4.0]> : tensor<5xf64>
  %r2 = call @spmv_into(%A, %xn, %y) : (tensor<4x5xf64, #CSR>, tensor<5xf64>, tensor<4xf64>) -> tensor<4xf64>
  %v2 = vector.transfer_read %r2[%c0], %d : tensor<4xf64>, vector<4xf64>
  vector.print %v2 : vector<4xf64>
  %xi = arith.constant dense<[1.0, 1.0, 0x7FF0000000000000, 1.0, 4.0]> : tensor<5xf64>
  %r3 = call @spmv_into(%A, %xi, %y) : (tensor<4x5xf64, #CSR>, tensor<5xf64>, tensor<4xf64>) -> tensor<4xf64>
  %v3 = vector.transfer_read %r3[%c0], %d : tensor<4xf64>, vector<4xf64>
  vector.print %v3 : vector<4xf64>
  %r4 = call @sum_from_one(%A, %x) : (tensor<4x5xf64, #CSR>, tensor<5xf64>) -> tensor<4xf64>
  %v4 = vector.transfer_read %r4[%c0], %d : tensor<4xf64>, vector<4xf64>
  vector.print %v4 : vector<4xf64>
  %ad = arith.constant dense<[1.0, 1.0, 0.0, 1.0, 0.0]> : tensor<5xf64>
  %a = sparse_tensor.convert %ad : tensor<5xf64> to tensor<5xf64, #SV>
  %s = arith.constant dense<1.0e16> : tensor<f64>
  %r5 = call @dot_into(%a, %x, %s) : (tensor<5xf64, #SV>, tensor<5xf64>, tensor<f64>) -> tensor<f64>
  %e5 = tensor.extract %r5[] : tensor<f64>
  vector.print %e5 : f64
  %B = arith.constant dense<[[1.0, 2.0, 0.0], [1.0, 0.0, 0.0], [0.0, 0.0, 0.0], [1.0, 0.0, 0.0], [0.0, 1.0, -1.0]]> : tensor<5x3xf64>
  %C = arith.constant dense<[[1.0e16, 1.0e16, -0.0], [-0.0, 1.0, 0.0], [-0.0, -0.0, -0.0], [0.0, 0.0, 0.0]]> : tensor<4x3xf64>
  %r6 = call @matmul_into(%A, %B, %C) : (tensor<4x5xf64, #CSR>, tensor<5x3xf64>, tensor<4x3xf64>) -> tensor<4x3xf64>
  %v6 = vector.transfer_read %r6[%c0, %c0], %d : tensor<4x3xf64>, vector<4x3xf64>
  vector.print %v6 : vector<4x3xf64>
  %Dd = arith.constant dense<[[3.0, 0.0, 0.0, 0.5, 0.0],
                              [0.0, 0.0, 0.0, 0.0, 0.0],
                              [1.0e300, 1.0e300, 0.0, 1.0e-300, 0.0],
                              [3.0, 4.0, 5.0, 6.0, 2.5]]> : tensor<4x5xf64>
  %D = sparse_tensor.convert %Dd : tensor<4x5xf64> to tensor<4x5xf64, #CSR>
  %r7 = call @custom_reduce(%D) : (tensor<4x5xf64, #CSR>) -> tensor<4xf64>
  %v7 = vector.transfer_read %r7[%c0], %d : tensor<4xf64>, vector<4xf64>
  vector.print %v7 : vector<4xf64>
  return
}
// CHECK:      ( 10000000000000000, 0, 0, 13.5 )
// CHECK-NEXT: ( 10000000000000000, -0, 0, -12.5 )
// CHECK-NEXT: ( nan, nan, nan, nan )
// CHECK-NEXT: ( 4, 1, 1, 14 )
// CHECK-NEXT: 10000000000000000
// CHECK-NEXT: ( ( 10000000000000000, 10000000000000002, 0 ), ( 0, 1, 0 ), ( 0, 0, 0 ), ( 3, 8.5, -2.5 ) )
// CHECK-NEXT: ( 3, 2, inf, 1800 )
