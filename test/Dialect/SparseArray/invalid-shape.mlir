// RUN: sa-opt %s -split-input-file -verify-diagnostics
// One case per diagnostic of the shape operators.

!A = !sparse_array.array<10x4xf64, #sparse_array.format<[dense, compressed]>>
!D = !sparse_array.array<?x6xf64>

func.func @slice_entry(%a: !A) {
  // expected-error@+1 {{expected an integer index or a slice (start:stop:step)}}
  %0 = sparse_array.slice %a[, 1] : !A -> !A
  return
}

// -----

!A = !sparse_array.array<10x4xf64, #sparse_array.format<[dense, compressed]>>
!D = !sparse_array.array<?x6xf64>

func.func @slice_spec_size(%a: !A) {
  // expected-error@+1 {{'sparse_array.slice' op needs four values per entry of its spec}}
  %0 = "sparse_array.slice"(%a) <{spec = array<i64: 0, 1, 2>}> : (!A) -> !A
  return
}

// -----

!A = !sparse_array.array<10x4xf64, #sparse_array.format<[dense, compressed]>>
!D = !sparse_array.array<?x6xf64>

func.func @slice_spec_kind(%a: !A) {
  // expected-error@+1 {{'sparse_array.slice' op spec entry 0 is neither a slice (0) nor an index (1)}}
  %0 = "sparse_array.slice"(%a) <{spec = array<i64: 2, 0, 1, 1>}> : (!A) -> !A
  return
}

// -----

!A = !sparse_array.array<10x4xf64, #sparse_array.format<[dense, compressed]>>
!D = !sparse_array.array<?x6xf64>

func.func @slice_too_many(%a: !A) {
  // expected-error@+1 {{'sparse_array.slice' op indexes 3 dimensions of a rank-2 array}}
  %0 = sparse_array.slice %a[1, 2, 3] : !A -> !sparse_array.array<f64>
  return
}

// -----

!A = !sparse_array.array<10x4xf64, #sparse_array.format<[dense, compressed]>>
!D = !sparse_array.array<?x6xf64>

func.func @slice_index_range(%a: !A) {
  // expected-error@+1 {{'sparse_array.slice' op index -11 is out of range for dimension 0 of size 10}}
  %0 = sparse_array.slice %a[-11] : !A -> !sparse_array.array<4xf64>
  return
}

// -----

!A = !sparse_array.array<10x4xf64, #sparse_array.format<[dense, compressed]>>
!D = !sparse_array.array<?x6xf64>

func.func @slice_negative_index_dynamic(%d: !D) {
  // expected-error@+1 {{'sparse_array.slice' op a negative index of dimension 0, whose size is known only at run time}}
  %0 = sparse_array.slice %d[-1] : !D -> !sparse_array.array<6xf64>
  return
}

// -----

!A = !sparse_array.array<10x4xf64, #sparse_array.format<[dense, compressed]>>
!D = !sparse_array.array<?x6xf64>

func.func @slice_zero_step(%a: !A) {
  // expected-error@+1 {{'sparse_array.slice' op slice step of dimension 1 is zero}}
  %0 = sparse_array.slice %a[:, ::0] : !A -> !A
  return
}

// -----

!A = !sparse_array.array<10x4xf64, #sparse_array.format<[dense, compressed]>>
!D = !sparse_array.array<?x6xf64>

func.func @slice_negative_step_dynamic(%d: !D) {
  // expected-error@+1 {{'sparse_array.slice' op slicing dimension 0, whose size is known only at run time, with a negative step needs an explicit non-negative start (and a non-negative stop, if any)}}
  %0 = sparse_array.slice %d[::-1] : !D -> !D
  return
}

// -----

!A = !sparse_array.array<10x4xf64, #sparse_array.format<[dense, compressed]>>
!D = !sparse_array.array<?x6xf64>

func.func @slice_dynamic_bounds(%d: !D) {
  // expected-error@+1 {{'sparse_array.slice' op slicing dimension 0, whose size is known only at run time, needs an explicit non-negative start and stop}}
  %0 = sparse_array.slice %d[2:] : !D -> !D
  return
}

// -----

!A = !sparse_array.array<10x4xf64, #sparse_array.format<[dense, compressed]>>
!D = !sparse_array.array<?x6xf64>

func.func @slice_element_type(%a: !A) {
  // expected-error@+1 {{'sparse_array.slice' op result element type 'f32' differs from the source's 'f64'}}
  %0 = sparse_array.slice %a[1] : !A -> !sparse_array.array<4xf32>
  return
}

// -----

!A = !sparse_array.array<10x4xf64, #sparse_array.format<[dense, compressed]>>
!D = !sparse_array.array<?x6xf64>

func.func @slice_shape(%a: !A) {
  // expected-error@+1 {{'sparse_array.slice' op result shape [5, 4] is not [4, 4]}}
  %0 = sparse_array.slice %a[1:9:2] : !A -> !sparse_array.array<5x4xf64>
  return
}

// -----

!A = !sparse_array.array<10x4xf64, #sparse_array.format<[dense, compressed]>>
!D = !sparse_array.array<?x6xf64>

func.func @transpose_entries(%a: !A, %e: !sparse_array.array<3x1xf64>) {
  // expected-error@+1 {{'sparse_array.transpose' op permutation has 1 entries for a rank-2 array}}
  %0 = sparse_array.transpose %a [0] : !A -> !A
  return
}

// -----

!A = !sparse_array.array<10x4xf64, #sparse_array.format<[dense, compressed]>>
!D = !sparse_array.array<?x6xf64>

