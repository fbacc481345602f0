// RUN: sa-run %s | FileCheck %s
//
// 8- and 16-bit position and coordinate widths: held in 32 bits, converted
// where the program sees the buffers. The CSR matrix [[1, 0, 2], [0, 0, 0],
// [0, 3, 0]] assembled from i8 positions and i16 coordinates passed as
// function arguments (widened as they are copied), printed as upstream
// does, multiplied by [1, 10, 100] (hand-computed: [201, 0, 30]), its
// positions read as memref<?xi8>, disassembled into i8/i16 tensors.

#CSR816 = #sparse_tensor.encoding<{ map = (d0, d1) -> (d0 : dense, d1 : compressed), posWidth = 8, crdWidth = 16 }>

// CHECK:      ---- Sparse Tensor ----
// CHECK-NEXT: nse = 3
// CHECK-NEXT: dim = ( 3, 3 )
// CHECK-NEXT: lvl = ( 3, 3 )
// CHECK-NEXT: pos[1] : ( 0, 2, 2, 3 )
// CHECK-NEXT: crd[1] : ( 0, 2, 1 )
// CHECK-NEXT: values : ( 1, 2, 3 )
// CHECK-NEXT: ----
// CHECK-NEXT: ( 201, 0, 30 )
// CHECK-NEXT: 2
// CHECK-NEXT: ( 0, 2, 2, 3 )
// CHECK-NEXT: ( 0, 2, 1 )
func.func @build(%p: tensor<4xi8>, %c: tensor<3xi16>, %v: tensor<3xf64>) -> tensor<3x3xf64, #CSR816> {
  %t = sparse_tensor.assemble (%p, %c), %v : (tensor<4xi8>, tensor<3xi16>), tensor<3xf64> to tensor<3x3xf64, #CSR816>
  return %t : tensor<3x3xf64, #CSR816>
}

#mv = { indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (j)>, affine_map<(i, j) -> (i)>], iterator_types = ["parallel", "reduction"] }

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %p = arith.constant dense<[0, 2, 2, 3]> : tensor<4xi8>
  %c = arith.constant dense<[0, 2, 1]> : tensor<3xi16>
  %v = arith.constant dense<[1.0, 2.0, 3.0]> : tensor<3xf64>
  %t = call @build(%p, %c, %v) : (tensor<4xi8>, tensor<3xi16>, tensor<3xf64>) -> tensor<3x3xf64, #CSR816>
  sparse_tensor.print %t : tensor<3x3xf64, #CSR816>
  %x = arith.constant dense<[1.0, 10.0, 100.0]> : tensor<3xf64>
  %y = arith.constant dense<0.0> : tensor<3xf64>
  %r = linalg.generic #mv ins(%t, %x : tensor<3x3xf64, #CSR816>, tensor<3xf64>) outs(%y : tensor<3xf64>) {
  ^bb0(%a: f64, %b: f64, %o: f64):
    %m = arith.mulf %a, %b : f64
    %s = arith.addf %o, %m : f64
    linalg.yield %s : f64
  } -> tensor<3xf64>
  %m1 = arith.constant -1.0 : f64
  %rv = vector.transfer_read %r[%c0], %m1 : tensor<3xf64>, vector<3xf64>
  vector.print %rv : vector<3xf64>
  %pos = sparse_tensor.positions %t { level = 1 : index } : tensor<3x3xf64, #CSR816> to memref<?xi8>
  %p1 = memref.load %pos[%c1] : memref<?xi8>
  vector.print %p1 : i8
  %op = tensor.empty() : tensor<4xi8>
  %oc = tensor.empty() : tensor<3xi16>
  %ov = tensor.empty() : tensor<3xf64>
  %rp, %rc, %rd, %lp, %lc, %ld = sparse_tensor.disassemble %t : tensor<3x3xf64, #CSR816>
      out_lvls(%op, %oc : tensor<4xi8>, tensor<3xi16>) out_vals(%ov : tensor<3xf64>)
      -> (tensor<4xi8>, tensor<3xi16>), tensor<3xf64>, (i8, i16), index
  %z8 = arith.constant 0 : i8
  %z16 = arith.constant 0 : i16
  %vp = vector.transfer_read %rp[%c0], %z8 : tensor<4xi8>, vector<4xi8>
  vector.print %vp : vector<4xi8>
  %vc = vector.transfer_read %rc[%c0], %z16 : tensor<3xi16>, vector<3xi16>
  vector.print %vc : vector<3xi16>
  bufferization.dealloc_tensor %t : tensor<3x3xf64, #CSR816>
  return
}
