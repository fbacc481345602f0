// RUN: sa-opt %s --mlir-print-local-scope | sa-opt --mlir-print-local-scope | FileCheck %s
// RUN: sa-opt %s --verify-roundtrip > /dev/null
// Storage, I/O and conversion ops.

!csr = !sparse_array.array<?x?xf64, #sparse_array.format<[dense, compressed]>>
!csc = !sparse_array.array<?x?xf64, #sparse_array.format<[dense, compressed], order = [1, 0]>>
!coo = !sparse_array.array<?x?xf64, #sparse_array.format<[compressed(nonunique), singleton], pos_width = 32, crd_width = 32>>
!inf = !sparse_array.array<?x?xf64, #sparse_array.format<[dense, compressed], fill = inf : f64>>

// CHECK-LABEL: func.func @io(
// CHECK: %[[A:.*]] = sparse_array.read input %{{.*}} : !sparse_array.array<?x?xf64, #sparse_array.format<[dense, compressed], fill = 0.0 : f64>>
// CHECK: sparse_array.read path "m.tns" {file_format = "tns"} : !sparse_array.array<?x?xf64,
// CHECK: sparse_array.read file %{{.*}} : !llvm.ptr : !sparse_array.array<?x?xf64,
// CHECK: sparse_array.print %[[A]] : !sparse_array.array<?x?xf64,
// CHECK: sparse_array.validate %[[A]], "input" : !sparse_array.array<?x?xf64,
// CHECK: sparse_array.write %[[A]] to input %{{.*}} : !sparse_array.array<?x?xf64,
// CHECK: sparse_array.write %[[A]] to path "out.mtx" : !sparse_array.array<?x?xf64,
func.func @io(%k: index, %f: !llvm.ptr) {
  %a = sparse_array.read input %k : !csr
  %b = sparse_array.read path "m.tns" {file_format = "tns"} : !csr
  %c = sparse_array.read file %f : !llvm.ptr : !csr
  sparse_array.print %a : !csr
  sparse_array.validate %a, "input" : !csr
  sparse_array.write %a to input %k : !csr
  sparse_array.write %a to path "out.mtx" : !csr
  return
}

// CHECK-LABEL: func.func @conversions(
// CHECK: sparse_array.convert %{{.*}} : !sparse_array.array<?x?xf64, #sparse_array.format<[dense, compressed], fill = 0.0 : f64>> to !sparse_array.array<?x?xf64, #sparse_array.format<[dense, compressed], order = [1, 0], fill = 0.0 : f64>>
// CHECK: sparse_array.convert %{{.*}} to !sparse_array.array<?x?xf64, #sparse_array.format<[compressed(nonunique), singleton], pos_width = 32, crd_width = 32, fill = 0.0 : f64>>
// CHECK: sparse_array.change_fill %{{.*}} to !sparse_array.array<?x?xf64, #sparse_array.format<[dense, compressed], fill = inf : f64>>
// CHECK: sparse_array.dim %{{.*}}[1] : !sparse_array.array<?x?xf64,
func.func @conversions(%a: !csr) -> (!csc, !coo, !inf, index) {
  %b = sparse_array.convert %a : !csr to !csc
  %c = sparse_array.convert %b : !csc to !coo
  %d = sparse_array.change_fill %a : !csr to !inf
  %n = sparse_array.dim %a[1] : !csr
  return %b, %c, %d, %n : !csc, !coo, !inf, index
}