func.func @transpose_range(%a: !A, %e: !sparse_array.array<3x1xf64>) {
  // expected-error@+1 {{'sparse_array.transpose' op dimension 2 is not in [0, 2)}}
  %0 = sparse_array.transpose %a [2, 0] : !A -> !A
  return
}

// -----

!A = !sparse_array.array<10x4xf64, #sparse_array.format<[dense, compressed]>>
!D = !sparse_array.array<?x6xf64>

func.func @transpose_repeated(%a: !A, %e: !sparse_array.array<3x1xf64>) {
  // expected-error@+1 {{'sparse_array.transpose' op dimension 0 is repeated}}
  %0 = sparse_array.transpose %a [0, 0] : !A -> !A
  return
}

// -----

!A = !sparse_array.array<10x4xf64, #sparse_array.format<[dense, compressed]>>
!D = !sparse_array.array<?x6xf64>

func.func @transpose_shape(%a: !A, %e: !sparse_array.array<3x1xf64>) {
  // expected-error@+1 {{'sparse_array.transpose' op result shape [10, 4] is not [4, 10]}}
  %0 = sparse_array.transpose %a [1, 0] : !A -> !A
  return
}

// -----

!A = !sparse_array.array<10x4xf64, #sparse_array.format<[dense, compressed]>>
!D = !sparse_array.array<?x6xf64>

func.func @transpose_element(%a: !A, %e: !sparse_array.array<3x1xf64>) {
  // expected-error@+1 {{'sparse_array.transpose' op result element type 'i64' differs from the source's 'f64'}}
  %0 = sparse_array.transpose %a [1, 0] : !A -> !sparse_array.array<4x10xi64>
  return
}

// -----

!A = !sparse_array.array<10x4xf64, #sparse_array.format<[dense, compressed]>>
!D = !sparse_array.array<?x6xf64>

func.func @expand_range(%a: !A, %e: !sparse_array.array<3x1xf64>) {
  // expected-error@+1 {{'sparse_array.expand_dims' op new dimension 3 is not in [0, 3)}}
  %0 = sparse_array.expand_dims %a [3] : !A -> !sparse_array.array<10x4x1xf64>
  return
}

// -----

!A = !sparse_array.array<10x4xf64, #sparse_array.format<[dense, compressed]>>
!D = !sparse_array.array<?x6xf64>

func.func @expand_repeated(%a: !A, %e: !sparse_array.array<3x1xf64>) {
  // expected-error@+1 {{'sparse_array.expand_dims' op new dimension 1 is repeated}}
  %0 = sparse_array.expand_dims %a [1, 1] : !A -> !sparse_array.array<10x1x1x4xf64>
  return
}

// -----

!A = !sparse_array.array<10x4xf64, #sparse_array.format<[dense, compressed]>>
!D = !sparse_array.array<?x6xf64>

func.func @expand_shape(%a: !A, %e: !sparse_array.array<3x1xf64>) {
  // expected-error@+1 {{'sparse_array.expand_dims' op result shape [1, 10, 4] is not [10, 1, 4]}}
  %0 = sparse_array.expand_dims %a [1] : !A -> !sparse_array.array<1x10x4xf64>
  return
}

// -----

!A = !sparse_array.array<10x4xf64, #sparse_array.format<[dense, compressed]>>
!D = !sparse_array.array<?x6xf64>

func.func @squeeze_size(%a: !A, %e: !sparse_array.array<3x1xf64>) {
  // expected-error@+1 {{'sparse_array.squeeze' op dimension 0 to squeeze does not have static size 1}}
  %0 = sparse_array.squeeze %a [0] : !A -> !sparse_array.array<4xf64>
  return
}

// -----

!A = !sparse_array.array<10x4xf64, #sparse_array.format<[dense, compressed]>>
!D = !sparse_array.array<?x6xf64>

func.func @squeeze_range(%a: !A, %e: !sparse_array.array<3x1xf64>) {
  // expected-error@+1 {{'sparse_array.squeeze' op dimension 5 is not in [0, 2)}}
  %0 = sparse_array.squeeze %a [5] : !A -> !A
  return
}

// -----

!A = !sparse_array.array<10x4xf64, #sparse_array.format<[dense, compressed]>>
!D = !sparse_array.array<?x6xf64>

func.func @squeeze_shape(%a: !A, %e: !sparse_array.array<3x1xf64>) {
  // expected-error@+1 {{'sparse_array.squeeze' op result shape [3, 1] is not [3]}}
  %0 = sparse_array.squeeze %e [1] : !sparse_array.array<3x1xf64> -> !sparse_array.array<3x1xf64>
  return
}

// -----

!A = !sparse_array.array<10x4xf64, #sparse_array.format<[dense, compressed]>>
!D = !sparse_array.array<?x6xf64>

func.func @concat_none(%a: !A, %e: !sparse_array.array<3x1xf64>, %d: !D) {
  // expected-error@+1 {{'sparse_array.concat' op needs at least one input}}
  %0 = "sparse_array.concat"() <{dim = 0 : i64}> : () -> !A
  return
}

// -----

!A = !sparse_array.array<10x4xf64, #sparse_array.format<[dense, compressed]>>
!D = !sparse_array.array<?x6xf64>

func.func @concat_dim(%a: !A, %e: !sparse_array.array<3x1xf64>, %d: !D) {
  // expected-error@+1 {{'sparse_array.concat' op dimension 2 is not in [0, 2)}}
  %0 = sparse_array.concat %a, %a dim 2 : !A, !A -> !sparse_array.array<20x4xf64>
  return
}

// -----

!A = !sparse_array.array<10x4xf64, #sparse_array.format<[dense, compressed]>>
!D = !sparse_array.array<?x6xf64>

