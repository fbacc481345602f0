// RUN: sa-run %s | FileCheck %s
// sa-run compiles with sparse-array-pipeline, links the runtime without any
// -shared-libs, and runs @main. Scalars print exactly (round-trip digits,
// inf/-inf/nan spelled out, -0 kept).

func.func private @sa_rt_print_i64(i64)
func.func private @sa_rt_print_f64(f64)
func.func private @sa_rt_print_f32(f32)
func.func private @sa_rt_print_newline()

func.func @main() {
  %zero = arith.constant 0.0 : f64
  %one = arith.constant 1.0 : f64
  %tenth = arith.constant 0.1 : f64
  %third = arith.constant 0.333333333333333314829616256247 : f64
  %inf = arith.divf %one, %zero : f64
  %ninf = arith.negf %inf : f64
  %nan = arith.divf %zero, %zero : f64
  %negzero = arith.negf %zero : f64
  %f = arith.constant 0.1 : f32
  %min = arith.constant -9223372036854775808 : i64
  // CHECK: 0.1
  func.call @sa_rt_print_f64(%tenth) : (f64) -> ()
  func.call @sa_rt_print_newline() : () -> ()
  // CHECK-NEXT: 0.3333333333333333{{$}}
  func.call @sa_rt_print_f64(%third) : (f64) -> ()
  func.call @sa_rt_print_newline() : () -> ()
  // CHECK-NEXT: inf
  func.call @sa_rt_print_f64(%inf) : (f64) -> ()
  func.call @sa_rt_print_newline() : () -> ()
  // CHECK-NEXT: -inf
  func.call @sa_rt_print_f64(%ninf) : (f64) -> ()
  func.call @sa_rt_print_newline() : () -> ()
  // CHECK-NEXT: nan
  func.call @sa_rt_print_f64(%nan) : (f64) -> ()
  func.call @sa_rt_print_newline() : () -> ()
  // CHECK-NEXT: -0
  func.call @sa_rt_print_f64(%negzero) : (f64) -> ()
  func.call @sa_rt_print_newline() : () -> ()
  // CHECK-NEXT: 0.1
  func.call @sa_rt_print_f32(%f) : (f32) -> ()
  func.call @sa_rt_print_newline() : () -> ()
  // CHECK-NEXT: -9223372036854775808
  func.call @sa_rt_print_i64(%min) : (i64) -> ()
  func.call @sa_rt_print_newline() : () -> ()
  return
}
