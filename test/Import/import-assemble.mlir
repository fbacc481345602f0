// RUN: sa-opt %s --sparse-array-import-sparse-tensor | FileCheck %s
//
// sparse_tensor.assemble: every buffer copied into storage the array owns
// (constants from a constant array, in the format's widths), an
// array-of-structures COO coordinates operand split into one buffer per
// level by a strided loop, and the assembled array validated at run time.

#CSR = #sparse_tensor.encoding<{map = (i, j) -> (i : dense, j : compressed)}>
#COO64 = #sparse_tensor.encoding<{map = (i, j) -> (i : compressed(nonunique), j : singleton), posWidth = 64, crdWidth = 64}>

// CHECK-LABEL: func.func @csr_constants(
// CHECK:         %[[PA:.*]] = sparse_array.constant dense<[0, 1, 3]> : tensor<3xi64>
// CHECK:         %[[P:.*]] = memref.alloc(%{{.*}}) : memref<?xi64>
// CHECK:         memref.copy %{{.*}}, %[[P]]
// CHECK:         sparse_array.constant dense<[2, 0, 3]> : tensor<3xi64>
// CHECK:         %[[C:.*]] = memref.alloc(%{{.*}}) : memref<?xi64>
// CHECK:         sparse_array.constant dense<[1.000000e+00, 2.000000e+00, 3.000000e+00]> : tensor<3xf64>
// CHECK:         %[[V:.*]] = memref.alloc(%{{.*}}) : memref<?xf64>
// CHECK:         %[[A:.*]] = sparse_array.assemble(%[[P]], %[[C]], %[[V]]), (%c2{{.*}}, %c4{{.*}})
// CHECK:         sparse_array.validate %[[A]], "sparse_tensor.assemble at {{.*}}import-assemble.mlir:{{[0-9]+}}:{{[0-9]+}}"
// CHECK:         return %[[A]]
func.func @csr_constants() -> tensor<2x4xf64, #CSR> {
  %pos = arith.constant dense<[0, 1, 3]> : tensor<3xindex>
  %crd = arith.constant dense<[2, 0, 3]> : tensor<3xindex>
  %val = arith.constant dense<[1.0, 2.0, 3.0]> : tensor<3xf64>
  %a = sparse_tensor.assemble (%pos, %crd), %val
     : (tensor<3xindex>, tensor<3xindex>), tensor<3xf64> to tensor<2x4xf64, #CSR>
  return %a : tensor<2x4xf64, #CSR>
}

// CHECK-LABEL: func.func @coo_arguments(
// CHECK-SAME:      %[[PA:[^:]*]]: !sparse_array.array<2xi64>, %[[CA:[^:]*]]: !sparse_array.array<4x2xi64>
// CHECK:         sparse_array.values %[[PA]]
// CHECK:         %[[FLAT:.*]] = sparse_array.values %[[CA]]
// CHECK:         %[[ROWS:.*]] = memref.alloc(%{{.*}}) : memref<?xi64>
// CHECK:         scf.for %[[I:.*]] =
// CHECK:           %[[AT:.*]] = arith.muli %[[I]], %c2
// CHECK:           %[[AT0:.*]] = arith.addi %[[AT]], %c0
// CHECK:           memref.load %[[FLAT]][%[[AT0]]]
// CHECK:           memref.store %{{.*}}, %[[ROWS]][%[[I]]]
// CHECK:         %[[COLS:.*]] = memref.alloc(%{{.*}}) : memref<?xi64>
// CHECK:         scf.for %[[J:.*]] =
// CHECK:           %[[BT:.*]] = arith.muli %[[J]], %c2
// CHECK:           %[[BT1:.*]] = arith.addi %[[BT]], %c1
// CHECK:           memref.load %{{.*}}[%[[BT1]]]
// CHECK:         %[[A:.*]] = sparse_array.assemble(%{{.*}}, %[[ROWS]], %[[COLS]], %{{.*}}), (%c3{{.*}}, %c5{{.*}})
// CHECK:         sparse_array.validate %[[A]], "sparse_tensor.assemble at {{.*}}import-assemble.mlir:{{[0-9]+}}:{{[0-9]+}}"
func.func @coo_arguments(%p: tensor<2xi64>, %c: tensor<4x2xi64>, %v: tensor<4xf32>)
    -> tensor<3x5xf32, #COO64> {
  %t = sparse_tensor.assemble (%p, %c), %v
     : (tensor<2xi64>, tensor<4x2xi64>), tensor<4xf32> to tensor<3x5xf32, #COO64>
  return %t : tensor<3x5xf32, #COO64>
}
