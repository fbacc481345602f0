// RUN: sa-run %s | FileCheck %s
// RUN: sa-run --bounds-checks -O0 %s | FileCheck %s
// RUN: sa-run --linear-threshold=2 %s | FileCheck %s
// RUN: sa-opt %s --sparse-array-fuse | FileCheck %s --check-prefix=IR
// RUN: sa-opt %s --sparse-array-fuse --sparse-array-derive-algebra --sparse-array-build-lattices | FileCheck %s --check-prefix=PLAN
// Concatenation parts that slice their input, fused (seed 001 §5.2): the
// window over the slice reads the input only within the slice's range
// (`bounds`), not the input's other coordinates, which are present. The
// values are numpy's:
//   W = 3x8, stored (0,0)=1 (0,1)=2 (0,3)=3 (0,6)=4 (0,7)=5 (1,2)=6
//       (1,5)=7 (2,0)=8 (2,4)=9 (2,7)=10; C = 3x4, (0,0)=100 (1,3)=200
//       (2,1)=300; A = 3x2, (0,1)=11 (2,0)=12
//   np.concatenate([A, W[:, 2:6] + C, W[:, 7:0:-2]], axis=1), and with W dense
//   np.concatenate([A, W[:, 2:6], W[:, 7:0:-2]], axis=1)
//   x = 10 entries, stored 0:1 2:2 3:3 5:4 6:5 8:6 9:7
//   np.concatenate([x[6:9], x[1:4]]), np.concatenate([x[8:2:-3] + x[0:2], x[0:2]])
//   and, with fill NaN, the values at @nan_fill's call

sparse_array.func @add(%x: f64, %y: f64) -> f64 attributes {commutative} {
  %r = arith.addf %x, %y : f64
  sparse_array.yield %r : f64
}
!w = !sparse_array.array<3x8xf64, #sparse_array.format<[dense, compressed]>>
!wd = !sparse_array.array<3x8xf64>
!c = !sparse_array.array<3x4xf64, #sparse_array.format<[dense, compressed]>>
!cd = !sparse_array.array<3x4xf64>
!a = !sparse_array.array<3x2xf64, #sparse_array.format<[dense, compressed]>>
!h = !sparse_array.array<3x10xf64, #sparse_array.format<[dense, compressed]>>
!hd = !sparse_array.array<3x10xf64>
!x = !sparse_array.array<10xf64, #sparse_array.format<[compressed]>>
!x3 = !sparse_array.array<3xf64, #sparse_array.format<[compressed]>>
!x2 = !sparse_array.array<2xf64, #sparse_array.format<[compressed]>>
!x4 = !sparse_array.array<4xf64, #sparse_array.format<[compressed]>>
!x6 = !sparse_array.array<6xf64, #sparse_array.format<[compressed]>>

// The slice 2:6 read through the window (-2:8) is (0:10) bounded to
// columns [2, 6); the reversed 7:0:-2 through (-6:4) is (19:0:-2) bounded
// to [1, 8). One kernel, no temporary.
// IR-LABEL: func.func @parts(
// IR-NEXT: %[[H:.*]] = sparse_array.kernel
// IR: sparse_array.access %{{.*}}[%{{.*}}, %{{.*}}(0:10)] padded bounds [0, -1, 2, 6] :
// IR: sparse_array.access %{{.*}}[%{{.*}}, %{{.*}}(-2:8)] padded :
// IR: sparse_array.access %{{.*}}[%{{.*}}, %{{.*}}(19:0:-2)] padded bounds [0, -1, 1, 8] :
// IR: sparse_array.access %{{.*}}[%{{.*}}, %{{.*}}(0:10)] padded :
// IR-NOT: sparse_array.kernel
// IR: return %[[H]]
// Each bounded window iterates the slice of W first, then the window over
// it: W's columns outside the slice are never visited (a bisection seeks
// the first one). Counting down, the bound is reversed and the window
// ascends over it.
// PLAN-LABEL: func.func @parts(
// PLAN: sequence "union(slice(s0, 0, 10, 1), slice(slice(s1, 2, 6, 1), -2, 8, 1), slice(s2, -2, 8, 1), slice(slice(s3, 7, 0, -1), -12, 8, 2))"
func.func @parts(%w: !w, %c: !c, %a: !a) -> !h {
  %s = sparse_array.slice %w[:, 2:6] : !w -> !c
  %d = sparse_array.map @add(%s, %c) : (!c, !c) -> !c
  %r = sparse_array.slice %w[:, 7:0:-2] : !w -> !c
  %h = sparse_array.concat %a, %d, %r dim 1 : !a, !c, !c -> !h
  return %h : !h
}

