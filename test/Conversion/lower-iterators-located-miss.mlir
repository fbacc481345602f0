// RUN: sa-opt %s --sparse-array-lower-iterators --canonicalize --cse | FileCheck %s
// A hashed level located at every coordinate of its loop (a plan written
// by hand: sparse-array-build-lattices iterates an ordered copy instead,
// locatingVisitsAll): where the probe misses, the point is one without the
// input — the body is not evaluated there at the fill. LLVM folds
// -inf - -inf to +NaN where the hardware and the derived result fill give
// -NaN: evaluated at every miss, the body stored an entry there, past the
// capacity the input's entries size (7b1c742).
!hninf = !sparse_array.array<?xf64, #sparse_array.format<[hashed], fill = 0xFFF0000000000000 : f64>>
!snan = !sparse_array.array<?xf64, #sparse_array.format<[compressed], fill = 0xFFF8000000000000 : f64>>
sparse_array.func @ninf_minus(%x: f64) -> f64 {
  %ninf = arith.constant 0xFFF0000000000000 : f64
  %r = arith.subf %ninf, %x : f64
  sparse_array.yield %r : f64
}
// CHECK-LABEL: func.func @gaps(
// CHECK: scf.for
// CHECK: %[[P:.*]]:3 = scf.while
// CHECK: %[[FOUND:.*]] = arith.cmpi eq, %[[P]]#2, %{{.*}}
// CHECK: %[[V:.*]] = arith.select %[[FOUND]], %{{.*}}, %[[NINF:.*]] : f64
// CHECK: %[[BITS:.*]] = arith.bitcast %[[V]] : f64 to i64
// CHECK: %[[IN:.*]] = arith.cmpi ne, %[[BITS]], %{{.*}} : i64
// CHECK: scf.if %[[IN]]
// CHECK: arith.subf %[[NINF]], %[[V]] : f64
// CHECK: memref.store
// CHECK: } else {
func.func @gaps(%x: !hninf) -> !snan {
  %r = sparse_array.kernel ins(%x : !hninf) -> !snan attributes {algebra = #sparse_array.algebra<0>, fill = #sparse_array.scalar<0xFFF8000000000000 : f64>, lattices = [#sparse_array.lattice<loop 0, present [0], coiterate [], points [{U} produce]>]} {
  ^bb0(%i: index, %X: !hninf):
    %v = sparse_array.access %X[%i] : !hninf
    %m = sparse_array.apply @ninf_minus(%v) : (f64) -> f64
    sparse_array.yield %m : f64
  }
  return %r : !snan
}
