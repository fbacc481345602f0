// REQUIRES: mlir-sparsifier
// RUN: sa-run %s | FileCheck %s
// RUN: mlir-opt %s --sparsifier | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_c_runner_utils,%mlir_runner_utils | FileCheck %s
//
// sparse_tensor.disassemble, both ways through the same checks: each
// output tensor read back element by element (tensor.extract, vector.print).
// M = [[1.5, 0, 0, 2], [0, 0, 0, 0], [0, -3, 0, 4.25]] as CSR with 32-bit
// positions and coordinates: positions [0, 2, 2, 4], coordinates
// [0, 3, 1, 3], values [1.5, 2, -3, 4.25]; the coordinates' output holds 6
// elements, the last two of which upstream leaves undefined (not printed;
// sparse_array keeps the output tensor's values there:
// ../import-disassemble-run.mlir). As COO with index
// buffers: positions [0, 4], the coordinates as an array of structures
// [[0, 0], [0, 3], [2, 1], [2, 3]] (8 elements written). The lengths are
// what was written: 4, 4, 4 and 2, 8, 4.

#CSR32 = #sparse_tensor.encoding<{ map = (d0, d1) -> (d0 : dense, d1 : compressed), posWidth = 32, crdWidth = 32 }>
#COO = #sparse_tensor.encoding<{ map = (d0, d1) -> (d0 : compressed(nonunique), d1 : singleton) }>

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %d = arith.constant dense<[[1.5, 0.0, 0.0, 2.0], [0.0, 0.0, 0.0, 0.0], [0.0, -3.0, 0.0, 4.25]]> : tensor<3x4xf64>
  %A = sparse_tensor.convert %d : tensor<3x4xf64> to tensor<3x4xf64, #CSR32>
  %op = tensor.empty() : tensor<4xi32>
  %oc = arith.constant dense<7> : tensor<6xi32>
  %ov = tensor.empty() : tensor<4xf64>
  %rp, %rc, %rv, %lp, %lc, %lv = sparse_tensor.disassemble %A : tensor<3x4xf64, #CSR32>
      out_lvls(%op, %oc : tensor<4xi32>, tensor<6xi32>) out_vals(%ov : tensor<4xf64>)
      -> (tensor<4xi32>, tensor<6xi32>), tensor<4xf64>, (i32, i64), index
  // CHECK: 0
  // CHECK-NEXT: 2
  // CHECK-NEXT: 2
  // CHECK-NEXT: 4
  scf.for %k = %c0 to %c4 step %c1 {
    %x = tensor.extract %rp[%k] : tensor<4xi32>
    vector.print %x : i32
  }
  // CHECK-NEXT: 0
  // CHECK-NEXT: 3
  // CHECK-NEXT: 1
  // CHECK-NEXT: 3
  scf.for %k = %c0 to %c4 step %c1 {
    %x = tensor.extract %rc[%k] : tensor<6xi32>
    vector.print %x : i32
  }
  // CHECK-NEXT: 1.5
  // CHECK-NEXT: 2
  // CHECK-NEXT: -3
  // CHECK-NEXT: 4.25
  scf.for %k = %c0 to %c4 step %c1 {
    %x = tensor.extract %rv[%k] : tensor<4xf64>
    vector.print %x : f64
  }
  // CHECK-NEXT: 4
  // CHECK-NEXT: 4
  // CHECK-NEXT: 4
  vector.print %lp : i32
  vector.print %lc : i64
  vector.print %lv : index

  %B = sparse_tensor.convert %d : tensor<3x4xf64> to tensor<3x4xf64, #COO>
  %bp = tensor.empty() : tensor<2xindex>
  %bc = tensor.empty() : tensor<4x2xindex>
  %bv = tensor.empty() : tensor<4xf64>
  %sp, %sc, %sv, %l1, %l2, %l3 = sparse_tensor.disassemble %B : tensor<3x4xf64, #COO>
      out_lvls(%bp, %bc : tensor<2xindex>, tensor<4x2xindex>) out_vals(%bv : tensor<4xf64>)
      -> (tensor<2xindex>, tensor<4x2xindex>), tensor<4xf64>, (index, index), index
  // CHECK-NEXT: 0
  // CHECK-NEXT: 4
  scf.for %k = %c0 to %c2 step %c1 {
    %x = tensor.extract %sp[%k] : tensor<2xindex>
    vector.print %x : index
  }
  // CHECK-NEXT: 0, 0
  // CHECK-NEXT: 0, 3
  // CHECK-NEXT: 2, 1
  // CHECK-NEXT: 2, 3
  scf.for %k = %c0 to %c4 step %c1 {
    %i = tensor.extract %sc[%k, %c0] : tensor<4x2xindex>
    %j = tensor.extract %sc[%k, %c1] : tensor<4x2xindex>
    vector.print %i : index punctuation <comma>
    vector.print %j : index
  }
  // CHECK-NEXT: 1.5
  // CHECK-NEXT: 2
  // CHECK-NEXT: -3
  // CHECK-NEXT: 4.25
  scf.for %k = %c0 to %c4 step %c1 {
    %x = tensor.extract %sv[%k] : tensor<4xf64>
    vector.print %x : f64
  }
  // CHECK-NEXT: 2
  // CHECK-NEXT: 8
  // CHECK-NEXT: 4
  vector.print %l1 : index
  vector.print %l2 : index
  vector.print %l3 : index
  bufferization.dealloc_tensor %A : tensor<3x4xf64, #CSR32>
  bufferization.dealloc_tensor %B : tensor<3x4xf64, #COO>
  return
}
