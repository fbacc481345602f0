// RUN: sa-run %s | FileCheck %s
// RUN: sa-run --bounds-checks -O0 %s | FileCheck %s
// RUN: not sa-run --entry-point=indivisible %s 2>&1 | FileCheck %s --check-prefix=BAD
// RUN: not sa-run --entry-point=mismatched_rows %s 2>&1 | FileCheck %s --check-prefix=BADROWS
// RUN: not sa-run --entry-point=mismatched_windows %s 2>&1 | FileCheck %s --check-prefix=BADWIN
// RUN: sa-opt %s --sparse-array-fuse --sparse-array-free-temporaries | FileCheck %s --check-prefix=FUSE
// numpy.reshape with sizes known only at run time (-1 inferred): the
// dimensions innermost in the linearization group by their static sizes,
// the rest (the dynamic ones) form the outermost group, collapsed and
// split with their outer size taken at run time. Of a computed array it
// fuses: one kernel reading the sum through delinearize/linearize, no
// temporary. Expected entries: numpy's reshape (C and F order) of
// A + B, U + W, M, T and M.T, with
//   A = [[0.0, 1.5, 0.0, -0.0], [2.0, 0.0, 0.0, 0.0], [0.0, 0.0, 0x7FF8000000000000, 4.0], [0.0, 0.0, 0.0, 0.0], [1.0, 0.0, 0.0, -2.0], [0.0, 3.0, 0.0, 0.0]]
//   B = [[0.0, -1.5, 0.0, 0.0], [0.0, 0.0, 0.0, 1.0], [0.0, 0.0, 0.0, 0.0], [0.0, 0.0, 0.0, 0.0], [0.0, 0.0, 5.0, 0.0], [0.0, 0.0, 0.0, 0.5]]
//   U = [0.0, 2.0, 0.0, 0.0, -1.0, 0.0, 0.0, 0.0, 3.0, 0.0, 0.0, -0.0]
//   W = [1.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 7.0]
//   M = [[0.0, 3.0, 0.0, 0.0, 0.0, -1.0], [2.0, 0.0, 0.0, 0.0, 0x7FF8000000000000, 0.0]]
//   T = [[[0.0, 0.0, 1.0], [-4.0, 0.0, 0.0]], [[0.0, 0.0, 0.0], [0.0, 2.5, 0.0]]]

sparse_array.func @add(%x: f64, %y: f64) -> f64 attributes {commutative} {
  %r = arith.addf %x, %y : f64
  sparse_array.yield %r : f64
}

!a = !sparse_array.array<?x4xf64, #sparse_array.format<[dense, compressed]>>
!v = !sparse_array.array<?xf64, #sparse_array.format<[compressed]>>
!m2 = !sparse_array.array<?x2xf64, #sparse_array.format<[dense, compressed]>>
!f3 = !sparse_array.array<?x3xf64, #sparse_array.format<[dense, compressed]>>
!m = !sparse_array.array<?x6xf64, #sparse_array.format<[dense, compressed]>>
!c3 = !sparse_array.array<?x2x3xf64, #sparse_array.format<[dense, compressed, compressed]>>
!t = !sparse_array.array<?x2x3xf64, #sparse_array.format<[dense, compressed, compressed]>>
!mt = !sparse_array.array<6x?xf64, #sparse_array.format<[dense, compressed]>>

// FUSE-LABEL: func.func @flat(
// FUSE-NEXT: %[[K:.*]] = sparse_array.kernel
// FUSE: sparse_array.delinearize %{{.*}} [4]
// FUSE-NOT: sparse_array.reshape
// FUSE-NOT: sparse_array.collapse
// FUSE-NOT: dealloc
// FUSE: return %[[K]]
func.func @flat(%a: !a, %b: !a) -> !v {
  %s = sparse_array.map @add(%a, %b) : (!a, !a) -> !a
  %r = sparse_array.reshape %s [-1] : !a -> !v
  return %r : !v
}

// ? x 4 -> ? x 2: one group (4 is no product of 2s from the inside
// before the dynamic size): one kernel reads the sum's inputs through the
// split's linearize and the collapse's delinearize, the collapse's product
// iterated in windows whose count (the result's rows) is the inputs' size
// times 4 over 2, taken at run time; no collapsed vector.
// FUSE-LABEL: func.func @rows_of_two(
// FUSE-NEXT: %[[K:.*]] = sparse_array.kernel
// FUSE: sparse_array.linearize %{{.*}}, %{{.*}} [2]
// FUSE: sparse_array.delinearize %{{.*}} [4]
// FUSE-NOT: sparse_array.kernel
// FUSE-NOT: sparse_array.reshape
// FUSE-NOT: dealloc
// FUSE: return %[[K]]
func.func @rows_of_two(%a: !a, %b: !a) -> !m2 {
  %s = sparse_array.map @add(%a, %b) : (!a, !a) -> !a
  %r = sparse_array.reshape %s [-1, 2] : !a -> !m2
  return %r : !m2
}

