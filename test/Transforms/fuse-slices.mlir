// RUN: sa-opt %s --sparse-array-fuse --split-input-file | FileCheck %s
// Slices become sliced accesses and compose through fusion (seed 001 §5.2):
// no temporary for a slice of an expression, an expression of slices, or a
// slice of a slice.

sparse_array.func @add(%x: f64, %y: f64) -> f64 attributes {commutative} {
  %r = arith.addf %x, %y : f64
  sparse_array.yield %r : f64
}
!A = !sparse_array.array<10x6xf64, #sparse_array.format<[dense, compressed]>>
!R = !sparse_array.array<4x2xf64, #sparse_array.format<[dense, compressed]>>
!V = !sparse_array.array<2xf64, #sparse_array.format<[compressed]>>
!S = !sparse_array.array<6xf64, #sparse_array.format<[compressed]>>

// A slice alone: a kernel reading the source through the slice; negative
// and omitted bounds are normalized (-9:9:2 of 10 is 1:9:2), an integer
// index is a fixed coordinate.
// CHECK-LABEL: func.func @slice_alone(
// CHECK: sparse_array.kernel ins(%{{.*}} : !sparse_array.array<10x6xf64, #csr>) -> !sparse_array.array<4x2xf64, #csr>
// CHECK: ^bb0(%[[I:[^:]*]]: index, %[[J:[^:]*]]: index, %[[A:[^:]*]]: {{.*}}):
// CHECK: sparse_array.access %[[A]][%[[I]](1:9:2), %[[J]](0:6:3)]
// CHECK-LABEL: func.func @row_of(
// CHECK: %[[C7:.*]] = arith.constant 7 : index
// CHECK: sparse_array.access %{{.*}}[%[[C7]], %{{.*}}]
func.func @slice_alone(%a: !A) -> !R {
  %r = sparse_array.slice %a[-9:9:2, ::3] : !A -> !R
  return %r : !R
}
func.func @row_of(%a: !A) -> !S {
  %r = sparse_array.slice %a[-3] : !A -> !S
  return %r : !S
}

// A slice of a computed expression: one kernel, both operands sliced.
// CHECK-LABEL: func.func @slice_of_map(
// CHECK: sparse_array.kernel ins(%{{.*}}, %{{.*}} :
// CHECK: sparse_array.access %{{.*}}[%[[I:.*]](1:9:2), %[[J:.*]](0:6:3)]
// CHECK: sparse_array.access %{{.*}}[%[[I]](1:9:2), %[[J]](0:6:3)]
// CHECK: sparse_array.apply @add
// CHECK-NOT: sparse_array.kernel
func.func @slice_of_map(%a: !A, %b: !A) -> !R {
  %m = sparse_array.map @add(%a, %b) : (!A, !A) -> !A
  %r = sparse_array.slice %m[1:9:2, ::3] : !A -> !R
  return %r : !R
}

// An expression of slices: one kernel over the sources.
// CHECK-LABEL: func.func @map_of_slices(
// CHECK: sparse_array.kernel ins(%{{.*}}, %{{.*}} :
// CHECK: sparse_array.access %{{.*}}[%[[I:.*]](1:9:2), %[[J:.*]](0:6:3)]
// CHECK: sparse_array.access %{{.*}}[%[[I]](0:4), %[[J]](4:6)]
// CHECK-NOT: sparse_array.kernel
func.func @map_of_slices(%a: !A, %b: !A) -> !R {
  %s = sparse_array.slice %a[1:9:2, ::3] : !A -> !R
  %t = sparse_array.slice %b[0:4, 4:] : !A -> !R
  %r = sparse_array.map @add(%s, %t) : (!R, !R) -> !R
  return %r : !R
}

// A slice of a slice is one slice: rows 1, 3, 5, 7 then 1:3 of those are
// rows 3 and 5 (3:6:2); column -1 of columns 0, 3 is column 3.
// CHECK-LABEL: func.func @slice_of_slice(
// CHECK: %[[C3:.*]] = arith.constant 3 : index
// CHECK: sparse_array.access %{{.*}}[%{{.*}}(3:6:2), %[[C3]]]
// CHECK-NOT: sparse_array.kernel
func.func @slice_of_slice(%a: !A) -> !V {
  %s = sparse_array.slice %a[1:9:2, ::3] : !A -> !R
  %t = sparse_array.slice %s[1:3, -1] : !R -> !V
  return %t : !V
}

// An empty slice of a slice reads nothing: (0:0).
// CHECK-LABEL: func.func @empty_slice_of_slice(
// CHECK: sparse_array.access %{{.*}}[%{{.*}}(0:0), %{{.*}}(0:6:3)]
func.func @empty_slice_of_slice(%a: !A) -> !sparse_array.array<0x2xf64> {
  %s = sparse_array.slice %a[1:9:2, ::3] : !A -> !R
  %t = sparse_array.slice %s[4:] : !R -> !sparse_array.array<0x2xf64>
  return %t : !sparse_array.array<0x2xf64>
}

// A reduction of a slice: the slice is read inside the reduction.
// CHECK-LABEL: func.func @rowsum_of_slice(
// CHECK: sparse_array.access %{{.*}}[%[[I:.*]](1:9:2), %[[J:.*]](0:6:3)]
// CHECK: sparse_array.reduce_over [%[[J]]]
// CHECK-NOT: sparse_array.kernel
func.func @rowsum_of_slice(%a: !A) -> !sparse_array.array<4xf64> {
  %s = sparse_array.slice %a[1:9:2, ::3] : !A -> !R
  %r = sparse_array.reduce @add %s dims [1] : !R -> !sparse_array.array<4xf64>
  return %r : !sparse_array.array<4xf64>
}