// CHECK-LABEL: func.func @constants_and_buffers(
// CHECK: sparse_array.constant dense<{{\[}}[1.000000e+00, 0.000000e+00], [0.000000e+00, 2.000000e+00]]> : tensor<2x2xf64> : !sparse_array.array<2x2xf64,
// CHECK: sparse_array.constant sparse<{{\[}}[0, 1]], 5> : tensor<2x3xi32> : !sparse_array.array<2x3xi32>
// CHECK: sparse_array.positions %{{.*}}[1] : !sparse_array.array<?x?xf64, {{.*}}> -> memref<?xi64>
// CHECK: sparse_array.coordinates %{{.*}}[1] : !sparse_array.array<?x?xf64, {{.*}}> -> memref<?xi64>
// CHECK: sparse_array.values %{{.*}} : !sparse_array.array<?x?xf64, {{.*}}> -> memref<?xf64>
func.func @constants_and_buffers(%a: !csr) -> (memref<?xi64>, memref<?xi64>, memref<?xf64>) {
  %c = sparse_array.constant dense<[[1.0, 0.0], [0.0, 2.0]]> : tensor<2x2xf64> : !sparse_array.array<2x2xf64, #sparse_array.format<[dense, compressed]>>
  %s = sparse_array.constant sparse<[[0, 1]], [5]> : tensor<2x3xi32> : !sparse_array.array<2x3xi32>
  %p = sparse_array.positions %a[1] : !csr -> memref<?xi64>
  %q = sparse_array.coordinates %a[1] : !csr -> memref<?xi64>
  %v = sparse_array.values %a : !csr -> memref<?xf64>
  return %p, %q, %v : memref<?xi64>, memref<?xi64>, memref<?xf64>
}

// A level format's own buffer, by role (a diagonal level's offsets).
// CHECK-LABEL: func.func @level_buffer(
// CHECK: sparse_array.level_buffer %{{.*}}[1] "offsets" : !sparse_array.array<?x?xf64, {{.*}}> -> memref<?xi32>
func.func @level_buffer(%a: !sparse_array.array<?x?xf64, #sparse_array.format<[dense, diagonal], crd_width = 32>>) -> memref<?xi32> {
  %o = sparse_array.level_buffer %a[1] "offsets" : !sparse_array.array<?x?xf64, #sparse_array.format<[dense, diagonal], crd_width = 32>> -> memref<?xi32>
  return %o : memref<?xi32>
}

// A loose_compressed level's bounds, (lo, hi) per parent position; below
// it when non-unique, a singleton (upstream's BCOO).
// CHECK-LABEL: func.func @loose_bounds(
// CHECK: sparse_array.level_buffer %{{.*}}[1] "bounds" : !sparse_array.array<?x?x?xf64, #sparse_array.format<[dense, loose_compressed(nonunique), singleton], pos_width = 32, fill = 0.0 : f64>> -> memref<?xi32>
func.func @loose_bounds(%a: !sparse_array.array<?x?x?xf64, #sparse_array.format<[dense, loose_compressed(nonunique), singleton], pos_width = 32>>) -> memref<?xi32> {
  %o = sparse_array.level_buffer %a[1] "bounds" : !sparse_array.array<?x?x?xf64, #sparse_array.format<[dense, loose_compressed(nonunique), singleton], pos_width = 32>> -> memref<?xi32>
  return %o : memref<?xi32>
}

// seed 002's hashed level: unordered without saying so (`hashed` and
// `hashed(nonordered)` are one format, printed `hashed`); its table width.
// CHECK-LABEL: func.func @hash_width(
// CHECK: sparse_array.level_buffer %{{.*}}[1] "width" : !sparse_array.array<?x?xf64, #sparse_array.format<[dense, hashed], fill = 0.0 : f64>> -> memref<?xi64>
func.func @hash_width(%a: !sparse_array.array<?x?xf64, #sparse_array.format<[dense, hashed(nonordered)]>>) -> memref<?xi64> {
  %o = sparse_array.level_buffer %a[1] "width" : !sparse_array.array<?x?xf64, #sparse_array.format<[dense, hashed]>> -> memref<?xi64>
  return %o : memref<?xi64>
}