// ? x 4 -> ? x 6: the rows must come in multiples of 3 (n * 4 divisible
// by 6), checked at run time; fused the same way.
// FUSE-LABEL: func.func @rows_of_six(
// FUSE-NEXT: %[[K:.*]] = sparse_array.kernel
// FUSE: sparse_array.linearize %{{.*}}, %{{.*}} [6]
// FUSE-NOT: sparse_array.kernel
// FUSE: return %[[K]]
func.func @rows_of_six(%a: !a, %b: !a) -> !m {
  %s = sparse_array.map @add(%a, %b) : (!a, !a) -> !a
  %r = sparse_array.reshape %s [-1, 6] : !a -> !m
  return %r : !m
}

// F order: the inferred size is the inner part of the split, which a
// window cannot take at compile time: the runtime's reshape of the sum.
// FUSE-LABEL: func.func @vec_f(
// FUSE: sparse_array.reshape %{{.*}} [-1, 3] order "F"
// FUSE: return
func.func @vec_f(%u: !v, %w: !v) -> !f3 {
  %s = sparse_array.map @add(%u, %w) : (!v, !v) -> !v
  %r = sparse_array.reshape %s [-1, 3] order "F" : !v -> !f3
  return %r : !f3
}

// An array (not computed): ? x 6 -> ? x 2 x 3 splits the inner dimension.
// FUSE-LABEL: func.func @split_inner(
// FUSE-NOT: sparse_array.reshape
// FUSE: return
func.func @split_inner(%m: !m) -> !c3 {
  %r = sparse_array.reshape %m [-1, 2, 3] : !m -> !c3
  return %r : !c3
}

// FUSE-LABEL: func.func @collapse_inner(
// FUSE: sparse_array.collapse %{{.*}} [1, 2]
// FUSE-NOT: sparse_array.reshape
// FUSE: return
func.func @collapse_inner(%t: !t) -> !m {
  %r = sparse_array.reshape %t [-1, 6] : !t -> !m
  return %r : !m
}

// The size known only at run time is the inner one: the runtime's.
func.func @inner_dynamic(%x: !mt) -> !v {
  %r = sparse_array.reshape %x [-1] : !mt -> !v
  return %r : !v
}

// 6 rows and 3 rows do not add (numpy raises on A + B[:3]); read through
// the same windows, the second input's size is checked against the first.
// BADROWS: sparse_array runtime error: operand 1 of a kernel has size 3 in dimension 1: with the other dimensions of its reshape it holds 3 x 4 entries, 6 parts of 2, but the kernel's loop over the parts (the result's size or another operand's) has 12
// BADROWS-NOT: # fill
func.func @mismatched_rows() {
  %a_s = sparse_array.constant dense<[[0.0, 1.5, 0.0, -0.0], [2.0, 0.0, 0.0, 0.0], [0.0, 0.0, 0x7FF8000000000000, 4.0], [0.0, 0.0, 0.0, 0.0], [1.0, 0.0, 0.0, -2.0], [0.0, 3.0, 0.0, 0.0]]> : tensor<6x4xf64> : !sparse_array.array<6x4xf64, #sparse_array.format<[dense, compressed]>>
  %a = sparse_array.convert %a_s : !sparse_array.array<6x4xf64, #sparse_array.format<[dense, compressed]>> to !a
  %h3 = sparse_array.slice %a_s[0:3] : !sparse_array.array<6x4xf64, #sparse_array.format<[dense, compressed]>> -> !sparse_array.array<3x4xf64, #sparse_array.format<[dense, compressed]>>
  %h = sparse_array.convert %h3 : !sparse_array.array<3x4xf64, #sparse_array.format<[dense, compressed]>> to !a
  %r = func.call @rows_of_two(%a, %h) : (!a, !a) -> !m2
  sparse_array.print %r : !m2
  return
}

