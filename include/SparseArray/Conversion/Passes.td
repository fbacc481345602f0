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

def SparseArrayLowerShapePass
    : Pass<"sparse-array-lower-shape", "::mlir::ModuleOp"> {
  let summary = "Lower shape operators that move stored entries as they are into buffer code";
  let description = [{
    A `sparse_array.collapse` whose dimensions are stored by adjacent
    levels in the order of the linearization (C: the first collapsed
    dimension outermost; F: the last) needs no entry moved (seed 001 §4.1):
    the levels become one whose coordinate of a position is the linearized
    coordinate of its ancestors, and whose positions are the group's
    segments per parent. The levels above and below keep their buffers.
    This pass writes those buffers in one pass over the group's levels
    (through their iterators) and assembles the result; a result format
    other than the merged one is a conversion afterwards. Collapses it
    cannot lower (levels in another order, a result with another fill) and
    splits and reshapes stay for `sparse-array-lower-storage`, which moves
    every entry through the runtime.

    Example: `collapse %a [0, 1]` of a CSR matrix gives a compressed vector
    whose coordinates are `i * n + crd[p]` for the entries p of row i.

    It also lowers the `sparse_array.concat` and `sparse_array.slice` ops
    that `sparse-array-fuse` left alone because they move stored ranges
    (`getMovedRangeLevel`: inputs stored like the result, only full levels
    above the cut dimension's level): per parent position of that level,
    each input's range of positions (for a slice, the coordinates in
    [start, stop), located or found by bisection) is copied with everything
    below it, in counted loops the C compiler vectorizes — coordinates
    moved at the cut level, positions moved below it, values copied and
    counted against the fill. An input holding explicit fills (assembled
    by the program) makes the result go through `change_fill` to its own
    fill, which drops them; no result stores its fill.

    Example: `concat %a, %b dim 0` of two CSR matrices writes A's
    positions, B's shifted by A's entry count, and both coordinate and
    value buffers one after the other.

    Bulk copies of at least `parallel-copy-min` elements are shared out
    among threads in up to 64 pieces (an `scf.parallel`, OpenMP loops once
    lowered): the page faults of the fresh result and the memory traffic
    split (0, the default: every copy on one thread).
  }];
  let options = [
    Option<"parallelCopyMin", "parallel-copy-min", "int64_t", "0",
           "Fewest elements a copy shares out among threads (0: none)">,
  ];
  // LLVM: loop annotations on short copy loops (markShortLoop).
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::LLVM::LLVMDialect",
                           "::mlir::memref::MemRefDialect",
                           "::mlir::scf::SCFDialect"];
}

