// RUN: not sa-run %s 2>&1 | FileCheck %s
// A coordinate outside its dimension stops the program, naming the extract:
// column 7 of a 2x5 CSR matrix.
// CHECK: sparse_array runtime error: sparse_array.extract at {{.*}}extract-out-of-range.mlir:[[@LINE+12]]:{{[0-9]+}}: coordinate 7 of dimension 2 is outside [0, 5)
// RUN: not sa-run --entry-point=negative %s 2>&1 | FileCheck %s --check-prefix=NEG
// A negative coordinate (NumPy would count from the end; tensor.extract
// leaves it undefined) is an error too.
// NEG: sparse_array runtime error: sparse_array.extract at {{.*}}: coordinate -1 of dimension 1 is outside [0, 2)

!csr = !sparse_array.array<2x5xf64, #sparse_array.format<[dense, compressed]>>

func.func @main() {
  %c0 = arith.constant 0 : index
  %c7 = arith.constant 7 : index
  %a = sparse_array.constant dense<[[1.0, 0.0, 2.0, 0.0, 0.0], [0.0, 0.0, 0.0, 0.0, 3.0]]> : tensor<2x5xf64> : !csr
  %v = sparse_array.extract %a[%c0, %c7] : !csr
  func.call @sa_rt_print_f64(%v) : (f64) -> ()
  return
}

func.func @negative() {
  %m1 = arith.constant -1 : index
  %c0 = arith.constant 0 : index
  %a = sparse_array.constant dense<[[1.0, 0.0, 2.0, 0.0, 0.0], [0.0, 0.0, 0.0, 0.0, 3.0]]> : tensor<2x5xf64> : !csr
  %v = sparse_array.extract %a[%m1, %c0] : !csr
  func.call @sa_rt_print_f64(%v) : (f64) -> ()
  return
}
func.func private @sa_rt_print_f64(f64)
