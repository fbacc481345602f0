// RUN: sa-run %s | FileCheck %s
// RUN: sa-run -O3 %s | FileCheck %s
// Issue 55, class 13: pow with a constant base (the Python package binds a
// scalar operand as a constant: np.power(2.0**53, a)) is the C library's
// pow, bit for bit. LLVM rewrote pow(2^53, x) into exp2(53 * x), whose
// rounded product is up to 87 ulp off, and pow(10, x) into exp10(x).
// Expected: glibc's pow (NumPy's np.power(2.0**53, x), np.power(10.0, x)).

sparse_array.func @pow2_53(%y: f64) -> f64 {
  %c = arith.constant 9007199254740992.0 : f64
  %r = math.powf %c, %y : f64
  sparse_array.yield %r : f64
}
sparse_array.func @pow10(%y: f64) -> f64 {
  %c = arith.constant 10.0 : f64
  %r = math.powf %c, %y : f64
  sparse_array.yield %r : f64
}
!d = !sparse_array.array<4xf64>
func.func @main() {
  // CHECK: 1 1.8156548695221226e-21
  // CHECK-NEXT: 2 94906265.62425156
  // CHECK-NEXT: 3 5.50765465830628e+20
  // CHECK-NEXT: 4 1.195067344928447e+43
  %a = sparse_array.constant dense<[-1.3, 0.5, 1.3, 2.7]> : tensor<4xf64> : !d
  %m = sparse_array.map @pow2_53(%a) : (!d) -> !d
  sparse_array.print %m : !d
  // CHECK: 1 0.05011872336272722
  // CHECK-NEXT: 2 3.1622776601683795
  // CHECK-NEXT: 3 19.952623149688797
  // CHECK-NEXT: 4 501.18723362727246
  %t = sparse_array.map @pow10(%a) : (!d) -> !d
  sparse_array.print %t : !d
  return
}
