// A program whose function @exp would capture math.exp's call of libm's
// exp (it crashed before sparse-array-check-symbols).
#sv = #sparse_array.format<[compressed]>
sparse_array.func @e(%x: f64) -> f64 {
  %y = math.exp %x : f64
  sparse_array.yield %y : f64
}
func.func @exp(%a: !sparse_array.array<8xf64, #sv>) -> !sparse_array.array<8xf64> {
  %r = sparse_array.map @e(%a) : (!sparse_array.array<8xf64, #sv>) -> !sparse_array.array<8xf64>
  return %r : !sparse_array.array<8xf64>
}
func.func @main() {
  %c = sparse_array.constant dense<[1.0, 0.0, 0.0, 2.0, 0.0, -3.0, 0.0, 4.0]> : tensor<8xf64> : !sparse_array.array<8xf64, #sv>
  %r = func.call @exp(%c) : (!sparse_array.array<8xf64, #sv>) -> !sparse_array.array<8xf64>
  sparse_array.print %r : !sparse_array.array<8xf64>
  return
}
