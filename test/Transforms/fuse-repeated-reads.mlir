// RUN: sa-opt %s --sparse-array-fuse | FileCheck %s
// RUN: sa-run %s | FileCheck %s --check-prefix=EXEC
// A producer that reads one input at several places (add(r, r): its
// repeated input merged) fused into a consumer that splits its result:
// each of the producer's reads composes with the consumer's split read,
// and they must stay one list of index values per input (the kernel
// verifier's rule). Before, each read composed into a linearize of its
// own and the fused kernel failed verification ("accesses input 0
// differently"; found by elementwise.py --slices). Values by hand:
// r = [2]; (r + r) - (r - r) = 4; (r - r) + r = 2; 4 - 2 = 2.

sparse_array.func @add(%x: f64, %y: f64) -> f64 attributes {commutative, associative, identity = #sparse_array.identity<0.0 : f64>} {
  %r = arith.addf %x, %y : f64
  sparse_array.yield %r : f64
}
sparse_array.func @sub(%x: f64, %y: f64) -> f64 {
  %r = arith.subf %x, %y : f64
  sparse_array.yield %r : f64
}
!big = !sparse_array.array<1x1x1xf64, #sparse_array.format<[compressed, dense, compressed]>>
!v = !sparse_array.array<1xf64, #sparse_array.format<[compressed]>>
!m = !sparse_array.array<1x1xf64, #sparse_array.format<[compressed(nonunique), singleton]>>

// CHECK-LABEL: func.func @main
// CHECK:         sparse_array.kernel
// CHECK-NOT:     sparse_array.kernel
// EXEC:      # fill: 0
// EXEC-NEXT: 2 1
// EXEC-NEXT: 1 1
// EXEC-NEXT: 1 1 2
func.func @main() {
  %a = sparse_array.constant sparse<[[0, 0, 0]], [2.0]> : tensor<1x1x1xf64> : !big
  %r = sparse_array.reshape %a [1] : !big -> !v
  %s = sparse_array.map @add(%r, %r) : (!v, !v) -> !v
  %t = sparse_array.map @sub(%r, %r) : (!v, !v) -> !v
  %u0 = sparse_array.map @sub(%s, %t) : (!v, !v) -> !v
  %x = sparse_array.map @sub(%r, %r) : (!v, !v) -> !v
  %y = sparse_array.map @add(%x, %r) : (!v, !v) -> !v
  %u = sparse_array.map @sub(%u0, %y) : (!v, !v) -> !v
  %w = sparse_array.split %u dim 0 [1, 1] : !v -> !m
  sparse_array.print %w : !m
  return
}
