// RUN: sa-opt %s | sa-opt | FileCheck %s
// RUN: sa-opt %s --verify-roundtrip > /dev/null
// Shape operators (seed 001 §4): every spelling of a slice prints and parses
// back.

!A = !sparse_array.array<10x4xf64, #sparse_array.format<[dense, compressed]>>
!D = !sparse_array.array<?x6xf64>

// CHECK-LABEL: func.func @slices(
// CHECK: sparse_array.slice %{{.*}} [1:9:2, -1] :
// CHECK: sparse_array.slice %{{.*}} [:, ::3] :
// CHECK: sparse_array.slice %{{.*}} [-3:, 1:-1] :
// CHECK: sparse_array.slice %{{.*}} [] :
// CHECK: sparse_array.slice %{{.*}} [0:20:1] :
// CHECK: sparse_array.slice %{{.*}} [2:5, 5] :
// CHECK: sparse_array.slice %{{.*}} [:, 8:] :
// CHECK: sparse_array.slice %{{.*}} [3] :
// CHECK: sparse_array.slice %{{.*}} [::-1, 3:0:-2] :
// CHECK: sparse_array.slice %{{.*}} [-2::-3] :
// CHECK: sparse_array.slice %{{.*}} [4::-1] :
// CHECK: sparse_array.slice %{{.*}} [20:-20:-1] :
func.func @slices(%a: !A, %d: !D) {
  %0 = sparse_array.slice %a[1:9:2, -1] : !A -> !sparse_array.array<4xf64, #sparse_array.format<[compressed]>>
  %1 = sparse_array.slice %a[:, ::3] : !A -> !sparse_array.array<10x2xf64>
  %2 = sparse_array.slice %a[-3:, 1:-1] : !A -> !sparse_array.array<3x2xf64>
  %3 = sparse_array.slice %a[] : !A -> !A
  %4 = sparse_array.slice %a[0:20:1] : !A -> !A
  %5 = sparse_array.slice %d[2:5, 5] : !D -> !sparse_array.array<3xf64>
  %6 = sparse_array.slice %d[:, 8:] : !D -> !sparse_array.array<?x0xf64>
  %7 = sparse_array.slice %d[3] : !D -> !sparse_array.array<6xf64>
  // Negative steps count down (Python: a[::-1] is a reversal).
  %8 = sparse_array.slice %a[::-1, 3:0:-2] : !A -> !sparse_array.array<10x2xf64>
  %9 = sparse_array.slice %a[-2::-3] : !A -> !sparse_array.array<3x4xf64>
  %10 = sparse_array.slice %d[4::-1] : !D -> !sparse_array.array<5x6xf64>
  %11 = sparse_array.slice %a[20:-20:-1] : !A -> !A
  return
}

// CHECK-LABEL: func.func @views(
// CHECK: sparse_array.transpose %{{.*}} [1, 0] :
// CHECK: sparse_array.expand_dims %{{.*}} [0, 2] :
// CHECK: sparse_array.squeeze %{{.*}} [1] :
func.func @views(%a: !A, %e: !sparse_array.array<3x1xf64>) {
  %0 = sparse_array.transpose %a [1, 0] : !A -> !sparse_array.array<4x10xf64, #sparse_array.format<[dense, compressed], order = [1, 0]>>
  %1 = sparse_array.expand_dims %a [0, 2] : !A -> !sparse_array.array<1x10x1x4xf64>
  %2 = sparse_array.squeeze %e [1] : !sparse_array.array<3x1xf64> -> !sparse_array.array<3xf64>
  return
}

