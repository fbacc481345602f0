//===- Passes.td - sparse_array conversion passes ----------*- tablegen -*-===//

#ifndef SPARSE_ARRAY_CONVERSION_PASSES
#define SPARSE_ARRAY_CONVERSION_PASSES

include "mlir/Pass/PassBase.td"

def SparseArrayLowerStoragePass
    : Pass<"sparse-array-lower-storage", "::mlir::ModuleOp"> {
  let summary = "Lower array values to their buffers and I/O to the runtime";
  let description = [{
    Replaces every `!sparse_array.array` value by its buffers (seed 002
    §3.1): for each level in storage order the positions and coordinates
    buffers its level format declares, then the values, each a
    `memref<?xT>`, followed by one `index` per dimension (the layout
    documented in docs/storage.md, which is also the C ABI of functions
    taking arrays). Function signatures, calls, returns and `scf` region
    arguments are converted alike.

    `read`, `write`, `print`, `convert`, `change_fill` and `constant`
    become calls into the runtime library (`sa_rt_array_*`), which reads,
    packs and converts through its own level-kind interface;
    `positions`, `coordinates`, `values` and `dim` select a lowered value.
    Operations this pass does not handle (kernels before their lowering)
    are left for `sparse-array-reject-unlowered` to report.

    Example:

    ```mlir
    %a = sparse_array.read input %c0 : !sparse_array.array<?x?xf64, #csr>
    sparse_array.print %a : !sparse_array.array<?x?xf64, #csr>
    ```

    becomes (abridged)

    ```mlir
    %h = call @sa_rt_array_read(%path, %spec, %auto) : (!llvm.ptr, !llvm.ptr, !llvm.ptr) -> !llvm.ptr
    %pos = call @sa_rt_array_take_buffer_i64(%h, %c0_i64) : (!llvm.ptr, i64) -> memref<?xi64>
    ...
    ```
  }];
  let dependentDialects = [
    "::mlir::arith::ArithDialect", "::mlir::func::FuncDialect",
    "::mlir::LLVM::LLVMDialect", "::mlir::memref::MemRefDialect"
  ];
}

#endif // SPARSE_ARRAY_CONVERSION_PASSES
