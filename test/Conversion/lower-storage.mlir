// RUN: sa-opt %s --sparse-array-lower-storage | FileCheck %s
// Arrays become their buffers (per level: positions, coordinates; then
// values; then one index per dimension) through signatures, calls and
// returns; I/O becomes runtime calls that take or lend the buffers.

!csr = !sparse_array.array<?x4xf64, #sparse_array.format<[dense, compressed], pos_width = 32>>
func.func @read_print(%k: index) -> !csr {
  %a = sparse_array.read input %k : !csr
  sparse_array.print %a : !csr
  sparse_array.validate %a, "read" : !csr
  return %a : !csr
}
func.func @buffers(%a: !csr) -> (memref<?xi32>, memref<?xi64>, memref<?xf64>, index, index) {
  %p = sparse_array.positions %a[1] : !csr -> memref<?xi32>
  %c = sparse_array.coordinates %a[1] : !csr -> memref<?xi64>
  %v = sparse_array.values %a : !csr -> memref<?xf64>
  %n = sparse_array.dim %a[0] : !csr
  %m = sparse_array.dim %a[1] : !csr
  return %p, %c, %v, %n, %m : memref<?xi32>, memref<?xi64>, memref<?xf64>, index, index
}
func.func @call(%a: !csr) -> index {
  %r:5 = call @buffers(%a) : (!csr) -> (memref<?xi32>, memref<?xi64>, memref<?xf64>, index, index)
  return %r#3 : index
}

// CHECK-DAG: func.func private @sa_rt_array_take_buffer_i32(!llvm.ptr, i64) -> memref<?xi32> attributes {llvm.emit_c_interface}
// CHECK-DAG: func.func private @sa_rt_array_set_buffer_f64(!llvm.ptr, i64, memref<?xf64>) attributes {llvm.emit_c_interface}
// CHECK-DAG: llvm.mlir.global internal constant @[[$SPEC:__sa_str_[0-9A-F]+]]("elem=f64;dims=?,4;levels=dense,compressed;order=0,1;pos=32;crd=64;fill=bits:0x0\00")

// CHECK-LABEL: func.func @read_print(
// CHECK-SAME: %[[K:.*]]: index) -> (memref<?xi32>, memref<?xi64>, memref<?xf64>, index, index)
// CHECK: %[[K64:.*]] = arith.index_cast %[[K]] : index to i64
// CHECK: %[[PATH:.*]] = call @sa_rt_input_path(%[[K64]])
// CHECK: %[[SPECP:.*]] = llvm.mlir.addressof @[[$SPEC]]
// CHECK: %[[H:.*]] = call @sa_rt_array_read(%[[PATH]], %[[SPECP]], %{{.*}})
// CHECK: %[[POS:.*]] = call @sa_rt_array_take_buffer_i32(%[[H]], %{{.*}}) : (!llvm.ptr, i64) -> memref<?xi32>
// CHECK: %[[CRD:.*]] = call @sa_rt_array_take_buffer_i64(%[[H]], %{{.*}}) : (!llvm.ptr, i64) -> memref<?xi64>
// CHECK: %[[VAL:.*]] = call @sa_rt_array_take_buffer_f64(%[[H]], %{{.*}}) : (!llvm.ptr, i64) -> memref<?xf64>
// CHECK: %[[D0:.*]] = call @sa_rt_array_dim(%[[H]], %{{.*}})
// CHECK: %[[N0:.*]] = arith.index_cast %[[D0]] : i64 to index
// CHECK: %[[N1:.*]] = arith.constant 4 : index
// CHECK: call @sa_rt_array_free(%[[H]])
// CHECK: %[[L:.*]] = call @sa_rt_array_new(
// CHECK: call @sa_rt_array_set_buffer_i32(%[[L]], %{{.*}}, %[[POS]])
// CHECK: call @sa_rt_array_set_buffer_i64(%[[L]], %{{.*}}, %[[CRD]])
// CHECK: call @sa_rt_array_set_buffer_f64(%[[L]], %{{.*}}, %[[VAL]])
// CHECK: call @sa_rt_array_set_dim(%[[L]]
// CHECK: call @sa_rt_array_set_dim(%[[L]]
// CHECK: call @sa_rt_array_print(%[[L]])
// CHECK: call @sa_rt_array_free(%[[L]])
// CHECK: %[[WHAT:.*]] = llvm.mlir.addressof
// CHECK: %[[L2:.*]] = call @sa_rt_array_new(
// CHECK: call @sa_rt_array_set_buffer_i32(%[[L2]], %{{.*}}, %[[POS]])
// CHECK: call @sa_rt_array_validate(%[[L2]], %[[WHAT]])
// CHECK: call @sa_rt_array_free(%[[L2]])
// CHECK: return %[[POS]], %[[CRD]], %[[VAL]], %[[N0]], %[[N1]]

// CHECK-LABEL: func.func @buffers(
// CHECK-SAME: %[[P:.*]]: memref<?xi32>, %[[C:.*]]: memref<?xi64>, %[[V:.*]]: memref<?xf64>, %[[A:.*]]: index, %[[B:.*]]: index)
// The static size folds to a constant (the dialect's materializer).
// CHECK: %[[C4:.*]] = arith.constant 4 : index
// CHECK: return %[[P]], %[[C]], %[[V]], %[[A]], %[[C4]]

// CHECK-LABEL: func.func @call(
// CHECK: %[[R:.*]]:5 = call @buffers(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}) : (memref<?xi32>, memref<?xi64>, memref<?xf64>, index, index)
// CHECK: return %[[R]]#3
