// RUN: sa-opt %s --sparse-array-import-sparse-tensor --split-input-file --verify-diagnostics
//
// One case per diagnostic of sparse-array-import-sparse-tensor: what has no
// exact translation is an error naming it.

#SV = #sparse_tensor.encoding<{ map = (d0) -> (d0 : compressed) }>
#id = { indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>], iterator_types = ["parallel"] }
func.func @index(%a: tensor<?xi64, #SV>, %e: tensor<?xi64>) -> tensor<?xi64> {
  // expected-error @+1 {{linalg.index of loop d0, whose extent is known only at run time}}
  %r = linalg.generic #id ins(%a : tensor<?xi64, #SV>) outs(%e : tensor<?xi64>) {
  ^bb0(%x: i64, %o: i64):
    %i = linalg.index 0 : index
    %c = arith.index_cast %i : index to i64
    %s = arith.addi %x, %c : i64
    linalg.yield %s : i64
  } -> tensor<?xi64>
  return %r : tensor<?xi64>
}

// -----

#CSR = #sparse_tensor.encoding<{ map = (d0, d1) -> (d0 : dense, d1 : compressed) }>
#rows = { indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i)>], iterator_types = ["parallel", "reduction"] }
func.func @right_fold(%A: tensor<4x5xf64, #CSR>) -> tensor<4xf64> {
  %e = tensor.empty() : tensor<4xf64>
  // expected-error @+1 {{the reduction 'arith.subf(value, out)' folds into an output that was never initialized and has no identity to start from}}
  %r = linalg.generic #rows ins(%A : tensor<4x5xf64, #CSR>) outs(%e : tensor<4xf64>) {
  ^bb0(%a: f64, %o: f64):
    %s = arith.subf %a, %o : f64
    linalg.yield %s : f64
  } -> tensor<4xf64>
  return %r : tensor<4xf64>
}

// -----

#CSR = #sparse_tensor.encoding<{ map = (d0, d1) -> (d0 : dense, d1 : compressed) }>
#rows = { indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i)>], iterator_types = ["parallel", "reduction"] }
func.func @not_a_fold(%A: tensor<4x5xf64, #CSR>) -> tensor<4xf64> {
  %e = tensor.empty() : tensor<4xf64>
  // expected-error @+1 {{a region with reduction loops must yield op(out, value) of a binary operation}}
  %r = linalg.generic #rows ins(%A : tensor<4x5xf64, #CSR>) outs(%e : tensor<4xf64>) {
  ^bb0(%a: f64, %o: f64):
    %s = arith.addf %o, %a : f64
    %t = math.sqrt %s : f64
    linalg.yield %t : f64
  } -> tensor<4xf64>
  return %r : tensor<4xf64>
}

// -----

#CSR = #sparse_tensor.encoding<{ map = (d0, d1) -> (d0 : dense, d1 : compressed) }>
#rows = { indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i)>], iterator_types = ["parallel", "reduction"] }
func.func @out_read_twice(%A: tensor<4x5xf64, #CSR>) -> tensor<4xf64> {
  %e = tensor.empty() : tensor<4xf64>
  // expected-error @+1 {{the output is read other than as the reduction's accumulator}}
  %r = linalg.generic #rows ins(%A : tensor<4x5xf64, #CSR>) outs(%e : tensor<4xf64>) {
  ^bb0(%a: f64, %o: f64):
    %p = arith.mulf %a, %o : f64
    %s = arith.addf %o, %p : f64
    linalg.yield %s : f64
  } -> tensor<4xf64>
  return %r : tensor<4xf64>
}

// -----

#SV = #sparse_tensor.encoding<{ map = (d0) -> (d0 : compressed) }>
#id = { indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>], iterator_types = ["parallel"] }
func.func @uninitialized(%a: tensor<8xf64, #SV>) -> tensor<8xf64> {
  %e = tensor.empty() : tensor<8xf64>
  // expected-error @+1 {{the region reads an output that was never initialized}}
  %r = linalg.generic #id ins(%a : tensor<8xf64, #SV>) outs(%e : tensor<8xf64>) {
  ^bb0(%x: f64, %o: f64):
    %s = arith.addf %x, %o : f64
    linalg.yield %s : f64
  } -> tensor<8xf64>
  return %r : tensor<8xf64>
}

// -----

