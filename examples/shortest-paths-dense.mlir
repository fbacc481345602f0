// All-pairs shortest paths with the (min, +) semiring on a small generated
// road graph, dense, run by `sa-run`. The distance matrix starts at +inf
// everywhere but the diagonal and the edges: +inf is the fill value of
// shortest paths (the identity of min and the annihilator of +). Rows of a
// relaxation step run in parallel through OpenMP.
//
// This is the dense baseline that the sparse pipeline (fill = inf, iteration
// space derived from the properties of min and +) will compile from the same
// program once the lattice and lowering stages land.

func.func private @sa_rt_print_f64(f64)
func.func private @sa_rt_print_str(!llvm.ptr)
func.func private @sa_rt_print_newline()

llvm.mlir.global internal constant @sep(" \00") {addr_space = 0 : i32}

func.func @main() -> i32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = arith.constant 8 : index
  %zero = arith.constant 0.0 : f64
  %inf = arith.constant 0x7FF0000000000000 : f64
  %d = memref.alloc(%n, %n) : memref<?x?xf64>

  // Generate the graph: a ring i -> i+1 of length 1 + (i mod 3), and a
  // shortcut i -> i+3 of length 4 on even nodes. No other edges: +inf.
  scf.for %i = %c0 to %n step %c1 {
    scf.for %j = %c0 to %n step %c1 {
      memref.store %inf, %d[%i, %j] : memref<?x?xf64>
    }
    memref.store %zero, %d[%i, %i] : memref<?x?xf64>
    %c3 = arith.constant 3 : index
    %c2 = arith.constant 2 : index
    %next = arith.remui %i, %n : index
    %i1 = arith.addi %i, %c1 : index
    %ring = arith.remui %i1, %n : index
    %m = arith.remui %i, %c3 : index
    %m1 = arith.addi %m, %c1 : index
    %mi = arith.index_cast %m1 : index to i64
    %len = arith.sitofp %mi : i64 to f64
    memref.store %len, %d[%i, %ring] : memref<?x?xf64>
    %parity = arith.remui %i, %c2 : index
    %even = arith.cmpi eq, %parity, %c0 : index
    scf.if %even {
      %i3 = arith.addi %i, %c3 : index
      %far = arith.remui %i3, %n : index
      %four = arith.constant 4.0 : f64
      memref.store %four, %d[%i, %far] : memref<?x?xf64>
    }
    %unused = arith.addi %next, %c0 : index
  }

  // Floyd-Warshall: d[i][j] = min(d[i][j], d[i][k] + d[k][j]).
  scf.for %k = %c0 to %n step %c1 {
    scf.parallel (%i) = (%c0) to (%n) step (%c1) {
      %dik = memref.load %d[%i, %k] : memref<?x?xf64>
      scf.for %j = %c0 to %n step %c1 {
        %dkj = memref.load %d[%k, %j] : memref<?x?xf64>
        %dij = memref.load %d[%i, %j] : memref<?x?xf64>
        %via = arith.addf %dik, %dkj : f64
        %best = arith.minimumf %dij, %via : f64
        memref.store %best, %d[%i, %j] : memref<?x?xf64>
      }
      scf.reduce
    }
  }

  %sep = llvm.mlir.addressof @sep : !llvm.ptr
  scf.for %i = %c0 to %n step %c1 {
    scf.for %j = %c0 to %n step %c1 {
      %v = memref.load %d[%i, %j] : memref<?x?xf64>
      func.call @sa_rt_print_f64(%v) : (f64) -> ()
      func.call @sa_rt_print_str(%sep) : (!llvm.ptr) -> ()
    }
    func.call @sa_rt_print_newline() : () -> ()
  }
  memref.dealloc %d : memref<?x?xf64>
  %ok = arith.constant 0 : i32
  return %ok : i32
}