func.func @concat_rank(%a: !A, %e: !sparse_array.array<3x1xf64>, %d: !D) {
  %v = sparse_array.squeeze %e [1] : !sparse_array.array<3x1xf64> -> !sparse_array.array<3xf64>
  // expected-error@+1 {{'sparse_array.concat' op input 1 has rank 1, the result 2}}
  %0 = sparse_array.concat %a, %v dim 0 : !A, !sparse_array.array<3xf64> -> !sparse_array.array<13x4xf64>
  return
}

// -----

!A = !sparse_array.array<10x4xf64, #sparse_array.format<[dense, compressed]>>
!D = !sparse_array.array<?x6xf64>

func.func @concat_dynamic(%a: !A, %e: !sparse_array.array<3x1xf64>, %d: !D) {
  // A size along the axis known only at run time makes the result's.
  // expected-error@+1 {{'sparse_array.concat' op result size 16 in dimension 0 needs to be ? (an input's size there is known only at run time)}}
  %0 = sparse_array.concat %d, %d dim 0 : !D, !D -> !sparse_array.array<16x6xf64>
  return
}

// -----

!A = !sparse_array.array<10x4xf64, #sparse_array.format<[dense, compressed]>>
!D = !sparse_array.array<?x6xf64>

func.func @concat_other_dim(%a: !A, %e: !sparse_array.array<3x1xf64>, %d: !D) {
  // expected-error@+1 {{'sparse_array.concat' op input 1 has size 1 in dimension 1, the result 4}}
  %0 = sparse_array.concat %a, %e dim 0 : !A, !sparse_array.array<3x1xf64> -> !sparse_array.array<13x4xf64>
  return
}

// -----

!A = !sparse_array.array<10x4xf64, #sparse_array.format<[dense, compressed]>>

func.func @concat_dynamic_other_dim(%a: !A, %e: !sparse_array.array<3x?xf64>) {
  // expected-error@+1 {{'sparse_array.concat' op input 1 has size ? in dimension 1, the result 4}}
  %0 = sparse_array.concat %a, %e dim 0 : !A, !sparse_array.array<3x?xf64> -> !sparse_array.array<13x4xf64>
  return
}

// -----

!A = !sparse_array.array<10x4xf64, #sparse_array.format<[dense, compressed]>>
!D = !sparse_array.array<?x6xf64>

func.func @concat_shape(%a: !A, %e: !sparse_array.array<3x1xf64>, %d: !D) {
  // expected-error@+1 {{'sparse_array.concat' op result shape [21, 4] is not [20, 4]}}
  %0 = sparse_array.concat %a, %a dim 0 : !A, !A -> !sparse_array.array<21x4xf64>
  return
}

// -----

!A = !sparse_array.array<10x4xf64, #sparse_array.format<[dense, compressed]>>
!D = !sparse_array.array<?x6xf64>

func.func @concat_element(%a: !A, %e: !sparse_array.array<3x1xf64>, %d: !D) {
  // expected-error@+1 {{'sparse_array.concat' op result element type 'f32' differs from the source's 'f64'}}
  %0 = sparse_array.concat %a, %a dim 0 : !A, !A -> !sparse_array.array<20x4xf32>
  return
}

// -----

!A = !sparse_array.array<10x4xf64, #sparse_array.format<[dense, compressed]>>
!D = !sparse_array.array<?x6xf64>

func.func @select_range_parts(%a: !A, %e: !sparse_array.array<3x1xf64>, %d: !D) {
  %0 = sparse_array.kernel ins(%a : !A) -> !sparse_array.array<10x4xf64> {
  ^bb0(%i: index, %j: index, %x: !A):
    %u = sparse_array.access %x[%i, %j] : !A
    // expected-error@+1 {{'sparse_array.select_range' op needs one part more than bounds, got 1 parts and 1 bounds}}
    %w = sparse_array.select_range %j [2] (%u) : f64 -> f64
    sparse_array.yield %w : f64
  }
  return
}

// -----

!A = !sparse_array.array<10x4xf64, #sparse_array.format<[dense, compressed]>>
!D = !sparse_array.array<?x6xf64>

func.func @select_range_bounds(%a: !A, %e: !sparse_array.array<3x1xf64>, %d: !D) {
  %0 = sparse_array.kernel ins(%a : !A) -> !sparse_array.array<10x4xf64> {
  ^bb0(%i: index, %j: index, %x: !A):
    %u = sparse_array.access %x[%i, %j] : !A
    // expected-error@+1 {{'sparse_array.select_range' op bounds must not decrease}}
    %w = sparse_array.select_range %j [3, 1] (%u, %u, %u) : f64, f64, f64 -> f64
    sparse_array.yield %w : f64
  }
  return
}

// -----

!A = !sparse_array.array<10x4xf64, #sparse_array.format<[dense, compressed]>>
!D = !sparse_array.array<?x6xf64>

func.func @select_range_types(%a: !A, %e: !sparse_array.array<3x1xf64>, %d: !D) {
  %0 = sparse_array.kernel ins(%a : !A) -> !sparse_array.array<10x4xf64> {
  ^bb0(%i: index, %j: index, %x: !A):
    %u = sparse_array.access %x[%i, %j] : !A
    %c = arith.constant 1.0 : f32
    // expected-error@+1 {{'sparse_array.select_range' op part of type 'f32' for a result of type 'f64'}}
    %w = sparse_array.select_range %j [2] (%u, %c) : f64, f32 -> f64
    sparse_array.yield %w : f64
  }
  return
}

// -----

!A = !sparse_array.array<10x4xf64, #sparse_array.format<[dense, compressed]>>
!M = !sparse_array.array<4xi1>