// N:M structured (upstream's 2:4): the parameters are part of the type;
// the level declares only coordinates.
// CHECK-LABEL: func.func @structured_crd(
// CHECK: sparse_array.level_buffer %{{.*}}[2] "coordinates" : !sparse_array.array<?x8xf64, #sparse_array.format<[dense, dense, structured[2, 4]], order = [0, 1, 1], crd_width = 32, fill = 0.0 : f64, blocks = [1, 4]>> -> memref<?xi32>
func.func @structured_crd(%a: !sparse_array.array<?x8xf64, #sparse_array.format<[dense, dense, structured[2, 4]], order = [0, 1, 1], crd_width = 32, blocks = [1, 4]>>) -> memref<?xi32> {
  %o = sparse_array.level_buffer %a[2] "coordinates" : !sparse_array.array<?x8xf64, #sparse_array.format<[dense, dense, structured[2, 4]], order = [0, 1, 1], crd_width = 32, blocks = [1, 4]>> -> memref<?xi32>
  return %o : memref<?xi32>
}

// CHECK-LABEL: func.func @assemble(
// CHECK: sparse_array.assemble(%{{.*}}, %{{.*}}, %{{.*}}), (%{{.*}}) : memref<?xi64>, memref<?xi64>, memref<?xf64> -> !sparse_array.array<?xf64, #sparse_array.format<[compressed], fill = 0.0 : f64>>
func.func @assemble(%p: memref<?xi64>, %c: memref<?xi64>, %v: memref<?xf64>, %n: index)
    -> !sparse_array.array<?xf64, #sparse_array.format<[compressed]>> {
  %a = sparse_array.assemble (%p, %c, %v), (%n) : memref<?xi64>, memref<?xi64>, memref<?xf64> -> !sparse_array.array<?xf64, #sparse_array.format<[compressed]>>
  return %a : !sparse_array.array<?xf64, #sparse_array.format<[compressed]>>
}

// CHECK-LABEL: func.func @dealloc(
// CHECK: sparse_array.dealloc %{{.*}} : !sparse_array.array<?x?xf64, #sparse_array.format<[dense, compressed], fill = 0.0 : f64>>
func.func @dealloc(%a: !csr) {
  sparse_array.dealloc %a : !csr
  return
}

// CHECK-LABEL: func.func @extract
// CHECK: sparse_array.extract %{{.*}}[%{{.*}}, %{{.*}}] : !sparse_array.array<?x?xf64,
// CHECK: sparse_array.extract %{{.*}}[] : !sparse_array.array<i64>
func.func @extract(%a: !csr, %s: !sparse_array.array<i64>, %i: index, %j: index) -> (f64, i64) {
  %v = sparse_array.extract %a[%i, %j] : !csr
  %w = sparse_array.extract %s[] : !sparse_array.array<i64>
  return %v, %w : f64, i64
}

// The array of a blocked array's levels: blocks and places in them as
// dimensions of their own (static where the source's sizes are).
// CHECK-LABEL: func.func @demap(
// CHECK: sparse_array.demap %{{.*}} : !sparse_array.array<4x?xf64, #sparse_array.format<[dense, compressed, dense, dense], order = [0, 1, 0, 1], fill = 0.0 : f64, blocks = [2, 3]>> -> !sparse_array.array<2x?x2x3xf64, #sparse_array.format<[dense, compressed, dense, dense], fill = 0.0 : f64>>
// CHECK: sparse_array.demap %{{.*}} : !sparse_array.array<?x?xf64, #sparse_array.format<[dense, compressed], order = [1, 0], fill = 0.0 : f64>> -> !sparse_array.array<?x?xf64, #sparse_array.format<[dense, compressed], fill = 0.0 : f64>>
func.func @demap(%a: !sparse_array.array<4x?xf64, #sparse_array.format<[dense, compressed, dense, dense], order = [0, 1, 0, 1], blocks = [2, 3]>>, %b: !csc) {
  %l = sparse_array.demap %a : !sparse_array.array<4x?xf64, #sparse_array.format<[dense, compressed, dense, dense], order = [0, 1, 0, 1], blocks = [2, 3]>> -> !sparse_array.array<2x?x2x3xf64, #sparse_array.format<[dense, compressed, dense, dense]>>
  %m = sparse_array.demap %b : !csc -> !csr
  return
}
