// RUN: sa-run %s | FileCheck %s
// RUN: sa-run --bounds-checks -O0 %s | FileCheck %s
// RUN: sa-run --linear-threshold=2 %s | FileCheck %s
// RUN: sa-opt %s --sparse-array-fuse --sparse-array-derive-algebra --sparse-array-build-lattices | FileCheck %s --check-prefix=PLAN
// A concatenation whose dense part's fill (2) is not the common fill (1),
// fused into its consumers (seed 001 §5.1). The dense part is present in
// its window whatever its values: an entry there equal to the part's own
// fill is a value of the concatenation, not the common fill. Found by the
// elementwise fuzzer (seed 248): gcd, which may loop and so is taken by
// its cases at run time, read the common fill where the part held 2. The
// values are numpy's:
//   x = [42]*10 + [-5, 10, -1, 10, 42, 42]          (dense, fill 42)
//   d = [2, 2, 1, 2, 6, 2, 2, 2, 3, 2, 2, 2, 2]     (dense, fill 2)
//   s0 = [7], s2 = [1, 9]                          (compressed, fill 1)
//   t0 = [5], t2 = [4, 5]                          (compressed, fill 5)
//   c = np.concatenate([s0, d, s2]); e = np.concatenate([t0, d, t2])
//   np.gcd(x, c) + 1; c + y (y compressed, fill 0, stored 3:4 7:-2 15:1);
//   np.gcd(c, e); with r = np.concatenate([s0, d, d]) (d twice):
//   np.gcd([42]*27, r)

sparse_array.func @gcd(%x: i64, %y: i64) -> i64
    attributes {commutative,
                algebra = #sparse_array.algebra<union(0, 1), fills = [0 : i64, 0 : i64]>} {
  %ax = math.absi %x : i64
  %ay = math.absi %y : i64
  %r:2 = scf.while (%a = %ax, %b = %ay) : (i64, i64) -> (i64, i64) {
    %c0 = arith.constant 0 : i64
    %nz = arith.cmpi ne, %a, %c0 : i64
    scf.condition(%nz) %a, %b : i64, i64
  } do {
  ^bb0(%a: i64, %b: i64):
    %m = arith.remsi %b, %a : i64
    scf.yield %m, %a : i64, i64
  }
  sparse_array.yield %r#1 : i64
} case [0] {
^bb0(%x: i64, %y: i64):
  %a = math.absi %x : i64
  sparse_array.yield %a : i64
} case [1] {
^bb0(%x: i64, %y: i64):
  %a = math.absi %y : i64
  sparse_array.yield %a : i64
}

sparse_array.func @add(%x: i64, %y: i64) -> i64
    attributes {commutative, associative, identity = #sparse_array.identity<0 : i64>} {
  %r = arith.addi %x, %y : i64
  sparse_array.yield %r : i64
}

!x = !sparse_array.array<16xi64, #sparse_array.format<[dense], fill = 42 : i64>>
!d = !sparse_array.array<13xi64, #sparse_array.format<[dense], fill = 2 : i64>>
!s0 = !sparse_array.array<1xi64, #sparse_array.format<[compressed], fill = 1 : i64>>
!s2 = !sparse_array.array<2xi64, #sparse_array.format<[compressed], fill = 1 : i64>>
!t0 = !sparse_array.array<1xi64, #sparse_array.format<[compressed], fill = 5 : i64>>
!t2 = !sparse_array.array<2xi64, #sparse_array.format<[compressed], fill = 5 : i64>>
!c = !sparse_array.array<16xi64, #sparse_array.format<[compressed], fill = 1 : i64>>
!e = !sparse_array.array<16xi64, #sparse_array.format<[compressed], fill = 5 : i64>>
!y = !sparse_array.array<16xi64, #sparse_array.format<[compressed], fill = 0 : i64>>
!r = !sparse_array.array<16xi64, #sparse_array.format<[dense], fill = 0 : i64>>