#SV = #sparse_tensor.encoding<{ map = (d0) -> (d0 : compressed) }>
#id = { indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>], iterator_types = ["parallel"] }
func.func @captured(%a: tensor<8xf64, #SV>, %k: f64) -> tensor<8xf64> {
  %e = tensor.empty() : tensor<8xf64>
  // expected-error @+1 {{the region uses a block argument of an enclosing region}}
  %r = linalg.generic #id ins(%a : tensor<8xf64, #SV>) outs(%e : tensor<8xf64>) {
  ^bb0(%x: f64, %o: f64):
    %s = arith.mulf %x, %k : f64
    linalg.yield %s : f64
  } -> tensor<8xf64>
  return %r : tensor<8xf64>
}

// -----

#SV = #sparse_tensor.encoding<{ map = (d0) -> (d0 : compressed) }>
#id = { indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>], iterator_types = ["parallel"] }
func.func @region_op(%a: tensor<8xf64, #SV>) -> tensor<8xf64> {
  %e = tensor.empty() : tensor<8xf64>
  // expected-error @+1 {{'scf.execute_region' is not a scalar arith or math operation the importer supports}}
  %r = linalg.generic #id ins(%a : tensor<8xf64, #SV>) outs(%e : tensor<8xf64>) {
  ^bb0(%x: f64, %o: f64):
    %s = scf.execute_region -> f64 {
      scf.yield %x : f64
    }
    linalg.yield %s : f64
  } -> tensor<8xf64>
  return %r : tensor<8xf64>
}

// -----

#CSR = #sparse_tensor.encoding<{ map = (d0, d1) -> (d0 : dense, d1 : compressed) }>
#diag = { indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i)>], iterator_types = ["parallel", "parallel"] }
func.func @parallel_not_in_output(%A: tensor<4x4xf64, #CSR>) -> tensor<4xf64> {
  %e = tensor.empty() : tensor<4xf64>
  // expected-error @+1 {{parallel loop d1 does not index the output}}
  %r = linalg.generic #diag ins(%A : tensor<4x4xf64, #CSR>) outs(%e : tensor<4xf64>) {
  ^bb0(%a: f64, %o: f64):
    linalg.yield %a : f64
  } -> tensor<4xf64>
  return %r : tensor<4xf64>
}

// -----

#CSR = #sparse_tensor.encoding<{ map = (d0, d1) -> (d0 : dense, d1 : compressed) }>
#mod = { indexing_maps = [affine_map<(i, j) -> (i + j, j floordiv 2)>, affine_map<(i, j) -> (j)>, affine_map<(i, j) -> (i)>], iterator_types = ["parallel", "reduction"] }
func.func @window_not_linear(%A: tensor<8x4xf64, #CSR>, %F: tensor<4xf64>, %y: tensor<4xf64>) -> tensor<4xf64> {
  // expected-error @+1 {{indexing map result d1 floordiv 2 is not a sum of loops times constants}}
  %r = linalg.generic #mod ins(%A, %F : tensor<8x4xf64, #CSR>, tensor<4xf64>) outs(%y : tensor<4xf64>) {
  ^bb0(%a: f64, %f: f64, %o: f64):
    %s = arith.addf %o, %a : f64
    linalg.yield %s : f64
  } -> tensor<4xf64>
  return %r : tensor<4xf64>
}

// -----

#rev = { indexing_maps = [affine_map<(i, j) -> (j - i + 3)>, affine_map<(i, j) -> (j)>, affine_map<(i, j) -> (i)>], iterator_types = ["parallel", "reduction"] }
func.func @window_reversed(%A: tensor<8xf64>, %F: tensor<4xf64>, %y: tensor<4xf64>) -> tensor<4xf64> {
  // expected-error @+1 {{reads loop d0 in reverse}}
  %r = linalg.generic #rev ins(%A, %F : tensor<8xf64>, tensor<4xf64>) outs(%y : tensor<4xf64>) {
  ^bb0(%a: f64, %f: f64, %o: f64):
    %s = arith.addf %o, %a : f64
    linalg.yield %s : f64
  } -> tensor<4xf64>
  return %r : tensor<4xf64>
}

// -----

#diag = { indexing_maps = [affine_map<(i, j, k) -> (i + j + k)>, affine_map<(i, j, k) -> (k)>, affine_map<(i, j, k) -> (i, j)>], iterator_types = ["parallel", "parallel", "reduction"] }
func.func @window_of_two_kept_loops(%A: tensor<12xf64>, %F: tensor<4xf64>, %y: tensor<4x4xf64>) -> tensor<4x4xf64> {
  // expected-error @+1 {{sums loops that are not window loops}}
  %r = linalg.generic #diag ins(%A, %F : tensor<12xf64>, tensor<4xf64>) outs(%y : tensor<4x4xf64>) {
  ^bb0(%a: f64, %f: f64, %o: f64):
    %s = arith.addf %o, %a : f64
    linalg.yield %s : f64
  } -> tensor<4x4xf64>
  return %r : tensor<4x4xf64>
}