func.func @select_range_range_count(%a: !A, %m: !M) {
  %0 = sparse_array.kernel ins(%a, %m : !A, !M) -> !sparse_array.array<10x8xf64> {
  ^bb0(%i: index, %j: index, %x: !A, %y: !M):
    %u = sparse_array.access %x[%i, %j(0:8)] padded : !A
    %t = sparse_array.access %y[%j(-4:4)] padded : !M
    // expected-error@+1 {{'sparse_array.select_range' op needs one range per ranged part, got 1 ranges for 2 parts}}
    %w = sparse_array.select_range %j [4] (%u, %u) ranges [0, 1] (%t) : f64, f64 -> f64
    sparse_array.yield %w : f64
  }
  return
}

// -----

!A = !sparse_array.array<10x4xf64, #sparse_array.format<[dense, compressed]>>
!M = !sparse_array.array<4xi1>

func.func @select_range_ranged_part(%a: !A, %m: !M) {
  %0 = sparse_array.kernel ins(%a, %m : !A, !M) -> !sparse_array.array<10x8xf64> {
  ^bb0(%i: index, %j: index, %x: !A, %y: !M):
    %u = sparse_array.access %x[%i, %j(0:8)] padded : !A
    %t = sparse_array.access %y[%j(-4:4)] padded : !M
    // expected-error@+1 {{'sparse_array.select_range' op ranged parts must be increasing part numbers below 2}}
    %w = sparse_array.select_range %j [4] (%u, %u) ranges [2] (%t) : f64, f64 -> f64
    sparse_array.yield %w : f64
  }
  return
}

// -----

!A = !sparse_array.array<10x4xf64, #sparse_array.format<[dense, compressed]>>
!S = !sparse_array.array<4xi1, #sparse_array.format<[compressed]>>

func.func @select_range_sparse_marker(%a: !A, %m: !S) {
  %0 = sparse_array.kernel ins(%a, %m : !A, !S) -> !sparse_array.array<10x8xf64> {
  ^bb0(%i: index, %j: index, %x: !A, %y: !S):
    %u = sparse_array.access %x[%i, %j(0:8)] padded : !A
    %t = sparse_array.access %y[%j(-4:4)] padded : !S
    // expected-error@+1 {{'sparse_array.select_range' op a range must be the read of a dense array}}
    %w = sparse_array.select_range %j [4] (%u, %u) ranges [1] (%t) : f64, f64 -> f64
    sparse_array.yield %w : f64
  }
  return
}

// -----

!A = !sparse_array.array<10x4xf64, #sparse_array.format<[dense, compressed]>>
!D = !sparse_array.array<?x6xf64>

func.func @select_range_index(%a: !A, %e: !sparse_array.array<3x1xf64>, %d: !D) {
  %0 = sparse_array.kernel ins(%a : !A) -> !sparse_array.array<10x4xf64> {
  ^bb0(%i: index, %j: index, %x: !A):
    %u = sparse_array.access %x[%i, %j] : !A
    %c = arith.constant 2 : index
    // expected-error@+1 {{'sparse_array.select_range' op index must be an index variable of the kernel}}
    %w = sparse_array.select_range %c [2] (%u, %u) : f64, f64 -> f64
    sparse_array.yield %w : f64
  }
  return
}

// -----

!A = !sparse_array.array<10x4xf64, #sparse_array.format<[dense, compressed]>>
!T = !sparse_array.array<2x3x4xf64>
!D = !sparse_array.array<?x6xf64>

func.func @collapse_order(%a: !A, %t: !T, %d: !D) {
  // expected-error@+1 {{'sparse_array.collapse' op order must be "C" or "F", got "K"}}
  %0 = sparse_array.collapse %a [0, 1] order "K" : !A -> !sparse_array.array<40xf64>
  return
}

// -----

!A = !sparse_array.array<10x4xf64, #sparse_array.format<[dense, compressed]>>
!T = !sparse_array.array<2x3x4xf64>
!D = !sparse_array.array<?x6xf64>

func.func @collapse_empty(%a: !A, %t: !T, %d: !D) {
  // expected-error@+1 {{'sparse_array.collapse' op needs at least one dimension to collapse}}
  %0 = sparse_array.collapse %a [] : !A -> !A
  return
}

// -----

!A = !sparse_array.array<10x4xf64, #sparse_array.format<[dense, compressed]>>
!T = !sparse_array.array<2x3x4xf64>
!D = !sparse_array.array<?x6xf64>

func.func @collapse_range(%a: !A, %t: !T, %d: !D) {
  // expected-error@+1 {{'sparse_array.collapse' op dimension 2 is not in [0, 2)}}
  %0 = sparse_array.collapse %a [1, 2] : !A -> !sparse_array.array<10xf64>
  return
}

// -----

!A = !sparse_array.array<10x4xf64, #sparse_array.format<[dense, compressed]>>
!T = !sparse_array.array<2x3x4xf64>
!D = !sparse_array.array<?x6xf64>

func.func @collapse_adjacent(%a: !A, %t: !T, %d: !D) {
  // expected-error@+1 {{'sparse_array.collapse' op dimensions to collapse must be adjacent and ascending (transpose them first)}}
  %0 = sparse_array.collapse %t [0, 2] : !T -> !sparse_array.array<3x8xf64>
  return
}

// -----

!A = !sparse_array.array<10x4xf64, #sparse_array.format<[dense, compressed]>>
!T = !sparse_array.array<2x3x4xf64>
!D = !sparse_array.array<?x6xf64>

func.func @collapse_shape(%a: !A, %t: !T, %d: !D) {
  // expected-error@+1 {{'sparse_array.collapse' op result shape [41] is not [40]}}
  %0 = sparse_array.collapse %a [0, 1] : !A -> !sparse_array.array<41xf64>
  return
}

