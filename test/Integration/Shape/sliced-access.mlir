// RUN: sa-run %s | FileCheck %s
// RUN: sa-run --bounds-checks -O0 %s | FileCheck %s
// RUN: sa-run --linear-threshold=2 %s | FileCheck %s
// Sliced accesses (seed 000 §4.2; seed 001 §5.1's a[s:e:r]): a loop whose
// coordinate x reads coordinate s + r*x of a sliced level. Stored levels are
// iterated through a slice iterator (seek to s by bisection, skip what lies
// off the stride, stop at e); dense levels are located at s + r*x (loop
// structure: test/Conversion/lower-iterators-slices.mlir).
// Expected values from numpy on the dense arrays:
//   x = [1, 2, 0, 3, 4, 0, 0, 5, 0, 6], y = [10, 0, 20, 30]
//   A = [[0, 1, 0, 0, 2, 0], [0, 0, 3, 0, 0, 0], [4, 0, 0, 0, 0, 5], [0, 0, 0, 6, 0, 0]]
//   d = arange(10) + 0.5

sparse_array.func @add(%x: f64, %y: f64) -> f64 attributes {commutative} {
  %r = arith.addf %x, %y : f64
  sparse_array.yield %r : f64
}
sparse_array.func @mul(%x: f64, %y: f64) -> f64 attributes {commutative} {
  %r = arith.mulf %x, %y : f64
  sparse_array.yield %r : f64
}

!cv = !sparse_array.array<10xf64, #sparse_array.format<[compressed]>>
!cv4 = !sparse_array.array<4xf64, #sparse_array.format<[compressed]>>
!dv = !sparse_array.array<10xf64>
!dv4 = !sparse_array.array<4xf64>
!dyn = !sparse_array.array<?xf64, #sparse_array.format<[compressed]>>
!csr = !sparse_array.array<4x6xf64, #sparse_array.format<[dense, compressed], crd_width = 32>>
!dcsr = !sparse_array.array<4x6xf64, #sparse_array.format<[compressed, compressed]>>
!coo = !sparse_array.array<4x6xf64, #sparse_array.format<[compressed(nonunique), singleton]>>
!csr23 = !sparse_array.array<2x3xf64, #sparse_array.format<[dense, compressed]>>
!csr23f = !sparse_array.array<2x3xf64, #sparse_array.format<[dense, compressed], fill = 7.0 : f64>>
!coo33 = !sparse_array.array<3x3xf64, #sparse_array.format<[compressed(nonunique), singleton]>>
!d0 = !sparse_array.array<0xf64, #sparse_array.format<[compressed]>>

memref.global "private" constant @xpos : memref<2xi64> = dense<[0, 6]>
memref.global "private" constant @xcrd : memref<6xi64> = dense<[0, 1, 3, 4, 7, 9]>
memref.global "private" constant @xval : memref<6xf64> = dense<[1.0, 2.0, 3.0, 4.0, 5.0, 6.0]>
memref.global "private" constant @ypos : memref<2xi64> = dense<[0, 3]>
memref.global "private" constant @ycrd : memref<3xi64> = dense<[0, 2, 3]>
memref.global "private" constant @yval : memref<3xf64> = dense<[10.0, 20.0, 30.0]>
memref.global "private" constant @apos : memref<5xi64> = dense<[0, 2, 3, 5, 6]>
memref.global "private" constant @acrd : memref<6xi32> = dense<[1, 4, 2, 0, 5, 3]>
memref.global "private" constant @aval : memref<6xf64> = dense<[1.0, 2.0, 3.0, 4.0, 5.0, 6.0]>
memref.global "private" constant @rows : memref<6xi64> = dense<[0, 0, 1, 2, 2, 3]>
memref.global "private" constant @cols : memref<6xi64> = dense<[1, 4, 2, 0, 5, 3]>
memref.global "private" constant @dval : memref<10xf64> = dense<[0.5, 1.5, 2.5, 3.5, 4.5, 5.5, 6.5, 7.5, 8.5, 9.5]>