def SparseArrayLowerIteratorsPass
    : Pass<"sparse-array-lower-iterators", "::mlir::ModuleOp"> {
  let summary = "Lower derived kernels to coiterating loops over level buffers";
  let description = [{
    Compiles every `sparse_array.kernel` that `sparse-array-derive-algebra`
    annotated into `scf`/`memref`/`arith` code over the level buffers of
    its inputs (seed 000 §7.1, seed 002 §4):

    - one loop per result level, in the result's storage order; at each,
      the inputs whose level there is not full are coiterated along the
      `#sparse_array.lattice` that `sparse-array-build-lattices` attached
      for this loop and the inputs present (seed 000 §6) —
      one `scf.while` per lattice point, running while its operands have
      entries and continuing where the previous one stopped, or one
      `scf.for` when the lattice needs every coordinate (U); full levels
      are located instead of iterated;
    - inside, one case per sub-point (largest first); an omitter at the
      innermost loop skips the point unless a stored entry equals its
      array's fill (thesis §6.2.1), everywhere else it descends;
    - function bodies are inlined, with the case region matching which
      arguments are defined (thesis §6.2.3); subexpressions that only read
      absent operands become their derived fill constants;
    - the result is written densely, or appended in order to growing
      buffers (compressed, non-unique, singleton levels) with entries
      equal to the result fill dropped, then `sparse_array.assemble`d.

    - a `sparse_array.reduce_over` runs at each result point as a loop nest
      over the reduction variables (after the result's loops), iterating as
      its `strategy` says: the value's algebra from the combiner's identity,
      the algebra plus one fill for idempotent combiners, or every point;
      with `early_exit`, the loop conditions stop at the annihilator; a
      mask known at the result point (dense, or an omitter such as a
      complemented mask) is tested before the reduction runs; min/max
      reductions over floats accumulate IEEE total-order keys.

    Functions that no longer have users are erased. What cannot be
    compiled yet (sliced accesses, more than one reduce_over per kernel) is
    an error naming it, as is a kernel without lattices or without one for
    a loop the code reaches. Reduction loops always run inside the result's
    loops (inner products); scatter order with workspaces is to come.
    A constant coordinate (broadcasting along a size-1 dimension) into a
    level that stores coordinates is searched for: bisection on ordered
    levels, a scan on unordered ones; where it is missing the input reads
    as its fill.

    Example: `sa-opt --sparse-array-fuse --sparse-array-derive-algebra
    --sparse-array-build-lattices --sparse-array-lower-iterators` turns xor(a, b) of two compressed
    vectors into a loop over both while both have entries (skipping
    coordinates where both are stored, unless one holds its fill), then
    loops over the rest of each.
  }];
  let dependentDialects = [
    "::mlir::arith::ArithDialect", "::mlir::LLVM::LLVMDialect", "::mlir::memref::MemRefDialect",
    "::mlir::scf::SCFDialect", "::mlir::math::MathDialect"
  ];
}

def SparseArrayLowerExtractPass
    : Pass<"sparse-array-lower-extract", "::mlir::ModuleOp"> {
  let summary = "Lower sparse_array.extract to a search for the point through the level iterators";
  let description = [{
    Each `sparse_array.extract` becomes code that finds its point level by
    level, in storage order, through the level iterators that kernels use
    (seed 001 §7.1.1, seed 002 §4.2): levels with random access (dense)
    locate the coordinate under the parent position; the others search the
    parent's segment (bisection on ordered levels, a scan otherwise; on a
    non-unique level the run of the coordinate is the next level's parent
    segment). Where a level does not hold the coordinate the value is the
    array's fill, and no level below is read. Every coordinate is first
    checked against its dimension: one outside stops the program with a
    run-time error naming the operation's location.

    Example: `extract %A[%i, %j]` of a CSR matrix reads pos[i] and pos[i+1],
    bisects crd in that range for j, and loads the value there if found,
    else yields the fill constant.

    A level format without an iterator is an error naming the level.
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::func::FuncDialect",
                           "::mlir::LLVM::LLVMDialect",
                           "::mlir::memref::MemRefDialect",
                           "::mlir::scf::SCFDialect"];
}

def SparseArrayCheckBoundsPass
    : Pass<"sparse-array-check-bounds", "::mlir::ModuleOp"> {
  let summary = "Check every buffer access against the buffer's size (a debug mode)";
  let description = [{
    Guards every `memref.load` and `memref.store` of a one-dimensional
    buffer with a comparison of the index against the buffer's size; a
    violation calls the runtime's `sa_rt_bounds_error`, which stops the
    program (exit 2) naming the kernel's location, the buffer (positions,
    coordinates or values of a level of the array defined at a location,
    or a buffer the generated code allocated), the index and the size. An
    out-of-bounds read is then an error instead of a wrong value or a
    crash. Runs between `sparse-array-lower-iterators` and
    `sparse-array-lower-storage`, where the buffers still say which array
    and level they belong to; `sparse-array-pipeline{bounds-checks=1}` and
    `sa-run --bounds-checks` add it.

    In the same mode `sparse_array.dealloc` becomes a checked free: the
    buffers are kept (so no later array reuses their addresses) and the
    array registered with the runtime, which stops the program when the
    same array is freed again (through a loop, a call or an alias the
    verifier cannot see), instead of corrupting the heap. Its positions are
    overwritten to point past its coordinates, so a later read of the
    freed array is an out-of-bounds report (or a runtime consistency
    error), not stale entries.

    Example:

    ```mlir
    %c = sparse_array.coordinates %a[0] : !csr -> memref<?xi64>
    %x = memref.load %c[%p] : memref<?xi64>
    ```

    becomes

    ```mlir
    %n = memref.dim %c, %c0 : memref<?xi64>
    %ok = arith.cmpi ult, %p, %n : index
    scf.if %ok {} else {
      call @sa_rt_bounds_error(%site, %p64, %n64) : (!llvm.ptr, i64, i64) -> ()
    }
    %x = memref.load %c[%p] : memref<?xi64>
    ```
  }];
  let dependentDialects = [
    "::mlir::arith::ArithDialect", "::mlir::memref::MemRefDialect",
    "::mlir::scf::SCFDialect", "::mlir::func::FuncDialect",
    "::mlir::LLVM::LLVMDialect"
  ];
}

