// RUN: sa-run %s | FileCheck %s
// Outputs with full levels below an appended one ([compressed, dense],
// [compressed, dense, compressed]): every new entry of the appended level
// gets its block of fill values / empty positions. Freed afterwards.

sparse_array.func @add_f64(%x: f64, %y: f64) -> f64
    attributes {commutative, identity = #sparse_array.identity<-0.0 : f64>} {
  %r = arith.addf %x, %y : f64
  sparse_array.yield %r : f64
}

func.func @main() {
  %a = sparse_array.constant sparse<[[0, 1], [2, 3], [2, 0]], [1.0, 2.0, 3.0]> : tensor<3x40xf64> : !sparse_array.array<3x40xf64, #sparse_array.format<[dense, compressed]>>
  %b = sparse_array.constant sparse<[[0, 2], [1, 39]], [5.0, 6.0]> : tensor<3x40xf64> : !sparse_array.array<3x40xf64, #sparse_array.format<[dense, compressed]>>
  %c = sparse_array.map @add_f64(%a, %b) : (!sparse_array.array<3x40xf64, #sparse_array.format<[dense, compressed]>>, !sparse_array.array<3x40xf64, #sparse_array.format<[dense, compressed]>>) -> !sparse_array.array<3x40xf64, #sparse_array.format<[compressed, dense]>>
  sparse_array.print %c : !sparse_array.array<3x40xf64, #sparse_array.format<[compressed, dense]>>
  sparse_array.dealloc %c : !sparse_array.array<3x40xf64, #sparse_array.format<[compressed, dense]>>
  %x = sparse_array.constant sparse<[[0, 1, 1], [2, 0, 3], [2, 3, 0]], [1, 2, 3]> : tensor<3x4x5xi64> : !sparse_array.array<3x4x5xi64, #sparse_array.format<[compressed, compressed, compressed]>>
  %y = sparse_array.constant sparse<[[0, 1, 1], [2, 3, 4]], [10, 20]> : tensor<3x4x5xi64> : !sparse_array.array<3x4x5xi64, #sparse_array.format<[compressed, compressed, compressed]>>
  %z = sparse_array.map @max_i64(%x, %y) : (!sparse_array.array<3x4x5xi64, #sparse_array.format<[compressed, compressed, compressed]>>, !sparse_array.array<3x4x5xi64, #sparse_array.format<[compressed, compressed, compressed]>>) -> !sparse_array.array<3x4x5xi64, #sparse_array.format<[compressed, dense, compressed]>>
  sparse_array.print %z : !sparse_array.array<3x4x5xi64, #sparse_array.format<[compressed, dense, compressed]>>
  sparse_array.dealloc %z : !sparse_array.array<3x4x5xi64, #sparse_array.format<[compressed, dense, compressed]>>
  return
}

sparse_array.func @max_i64(%x: i64, %y: i64) -> i64 attributes {commutative} {
  %r = arith.maxsi %x, %y : i64
  sparse_array.yield %r : i64
}

// CHECK:      # fill: 0
// CHECK-NEXT: 2 5
// CHECK-NEXT: 3 40
// CHECK-NEXT: 1 2 1
// CHECK-NEXT: 1 3 5
// CHECK-NEXT: 2 40 6
// CHECK-NEXT: 3 1 3
// CHECK-NEXT: 3 4 2
// CHECK-NEXT: # fill: 0
// CHECK-NEXT: 3 4
// CHECK-NEXT: 3 4 5
// CHECK-NEXT: 1 2 2 10
// CHECK-NEXT: 3 1 4 2
// CHECK-NEXT: 3 4 1 3
// CHECK-NEXT: 3 4 5 20
