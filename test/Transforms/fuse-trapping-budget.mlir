// RUN: sa-opt %s --sparse-array-fuse | FileCheck %s
// A fused kernel whose functions may trap cannot be planned as one linear
// loop (issue 14, class 6): fusion stops at 5 inputs there, so its lattices
// stay small; functions that cannot trap fuse without that bound.

!v = !sparse_array.array<16xi64, #sparse_array.format<[compressed]>>
sparse_array.func @add(%x: i64, %y: i64) -> i64
    attributes {commutative, associative, identity = #sparse_array.identity<0 : i64>} {
  %r = arith.addi %x, %y : i64
  sparse_array.yield %r : i64
}
sparse_array.func @div(%x: i64, %y: i64) -> i64
    attributes {annihilator = #sparse_array.annihilator<0 : i64, positions = [0]>} {
  %r = arith.divsi %x, %y : i64
  sparse_array.yield %r : i64
}

// ((((a + b) + c) + d) + e) / f: six inputs with a division: two kernels,
// neither over more than five inputs (a + b stays apart).
// CHECK-LABEL: func.func @trapping_chain(
// CHECK: %[[S:.*]] = sparse_array.kernel ins(%{{[^,]*}}, %{{[^,]*}} :
// CHECK: sparse_array.kernel ins(%[[S]], %{{[^,]*}}, %{{[^,]*}}, %{{[^,]*}}, %{{[^,]*}} :
// CHECK: sparse_array.apply @div
func.func @trapping_chain(%a: !v, %b: !v, %c: !v, %d: !v, %e: !v, %f: !v) -> !v {
  %1 = sparse_array.map @add(%a, %b) : (!v, !v) -> !v
  %2 = sparse_array.map @add(%1, %c) : (!v, !v) -> !v
  %3 = sparse_array.map @add(%2, %d) : (!v, !v) -> !v
  %4 = sparse_array.map @add(%3, %e) : (!v, !v) -> !v
  %5 = sparse_array.map @div(%4, %f) : (!v, !v) -> !v
  return %5 : !v
}

// The same sum over six inputs fuses into one kernel.
// CHECK-LABEL: func.func @sum_chain(
// CHECK: sparse_array.kernel ins(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} :
// CHECK-NOT: sparse_array.kernel
// CHECK: return
func.func @sum_chain(%a: !v, %b: !v, %c: !v, %d: !v, %e: !v, %f: !v) -> !v {
  %1 = sparse_array.map @add(%a, %b) : (!v, !v) -> !v
  %2 = sparse_array.map @add(%1, %c) : (!v, !v) -> !v
  %3 = sparse_array.map @add(%2, %d) : (!v, !v) -> !v
  %4 = sparse_array.map @add(%3, %e) : (!v, !v) -> !v
  %5 = sparse_array.map @add(%4, %f) : (!v, !v) -> !v
  return %5 : !v
}
