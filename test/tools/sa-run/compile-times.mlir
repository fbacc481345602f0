// RUN: sa-run --compile-times %s 2>&1 | FileCheck %s
// RUN: sa-run --compile-times --mlir-timing %s 2>&1 | FileCheck %s --check-prefix=PASSES
// --compile-times reports the three phases before the program runs (the
// JIT compiles the module at the first lookup, forced here), so what
// bench/compile measures is compiling, not running. --mlir-timing breaks
// the pipeline down by pass.
// CHECK: sa-run: compile times [ms]: parse {{[0-9.]+}}, pipeline {{[0-9.]+}}, jit {{[0-9.]+}}, total {{[0-9.]+}}
// CHECK-NEXT: 3
// PASSES: Execution time report
// PASSES: SparseArrayLowerIteratorsPass
!v = !sparse_array.array<4xi64, #sparse_array.format<[compressed]>>
sparse_array.func @add(%x: i64, %y: i64) -> i64
    attributes {commutative, associative, identity = #sparse_array.identity<0 : i64>} {
  %r = arith.addi %x, %y : i64
  sparse_array.yield %r : i64
}
func.func @main() {
  %a = sparse_array.constant sparse<[[1]], [1]> : tensor<4xi64> : !v
  %b = sparse_array.constant sparse<[[1]], [2]> : tensor<4xi64> : !v
  %c = sparse_array.map @add(%a, %b) : (!v, !v) -> !v
  %v = sparse_array.values %c : !v -> memref<?xi64>
  %c0 = arith.constant 0 : index
  %x = memref.load %v[%c0] : memref<?xi64>
  func.call @sa_rt_print_i64(%x) : (i64) -> ()
  func.call @sa_rt_print_newline() : () -> ()
  sparse_array.dealloc %c : !v
  return
}
func.func private @sa_rt_print_i64(i64)
func.func private @sa_rt_print_newline()
