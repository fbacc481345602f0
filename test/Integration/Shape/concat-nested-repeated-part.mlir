// RUN: sa-run %s | FileCheck %s
// RUN: sa-run --bounds-checks -O0 %s | FileCheck %s
// (x ++ y) ++ y with y read by both concatenations, fused into one kernel:
// deriving the outer select asked the inner one's common fill through y's
// window, which derived the outer select again -- without end (a stack
// overflow in sparse-array-derive-algebra). Found by fuzz_idioms.py (seed
// 9802, program 276: concatenate twice, then a slice of extent 0). The
// values are numpy's:
//   x = [7] (dense, fill 1), y = [1, -1, 3, -1] (dense, fill -1)
//   np.concatenate([np.concatenate([x, y]), y])
//     = [7, 1, -1, 3, -1, 1, -1, 3, -1]; + 1 -> [8, 2, 0, 4, 0, 2, 0, 4, 0]
//   [0:0] of it: no entries.

sparse_array.func @inc(%x: i32) -> i32 {
  %c1 = arith.constant 1 : i32
  %r = arith.addi %x, %c1 : i32
  sparse_array.yield %r : i32
}

!x = !sparse_array.array<1xi32, #sparse_array.format<[dense], fill = 1 : i32>>
!y = !sparse_array.array<4xi32, #sparse_array.format<[dense], fill = -1 : i32>>
!xy = !sparse_array.array<5xi32, #sparse_array.format<[dense], fill = 1 : i32>>
!r = !sparse_array.array<9xi32, #sparse_array.format<[dense], fill = 1 : i32>>
!e = !sparse_array.array<0xi32, #sparse_array.format<[dense], fill = 1 : i32>>

func.func @twice(%x: !x, %y: !y) -> !r {
  %xy = sparse_array.concat %x, %y dim 0 : !x, !y -> !xy
  %r = sparse_array.concat %xy, %y dim 0 : !xy, !y -> !r
  return %r : !r
}

func.func @twice_inc(%x: !x, %y: !y) -> !r {
  %xy = sparse_array.concat %x, %y dim 0 : !x, !y -> !xy
  %c = sparse_array.concat %xy, %y dim 0 : !xy, !y -> !r
  %r = sparse_array.map @inc(%c) : (!r) -> !r
  return %r : !r
}

func.func @twice_empty(%x: !x, %y: !y) -> !e {
  %xy = sparse_array.concat %x, %y dim 0 : !x, !y -> !xy
  %c = sparse_array.concat %xy, %y dim 0 : !xy, !y -> !r
  %r = sparse_array.slice %c[0:0:1] : !r -> !e
  return %r : !e
}

func.func @main() {
  %x = sparse_array.constant dense<[7]> : tensor<1xi32> : !x
  %y = sparse_array.constant dense<[1, -1, 3, -1]> : tensor<4xi32> : !y
  %a = func.call @twice(%x, %y) : (!x, !y) -> !r
  sparse_array.print %a : !r
  %b = func.call @twice_inc(%x, %y) : (!x, !y) -> !r
  sparse_array.print %b : !r
  %c = func.call @twice_empty(%x, %y) : (!x, !y) -> !e
  sparse_array.print %c : !e
  return
}

// The entries that are not the fill (1), 1-based.
// CHECK: # fill: 1
// CHECK-NEXT: 1 7
// CHECK-NEXT: 9
// CHECK-NEXT: 1 7
// CHECK-NEXT: 3 -1
// CHECK-NEXT: 4 3
// CHECK-NEXT: 5 -1
// CHECK-NEXT: 7 -1
// CHECK-NEXT: 8 3
// CHECK-NEXT: 9 -1
// CHECK-NEXT: # fill: 1
// CHECK-NEXT: 1 9
// CHECK-NEXT: 9
// CHECK-NEXT: 1 8
// CHECK-NEXT: 2 2
// CHECK-NEXT: 3 0
// CHECK-NEXT: 4 4
// CHECK-NEXT: 5 0
// CHECK-NEXT: 6 2
// CHECK-NEXT: 7 0
// CHECK-NEXT: 8 4
// CHECK-NEXT: 9 0
// CHECK-NEXT: # fill: 1
// CHECK-NEXT: 1 0
// CHECK-NEXT: 0