def SparseArrayExpandFloatMinMaxPass
    : Pass<"sparse-array-expand-float-min-max"> {
  let summary = "Expand arith.maximumf/minimumf into branch-free compares and selects";
  let description = [{
    `arith.maximumf` and `arith.minimumf` (IEEE 754-2019 maximum/minimum:
    NaN if either operand is NaN, -0.0 < +0.0) become

      r = x > y ? x : y                    (x < y for the minimum)
      r = x == y ? bits(x) & bits(y) : r   (| for the minimum: signed zeros)
      r = unordered(x, y) ? x + y : r      (a NaN)

    with the same result for every pair of operands. LLVM 22 lowers
    `llvm.maximum` on x86 without AVX-512 to a branch on the sign of x,
    mispredicted half the time on data of random sign: an element-wise max
    of two 84k-entry matrices took 2.3x its add (issue 20). Scalars and
    vectors of f32 and f64; other types are left alone.

    Example:

    ```mlir
    %m = arith.maximumf %x, %y : f64
    ```
    becomes `arith.cmpf ogt`, `arith.select`, `arith.cmpf oeq`, a bitwise
    `arith.andi` of the operands' bits, `arith.cmpf uno` and `arith.addf`.

    Also expands `arith.extf`/`truncf` between bf16 and f32 into integer
    operations (upstream's bf16 expansion, round to nearest even): LLVM
    lowers them to compiler-rt calls (`__truncsfbf2`) that neither the JIT
    nor `mlir-runner` provides.
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect"];
}

def SparseArrayPartsToOpenMPPass
    : Pass<"sparse-array-parts-to-openmp", "::mlir::ModuleOp"> {
  let summary = "Lower parallel loops over parts of uneven cost to OpenMP loops scheduled dynamically";
  let description = [{
    The parallel loops `sparse-array-lower-iterators` emits over parts of
    a kernel's rows (up to 256 parts of equal stored entries) carry
    `sparse_array.schedule = "dynamic"`: parts of equal entries are not
    parts of equal time. A part of R-MAT's many short or empty rows costs
    far more per entry (a row's set-up and its loop's mispredicted exit)
    than one of a few long rows, so a static schedule, which hands each
    thread a contiguous half of the parts, left one of two threads idle
    for a third of a row sum. This pass turns each such one-dimensional
    `scf.parallel` without reductions into `omp.parallel` around an
    `omp.wsloop` with `schedule(dynamic)` (a part at a time, taken in
    order by whichever thread is free); the body sits in a
    `memref.alloca_scope`, as `convert-scf-to-openmp` puts it. Which part
    computes what does not depend on the schedule or the thread count, so
    results stay bitwise identical for any thread count. Runs before
    `convert-scf-to-openmp`, which lowers every other `scf.parallel` with
    its default static schedule; a marked loop it cannot lower (several
    dimensions, reductions) is left to that pass.

    Example:

    ```mlir
    scf.parallel (%p) = (%c0) to (%parts) step (%c1) {
      ...
      scf.reduce
    } {sparse_array.schedule = "dynamic"}
    ```
    becomes `omp.parallel { omp.wsloop schedule(dynamic) { omp.loop_nest
    (%p) : index = (%c0) to (%parts) step (%c1) { memref.alloca_scope {
    ... } omp.yield } } omp.terminator }`.
  }];
  let dependentDialects = [
    "::mlir::omp::OpenMPDialect", "::mlir::memref::MemRefDialect"
  ];
}

def SparseArrayExactLibCallsPass
    : Pass<"sparse-array-exact-libcalls", "::mlir::ModuleOp"> {
  let summary = "Keep LLVM from replacing C library calls by inexact equivalents";
  let description = [{
    Marks every `llvm.func` with `no-builtin-exp2`, `no-builtin-exp10` (and
    their `f`/`l` forms), so that LLVM's library-call simplifier leaves
    `pow` with a constant base alone. Without them it rewrites
    `pow(2^n, x)` into `exp2(n * x)` (the product `n * x` is rounded: up to
    87 ulp off for 2^53 over exponents in [-3, 3]) and `pow(10, x)` into
    `exp10(x)` (not correctly rounded), so a base bound as a constant (the
    Python package's `np.power(2.0**53, a)`) would differ from the dense
    program's `pow`, which NumPy calls. Calls the program makes to `exp2`
    or `exp10` itself still call the C library; only their rewrites into
    other calls are given up.

    Example: `llvm.func @f(...)` becomes `llvm.func @f(...) attributes
    {passthrough = ["no-builtin-exp2", ...]}`.
  }];
  let dependentDialects = ["::mlir::LLVM::LLVMDialect"];
}

def SparseArrayReallocToLLVMPass
    : Pass<"sparse-array-realloc-to-llvm", "::mlir::ModuleOp"> {
  let summary = "Lower memref.realloc of malloc'ed buffers to the C library's realloc";
  let description = [{
    Rewrites every `memref.realloc` of a 1-D, identity-layout memref into
    a call to the C library's `realloc` on the buffer's allocated pointer,
    and builds the new descriptor (offset 0, stride 1, the new size) from
    the pointer it returns. Growing and shrinking output buffers then cost
    what the C library makes them cost — usually nothing more than a page
    remapping for large buffers — where upstream's `expand-realloc` always
    allocates, copies and frees. Only valid for buffers that `memref.alloc`
    lowered to `malloc` (what `sparse-array-lower-iterators` grows), so it
    runs right before `finalize-memref-to-llvm`; other reallocs are left to
    `expand-realloc`.

    Example:

    ```mlir
    %1 = memref.realloc %0(%n) : memref<?xi64> to memref<?xi64>
    ```
    becomes a `llvm.call @realloc(%ptr, %bytes)` and the descriptor of the
    returned pointer.
  }];
  let dependentDialects = ["::mlir::LLVM::LLVMDialect"];
}

#endif // SPARSE_ARRAY_CONVERSION_PASSES