// -----

!A = !sparse_array.array<10x4xf64, #sparse_array.format<[dense, compressed]>>
!T = !sparse_array.array<2x3x4xf64>
!D = !sparse_array.array<?x6xf64>

func.func @collapse_type(%a: !A, %t: !T, %d: !D) {
  // expected-error@+1 {{'sparse_array.collapse' op result element type 'f32' differs from the source's 'f64'}}
  %0 = sparse_array.collapse %a [0, 1] : !A -> !sparse_array.array<40xf32>
  return
}

// -----

!A = !sparse_array.array<10x4xf64, #sparse_array.format<[dense, compressed]>>
!T = !sparse_array.array<2x3x4xf64>
!D = !sparse_array.array<?x6xf64>

func.func @split_dim(%a: !A, %t: !T, %d: !D) {
  // expected-error@+1 {{'sparse_array.split' op dimension 2 is not in [0, 2)}}
  %0 = sparse_array.split %a dim 2 [2, 2] : !A -> !A
  return
}

// -----

!A = !sparse_array.array<10x4xf64, #sparse_array.format<[dense, compressed]>>
!T = !sparse_array.array<2x3x4xf64>
!D = !sparse_array.array<?x6xf64>

func.func @split_empty(%a: !A, %t: !T, %d: !D) {
  // expected-error@+1 {{'sparse_array.split' op needs at least one size}}
  %0 = sparse_array.split %a dim 1 [] : !A -> !A
  return
}

// -----

!A = !sparse_array.array<10x4xf64, #sparse_array.format<[dense, compressed]>>
!T = !sparse_array.array<2x3x4xf64>
!D = !sparse_array.array<?x6xf64>

func.func @split_two_inferred(%a: !A, %t: !T, %d: !D) {
  // expected-error@+1 {{'sparse_array.split' op the split has more than one -1}}
  %0 = sparse_array.split %a dim 1 [-1, -1] : !A -> !sparse_array.array<10x2x2xf64>
  return
}

// -----

!A = !sparse_array.array<10x4xf64, #sparse_array.format<[dense, compressed]>>
!T = !sparse_array.array<2x3x4xf64>
!D = !sparse_array.array<?x6xf64>

func.func @split_negative(%a: !A, %t: !T, %d: !D) {
  // expected-error@+1 {{'sparse_array.split' op the split has the size -2 (sizes are >= 0, or -1 to infer one)}}
  %0 = sparse_array.split %a dim 1 [-2, 2] : !A -> !sparse_array.array<10x2x2xf64>
  return
}

// -----

!A = !sparse_array.array<10x4xf64, #sparse_array.format<[dense, compressed]>>
!T = !sparse_array.array<2x3x4xf64>
!D = !sparse_array.array<?x6xf64>

func.func @split_zero_inferred(%a: !A, %t: !T, %d: !D) {
  // expected-error@+1 {{'sparse_array.split' op the split cannot infer its -1 next to a size 0}}
  %0 = sparse_array.split %a dim 1 [0, -1] : !A -> !sparse_array.array<10x0x2xf64>
  return
}

// -----

!A = !sparse_array.array<10x4xf64, #sparse_array.format<[dense, compressed]>>
!T = !sparse_array.array<2x3x4xf64>
!D = !sparse_array.array<?x6xf64>

func.func @split_multiple(%a: !A, %t: !T, %d: !D) {
  // expected-error@+1 {{'sparse_array.split' op cannot split 4 entries into the split (not a multiple of 3)}}
  %0 = sparse_array.split %a dim 1 [3, -1] : !A -> !sparse_array.array<10x3x1xf64>
  return
}

// -----

!A = !sparse_array.array<10x4xf64, #sparse_array.format<[dense, compressed]>>
!T = !sparse_array.array<2x3x4xf64>
!D = !sparse_array.array<?x6xf64>

func.func @split_product(%a: !A, %t: !T, %d: !D) {
  // expected-error@+1 {{'sparse_array.split' op the split holds 6 entries, the source 4}}
  %0 = sparse_array.split %a dim 1 [3, 2] : !A -> !sparse_array.array<10x3x2xf64>
  return
}

// -----

!A = !sparse_array.array<10x4xf64, #sparse_array.format<[dense, compressed]>>
!T = !sparse_array.array<2x3x4xf64>
!D = !sparse_array.array<?x6xf64>

func.func @split_order(%a: !A, %t: !T, %d: !D) {
  // expected-error@+1 {{'sparse_array.split' op order must be "C" or "F", got "X"}}
  %0 = sparse_array.split %a dim 1 [2, 2] order "X" : !A -> !sparse_array.array<10x2x2xf64>
  return
}

// -----

!A = !sparse_array.array<10x4xf64, #sparse_array.format<[dense, compressed]>>
!T = !sparse_array.array<2x3x4xf64>
!D = !sparse_array.array<?x6xf64>

func.func @split_type(%a: !A, %t: !T, %d: !D) {
  // expected-error@+1 {{'sparse_array.split' op result element type 'i32' differs from the source's 'f64'}}
  %0 = sparse_array.split %a dim 1 [2, 2] : !A -> !sparse_array.array<10x2x2xi32>
  return
}

// -----

!A = !sparse_array.array<10x4xf64, #sparse_array.format<[dense, compressed]>>
!T = !sparse_array.array<2x3x4xf64>
!D = !sparse_array.array<?x6xf64>

func.func @split_shape(%a: !A, %t: !T, %d: !D) {
  // expected-error@+1 {{'sparse_array.split' op result shape [10, 4, 1] is not [10, 2, 2]}}
  %0 = sparse_array.split %a dim 1 [2, 2] : !A -> !sparse_array.array<10x4x1xf64>
  return
}

