// RUN: sa-run %s | FileCheck %s
//
// Conversions that change the element type (f64 -> f32 rounding, i32 ->
// f64, f64 -> i32 truncating toward zero, i1 -> i64), tensor.reshape with
// a static and a constant-shaped result, and expand_shape whose sizes are
// known only at run time, in upstream's text (upstream's --sparsifier
// lowers none of these element conversions between two sparse formats:
// "failed to legalize operation 'sparse_tensor.convert'"); the values
// below computed by hand from the inputs.
//
// CHECK:      values : ( 0.1, 2.5, -3 )
// CHECK:      values : ( 1, -7, 65536 )
// CHECK:      values : ( 2, -3, 1 )
// CHECK:      values : ( 1, 1 )
// CHECK:      dim = ( 2, 6 )
// CHECK:      pos[1] : ( 0, 2, 4 )
// CHECK-NEXT: crd[1] : ( 0, 4, 1, 5 )
// CHECK:      dim = ( 3, 2, 2 )
// CHECK:      crd[2] : ( 0, 0, 1, 1 )

#CSR = #sparse_tensor.encoding<{ map = (d0, d1) -> (d0 : dense, d1 : compressed) }>
#DCSR = #sparse_tensor.encoding<{ map = (d0, d1) -> (d0 : compressed, d1 : compressed) }>
#SV = #sparse_tensor.encoding<{ map = (d0) -> (d0 : compressed) }>
#COO = #sparse_tensor.encoding<{ map = (d0, d1) -> (d0 : compressed(nonunique), d1 : singleton) }>
#S3 = #sparse_tensor.encoding<{ map = (d0, d1, d2) -> (d0 : compressed, d1 : compressed, d2 : compressed) }>

func.func @reshape(%a: tensor<3x4xf64, #DCSR>) -> tensor<2x6xf64, #DCSR> {
  %shape = arith.constant dense<[2, 6]> : tensor<2xi32>
  %r = tensor.reshape %a(%shape) : (tensor<3x4xf64, #DCSR>, tensor<2xi32>) -> tensor<2x6xf64, #DCSR>
  return %r : tensor<2x6xf64, #DCSR>
}

func.func @expand(%a: tensor<?x?xf64, #DCSR>) -> tensor<?x2x?xf64, #S3> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %d0 = tensor.dim %a, %c0 : tensor<?x?xf64, #DCSR>
  %d1 = tensor.dim %a, %c1 : tensor<?x?xf64, #DCSR>
  %h = arith.divui %d1, %c2 : index
  %e = tensor.expand_shape %a [[0], [1, 2]] output_shape [%d0, 2, %h] : tensor<?x?xf64, #DCSR> into tensor<?x2x?xf64>
  %s = sparse_tensor.convert %e : tensor<?x2x?xf64> to tensor<?x2x?xf64, #S3>
  return %s : tensor<?x2x?xf64, #S3>
}

func.func @main() {
  %d = arith.constant dense<[[0.1, 0.0, 2.5, 0.0], [0.0, 0.0, 0.0, 0.0], [-3.0, 0.0, 0.0, 0.0]]> : tensor<3x4xf64>
  %a = sparse_tensor.convert %d : tensor<3x4xf64> to tensor<3x4xf64, #COO>
  %f = sparse_tensor.convert %a : tensor<3x4xf64, #COO> to tensor<3x4xf32, #COO>
  sparse_tensor.print %f : tensor<3x4xf32, #COO>
  %di = arith.constant dense<[1, 0, -7, 65536]> : tensor<4xi32>
  %i = sparse_tensor.convert %di : tensor<4xi32> to tensor<4xi32, #SV>
  %if = sparse_tensor.convert %i : tensor<4xi32, #SV> to tensor<4xf64, #SV>
  sparse_tensor.print %if : tensor<4xf64, #SV>
  %dt = arith.constant dense<[2.9, 0.0, -3.7, 1.5]> : tensor<4xf64>
  %t = sparse_tensor.convert %dt : tensor<4xf64> to tensor<4xf64, #SV>
  %ti = sparse_tensor.convert %t : tensor<4xf64, #SV> to tensor<4xi32, #SV>
  sparse_tensor.print %ti : tensor<4xi32, #SV>
  %db = arith.constant dense<[true, false, true]> : tensor<3xi1>
  %bb = sparse_tensor.convert %db : tensor<3xi1> to tensor<3xi1, #SV>
  %bi = sparse_tensor.convert %bb : tensor<3xi1, #SV> to tensor<3xi64, #SV>
  sparse_tensor.print %bi : tensor<3xi64, #SV>
  %m = arith.constant dense<[[1.0, 0.0, 0.0, 0.0], [2.0, 0.0, 0.0, 3.0], [0.0, 0.0, 0.0, 4.0]]> : tensor<3x4xf64>
  %sm = sparse_tensor.convert %m : tensor<3x4xf64> to tensor<3x4xf64, #DCSR>
  %r = call @reshape(%sm) : (tensor<3x4xf64, #DCSR>) -> tensor<2x6xf64, #DCSR>
  sparse_tensor.print %r : tensor<2x6xf64, #DCSR>
  %dyn = tensor.cast %sm : tensor<3x4xf64, #DCSR> to tensor<?x?xf64, #DCSR>
  %x = call @expand(%dyn) : (tensor<?x?xf64, #DCSR>) -> tensor<?x2x?xf64, #S3>
  sparse_tensor.print %x : tensor<?x2x?xf64, #S3>
  return
}
