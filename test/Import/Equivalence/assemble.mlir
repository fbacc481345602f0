// REQUIRES: mlir-sparsifier
// RUN: sa-run %s > %t.sa
// RUN: mlir-opt %s --sparsifier | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_c_runner_utils,%mlir_runner_utils > %t.up
// RUN: %python %S/../Inputs/compare_prints.py %t.sa %t.up | FileCheck %s
// CHECK: 8 arrays compared, 0 differences
//
// sparse_tensor.assemble from a user's level buffers: CSR from index
// constants, COO whose coordinates are one array-of-structures tensor
// (split into a buffer per level), DCSR with 32-bit positions and
// coordinates, a sparse vector then used by a kernel, and a COO built in a
// function from level tensors that are arguments (the columns copied by a
// loop), one without entries and one storing 0.0, -0.0, NaN and inf, and
// a CSR built in a function from index tensors that are arguments (the
// buffers a frontend passes in: held as i64 arrays here).
// Buffers upstream does not check are validated here
// (../assemble-invalid.mlir).

#CSR = #sparse_tensor.encoding<{map = (i, j) -> (i : dense, j : compressed)}>
#COO = #sparse_tensor.encoding<{map = (i, j) -> (i : compressed(nonunique), j : singleton)}>
#DCSR32 = #sparse_tensor.encoding<{map = (i, j) -> (i : compressed, j : compressed), posWidth = 32, crdWidth = 32}>
#SV = #sparse_tensor.encoding<{map = (i) -> (i : compressed)}>
#COO64 = #sparse_tensor.encoding<{map = (i, j) -> (i : compressed(nonunique), j : singleton), posWidth = 64, crdWidth = 64}>

