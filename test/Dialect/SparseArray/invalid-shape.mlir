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

func.func @slice_negative_step(%a: !A) {
  // expected-error@+1 {{'sparse_array.slice' op negative slice steps (a reversal) are not supported yet (dimension 0)}}
  %0 = sparse_array.slice %a[::-1] : !A -> !A
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
  // expected-error@+1 {{'sparse_array.slice' op result shape [5, 4] is not the slice's [4, 4]}}
  %0 = sparse_array.slice %a[1:9:2] : !A -> !sparse_array.array<5x4xf64>
  return
}
