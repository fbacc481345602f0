// RUN: sa-opt %s --sparse-array-derive-algebra --sparse-array-lower-iterators --split-input-file -verify-diagnostics
// sparse-array-lower-iterators follows the plan of sparse-array-build-lattices
// and says so when there is none, or none for a loop it reaches.

!sv = !sparse_array.array<?xi64, #sparse_array.format<[compressed]>>
sparse_array.func @add(%x: i64, %y: i64) -> i64
    attributes {commutative, identity = #sparse_array.identity<0 : i64>} {
  %r = arith.addi %x, %y : i64
  sparse_array.yield %r : i64
}
func.func @no_plan(%a: !sv, %b: !sv) -> !sv {
  // expected-error@+1 {{kernel has no coiteration lattices; run --sparse-array-build-lattices first}}
  %r = sparse_array.kernel ins(%a, %b : !sv, !sv) -> !sv {
  ^bb0(%i: index, %A: !sv, %B: !sv):
    %x = sparse_array.access %A[%i] : !sv
    %y = sparse_array.access %B[%i] : !sv
    %s = sparse_array.apply @add(%x, %y) : (i64, i64) -> i64
    sparse_array.yield %s : i64
  }
  return %r : !sv
}

// -----

!sv = !sparse_array.array<?xi64, #sparse_array.format<[compressed]>>
sparse_array.func @add(%x: i64, %y: i64) -> i64
    attributes {commutative, identity = #sparse_array.identity<0 : i64>} {
  %r = arith.addi %x, %y : i64
  sparse_array.yield %r : i64
}
// A plan that coiterates only input 0, although both inputs are compressed.
func.func @plan_disagrees(%a: !sv, %b: !sv) -> !sv {
  // expected-error@+1 {{kernel has no lattice for loop 0 with inputs [0, 1] coiterated; run --sparse-array-build-lattices}}
  %r = sparse_array.kernel ins(%a, %b : !sv, !sv) -> !sv attributes {
      lattices = [#sparse_array.lattice<loop 0, present [0, 1], coiterate [0], points [{0} produce]>]} {
  ^bb0(%i: index, %A: !sv, %B: !sv):
    %x = sparse_array.access %A[%i] : !sv
    %y = sparse_array.access %B[%i] : !sv
    %s = sparse_array.apply @add(%x, %y) : (i64, i64) -> i64
    sparse_array.yield %s : i64
  }
  return %r : !sv
}

// -----

!sv10 = !sparse_array.array<10xi64, #sparse_array.format<[compressed]>>
!sv4 = !sparse_array.array<4xi64, #sparse_array.format<[compressed]>>
// A plan whose view of input 0 is not what its access reads: the lowering
// follows plans, it does not re-decide them, so it says so.
func.func @view_disagrees(%a: !sv10) -> !sv4 {
  // expected-error@+1 {{the plan of loop 0 iterates input 0 as slice(s0, 0, 8, 2), but its access reads slice(s0, 1, 9, 2)}}
  %r = sparse_array.kernel ins(%a : !sv10) -> !sv4 attributes {
      lattices = [#sparse_array.lattice<loop 0, present [0], coiterate [0], points [{0} produce], sequence "slice(s0, 0, 8, 2)">]} {
  ^bb0(%i: index, %A: !sv10):
    %x = sparse_array.access %A[%i(1:9:2)] : !sv10
    sparse_array.yield %x : i64
  }
  return %r : !sv4
}

// -----

!dv = !sparse_array.array<?xi64>
!sv = !sparse_array.array<?xi64, #sparse_array.format<[compressed]>>
sparse_array.func @add(%x: i64, %y: i64) -> i64
    attributes {commutative, identity = #sparse_array.identity<0 : i64>} {
  %r = arith.addi %x, %y : i64
  sparse_array.yield %r : i64
}
// A hand-written parallel plan for a loop that appends to a sparse result
// (its buffers and counts are carried from one iteration to the next).
func.func @parallel_plan_disagrees(%a: !dv, %b: !dv) -> !sv {
  // expected-error@+1 {{kernel is planned parallel, but its outermost loop carries}}
  %r = sparse_array.kernel ins(%a, %b : !dv, !dv) -> !sv attributes {
      lattices = [#sparse_array.lattice<loop 0, present [0, 1], coiterate [], points [{U} produce]>],
      parallel = #sparse_array.parallel<"outer", min_extent = 1>} {
  ^bb0(%i: index, %A: !dv, %B: !dv):
    %x = sparse_array.access %A[%i] : !dv
    %y = sparse_array.access %B[%i] : !dv
    %s = sparse_array.apply @add(%x, %y) : (i64, i64) -> i64
    sparse_array.yield %s : i64
  }
  return %r : !sv
}

// -----

!sv = !sparse_array.array<?xi64, #sparse_array.format<[compressed]>>
sparse_array.func @add(%x: i64, %y: i64) -> i64
    attributes {commutative, identity = #sparse_array.identity<0 : i64>} {
  %r = arith.addi %x, %y : i64
  sparse_array.yield %r : i64
}
// A hand-written plan assembling in parts a vector whose loop coiterates
// two stored ones.
func.func @parallel_plan_coiterates(%a: !sv, %b: !sv) -> !sv {
  // expected-error@+1 {{kernel is planned parallel, but its outermost loop coiterates stored levels}}
  %r = sparse_array.kernel ins(%a, %b : !sv, !sv) -> !sv attributes {
      lattices = [#sparse_array.lattice<loop 0, present [0, 1], coiterate [0, 1], points [{0, 1} produce, {0} produce, {1} produce]>],
      parallel = #sparse_array.parallel<"outer", min_extent = 1, parts>} {
  ^bb0(%i: index, %A: !sv, %B: !sv):
    %x = sparse_array.access %A[%i] : !sv
    %y = sparse_array.access %B[%i] : !sv
    %s = sparse_array.apply @add(%x, %y) : (i64, i64) -> i64
    sparse_array.yield %s : i64
  }
  return %r : !sv
}

// -----

!sv = !sparse_array.array<?xi64, #sparse_array.format<[compressed]>>
!dv = !sparse_array.array<?xi64>
sparse_array.func @add(%x: i64, %y: i64) -> i64
    attributes {commutative, identity = #sparse_array.identity<0 : i64>} {
  %r = arith.addi %x, %y : i64
  sparse_array.yield %r : i64
}
// Ranges cut at input 1's coordinates, which the loop does not coiterate
// (a dense vector is located).
func.func @parallel_ranges_not_coiterated(%a: !sv, %b: !sv) -> !dv {
  // expected-error@+1 {{kernel is planned parallel over ranges cut at input 1's coordinates, but its outermost loop does not coiterate that input}}
  %r = sparse_array.kernel ins(%a, %b : !sv, !sv) -> !dv attributes {
      lattices = [#sparse_array.lattice<loop 0, present [0, 1], coiterate [0], points [{0} produce]>],
      parallel = #sparse_array.parallel<"ranges", min_extent = 1, balance = 1>} {
  ^bb0(%i: index, %A: !sv, %B: !sv):
    %x = sparse_array.access %A[%i] : !sv
    %y = sparse_array.access %B[%i] : !sv
    %s = sparse_array.apply @add(%x, %y) : (i64, i64) -> i64
    sparse_array.yield %s : i64
  }
  return %r : !dv
}

// -----

!sv10 = !sparse_array.array<10xi64, #sparse_array.format<[compressed]>>
!sv4 = !sparse_array.array<4xi64, #sparse_array.format<[compressed]>>
!dv4 = !sparse_array.array<4xi64>
sparse_array.func @add(%x: i64, %y: i64) -> i64
    attributes {commutative, identity = #sparse_array.identity<0 : i64>} {
  %r = arith.addi %x, %y : i64
  sparse_array.yield %r : i64
}
// Ranges over a view that is not the input as stored (a strided slice).
func.func @parallel_ranges_view(%a: !sv10, %b: !sv4) -> !dv4 {
  // expected-error@+1 {{kernel is planned parallel over ranges of stored coordinates, but its outermost loop iterates input 0 as slice(s0, 1, 9, 2)}}
  %r = sparse_array.kernel ins(%a, %b : !sv10, !sv4) -> !dv4 attributes {
      lattices = [#sparse_array.lattice<loop 0, present [0, 1], coiterate [0, 1], points [{0, 1} produce], sequence "intersect(slice(s0, 1, 9, 2), s1)">],
      parallel = #sparse_array.parallel<"ranges", min_extent = 1, balance = 1>} {
  ^bb0(%i: index, %A: !sv10, %B: !sv4):
    %x = sparse_array.access %A[%i(1:9:2)] : !sv10
    %y = sparse_array.access %B[%i] : !sv4
    %s = sparse_array.apply @add(%x, %y) : (i64, i64) -> i64
    sparse_array.yield %s : i64
  }
  return %r : !dv4
}

// -----

!sv = !sparse_array.array<?xi64, #sparse_array.format<[compressed]>>
!uv = !sparse_array.array<?xi64, #sparse_array.format<[compressed(nonordered)]>>
!dv = !sparse_array.array<?xi64>
sparse_array.func @add(%x: i64, %y: i64) -> i64
    attributes {commutative, identity = #sparse_array.identity<0 : i64>} {
  %r = arith.addi %x, %y : i64
  sparse_array.yield %r : i64
}
// Ranges narrowed by bisection need ordered levels.
func.func @parallel_ranges_unordered(%a: !sv, %b: !uv) -> !dv {
  // expected-error@+1 {{kernel is planned parallel over ranges of stored coordinates, but input 1's outermost iterated level is not ordered}}
  %r = sparse_array.kernel ins(%a, %b : !sv, !uv) -> !dv attributes {
      lattices = [#sparse_array.lattice<loop 0, present [0, 1], coiterate [0, 1], points [{0, 1} produce]>],
      parallel = #sparse_array.parallel<"ranges", min_extent = 1, balance = 0>} {
  ^bb0(%i: index, %A: !sv, %B: !uv):
    %x = sparse_array.access %A[%i] : !sv
    %y = sparse_array.access %B[%i] : !uv
    %s = sparse_array.apply @add(%x, %y) : (i64, i64) -> i64
    sparse_array.yield %s : i64
  }
  return %r : !dv
}