// -----

!A = !sparse_array.array<10x4xf64, #sparse_array.format<[dense, compressed]>>
!T = !sparse_array.array<2x3x4xf64>
!D = !sparse_array.array<?x6xf64>

func.func @reshape_product(%a: !A, %t: !T, %d: !D) {
  // expected-error@+1 {{'sparse_array.reshape' op the shape holds 42 entries, the source 40}}
  %0 = sparse_array.reshape %a [7, 6] : !A -> !sparse_array.array<7x6xf64>
  return
}

// -----

!A = !sparse_array.array<10x4xf64, #sparse_array.format<[dense, compressed]>>
!T = !sparse_array.array<2x3x4xf64>
!D = !sparse_array.array<?x6xf64>

func.func @reshape_inferred(%a: !A, %t: !T, %d: !D) {
  // expected-error@+1 {{'sparse_array.reshape' op cannot split 40 entries into the shape (not a multiple of 6)}}
  %0 = sparse_array.reshape %a [-1, 6] : !A -> !sparse_array.array<7x6xf64>
  return
}

// -----

!A = !sparse_array.array<10x4xf64, #sparse_array.format<[dense, compressed]>>
!T = !sparse_array.array<2x3x4xf64>
!D = !sparse_array.array<?x6xf64>

func.func @reshape_order(%a: !A, %t: !T, %d: !D) {
  // expected-error@+1 {{'sparse_array.reshape' op order must be "C" or "F", got "c"}}
  %0 = sparse_array.reshape %a [40] order "c" : !A -> !sparse_array.array<40xf64>
  return
}

// -----

!A = !sparse_array.array<10x4xf64, #sparse_array.format<[dense, compressed]>>
!T = !sparse_array.array<2x3x4xf64>
!D = !sparse_array.array<?x6xf64>

func.func @reshape_type(%a: !A, %t: !T, %d: !D) {
  // expected-error@+1 {{'sparse_array.reshape' op result element type 'i1' differs from the source's 'f64'}}
  %0 = sparse_array.reshape %a [40] : !A -> !sparse_array.array<40xi1>
  return
}

// -----

!A = !sparse_array.array<10x4xf64, #sparse_array.format<[dense, compressed]>>
!T = !sparse_array.array<2x3x4xf64>
!D = !sparse_array.array<?x6xf64>

func.func @reshape_shape(%a: !A, %t: !T, %d: !D) {
  // expected-error@+1 {{'sparse_array.reshape' op result shape [60] is not [?]}}
  %0 = sparse_array.reshape %d [-1] : !D -> !sparse_array.array<60xf64>
  return
}

// -----

!X = !sparse_array.array<12xf64>
!Y = !sparse_array.array<4xf64>

func.func @lin_one(%x: !X) {
  %0 = sparse_array.kernel ins(%x : !X) -> !sparse_array.array<3x4xf64> {
  ^bb0(%i: index, %j: index, %a: !X):
    // expected-error@+1 {{'sparse_array.linearize' op needs at least two index variables}}
    %l = sparse_array.linearize %i [] 
    %v = sparse_array.access %a[%l] : !X
    sparse_array.yield %v : f64
  }
  return
}

// -----

!X = !sparse_array.array<12xf64>
!Y = !sparse_array.array<4xf64>

func.func @lin_sizes(%x: !X) {
  %0 = sparse_array.kernel ins(%x : !X) -> !sparse_array.array<3x4xf64> {
  ^bb0(%i: index, %j: index, %a: !X):
    // expected-error@+1 {{'sparse_array.linearize' op needs one size per index variable after the first, got 2 for 2 variables}}
    %l = sparse_array.linearize %i, %j [4, 2]
    %v = sparse_array.access %a[%l] : !X
    sparse_array.yield %v : f64
  }
  return
}

// -----

!X = !sparse_array.array<12xf64>
!Y = !sparse_array.array<4xf64>

func.func @lin_positive(%x: !X) {
  %0 = sparse_array.kernel ins(%x : !X) -> !sparse_array.array<3x4xf64> {
  ^bb0(%i: index, %j: index, %a: !X):
    // expected-error@+1 {{'sparse_array.linearize' op sizes must be positive, got 0}}
    %l = sparse_array.linearize %i, %j [0]
    %v = sparse_array.access %a[%l] : !X
    sparse_array.yield %v : f64
  }
  return
}

// -----

!X = !sparse_array.array<12xf64>
!Y = !sparse_array.array<4xf64>

func.func @lin_twice(%x: !X) {
  %0 = sparse_array.kernel ins(%x : !X) -> !sparse_array.array<3x4xf64> {
  ^bb0(%i: index, %j: index, %a: !X):
    // expected-error@+1 {{'sparse_array.linearize' op linearizes index variable 0 twice}}
    %l = sparse_array.linearize %i, %i [4]
    %v = sparse_array.access %a[%l] : !X
    sparse_array.yield %v : f64
  }
  return
}

// -----

!X = !sparse_array.array<12xf64>
!Y = !sparse_array.array<4xf64>

func.func @lin_var(%x: !X) {
  %0 = sparse_array.kernel ins(%x : !X) -> !sparse_array.array<3x4xf64> {
  ^bb0(%i: index, %j: index, %a: !X):
    %c = arith.constant 1 : index
    // expected-error@+1 {{'sparse_array.linearize' op indices must be index variables of the kernel}}
        %l = sparse_array.linearize %c, %j [4]
    %v = sparse_array.access %a[%l] : !X
    sparse_array.yield %v : f64
  }
  return
}

// -----

!X = !sparse_array.array<12xf64>
!Y = !sparse_array.array<4xf64>

