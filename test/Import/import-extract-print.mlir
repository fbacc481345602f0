// RUN: sa-opt %s --sparse-array-import-sparse-tensor | FileCheck %s
//
// tensor.extract reads one element of the imported array (stored value or
// fill: sparse_array.extract); vector.print of a scalar, a string or
// punctuation becomes the runtime's printers.

#CSR = #sparse_tensor.encoding<{ map = (d0, d1) -> (d0 : dense, d1 : compressed) }>

// CHECK-LABEL: func.func @element(
// CHECK-SAME: %[[A:.*]]: !sparse_array.array<4x5xf64, #{{.*}}>, %[[I:.*]]: index, %[[J:.*]]: index) -> f64
// CHECK: %[[V:.*]] = sparse_array.extract %[[A]][%[[I]], %[[J]]] : !sparse_array.array<4x5xf64,
// CHECK: return %[[V]] : f64
func.func @element(%a: tensor<4x5xf64, #CSR>, %i: index, %j: index) -> f64 {
  %v = tensor.extract %a[%i, %j] : tensor<4x5xf64, #CSR>
  return %v : f64
}

// A rank-0 result of a reduction, printed.
// CHECK-LABEL: func.func @total(
// CHECK: %[[S:.*]] = sparse_array.kernel
// CHECK: %[[V:.*]] = sparse_array.extract %[[S]][] : !sparse_array.array<f64
// CHECK: %[[TEXT:.*]] = llvm.mlir.addressof @{{.*}} : !llvm.ptr
// CHECK: call @sa_rt_print_str(%[[TEXT]])
// CHECK: call @sa_rt_print_f64_g(%[[V]]) : (f64) -> ()
// CHECK: call @sa_rt_print_newline()
// CHECK: %[[W:.*]] = arith.extsi %{{.*}} : i32 to i64
// CHECK: call @sa_rt_print_i64(%[[W]])
// CHECK-NOT: sa_rt_print_newline
// CHECK: %[[COMMA:.*]] = llvm.mlir.addressof @{{.*}} : !llvm.ptr
// CHECK: call @sa_rt_print_str(%[[COMMA]])
// CHECK: %[[B:.*]] = arith.extui %{{.*}} : i1 to i64
// CHECK: call @sa_rt_print_i64(%[[B]])
// CHECK: call @sa_rt_print_newline()
// CHECK-NOT: vector.print
func.func @total(%a: tensor<4x5xf64, #CSR>, %k: i32, %t: i1) {
  %z = arith.constant 0.0 : f64
  %e = tensor.empty() : tensor<f64>
  %y = linalg.fill ins(%z : f64) outs(%e : tensor<f64>) -> tensor<f64>
  %r = linalg.reduce ins(%a : tensor<4x5xf64, #CSR>) outs(%y : tensor<f64>) dimensions = [0, 1]
    (%in: f64, %acc: f64) {
      %s = arith.addf %in, %acc : f64
      linalg.yield %s : f64
    }
  %v = tensor.extract %r[] : tensor<f64>
  vector.print str "sum: "
  vector.print %v : f64
  vector.print %k : i32 punctuation <comma>
  vector.print %t : i1
  return
}

// vector.transfer_read of a sparse tensor: one extract per element, the
// padding where the coordinate lies outside (not in_bounds); gathered by
// vector.from_elements. A vector prints element by element between
// "( " and " )".
// CHECK-LABEL: func.func @read(
// CHECK-SAME: %[[A:.*]]: !sparse_array.array<4x5xf64, #{{.*}}>, %[[I:.*]]: index)
// CHECK: %[[PAD:.*]] = arith.constant -1.0
// CHECK: %[[N0:.*]] = sparse_array.dim %[[A]][0]
// CHECK: %[[N1:.*]] = sparse_array.dim %[[A]][1]
// CHECK: %[[J0:.*]] = arith.addi %[[I]], %{{.*}} : index
// CHECK: %[[E0:.*]] = scf.if
// CHECK: sparse_array.extract %[[A]][%{{.*}}, %[[J0]]]
// CHECK: %[[J1:.*]] = arith.addi %[[I]], %{{.*}} : index
// CHECK: %[[IN:.*]] = arith.cmpi ult, %[[J1]], %[[N1]] : index
// CHECK: %[[E1:.*]] = scf.if %[[IN]] -> (f64) {
// CHECK: %[[X:.*]] = sparse_array.extract %[[A]][%{{.*}}, %[[J1]]]
// CHECK: scf.yield %[[X]] : f64
// CHECK: } else {
// CHECK: scf.yield %[[PAD]] : f64
// CHECK: %[[V:.*]] = vector.from_elements %[[E0]], %[[E1]] : vector<2xf64>
// CHECK: call @sa_rt_print_str(
// CHECK: %[[F:.*]] = vector.extract %[[V]][0] : f64 from vector<2xf64>
// CHECK: call @sa_rt_print_f64_g(%[[F]])
// CHECK: call @sa_rt_print_str(
// CHECK: %[[S:.*]] = vector.extract %[[V]][1] : f64 from vector<2xf64>
// CHECK: call @sa_rt_print_f64_g(%[[S]])
// CHECK: call @sa_rt_print_str(
// CHECK: call @sa_rt_print_newline()
func.func @read(%a: tensor<4x5xf64, #CSR>, %i: index) {
  %c1 = arith.constant 1 : index
  %pad = arith.constant -1.0 : f64
  %v = vector.transfer_read %a[%c1, %i], %pad : tensor<4x5xf64, #CSR>, vector<2xf64>
  vector.print %v : vector<2xf64>
  return
}

// tensor.from_elements: a dense array over a buffer of the scalars in
// row-major order (index scalars stored as i64).
// CHECK-LABEL: func.func @elements(
// CHECK-SAME: %[[A:.*]]: index, %[[B:.*]]: index) -> !sparse_array.array<1x2xi64>
// CHECK: %[[BUF:.*]] = memref.alloc(%{{.*}}) : memref<?xi64>
// CHECK: %[[A64:.*]] = arith.index_cast %[[A]] : index to i64
// CHECK: memref.store %[[A64]], %[[BUF]][%{{.*}}]
// CHECK: %[[B64:.*]] = arith.index_cast %[[B]] : index to i64
// CHECK: memref.store %[[B64]], %[[BUF]][%{{.*}}]
// CHECK: %[[R:.*]] = sparse_array.assemble(%[[BUF]]), (%{{.*}}, %{{.*}}) : memref<?xi64> -> !sparse_array.array<1x2xi64>
// CHECK: return %[[R]]
func.func @elements(%a: index, %b: index) -> tensor<1x2xindex> {
  %t = tensor.from_elements %a, %b : tensor<1x2xindex>
  return %t : tensor<1x2xindex>
}
