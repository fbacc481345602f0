// RUN: sa-opt %s --sparse-array-pipeline | FileCheck %s
// A concatenation part computed with another fill fuses with a range
// marker (a dense i1 constant of the part's extent, select_range's
// `ranges`): the loops iterate its window and never load its values, so
// once the kernel is lowered the constant is dead and erased; nothing of
// it reaches the generated code (no global, no run-time conversion).

sparse_array.func @add1(%x: f64) -> f64 {
  %one = arith.constant 1.0 : f64
  %r = arith.addf %x, %one : f64
  sparse_array.yield %r : f64
}

!a = !sparse_array.array<1000x4xf64, #sparse_array.format<[dense, compressed]>>
!b1 = !sparse_array.array<1000x4xf64, #sparse_array.format<[dense, compressed], fill = 1.0 : f64>>
!h = !sparse_array.array<2000x4xf64, #sparse_array.format<[dense, compressed]>>

// CHECK-NOT: dense<true>
// CHECK-NOT: __sa_const
// CHECK-LABEL: llvm.func @vstack(
// CHECK-NOT: sa_rt_array_convert
// CHECK: llvm.return
func.func @vstack(%a: !a, %b: !a) -> !h {
  %p = sparse_array.map @add1(%b) : (!a) -> !b1
  %h = sparse_array.concat %a, %p dim 0 : !a, !b1 -> !h
  return %h : !h
}