func.func @lin_use(%x: !Y) {
  %0 = sparse_array.kernel ins(%x : !Y) -> !sparse_array.array<3x4xf64> {
  ^bb0(%i: index, %j: index, %a: !Y):
    %w = sparse_array.access %a[%j] : !Y
    // expected-error@+1 {{'sparse_array.linearize' op may only be used as the index of a sparse_array.access or sparse_array.delinearize}}
    %l = sparse_array.linearize %i, %j [4]
    %s = sparse_array.select_range %l [1] (%w, %w) : f64, f64 -> f64
    sparse_array.yield %s : f64
  }
  return
}

// -----

!X = !sparse_array.array<12xf64>
!Y = !sparse_array.array<4xf64>

func.func @lin_sliced(%x: !X) {
  %0 = sparse_array.kernel ins(%x : !X) -> !sparse_array.array<3x4xf64> {
  ^bb0(%i: index, %j: index, %a: !X):
    %l = sparse_array.linearize %i, %j [4]
    // expected-error@+1 {{'sparse_array.access' op a linearized index cannot be sliced}}
    %v = "sparse_array.access"(%a, %l) <{slices = array<i64: 0, 12, 1>}> : (!X, index) -> f64
    sparse_array.yield %v : f64
  }
  return
}

// -----

!X = !sparse_array.array<12xf64>
!Y = !sparse_array.array<4xf64>

func.func @lin_multiple(%x: !X) {
  %0 = sparse_array.kernel ins(%x : !X) -> !sparse_array.array<3x4xf64> {
  ^bb0(%i: index, %j: index, %a: !X):
    %l = sparse_array.linearize %i, %j [5]
    // expected-error@+1 {{'sparse_array.access' op dimension 0 of size 12 is not a multiple of the linearized sizes' product 5}}
    %v = sparse_array.access %a[%l] : !X
    sparse_array.yield %v : f64
  }
  return
}

// -----

!M = !sparse_array.array<3x4xf64>

func.func @delin_sizes(%m: !M) {
  %0 = sparse_array.kernel ins(%m : !M) -> !sparse_array.array<12xf64> {
  ^bb0(%x: index, %a: !M):
    // expected-error@+1 {{'sparse_array.delinearize' op needs at least one size (two parts)}}
    %p = sparse_array.delinearize %x [] : index
    %v = sparse_array.access %a[%p, %p] : !M
    sparse_array.yield %v : f64
  }
  return
}

// -----

!M = !sparse_array.array<3x4xf64>