func.func @dense_parts(%w: !wd, %a: !a) -> !hd {
  %s = sparse_array.slice %w[:, 2:6] : !wd -> !cd
  %r = sparse_array.slice %w[:, 7:0:-2] : !wd -> !cd
  %h = sparse_array.concat %a, %s, %r dim 1 : !a, !cd, !cd -> !hd
  return %h : !hd
}

// x[0:2] is read twice (by the map and as a part): a view, fused into
// both, not a copy they share.
// IR-LABEL: func.func @vectors(
// IR-NOT: sparse_array.slice
// IR: sparse_array.access %{{.*}}[%{{.*}}(6:12)] padded bounds [6, 9] :
// IR: sparse_array.access %{{.*}}[%{{.*}}(-2:4)] padded bounds [1, 4] :
// IR: sparse_array.access %{{.*}}[%{{.*}}(8:-2:-3)] padded bounds [5, 9] :
// IR: sparse_array.access %{{.*}}[%{{.*}}(-2:2)] padded bounds [0, 2] :
// IR: sparse_array.access %{{.*}}[%{{.*}}(0:4)] padded bounds [0, 2] :
// IR-NOT: sparse_array.slice
// IR: return
func.func @vectors(%x: !x) -> (!x6, !x4) {
  %s = sparse_array.slice %x[6:9] : !x -> !x3
  %t = sparse_array.slice %x[1:4] : !x -> !x3
  %v = sparse_array.concat %s, %t dim 0 : !x3, !x3 -> !x6
  %r = sparse_array.slice %x[8:2:-3] : !x -> !x2
  %f = sparse_array.slice %x[0:2] : !x -> !x2
  %g = sparse_array.map @add(%r, %f) : (!x2, !x2) -> !x2
  %u = sparse_array.concat %g, %f dim 0 : !x2, !x2 -> !x4
  return %v, %u : !x6, !x4
}

// Fill NaN with -0.0 and inf stored: the window over x[2:5] must not see
// x[5] = inf (present in x, outside the slice), and the reversed part
// x[7:4:-1] not x[8] or x[4] (NaN there reads the fill, as numpy's).
!n = !sparse_array.array<10xf64, #sparse_array.format<[compressed], fill = 0x7FF8000000000000 : f64>>
!n2 = !sparse_array.array<2xf64, #sparse_array.format<[compressed], fill = 0x7FF8000000000000 : f64>>
!n3 = !sparse_array.array<3xf64, #sparse_array.format<[compressed], fill = 0x7FF8000000000000 : f64>>
!n8 = !sparse_array.array<8xf64, #sparse_array.format<[compressed], fill = 0x7FF8000000000000 : f64>>
func.func @nan_fill(%x: !n, %y: !n3) -> !n8 {
  %a = sparse_array.slice %x[2:4] : !n -> !n2
  %s = sparse_array.slice %x[2:5] : !n -> !n3
  %g = sparse_array.map @add(%s, %y) : (!n3, !n3) -> !n3
  %r = sparse_array.slice %x[7:4:-1] : !n -> !n3
  %h = sparse_array.concat %a, %g, %r dim 0 : !n2, !n3, !n3 -> !n8
  return %h : !n8
}