module {
  // Level tensors that are values, not constants: the array-of-structures
  // coordinates are split into columns by a loop.
  func.func @build(%p: tensor<2xi64>, %c: tensor<4x2xi64>, %v: tensor<4xf32>)
      -> tensor<3x5xf32, #COO64> {
    %t = sparse_tensor.assemble (%p, %c), %v
       : (tensor<2xi64>, tensor<4x2xi64>), tensor<4xf32> to tensor<3x5xf32, #COO64>
    return %t : tensor<3x5xf32, #COO64>
  }

  func.func @build_index(%p: tensor<4xindex>, %c: tensor<5xindex>, %v: tensor<5xf64>)
      -> tensor<3x6xf64, #CSR> {
    %t = sparse_tensor.assemble (%p, %c), %v
       : (tensor<4xindex>, tensor<5xindex>), tensor<5xf64> to tensor<3x6xf64, #CSR>
    return %t : tensor<3x6xf64, #CSR>
  }

  func.func @main() {
    // CSR 3x4 from index constants.
    %pos = arith.constant dense<[0, 2, 2, 4]> : tensor<4xindex>
    %crd = arith.constant dense<[0, 3, 1, 2]> : tensor<4xindex>
    %val = arith.constant dense<[1.5, -2.0, 3.25, 4.0]> : tensor<4xf64>
    %a = sparse_tensor.assemble (%pos, %crd), %val
       : (tensor<4xindex>, tensor<4xindex>), tensor<4xf64> to tensor<3x4xf64, #CSR>
    sparse_tensor.print %a : tensor<3x4xf64, #CSR>
    // COO with an array-of-structures coordinates tensor.
    %cpos = arith.constant dense<[0, 3]> : tensor<2xindex>
    %cidx = arith.constant dense<[[0, 0], [1, 2], [1, 3]]> : tensor<3x2xindex>
    %cval = arith.constant dense<[1.1, 2.2, 3.3]> : tensor<3xf64>
    %b = sparse_tensor.assemble (%cpos, %cidx), %cval
       : (tensor<2xindex>, tensor<3x2xindex>), tensor<3xf64> to tensor<3x4xf64, #COO>
    sparse_tensor.print %b : tensor<3x4xf64, #COO>
    // DCSR with 32-bit positions and coordinates, i64 values.
    %p0 = arith.constant dense<[0, 2]> : tensor<2xi32>
    %c0 = arith.constant dense<[1, 4]> : tensor<2xi32>
    %p1 = arith.constant dense<[0, 1, 3]> : tensor<3xi32>
    %c1 = arith.constant dense<[2, 0, 5]> : tensor<3xi32>
    %v = arith.constant dense<[7, -8, 9]> : tensor<3xi64>
    %d = sparse_tensor.assemble (%p0, %c0, %p1, %c1), %v
       : (tensor<2xi32>, tensor<2xi32>, tensor<3xi32>, tensor<3xi32>), tensor<3xi64> to tensor<5x6xi64, #DCSR32>
    sparse_tensor.print %d : tensor<5x6xi64, #DCSR32>
    // A sparse vector, then used in a kernel (2 * v).
    %sp = arith.constant dense<[0, 3]> : tensor<2xindex>
    %sc = arith.constant dense<[1, 4, 6]> : tensor<3xindex>
    %sv = arith.constant dense<[1.0, 2.0, 3.0]> : tensor<3xf64>
    %s = sparse_tensor.assemble (%sp, %sc), %sv
       : (tensor<2xindex>, tensor<3xindex>), tensor<3xf64> to tensor<8xf64, #SV>
    %e = tensor.empty() : tensor<8xf64, #SV>
    %t = linalg.add ins(%s, %s : tensor<8xf64, #SV>, tensor<8xf64, #SV>) outs(%e : tensor<8xf64, #SV>) -> tensor<8xf64, #SV>
    sparse_tensor.print %t : tensor<8xf64, #SV>
    %fp = arith.constant dense<[0, 4]> : tensor<2xi64>
    %fc = arith.constant dense<[[0, 1], [0, 4], [2, 0], [2, 2]]> : tensor<4x2xi64>
    %fv = arith.constant dense<[0.5, -1.0, 2.5, 8.0]> : tensor<4xf32>
    %f = call @build(%fp, %fc, %fv) : (tensor<2xi64>, tensor<4x2xi64>, tensor<4xf32>) -> tensor<3x5xf32, #COO64>
    sparse_tensor.print %f : tensor<3x5xf32, #COO64>
    // No entries; then a stored 0.0, -0.0, NaN and inf in one row.
    %ep = arith.constant dense<[0, 0, 0, 0]> : tensor<4xindex>
    %ec = arith.constant dense<> : tensor<0xindex>
    %ev = arith.constant dense<> : tensor<0xf64>
    %g = sparse_tensor.assemble (%ep, %ec), %ev
       : (tensor<4xindex>, tensor<0xindex>), tensor<0xf64> to tensor<3x4xf64, #CSR>
    sparse_tensor.print %g : tensor<3x4xf64, #CSR>
    %xp = arith.constant dense<[0, 4, 4, 4]> : tensor<4xindex>
    %xc = arith.constant dense<[0, 1, 2, 3]> : tensor<4xindex>
    %xv = arith.constant dense<[0.0, -0.0, 0x7FF8000000000000, 0x7FF0000000000000]> : tensor<4xf64>
    %h = sparse_tensor.assemble (%xp, %xc), %xv
       : (tensor<4xindex>, tensor<4xindex>), tensor<4xf64> to tensor<3x4xf64, #CSR>
    sparse_tensor.print %h : tensor<3x4xf64, #CSR>
    %ip = arith.constant dense<[0, 1, 1, 5]> : tensor<4xindex>
    %ic = arith.constant dense<[5, 0, 2, 3, 5]> : tensor<5xindex>
    %iv = arith.constant dense<[1.25, -2.0, 3.0, 4.5, 6.0]> : tensor<5xf64>
    %i = call @build_index(%ip, %ic, %iv) : (tensor<4xindex>, tensor<5xindex>, tensor<5xf64>) -> tensor<3x6xf64, #CSR>
    sparse_tensor.print %i : tensor<3x6xf64, #CSR>
    return
  }
}