// One kernel: gcd reads the concatenation through select_range.
// PLAN-LABEL: func.func @gcd_window(
// PLAN: sparse_array.kernel
// PLAN-NOT: sparse_array.kernel
// PLAN: sparse_array.select_range
// PLAN: sparse_array.apply @gcd
func.func @gcd_window(%x: !x, %s0: !s0, %d: !d, %s2: !s2) -> !r {
  %c = sparse_array.concat %s0, %d, %s2 dim 0 : !s0, !d, !s2 -> !c
  %g = sparse_array.map @gcd(%x, %c) {infer_fill} : (!x, !c) -> !r
  %one = sparse_array.constant dense<1> : tensor<16xi64> : !r
  %r = sparse_array.map @add(%g, %one) : (!r, !r) -> !r
  return %r : !r
}

// Into a sparse result: every point of the dense part's window is stored
// (those equal to 2 included), the sparse parts' implicit entries are not.
// The dense part's leaf is exactly its window, whatever its fill: the
// algebra stays a union of the inputs, not the universe.
// PLAN-LABEL: func.func @sum_window(
// PLAN: sparse_array.kernel
// PLAN-SAME: algebra = #sparse_array.algebra<union(0, 1, 2, 3)>
// PLAN-NOT: sparse_array.kernel
func.func @sum_window(%s0: !s0, %d: !d, %s2: !s2, %y: !y) -> !c {
  %c = sparse_array.concat %s0, %d, %s2 dim 0 : !s0, !d, !s2 -> !c
  %r = sparse_array.map @add(%c, %y) : (!c, !y) -> !c
  return %r : !c
}

// The dense part read by two concatenations with different common fills
// (1 and 5): its entries cannot be tested against both.
// PLAN-LABEL: func.func @two_fills(
func.func @two_fills(%s0: !s0, %d: !d, %s2: !s2, %t0: !t0, %t2: !t2) -> !r {
  %c = sparse_array.concat %s0, %d, %s2 dim 0 : !s0, !d, !s2 -> !c
  %e = sparse_array.concat %t0, %d, %t2 dim 0 : !t0, !d, !t2 -> !e
  %g = sparse_array.map @gcd(%c, %e) : (!c, !e) -> !r
  return %g : !r
}

// The same dense part twice in one concatenation: both windows test its
// entries against the common fill.
!r27c = !sparse_array.array<27xi64, #sparse_array.format<[compressed], fill = 1 : i64>>
!x27 = !sparse_array.array<27xi64, #sparse_array.format<[dense], fill = 42 : i64>>
!r27 = !sparse_array.array<27xi64, #sparse_array.format<[dense], fill = 1 : i64>>
func.func @repeated_part(%x: !x27, %s0: !s0, %d: !d) -> !r27 {
  %c = sparse_array.concat %s0, %d, %d dim 0 : !s0, !d, !d -> !r27c
  %g = sparse_array.map @gcd(%x, %c) : (!x27, !r27c) -> !r27
  return %g : !r27
}