func.func @main() {
  %w = sparse_array.constant sparse<[[0, 0], [0, 1], [0, 3], [0, 6], [0, 7], [1, 2], [1, 5], [2, 0], [2, 4], [2, 7]],
      [1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0, 10.0]> : tensor<3x8xf64> : !w
  %c = sparse_array.constant sparse<[[0, 0], [1, 3], [2, 1]], [100.0, 200.0, 300.0]> : tensor<3x4xf64> : !c
  %a = sparse_array.constant sparse<[[0, 1], [2, 0]], [11.0, 12.0]> : tensor<3x2xf64> : !a
  // CHECK:      # fill: 0
  // CHECK-NEXT: 2 13
  // CHECK-NEXT: 3 10
  // CHECK-NEXT: 1 2 11
  // CHECK-NEXT: 1 3 100
  // CHECK-NEXT: 1 4 3
  // CHECK-NEXT: 1 7 5
  // CHECK-NEXT: 1 9 3
  // CHECK-NEXT: 1 10 2
  // CHECK-NEXT: 2 3 6
  // CHECK-NEXT: 2 6 207
  // CHECK-NEXT: 2 8 7
  // CHECK-NEXT: 3 1 12
  // CHECK-NEXT: 3 4 300
  // CHECK-NEXT: 3 5 9
  // CHECK-NEXT: 3 7 10
  %h = func.call @parts(%w, %c, %a) : (!w, !c, !a) -> !h
  sparse_array.print %h : !h
  // Stored: exactly those 13, no explicit zero.
  // CHECK-NEXT: 13
  %vals = sparse_array.values %h : !h -> memref<?xf64>
  %c0 = arith.constant 0 : index
  %nv = memref.dim %vals, %c0 : memref<?xf64>
  %stored = arith.index_cast %nv : index to i64
  func.call @sa_rt_print_i64(%stored) : (i64) -> ()
  func.call @sa_rt_print_newline() : () -> ()

  // CHECK:      # fill: 0
  // CHECK-NEXT: 2 11
  // CHECK-NEXT: 3 10
  // CHECK-NEXT: 1 2 11
  // CHECK-NEXT: 1 4 3
  // CHECK-NEXT: 1 7 5
  // CHECK-NEXT: 1 9 3
  // CHECK-NEXT: 1 10 2
  // CHECK-NEXT: 2 3 6
  // CHECK-NEXT: 2 6 7
  // CHECK-NEXT: 2 8 7
  // CHECK-NEXT: 3 1 12
  // CHECK-NEXT: 3 5 9
  // CHECK-NEXT: 3 7 10
  %wd = sparse_array.convert %w : !w to !wd
  %hd = func.call @dense_parts(%wd, %a) : (!wd, !a) -> !hd
  sparse_array.print %hd : !hd

  %x = sparse_array.constant sparse<[[0], [2], [3], [5], [6], [8], [9]], [1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0]> : tensor<10xf64> : !x
  // CHECK:      # fill: 0
  // CHECK-NEXT: 1 4
  // CHECK-NEXT: 6
  // CHECK-NEXT: 1 5
  // CHECK-NEXT: 3 6
  // CHECK-NEXT: 5 2
  // CHECK-NEXT: 6 3
  // CHECK:      # fill: 0
  // CHECK-NEXT: 1 3
  // CHECK-NEXT: 4
  // CHECK-NEXT: 1 7
  // CHECK-NEXT: 2 4
  // CHECK-NEXT: 3 1
  %v, %u = func.call @vectors(%x) : (!x) -> (!x6, !x4)
  sparse_array.print %v : !x6
  sparse_array.print %u : !x4

  // np.concatenate([x[2:4], x[2:5] + y, x[7:4:-1]]) with NaN for every
  // implicit entry = [-0, 3, 10, nan, nan, nan, 5, inf].
  // CHECK:      # fill: nan
  // CHECK-NEXT: 1 5
  // CHECK-NEXT: 8
  // CHECK-NEXT: 1 -0
  // CHECK-NEXT: 2 3
  // CHECK-NEXT: 3 10
  // CHECK-NEXT: 7 5
  // CHECK-NEXT: 8 inf
  %xn = sparse_array.constant sparse<[[0], [2], [3], [5], [6], [8], [9]], [1.0, -0.0, 3.0, 0x7FF0000000000000, 5.0, 6.0, 7.0]> : tensor<10xf64> : !n
  %yn = sparse_array.constant sparse<[[0], [2]], [10.0, 20.0]> : tensor<3xf64> : !n3
  %hn = func.call @nan_fill(%xn, %yn) : (!n, !n3) -> !n8
  sparse_array.print %hn : !n8
  return
}
func.func private @sa_rt_print_i64(i64)
func.func private @sa_rt_print_newline()
