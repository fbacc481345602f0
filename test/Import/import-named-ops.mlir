// RUN: sa-opt %s --sparse-array-import-sparse-tensor | FileCheck %s
//
// One case per family of named linalg ops: each is generalized, then
// imported like any linalg.generic (kernel variables, accesses, the
// functions of its region, reductions).

#SV = #sparse_tensor.encoding<{ map = (d0) -> (d0 : compressed) }>
#CSR = #sparse_tensor.encoding<{ map = (d0, d1) -> (d0 : dense, d1 : compressed) }>

// CHECK-LABEL: func.func @vecmat(
// CHECK: ^bb0(%[[J:.*]]: index, %[[I:.*]]: index, %[[X:.*]]: !sparse_array.array<4xf64, #{{.*}}>, %[[A:.*]]: !sparse_array.array<4x5xf64, #{{.*}}>):
// CHECK-DAG: sparse_array.access %[[X]][%[[I]]]
// CHECK-DAG: sparse_array.access %[[A]][%[[I]], %[[J]]]
// CHECK: sparse_array.reduce_over [%[[I]]] %{{.*}} with @__sa_import_arith_addf_f64
func.func @vecmat(%x: tensor<4xf64, #SV>, %A: tensor<4x5xf64, #CSR>) -> tensor<5xf64> {
  %z = arith.constant 0.0 : f64
  %e = tensor.empty() : tensor<5xf64>
  %y = linalg.fill ins(%z : f64) outs(%e : tensor<5xf64>) -> tensor<5xf64>
  %r = linalg.vecmat ins(%x, %A : tensor<4xf64, #SV>, tensor<4x5xf64, #CSR>) outs(%y : tensor<5xf64>) -> tensor<5xf64>
  return %r : tensor<5xf64>
}

// A dot product: a rank-0 result, every loop reduced.
// CHECK-LABEL: func.func @dot(
// CHECK: -> !sparse_array.array<f64>
// CHECK: ^bb0(%[[K:.*]]: index, %{{.*}}: !sparse_array{{.*}}, %{{.*}}: !sparse_array{{.*}}):
// CHECK: sparse_array.reduce_over [%[[K]]]
func.func @dot(%a: tensor<8xf64, #SV>, %b: tensor<8xf64, #SV>) -> tensor<f64> {
  %z = arith.constant 0.0 : f64
  %e = tensor.empty() : tensor<f64>
  %y = linalg.fill ins(%z : f64) outs(%e : tensor<f64>) -> tensor<f64>
  %r = linalg.dot ins(%a, %b : tensor<8xf64, #SV>, tensor<8xf64, #SV>) outs(%y : tensor<f64>) -> tensor<f64>
  return %r : tensor<f64>
}

// CHECK-LABEL: func.func @binary_named(
// CHECK: sparse_array.apply @__sa_import_arith_divf_f32
// CHECK: sparse_array.apply @__sa_import_arith_maximumf_f32
// CHECK: sparse_array.apply @__sa_import_arith_minimumf_f32
func.func @binary_named(%a: tensor<8xf32, #SV>, %b: tensor<8xf32>) -> tensor<8xf32> {
  %e = tensor.empty() : tensor<8xf32>
  %d = linalg.div ins(%a, %b : tensor<8xf32, #SV>, tensor<8xf32>) outs(%e : tensor<8xf32>) -> tensor<8xf32>
  %m = linalg.max ins(%d, %b : tensor<8xf32>, tensor<8xf32>) outs(%e : tensor<8xf32>) -> tensor<8xf32>
  %n = linalg.min ins(%m, %d : tensor<8xf32>, tensor<8xf32>) outs(%e : tensor<8xf32>) -> tensor<8xf32>
  return %n : tensor<8xf32>
}

// linalg.map with a region, linalg.copy and linalg.transpose.
// CHECK-LABEL: func.func @map_copy_transpose(
// CHECK: sparse_array.apply @__sa_import_math_sqrt_f64
// CHECK: sparse_array.kernel ins(%{{.*}} : !sparse_array.array<4x5xf64>) -> !sparse_array.array<4x5xf64>
// CHECK: ^bb0(%[[I:.*]]: index, %[[J:.*]]: index, %[[S:.*]]: !sparse_array.array<4x5xf64>):
// CHECK-NEXT: %[[V:.*]] = sparse_array.access %[[S]][%[[I]], %[[J]]]
// CHECK-NEXT: sparse_array.yield %[[V]]
// CHECK: sparse_array.kernel ins(%{{.*}} : !sparse_array.array<4x5xf64>) -> !sparse_array.array<5x4xf64, #{{.*}}>
// CHECK: ^bb0(%[[J:.*]]: index, %[[I:.*]]: index, %[[S:.*]]: !sparse_array.array<4x5xf64>):
// CHECK-NEXT: %[[V:.*]] = sparse_array.access %[[S]][%[[I]], %[[J]]]
func.func @map_copy_transpose(%a: tensor<4x5xf64, #CSR>) -> tensor<5x4xf64, #CSR> {
  %e = tensor.empty() : tensor<4x5xf64>
  %s = linalg.map ins(%a : tensor<4x5xf64, #CSR>) outs(%e : tensor<4x5xf64>)
    (%x: f64, %o: f64) {
      %r = math.sqrt %x : f64
      linalg.yield %r : f64
    }
  %c = linalg.copy ins(%s : tensor<4x5xf64>) outs(%e : tensor<4x5xf64>) -> tensor<4x5xf64>
  %t0 = tensor.empty() : tensor<5x4xf64, #CSR>
  %t = linalg.transpose ins(%c : tensor<4x5xf64>) outs(%t0 : tensor<5x4xf64, #CSR>) permutation = [1, 0]
  return %t : tensor<5x4xf64, #CSR>
}

// linalg.elementwise (LLVM 22's named element-wise op) and integer ops.
// CHECK-LABEL: func.func @elementwise_int(
// CHECK: sparse_array.apply @__sa_import_arith_muli_i32
// CHECK: sparse_array.apply @__sa_import_arith_subi_i32
// CHECK-DAG: sparse_array.func private @__sa_import_arith_muli_i32({{.*}}) -> i32 attributes {annihilator = #sparse_array.annihilator<0 : i32>, associative, commutative, identity = #sparse_array.identity<1 : i32>}
// CHECK-DAG: sparse_array.func private @__sa_import_arith_subi_i32({{.*}}) -> i32 attributes {identity = #sparse_array.identity<0 : i32, positions = [1]>}
func.func @elementwise_int(%a: tensor<8xi32, #SV>, %b: tensor<8xi32, #SV>) -> tensor<8xi32, #SV> {
  %e = tensor.empty() : tensor<8xi32, #SV>
  %m = linalg.elementwise kind=#linalg.elementwise_kind<mul> ins(%a, %b : tensor<8xi32, #SV>, tensor<8xi32, #SV>) outs(%e : tensor<8xi32, #SV>) -> tensor<8xi32, #SV>
  %s = linalg.sub ins(%m, %b : tensor<8xi32, #SV>, tensor<8xi32, #SV>) outs(%e : tensor<8xi32, #SV>) -> tensor<8xi32, #SV>
  return %s : tensor<8xi32, #SV>
}
