// RUN: sa-run %s | FileCheck %s
// RUN: sa-run --bounds-checks -O0 %s | FileCheck %s
// RUN: sa-opt %s --sparse-array-fuse | FileCheck %s --check-prefix=IR
// RUN: not sa-run --entry-point=too_narrow %s 2>&1 | FileCheck %s --check-prefix=ERR
// Concatenation parts that slice an array whose sliced dimension is known
// only at run time, fused (seed 001 §5.2): the window over the slice is
// bounded to the slice's range, which the array's run-time size must hold
// (checked, as the slice alone checks it). The values are numpy's:
//   W = 3x8, stored (0,0)=1 (0,1)=2 (0,3)=3 (0,6)=4 (0,7)=5 (1,2)=6
//       (1,5)=7 (2,0)=8 (2,4)=9 (2,7)=10; C = 3x4, (0,0)=100 (1,3)=200
//       (2,1)=300; A = 3x2, (0,1)=11 (2,0)=12
//   np.concatenate([A, W[:, 2:6] + C, W[:, 0:3], W[:, 7:0:-2]], axis=1)
//   np.concatenate([W[:, 5:8], A, W[:, 6:2:-1]], axis=1) with W dense

sparse_array.func @add(%x: f64, %y: f64) -> f64 attributes {commutative} {
  %r = arith.addf %x, %y : f64
  sparse_array.yield %r : f64
}
!w = !sparse_array.array<3x8xf64, #sparse_array.format<[dense, compressed]>>
!wq = !sparse_array.array<3x?xf64, #sparse_array.format<[dense, compressed]>>
!wdq = !sparse_array.array<3x?xf64>
!c = !sparse_array.array<3x4xf64, #sparse_array.format<[dense, compressed]>>
!c3 = !sparse_array.array<3x3xf64, #sparse_array.format<[dense, compressed]>>
!d3 = !sparse_array.array<3x3xf64>
!d4 = !sparse_array.array<3x4xf64>
!a = !sparse_array.array<3x2xf64, #sparse_array.format<[dense, compressed]>>
!h = !sparse_array.array<3x13xf64, #sparse_array.format<[dense, compressed]>>
!hd = !sparse_array.array<3x9xf64>

// One kernel, no temporary: W[:, 2:6] at offset 2 through (-2:11) is
// (0:13) bounded to [2, 6); W[:, 0:3] at offset 6 is (-6:7) bounded to
// [0, 3) (a window starting before the array); W[:, 7:0:-2] at offset 9 is
// (25:0:-2) bounded to [1, 8).
// IR-LABEL: func.func @parts(
// IR-NEXT: %[[H:.*]] = sparse_array.kernel
// IR-DAG: sparse_array.access %{{.*}}[%{{.*}}, %{{.*}}(0:13)] padded bounds [0, -1, 2, 6] : !sparse_array.array<3x?xf64
// IR-DAG: sparse_array.access %{{.*}}[%{{.*}}, %{{.*}}(-6:7)] padded bounds [0, -1, 0, 3] : !sparse_array.array<3x?xf64
// IR-DAG: sparse_array.access %{{.*}}[%{{.*}}, %{{.*}}(25:0:-2)] padded bounds [0, -1, 1, 8] : !sparse_array.array<3x?xf64
// IR-NOT: sparse_array.kernel
// IR: return %[[H]]
func.func @parts(%w: !wq, %c: !c, %a: !a) -> !h {
  %s = sparse_array.slice %w[:, 2:6] : !wq -> !c
  %d = sparse_array.map @add(%s, %c) : (!c, !c) -> !c
  %f = sparse_array.slice %w[:, 0:3] : !wq -> !c3
  %r = sparse_array.slice %w[:, 7:0:-2] : !wq -> !c
  %h = sparse_array.concat %a, %d, %f, %r dim 1 : !a, !c, !c3, !c -> !h
  return %h : !h
}

// IR-LABEL: func.func @dense_parts(
// IR-NEXT: %[[H:.*]] = sparse_array.kernel
// IR-NOT: sparse_array.kernel
// IR: return %[[H]]
func.func @dense_parts(%w: !wdq, %a: !a) -> !hd {
  %s = sparse_array.slice %w[:, 5:8] : !wdq -> !d3
  %r = sparse_array.slice %w[:, 6:2:-1] : !wdq -> !d4
  %h = sparse_array.concat %s, %a, %r dim 1 : !d3, !a, !d4 -> !hd
  return %h : !hd
}

