// RUN: sa-run %s | FileCheck %s
// RUN: sa-run --bounds-checks -O0 %s | FileCheck %s
// RUN: sa-run --linear-threshold=2 %s | FileCheck %s
// Slices with negative steps (NumPy's a[::-1], a[5:1:-2]): a dense level is
// located at lo + step * x; a stored level is read backwards (a reflected
// level iterator: coordinates K - c and positions K - 1 - p ascend as it is
// read from its end), runs of a non-unique level keep their children in
// order. Expected values from numpy on the dense arrays:
//   A = [[0, 1, 0, 0, 2, 0], [0, 0, 3, 0, 0, 0], [4, 0, 0, 0, 0, 5], [0, 0, 0, 6, 0, 0]]
//   x = [1, 2, 0, 3, 4, 0, 0, 5, 0, 6] (fill 0 or 2 where unset), y = [2, 2, 7, 2, 2, 8, 2, 2, 9, 2]
//   a = [[0, 1, 0, 0], [0, 0, 0, 2], [3, 0, 0, 0]], b = [[1, 1, 4, 1], [1, 5, 1, 1]]

sparse_array.func @add(%x: f64, %y: f64) -> f64 attributes {commutative} {
  %r = arith.addf %x, %y : f64
  sparse_array.yield %r : f64
}

!csr = !sparse_array.array<4x6xf64, #sparse_array.format<[dense, compressed]>>
!coo = !sparse_array.array<4x6xf64, #sparse_array.format<[compressed(nonunique), singleton]>>
!dcsr = !sparse_array.array<4x6xf64, #sparse_array.format<[compressed, compressed]>>
!dense = !sparse_array.array<4x6xf64>
!cv = !sparse_array.array<10xf64, #sparse_array.format<[compressed], crd_width = 32>>
!cv2 = !sparse_array.array<10xf64, #sparse_array.format<[compressed], fill = 2.0 : f64>>
!dyn = !sparse_array.array<?xf64, #sparse_array.format<[compressed], fill = 2.0 : f64>>
!a = !sparse_array.array<3x4xf64, #sparse_array.format<[dense, compressed]>>
!b = !sparse_array.array<2x4xf64, #sparse_array.format<[dense, compressed], fill = 1.0 : f64>>
!ab = !sparse_array.array<5x4xf64, #sparse_array.format<[dense, compressed]>>

