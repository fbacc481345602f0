// REQUIRES: x86_64
// RUN: sa-run %s | FileCheck %s
// RUN: sa-opt %s --sparse-array-fuse --sparse-array-derive-algebra --mlir-print-local-scope | FileCheck %s --check-prefix=FILL
// The sign of the NaN an invalid operation returns (0 * inf) is visible
// through copysign. The generated code gets x86's default NaN, which is
// negative; the compile-time evaluator used APFloat's positive one, so the
// inferred fill of copysign(-1, x * 0) over fill inf was 1 where the dense
// program gives -1. Expected values from NumPy:
//   x = [inf, 2, inf, inf]; np.copysign(-1.0, x * 0.0) -> [-1, 1, -1, -1]
//   np.copysign(np.float32(-1), x.astype(np.float32) * np.float32(0))
//     -> [-1, 1, -1, -1]

sparse_array.func @sign_of_zero_product(%x: f64) -> f64 {
  %z = arith.constant 0.0 : f64
  %m = arith.constant -1.0 : f64
  %p = arith.mulf %x, %z : f64
  %r = math.copysign %m, %p : f64
  sparse_array.yield %r : f64
}
sparse_array.func @sign_of_zero_product_f32(%x: f32) -> f32 {
  %z = arith.constant 0.0 : f32
  %m = arith.constant -1.0 : f32
  %p = arith.mulf %x, %z : f32
  %r = math.copysign %m, %p : f32
  sparse_array.yield %r : f32
}

!v = !sparse_array.array<4xf64, #sparse_array.format<[compressed], fill = inf : f64>>
!r = !sparse_array.array<4xf64, #sparse_array.format<[compressed]>>
!d = !sparse_array.array<4xf64>
!v32 = !sparse_array.array<4xf32, #sparse_array.format<[compressed], fill = inf : f32>>
!r32 = !sparse_array.array<4xf32, #sparse_array.format<[compressed]>>

// FILL-LABEL: func.func @main
// FILL: sparse_array.kernel ins({{.*}}fill = inf : f64>>) -> !sparse_array.array<4xf64, #sparse_array.format<[compressed], fill = -1.0 : f64>>
// FILL: sparse_array.kernel ins({{.*}}fill = inf : f32>>) -> !sparse_array.array<4xf32, #sparse_array.format<[compressed], fill = -1.0 : f32>>
func.func @main() {
  %a = sparse_array.constant sparse<[[1]], [2.0]> : tensor<4xf64> : !v
  %q = sparse_array.map @sign_of_zero_product(%a) {infer_fill} : (!v) -> !r
  // CHECK:      # fill: -1
  // CHECK-NEXT: 1 1
  // CHECK-NEXT: 4
  // CHECK-NEXT: 2 1
  sparse_array.print %q : !r
  %qd = sparse_array.map @sign_of_zero_product(%a) : (!v) -> !d
  // CHECK:      # fill: 0
  // CHECK-NEXT: 1 4
  // CHECK-NEXT: 4
  // CHECK-NEXT: 1 -1
  // CHECK-NEXT: 2 1
  // CHECK-NEXT: 3 -1
  // CHECK-NEXT: 4 -1
  sparse_array.print %qd : !d
  %a32 = sparse_array.constant sparse<[[1]], [2.0]> : tensor<4xf32> : !v32
  %q32 = sparse_array.map @sign_of_zero_product_f32(%a32) {infer_fill} : (!v32) -> !r32
  // CHECK:      # fill: -1
  // CHECK-NEXT: 1 1
  // CHECK-NEXT: 4
  // CHECK-NEXT: 2 1
  // CHECK-EMPTY:
  sparse_array.print %q32 : !r32
  sparse_array.dealloc %q : !r
  sparse_array.dealloc %qd : !d
  sparse_array.dealloc %q32 : !r32
  return
}
