// RUN: sa-opt %s --canonicalize | FileCheck %s
// Folders: sparse_array.dim of a static size becomes an arith constant
// (the dialect's constant materializer), of a dynamic one stays; a convert
// to the type it has is its source.

!s = !sparse_array.array<3x?xf64, #sparse_array.format<[dense, compressed]>>

// CHECK-LABEL: func.func @dims(
// CHECK-SAME: %[[A:.*]]: !sparse_array.array<3x?xf64
// CHECK-DAG: %[[C3:.*]] = arith.constant 3 : index
// CHECK-DAG: %[[D:.*]] = sparse_array.dim %[[A]][1]
// CHECK-NOT: sparse_array.dim
// CHECK: return %[[C3]], %[[D]]
func.func @dims(%a: !s) -> (index, index) {
  %r = sparse_array.dim %a[0] : !s
  %c = sparse_array.dim %a[1] : !s
  return %r, %c : index, index
}

// CHECK-LABEL: func.func @same_type(
// CHECK-SAME: %[[A:.*]]: !sparse_array.array
// CHECK-NOT: sparse_array.convert
// CHECK: return %[[A]]
func.func @same_type(%a: !s) -> !s {
  %b = sparse_array.convert %a : !s to !s
  return %b : !s
}