func.func @delin_results(%m: !M) {
  %0 = sparse_array.kernel ins(%m : !M) -> !sparse_array.array<12xf64> {
  ^bb0(%x: index, %a: !M):
    // expected-error@+1 {{'sparse_array.delinearize' op has 3 results for 2 parts}}
    %p:3 = sparse_array.delinearize %x [4] : index, index, index
    %v = sparse_array.access %a[%p#0, %p#1] : !M
    sparse_array.yield %v : f64
  }
  return
}

// -----

!M = !sparse_array.array<3x4xf64>

func.func @delin_positive(%m: !M) {
  %0 = sparse_array.kernel ins(%m : !M) -> !sparse_array.array<12xf64> {
  ^bb0(%x: index, %a: !M):
    // expected-error@+1 {{'sparse_array.delinearize' op sizes must be positive, got 0}}
    %p:2 = sparse_array.delinearize %x [0] : index, index
    %v = sparse_array.access %a[%p#0, %p#1] : !M
    sparse_array.yield %v : f64
  }
  return
}

// -----

!M = !sparse_array.array<3x4xf64>

func.func @delin_var(%m: !M) {
  %0 = sparse_array.kernel ins(%m : !M) -> !sparse_array.array<12xf64> {
  ^bb0(%x: index, %a: !M):
    %c = arith.constant 1 : index
    // expected-error@+1 {{'sparse_array.delinearize' op index must be an index variable of the kernel or a sparse_array.linearize of them}}
    %p:2 = sparse_array.delinearize %c [4] : index, index
    %v = sparse_array.access %a[%p#0, %p#1] : !M
    sparse_array.yield %v : f64
  }
  return
}

// -----

!M = !sparse_array.array<3x4xf64>

func.func @delin_use(%m: !M) {
  %0 = sparse_array.kernel ins(%m : !M) -> !sparse_array.array<12xf64> {
  ^bb0(%x: index, %a: !M):
    %v = sparse_array.access %a[%x, %x] : !M
    // expected-error@+1 {{'sparse_array.delinearize' op may only be used as indices of a sparse_array.access}}
    %p:2 = sparse_array.delinearize %x [4] : index, index
    %s = sparse_array.select_range %p#0 [1] (%v, %v) : f64, f64 -> f64
    sparse_array.yield %s : f64
  }
  return
}

// -----

!M = !sparse_array.array<3x4xf64>

func.func @delin_sliced(%m: !M) {
  %0 = sparse_array.kernel ins(%m : !M) -> !sparse_array.array<12xf64> {
  ^bb0(%x: index, %a: !M):
    %p:2 = sparse_array.delinearize %x [4] : index, index
    // expected-error@+1 {{'sparse_array.access' op a delinearized index cannot be sliced}}
    %v = "sparse_array.access"(%a, %p#0, %p#1) <{slices = array<i64: 0, 3, 1, 0, -1, 0>}> : (!M, index, index) -> f64
    sparse_array.yield %v : f64
  }
  return
}

// -----

!M = !sparse_array.array<3x4xf64>

func.func @delin_part_size(%m: !M) {
  %0 = sparse_array.kernel ins(%m : !M) -> !sparse_array.array<15xf64> {
  ^bb0(%x: index, %a: !M):
    %p:2 = sparse_array.delinearize %x [5] : index, index
    // expected-error@+1 {{'sparse_array.access' op dimension 1 of size 4 is read as delinearized part 1 of size 5}}
    %v = sparse_array.access %a[%p#0, %p#1] : !M
    sparse_array.yield %v : f64
  }
  return
}

// -----

// Linearized coordinates of 2^40 x 2^40 do not fit in 64 bits (the result
// was accepted as `?` before).
!H = !sparse_array.array<1099511627776x1099511627776xf64, #sparse_array.format<[dense, compressed]>>

func.func @collapse_overflow(%h: !H) {
  // expected-error@+1 {{'sparse_array.collapse' op the collapsed dimensions have more than 2^63 entries}}
  %0 = sparse_array.collapse %h [0, 1] : !H -> !sparse_array.array<?xf64, #sparse_array.format<[compressed]>>
  return
}

// -----

!H = !sparse_array.array<1099511627776x1099511627776xf64, #sparse_array.format<[dense, compressed]>>

func.func @reshape_overflow(%h: !H) {
  // expected-error@+1 {{'sparse_array.reshape' op the source's dimensions have more than 2^63 entries}}
  %0 = sparse_array.reshape %h [-1, 4] : !H -> !sparse_array.array<?x4xf64, #sparse_array.format<[dense, compressed]>>
  return
}

// -----

// 2^62 + 2^62 rows wrapped around to the dynamic marker and verified as `?`.
!Q = !sparse_array.array<4611686018427387904x4xf64, #sparse_array.format<[dense, compressed]>>

func.func @concat_overflow(%q: !Q) {
  // expected-error@+1 {{'sparse_array.concat' op the inputs have more than 2^63 entries along dimension 0}}
  %0 = sparse_array.concat %q, %q dim 0 : !Q, !Q -> !sparse_array.array<?x4xf64, #sparse_array.format<[dense, compressed]>>
  return
}

// -----

!M = !sparse_array.array<3x4xf64>

// A collapse read in windows of a split: the split's sizes must divide the
// collapse's 12 coordinates.
func.func @delin_of_lin_sizes(%m: !M) {
  %0 = sparse_array.kernel ins(%m : !M) -> !sparse_array.array<2x5xf64> {
  ^bb0(%i: index, %j: index, %a: !M):
    %l = sparse_array.linearize %i, %j [5]
    %p:2 = sparse_array.delinearize %l [4] : index, index
    // expected-error@+1 {{'sparse_array.access' op reads a collapse of 12 coordinates through a linearize of sizes' product 5}}
    %v = sparse_array.access %a[%p#0, %p#1] : !M
    sparse_array.yield %v : f64
  }
  return
}

// -----

!A = !sparse_array.array<10x4xf64, #sparse_array.format<[dense, compressed]>>
func.func @dynamic_slice_operands(%a: !A, %o: index) {
  // expected-error@+1 {{'sparse_array.dynamic_slice' op needs one offset, size and stride per dimension of the rank-2 source}}
  %0 = sparse_array.dynamic_slice %a[%o] [%o] [%o] : !A -> !sparse_array.array<?xf64>
  return
}

// -----

!A = !sparse_array.array<10x4xf64, #sparse_array.format<[dense, compressed]>>
func.func @dynamic_slice_size(%a: !A, %o: index) {
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  // expected-error@+1 {{'sparse_array.dynamic_slice' op result shape [?, 2] is not [?, 3]}}
  %0 = sparse_array.dynamic_slice %a[%o, %o] [%o, %c3] [%c1, %c1] : !A -> !sparse_array.array<?x2xf64>
  return
}

// -----

!A = !sparse_array.array<10x4xf64, #sparse_array.format<[dense, compressed]>>
func.func @dynamic_slice_element(%a: !A, %o: index) {
  %c1 = arith.constant 1 : index
  // expected-error@+1 {{'sparse_array.dynamic_slice' op result element type 'f32' differs from the source's 'f64'}}
  %0 = sparse_array.dynamic_slice %a[%o, %o] [%o, %o] [%c1, %c1] : !A -> !sparse_array.array<?x?xf32>
  return
}

// -----

// A recorded plan must be one the storage allows (here: the levels are
// not adjacent in C order, so nothing merges; no other plan either).
!csc = !sparse_array.array<4x3xf64, #sparse_array.format<[dense, compressed], order = [1, 0]>>
!v12 = !sparse_array.array<12xf64, #sparse_array.format<[compressed]>>
func.func @plan_not_allowed(%a: !csc) -> !v12 {
  // expected-error@+1 {{'sparse_array.collapse' op is planned #sparse_array.shape_plan<lowering = merge_levels>, which its operands' and result's storage do not allow}}
  %v = sparse_array.collapse %a [0, 1] {plan = #sparse_array.shape_plan<lowering = merge_levels>} : !csc -> !v12
  return %v : !v12
}

// -----

!v12 = !sparse_array.array<12xf64, #sparse_array.format<[compressed]>>
!csr = !sparse_array.array<4x3xf64, #sparse_array.format<[dense, compressed]>>
func.func @plan_wrong_level(%v: !v12) -> !csr {
  // expected-error@+1 {{'sparse_array.split' op is planned #sparse_array.shape_plan<lowering = split_levels, level = 1>, which its operands' and result's storage do not allow (they allow #sparse_array.shape_plan<lowering = split_levels, level = 0>)}}
  %s = sparse_array.split %v dim 0 [4, 3] {plan = #sparse_array.shape_plan<lowering = split_levels, level = 1>} : !v12 -> !csr
  return %s : !csr
}
