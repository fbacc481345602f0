// The masked power of seed 000 Fig. 2, A = B^C * not(D), written with
// array-level maps over matrices whose implicit entries are 0, and the
// result compressed at 1 (b^0 * not(0) = 1 everywhere outside B ∪ C ∪ D).
//
//   sa-opt examples/masked-power.mlir --sparse-array-fuse \
//       --sparse-array-derive-algebra=emit-remarks
//
// fuses the three maps into one kernel and derives that only B ∪ C ∪ D
// needs computing, with every other entry equal to 1.

#csr = #sparse_array.format<[dense, compressed]>
#csr1 = #sparse_array.format<[dense, compressed], fill = 1.0 : f64>

sparse_array.func @pow(%x: f64, %y: f64) -> f64
    attributes {identity = #sparse_array.identity<1.0 : f64, positions = [1]>} {
  %r = math.powf %x, %y : f64
  sparse_array.yield %r : f64
}
sparse_array.func @not(%x: f64) -> f64 {
  %zero = arith.constant 0.0 : f64
  %one = arith.constant 1.0 : f64
  %isZero = arith.cmpf oeq, %x, %zero : f64
  %r = arith.select %isZero, %one, %zero : f64
  sparse_array.yield %r : f64
}
sparse_array.func @mul(%x: f64, %y: f64) -> f64
    attributes {commutative, identity = #sparse_array.identity<1.0 : f64>} {
  %r = arith.mulf %x, %y : f64
  sparse_array.yield %r : f64
}

func.func @masked_power(%B: !sparse_array.array<?x?xf64, #csr>,
                        %C: !sparse_array.array<?x?xf64, #csr>,
                        %D: !sparse_array.array<?x?xf64, #csr>)
    -> !sparse_array.array<?x?xf64, #csr1> {
  %p = sparse_array.map @pow(%B, %C)
      : (!sparse_array.array<?x?xf64, #csr>, !sparse_array.array<?x?xf64, #csr>)
      -> !sparse_array.array<?x?xf64, #csr1>
  %n = sparse_array.map @not(%D)
      : (!sparse_array.array<?x?xf64, #csr>) -> !sparse_array.array<?x?xf64, #csr1>
  %a = sparse_array.map @mul(%p, %n)
      : (!sparse_array.array<?x?xf64, #csr1>, !sparse_array.array<?x?xf64, #csr1>)
      -> !sparse_array.array<?x?xf64, #csr1>
  return %a : !sparse_array.array<?x?xf64, #csr1>
}
