// RUN: sa-run %s | FileCheck %s
// A concatenation reduced over its own dimension, the reduction then read
// by another kernel (expand_dims): fusing the fused reduction again met a
// select_range over the reduced index, which the consumer does not read,
// and crashed the compiler (fuzz_idioms.py seed 3080 program 446,
// np.stack([x, y]).all(axis=0, keepdims=True)). Expected, by hand (numpy:
// np.logical_and(a != 0, b != 0)[None]):
//   a = [[[0, nan], [nan, 3]]] (fill nan), b = [[[inf, 0], [inf, 0]]] (fill inf)
//   a != 0 = [[F, T], [T, T]], b != 0 = [[T, F], [T, F]]
//   and    = [[F, F], [T, F]]: the falses are stored (the fill is true)
// CHECK: # fill: 1
// CHECK-NEXT: 4 3
// CHECK-NEXT: 1 1 2 2
// CHECK-NEXT: 1 1 1 1 0
// CHECK-NEXT: 1 1 1 2 0
// CHECK-NEXT: 1 1 2 2 0
!a = !sparse_array.array<1x2x2xf64, #sparse_array.format<[dense, compressed, compressed], fill = nan : f64>>
!a2 = !sparse_array.array<1x2x2xf64, #sparse_array.format<[dense, compressed, compressed], fill = inf : f64>>
!e = !sparse_array.array<1x1x2x2xf64, #sparse_array.format<[dense, dense, dense, compressed], fill = nan : f64>>
!e2 = !sparse_array.array<1x1x2x2xf64, #sparse_array.format<[dense, dense, dense, compressed], fill = inf : f64>>
!c = !sparse_array.array<2x1x2x2xf64, #sparse_array.format<[dense, dense, dense, compressed], fill = nan : f64>>
!b = !sparse_array.array<2x1x2x2xi1, #sparse_array.format<[dense, dense, dense, compressed], fill = true>>
!r = !sparse_array.array<1x2x2xi1, #sparse_array.format<[dense, dense, compressed], fill = true>>
!r4 = !sparse_array.array<1x1x2x2xi1, #sparse_array.format<[dense, dense, dense, compressed], fill = true>>
sparse_array.func @ne(%x: f64) -> i1 {
  %z = arith.constant 0.0 : f64
  %r = arith.cmpf une, %x, %z : f64
  sparse_array.yield %r : i1
}
sparse_array.func @and_i1(%x: i1, %y: i1) -> i1
    attributes {commutative, associative, idempotent,
                annihilator = #sparse_array.annihilator<0 : i1>,
                identity = #sparse_array.identity<1 : i1>} {
  %r = arith.andi %x, %y : i1
  sparse_array.yield %r : i1
}
func.func @all_of_stacked(%in0: !a, %in1: !a2) -> !r4 {
  %n0 = sparse_array.expand_dims %in0 [0] : !a -> !e
  %n1 = sparse_array.expand_dims %in1 [0] : !a2 -> !e2
  %n2 = sparse_array.concat %n0, %n1 dim 0 : !e, !e2 -> !c
  %n3 = sparse_array.map @ne(%n2) : (!c) -> !b
  %n4 = sparse_array.reduce @and_i1 %n3 dims [0] : !b -> !r
  %n5 = sparse_array.expand_dims %n4 [0] : !r -> !r4
  return %n5 : !r4
}
func.func @main() {
  %a = sparse_array.constant sparse<[[0, 0, 0], [0, 1, 1]], [0.0, 3.0]> : tensor<1x2x2xf64> : !a
  %b = sparse_array.constant sparse<[[0, 0, 1], [0, 1, 1]], [0.0, 0.0]> : tensor<1x2x2xf64> : !a2
  %r = func.call @all_of_stacked(%a, %b) : (!a, !a2) -> !r4
  sparse_array.print %r : !r4
  sparse_array.dealloc %r : !r4
  return
}
