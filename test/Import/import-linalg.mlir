// RUN: sa-opt %s --sparse-array-import-sparse-tensor --split-input-file | FileCheck %s
//
// sparse-array-import-sparse-tensor: encodings become formats, named ops
// generalize into kernels whose index variables are the output's first,
// regions become applications of functions with exact properties, and
// reductions fold with the output's operation.

#CSR = #sparse_tensor.encoding<{ map = (d0, d1) -> (d0 : dense, d1 : compressed) }>
// CHECK: #[[$CSR:.*]] = #sparse_array.format<[dense, compressed], fill = 0.0 : f64>
// CHECK-LABEL: func.func @spmv(
// CHECK-SAME: %[[A:.*]]: !sparse_array.array<?x?xf64, #[[$CSR]]>, %[[X:.*]]: !sparse_array.array<?xf64>, %{{.*}}: index) -> !sparse_array.array<?xf64>
// CHECK: sparse_array.kernel ins(%[[A]], %[[X]] :
// CHECK-NEXT: ^bb0(%[[I:.*]]: index, %[[J:.*]]: index, %[[PA:.*]]: !sparse_array.array<?x?xf64, {{.*}}>, %[[PX:.*]]: !sparse_array.array<?xf64>):
// CHECK: %[[Z:.*]] = arith.constant 0.000000e+00 : f64
// CHECK: %[[AIJ:.*]] = sparse_array.access %[[PA]][%[[I]], %[[J]]]
// CHECK: %[[XJ:.*]] = sparse_array.access %[[PX]][%[[J]]]
// CHECK: %[[P:.*]] = sparse_array.apply @__sa_import_arith_mulf_f64(%[[AIJ]], %[[XJ]])
// CHECK: %[[S:.*]] = sparse_array.reduce_over [%[[J]]] %[[P]] with @__sa_import_arith_addf_f64 : f64
// The +0.0 the output starts from is added last (exact for addf):
// CHECK: %[[R:.*]] = sparse_array.apply @__sa_import_arith_addf_f64(%[[Z]], %[[S]])
// CHECK: sparse_array.yield %[[R]] : f64
// CHECK-NOT: linalg.
// CHECK-DAG: sparse_array.func private @__sa_import_arith_mulf_f64(%{{.*}}: f64, %{{.*}}: f64) -> f64 attributes {commutative, identity = #sparse_array.identity<1.0 : f64>}
// CHECK-DAG: sparse_array.func private @__sa_import_arith_addf_f64(%{{.*}}: f64, %{{.*}}: f64) -> f64 attributes {commutative, identity = #sparse_array.identity<-0.0 : f64>}
func.func @spmv(%A: tensor<?x?xf64, #CSR>, %x: tensor<?xf64>, %n: index) -> tensor<?xf64> {
  %z = arith.constant 0.0 : f64
  %e = tensor.empty(%n) : tensor<?xf64>
  %y = linalg.fill ins(%z : f64) outs(%e : tensor<?xf64>) -> tensor<?xf64>
  %r = linalg.matvec ins(%A, %x : tensor<?x?xf64, #CSR>, tensor<?xf64>) outs(%y : tensor<?xf64>) -> tensor<?xf64>
  return %r : tensor<?xf64>
}

// -----

// A permuted (CSC), 32-bit COO and a singleton level; a transposed output
// map orders the kernel's variables as the output's dimensions.
#CSC = #sparse_tensor.encoding<{ map = (d0, d1) -> (d1 : dense, d0 : compressed) }>
#COO = #sparse_tensor.encoding<{ map = (d0, d1) -> (d0 : compressed(nonunique), d1 : singleton), posWidth = 32, crdWidth = 32 }>
// CHECK-DAG: #[[$COO:.*]] = #sparse_array.format<[compressed(nonunique), singleton], pos_width = 32, crd_width = 32, fill = 0 : i64>
// CHECK-DAG: #[[$CSC:.*]] = #sparse_array.format<[dense, compressed], order = [1, 0], fill = 0 : i64>
// CHECK-LABEL: func.func @transpose_add(
// CHECK-SAME: !sparse_array.array<3x4xi64, #[[$CSC]]>, %{{.*}}: !sparse_array.array<4x3xi64, #[[$COO]]>
// CHECK: ^bb0(%[[J:.*]]: index, %[[I:.*]]: index, %[[A:.*]]: !sparse_array{{.*}}, %[[B:.*]]: !sparse_array{{.*}}):
// CHECK: sparse_array.access %[[A]][%[[I]], %[[J]]]
// CHECK: sparse_array.access %[[B]][%[[J]], %[[I]]]
// CHECK: sparse_array.apply @__sa_import_arith_addi_i64
// CHECK: sparse_array.func private @__sa_import_arith_addi_i64(%{{.*}}: i64, %{{.*}}: i64) -> i64 attributes {associative, commutative, identity = #sparse_array.identity<0 : i64>}
#tr = {
  indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (j, i)>, affine_map<(i, j) -> (j, i)>],
  iterator_types = ["parallel", "parallel"]
}
func.func @transpose_add(%a: tensor<3x4xi64, #CSC>, %b: tensor<4x3xi64, #COO>) -> tensor<4x3xi64> {
  %e = tensor.empty() : tensor<4x3xi64>
  %r = linalg.generic #tr ins(%a, %b : tensor<3x4xi64, #CSC>, tensor<4x3xi64, #COO>) outs(%e : tensor<4x3xi64>) {
  ^bb0(%x: i64, %y: i64, %o: i64):
    %s = arith.addi %x, %y : i64
    linalg.yield %s : i64
  } -> tensor<4x3xi64>
  return %r : tensor<4x3xi64>
}