// A 1 x 4 sum reshaped to 2 x 2, added to a 3 x 2 array read first (its
// rows fix the windows' count: 3): numpy raises (shapes (3,2) and (2,2)).
// 3 windows of 2 over rows of 4 would be 1.5 rows, which rounds to the one
// row there is: the windows are compared exactly.
// BADWIN: sparse_array runtime error: operand 1 of a kernel has size 1 in dimension 1: with the other dimensions of its reshape it holds 1 x 4 entries, 2 parts of 2, but the kernel's loop over the parts (the result's size or another operand's) has 3
// BADWIN-NOT: # fill
func.func @reshape_plus(%c: !m2, %a: !a, %b: !a) -> !m2 {
  %s = sparse_array.map @add(%a, %b) : (!a, !a) -> !a
  %r = sparse_array.reshape %s [-1, 2] : !a -> !m2
  %t = sparse_array.map @add(%c, %r) : (!m2, !m2) -> !m2
  return %t : !m2
}
func.func @mismatched_windows() {
  %a_s = sparse_array.constant dense<[[1.0, 2.0, 3.0, 4.0]]> : tensor<1x4xf64> : !sparse_array.array<1x4xf64, #sparse_array.format<[dense, compressed]>>
  %a = sparse_array.convert %a_s : !sparse_array.array<1x4xf64, #sparse_array.format<[dense, compressed]>> to !a
  %c_s = sparse_array.constant dense<[[1.0, 1.0], [1.0, 1.0], [1.0, 1.0]]> : tensor<3x2xf64> : !sparse_array.array<3x2xf64, #sparse_array.format<[dense, compressed]>>
  %c = sparse_array.convert %c_s : !sparse_array.array<3x2xf64, #sparse_array.format<[dense, compressed]>> to !m2
  %t = func.call @reshape_plus(%c, %a, %a) : (!m2, !a, !a) -> !m2
  sparse_array.print %t : !m2
  return
}

// 2 x 4 = 8 entries are no rows of 3: numpy raises, sa-run stops.
// BAD: sparse_array runtime error: operand 0 of a kernel has size 2 in dimension 1: with the other dimensions of its reshape it holds 2 x 4 entries, which a split into parts of 3 entries cannot divide
// BAD-NOT: # fill
func.func @indivisible() {
  %m = sparse_array.constant dense<[[0.0, 3.0, 0.0, 0.0, 0.0, -1.0], [2.0, 0.0, 0.0, 0.0, 0x7FF8000000000000, 0.0]]> : tensor<2x6xf64> : !sparse_array.array<2x6xf64, #sparse_array.format<[dense, compressed]>>
  %md = sparse_array.convert %m : !sparse_array.array<2x6xf64, #sparse_array.format<[dense, compressed]>> to !m
  %h = sparse_array.slice %md[:, 0:4] : !m -> !a
  %s = sparse_array.map @add(%h, %h) : (!a, !a) -> !a
  %r = sparse_array.reshape %s [-1, 3] : !a -> !f3
  sparse_array.print %r : !f3
  return
}

