// RUN: sa-run %s | FileCheck %s
// RUN: not sa-run --entry-point=bad_segment %s 2>&1 | FileCheck %s --check-prefix=SEG
// RUN: sa-opt %s --sparse-array-import-sparse-tensor | FileCheck %s --check-prefix=IR
//
// loose_compressed levels (the level format plugin of that name: the
// user's (lo, hi) pairs and buffers held as given) and sparse_tensor.foreach
// (loops over the stored entries in storage order, each level read by its
// iterator).
// Expected values worked out by hand from the buffers below.

#LCSR = #sparse_tensor.encoding<{ map = (d0, d1) -> (d0 : dense, d1 : loose_compressed) }>
#CSC = #sparse_tensor.encoding<{ map = (d0, d1) -> (d1 : dense, d0 : compressed) }>
#LCC = #sparse_tensor.encoding<{ map = (d0, d1) -> (d0 : loose_compressed, d1 : compressed) }>

// The foreach over the CSC tensor: a dense loop over columns, a loop over
// each column's segment, the body (a fold) in the innermost loop.
// IR-LABEL: func.func @fold_csc(
// IR: sparse_array.positions
// IR: scf.for {{.*}} iter_args
// IR: scf.for {{.*}} iter_args
// IR: arith.muli
// IR-NOT: sparse_tensor.foreach

// A 3x4 matrix from (lo, hi) pairs out of order and with gaps: row 0 is
// entries [0, 2), row 1 is empty ([5, 5)), row 2 is [2, 4); entries 4 and 5
// belong to no row. Held as given (as upstream's MLIR 22 prints it: nse
// is the buffers' length).
// CHECK:      ---- Sparse Tensor ----
// CHECK-NEXT: nse = 6
// CHECK-NEXT: dim = ( 3, 4 )
// CHECK-NEXT: lvl = ( 3, 4 )
// CHECK-NEXT: pos[1] : ( 0, 2, 5, 5, 2, 4 )
// CHECK-NEXT: crd[1] : ( 0, 3, 1, 2, 9, 9 )
// CHECK-NEXT: values : ( 1, 2, 3, 4, 99, 99 )
// CHECK-NEXT: ----
// The stored entries, in storage order (row, column, value).
// CHECK-NEXT: 0 0 1
// CHECK-NEXT: 0 3 2
// CHECK-NEXT: 2 1 3
// CHECK-NEXT: 2 2 4
// Disassembled: the pairs, their length, the coordinates; the pairs again
// through sparse_tensor.positions.
// CHECK-NEXT: ( 0, 2, 5, 5, 2, 4 )
// CHECK-NEXT: 6
// CHECK-NEXT: ( 0, 3, 1, 2, 9, 9 )
// CHECK-NEXT: ( 0, 2, 5, 5, 2, 4 )
// [[1, 0, 2], [0, 3, 0]] as CSC: entries (0, 0), (1, 1), (0, 2) in storage
// order; the fold acc * 100 + (10 i + j) is 0, then 11, then 1102.
// CHECK-NEXT: 1102
// The same entries inserted transposed into a dense 3x2 tensor carried by
// the loops.
// CHECK-NEXT: ( ( 1, 0 ), ( 0, 3 ), ( 2, 0 ) )
// A dense tensor: every entry.
// CHECK-NEXT: 5
// CHECK-NEXT: 0
// CHECK-NEXT: 0
// CHECK-NEXT: 6
// A loose level above a compressed one: its segment (1, 3) holds rows 1
// and 2 (positions 0 and 3, coordinate 7, are in no segment), the
// compressed level's segments are per loose position.
// CHECK-NEXT: 1 2 1.5
// CHECK-NEXT: 2 0 2.5
// CHECK-NEXT: 2 1 3.5
func.func @main() {
  %c0 = arith.constant 0 : index
  %pos = arith.constant dense<[0, 2, 5, 5, 2, 4]> : tensor<6xindex>
  %crd = arith.constant dense<[0, 3, 1, 2, 9, 9]> : tensor<6xindex>
  %val = arith.constant dense<[1.0, 2.0, 3.0, 4.0, 99.0, 99.0]> : tensor<6xf64>
  %s = sparse_tensor.assemble (%pos, %crd), %val : (tensor<6xindex>, tensor<6xindex>), tensor<6xf64> to tensor<3x4xf64, #LCSR>
  sparse_tensor.print %s : tensor<3x4xf64, #LCSR>
  sparse_tensor.foreach in %s : tensor<3x4xf64, #LCSR> do {
    ^bb0(%i: index, %j: index, %v: f64):
      vector.print %i : index punctuation <no_punctuation>
      vector.print str " "
      vector.print %j : index punctuation <no_punctuation>
      vector.print str " "
      vector.print %v : f64
  }
  %op = tensor.empty() : tensor<6xindex>
  %oc = tensor.empty() : tensor<6xindex>
  %ov = tensor.empty() : tensor<6xf64>
  %rp, %rc, %rv, %lp, %lc, %lv = sparse_tensor.disassemble %s : tensor<3x4xf64, #LCSR>
      out_lvls(%op, %oc : tensor<6xindex>, tensor<6xindex>) out_vals(%ov : tensor<6xf64>)
      -> (tensor<6xindex>, tensor<6xindex>), tensor<6xf64>, (index, tensor<i64>), index
  %vp = vector.transfer_read %rp[%c0], %c0 : tensor<6xindex>, vector<6xindex>
  vector.print %vp : vector<6xindex>
  vector.print %lp : index
  %vc = vector.transfer_read %rc[%c0], %c0 : tensor<6xindex>, vector<6xindex>
  vector.print %vc : vector<6xindex>
  %pm = sparse_tensor.positions %s {level = 1 : index} : tensor<3x4xf64, #LCSR> to memref<?xindex>
  %vpm = vector.transfer_read %pm[%c0], %c0 : memref<?xindex>, vector<6xindex>
  vector.print %vpm : vector<6xindex>

  %d = arith.constant dense<[[1, 0, 2], [0, 3, 0]]> : tensor<2x3xi64>
  %t = sparse_tensor.convert %d : tensor<2x3xi64> to tensor<2x3xi64, #CSC>
  %f = call @fold_csc(%t) : (tensor<2x3xi64, #CSC>) -> index
  vector.print %f : index
  %z = arith.constant dense<0> : tensor<3x2xi64>
  %tr = sparse_tensor.foreach in %t init(%z) : tensor<2x3xi64, #CSC>, tensor<3x2xi64> -> tensor<3x2xi64> do {
    ^bb0(%i: index, %j: index, %v: i64, %acc: tensor<3x2xi64>):
      %n = tensor.insert %v into %acc[%j, %i] : tensor<3x2xi64>
      sparse_tensor.yield %n : tensor<3x2xi64>
  }
  %m1 = arith.constant -1 : i64
  %vt = vector.transfer_read %tr[%c0, %c0], %m1 : tensor<3x2xi64>, vector<3x2xi64>
  vector.print %vt : vector<3x2xi64>

  %dd = arith.constant dense<[[5, 0], [0, 6]]> : tensor<2x2xi32>
  sparse_tensor.foreach in %dd : tensor<2x2xi32> do {
    ^bb0(%i: index, %j: index, %v: i32):
      vector.print %v : i32
  }
  %p0 = arith.constant dense<[1, 3]> : tensor<2xindex>
  %c0s = arith.constant dense<[7, 1, 2, 7]> : tensor<4xindex>
  %p1 = arith.constant dense<[0, 0, 1, 3, 3]> : tensor<5xindex>
  %c1s = arith.constant dense<[2, 0, 1]> : tensor<3xindex>
  %v1 = arith.constant dense<[1.5, 2.5, 3.5]> : tensor<3xf64>
  %u = sparse_tensor.assemble (%p0, %c0s, %p1, %c1s), %v1 : (tensor<2xindex>, tensor<4xindex>, tensor<5xindex>, tensor<3xindex>), tensor<3xf64> to tensor<4x3xf64, #LCC>
  sparse_tensor.foreach in %u : tensor<4x3xf64, #LCC> do {
    ^bb0(%i: index, %j: index, %v: f64):
      vector.print %i : index punctuation <no_punctuation>
      vector.print str " "
      vector.print %j : index punctuation <no_punctuation>
      vector.print str " "
      vector.print %v : f64
  }
  bufferization.dealloc_tensor %u : tensor<4x3xf64, #LCC>
  bufferization.dealloc_tensor %s : tensor<3x4xf64, #LCSR>
  bufferization.dealloc_tensor %t : tensor<2x3xi64, #CSC>
  return
}

