// RUN: sa-run --parallel-min-extent=2 --parallel-min-work=1 --num-threads=2 %s | FileCheck %s
// RUN: sa-run --parallel-min-extent=2 --parallel-min-work=1 --num-threads=2 --parallel-assembly=parts %s | FileCheck %s
// RUN: sa-opt %s --sparse-array-fuse --sparse-array-derive-algebra --sparse-array-build-lattices "--sparse-array-plan-parallel=min-extent=2 min-work=1" | FileCheck %s --check-prefix=PLAN
// A kernel planned parallel whose outermost loop has nothing to visit (an
// empty lattice: the standard library's xor is defined where exactly one
// side is, so x & (y ^ y) is false everywhere) never runs its parts; the
// result in parts is then one empty part over every row (found by the
// element-wise fuzzer, fuzz.test seed 22: the assembly had no buffers).
// numpy: (a ^ b) & (a ^ a) is all False.

// The standard library's xor_i1 and and_i1.
sparse_array.func @sym_diff(%x: i1, %y: i1) -> i1
    attributes {commutative, associative, identity = #sparse_array.identity<0 : i1>,
                algebra = #sparse_array.algebra<intersect(union(0, 1), complement(intersect(0, 1))),
                                                fills = [0 : i1, 0 : i1]>} {
  %r = arith.xori %x, %y : i1
  sparse_array.yield %r : i1
}
sparse_array.func @both(%x: i1, %y: i1) -> i1
    attributes {commutative, associative, idempotent,
                annihilator = #sparse_array.annihilator<0 : i1>,
                identity = #sparse_array.identity<1 : i1>} {
  %r = arith.andi %x, %y : i1
  sparse_array.yield %r : i1
}

!u = !sparse_array.array<5x1xi1, #sparse_array.format<[dense, compressed(nonordered)]>>
!coo = !sparse_array.array<5x1xi1, #sparse_array.format<[compressed(nonunique), singleton]>>
!cd = !sparse_array.array<5x1xi1, #sparse_array.format<[compressed, dense]>>
!csr = !sparse_array.array<5x1xi1, #sparse_array.format<[dense, compressed]>>
!dcsr = !sparse_array.array<5x1xi1, #sparse_array.format<[compressed, compressed]>>

// PLAN: parallel = #sparse_array.parallel<"ranges", min_extent = 2, min_work = 1, balance = {{[0-9]}}, parts>
func.func @main() {
  %a = sparse_array.constant sparse<[[0, 0], [2, 0], [4, 0]], [false, true, false]> : tensor<5x1xi1> : !u
  %b = sparse_array.constant sparse<[[0, 0], [3, 0]], [true, false]> : tensor<5x1xi1> : !coo
  %x = sparse_array.map @sym_diff(%a, %b) {infer_fill} : (!u, !coo) -> !cd
  %y = sparse_array.map @sym_diff(%a, %a) {infer_fill} : (!u, !u) -> !cd
  %r = sparse_array.map @both(%x, %y) : (!cd, !cd) -> !cd
  // CHECK:      # fill: 0
  // CHECK-NEXT: 2 0
  // CHECK-NEXT: 5 1
  sparse_array.print %r : !cd
  return
}