func.func @main() {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %c6 = arith.constant 6 : index
  %c10 = arith.constant 10 : index
  %xp = memref.get_global @xpos : memref<2xi64>
  %xc = memref.get_global @xcrd : memref<6xi64>
  %xv = memref.get_global @xval : memref<6xf64>
  %xp1 = memref.cast %xp : memref<2xi64> to memref<?xi64>
  %xc1 = memref.cast %xc : memref<6xi64> to memref<?xi64>
  %xv1 = memref.cast %xv : memref<6xf64> to memref<?xf64>
  %x = sparse_array.assemble (%xp1, %xc1, %xv1), (%c10) : memref<?xi64>, memref<?xi64>, memref<?xf64> -> !cv
  %yp = memref.get_global @ypos : memref<2xi64>
  %yc = memref.get_global @ycrd : memref<3xi64>
  %yv = memref.get_global @yval : memref<3xf64>
  %yp1 = memref.cast %yp : memref<2xi64> to memref<?xi64>
  %yc1 = memref.cast %yc : memref<3xi64> to memref<?xi64>
  %yv1 = memref.cast %yv : memref<3xf64> to memref<?xf64>
  %y = sparse_array.assemble (%yp1, %yc1, %yv1), (%c4) : memref<?xi64>, memref<?xi64>, memref<?xf64> -> !cv4

  // x[1:9:2] + y = [2, 3, 0, 5] + [10, 0, 20, 30].
  // CHECK:      # fill: 0
  // CHECK-NEXT: 1 4
  // CHECK-NEXT: 4
  // CHECK-NEXT: 1 12
  // CHECK-NEXT: 2 3
  // CHECK-NEXT: 3 20
  // CHECK-NEXT: 4 35
  %r1 = sparse_array.kernel ins(%x, %y : !cv, !cv4) -> !cv4 {
  ^bb0(%i: index, %a: !cv, %b: !cv4):
    %ai = sparse_array.access %a[%i(1:9:2)] : !cv
    %bi = sparse_array.access %b[%i] : !cv4
    %s = sparse_array.apply @add(%ai, %bi) : (f64, f64) -> f64
    sparse_array.yield %s : f64
  }
  sparse_array.print %r1 : !cv4

  // A dense level located at s + r*x: d[2:10:2] * x[0:8:2] = [2.5, 0, 26, 0].
  // CHECK:      # fill: 0
  // CHECK-NEXT: 1 2
  // CHECK-NEXT: 4
  // CHECK-NEXT: 1 2.5
  // CHECK-NEXT: 3 26
  %dv = memref.get_global @dval : memref<10xf64>
  %dv1 = memref.cast %dv : memref<10xf64> to memref<?xf64>
  %d = sparse_array.assemble (%dv1), (%c10) : memref<?xf64> -> !dv
  %r2 = sparse_array.kernel ins(%d, %x : !dv, !cv) -> !dv4 {
  ^bb0(%i: index, %a: !dv, %b: !cv):
    %ai = sparse_array.access %a[%i(2:10:2)] : !dv
    %bi = sparse_array.access %b[%i(0:8:2)] : !cv
    %s = sparse_array.apply @mul(%ai, %bi) : (f64, f64) -> f64
    sparse_array.yield %s : f64
  }
  sparse_array.print %r2 : !dv4

  %ap = memref.get_global @apos : memref<5xi64>
  %ac = memref.get_global @acrd : memref<6xi32>
  %av = memref.get_global @aval : memref<6xf64>
  %ap1 = memref.cast %ap : memref<5xi64> to memref<?xi64>
  %ac1 = memref.cast %ac : memref<6xi32> to memref<?xi32>
  %av1 = memref.cast %av : memref<6xf64> to memref<?xf64>
  %A = sparse_array.assemble (%ap1, %ac1, %av1), (%c4, %c6) : memref<?xi64>, memref<?xi32>, memref<?xf64> -> !csr

  // CSR (32-bit coordinates), both dimensions sliced: A[1:4:2, 0:6:2] =
  // [[0, 3, 0], [0, 0, 0]].
  // CHECK:      # fill: 0
  // CHECK-NEXT: 2 1
  // CHECK-NEXT: 2 3
  // CHECK-NEXT: 1 2 3
  %r3 = sparse_array.kernel ins(%A : !csr) -> !csr23 {
  ^bb0(%i: index, %j: index, %a: !csr):
    %aij = sparse_array.access %a[%i(1:4:2), %j(0:6:2)] : !csr
    sparse_array.yield %aij : f64
  }
  sparse_array.print %r3 : !csr23

  // A declared result fill (7) other than the derived one (0): every point
  // of the slice is computed (the universe), zeros stored.
  // CHECK:      # fill: 7
  // CHECK-NEXT: 2 6
  // CHECK-NEXT: 2 3
  // CHECK-NEXT: 1 1 0
  // CHECK-NEXT: 1 2 3
  // CHECK-NEXT: 1 3 0
  // CHECK-NEXT: 2 1 0
  // CHECK-NEXT: 2 2 0
  // CHECK-NEXT: 2 3 0
  %r4 = sparse_array.kernel ins(%A : !csr) -> !csr23f {
  ^bb0(%i: index, %j: index, %a: !csr):
    %aij = sparse_array.access %a[%i(1:4:2), %j(0:6:2)] : !csr
    sparse_array.yield %aij : f64
  }
  sparse_array.print %r4 : !csr23f

  // A reduction over a sliced dimension: row sums of A[:, 1:5] = [3, 3, 0, 6].
  // CHECK:      # fill: 0
  // CHECK-NEXT: 1 3
  // CHECK-NEXT: 4
  // CHECK-NEXT: 1 3
  // CHECK-NEXT: 2 3
  // CHECK-NEXT: 4 6
  %r5 = sparse_array.kernel ins(%A : !csr) -> !dv4 {
  ^bb0(%i: index, %j: index, %a: !csr):
    %aij = sparse_array.access %a[%i, %j(1:5)] : !csr
    %s = sparse_array.reduce_over [%j] %aij with @add : f64
    sparse_array.yield %s : f64
  }
  sparse_array.print %r5 : !dv4

  // DCSR and COO (a non-unique level: runs of equal rows), rows 1:4 and
  // every other column: [[0, 3, 0], [4, 0, 0], [0, 0, 0]].
  // CHECK:      # fill: 0
  // CHECK-NEXT: 2 2
  // CHECK-NEXT: 3 3
  // CHECK-NEXT: 1 2 3
  // CHECK-NEXT: 2 1 4
  // CHECK:      # fill: 0
  // CHECK-NEXT: 2 2
  // CHECK-NEXT: 3 3
  // CHECK-NEXT: 1 2 3
  // CHECK-NEXT: 2 1 4
  %rw = memref.get_global @rows : memref<6xi64>
  %cl = memref.get_global @cols : memref<6xi64>
  %rw1 = memref.cast %rw : memref<6xi64> to memref<?xi64>
  %cl1 = memref.cast %cl : memref<6xi64> to memref<?xi64>
  %coo = sparse_array.assemble (%xp1, %rw1, %cl1, %av1), (%c4, %c6) : memref<?xi64>, memref<?xi64>, memref<?xi64>, memref<?xf64> -> !coo
  %dcsr = sparse_array.convert %coo : !coo to !dcsr
  %r6 = sparse_array.kernel ins(%dcsr : !dcsr) -> !coo33 {
  ^bb0(%i: index, %j: index, %a: !dcsr):
    %aij = sparse_array.access %a[%i(1:4), %j(0:6:2)] : !dcsr
    sparse_array.yield %aij : f64
  }
  sparse_array.print %r6 : !coo33
  %r7 = sparse_array.kernel ins(%coo : !coo) -> !coo33 {
  ^bb0(%i: index, %j: index, %a: !coo):
    %aij = sparse_array.access %a[%i(1:4), %j(0:6:2)] : !coo
    sparse_array.yield %aij : f64
  }
  sparse_array.print %r7 : !coo33

  // An empty slice: a 0-entry vector.
  // CHECK:      # fill: 0
  // CHECK-NEXT: 1 0
  // CHECK-NEXT: 0
  %r8 = sparse_array.kernel ins(%x : !cv) -> !d0 {
  ^bb0(%i: index, %a: !cv):
    %ai = sparse_array.access %a[%i(5:5)] : !cv
    sparse_array.yield %ai : f64
  }
  sparse_array.print %r8 : !d0
  return
}
