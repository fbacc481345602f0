// Power iteration on a graph, the kernels' rows shared out among OpenMP
// threads: run by `sa-run [--num-threads N] examples/power-iteration.mlir
// -- GRAPH.mtx`. From x = 1, repeats
//
//   y(i) = sum_j A(i, j) x(j)       (SpMV over the stored edges: its rows run
//                                     in parallel, in parts of equal edges)
//   x    = y / (sum_i y(i))         (the sum in parts added in order, plus
//                                     being declared associative; the map
//                                     into a dense vector: parallel)
//
// 200 times (sparse-array-plan-parallel decides which loops are parallel;
// `sa-opt --sparse-array-pipeline` shows them as omp.wsloop), then prints
// the seconds the iterations took and the first entries of x.

!g = !sparse_array.array<?x?xf64, #sparse_array.format<[dense, compressed]>>
!v = !sparse_array.array<?xf64>
!s = !sparse_array.array<f64>

// Finite-math (+, ×): implicit entries are not visited.
sparse_array.func @plus(%x: f64, %y: f64) -> f64 attributes {commutative, associative,
    identity = #sparse_array.identity<0.0 : f64>} {
  %r = arith.addf %x, %y : f64
  sparse_array.yield %r : f64
}
sparse_array.func @times(%x: f64, %y: f64) -> f64 attributes {commutative,
    annihilator = #sparse_array.annihilator<0.0 : f64>} {
  %r = arith.mulf %x, %y : f64
  sparse_array.yield %r : f64
}
sparse_array.func @over(%x: f64, %y: f64) -> f64 {
  %r = arith.divf %x, %y : f64
  sparse_array.yield %r : f64
}
sparse_array.func @one(%x: f64) -> f64 {
  %r = arith.constant 1.0 : f64
  sparse_array.yield %r : f64
}

func.func private @sa_rt_seconds() -> f64
func.func private @sa_rt_print_f64(f64)
func.func private @sa_rt_print_newline()

func.func @step(%a: !g, %x: !v) -> !v {
  %y = sparse_array.kernel ins(%a, %x : !g, !v) -> !v {
  ^bb0(%i: index, %j: index, %A: !g, %X: !v):
    %aij = sparse_array.access %A[%i, %j] : !g
    %xj = sparse_array.access %X[%j] : !v
    %p = sparse_array.apply @times(%aij, %xj) : (f64, f64) -> f64
    %s = sparse_array.reduce_over [%j] %p with @plus : f64
    sparse_array.yield %s : f64
  }
  %t = sparse_array.reduce @plus %y dims [0] : !v -> !s
  %n = sparse_array.map @over(%y, %t) : (!v, !s) -> !v
  sparse_array.dealloc %y : !v
  sparse_array.dealloc %t : !s
  return %n : !v
}

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c200 = arith.constant 200 : index
  %a = sparse_array.read input %c0 {file_format = "mtx"} : !g
  %rows = sparse_array.reduce @plus %a dims [1] : !g -> !v
  %x0 = sparse_array.map @one(%rows) : (!v) -> !v
  %t0 = func.call @sa_rt_seconds() : () -> f64
  %x = scf.for %k = %c0 to %c200 step %c1 iter_args(%x = %x0) -> !v {
    %next = func.call @step(%a, %x) : (!g, !v) -> !v
    sparse_array.dealloc %x : !v
    scf.yield %next : !v
  }
  %t1 = func.call @sa_rt_seconds() : () -> f64
  %dt = arith.subf %t1, %t0 : f64
  func.call @sa_rt_print_f64(%dt) : (f64) -> ()
  func.call @sa_rt_print_newline() : () -> ()
  %head = sparse_array.slice %x[0:8] : !v -> !sparse_array.array<8xf64>
  sparse_array.print %head : !sparse_array.array<8xf64>
  return
}
