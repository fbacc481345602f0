//===- Passes.td - sparse_array passes ---------------------*- tablegen -*-===//

#ifndef SPARSE_ARRAY_PASSES
#define SPARSE_ARRAY_PASSES

include "mlir/Pass/PassBase.td"

def SparseArrayRejectUnloweredPass
    : Pass<"sparse-array-reject-unlowered", "::mlir::ModuleOp"> {
  let summary = "Diagnose sparse_array constructs that no pass has lowered";
  let description = [{
    Runs where the pipeline leaves the `sparse_array` dialect, before the
    LLVM conversions. Any operation of the dialect, and any value, block
    argument, function signature or attribute that still mentions a
    `sparse_array` type or attribute, is reported with an error naming the
    construct and the pipeline stops there. Without this pass such IR would
    surface as an opaque "failed to legalize" or "unresolved
    materialization" error from the LLVM conversion.

    Example: for

    ```mlir
    func.func @main(%a: !sparse_array.array<4xf64>) { return }
    ```

    the pass reports

    ```
    error: 'func.func' uses type '!sparse_array.array<4xf64>' that the
           sparse_array pipeline cannot lower yet
    ```
  }];
}

#endif // SPARSE_ARRAY_PASSES
