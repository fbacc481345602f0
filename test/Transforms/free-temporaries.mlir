// RUN: sa-opt %s --sparse-array-free-temporaries --split-input-file | FileCheck %s
// Arrays computed and only read by computations in their block are freed
// after their last use; anything else is left alone.

!v = !sparse_array.array<?xf64, #sparse_array.format<[compressed]>>
sparse_array.func @add(%x: f64, %y: f64) -> f64
    attributes {commutative, identity = #sparse_array.identity<-0.0 : f64>} {
  %r = arith.addf %x, %y : f64
  sparse_array.yield %r : f64
}
// %s is read by two maps: freed after the second; %t by the print and a
// map: after the map; the result is returned, not freed.
// CHECK-LABEL: func.func @chain(
// CHECK: %[[S:.*]] = sparse_array.map @add
// CHECK: %[[T:.*]] = sparse_array.map @add(%[[S]]
// CHECK: sparse_array.print %[[T]]
// CHECK: %[[R:.*]] = sparse_array.map @add(%[[S]], %[[T]])
// CHECK-NEXT: sparse_array.dealloc %[[T]]
// CHECK-NEXT: sparse_array.dealloc %[[S]]
// CHECK-NOT: sparse_array.dealloc
// CHECK: return %[[R]]
func.func @chain(%a: !v, %b: !v) -> !v {
  %s = sparse_array.map @add(%a, %b) : (!v, !v) -> !v
  %t = sparse_array.map @add(%s, %a) : (!v, !v) -> !v
  sparse_array.print %t : !v
  %r = sparse_array.map @add(%s, %t) : (!v, !v) -> !v
  return %r : !v
}

// Freed already, passed to a call, converted (the conversion may fold to
// it), or unused: no dealloc is added.
// CHECK-LABEL: func.func @left_alone(
// CHECK-COUNT-1: sparse_array.dealloc
// CHECK-NOT: sparse_array.dealloc
// CHECK: return
func.func private @consume(!v)
func.func @left_alone(%a: !v, %b: !v) -> !v {
  %s = sparse_array.map @add(%a, %b) : (!v, !v) -> !v
  sparse_array.print %s : !v
  sparse_array.dealloc %s : !v
  %t = sparse_array.map @add(%a, %b) : (!v, !v) -> !v
  func.call @consume(%t) : (!v) -> ()
  %u = sparse_array.map @add(%a, %b) : (!v, !v) -> !v
  %c = sparse_array.convert %u : !v to !v
  %w = sparse_array.map @add(%a, %b) : (!v, !v) -> !v
  return %c : !v
}

// A use in a nested region: left alone.
// CHECK-LABEL: func.func @in_region(
// CHECK-NOT: sparse_array.dealloc
// CHECK: return
func.func @in_region(%a: !v, %b: !v, %p: i1) {
  %s = sparse_array.map @add(%a, %b) : (!v, !v) -> !v
  scf.if %p {
    sparse_array.print %s : !v
  }
  return
}

// -----

// A reshape's collapsed intermediate (merged levels, then divided): new
// storage each, read by the split only; it leaked on every call.
!csr = !sparse_array.array<4x6xf64, #sparse_array.format<[dense, compressed]>>
!vec = !sparse_array.array<24xf64, #sparse_array.format<[compressed]>>
!csr38 = !sparse_array.array<3x8xf64, #sparse_array.format<[dense, compressed]>>
// CHECK-LABEL: func.func @reshape_parts(
// CHECK: %[[C:.*]] = sparse_array.collapse
// CHECK: %[[S:.*]] = sparse_array.split %[[C]]
// CHECK-NEXT: sparse_array.dealloc %[[C]]
// CHECK-NOT: sparse_array.dealloc
// CHECK: return %[[S]]
func.func @reshape_parts(%a: !csr) -> !csr38 {
  %c = sparse_array.collapse %a [0, 1] : !csr -> !vec
  %s = sparse_array.split %c dim 0 [3, 8] : !vec -> !csr38
  return %s : !csr38
}

// -----

// A slice of a stored array given the result's fill for a concatenation
// (change_fill: the runtime's repack into a new array) and a concatenation
// read by a map: each copies its entries into new storage, freed after its
// one reader; they leaked on every call.
!a1 = !sparse_array.array<5x4xf64, #sparse_array.format<[dense, compressed], fill = 1.0 : f64>>
!s1 = !sparse_array.array<3x4xf64, #sparse_array.format<[dense, compressed], fill = 1.0 : f64>>
!s0 = !sparse_array.array<3x4xf64, #sparse_array.format<[dense, compressed]>>
!b = !sparse_array.array<3x2xf64, #sparse_array.format<[dense, compressed]>>
!r = !sparse_array.array<3x6xf64, #sparse_array.format<[dense, compressed]>>
// CHECK-LABEL: func.func @slice_refilled(
// CHECK: %[[S:.*]] = sparse_array.slice
// CHECK: %[[F:.*]] = sparse_array.change_fill %[[S]]
// CHECK-NEXT: sparse_array.dealloc %[[S]]
// CHECK: %[[C:.*]] = sparse_array.concat %[[F]]
// CHECK: %[[M:.*]] = sparse_array.map @neg(%[[C]])
// CHECK-NEXT: sparse_array.dealloc %[[C]]
// CHECK-NOT: sparse_array.dealloc
// CHECK: return %[[M]]
sparse_array.func @neg(%x: f64) -> f64 {
  %r = arith.negf %x : f64
  sparse_array.yield %r : f64
}
func.func @slice_refilled(%a: !a1, %b: !b) -> !r {
  %s = sparse_array.slice %a[1:4] : !a1 -> !s1
  %f = sparse_array.change_fill %s : !s1 to !s0
  %c = sparse_array.concat %f, %b dim 1 : !s0, !b -> !r
  %m = sparse_array.map @neg(%c) : (!r) -> !r
  return %m : !r
}

// A slice returned is the caller's: not freed.
// CHECK-LABEL: func.func @slice_returned(
// CHECK-NOT: sparse_array.dealloc
// CHECK: return
func.func @slice_returned(%a: !a1) -> (!s1, !s0) {
  %s = sparse_array.slice %a[1:4] : !a1 -> !s1
  %f = sparse_array.change_fill %s : !s1 to !s0
  return %s, %f : !s1, !s0
}
