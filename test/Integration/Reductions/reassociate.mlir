// RUN: sa-run %s | FileCheck %s --check-prefixes=SUM,PROD,XOR
// RUN: sa-opt %s --sparse-array-fuse --sparse-array-derive-algebra --sparse-array-build-lattices | FileCheck %s --check-prefix=PLAN
// Reductions whose fill is not the combiner's identity, by a commutative,
// associative, non-idempotent combiner (strategy "reassociate"): the
// stored entries are folded, then the fill combined with itself once per
// implicit entry, by repeated squaring - 70 columns, rows of 5, 40, 2 and
// 0 stored entries. Expected values: Python integer folds of the dense
// rows, wrapped to 64 bits (generated once, independently of the compiler).
// PLAN-COUNT-3: strategy = reassociate

// Row sums with fill 1 count the implicit entries (the printed entries
// are those that differ from the result's fill).
// SUM:      # fill: 70
// SUM-NEXT: 1 2
// SUM-NEXT: 4
// SUM-NEXT: 2 95
// SUM-NEXT: 3 75
// Row products with fill 2: 2^(implicit entries) times the stored ones,
// wrapping like the dense loop (2^64 and beyond are 0 mod 2^64); a stored 0
// annihilates.
// PROD:      # fill: 0
// PROD-NEXT: 1 1
// PROD-NEXT: 4
// PROD-NEXT: 2 -4611686018427387904
// Parities with fill true: xor of every entry.
// XOR:      # fill: 0
// XOR-NEXT: 1 1
// XOR-NEXT: 4
// XOR-NEXT: 3 1

!s = !sparse_array.array<4x70xi64, #sparse_array.format<[dense, compressed], fill = 1 : i64>>
!p = !sparse_array.array<4x70xi64, #sparse_array.format<[dense, compressed], fill = 2 : i64>>
!b = !sparse_array.array<4x70xi1, #sparse_array.format<[dense, compressed], fill = true>>
!vs = !sparse_array.array<4xi64, #sparse_array.format<[dense], fill = 70 : i64>>
!vp = !sparse_array.array<4xi64>
!vb = !sparse_array.array<4xi1>
sparse_array.func @add(%x: i64, %y: i64) -> i64
    attributes {commutative, associative, identity = #sparse_array.identity<0 : i64>} {
  %r = arith.addi %x, %y : i64
  sparse_array.yield %r : i64
}
sparse_array.func @mul(%x: i64, %y: i64) -> i64
    attributes {commutative, associative, annihilator = #sparse_array.annihilator<0 : i64>,
                identity = #sparse_array.identity<1 : i64>} {
  %r = arith.muli %x, %y : i64
  sparse_array.yield %r : i64
}
sparse_array.func @xor(%x: i1, %y: i1) -> i1
    attributes {commutative, associative, identity = #sparse_array.identity<false>} {
  %r = arith.xori %x, %y : i1
  sparse_array.yield %r : i1
}
func.func @main() {
  %a = sparse_array.constant dense<[[1, 1, 1, 1, 1, 1, 9, 1, 1, -8, 1, 1, 1, 1, 1, 1, 1, 1, 1, -6, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 8, 1, 1, 1, 1, 1, 1, 1, 1, 2, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1], [1, 1, -7, 5, 9, 1, 8, -2, 8, 1, 1, -8, 9, 1, -4, 4, 1, 1, 4, -8, 1, 1, 1, 1, 1, 1, -4, -7, 1, 1, 1, 1, 1, 1, -5, 5, 3, 9, 1, 1, -2, 1, 1, 1, 1, 1, 1, 1, 1, 4, 5, 6, 2, 6, 3, -3, 7, 1, 3, 1, -6, 1, 1, 7, 8, 6, -7, 1, 9, -7], [1, 1, 1, 0, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 7, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1], [1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1]]> : tensor<4x70xi64> : !s
  %s = sparse_array.reduce @add %a dims [1] : !s -> !vs
  sparse_array.print %s : !vs
  %b = sparse_array.constant dense<[[2, 2, 2, 2, 2, 2, 9, 2, 2, -8, 2, 2, 2, 2, 2, 2, 2, 2, 2, -6, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 8, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2], [2, 2, -7, 5, 9, 1, 8, -2, 8, 1, 2, -8, 9, 2, -4, 4, 2, 2, 4, -8, 2, 2, 2, 1, 2, 1, -4, -7, 2, 2, 2, 2, 2, 2, -5, 5, 3, 9, 2, 2, -2, 2, 2, 2, 2, 2, 1, 2, 2, 4, 5, 6, 2, 6, 3, -3, 7, 2, 3, 2, -6, 2, 2, 7, 8, 6, -7, 2, 9, -7], [2, 2, 2, 0, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 7, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2], [2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2]]> : tensor<4x70xi64> : !p
  %p = sparse_array.reduce @mul %b dims [1] : !p -> !vp
  sparse_array.print %p : !vp
  %c = sparse_array.constant dense<[[true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true], [true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true], [true, true, true, false, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true], [true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true]]> : tensor<4x70xi1> : !b
  %x = sparse_array.reduce @xor %c dims [1] : !b -> !vb
  sparse_array.print %x : !vb
  return
}
