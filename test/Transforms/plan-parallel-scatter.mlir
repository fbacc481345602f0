// RUN: sa-opt %s --sparse-array-plan-parallel | FileCheck %s
// Scatter reductions planned by hand (strategy and lattices given): the
// plan of their loops alone.

sparse_array.func @add_signed(%x: f64, %y: f64) -> f64 attributes {commutative, associative, identity = #sparse_array.identity<-0.0 : f64>} {
  %r = arith.addf %x, %y : f64
  sparse_array.yield %r : f64
}
!csr = !sparse_array.array<?x?xf64, #sparse_array.format<[dense, compressed]>>
!dv = !sparse_array.array<?xf64>

// signed_zero_sum logs the entries of its -0.0 points in one buffer the
// loops carry: no parts.
// CHECK-LABEL: func.func @signed_zero(
// CHECK: parallel = #sparse_array.parallel<"none", reason = "scatter reduction: signed_zero_sum logs its -0.0 points in one buffer">
func.func @signed_zero(%a: !csr) -> !dv {
  %y = sparse_array.kernel ins(%a : !csr) -> !dv attributes {algebra = #sparse_array.algebra<0>, fill = #sparse_array.scalar<0.0 : f64>, lattices = [#sparse_array.lattice<loop 0, present [0], coiterate [], points [{U} produce], merged>, #sparse_array.lattice<loop 1, present [0], coiterate [0], points [{0} produce]>]} {
  ^bb0(%j: index, %i: index, %A: !csr):
    %aij = sparse_array.access %A[%i, %j] : !csr
    %s = sparse_array.reduce_over [%i] %aij with @add_signed {scatter_loops = array<i32: 1, 0>, plan = #sparse_array.reduction<strategy = signed_zero_sum, algebra = #sparse_array.algebra<0>, value_fill = #sparse_array.scalar<0.0 : f64>>} : f64
    sparse_array.yield %s : f64
  }
  return %y : !dv
}

// The same with the identity strategy: the rows in parts, each adding
// into sums of its own.
// CHECK-LABEL: func.func @identity(
// CHECK: parallel = #sparse_array.parallel<"outer", min_extent = 256, min_work = 32768, balance = 0, parts>
func.func @identity(%a: !csr) -> !dv {
  %y = sparse_array.kernel ins(%a : !csr) -> !dv attributes {algebra = #sparse_array.algebra<0>, fill = #sparse_array.scalar<0.0 : f64>, lattices = [#sparse_array.lattice<loop 0, present [0], coiterate [], points [{U} produce], merged>, #sparse_array.lattice<loop 1, present [0], coiterate [0], points [{0} produce]>]} {
  ^bb0(%j: index, %i: index, %A: !csr):
    %aij = sparse_array.access %A[%i, %j] : !csr
    %s = sparse_array.reduce_over [%i] %aij with @add_signed {scatter_loops = array<i32: 1, 0>, plan = #sparse_array.reduction<strategy = identity, algebra = #sparse_array.algebra<0>>} : f64
    sparse_array.yield %s : f64
  }
  return %y : !dv
}