func.func @main() {
  %a_s = sparse_array.constant dense<[[0.0, 1.5, 0.0, -0.0], [2.0, 0.0, 0.0, 0.0], [0.0, 0.0, 0x7FF8000000000000, 4.0], [0.0, 0.0, 0.0, 0.0], [1.0, 0.0, 0.0, -2.0], [0.0, 3.0, 0.0, 0.0]]> : tensor<6x4xf64> : !sparse_array.array<6x4xf64, #sparse_array.format<[dense, compressed]>>
  %a = sparse_array.convert %a_s : !sparse_array.array<6x4xf64, #sparse_array.format<[dense, compressed]>> to !a
  %b_s = sparse_array.constant dense<[[0.0, -1.5, 0.0, 0.0], [0.0, 0.0, 0.0, 1.0], [0.0, 0.0, 0.0, 0.0], [0.0, 0.0, 0.0, 0.0], [0.0, 0.0, 5.0, 0.0], [0.0, 0.0, 0.0, 0.5]]> : tensor<6x4xf64> : !sparse_array.array<6x4xf64, #sparse_array.format<[dense, compressed]>>
  %b = sparse_array.convert %b_s : !sparse_array.array<6x4xf64, #sparse_array.format<[dense, compressed]>> to !a
  %u_s = sparse_array.constant dense<[0.0, 2.0, 0.0, 0.0, -1.0, 0.0, 0.0, 0.0, 3.0, 0.0, 0.0, -0.0]> : tensor<12xf64> : !sparse_array.array<12xf64, #sparse_array.format<[compressed]>>
  %u = sparse_array.convert %u_s : !sparse_array.array<12xf64, #sparse_array.format<[compressed]>> to !v
  %w_s = sparse_array.constant dense<[1.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 7.0]> : tensor<12xf64> : !sparse_array.array<12xf64, #sparse_array.format<[compressed]>>
  %w = sparse_array.convert %w_s : !sparse_array.array<12xf64, #sparse_array.format<[compressed]>> to !v
  %m_s = sparse_array.constant dense<[[0.0, 3.0, 0.0, 0.0, 0.0, -1.0], [2.0, 0.0, 0.0, 0.0, 0x7FF8000000000000, 0.0]]> : tensor<2x6xf64> : !sparse_array.array<2x6xf64, #sparse_array.format<[dense, compressed]>>
  %m = sparse_array.convert %m_s : !sparse_array.array<2x6xf64, #sparse_array.format<[dense, compressed]>> to !m
  %t_s = sparse_array.constant dense<[[[0.0, 0.0, 1.0], [-4.0, 0.0, 0.0]], [[0.0, 0.0, 0.0], [0.0, 2.5, 0.0]]]> : tensor<2x2x3xf64> : !sparse_array.array<2x2x3xf64, #sparse_array.format<[dense, compressed, compressed]>>
  %t = sparse_array.convert %t_s : !sparse_array.array<2x2x3xf64, #sparse_array.format<[dense, compressed, compressed]>> to !t
  %x_s = sparse_array.constant dense<[[0.0, 2.0], [3.0, 0.0], [0.0, 0.0], [0.0, 0.0], [0.0, 0x7FF8000000000000], [-1.0, 0.0]]> : tensor<6x2xf64> : !sparse_array.array<6x2xf64, #sparse_array.format<[dense, compressed]>>
  %x = sparse_array.convert %x_s : !sparse_array.array<6x2xf64, #sparse_array.format<[dense, compressed]>> to !mt

  %r_flat = func.call @flat(%a, %b) : (!a, !a) -> !v
  sparse_array.print %r_flat : !v
  // CHECK:      # fill: 0
  // CHECK-NEXT: 1 9
  // CHECK-NEXT: 24
  // CHECK-NEXT: 5 2
  // CHECK-NEXT: 8 1
  // CHECK-NEXT: 11 nan
  // CHECK-NEXT: 12 4
  // CHECK-NEXT: 17 1
  // CHECK-NEXT: 19 5
  // CHECK-NEXT: 20 -2
  // CHECK-NEXT: 22 3
  // CHECK-NEXT: 24 0.5

  %r_rows_of_two = func.call @rows_of_two(%a, %b) : (!a, !a) -> !m2
  sparse_array.print %r_rows_of_two : !m2
  // CHECK:      # fill: 0
  // CHECK-NEXT: 2 9
  // CHECK-NEXT: 12 2
  // CHECK-NEXT: 3 1 2
  // CHECK-NEXT: 4 2 1
  // CHECK-NEXT: 6 1 nan
  // CHECK-NEXT: 6 2 4
  // CHECK-NEXT: 9 1 1
  // CHECK-NEXT: 10 1 5
  // CHECK-NEXT: 10 2 -2
  // CHECK-NEXT: 11 2 3
  // CHECK-NEXT: 12 2 0.5

  %r_rows_of_six = func.call @rows_of_six(%a, %b) : (!a, !a) -> !m
  sparse_array.print %r_rows_of_six : !m
  // CHECK:      # fill: 0
  // CHECK-NEXT: 2 9
  // CHECK-NEXT: 4 6
  // CHECK-NEXT: 1 5 2
  // CHECK-NEXT: 2 2 1
  // CHECK-NEXT: 2 5 nan
  // CHECK-NEXT: 2 6 4
  // CHECK-NEXT: 3 5 1
  // CHECK-NEXT: 4 1 5
  // CHECK-NEXT: 4 2 -2
  // CHECK-NEXT: 4 4 3
  // CHECK-NEXT: 4 6 0.5

  %r_vec_f = func.call @vec_f(%u, %w) : (!v, !v) -> !f3
  sparse_array.print %r_vec_f : !f3
  // CHECK:      # fill: 0
  // CHECK-NEXT: 2 4
  // CHECK-NEXT: 4 3
  // CHECK-NEXT: 1 1 1
  // CHECK-NEXT: 1 3 3
  // CHECK-NEXT: 2 1 2
  // CHECK-NEXT: 4 3 7

  %r_split_inner = func.call @split_inner(%m) : (!m) -> !c3
  sparse_array.print %r_split_inner : !c3
  // CHECK:      # fill: 0
  // CHECK-NEXT: 3 4
  // CHECK-NEXT: 2 2 3
  // CHECK-NEXT: 1 1 2 3
  // CHECK-NEXT: 1 2 3 -1
  // CHECK-NEXT: 2 1 1 2
  // CHECK-NEXT: 2 2 2 nan

  %r_collapse_inner = func.call @collapse_inner(%t) : (!t) -> !m
  sparse_array.print %r_collapse_inner : !m
  // CHECK:      # fill: 0
  // CHECK-NEXT: 2 3
  // CHECK-NEXT: 2 6
  // CHECK-NEXT: 1 3 1
  // CHECK-NEXT: 1 4 -4
  // CHECK-NEXT: 2 5 2.5

  %r_inner_dynamic = func.call @inner_dynamic(%x) : (!mt) -> !v
  sparse_array.print %r_inner_dynamic : !v
  // CHECK:      # fill: 0
  // CHECK-NEXT: 1 4
  // CHECK-NEXT: 12
  // CHECK-NEXT: 2 2
  // CHECK-NEXT: 3 3
  // CHECK-NEXT: 10 nan
  // CHECK-NEXT: 11 -1
  return
}