// -----

#sub = { indexing_maps = [affine_map<(i, k) -> (i + k)>, affine_map<(i, k) -> (k)>, affine_map<(i, k) -> (i)>], iterator_types = ["parallel", "reduction"] }
func.func @window_no_identity(%A: tensor<6xf64>, %F: tensor<3xf64>) -> tensor<4xf64> {
  %e = tensor.empty() : tensor<4xf64>
  // expected-error @+1 {{a window read into an undefined output whose combiner has no identity to start from}}
  %r = linalg.generic #sub ins(%A, %F : tensor<6xf64>, tensor<3xf64>) outs(%e : tensor<4xf64>) {
  ^bb0(%a: f64, %f: f64, %o: f64):
    %s = arith.subf %o, %a : f64
    linalg.yield %s : f64
  } -> tensor<4xf64>
  return %r : tensor<4xf64>
}

// -----

func.func @pad_with_other_value(%A: tensor<4xf64>) -> tensor<6xf64> {
  %one = arith.constant 1.0 : f64
  // expected-error @+1 {{padding with 1.000000e+00 : f64, which is not the source's fill 0.000000e+00 : f64}}
  %p = tensor.pad %A low[1] high[1] {
  ^bb0(%i: index):
    tensor.yield %one : f64
  } : tensor<4xf64> to tensor<6xf64>
  return %p : tensor<6xf64>
}

// -----

func.func @returns_empty() -> tensor<4xf64> {
  %e = tensor.empty() : tensor<4xf64>
  // expected-error @+1 {{'func.return' op cannot be imported: it reads a tensor that was never initialized}}
  return %e : tensor<4xf64>
}

// -----

func.func @print_vector_0d(%v: vector<f64>) {
  // expected-error @+1 {{'vector.print' op cannot be imported: printing a scalable or 0-d vector}}
  vector.print %v : vector<f64>
  return
}

// -----

func.func @print_unsigned(%v: ui32) {
  // expected-error @+1 {{'vector.print' op cannot be imported: printing a value of type 'ui32'}}
  vector.print %v : ui32
  return
}

// -----

func.func @transfer_read_masked(%a: tensor<8xf64>, %m: vector<8xi1>) -> vector<8xf64> {
  %c0 = arith.constant 0 : index
  %z = arith.constant 0.0 : f64
  // expected-error @+1 {{'vector.transfer_read' op cannot be imported: a masked read}}
  %v = vector.transfer_read %a[%c0], %z, %m : tensor<8xf64>, vector<8xf64>
  return %v : vector<8xf64>
}

// -----

func.func @transfer_read_large(%a: tensor<8192xf64>) -> vector<8192xf64> {
  %c0 = arith.constant 0 : index
  %z = arith.constant 0.0 : f64
  // expected-error @+1 {{'vector.transfer_read' op cannot be imported: 8192 elements (at most 4096 are read one by one)}}
  %v = vector.transfer_read %a[%c0], %z : tensor<8192xf64>, vector<8192xf64>
  return %v : vector<8192xf64>
}

// -----

func.func @transfer_write(%a: tensor<8xf64>, %v: vector<8xf64>) -> tensor<8xf64> {
  %c0 = arith.constant 0 : index
  // expected-error @+1 {{'vector.transfer_write' has no sparse_array translation}}
  %r = vector.transfer_write %v, %a[%c0] : vector<8xf64>, tensor<8xf64>
  return %r : tensor<8xf64>
}

// -----

func.func @dynamic_rank_reducing_slice(%a: tensor<8x8xf64>, %o: index) -> tensor<4xf64> {
  // expected-error @+1 {{a rank-reducing slice with bounds known only at run time}}
  %s = tensor.extract_slice %a[%o, 0] [4, 1] [1, 1] : tensor<8x8xf64> to tensor<4xf64>
  return %s : tensor<4xf64>
}

// -----

#SV = #sparse_tensor.encoding<{ map = (d0) -> (d0 : compressed) }>
func.func @read_integer(%p: i64) -> tensor<?xf64, #SV> {
  // expected-error @+1 {{a file name of type 'i64'}}
  %t = sparse_tensor.new %p : i64 to tensor<?xf64, #SV>
  return %t : tensor<?xf64, #SV>
}

// -----

#CSR = #sparse_tensor.encoding<{ map = (d0, d1) -> (d0 : dense, d1 : compressed) }>
func.func @foreach_order(%a: tensor<2x3xf64, #CSR>) {
  // expected-error @+1 {{a foreach with an explicit order}}
  sparse_tensor.foreach in %a {order = affine_map<(i, j) -> (j, i)>} : tensor<2x3xf64, #CSR> do {
    ^bb0(%i: index, %j: index, %v: f64):
      vector.print %v : f64
  }
  return
}

