// RUN: sa-opt %s -split-input-file -verify-diagnostics
// One case per diagnostic of the storage, I/O and conversion ops.

!csr = !sparse_array.array<?x?xf64, #sparse_array.format<[dense, compressed]>>

func.func @read_both(%k: index) {
  // expected-error@+1 {{'sparse_array.read' op needs exactly one of `input %k` and `path "..."`}}
  %a = sparse_array.read input %k path "x.mtx" : !csr
  return
}

// -----

func.func @read_file_and_input(%k: index, %f: !llvm.ptr) {
  // expected-error@+1 {{'sparse_array.read' op needs exactly one of `input %k`, `file %name` and `path "..."`}}
  %a = sparse_array.read input %k file %f : !llvm.ptr : !sparse_array.array<?xf64>
  return
}

// -----

func.func @read_file_not_a_pointer(%f: i64) {
  // expected-error@+1 {{'sparse_array.read' op file must be an !llvm.ptr, not 'i64'}}
  %a = sparse_array.read file %f : i64 : !sparse_array.array<?xf64>
  return
}

// -----

func.func @read_neither() {
  // expected-error@+1 {{'sparse_array.read' op needs exactly one of `input %k` and `path "..."`}}
  %a = sparse_array.read : !sparse_array.array<?xf64>
  return
}

// -----

func.func @read_empty_path() {
  // expected-error@+1 {{'sparse_array.read' op path must not be empty}}
  %a = sparse_array.read path "" : !sparse_array.array<?xf64>
  return
}

// -----

func.func @read_bad_format(%k: index) {
  // expected-error@+1 {{'sparse_array.read' op file_format must be auto, mtx, tns or text, not 'csv'}}
  %a = sparse_array.read input %k {file_format = "csv"} : !sparse_array.array<?xf64>
  return
}

// -----

func.func @write_neither(%a: !sparse_array.array<4xf64>) {
  // expected-error@+1 {{'sparse_array.write' op needs exactly one of `input %k` and `path "..."`}}
  sparse_array.write %a to : !sparse_array.array<4xf64>
  return
}

// -----

func.func @convert_element(%a: !sparse_array.array<4xf64>) {
  // expected-error@+1 {{'sparse_array.convert' op element types differ: 'f64' and 'f32'}}
  %b = sparse_array.convert %a : !sparse_array.array<4xf64> to !sparse_array.array<4xf32>
  return
}

// -----

func.func @convert_rank(%a: !sparse_array.array<4xf64>) {
  // expected-error@+1 {{'sparse_array.convert' op ranks differ: 1 and 2}}
  %b = sparse_array.convert %a : !sparse_array.array<4xf64> to !sparse_array.array<4x1xf64>
  return
}

// -----

func.func @convert_size(%a: !sparse_array.array<4xf64>) {
  // expected-error@+1 {{'sparse_array.convert' op dimension 0 has size 4 in the source but 5 in the result}}
  %b = sparse_array.convert %a : !sparse_array.array<4xf64> to !sparse_array.array<5xf64>
  return
}

// -----

func.func @convert_fill(%a: !sparse_array.array<4xf64>) {
  // expected-error@+1 {{'sparse_array.convert' op fill values differ; use sparse_array.change_fill}}
  %b = sparse_array.convert %a : !sparse_array.array<4xf64> to !sparse_array.array<4xf64, #sparse_array.format<[compressed], fill = -0.0 : f64>>
  return
}

// -----

func.func @change_fill_element(%a: !sparse_array.array<4xf64>) {
  // expected-error@+1 {{'sparse_array.change_fill' op element types differ: 'f64' and 'i64'}}
  %b = sparse_array.change_fill %a : !sparse_array.array<4xf64> to !sparse_array.array<4xi64>
  return
}

// -----

func.func @dim_range(%a: !sparse_array.array<4xf64>) {
  // expected-error@+1 {{'sparse_array.dim' op dimension 1 is out of range for an array of rank 1}}
  %n = sparse_array.dim %a[1] : !sparse_array.array<4xf64>
  return
}

// -----

func.func @dim_negative(%a: !sparse_array.array<4xf64>) {
  // expected-error@+1 {{'sparse_array.dim' op dimension -1 is out of range for an array of rank 1}}
  %n = sparse_array.dim %a[-1] : !sparse_array.array<4xf64>
  return
}

// -----