func.func @main() {
  %csr = sparse_array.constant sparse<[[0, 1], [0, 4], [1, 2], [2, 0], [2, 5], [3, 3]], [1.0, 2.0, 3.0, 4.0, 5.0, 6.0]> : tensor<4x6xf64> : !csr
  %coo = sparse_array.constant sparse<[[0, 1], [0, 4], [1, 2], [2, 0], [2, 5], [3, 3]], [1.0, 2.0, 3.0, 4.0, 5.0, 6.0]> : tensor<4x6xf64> : !coo
  %dcsr = sparse_array.constant sparse<[[0, 1], [0, 4], [1, 2], [2, 0], [2, 5], [3, 3]], [1.0, 2.0, 3.0, 4.0, 5.0, 6.0]> : tensor<4x6xf64> : !dcsr
  %dense = sparse_array.constant sparse<[[0, 1], [0, 4], [1, 2], [2, 0], [2, 5], [3, 3]], [1.0, 2.0, 3.0, 4.0, 5.0, 6.0]> : tensor<4x6xf64> : !dense

  // A[::-1, ::-2] = [[0, 6, 0], [5, 0, 0], [0, 0, 0], [0, 0, 1]]
  // CHECK: # fill: 0
  // CHECK-NEXT: 2 3
  // CHECK-NEXT: 4 3
  // CHECK-NEXT: 1 2 6
  // CHECK-NEXT: 2 1 5
  // CHECK-NEXT: 4 3 1
  %r0 = sparse_array.slice %csr[::-1, ::-2] : !csr -> !sparse_array.array<4x3xf64, #sparse_array.format<[dense, compressed]>>
  sparse_array.print %r0 : !sparse_array.array<4x3xf64, #sparse_array.format<[dense, compressed]>>

  // A[2::-1, 4:0:-1] = [[0, 0, 0, 0], [0, 0, 3, 0], [2, 0, 0, 1]] (COO:
  // rows 2 and 0 are runs of two entries)
  // CHECK: # fill: 0
  // CHECK-NEXT: 2 3
  // CHECK-NEXT: 3 4
  // CHECK-NEXT: 2 3 3
  // CHECK-NEXT: 3 1 2
  // CHECK-NEXT: 3 4 1
  %r1 = sparse_array.slice %coo[2::-1, 4:0:-1] : !coo -> !sparse_array.array<3x4xf64, #sparse_array.format<[compressed(nonunique), singleton]>>
  sparse_array.print %r1 : !sparse_array.array<3x4xf64, #sparse_array.format<[compressed(nonunique), singleton]>>

  // A[-1:0:-2, ::-1] = [[0, 0, 6, 0, 0, 0], [0, 0, 0, 3, 0, 0]]
  // CHECK: # fill: 0
  // CHECK-NEXT: 2 2
  // CHECK-NEXT: 2 6
  // CHECK-NEXT: 1 3 6
  // CHECK-NEXT: 2 4 3
  %r2 = sparse_array.slice %dcsr[-1:0:-2, ::-1] : !dcsr -> !sparse_array.array<2x6xf64, #sparse_array.format<[compressed, compressed]>>
  sparse_array.print %r2 : !sparse_array.array<2x6xf64, #sparse_array.format<[compressed, compressed]>>

  // Dense A[1::-1, 5:2:-1] = [[0, 0, 0], [0, 2, 0]] into a CSR result.
  // CHECK: # fill: 0
  // CHECK-NEXT: 2 1
  // CHECK-NEXT: 2 3
  // CHECK-NEXT: 2 2 2
  %r3 = sparse_array.slice %dense[1::-1, 5:2:-1] : !dense -> !sparse_array.array<2x3xf64, #sparse_array.format<[dense, compressed]>>
  sparse_array.print %r3 : !sparse_array.array<2x3xf64, #sparse_array.format<[dense, compressed]>>

  // x[8::-2] = [0, 0, 4, 0, 1] (32-bit coordinates)
  // CHECK: # fill: 0
  // CHECK-NEXT: 1 2
  // CHECK-NEXT: 5
  // CHECK-NEXT: 3 4
  // CHECK-NEXT: 5 1
  %x = sparse_array.constant sparse<[[0], [1], [3], [4], [7], [9]], [1.0, 2.0, 3.0, 4.0, 5.0, 6.0]> : tensor<10xf64> : !cv
  %r4 = sparse_array.slice %x[8::-2] : !cv -> !sparse_array.array<5xf64, #sparse_array.format<[compressed]>>
  sparse_array.print %r4 : !sparse_array.array<5xf64, #sparse_array.format<[compressed]>>

  // Slices of slices compose into one (fused): x[::-1][0:9:3] = x[9:0:-3]
  // = [6, 0, 3]; x[::-1][::-1] = x.
  // CHECK: # fill: 0
  // CHECK-NEXT: 1 2
  // CHECK-NEXT: 3
  // CHECK-NEXT: 1 6
  // CHECK-NEXT: 3 3
  // CHECK: # fill: 0
  // CHECK-NEXT: 1 6
  // CHECK-NEXT: 10
  // CHECK-NEXT: 1 1
  // CHECK-NEXT: 2 2
  // CHECK-NEXT: 4 3
  // CHECK-NEXT: 5 4
  // CHECK-NEXT: 8 5
  // CHECK-NEXT: 10 6
  %xr = sparse_array.slice %x[::-1] : !cv -> !cv
  %r5 = sparse_array.slice %xr[0:9:3] : !cv -> !sparse_array.array<3xf64, #sparse_array.format<[compressed]>>
  sparse_array.print %r5 : !sparse_array.array<3xf64, #sparse_array.format<[compressed]>>
  %xr2 = sparse_array.slice %x[::-1] : !cv -> !cv
  %r6 = sparse_array.slice %xr2[::-1] : !cv -> !cv
  sparse_array.print %r6 : !cv

  // A reversed concatenation whose parts' fills differ (0 and 1): the parts
  // come in reverse order. c = vstack(a, b); c[::-1, ::-1] and c[3:0:-2].
  // CHECK: # fill: 0
  // CHECK-NEXT: 2 11
  // CHECK-NEXT: 5 4
  // CHECK-NEXT: 1 1 1
  // CHECK-NEXT: 1 2 1
  // CHECK-NEXT: 1 3 5
  // CHECK-NEXT: 1 4 1
  // CHECK-NEXT: 2 1 1
  // CHECK-NEXT: 2 2 4
  // CHECK-NEXT: 2 3 1
  // CHECK-NEXT: 2 4 1
  // CHECK-NEXT: 3 4 3
  // CHECK-NEXT: 4 1 2
  // CHECK-NEXT: 5 3 1
  // CHECK: # fill: 0
  // CHECK-NEXT: 2 5
  // CHECK-NEXT: 2 4
  // CHECK-NEXT: 1 1 1
  // CHECK-NEXT: 1 2 1
  // CHECK-NEXT: 1 3 4
  // CHECK-NEXT: 1 4 1
  // CHECK-NEXT: 2 4 2
  %a = sparse_array.constant sparse<[[0, 1], [1, 3], [2, 0]], [1.0, 2.0, 3.0]> : tensor<3x4xf64> : !a
  %b = sparse_array.constant sparse<[[0, 2], [1, 1]], [4.0, 5.0]> : tensor<2x4xf64> : !b
  %c = sparse_array.concat %a, %b dim 0 : !a, !b -> !ab
  %r7 = sparse_array.slice %c[::-1, ::-1] : !ab -> !ab
  sparse_array.print %r7 : !ab
  %c2 = sparse_array.concat %a, %b dim 0 : !a, !b -> !ab
  %r8 = sparse_array.slice %c2[3:0:-2] : !ab -> !sparse_array.array<2x4xf64, #sparse_array.format<[dense, compressed]>>
  sparse_array.print %r8 : !sparse_array.array<2x4xf64, #sparse_array.format<[dense, compressed]>>

  // Compute over a reversal, then a reversed slice of the result (fill 2 +
  // 2 = 4): (x[::-1] + y)[8:1:-2] = [11, 5, 4, 12].
  // CHECK: # fill: 4
  // CHECK-NEXT: 1 3
  // CHECK-NEXT: 4
  // CHECK-NEXT: 1 11
  // CHECK-NEXT: 2 5
  // CHECK-NEXT: 4 12
  %x2 = sparse_array.constant sparse<[[0], [1], [3], [4], [7], [9]], [1.0, 2.0, 3.0, 4.0, 5.0, 6.0]> : tensor<10xf64> : !cv2
  %y2 = sparse_array.constant sparse<[[2], [5], [8]], [7.0, 8.0, 9.0]> : tensor<10xf64> : !cv2
  %x2r = sparse_array.slice %x2[::-1] : !cv2 -> !cv2
  %s = sparse_array.map @add(%x2r, %y2) : (!cv2, !cv2) -> !sparse_array.array<10xf64, #sparse_array.format<[compressed], fill = 4.0 : f64>>
  %r9 = sparse_array.slice %s[8:1:-2] : !sparse_array.array<10xf64, #sparse_array.format<[compressed], fill = 4.0 : f64>> -> !sparse_array.array<4xf64, #sparse_array.format<[compressed], fill = 4.0 : f64>>
  sparse_array.print %r9 : !sparse_array.array<4xf64, #sparse_array.format<[compressed], fill = 4.0 : f64>>

  // A size known only at run time, counting down from an explicit start:
  // x[7::-3] = [5, 4, 2] (fill 2).
  // CHECK: # fill: 2
  // CHECK-NEXT: 1 2
  // CHECK-NEXT: 3
  // CHECK-NEXT: 1 5
  // CHECK-NEXT: 2 4
  %xd = sparse_array.convert %x2 : !cv2 to !dyn
  %r10 = sparse_array.slice %xd[7::-3] : !dyn -> !sparse_array.array<3xf64, #sparse_array.format<[compressed], fill = 2.0 : f64>>
  sparse_array.print %r10 : !sparse_array.array<3xf64, #sparse_array.format<[compressed], fill = 2.0 : f64>>
  return
}