// -----

// A broadcast (constant 0 in a map), a captured constant, math, a region
// reading the initialized output, and max with its identity as initial
// value (nothing to combine).
#DCSR = #sparse_tensor.encoding<{ map = (d0, d1) -> (d0 : compressed, d1 : compressed) }>
// CHECK-LABEL: func.func @broadcast_out(
// CHECK: ^bb0(%[[I:.*]]: index, %[[J:.*]]: index, %[[A:.*]]: !sparse_array.array<1x4xf32>, %[[B:.*]]: !sparse_array.array<3x4xf32>):
// CHECK: %[[OUT:.*]] = sparse_array.access %[[B]][%[[I]], %[[J]]]
// CHECK: %[[C0:.*]] = arith.constant 0 : index
// CHECK: %[[AJ:.*]] = sparse_array.access %[[A]][%[[C0]], %[[J]]]
// CHECK: %[[K:.*]] = arith.constant 2.500000e+00 : f32
// CHECK: %[[M:.*]] = sparse_array.apply @__sa_import_arith_mulf_f32(%[[AJ]], %[[K]])
// CHECK: %[[V:.*]] = sparse_array.apply @__sa_import_math_absf_f32(%[[M]])
// CHECK: sparse_array.apply @__sa_import_arith_maximumf_f32(%[[V]], %[[OUT]])
#bc = {
  indexing_maps = [affine_map<(i, j) -> (0, j)>, affine_map<(i, j) -> (i, j)>],
  iterator_types = ["parallel", "parallel"]
}
func.func @broadcast_out(%a: tensor<1x4xf32>, %b: tensor<3x4xf32>) -> tensor<3x4xf32> {
  %k = arith.constant 2.5 : f32
  %r = linalg.generic #bc ins(%a : tensor<1x4xf32>) outs(%b : tensor<3x4xf32>) {
  ^bb0(%x: f32, %o: f32):
    %m = arith.mulf %x, %k : f32
    %v = math.absf %m : f32
    %s = arith.maximumf %v, %o : f32
    linalg.yield %s : f32
  } -> tensor<3x4xf32>
  return %r : tensor<3x4xf32>
}
// CHECK-LABEL: func.func @colmax(
// CHECK: %[[M:.*]] = sparse_array.reduce_over [%{{.*}}] %{{.*}} with @__sa_import_arith_maximumf_f32 : f32
// CHECK-NEXT: sparse_array.yield %[[M]] : f32
// CHECK: sparse_array.func private @__sa_import_math_absf_f32(%{{.*}}: f32) -> f32 {
// CHECK: sparse_array.func private @__sa_import_arith_maximumf_f32({{.*}}) -> f32 attributes {associative, commutative, idempotent, identity = #sparse_array.identity<-inf : f32>}
func.func @colmax(%a: tensor<8x4xf32, #DCSR>) -> tensor<4xf32> {
  %ninf = arith.constant 0xFF800000 : f32
  %e = tensor.empty() : tensor<4xf32>
  %y = linalg.fill ins(%ninf : f32) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  %r = linalg.reduce ins(%a : tensor<8x4xf32, #DCSR>) outs(%y : tensor<4xf32>) dimensions = [0]
    (%in: f32, %acc: f32) {
      %s = arith.maximumf %in, %acc : f32
      linalg.yield %s : f32
    }
  return %r : tensor<4xf32>
}

// -----

// sparse_tensor.binary / unary: one function per op, branching on its
// operands' bits, with the explicit algebra of its non-empty cases.
#SV = #sparse_tensor.encoding<{ map = (d0) -> (d0 : compressed) }>
#ew2 = { indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>, affine_map<(i) -> (i)>], iterator_types = ["parallel"] }
// CHECK-LABEL: func.func @difference(
// CHECK: %[[V:.*]] = sparse_array.apply @__sa_import_sparse_tensor_binary(%{{.*}}, %{{.*}}) : (f64, f64) -> f64
// CHECK: %[[W:.*]] = sparse_array.apply @__sa_import_sparse_tensor_unary(%[[V]]) : (f64) -> f64
// CHECK: sparse_array.yield %[[W]]
// CHECK: sparse_array.func private @__sa_import_sparse_tensor_binary(%[[X:.*]]: f64, %[[Y:.*]]: f64) -> f64 attributes {algebra = #sparse_array.algebra<intersect(0, complement(1)), fills = [0.0 : f64, 0.0 : f64]>}
// CHECK: %[[BX:.*]] = arith.bitcast %[[X]] : f64 to i64
// CHECK: %[[PX:.*]] = arith.cmpi ne, %[[BX]]
// CHECK: %[[BY:.*]] = arith.bitcast %[[Y]] : f64 to i64
// CHECK: %[[PY:.*]] = arith.cmpi ne, %[[BY]]
// CHECK: scf.if %[[PX]]
// CHECK: scf.if %[[PY]]
// CHECK: arith.constant 0.000000e+00
// CHECK: } else {
// CHECK-NEXT: scf.yield %[[X]] : f64
// CHECK: sparse_array.func private @__sa_import_sparse_tensor_unary(%{{.*}}: f64) -> f64 attributes {algebra = #sparse_array.algebra<0, fills = [0.0 : f64]>}
// CHECK: arith.negf
// CHECK: arith.constant 4.200000e+01 : f64
func.func @difference(%a: tensor<10xf64, #SV>, %b: tensor<10xf64, #SV>) -> tensor<10xf64> {
  %e = tensor.empty() : tensor<10xf64>
  %r = linalg.generic #ew2 ins(%a, %b : tensor<10xf64, #SV>, tensor<10xf64, #SV>) outs(%e : tensor<10xf64>) {
  ^bb0(%x: f64, %y: f64, %o: f64):
    %v = sparse_tensor.binary %x, %y : f64, f64 to f64
      overlap = {}
      left = identity
      right = {}
    %w = sparse_tensor.unary %v : f64 to f64
      present = {
      ^bb0(%p: f64):
        %n = arith.negf %p : f64
        sparse_tensor.yield %n : f64
      }
      absent = {
        %c = arith.constant 42.0 : f64
        sparse_tensor.yield %c : f64
      }
    linalg.yield %w : f64
  } -> tensor<10xf64>
  return %r : tensor<10xf64>
}

