// RUN: echo '%%%%MatrixMarket matrix coordinate real general' > %t.rows0.mtx
// RUN: echo '0 3 0' >> %t.rows0.mtx
// RUN: echo '%%%%MatrixMarket matrix coordinate real general' > %t.cols0.mtx
// RUN: echo '3 0 0' >> %t.cols0.mtx
// RUN: sa-run %s -- %t.rows0.mtx | FileCheck %s --check-prefix=ROWS0
// RUN: sa-run %s -- %t.cols0.mtx | FileCheck %s --check-prefix=COLS0
// Column sums (scatter reductions, signed_zero_sum) of 0-extent matrices
// read at run time: no rows gives each column the empty sum, add_f64's
// identity -0.0 (the reductions' definition: an empty range is the
// combiner's identity); no columns gives an empty result.
sparse_array.func @add_f64(%x: f64, %y: f64) -> f64
    attributes {commutative, identity = #sparse_array.identity<-0.0 : f64>} {
  %r = arith.addf %x, %y : f64
  sparse_array.yield %r : f64
}
!csr = !sparse_array.array<?x?xf64, #sparse_array.format<[dense, compressed]>>
!d = !sparse_array.array<?xf64>
!v = !sparse_array.array<?xf64, #sparse_array.format<[compressed]>>
func.func @main() {
  %c0 = arith.constant 0 : index
  %a = sparse_array.read input %c0 {file_format = "mtx"} : !csr
  %r = sparse_array.reduce @add_f64 %a dims [0] : !csr -> !d
  sparse_array.print %r : !d
  %s = sparse_array.reduce @add_f64 %a dims [0] : !csr -> !v
  sparse_array.print %s : !v
  return
}
// ROWS0: # fill: 0
// ROWS0-NEXT: 1 3
// ROWS0-NEXT: 3
// ROWS0-NEXT: 1 -0
// ROWS0-NEXT: 2 -0
// ROWS0-NEXT: 3 -0
// ROWS0-NEXT: # fill: 0
// ROWS0-NEXT: 1 3
// ROWS0-NEXT: 3
// ROWS0-NEXT: 1 -0
// COLS0: # fill: 0
// COLS0-NEXT: 1 0
// COLS0-NEXT: 0
// COLS0-NEXT: # fill: 0
// COLS0-NEXT: 1 0
// COLS0-NEXT: 0
