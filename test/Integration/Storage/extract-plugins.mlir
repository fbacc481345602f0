// RUN: sa-run %s | FileCheck %s
// RUN: sa-opt %s --sparse-array-legalize-formats | FileCheck %s --check-prefix=PLAN
// sparse_array.extract reads a point of a level format plugin's array
// through its level iterators (DIA, ELL, loose, loose outermost), at run-time
// coordinates, without converting the array: every point of
//   [[6, 7, 0, 0, 0, 0], [8, 0, 1, 0, 0, 0], [0, 7, -0.0, 4, 0, 0],
//    [0, 0, 0, 5, 3, 0], [0, 0, 0, 0, 0, 6]]   (fill 0; -0.0 stored)
// PLAN-LABEL: func.func @points(
// PLAN-NOT: sparse_array.convert
// PLAN: return

!c = !sparse_array.array<5x6xf64, #sparse_array.format<[dense, compressed]>>
!dia = !sparse_array.array<5x6xf64, #sparse_array.format<[dense, diagonal]>>
!ell = !sparse_array.array<5x6xf64, #sparse_array.format<[dense, ellpack]>>
!loose = !sparse_array.array<5x6xf64, #sparse_array.format<[dense, loose_compressed]>>
!top = !sparse_array.array<5x6xf64, #sparse_array.format<[loose_compressed, dense]>>

// CHECK:      6666
// CHECK-NEXT: 7777
// CHECK-NEXT: 0000
// CHECK-NEXT: 0000
// CHECK-NEXT: 0000
// CHECK-NEXT: 0000
// CHECK-NEXT: 8888
// CHECK-NEXT: 0000
// CHECK-NEXT: 1111
// CHECK-NEXT: 0000
// CHECK-NEXT: 0000
// CHECK-NEXT: 0000
// CHECK-NEXT: 0000
// CHECK-NEXT: 7777
// CHECK-NEXT: -0-0-0-0
// CHECK-NEXT: 4444
// CHECK-NEXT: 0000
// CHECK-NEXT: 0000
// CHECK-NEXT: 0000
// CHECK-NEXT: 0000
// CHECK-NEXT: 0000
// CHECK-NEXT: 5555
// CHECK-NEXT: 3333
// CHECK-NEXT: 0000
// CHECK-NEXT: 0000
// CHECK-NEXT: 0000
// CHECK-NEXT: 0000
// CHECK-NEXT: 0000
// CHECK-NEXT: 0000
// CHECK-NEXT: 6666

func.func private @sa_rt_print_f64(f64)
func.func private @sa_rt_print_newline()

func.func @points(%d: !dia, %e: !ell, %l: !loose, %t: !top) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c5 = arith.constant 5 : index
  %c6 = arith.constant 6 : index
  scf.for %i = %c0 to %c5 step %c1 {
    scf.for %j = %c0 to %c6 step %c1 {
      %a = sparse_array.extract %d[%i, %j] : !dia
      %b = sparse_array.extract %e[%i, %j] : !ell
      %x = sparse_array.extract %l[%i, %j] : !loose
      %y = sparse_array.extract %t[%i, %j] : !top
      func.call @sa_rt_print_f64(%a) : (f64) -> ()
      func.call @sa_rt_print_f64(%b) : (f64) -> ()
      func.call @sa_rt_print_f64(%x) : (f64) -> ()
      func.call @sa_rt_print_f64(%y) : (f64) -> ()
      func.call @sa_rt_print_newline() : () -> ()
    }
  }
  return
}

func.func @main() {
  %c = sparse_array.constant dense<[[6.0, 7.0, 0.0, 0.0, 0.0, 0.0], [8.0, 0.0, 1.0, 0.0, 0.0, 0.0], [0.0, 7.0, -0.0, 4.0, 0.0, 0.0], [0.0, 0.0, 0.0, 5.0, 3.0, 0.0], [0.0, 0.0, 0.0, 0.0, 0.0, 6.0]]> : tensor<5x6xf64> : !c
  %d = sparse_array.convert %c : !c to !dia
  %e = sparse_array.convert %c : !c to !ell
  %l = sparse_array.convert %c : !c to !loose
  %t = sparse_array.convert %c : !c to !top
  call @points(%d, %e, %l, %t) : (!dia, !ell, !loose, !top) -> ()
  return
}
