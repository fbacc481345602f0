// RUN: sa-run %s | FileCheck %s
// RUN: sa-run -O0 %s | FileCheck %s
// Found by elementwise.py (seed 231, --slices 0.6): a split of a union of a
// DCSR whose buffers are constant globals put (0, 0, 0) = 6 at (0, 0, 1).
// The lowered program was right (clang and lli ran it right). LLVM 22's x86
// code generator for -mcpu=znver4/znver5 with the large code model and
// static relocations, MLIR's ExecutionEngine defaults, replaced the
// coordinate's `and $1` (urem 2) by `mov $1` (`llc -code-model=large
// -relocation-model=static -mcpu=znver5` reproduces it). The JIT now
// generates position-independent code with the default code model.
// Reference: or(x, x) = x, so the result is the input split 2x2 -> 2x1x2:
// (0, 0) = 6 lands at (0, 0, 0); (1, 1) = 42 is the fill, not printed.

#dcsr = #sparse_array.format<[compressed, compressed], fill = 42 : i64>
#split = #sparse_array.format<[dense, compressed, compressed], fill = 42 : i64>

memref.global "private" constant @pos0 : memref<2xi64> = dense<[0, 2]>
memref.global "private" constant @crd0 : memref<2xi64> = dense<[0, 1]>
memref.global "private" constant @pos1 : memref<3xi64> = dense<[0, 1, 2]>
memref.global "private" constant @crd1 : memref<2xi64> = dense<[0, 1]>
memref.global "private" constant @vals : memref<2xi64> = dense<[6, 42]>

sparse_array.func @or_i64(%x: i64, %y: i64) -> i64 {
  %r = arith.ori %x, %y : i64
  sparse_array.yield %r : i64
}

func.func @main() {
  %p0s = memref.get_global @pos0 : memref<2xi64>
  %p0 = memref.cast %p0s : memref<2xi64> to memref<?xi64>
  %c0s = memref.get_global @crd0 : memref<2xi64>
  %c0 = memref.cast %c0s : memref<2xi64> to memref<?xi64>
  %p1s = memref.get_global @pos1 : memref<3xi64>
  %p1 = memref.cast %p1s : memref<3xi64> to memref<?xi64>
  %c1s = memref.get_global @crd1 : memref<2xi64>
  %c1 = memref.cast %c1s : memref<2xi64> to memref<?xi64>
  %vs = memref.get_global @vals : memref<2xi64>
  %v = memref.cast %vs : memref<2xi64> to memref<?xi64>
  %n = arith.constant 2 : index
  %a = sparse_array.assemble (%p0, %c0, %p1, %c1, %v), (%n, %n) : memref<?xi64>, memref<?xi64>, memref<?xi64>, memref<?xi64>, memref<?xi64> -> !sparse_array.array<2x2xi64, #dcsr>
  %e = sparse_array.map @or_i64(%a, %a) : (!sparse_array.array<2x2xi64, #dcsr>, !sparse_array.array<2x2xi64, #dcsr>) -> !sparse_array.array<2x2xi64, #dcsr>
  %s = sparse_array.split %e dim 1 [1, 2] : !sparse_array.array<2x2xi64, #dcsr> -> !sparse_array.array<2x1x2xi64, #split>
  // CHECK: # fill: 42
  // CHECK-NEXT: 3 1
  // CHECK-NEXT: 2 1 2
  // CHECK-NEXT: 1 1 1 6
  sparse_array.print %s : !sparse_array.array<2x1x2xi64, #split>
  return
}
