// Single-source shortest paths by Bellman-Ford over the tropical semiring
// (min, +) with fill +inf (seed 000 §8.3), run by `sa-run
// examples/sssp.mlir -- GRAPH.mtx`: distances from vertex 0 along the
// file's edges (i -> j of length |A(i, j)|; no entry: no edge, +inf).
// Prints the number of relaxation rounds, then the distance vector (its
// fill +inf marks the unreachable vertices).
//
//   d'(i) = min(d(i), min_j d(j) + A(j, i))     until d' = d
//
// +inf annihilates the path sum and is the identity of min: each vertex
// relaxes over the intersection of its in-edges and the reached vertices
// only, and the unreached stay implicit.

!g = !sparse_array.array<?x?xf64, #sparse_array.format<[dense, compressed], fill = inf : f64>>
!gT = !sparse_array.array<?x?xf64, #sparse_array.format<[dense, compressed], order = [1, 0], fill = inf : f64>>
!d = !sparse_array.array<?xf64, #sparse_array.format<[compressed], fill = inf : f64>>
!b = !sparse_array.array<?xi1, #sparse_array.format<[compressed]>>
!any = !sparse_array.array<i1>

// x + y, +inf when either is: +inf annihilates exactly (NaN included).
sparse_array.func @path(%x: f64, %y: f64) -> f64
    attributes {commutative, annihilator = #sparse_array.annihilator<inf : f64>} {
  %inf = arith.constant 0x7FF0000000000000 : f64
  %s = arith.addf %x, %y : f64
  %xi = arith.cmpf oeq, %x, %inf : f64
  %yi = arith.cmpf oeq, %y, %inf : f64
  %e = arith.ori %xi, %yi : i1
  %r = arith.select %e, %inf, %s : f64
  sparse_array.yield %r : f64
}
sparse_array.func @abs(%x: f64) -> f64 {
  %r = math.absf %x : f64
  sparse_array.yield %r : f64
}
sparse_array.func @min(%x: f64, %y: f64) -> f64
    attributes {commutative, associative, idempotent,
                identity = #sparse_array.identity<inf : f64>} {
  %r = arith.minimumf %x, %y : f64
  sparse_array.yield %r : f64
}
sparse_array.func @differ(%x: f64, %y: f64) -> i1 {
  %r = arith.cmpf une, %x, %y : f64
  sparse_array.yield %r : i1
}
sparse_array.func @or(%x: i1, %y: i1) -> i1
    attributes {commutative, associative, idempotent,
                annihilator = #sparse_array.annihilator<true>,
                identity = #sparse_array.identity<false>} {
  %r = arith.ori %x, %y : i1
  sparse_array.yield %r : i1
}

func.func private @sa_rt_print_i64(i64)
func.func private @sa_rt_print_str(!llvm.ptr)
func.func private @sa_rt_print_newline()
llvm.mlir.global internal constant @rounds("rounds \00") {addr_space = 0 : i32}

// {0: 0.0} of size n.
func.func @source(%n: index) -> !d {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %z = arith.constant 0 : i64
  %o = arith.constant 1 : i64
  %zero = arith.constant 0.0 : f64
  %p = memref.alloc() : memref<2xi64>
  memref.store %z, %p[%c0] : memref<2xi64>
  memref.store %o, %p[%c1] : memref<2xi64>
  %crd = memref.alloc() : memref<1xi64>
  memref.store %z, %crd[%c0] : memref<1xi64>
  %val = memref.alloc() : memref<1xf64>
  memref.store %zero, %val[%c0] : memref<1xf64>
  %pp = memref.cast %p : memref<2xi64> to memref<?xi64>
  %cc = memref.cast %crd : memref<1xi64> to memref<?xi64>
  %vv = memref.cast %val : memref<1xf64> to memref<?xf64>
  %s = sparse_array.assemble (%pp, %cc, %vv), (%n)
      : memref<?xi64>, memref<?xi64>, memref<?xf64> -> !d
  return %s : !d
}

func.func @main() {
  %c0 = arith.constant 0 : index
  %one = arith.constant 1 : i64
  %zero = arith.constant 0 : i64
  %true = arith.constant true
  %weights = sparse_array.read input %c0 {file_format = "mtx"} : !g
  %a = sparse_array.map @abs(%weights) : (!g) -> !g
  // Relaxing vertex i reads its in-edges: Aᵀ row by row (one conversion).
  %at = sparse_array.convert %a : !g to !gT
  %n = sparse_array.dim %a[0] : !g
  %d0 = func.call @source(%n) : (index) -> !d
  %r:3 = scf.while (%d = %d0, %round = %zero, %go = %true) : (!d, i64, i1) -> (!d, i64, i1) {
    scf.condition(%go) %d, %round, %go : !d, i64, i1
  } do {
  ^bb0(%d: !d, %round: i64, %go: i1):
    %next = sparse_array.kernel ins(%d, %at, %d : !d, !gT, !d) -> !d {
    ^bb0(%i: index, %j: index, %Di: !d, %AT: !gT, %Dj: !d):
      %di = sparse_array.access %Di[%i] : !d
      %w = sparse_array.access %AT[%j, %i] : !gT
      %dj = sparse_array.access %Dj[%j] : !d
      %via = sparse_array.apply @path(%dj, %w) : (f64, f64) -> f64
      %best = sparse_array.reduce_over [%j] %via with @min : f64
      %new = sparse_array.apply @min(%di, %best) : (f64, f64) -> f64
      sparse_array.yield %new : f64
    }
    // Changed anywhere? (an or-reduction that stops at the first change)
    %ch = sparse_array.map @differ(%next, %d) : (!d, !d) -> !b
    %any = sparse_array.reduce @or %ch dims [0] : !b -> !any
    %anyv = sparse_array.values %any : !any -> memref<?xi1>
    %changed = memref.load %anyv[%c0] : memref<?xi1>
    sparse_array.dealloc %ch : !b
    sparse_array.dealloc %any : !any
    sparse_array.dealloc %d : !d
    %round2 = arith.addi %round, %one : i64
    scf.yield %next, %round2, %changed : !d, i64, i1
  }
  %rounds = llvm.mlir.addressof @rounds : !llvm.ptr
  func.call @sa_rt_print_str(%rounds) : (!llvm.ptr) -> ()
  func.call @sa_rt_print_i64(%r#1) : (i64) -> ()
  func.call @sa_rt_print_newline() : () -> ()
  sparse_array.print %r#0 : !d
  sparse_array.dealloc %r#0 : !d
  sparse_array.dealloc %at : !gT
  sparse_array.dealloc %a : !g
  sparse_array.dealloc %weights : !g
  return
}