// -----

// Regressions found by import_fuzz.py: the function of an operation is one
// argument per operand position (x - x used to apply its last operand
// twice, so c - x computed x - x), and a loop no read value depends on
// (the sum of a constant) gets its extent from an input read tied to the
// value by keep_first.
// CHECK-LABEL: func.func @repeated_operand(
// CHECK: sparse_array.apply @__sa_import_arith_subf_f64(%[[X:.*]], %[[X]])
// CHECK: sparse_array.apply @__sa_import_arith_subf_f64(%{{.*}}, %[[X]])
// CHECK-LABEL: func.func @sum_of_constant(
// CHECK: %[[C:.*]] = arith.constant 2.500000e+00 : f64
// CHECK: %[[A:.*]] = sparse_array.access
// CHECK: %[[K:.*]] = sparse_array.apply @__sa_import_keep_first(%[[C]], %[[A]])
// CHECK: sparse_array.reduce_over [%{{.*}}] %[[K]]
// CHECK: sparse_array.func private @__sa_import_arith_subf_f64(%[[P:.*]]: f64, %[[Q:.*]]: f64) -> f64
// CHECK-NEXT: arith.subf %[[P]], %[[Q]] : f64
// CHECK: sparse_array.func private @__sa_import_keep_first(%[[F:.*]]: f64, %{{.*}}: f64) -> f64 {
// CHECK-NEXT: yield %[[F]] : f64
#SV = #sparse_tensor.encoding<{ map = (d0) -> (d0 : compressed) }>
#CSR = #sparse_tensor.encoding<{ map = (d0, d1) -> (d0 : dense, d1 : compressed) }>
#ew = { indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>], iterator_types = ["parallel"] }
#rows = { indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i)>], iterator_types = ["parallel", "reduction"] }
func.func @repeated_operand(%a: tensor<8xf64, #SV>) -> tensor<8xf64> {
  %e = tensor.empty() : tensor<8xf64>
  %r = linalg.generic #ew ins(%a : tensor<8xf64, #SV>) outs(%e : tensor<8xf64>) {
  ^bb0(%x: f64, %o: f64):
    %z = arith.subf %x, %x : f64
    %c = arith.constant 0.25 : f64
    %d = arith.subf %c, %x : f64
    %s = arith.addf %z, %d : f64
    linalg.yield %s : f64
  } -> tensor<8xf64>
  return %r : tensor<8xf64>
}
func.func @sum_of_constant(%a: tensor<4x5xf64, #CSR>) -> tensor<4xf64> {
  %z = arith.constant 0.0 : f64
  %e = tensor.empty() : tensor<4xf64>
  %y = linalg.fill ins(%z : f64) outs(%e : tensor<4xf64>) -> tensor<4xf64>
  %r = linalg.generic #rows ins(%a : tensor<4x5xf64, #CSR>) outs(%y : tensor<4xf64>) {
  ^bb0(%x: f64, %o: f64):
    %c = arith.constant 2.5 : f64
    %s = arith.addf %o, %c : f64
    linalg.yield %s : f64
  } -> tensor<4xf64>
  return %r : tensor<4xf64>
}
