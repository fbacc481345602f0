// REQUIRES: mlir-sparsifier
// RUN: sa-run --shared-libs=%mlir_c_runner_utils,%mlir_runner_utils %s > %t.sa
// RUN: mlir-opt %s --sparsifier | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_c_runner_utils,%mlir_runner_utils > %t.up
// RUN: sed 's/base@ = 0x[0-9a-f]*/base@ = ADDR/' %t.sa > %t.sa.txt
// RUN: sed 's/base@ = 0x[0-9a-f]*/base@ = ADDR/' %t.up > %t.up.txt
// RUN: diff %t.sa.txt %t.up.txt
// RUN: FileCheck %s < %t.sa
//
// Imported programs print what upstream's programs print, character for
// character (the diff above): sparse_tensor.print's storage text for a COO
// whose coordinates upstream keeps as an array of structures (printed
// interleaved at its first level), a structure-of-arrays COO with 32-bit
// buffers, CSC (levels in storage order), an all-dense encoding and an i8
// CSR; floats with printf's %g (six significant digits); a dense tensor
// cast to an unranked one for the runner library's printMemrefF64; the
// values, positions and coordinates of a tensor as memrefs.
//
// CHECK:      ---- Sparse Tensor ----
// CHECK-NEXT: nse = 5
// CHECK-NEXT: dim = ( 3, 3 )
// CHECK-NEXT: lvl = ( 3, 3 )
// CHECK-NEXT: pos[0] : ( 0, 5 )
// CHECK-NEXT: crd[0] : ( 0, 0, 0, 2, 1, 0, 2, 1, 2, 2 )
// CHECK-NEXT: values : ( 0.333333, 1e-07, 1e+20, 1.23457e+08, 2.5 )
// CHECK-NEXT: ----
// CHECK:      pos[0] : ( 0, 5 )
// CHECK-NEXT: crd[0] : ( 0, 0, 1, 2, 2 )
// CHECK-NEXT: crd[1] : ( 0, 2, 0, 1, 2 )
// CHECK:      lvl = ( 3, 3 )
// CHECK-NEXT: pos[1] : ( 0, 2, 3, 5 )
// CHECK-NEXT: crd[1] : ( 0, 1, 2, 0, 2 )
// CHECK-NEXT: values : ( 0.333333, 1e+20, 1.23457e+08, 1e-07, 2.5 )
// CHECK:      nse = 9
// CHECK:      values : ( 0.333333, 0, 1e-07, 1e+20, 0, 0, 0, 1.23457e+08, 2.5 )
// CHECK:      nse = 3
// CHECK:      values : ( 1, -3, 4 )
// CHECK:      Unranked Memref base@ = {{.*}} rank = 2 offset = 0 sizes = [3, 3] strides = [3, 1] data =
// CHECK-NEXT: {{\[}}[1, 0, -3],
// CHECK-NEXT: [0, 0, 4],
// CHECK-NEXT: [0, 0, 0]]
// CHECK:      [0.333333,  1e+20,  1.23457e+08,  1e-07,  2.5]
// CHECK-NEXT: ( 0, 2, 3, 5 )
// CHECK-NEXT: ( 0, 1, 2, 0, 2 )
// CHECK-NEXT: 0.1
// CHECK-NEXT: 1e-10
// CHECK-NEXT: -inf

#COO = #sparse_tensor.encoding<{ map = (d0, d1) -> (d0 : compressed(nonunique), d1 : singleton) }>
#COOS = #sparse_tensor.encoding<{ map = (d0, d1) -> (d0 : compressed(nonunique), d1 : singleton(soa)), posWidth = 32, crdWidth = 32 }>
#CSR = #sparse_tensor.encoding<{ map = (d0, d1) -> (d0 : dense, d1 : compressed) }>
#CSC = #sparse_tensor.encoding<{ map = (d0, d1) -> (d1 : dense, d0 : compressed) }>
#DD = #sparse_tensor.encoding<{ map = (d0, d1) -> (d0 : dense, d1 : dense) }>

func.func private @printMemrefF64(%ptr : tensor<*xf64>)
func.func private @printMemref1dF64(%ptr : memref<?xf64>) attributes { llvm.emit_c_interface }

func.func @main() {
  %d = arith.constant dense<[[0.333333333333, 0.0, 1.0e-7], [1.0e20, 0.0, 0.0], [0.0, 123456789.0, 2.5]]> : tensor<3x3xf64>
  %a = sparse_tensor.convert %d : tensor<3x3xf64> to tensor<3x3xf64, #COO>
  %b = sparse_tensor.convert %d : tensor<3x3xf64> to tensor<3x3xf64, #COOS>
  %c = sparse_tensor.convert %d : tensor<3x3xf64> to tensor<3x3xf64, #CSC>
  %e = sparse_tensor.convert %d : tensor<3x3xf64> to tensor<3x3xf64, #DD>
  %di = arith.constant dense<[[1, 0, -3], [0, 0, 4], [0, 0, 0]]> : tensor<3x3xi8>
  %f = sparse_tensor.convert %di : tensor<3x3xi8> to tensor<3x3xi8, #CSR>
  sparse_tensor.print %a : tensor<3x3xf64, #COO>
  sparse_tensor.print %b : tensor<3x3xf64, #COOS>
  sparse_tensor.print %c : tensor<3x3xf64, #CSC>
  sparse_tensor.print %e : tensor<3x3xf64, #DD>
  sparse_tensor.print %f : tensor<3x3xi8, #CSR>
  %df = arith.constant dense<[[1.0, 0.0, -3.0], [0.0, 0.0, 4.0], [0.0, 0.0, 0.0]]> : tensor<3x3xf64>
  %u = tensor.cast %df : tensor<3x3xf64> to tensor<*xf64>
  call @printMemrefF64(%u) : (tensor<*xf64>) -> ()
  %vals = sparse_tensor.values %c : tensor<3x3xf64, #CSC> to memref<?xf64>
  call @printMemref1dF64(%vals) : (memref<?xf64>) -> ()
  %pos = sparse_tensor.positions %c { level = 1 : index } : tensor<3x3xf64, #CSC> to memref<?xindex>
  %crd = sparse_tensor.coordinates %c { level = 1 : index } : tensor<3x3xf64, #CSC> to memref<?xindex>
  %c0 = arith.constant 0 : index
  %i0 = arith.constant 0 : index
  %pv = vector.transfer_read %pos[%c0], %i0 : memref<?xindex>, vector<4xindex>
  vector.print %pv : vector<4xindex>
  %cv = vector.transfer_read %crd[%c0], %i0 : memref<?xindex>, vector<5xindex>
  vector.print %cv : vector<5xindex>
  %x = arith.constant 0.1 : f32
  vector.print %x : f32
  %y = arith.constant 1.0e-10 : f64
  vector.print %y : f64
  %inf = arith.constant 0xFFF0000000000000 : f64
  vector.print %inf : f64
  bufferization.dealloc_tensor %a : tensor<3x3xf64, #COO>
  bufferization.dealloc_tensor %b : tensor<3x3xf64, #COOS>
  bufferization.dealloc_tensor %c : tensor<3x3xf64, #CSC>
  bufferization.dealloc_tensor %e : tensor<3x3xf64, #DD>
  bufferization.dealloc_tensor %f : tensor<3x3xi8, #CSR>
  return
}
