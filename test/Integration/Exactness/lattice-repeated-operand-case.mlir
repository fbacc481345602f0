// RUN: sa-run %s | FileCheck %s
// RUN: sa-run --linear-threshold=0 %s | FileCheck %s
// A function whose algebra c ∪ (b ∩ ¬a) repeats a: where a and c are
// stored and b is not, its value is 100c + 1000ac, which needs a's stored
// value. Seed 000's lattice construction dropped the case {a, c} (its
// filtered product loses pairs of repeated operands), so the loop took
// case {c} and computed with a's fill: 400 instead of 4400 at i = 0.
// Expected values by hand: f(a, b, c) = 100c + (a == 0 ? 10b : 0) + 1000ac
// with a = [1, 0, 0, 0], b = [0, 2, 3, 0], c = [4, 0, 5, 7]
// (numpy: 100*c + np.where(a == 0, 10*b, 0) + 1000*a*c).
// CHECK:      # fill: 0
// CHECK-NEXT: 1 4
// CHECK-NEXT: 4
// CHECK-NEXT: 1 4400
// CHECK-NEXT: 2 20
// CHECK-NEXT: 3 530
// CHECK-NEXT: 4 700
// CHECK:      # fill: 0
// CHECK-NEXT: 1 4
// CHECK-NEXT: 4
// CHECK-NEXT: 1 4400
// CHECK-NEXT: 2 20
// CHECK-NEXT: 3 530
// CHECK-NEXT: 4 700

sparse_array.func @f(%a: f64, %b: f64, %c: f64) -> f64
    attributes {algebra = #sparse_array.algebra<union(2, intersect(1, complement(0))),
                                                fills = [0.0 : f64, 0.0 : f64, 0.0 : f64]>} {
  %z = arith.constant 0.0 : f64
  %c10 = arith.constant 10.0 : f64
  %c100 = arith.constant 100.0 : f64
  %c1000 = arith.constant 1000.0 : f64
  %az = arith.cmpf oeq, %a, %z : f64
  %b10 = arith.mulf %b, %c10 : f64
  %bt = arith.select %az, %b10, %z : f64
  %c1 = arith.mulf %c, %c100 : f64
  %ac = arith.mulf %a, %c : f64
  %ac1 = arith.mulf %ac, %c1000 : f64
  %s = arith.addf %c1, %bt : f64
  %r = arith.addf %s, %ac1 : f64
  sparse_array.yield %r : f64
}
!sv = !sparse_array.array<4xf64, #sparse_array.format<[compressed]>>
!dv = !sparse_array.array<4xf64, #sparse_array.format<[dense]>>
func.func @main() {
  %a = sparse_array.constant sparse<[[0]], [1.0]> : tensor<4xf64> : !sv
  %b = sparse_array.constant sparse<[[1], [2]], [2.0, 3.0]> : tensor<4xf64> : !sv
  %c = sparse_array.constant sparse<[[0], [2], [3]], [4.0, 5.0, 7.0]> : tensor<4xf64> : !sv
  %r = sparse_array.map @f(%a, %b, %c) : (!sv, !sv, !sv) -> !sv
  sparse_array.print %r : !sv
  %d = sparse_array.map @f(%a, %b, %c) : (!sv, !sv, !sv) -> !dv
  sparse_array.print %d : !dv
  return
}