// CHECK-LABEL: func.func @concats(
// CHECK: sparse_array.concat %{{.*}}, %{{.*}} dim 1 :
// CHECK: sparse_array.concat %{{.*}}, %{{.*}} dim 1 : {{.*}} -> !sparse_array.array<10x?xf64>
// CHECK: sparse_array.access %{{.*}}[%{{.*}}, %{{.*}}(-4:4)] padded :
// CHECK: sparse_array.select_range %{{.*}} [4] (%{{.*}}, %{{.*}}) : f64, f64 -> f64
// CHECK: %[[T:.*]] = sparse_array.access %{{.*}}[%{{.*}}(-4:4)] padded : !sparse_array.array<4xi1>
// CHECK: sparse_array.select_range %{{.*}} [4] (%{{.*}}, %{{.*}}) ranges [1] (%[[T]]) : f64, f64 -> f64
// CHECK: sparse_array.access %{{.*}}[%{{.*}}, %{{.*}}(-6:2)] padded bounds [0, -1, 1, 3] :
func.func @concats(%a: !A, %b: !sparse_array.array<10x3xf64>) {
  %0 = sparse_array.concat %a, %b dim 1 : !A, !sparse_array.array<10x3xf64> -> !sparse_array.array<10x7xf64>
  %dy = sparse_array.convert %b : !sparse_array.array<10x3xf64> to !sparse_array.array<10x?xf64>
  %cd = sparse_array.concat %a, %dy dim 1 : !A, !sparse_array.array<10x?xf64> -> !sparse_array.array<10x?xf64>
  %1 = sparse_array.kernel ins(%a, %a : !A, !A) -> !sparse_array.array<10x8xf64> {
  ^bb0(%i: index, %l: index, %x: !A, %y: !A):
    %u = sparse_array.access %x[%i, %l(0:8)] padded : !A
    %v = sparse_array.access %y[%i, %l(-4:4)] padded : !A
    %w = sparse_array.select_range %l [4] (%u, %v) : f64, f64 -> f64
    sparse_array.yield %w : f64
  }
  // The second part with a range marker (a dense i1 array of its extent).
  %m = sparse_array.constant dense<true> : tensor<4xi1> : !sparse_array.array<4xi1>
  %r = sparse_array.kernel ins(%a, %a, %m : !A, !A, !sparse_array.array<4xi1>) -> !sparse_array.array<10x8xf64> {
  ^bb0(%i: index, %l: index, %x: !A, %y: !A, %z: !sparse_array.array<4xi1>):
    %u = sparse_array.access %x[%i, %l(0:8)] padded : !A
    %v = sparse_array.access %y[%i, %l(-4:4)] padded : !A
    %t = sparse_array.access %z[%l(-4:4)] padded : !sparse_array.array<4xi1>
    %w = sparse_array.select_range %l [4] (%u, %v) ranges [1] (%t) : f64, f64 -> f64
    sparse_array.yield %w : f64
  }
  // A window over columns 1:3 of %a (a sliced part of a concatenation).
  %2 = sparse_array.kernel ins(%a : !A) -> !sparse_array.array<10x8xf64> {
  ^bb0(%i: index, %l: index, %x: !A):
    %u = sparse_array.access %x[%i, %l(-6:2)] padded bounds [0, -1, 1, 3] : !A
    sparse_array.yield %u : f64
  }
  return
}

// CHECK-LABEL: func.func @reshapes(
// CHECK: sparse_array.collapse %{{.*}} [0, 1] :
// CHECK: sparse_array.collapse %{{.*}} [1, 2] order "F" :
// CHECK: sparse_array.split %{{.*}} dim 0 [4, -1] :
// CHECK: sparse_array.split %{{.*}} dim 1 [2, 2] order "F" :
// CHECK: sparse_array.reshape %{{.*}} [-1, 5] :
// CHECK: sparse_array.reshape %{{.*}} [8, 5] order "F" :
func.func @reshapes(%a: !A, %t: !sparse_array.array<2x3x?xf64>, %v: !sparse_array.array<40xf64>) {
  %0 = sparse_array.collapse %a [0, 1] : !A -> !sparse_array.array<40xf64>
  %1 = sparse_array.collapse %t [1, 2] order "F" : !sparse_array.array<2x3x?xf64> -> !sparse_array.array<2x?xf64>
  %2 = sparse_array.split %v dim 0 [4, -1] : !sparse_array.array<40xf64> -> !sparse_array.array<4x10xf64>
  %3 = sparse_array.split %a dim 1 [2, 2] order "F" : !A -> !sparse_array.array<10x2x2xf64>
  %4 = sparse_array.reshape %a [-1, 5] : !A -> !sparse_array.array<8x5xf64>
  %5 = sparse_array.reshape %t [8, 5] order "F" : !sparse_array.array<2x3x?xf64> -> !sparse_array.array<8x5xf64>
  return
}