func.func @fold_csc(%t: tensor<2x3xi64, #CSC>) -> index {
  %c0 = arith.constant 0 : index
  %c10 = arith.constant 10 : index
  %c100 = arith.constant 100 : index
  %r = sparse_tensor.foreach in %t init(%c0) : tensor<2x3xi64, #CSC>, index -> index do {
    ^bb0(%i: index, %j: index, %v: i64, %acc: index):
      %a = arith.muli %acc, %c100 : index
      %b = arith.muli %i, %c10 : index
      %c = arith.addi %a, %b : index
      %e = arith.addi %c, %j : index
      sparse_tensor.yield %e : index
  }
  return %r : index
}

// The runtime's validation of the assembled array (LooseCompressedKind).
// SEG: sparse_array runtime error: sparse_tensor.assemble at {{.*}}loose-foreach.mlir:[[@LINE+5]]:{{[0-9]+}}: inconsistent array buffers: level 1 segment [3, 7) of parent position 1 is not within its 6 coordinates
func.func @bad_segment() {
  %pos = arith.constant dense<[0, 2, 3, 7, 4, 4]> : tensor<6xindex>
  %crd = arith.constant dense<[0, 3, 1, 2, 0, 1]> : tensor<6xindex>
  %val = arith.constant dense<[1.0, 2.0, 3.0, 4.0, 5.0, 6.0]> : tensor<6xf64>
  %s = sparse_tensor.assemble (%pos, %crd), %val : (tensor<6xindex>, tensor<6xindex>), tensor<6xf64> to tensor<3x4xf64, #LCSR>
  sparse_tensor.print %s : tensor<3x4xf64, #LCSR>
  return
}