// -----

// Block encodings import as formats with blocks; a size that is not a
// multiple of its block is refused (its last block would reach past it).
#BSR = #sparse_tensor.encoding<{ map = (i, j) -> (i floordiv 2 : dense, j floordiv 2 : compressed, i mod 2 : dense, j mod 2 : dense) }>
// expected-error @+1 {{dimension 0 of size 5 is not a multiple of its block size 2}}
func.func @blocks(%a: tensor<5x4xf64, #BSR>) -> tensor<5x4xf64, #BSR> {
  return %a : tensor<5x4xf64, #BSR>
}

// -----

// expected-error @+1 {{element type 'complex<f64>' is not an array element type}}
func.func @complex(%a: tensor<4xcomplex<f64>>) -> tensor<4xcomplex<f64>> {
  return %a : tensor<4xcomplex<f64>>
}

// -----

#CSR = #sparse_tensor.encoding<{ map = (d0, d1) -> (d0 : dense, d1 : compressed) }>
func.func @disassemble_dynamic_empty(%a: tensor<3x4xf64, #CSR>, %n: index) -> index {
  %p = tensor.empty(%n) : tensor<?xindex>
  %c = tensor.empty() : tensor<12xindex>
  %v = tensor.empty() : tensor<12xf64>
  // expected-error @+1 {{'sparse_tensor.disassemble' op cannot be imported: an uninitialized output tensor of dynamic shape}}
  %rp, %rc, %rv, %lp, %lc, %lv = sparse_tensor.disassemble %a : tensor<3x4xf64, #CSR>
      out_lvls(%p, %c : tensor<?xindex>, tensor<12xindex>) out_vals(%v : tensor<12xf64>)
      -> (tensor<?xindex>, tensor<12xindex>), tensor<12xf64>, (index, index), index
  return %lv : index
}

// -----

#id = { indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>], iterator_types = ["parallel"] }
func.func @generic_over_index(%a: tensor<8xindex>) -> tensor<8xindex> {
  %e = tensor.empty() : tensor<8xindex>
  // expected-error @+1 {{'linalg.generic' op cannot be imported: a tensor of index elements as operand}}
  %r = linalg.generic #id ins(%a : tensor<8xindex>) outs(%e : tensor<8xindex>) {
  ^bb0(%x: index, %o: index):
    linalg.yield %x : index
  } -> tensor<8xindex>
  return %r : tensor<8xindex>
}

// -----

func.func @loop_from_empty(%n: index) -> tensor<4xf64> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %e = tensor.empty() : tensor<4xf64>
  // expected-error @+1 {{'scf.for' op cannot be imported: it reads a tensor that was never initialized}}
  %r = scf.for %k = %c0 to %n step %c1 iter_args(%x = %e) -> (tensor<4xf64>) {
    scf.yield %x : tensor<4xf64>
  }
  return %r : tensor<4xf64>
}

// -----

#SV = #sparse_tensor.encoding<{ map = (d0) -> (d0 : compressed) }>
func.func @from_elements_sparse(%a: f64, %b: f64) -> tensor<2xf64, #SV> {
  // expected-error @+1 {{'tensor.from_elements' op cannot be imported: a sparse result (build it dense, then convert)}}
  %t = tensor.from_elements %a, %b : tensor<2xf64, #SV>
  return %t : tensor<2xf64, #SV>
}

// -----

func.func @expand_two_runtime_sizes(%a: tensor<?xf64>, %m: index, %n: index) -> tensor<?x?xf64> {
  // expected-error @+1 {{an expanded group with more than one size known only at run time}}
  %e = tensor.expand_shape %a [[0, 1]] output_shape [%m, %n] : tensor<?xf64> into tensor<?x?xf64>
  return %e : tensor<?x?xf64>
}

// -----

func.func @reshape_runtime_shape(%a: tensor<12xf64>, %shape: tensor<2xi32>) -> tensor<?x?xf64> {
  // expected-error @+1 {{a size known only at run time (the shape is not a constant)}}
  %r = tensor.reshape %a(%shape) : (tensor<12xf64>, tensor<2xi32>) -> tensor<?x?xf64>
  return %r : tensor<?x?xf64>
}

// -----

// expected-error @+1 {{an external function returning a tensor}}
func.func private @make() -> tensor<4xf64>

// -----

#SV = #sparse_tensor.encoding<{ map = (d0) -> (d0 : compressed) }>
// expected-error @+1 {{an external function taking a sparse tensor}}
func.func private @consume(tensor<4xf64, #SV>)