func.func @main() {
  %w = sparse_array.constant sparse<[[0, 0], [0, 1], [0, 3], [0, 6], [0, 7], [1, 2], [1, 5], [2, 0], [2, 4], [2, 7]],
      [1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0, 10.0]> : tensor<3x8xf64> : !w
  %c = sparse_array.constant sparse<[[0, 0], [1, 3], [2, 1]], [100.0, 200.0, 300.0]> : tensor<3x4xf64> : !c
  %a = sparse_array.constant sparse<[[0, 1], [2, 0]], [11.0, 12.0]> : tensor<3x2xf64> : !a
  %wq = sparse_array.convert %w : !w to !wq
  // CHECK:      # fill: 0
  // CHECK-NEXT: 2 17
  // CHECK-NEXT: 3 13
  // CHECK-NEXT: 1 2 11
  // CHECK-NEXT: 1 3 100
  // CHECK-NEXT: 1 4 3
  // CHECK-NEXT: 1 7 1
  // CHECK-NEXT: 1 8 2
  // CHECK-NEXT: 1 10 5
  // CHECK-NEXT: 1 12 3
  // CHECK-NEXT: 1 13 2
  // CHECK-NEXT: 2 3 6
  // CHECK-NEXT: 2 6 207
  // CHECK-NEXT: 2 9 6
  // CHECK-NEXT: 2 11 7
  // CHECK-NEXT: 3 1 12
  // CHECK-NEXT: 3 4 300
  // CHECK-NEXT: 3 5 9
  // CHECK-NEXT: 3 7 8
  // CHECK-NEXT: 3 10 10
  %h = func.call @parts(%wq, %c, %a) : (!wq, !c, !a) -> !h
  sparse_array.print %h : !h
  // Stored: exactly those 17, no explicit zero.
  // CHECK-NEXT: 17
  %vals = sparse_array.values %h : !h -> memref<?xf64>
  %c0 = arith.constant 0 : index
  %nv = memref.dim %vals, %c0 : memref<?xf64>
  %stored = arith.index_cast %nv : index to i64
  func.call @sa_rt_print_i64(%stored) : (i64) -> ()
  func.call @sa_rt_print_newline() : () -> ()

  // CHECK:      # fill: 0
  // CHECK-NEXT: 2 10
  // CHECK-NEXT: 3 9
  // CHECK-NEXT: 1 2 4
  // CHECK-NEXT: 1 3 5
  // CHECK-NEXT: 1 5 11
  // CHECK-NEXT: 1 6 4
  // CHECK-NEXT: 1 9 3
  // CHECK-NEXT: 2 1 7
  // CHECK-NEXT: 2 7 7
  // CHECK-NEXT: 3 3 10
  // CHECK-NEXT: 3 4 12
  // CHECK-NEXT: 3 8 9
  %wdq = sparse_array.convert %w : !w to !wdq
  %hd = func.call @dense_parts(%wdq, %a) : (!wdq, !a) -> !hd
  sparse_array.print %hd : !hd
  return
}

// W with 5 columns: the part W[:, 2:6] reads up to column 5.
// ERR: sparse_array runtime error: operand {{[0-9]+}} of a kernel has size 5 in dimension 2, but a slice of it reads up to coordinate 5
func.func @too_narrow() {
  %w = sparse_array.constant sparse<[[0, 0], [1, 2], [2, 4]], [1.0, 2.0, 3.0]>
      : tensor<3x5xf64> : !sparse_array.array<3x5xf64, #sparse_array.format<[dense, compressed]>>
  %c = sparse_array.constant sparse<[[0, 0]], [100.0]> : tensor<3x4xf64> : !c
  %a = sparse_array.constant sparse<[[0, 1]], [11.0]> : tensor<3x2xf64> : !a
  %wq = sparse_array.convert %w : !sparse_array.array<3x5xf64, #sparse_array.format<[dense, compressed]>> to !wq
  %h = func.call @parts(%wq, %c, %a) : (!wq, !c, !a) -> !h
  sparse_array.print %h : !h
  return
}
func.func private @sa_rt_print_i64(i64)
func.func private @sa_rt_print_newline()
