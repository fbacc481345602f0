// Masked edge detection on an MRI slice (seed 000 §8.4.1), run by
// `sa-run examples/edge-detection.mlir -- IMAGE.mtx ROI.mtx`
// (examples/mri_phantom.py writes a synthetic pair):
//
//   Img_post = (Img_t2 ∧ ROI) ⊕ (Img_t1 ∧ ROI)
//
// where Img_t1 and Img_t2 threshold the grayscale image at 75% and 80% of
// full scale (255): the band of intensities between the two thresholds,
// inside the region of interest. The image's black background is its fill
// 0 and the ROI's outside is false: ∧ has the annihilator false, so the
// fused kernel visits only pixels stored in both, and prints the edge map.

!img = !sparse_array.array<?x?xi64, #sparse_array.format<[dense, compressed]>>
!mask = !sparse_array.array<?x?xi1, #sparse_array.format<[dense, compressed]>>

sparse_array.func @above75(%x: i64) -> i1 {
  %t = arith.constant 192 : i64   // ceil(0.75 * 255)
  %r = arith.cmpi sge, %x, %t : i64
  sparse_array.yield %r : i1
}
sparse_array.func @above80(%x: i64) -> i1 {
  %t = arith.constant 204 : i64   // 0.80 * 255
  %r = arith.cmpi sge, %x, %t : i64
  sparse_array.yield %r : i1
}
sparse_array.func @and(%x: i1, %y: i1) -> i1
    attributes {commutative, associative, idempotent,
                annihilator = #sparse_array.annihilator<false>,
                identity = #sparse_array.identity<true>} {
  %r = arith.andi %x, %y : i1
  sparse_array.yield %r : i1
}
sparse_array.func @xor(%x: i1, %y: i1) -> i1
    attributes {commutative, associative,
                algebra = #sparse_array.algebra<intersect(union(0, 1), complement(intersect(0, 1))),
                                                fills = [false, false]>} {
  %r = arith.xori %x, %y : i1
  sparse_array.yield %r : i1
}

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %image = sparse_array.read input %c0 {file_format = "mtx"} : !img
  %roi = sparse_array.read input %c1 {file_format = "mtx"} : !mask
  %t1 = sparse_array.map @above75(%image) : (!img) -> !mask
  %t2 = sparse_array.map @above80(%image) : (!img) -> !mask
  %m1 = sparse_array.map @and(%t1, %roi) : (!mask, !mask) -> !mask
  %m2 = sparse_array.map @and(%t2, %roi) : (!mask, !mask) -> !mask
  %edges = sparse_array.map @xor(%m2, %m1) : (!mask, !mask) -> !mask
  sparse_array.print %edges : !mask
  sparse_array.dealloc %edges : !mask
  sparse_array.dealloc %roi : !mask
  sparse_array.dealloc %image : !img
  return
}
