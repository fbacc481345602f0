// RUN: sa-opt %s --sparse-array-derive-algebra --sparse-array-build-lattices --sparse-array-lower-iterators -verify-diagnostics
// A hand-written `chained` plan for a CSR result whose entries its inputs'
// do not bound (a row vector added to every row: the result stores up to
// rows x its entries): chained parts allocate the result at that bound
// before the loop, so the lowering refuses the plan.

!csr = !sparse_array.array<?x?xf64, #sparse_array.format<[dense, compressed]>>
!sv = !sparse_array.array<?xf64, #sparse_array.format<[compressed]>>
sparse_array.func @add(%x: f64, %y: f64) -> f64
    attributes {commutative, identity = #sparse_array.identity<0.0 : f64>} {
  %r = arith.addf %x, %y : f64
  sparse_array.yield %r : f64
}
func.func @chained_unbounded(%a: !csr, %v: !sv) -> !csr {
  // expected-error@+1 {{kernel is planned `chained`, but the entries its inputs store do not bound its result's}}
  %r = sparse_array.kernel ins(%a, %v : !csr, !sv) -> !csr attributes {
      parallel = #sparse_array.parallel<"outer", min_extent = 1, balance = 0, parts, chained>} {
  ^bb0(%i: index, %j: index, %A: !csr, %V: !sv):
    %x = sparse_array.access %A[%i, %j] : !csr
    %y = sparse_array.access %V[%j] : !sv
    %s = sparse_array.apply @add(%x, %y) : (f64, f64) -> f64
    sparse_array.yield %s : f64
  }
  return %r : !csr
}