func.func @extract_coordinates(%a: !sparse_array.array<4x5xf64>, %i: index) {
  // expected-error@+1 {{'sparse_array.extract' op 1 coordinates for an array of rank 2}}
  %v = sparse_array.extract %a[%i] : !sparse_array.array<4x5xf64>
  return
}

// -----

func.func @constant_not_elements() {
  // expected-error@+1 {{'sparse_array.constant' op value must be a dense<...> or sparse<...> attribute}}
  %a = sparse_array.constant dense_resource<blob> : tensor<2xf64> : !sparse_array.array<2xf64>
  return
}

// -----

func.func @constant_dynamic() {
  // expected-error@+1 {{'sparse_array.constant' op result must have a static shape}}
  %a = sparse_array.constant dense<1.0> : tensor<2xf64> : !sparse_array.array<?xf64>
  return
}

// -----

func.func @constant_shape() {
  // expected-error@+1 {{'sparse_array.constant' op value shape does not match the result shape}}
  %a = sparse_array.constant dense<1.0> : tensor<3xf64> : !sparse_array.array<2xf64>
  return
}

// -----

func.func @constant_element() {
  // expected-error@+1 {{'sparse_array.constant' op value element type 'f32' is not the result's 'f64'}}
  %a = sparse_array.constant dense<1.0> : tensor<2xf32> : !sparse_array.array<2xf64>
  return
}

// -----

func.func @constant_sparse_rank0() {
  // expected-error@+1 {{'sparse_array.constant' op a rank-0 constant must be dense<...>}}
  %a = sparse_array.constant sparse<[[]], [1.0]> : tensor<f64> : !sparse_array.array<f64>
  return
}

// -----

func.func @constant_sparse_duplicate() {
  // expected-error@+1 {{'sparse_array.constant' op coordinate (1, 0) is listed twice}}
  %a = sparse_array.constant sparse<[[1, 0], [0, 2], [1, 0]], [1.0, 2.0, 3.0]> : tensor<2x3xf64> : !sparse_array.array<2x3xf64>
  return
}

// -----

func.func @positions_level(%a: !sparse_array.array<?x?xf64, #sparse_array.format<[dense, compressed]>>) {
  // expected-error@+1 {{'sparse_array.positions' op level 2 is out of range for an array with 2 levels}}
  %p = sparse_array.positions %a[2] : !sparse_array.array<?x?xf64, #sparse_array.format<[dense, compressed]>> -> memref<?xi64>
  return
}

// -----

func.func @positions_dense(%a: !sparse_array.array<?x?xf64, #sparse_array.format<[dense, compressed]>>) {
  // expected-error@+1 {{'sparse_array.positions' op level 0 (dense) has no positions buffer}}
  %p = sparse_array.positions %a[0] : !sparse_array.array<?x?xf64, #sparse_array.format<[dense, compressed]>> -> memref<?xi64>
  return
}

// -----

func.func @positions_width(%a: !sparse_array.array<?x?xf64, #sparse_array.format<[dense, compressed], pos_width = 32>>) {
  // expected-error@+1 {{'sparse_array.positions' op result must be 'memref<?xi32>'}}
  %p = sparse_array.positions %a[1] : !sparse_array.array<?x?xf64, #sparse_array.format<[dense, compressed], pos_width = 32>> -> memref<?xi64>
  return
}

// -----

func.func @coordinates_singleton_ok_dense_not(%a: !sparse_array.array<?x?xf64, #sparse_array.format<[dense, compressed]>>) {
  // expected-error@+1 {{'sparse_array.coordinates' op level 0 (dense) has no coordinates buffer}}
  %c = sparse_array.coordinates %a[0] : !sparse_array.array<?x?xf64, #sparse_array.format<[dense, compressed]>> -> memref<?xi64>
  return
}

// -----

func.func @level_buffer_role(%a: !sparse_array.array<?x?xf64, #sparse_array.format<[dense, diagonal]>>) {
  // expected-error@+1 {{'sparse_array.level_buffer' op level 1 (diagonal) has no pos buffer}}
  %o = sparse_array.level_buffer %a[1] "pos" : !sparse_array.array<?x?xf64, #sparse_array.format<[dense, diagonal]>> -> memref<?xi64>
  return
}

// -----

func.func @level_buffer_width(%a: !sparse_array.array<?x?xf64, #sparse_array.format<[dense, diagonal], crd_width = 32>>) {
  // expected-error@+1 {{'sparse_array.level_buffer' op result must be 'memref<?xi32>'}}
  %o = sparse_array.level_buffer %a[1] "offsets" : !sparse_array.array<?x?xf64, #sparse_array.format<[dense, diagonal], crd_width = 32>> -> memref<?xi64>
  return
}

