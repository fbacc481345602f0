// Breadth-first search, push direction, in the language of linear algebra
// (seed 000 §8.3, thesis Fig. 2-1b), run by `sa-run examples/bfs-push.mlir
// -- GRAPH.mtx`. Prints `level vertices` for every level reached from
// vertex 0, then `reached N` (the same as examples/bfs.mlir, the pull
// direction).
//
//   next = mask(¬seen, frontier ∨.∧ A)
//
// The frontier scatters its out-edges: the compiler plans the reduction
// `scatter` (a compressed vector times a CSR matrix: false is the identity
// of ∨ and annihilates ∧, so only stored pairs contribute) and computes it
// row-wise with a dense workspace: for each frontier vertex, its row of A,
// skipping seen vertices (the complemented mask, scattered first). No
// transposed copy of A is needed. An edge is a nonzero weight.

!g = !sparse_array.array<?x?xf64, #sparse_array.format<[dense, compressed]>>
!adj = !sparse_array.array<?x?xi1, #sparse_array.format<[dense, compressed]>>
!v = !sparse_array.array<?xi1, #sparse_array.format<[compressed]>>

sparse_array.func @nonzero(%x: f64) -> i1 {
  %z = arith.constant 0.0 : f64
  %r = arith.cmpf une, %x, %z : f64
  sparse_array.yield %r : i1
}
sparse_array.func @and(%x: i1, %y: i1) -> i1
    attributes {commutative, associative, idempotent,
                annihilator = #sparse_array.annihilator<false>,
                identity = #sparse_array.identity<true>} {
  %r = arith.andi %x, %y : i1
  sparse_array.yield %r : i1
}
sparse_array.func @or(%x: i1, %y: i1) -> i1
    attributes {commutative, associative, idempotent,
                annihilator = #sparse_array.annihilator<true>,
                identity = #sparse_array.identity<false>} {
  %r = arith.ori %x, %y : i1
  sparse_array.yield %r : i1
}
// x where the mask m is not set: a complement in the iteration algebra.
sparse_array.func @keep_unless(%m: i1, %x: i1) -> i1
    attributes {algebra = #sparse_array.algebra<intersect(complement(0), 1),
                                                fills = [false, false]>} {
  %t = arith.constant true
  %n = arith.xori %m, %t : i1
  %r = arith.andi %n, %x : i1
  sparse_array.yield %r : i1
}

func.func private @sa_rt_print_i64(i64)
func.func private @sa_rt_print_str(!llvm.ptr)
func.func private @sa_rt_print_newline()
llvm.mlir.global internal constant @sep(" \00") {addr_space = 0 : i32}
llvm.mlir.global internal constant @reached("reached \00") {addr_space = 0 : i32}

// The vector {0: true} of size n, in fresh buffers.
func.func @source(%n: index) -> !v {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %z = arith.constant 0 : i64
  %o = arith.constant 1 : i64
  %t = arith.constant true
  %p = memref.alloc() : memref<2xi64>
  memref.store %z, %p[%c0] : memref<2xi64>
  memref.store %o, %p[%c1] : memref<2xi64>
  %crd = memref.alloc() : memref<1xi64>
  memref.store %z, %crd[%c0] : memref<1xi64>
  %val = memref.alloc() : memref<1xi1>
  memref.store %t, %val[%c0] : memref<1xi1>
  %pp = memref.cast %p : memref<2xi64> to memref<?xi64>
  %cc = memref.cast %crd : memref<1xi64> to memref<?xi64>
  %vv = memref.cast %val : memref<1xi1> to memref<?xi1>
  %s = sparse_array.assemble (%pp, %cc, %vv), (%n)
      : memref<?xi64>, memref<?xi64>, memref<?xi1> -> !v
  return %s : !v
}

func.func @main() {
  %c0 = arith.constant 0 : index
  %one = arith.constant 1 : i64
  %zero = arith.constant 0 : i64
  %sep = llvm.mlir.addressof @sep : !llvm.ptr
  %g = sparse_array.read input %c0 {file_format = "mtx"} : !g
  %a = sparse_array.map @nonzero(%g) : (!g) -> !adj
  %n = sparse_array.dim %a[0] : !adj
  %f0 = func.call @source(%n) : (index) -> !v
  %s0 = func.call @source(%n) : (index) -> !v
  %r:3 = scf.while (%f = %f0, %seen = %s0, %level = %zero)
      : (!v, !v, i64) -> (!v, !v, i64) {
    %fv = sparse_array.values %f : !v -> memref<?xi1>
    %size = memref.dim %fv, %c0 : memref<?xi1>
    %more = arith.cmpi ugt, %size, %c0 : index
    scf.condition(%more) %f, %seen, %level : !v, !v, i64
  } do {
  ^bb0(%f: !v, %seen: !v, %level: i64):
    %fv = sparse_array.values %f : !v -> memref<?xi1>
    %size = memref.dim %fv, %c0 : memref<?xi1>
    %size64 = arith.index_cast %size : index to i64
    func.call @sa_rt_print_i64(%level) : (i64) -> ()
    func.call @sa_rt_print_str(%sep) : (!llvm.ptr) -> ()
    func.call @sa_rt_print_i64(%size64) : (i64) -> ()
    func.call @sa_rt_print_newline() : () -> ()
    %next = sparse_array.kernel ins(%f, %a, %seen : !v, !adj, !v) -> !v {
    ^bb0(%j: index, %i: index, %F: !v, %A: !adj, %S: !v):
      %fi = sparse_array.access %F[%i] : !v
      %aij = sparse_array.access %A[%i, %j] : !adj
      %hit = sparse_array.apply @and(%fi, %aij) : (i1, i1) -> i1
      %any = sparse_array.reduce_over [%i] %hit with @or : i1
      %sj = sparse_array.access %S[%j] : !v
      %new = sparse_array.apply @keep_unless(%sj, %any) : (i1, i1) -> i1
      sparse_array.yield %new : i1
    }
    %seen2 = sparse_array.map @or(%seen, %next) : (!v, !v) -> !v
    sparse_array.dealloc %f : !v
    sparse_array.dealloc %seen : !v
    %level2 = arith.addi %level, %one : i64
    scf.yield %next, %seen2, %level2 : !v, !v, i64
  }
  %sv = sparse_array.values %r#1 : !v -> memref<?xi1>
  %count = memref.dim %sv, %c0 : memref<?xi1>
  %count64 = arith.index_cast %count : index to i64
  %reached = llvm.mlir.addressof @reached : !llvm.ptr
  func.call @sa_rt_print_str(%reached) : (!llvm.ptr) -> ()
  func.call @sa_rt_print_i64(%count64) : (i64) -> ()
  func.call @sa_rt_print_newline() : () -> ()
  sparse_array.dealloc %r#0 : !v
  sparse_array.dealloc %r#1 : !v
  sparse_array.dealloc %a : !adj
  sparse_array.dealloc %g : !g
  return
}