// CHECK-LABEL: func.func @linearized(
// CHECK: %[[L:.*]] = sparse_array.linearize %{{.*}}, %{{.*}} [4]
// CHECK: sparse_array.access %{{.*}}[%[[L]]]
func.func @linearized(%x: !sparse_array.array<12xf64>) {
  %0 = sparse_array.kernel ins(%x : !sparse_array.array<12xf64>) -> !sparse_array.array<3x4xf64> {
  ^bb0(%i: index, %j: index, %a: !sparse_array.array<12xf64>):
    %l = sparse_array.linearize %i, %j [4]
    %v = sparse_array.access %a[%l] : !sparse_array.array<12xf64>
    sparse_array.yield %v : f64
  }
  return
}

// CHECK-LABEL: func.func @delinearized(
// CHECK: %[[P:.*]]:2 = sparse_array.delinearize %{{.*}} [4] : index, index
// CHECK: sparse_array.access %{{.*}}[%[[P]]#0, %[[P]]#1]
func.func @delinearized(%a: !sparse_array.array<3x4xf64>) {
  %0 = sparse_array.kernel ins(%a : !sparse_array.array<3x4xf64>) -> !sparse_array.array<12xf64> {
  ^bb0(%x: index, %b: !sparse_array.array<3x4xf64>):
    %p:2 = sparse_array.delinearize %x [4] : index, index
    %v = sparse_array.access %b[%p#0, %p#1] : !sparse_array.array<3x4xf64>
    sparse_array.yield %v : f64
  }
  return
}

// A collapse read in windows of a split (a reshape 3x4 -> 4x3).
// CHECK-LABEL: func.func @delinearized_split(
// CHECK: %[[L:.*]] = sparse_array.linearize %{{.*}}, %{{.*}} [3]
// CHECK: %[[P:.*]]:2 = sparse_array.delinearize %[[L]] [4] : index, index
// CHECK: sparse_array.access %{{.*}}[%[[P]]#0, %[[P]]#1]
func.func @delinearized_split(%a: !sparse_array.array<3x4xf64>) {
  %0 = sparse_array.kernel ins(%a : !sparse_array.array<3x4xf64>) -> !sparse_array.array<4x3xf64> {
  ^bb0(%i: index, %j: index, %b: !sparse_array.array<3x4xf64>):
    %l = sparse_array.linearize %i, %j [3]
    %p:2 = sparse_array.delinearize %l [4] : index, index
    %v = sparse_array.access %b[%p#0, %p#1] : !sparse_array.array<3x4xf64>
    sparse_array.yield %v : f64
  }
  return
}

// A slice with bounds known at run time.
// CHECK-LABEL: func.func @dynamic_slice(
// CHECK: sparse_array.dynamic_slice %{{.*}}[%{{.*}}, %{{.*}}] [%{{.*}}, %{{.*}}] [%{{.*}}, %{{.*}}] : !sparse_array.array<10x4xf64, #{{.*}}> -> !sparse_array.array<?x2xf64, #{{.*}}>
func.func @dynamic_slice(%a: !A, %o: index, %n: index) -> !sparse_array.array<?x2xf64, #sparse_array.format<[dense, compressed]>> {
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %r = sparse_array.dynamic_slice %a[%o, %c1] [%n, %c2] [%c1, %c2] : !A -> !sparse_array.array<?x2xf64, #sparse_array.format<[dense, compressed]>>
  return %r : !sparse_array.array<?x2xf64, #sparse_array.format<[dense, compressed]>>
}
