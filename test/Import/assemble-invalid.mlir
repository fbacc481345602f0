// RUN: sed 's/@unsorted(/@main(/' %s > %t.unsorted.mlir && not sa-run %t.unsorted.mlir 2>&1 | FileCheck %s --check-prefix=UNSORTED
// RUN: sed 's/@repeated(/@main(/' %s > %t.repeated.mlir && not sa-run %t.repeated.mlir 2>&1 | FileCheck %s --check-prefix=REPEATED
// RUN: sed 's/@outside(/@main(/' %s > %t.outside.mlir && not sa-run %t.outside.mlir 2>&1 | FileCheck %s --check-prefix=OUTSIDE
// RUN: sed 's/@positions(/@main(/' %s > %t.positions.mlir && not sa-run %t.positions.mlir 2>&1 | FileCheck %s --check-prefix=POSITIONS
// RUN: sed 's/@short(/@main(/' %s > %t.short.mlir && not sa-run %t.short.mlir 2>&1 | FileCheck %s --check-prefix=SHORT
// RUN: sed 's/@coo_repeats(/@main(/' %s > %t.coo.mlir && not sa-run %t.coo.mlir 2>&1 | FileCheck %s --check-prefix=COO
//
// Each RUN line renames one function @main. sparse_tensor.assemble of
// buffers that do not fit the format: upstream
// leaves them to the user (a kernel would read out of bounds or merge
// wrongly); here the assembled array is validated and the program stops
// with the reason (exit 2), before any kernel reads it. A COO level that is
// not unique may repeat coordinates.

#CSR = #sparse_tensor.encoding<{map = (i, j) -> (i : dense, j : compressed)}>
#COO = #sparse_tensor.encoding<{map = (i, j) -> (i : compressed(nonunique), j : singleton)}>

// UNSORTED: sparse_array runtime error: sparse_tensor.assemble at {{.*}}: inconsistent array buffers: level 1 coordinates are not in order at position 1 (3 before 0)
func.func @unsorted() {
  %pos = arith.constant dense<[0, 2, 2]> : tensor<3xindex>
  %crd = arith.constant dense<[3, 0]> : tensor<2xindex>
  %val = arith.constant dense<[1.0, 2.0]> : tensor<2xf64>
  %a = sparse_tensor.assemble (%pos, %crd), %val
     : (tensor<3xindex>, tensor<2xindex>), tensor<2xf64> to tensor<2x4xf64, #CSR>
  sparse_tensor.print %a : tensor<2x4xf64, #CSR>
  return
}

// REPEATED: sparse_array runtime error: sparse_tensor.assemble at {{.*}}: inconsistent array buffers: level 1 repeats coordinates at position 1
func.func @repeated() {
  %pos = arith.constant dense<[0, 2, 2]> : tensor<3xindex>
  %crd = arith.constant dense<[1, 1]> : tensor<2xindex>
  %val = arith.constant dense<[1.0, 2.0]> : tensor<2xf64>
  %a = sparse_tensor.assemble (%pos, %crd), %val
     : (tensor<3xindex>, tensor<2xindex>), tensor<2xf64> to tensor<2x4xf64, #CSR>
  sparse_tensor.print %a : tensor<2x4xf64, #CSR>
  return
}

// OUTSIDE: sparse_array runtime error: sparse_tensor.assemble at {{.*}}: inconsistent array buffers: level 1 coordinate 4 at position 1 is outside the dimension (size 4)
func.func @outside() {
  %pos = arith.constant dense<[0, 2, 2]> : tensor<3xindex>
  %crd = arith.constant dense<[1, 4]> : tensor<2xindex>
  %val = arith.constant dense<[1.0, 2.0]> : tensor<2xf64>
  %a = sparse_tensor.assemble (%pos, %crd), %val
     : (tensor<3xindex>, tensor<2xindex>), tensor<2xf64> to tensor<2x4xf64, #CSR>
  sparse_tensor.print %a : tensor<2x4xf64, #CSR>
  return
}

// POSITIONS: sparse_array runtime error: sparse_tensor.assemble at {{.*}}: inconsistent array buffers: level 1 positions decrease at 1
func.func @positions() {
  %pos = arith.constant dense<[0, 2, 1]> : tensor<3xindex>
  %crd = arith.constant dense<[1]> : tensor<1xindex>
  %val = arith.constant dense<[1.0]> : tensor<1xf64>
  %a = sparse_tensor.assemble (%pos, %crd), %val
     : (tensor<3xindex>, tensor<1xindex>), tensor<1xf64> to tensor<2x4xf64, #CSR>
  sparse_tensor.print %a : tensor<2x4xf64, #CSR>
  return
}

// SHORT: sparse_array runtime error: sparse_tensor.assemble at {{.*}}: inconsistent array buffers: level 1 has 2 coordinates, expected 3
func.func @short() {
  %pos = arith.constant dense<[0, 1, 3]> : tensor<3xindex>
  %crd = arith.constant dense<[1, 2]> : tensor<2xindex>
  %val = arith.constant dense<[1.0, 2.0]> : tensor<2xf64>
  %a = sparse_tensor.assemble (%pos, %crd), %val
     : (tensor<3xindex>, tensor<2xindex>), tensor<2xf64> to tensor<2x4xf64, #CSR>
  sparse_tensor.print %a : tensor<2x4xf64, #CSR>
  return
}

// A COO whose rows repeat (nonunique) with columns in order within them
// (a repeated (row, column) pair: the REPEATED case of its last level).
// COO:      ---- Sparse Tensor ----
// COO-NEXT: nse = 3
// COO-NEXT: dim = ( 2, 4 )
// COO-NEXT: lvl = ( 2, 4 )
// COO-NEXT: pos[0] : ( 0, 3 )
// COO-NEXT: crd[0] : ( 0, 0, 0, 2, 1, 1 )
// COO-NEXT: values : ( 1, 2, 3 )
// COO-NEXT: ----
// COO: sparse_array runtime error: sparse_tensor.assemble at {{.*}}: inconsistent array buffers: level 1 repeats coordinates at position 1
func.func @coo_repeats() {
  %pos = arith.constant dense<[0, 3]> : tensor<2xindex>
  %crd = arith.constant dense<[[0, 0], [0, 2], [1, 1]]> : tensor<3x2xindex>
  %val = arith.constant dense<[1.0, 2.0, 3.0]> : tensor<3xf64>
  %a = sparse_tensor.assemble (%pos, %crd), %val
     : (tensor<2xindex>, tensor<3x2xindex>), tensor<3xf64> to tensor<2x4xf64, #COO>
  sparse_tensor.print %a : tensor<2x4xf64, #COO>
  %crd2 = arith.constant dense<[[0, 1], [0, 1], [1, 0]]> : tensor<3x2xindex>
  %b = sparse_tensor.assemble (%pos, %crd2), %val
     : (tensor<2xindex>, tensor<3x2xindex>), tensor<3xf64> to tensor<2x4xf64, #COO>
  sparse_tensor.print %b : tensor<2x4xf64, #COO>
  return
}
