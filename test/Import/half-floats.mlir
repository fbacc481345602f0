// RUN: sa-run %s | FileCheck %s
//
// f16 and bf16 element types through the importer: each operation rounds
// to the element type as the dense program does (bf16 arithmetic runs in
// f32 and rounds back, exact since f32 holds more than twice bf16's
// precision). Worked out by hand: bf16 keeps 8 significant bits, so
// 1 + 2^-8 and 256 + 1 are ties that round to even (1 and 256); f16 keeps
// 11, so both sums are exact (1.00390625 and 257).

#CSR = #sparse_tensor.encoding<{ map = (d0, d1) -> (d0 : dense, d1 : compressed) }>
#add = { indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"] }

// CHECK:      values : ( 1, 256 )
// CHECK:      values : ( 1.00391, 257 )
func.func @main() {
  %a = arith.constant dense<[[1.0, 0.0], [0.0, 256.0]]> : tensor<2x2xbf16>
  %b = arith.constant dense<[[0.00390625, 0.0], [0.0, 1.0]]> : tensor<2x2xbf16>
  %r = call @add_bf16(%a, %b) : (tensor<2x2xbf16>, tensor<2x2xbf16>) -> tensor<2x2xbf16, #CSR>
  sparse_tensor.print %r : tensor<2x2xbf16, #CSR>
  %c = arith.constant dense<[[1.0, 0.0], [0.0, 256.0]]> : tensor<2x2xf16>
  %d = arith.constant dense<[[0.00390625, 0.0], [0.0, 1.0]]> : tensor<2x2xf16>
  %s = call @add_f16(%c, %d) : (tensor<2x2xf16>, tensor<2x2xf16>) -> tensor<2x2xf16, #CSR>
  sparse_tensor.print %s : tensor<2x2xf16, #CSR>
  return
}

func.func @add_bf16(%x: tensor<2x2xbf16>, %y: tensor<2x2xbf16>) -> tensor<2x2xbf16, #CSR> {
  %xs = sparse_tensor.convert %x : tensor<2x2xbf16> to tensor<2x2xbf16, #CSR>
  %e = tensor.empty() : tensor<2x2xbf16, #CSR>
  %r = linalg.generic #add ins(%xs, %y : tensor<2x2xbf16, #CSR>, tensor<2x2xbf16>) outs(%e : tensor<2x2xbf16, #CSR>) {
  ^bb0(%p: bf16, %q: bf16, %o: bf16):
    %z = arith.addf %p, %q : bf16
    linalg.yield %z : bf16
  } -> tensor<2x2xbf16, #CSR>
  return %r : tensor<2x2xbf16, #CSR>
}

func.func @add_f16(%x: tensor<2x2xf16>, %y: tensor<2x2xf16>) -> tensor<2x2xf16, #CSR> {
  %xs = sparse_tensor.convert %x : tensor<2x2xf16> to tensor<2x2xf16, #CSR>
  %e = tensor.empty() : tensor<2x2xf16, #CSR>
  %r = linalg.generic #add ins(%xs, %y : tensor<2x2xf16, #CSR>, tensor<2x2xf16>) outs(%e : tensor<2x2xf16, #CSR>) {
  ^bb0(%p: f16, %q: f16, %o: f16):
    %z = arith.addf %p, %q : f16
    linalg.yield %z : f16
  } -> tensor<2x2xf16, #CSR>
  return %r : tensor<2x2xf16, #CSR>
}
