// RUN: sa-opt %s --sparse-array-expand-float-min-max | FileCheck %s
// Exact float maximum/minimum as compares and selects (no branch on the
// sign); integer and f16 min/max are left alone. The exact results are
// checked by Integration/Reductions/min-max-signed-zeros.mlir and the
// fuzzers (NaN, -0.0 < +0.0).

// CHECK-LABEL: func.func @max_f64(
// CHECK-SAME: %[[X:.*]]: f64, %[[Y:.*]]: f64
// CHECK: %[[GT:.*]] = arith.cmpf ogt, %[[X]], %[[Y]] : f64
// CHECK: %[[R0:.*]] = arith.select %[[GT]], %[[X]], %[[Y]] : f64
// CHECK: %[[XB:.*]] = arith.bitcast %[[X]] : f64 to i64
// CHECK: %[[YB:.*]] = arith.bitcast %[[Y]] : f64 to i64
// CHECK: %[[ZB:.*]] = arith.andi %[[XB]], %[[YB]] : i64
// CHECK: %[[EQ:.*]] = arith.cmpf oeq, %[[X]], %[[Y]] : f64
// CHECK: %[[Z:.*]] = arith.bitcast %[[ZB]] : i64 to f64
// CHECK: %[[R1:.*]] = arith.select %[[EQ]], %[[Z]], %[[R0]] : f64
// CHECK: %[[UNO:.*]] = arith.cmpf uno, %[[X]], %[[Y]] : f64
// CHECK: %[[NAN:.*]] = arith.addf %[[X]], %[[Y]] : f64
// CHECK: %[[R:.*]] = arith.select %[[UNO]], %[[NAN]], %[[R1]] : f64
// CHECK-NOT: arith.maximumf
// CHECK: return %[[R]]
func.func @max_f64(%x: f64, %y: f64) -> f64 {
  %r = arith.maximumf %x, %y : f64
  return %r : f64
}

// CHECK-LABEL: func.func @min_f32_vector(
// CHECK: arith.cmpf olt, %{{.*}}, %{{.*}} : vector<4xf32>
// CHECK: arith.ori %{{.*}}, %{{.*}} : vector<4xi32>
// CHECK: arith.cmpf uno
// CHECK-NOT: arith.minimumf
func.func @min_f32_vector(%x: vector<4xf32>, %y: vector<4xf32>) -> vector<4xf32> {
  %r = arith.minimumf %x, %y : vector<4xf32>
  return %r : vector<4xf32>
}

// CHECK-LABEL: func.func @left_alone(
// CHECK: arith.maximumf %{{.*}}, %{{.*}} : f16
// CHECK: arith.maxsi
func.func @left_alone(%x: f16, %y: f16, %a: i64, %b: i64) -> (f16, i64) {
  %r = arith.maximumf %x, %y : f16
  %s = arith.maxsi %a, %b : i64
  return %r, %s : f16, i64
}