func.func @main() {
  %x = sparse_array.constant dense<[42, 42, 42, 42, 42, 42, 42, 42, 42, 42, -5, 10, -1, 10, 42, 42]> : tensor<16xi64> : !x
  %d = sparse_array.constant dense<[2, 2, 1, 2, 6, 2, 2, 2, 3, 2, 2, 2, 2]> : tensor<13xi64> : !d
  %s0 = sparse_array.constant dense<[7]> : tensor<1xi64> : !s0
  %s2 = sparse_array.constant dense<[1, 9]> : tensor<2xi64> : !s2
  %t0 = sparse_array.constant dense<[5]> : tensor<1xi64> : !t0
  %t2 = sparse_array.constant dense<[4, 5]> : tensor<2xi64> : !t2
  %y = sparse_array.constant dense<[0, 0, 0, 4, 0, 0, 0, -2, 0, 0, 0, 0, 0, 0, 0, 1]> : tensor<16xi64> : !y

  %g = func.call @gcd_window(%x, %s0, %d, %s2) : (!x, !s0, !d, !s2) -> !r
  // CHECK:      # fill: 0
  // CHECK-NEXT: 1 16
  // CHECK-NEXT: 16
  // CHECK-NEXT: 1 8
  // CHECK-NEXT: 2 3
  // CHECK-NEXT: 3 3
  // CHECK-NEXT: 4 2
  // CHECK-NEXT: 5 3
  // CHECK-NEXT: 6 7
  // CHECK-NEXT: 7 3
  // CHECK-NEXT: 8 3
  // CHECK-NEXT: 9 3
  // CHECK-NEXT: 10 4
  // CHECK-NEXT: 11 2
  // CHECK-NEXT: 12 3
  // CHECK-NEXT: 13 2
  // CHECK-NEXT: 14 3
  // CHECK-NEXT: 15 2
  // CHECK-NEXT: 16 4
  sparse_array.print %g : !r
  %s = func.call @sum_window(%s0, %d, %s2, %y) : (!s0, !d, !s2, !y) -> !c
  // CHECK:      # fill: 1
  // CHECK-NEXT: 1 15
  // CHECK-NEXT: 16
  // CHECK-NEXT: 1 7
  // CHECK-NEXT: 2 2
  // CHECK-NEXT: 3 2
  // CHECK-NEXT: 4 5
  // CHECK-NEXT: 5 2
  // CHECK-NEXT: 6 6
  // CHECK-NEXT: 7 2
  // CHECK-NEXT: 8 0
  // CHECK-NEXT: 9 2
  // CHECK-NEXT: 10 3
  // CHECK-NEXT: 11 2
  // CHECK-NEXT: 12 2
  // CHECK-NEXT: 13 2
  // CHECK-NEXT: 14 2
  // CHECK-NEXT: 16 10
  sparse_array.print %s : !c
  %t = func.call @two_fills(%s0, %d, %s2, %t0, %t2) : (!s0, !d, !s2, !t0, !t2) -> !r
  // CHECK:      # fill: 0
  // CHECK-NEXT: 1 16
  // CHECK-NEXT: 16
  // CHECK-NEXT: 1 1
  // CHECK-NEXT: 2 2
  // CHECK-NEXT: 3 2
  // CHECK-NEXT: 4 1
  // CHECK-NEXT: 5 2
  // CHECK-NEXT: 6 6
  // CHECK-NEXT: 7 2
  // CHECK-NEXT: 8 2
  // CHECK-NEXT: 9 2
  // CHECK-NEXT: 10 3
  // CHECK-NEXT: 11 2
  // CHECK-NEXT: 12 2
  // CHECK-NEXT: 13 2
  // CHECK-NEXT: 14 2
  // CHECK-NEXT: 15 1
  // CHECK-NEXT: 16 1
  sparse_array.print %t : !r
  %x27 = sparse_array.constant dense<42> : tensor<27xi64> : !x27
  %q = func.call @repeated_part(%x27, %s0, %d) : (!x27, !s0, !d) -> !r27
  // CHECK:      # fill: 1
  // CHECK-NEXT: 1 25
  // CHECK-NEXT: 27
  // CHECK-NEXT: 1 7
  // CHECK-NEXT: 2 2
  // CHECK-NEXT: 3 2
  // CHECK-NEXT: 5 2
  // CHECK-NEXT: 6 6
  // CHECK-NEXT: 7 2
  // CHECK-NEXT: 8 2
  // CHECK-NEXT: 9 2
  // CHECK-NEXT: 10 3
  // CHECK-NEXT: 11 2
  // CHECK-NEXT: 12 2
  // CHECK-NEXT: 13 2
  // CHECK-NEXT: 14 2
  // CHECK-NEXT: 15 2
  // CHECK-NEXT: 16 2
  // CHECK-NEXT: 18 2
  // CHECK-NEXT: 19 6
  // CHECK-NEXT: 20 2
  // CHECK-NEXT: 21 2
  // CHECK-NEXT: 22 2
  // CHECK-NEXT: 23 3
  // CHECK-NEXT: 24 2
  // CHECK-NEXT: 25 2
  // CHECK-NEXT: 26 2
  // CHECK-NEXT: 27 2
  sparse_array.print %q : !r27
  return
}
