// RUN: sa-opt %s --sparse-array-lower-iterators --verify-diagnostics --split-input-file
//
// The row-wise product follows the factors build-lattices recorded
// (`scatter = array<i32: P, Q>`) instead of deciding them again; a plan it
// cannot lower (hand-written: factors swapped, or a product that is not
// stored by rows) is an error naming the factors, not wrong code.

#csr = #sparse_array.format<[dense, compressed], fill = 0 : i64>
sparse_array.func @mul(%x: i64, %y: i64) -> i64 attributes {annihilator = #sparse_array.annihilator<0 : i64>, associative, commutative, identity = #sparse_array.identity<1 : i64>} {
  %r = arith.muli %x, %y : i64
  sparse_array.yield %r : i64
}
sparse_array.func @add(%x: i64, %y: i64) -> i64 attributes {associative, commutative, identity = #sparse_array.identity<0 : i64>} {
  %r = arith.addi %x, %y : i64
  sparse_array.yield %r : i64
}
func.func @swapped(%a: !sparse_array.array<?x?xi64, #csr>, %b: !sparse_array.array<?x?xi64, #csr>) -> !sparse_array.array<?x?xi64, #csr> {
  // expected-error@+1 {{sparse_array.reduce_over is planned to scatter with factors 1 and 0, which do not form a row-wise matrix product}}
  %0 = sparse_array.kernel ins(%a, %b : !sparse_array.array<?x?xi64, #csr>, !sparse_array.array<?x?xi64, #csr>) -> !sparse_array.array<?x?xi64, #csr> attributes {algebra = #sparse_array.algebra<intersect(0, 1)>, fill = #sparse_array.scalar<0 : i64>, lattices = [#sparse_array.lattice<loop 0, present [0, 1], coiterate [], points [{U} produce], merged>, #sparse_array.lattice<loop 1, present [0, 1], coiterate [1], points [{1} produce]>, #sparse_array.lattice<loop 2, present [0, 1], coiterate [0], points [{0} produce]>]} {
  ^bb0(%i: index, %j: index, %k: index, %A: !sparse_array.array<?x?xi64, #csr>, %B: !sparse_array.array<?x?xi64, #csr>):
    %1 = sparse_array.access %A[%i, %k] : !sparse_array.array<?x?xi64, #csr>
    %2 = sparse_array.access %B[%k, %j] : !sparse_array.array<?x?xi64, #csr>
    %3 = sparse_array.apply @mul(%1, %2) : (i64, i64) -> i64
    %4 = sparse_array.reduce_over [%k] %3 with @add {scatter = array<i32: 1, 0>, plan = #sparse_array.reduction<strategy = identity, algebra = #sparse_array.algebra<intersect(0, 1)>, value_fill = #sparse_array.scalar<0 : i64>>} : i64
    sparse_array.yield %4 : i64
  }
  return %0 : !sparse_array.array<?x?xi64, #csr>
}

// -----

#csr = #sparse_array.format<[dense, compressed], fill = 0 : i64>
#dense = #sparse_array.format<[dense, dense], fill = 0 : i64>
sparse_array.func @mul(%x: i64, %y: i64) -> i64 attributes {annihilator = #sparse_array.annihilator<0 : i64>, associative, commutative, identity = #sparse_array.identity<1 : i64>} {
  %r = arith.muli %x, %y : i64
  sparse_array.yield %r : i64
}
sparse_array.func @add(%x: i64, %y: i64) -> i64 attributes {associative, commutative, identity = #sparse_array.identity<0 : i64>} {
  %r = arith.addi %x, %y : i64
  sparse_array.yield %r : i64
}
func.func @dense_factor(%a: !sparse_array.array<?x?xi64, #dense>, %b: !sparse_array.array<?x?xi64, #csr>) -> !sparse_array.array<?x?xi64, #csr> {
  // expected-error@+1 {{sparse_array.reduce_over is planned to scatter with factors 0 and 1, which do not form a row-wise matrix product}}
  %0 = sparse_array.kernel ins(%a, %b : !sparse_array.array<?x?xi64, #dense>, !sparse_array.array<?x?xi64, #csr>) -> !sparse_array.array<?x?xi64, #csr> attributes {algebra = #sparse_array.algebra<intersect(0, 1)>, fill = #sparse_array.scalar<0 : i64>, lattices = [#sparse_array.lattice<loop 0, present [0, 1], coiterate [], points [{U} produce], merged>, #sparse_array.lattice<loop 1, present [0, 1], coiterate [1], points [{1} produce]>, #sparse_array.lattice<loop 2, present [0, 1], coiterate [], points [{U} produce]>]} {
  ^bb0(%i: index, %j: index, %k: index, %A: !sparse_array.array<?x?xi64, #dense>, %B: !sparse_array.array<?x?xi64, #csr>):
    %1 = sparse_array.access %A[%i, %k] : !sparse_array.array<?x?xi64, #dense>
    %2 = sparse_array.access %B[%k, %j] : !sparse_array.array<?x?xi64, #csr>
    %3 = sparse_array.apply @mul(%1, %2) : (i64, i64) -> i64
    %4 = sparse_array.reduce_over [%k] %3 with @add {scatter = array<i32: 0, 1>, plan = #sparse_array.reduction<strategy = identity, algebra = #sparse_array.algebra<intersect(0, 1)>, value_fill = #sparse_array.scalar<0 : i64>>} : i64
    sparse_array.yield %4 : i64
  }
  return %0 : !sparse_array.array<?x?xi64, #csr>
}