// -----

func.func @values_type(%a: !sparse_array.array<4xf64>) {
  // expected-error@+1 {{'sparse_array.values' op result must be 'memref<?xf64>'}}
  %v = sparse_array.values %a : !sparse_array.array<4xf64> -> memref<4xf64>
  return
}

// -----

func.func @assemble_buffer_count(%v: memref<?xf64>, %n: index) {
  // expected-error@+1 {{'sparse_array.assemble' op expects 3 buffers for this format, got 1}}
  %a = sparse_array.assemble (%v), (%n) : memref<?xf64> -> !sparse_array.array<?xf64, #sparse_array.format<[compressed]>>
  return
}

// -----

func.func @assemble_buffer_type(%p: memref<?xi32>, %c: memref<?xi64>, %v: memref<?xf64>, %n: index) {
  // expected-error@+1 {{'sparse_array.assemble' op buffer 0 must be 'memref<?xi64>'}}
  %a = sparse_array.assemble (%p, %c, %v), (%n) : memref<?xi32>, memref<?xi64>, memref<?xf64> -> !sparse_array.array<?xf64, #sparse_array.format<[compressed]>>
  return
}

// -----

func.func @assemble_dims(%v: memref<?xf64>, %n: index) {
  // expected-error@+1 {{'sparse_array.assemble' op expects 2 dimension sizes, got 1}}
  %a = sparse_array.assemble (%v), (%n) : memref<?xf64> -> !sparse_array.array<?x?xf64>
  return
}

// -----

func.func @dealloc_constant() {
  %c = sparse_array.constant dense<[1.0, 2.0]> : tensor<2xf64> : !sparse_array.array<2xf64>
  // expected-error@+1 {{'sparse_array.dealloc' op cannot free the buffers of a sparse_array.constant (they are global data)}}
  sparse_array.dealloc %c : !sparse_array.array<2xf64>
  return
}

// -----

func.func @double_dealloc(%a: !sparse_array.array<?xf64, #sparse_array.format<[compressed]>>) {
  // expected-note@+1 {{freed here}}
  sparse_array.dealloc %a : !sparse_array.array<?xf64, #sparse_array.format<[compressed]>>
  // expected-error@+1 {{'sparse_array.dealloc' op frees an array a sparse_array.dealloc freed already (a double free)}}
  sparse_array.dealloc %a : !sparse_array.array<?xf64, #sparse_array.format<[compressed]>>
  return
}

// -----

func.func @use_after_dealloc(%a: !sparse_array.array<?xf64, #sparse_array.format<[compressed]>>) {
  // expected-note@+1 {{freed here}}
  sparse_array.dealloc %a : !sparse_array.array<?xf64, #sparse_array.format<[compressed]>>
  scf.execute_region {
    // expected-error@+1 {{'sparse_array.print' op uses an array after its sparse_array.dealloc freed its buffers}}
    sparse_array.print %a : !sparse_array.array<?xf64, #sparse_array.format<[compressed]>>
    scf.yield
  }
  return
}

// -----

// Frees in the two branches of an scf.if are not ordered: no diagnostic.
func.func @dealloc_in_branches(%a: !sparse_array.array<?xf64, #sparse_array.format<[compressed]>>, %c: i1) {
  scf.if %c {
    sparse_array.dealloc %a : !sparse_array.array<?xf64, #sparse_array.format<[compressed]>>
  } else {
    sparse_array.print %a : !sparse_array.array<?xf64, #sparse_array.format<[compressed]>>
    sparse_array.dealloc %a : !sparse_array.array<?xf64, #sparse_array.format<[compressed]>>
  }
  return
}

// -----

// expected-error@+2 {{'sparse_array.demap' op result must be the array of the source's levels, '!sparse_array.array<2x3x2x2xf64, #sparse_array.format<[dense, compressed, dense, dense], fill = 0.0 : f64>>'}}
func.func @demap_wrong_result(%a: !sparse_array.array<4x6xf64, #sparse_array.format<[dense, compressed, dense, dense], order = [0, 1, 0, 1], blocks = [2, 2]>>) {
  %l = sparse_array.demap %a : !sparse_array.array<4x6xf64, #sparse_array.format<[dense, compressed, dense, dense], order = [0, 1, 0, 1], blocks = [2, 2]>> -> !sparse_array.array<4x6xf64>
  return
}
