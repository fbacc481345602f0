//===- Passes.td - sparse_array passes ---------------------*- tablegen -*-===//

#ifndef SPARSE_ARRAY_PASSES
#define SPARSE_ARRAY_PASSES

include "mlir/Pass/PassBase.td"

def SparseArrayCheckSymbolsPass
    : Pass<"sparse-array-check-symbols", "::mlir::ModuleOp"> {
  let summary = "Diagnose functions named like the C library functions compiled code calls";
  let description = [{
    The first stage of `sparse-array-pipeline`. Lowered math operations,
    allocations and copies become calls to C library functions (`exp`,
    `pow`, `malloc`, `memcpy`, ...) and OpenMP's runtime; LLVM resolves
    such a call to a function of the module with that name when there is
    one, so a program defining `@exp` would have its `math.exp` call it
    (a crash or a wrong result). Every function the module defines with
    such a name, or with the runtime's `sa_rt_` prefix, is an error that
    names it.

    Example:

    ```mlir
    func.func @exp(%a: !sparse_array.array<8xf64>) -> !sparse_array.array<8xf64>
    ```

    is reported as

    ```
    error: function @exp has the name of the C library function 'exp',
           which compiled code calls: rename it
    ```
  }];
}

def SparseArrayLegalizeFormatsPass
    : Pass<"sparse-array-legalize-formats", "::mlir::ModuleOp"> {
  let summary = "Convert arrays around the operations that cannot use their level formats";
  let description = [{
    Runs after `sparse-array-fuse`. A level format plugin brings what it
    can do (seed 002 §3.2 capabilities): a level whose coordinates are
    computed from its parent's or that pads between its entries (not
    compact: `diagonal`, DIA; `ellpack`, ELL) is read only by a
    kernel access that binds its parent's and its own dimension to two
    index variables, the parent's loop outside, unsliced; a kernel result
    is assembled only into levels that can append or insert. Everywhere
    else — other reads, shape operators, results of kernels and shape
    operators — the array is converted: an input to its generic format (each
    such level compressed, keeping its properties) before the operation and
    freed after it, a result computed in the generic format and converted
    to the requested one (the runtime's conversion, which knows every
    format). The decision is taken here, once, and is visible in the IR as
    the conversions it inserts.

    A blocked input (a format with `blocks`, seed 002's BCSR) read plainly
    by a kernel whose result is dense or not indexed by a blocked
    dimension is read by its levels instead (`sparse_array.demap`, no
    conversion): each index variable of a blocked dimension becomes two,
    the block and the place in it; other inputs read there are read at
    `sparse_array.linearize` of the two, reductions reduce over both, and
    a dense result dimension indexed there is computed split and taken
    back with the same values buffer (`demapBlockedInputs`,
    DemapBlocks.cpp). Other kernels read and write
    blocked arrays through their unblocked format.

    Example:

    ```mlir
    %m = sparse_array.kernel ... -> !sparse_array.array<4x5xf64, #sparse_array.format<[dense, diagonal]>>
    ```

    becomes

    ```mlir
    %t = sparse_array.kernel ... -> !sparse_array.array<4x5xf64, #sparse_array.format<[dense, compressed]>>
    %m = sparse_array.convert %t : ... to !sparse_array.array<4x5xf64, #sparse_array.format<[dense, diagonal]>>
    sparse_array.dealloc %t : ...
    ```
  }];
}

def SparseArrayFreeTemporariesPass
    : Pass<"sparse-array-free-temporaries", "::mlir::ModuleOp"> {
  let summary = "Free the arrays that computations produce and only read";
  let description = [{
    Runs after `sparse-array-fuse`: the arrays left between kernels (a
    product consumed by an element-wise kernel, a reduction of a
    reduction) are new storage that a program built by a frontend (the
    Python package's lazy expressions, an imported module) does not free.
    Each result of `sparse_array.kernel`, `map`, `reduce`, `collapse`,
    `split` or `reshape` (a reshape's collapsed intermediate) that has no
    `sparse_array.dealloc`, is not returned, and whose every use is in its
    block by a kernel, map, reduce, concat, collapse, split, reshape, print,
    write, dim or extract (computations that read it and make no array
    sharing its buffers) gets a
    `sparse_array.dealloc` after its last use. Anything else (a value
    passed to a call, a region, a conversion, or freed already) is left
    alone: a leak is possible there, a double free is not.

    Example:

    ```mlir
    %p = sparse_array.kernel ... // a product
    %s = sparse_array.map @add_f64(%p, %c) : ...
    return %s : ...
    ```

    gains `sparse_array.dealloc %p` after the map.
  }];
}

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

def SparseArrayDeriveAlgebraPass
    : Pass<"sparse-array-derive-algebra", "::mlir::ModuleOp"> {
  let summary = "Derive each kernel's iteration algebra and result fill";
  let description = [{
    For every `sparse_array.kernel`, derives the iteration algebra over its
    inputs and the value of the result outside it (seed 000 §5.2, thesis
    §5.2), bottom-up through the expression: explicit algebras when the
    argument fills match their assumptions, then annihilator, idempotence,
    identity, and finally a union whose fill is computed by evaluating the
    function body exactly on the argument fills (loops included). Nested
    applications compose, so bitwise_and(gcd(b, c), d) gives
    intersect(union(b, c), d).

    The result is attached as `algebra` and `fill` attributes. When the
    result type declares a fill other than the derived one, or none could
    be derived, the algebra is `universe`: every point is computed (more
    work, never a wrong answer).

    Example:

    ```mlir
    %a = sparse_array.kernel ins(%b, %c, %d : ...) -> ... {...}
    // becomes
    %a = sparse_array.kernel ins(%b, %c, %d : ...) -> ...
        attributes {algebra = #sparse_array.algebra<intersect(union(0, 1), 2)>,
                    fill = 0 : i64} {...}
    ```

    With `emit-remarks`, each application reports the rule that decided its
    space.
  }];
  let options = [
    Option<"emitRemarks", "emit-remarks", "bool", /*default=*/"false",
           "Report the derived algebra, fill and rule of every application">
  ];
}

def SparseArrayBuildLatticesPass
    : Pass<"sparse-array-build-lattices", "::mlir::ModuleOp"> {
  let summary = "Plan each kernel's coiteration: one iteration lattice per loop";
  let description = [{
    For every kernel that `sparse-array-derive-algebra` annotated, decides
    how its loops coiterate the inputs (seed 000 §6-7, appendix Alg. 2;
    thesis §4.2) and records it as `lattices`, one
    `#sparse_array.lattice` per loop and set of inputs that can still be
    present when the loop starts:

    - loops follow the result's storage order; a sparse input stored in
      another order is first converted to one that follows the loops (a
      `sparse_array.convert` before the kernel, freed by a
      `sparse_array.dealloc` after it);
    - at each loop the inputs whose level there is not full are coiterated;
      the others (full levels, located; inputs absent here) are eliminated
      from the kernel's algebra: an absent input is the empty set, a
      located one may or may not be there (A[k := U] ∪ A[k := ∅]);
    - the lattice is built by De Morgan normalization, augmentation with
      t ∩ ¬t for coiterated inputs the algebra does not mention, the
      segment/complement/intersection/union rules with producer and
      omitter points and their precedences, a filtered Cartesian product
      for repeated operands, and pruning of omitters that dominate no
      producer; a lattice whose loops would not compute exactly the
      algebra (checked over every combination of stored inputs) is
      replaced by the top-down one of seed 001 §6.2, else the complete
      one. U (every coordinate) is dropped when no producer needs it.

    Each point is a loop that runs while its inputs have entries; its cases
    are the points included in it, largest first. An outer loop with
    several cases descends into the next loop once per case, with only
    that case's coiterated inputs present, so inner loops get one lattice
    per set of inputs that can reach them — unless every level its
    coiterated inputs have left below stores coordinates: then it is
    planned `merged`, one loop descending with every input (an empty
    segment where one does not match), and the lowering follows.

    A loop coiterating `linear-threshold` inputs or more (a lattice would
    have up to 2^n points and 3^n cases), or whose lattice's cases times
    the copies of the loop that outer loops descending per case emit
    exceed 64, is planned `linear` instead: one loop over the union of the
    inputs' coordinates (`linear U`: over every coordinate, when the space
    needs U), a presence bit per input, the function evaluated on the fills
    of absent inputs; it descends with every input, an unmatched one
    marked absent. Code size is then linear in the number of inputs.

    An innermost result loop whose root point's cases are every non-empty
    subset of its inputs, all computed (a union such as `add`; the root may
    be an omitter, as in `xor`, when the function makes no math-library
    call), is planned
    `branchless` when the function cannot trap and each coiterated level
    is its input's last, unique and read as stored: each step evaluates the
    function once with the absent inputs' fills selected in, instead of a
    mispredicted branch per case (`branchless-merge=false` keeps cases).

    A `slice`, `concat`, `split` or `collapse` that fusion left (nothing to
    fuse with) is planned too: the in-place lowering its operands' and
    result's storage allow (`plan = #sparse_array.shape_plan<...>`: moved
    ranges, COO/CSR rows, split or merged levels), which
    `sparse-array-lower-shape` carries out; without a plan the runtime
    moves its entries.

    Example, xor of two compressed vectors:

    ```mlir
    %c = sparse_array.kernel ins(%a, %b : !vec, !vec) -> !vec attributes {
        algebra = #sparse_array.algebra<...>, fill = #sparse_array.scalar<false>,
        lattices = [#sparse_array.lattice<loop 0, present [0, 1],
            coiterate [0, 1], points [{0, 1} omit, {0} produce, {1} produce]>]}
    ```
  }];
  let options = [
    Option<"linearThreshold", "linear-threshold", "unsigned",
           /*default=*/"5",
           "Coiterate this many inputs or more with one linear loop instead "
           "of a lattice (0: lattices only, however large)">,
    Option<"branchlessMerge", "branchless-merge", "bool", /*default=*/"true",
           "Plan innermost unions that compute every case branch-free "
           "(false: a branch per case)">,
    Option<"workspace", "workspace", "std::string", /*default=*/"\"auto\"",
           "Workspace of row-wise (scatter) products, recorded on their "
           "plans: auto (hash when rows average under 8 products over at "
           "least 2^16 columns, else dense; decided per call), dense or hash">,
  ];
}

def SparseArrayPlanParallelPass
    : Pass<"sparse-array-plan-parallel", "::mlir::ModuleOp"> {
  let summary = "Decide which kernels run their outermost loop in parallel";
  let description = [{
    For every kernel whose coiteration `sparse-array-build-lattices`
    planned, records `parallel = #sparse_array.parallel<...>`:
    `"outer"` when the outermost result loop's iterations are independent
    by construction — the result is dense (each iteration stores its own
    points in place) and the loop carries no cursor (every input level
    bound to it is full, located at the loop's coordinate: the loop is
    counted, driven by U) — and it has at least `min-extent` iterations
    (checked at run time when the size is dynamic). Sparse results: rows of
    one compressed level under a full one (CSR, CSC) in two phases or in
    parts (`assembly`; `auto` picks parts when an entry costs more than
    its copy: a reduction or a math function per entry), every other
    sparse result (compressed vectors, DCSR, COO, CSF, ...) and row-wise
    products in parts; scalar reductions with an associative combiner in
    parts combined in order. `"ranges"` when the outermost loop
    coiterates stored coordinates (DCSR, COO, sparse vector operands),
    each coiterated level read as stored and ordered: ranges of the
    coordinates, cut at an input's stored ones (`balance`) — or equal
    ranges when the loop visits every coordinate (U: DCSR plus a dense
    matrix, or a function that changes the fill, equal ranges being equal
    work) — run in parallel, each input's segment narrowed to its range
    by bisection. `"none"` with the reason otherwise (non-associative
    scalar reductions, scalar folds over stored coordinates, too few
    iterations).
    `sparse-array-lower-iterators` then emits that loop as `scf.parallel`,
    which `convert-scf-to-openmp` turns into an OpenMP work-sharing loop.

    Example, y = A x with A in CSR:

    ```mlir
    %y = sparse_array.kernel ins(%A, %x : !csr, !dv) -> !dv attributes {
        ..., parallel = #sparse_array.parallel<"outer", min_extent = 256>}
    ```
  }];
  let options = [
    Option<"minExtent", "min-extent", "int64_t", /*default=*/"0",
           "Fewest outer iterations run in parallel (0: 16384 for a loop "
           "without inner loops, 256 with them)">,
    Option<"minWork", "min-work", "int64_t", /*default=*/"0",
           "Fewest stored values a kernel reads (its inputs' values, and the "
           "result's coordinates when it iterates outside them) worth a "
           "parallel region (0: 32768, 2097152 for a sparse result)">,
    Option<"assembly", "assembly", "std::string", /*default=*/"\"auto\"",
           "How parallel rows of a CSR/CSC result are assembled: auto "
           "(chained where the inputs' entries bound the result's, else by "
           "the kernel's work per entry), two-phase, parts or chained">,
  ];
}

def SparseArrayCheckPropertiesPass
    : Pass<"sparse-array-check-properties", "::mlir::ModuleOp"> {
  let summary = "Test each function's declared properties against its body";
  let description = [{
    Wrong property declarations silently produce wrong sparse results (the
    derivation trusts them). This pass evaluates every `sparse_array.func`
    exactly on edge values (0, -0.0, ±1, extremes, NaN, ±inf, the declared
    property values) and seeded random values, and reports every declared
    property that does not hold with a counterexample:

    ```
    error: property 'annihilator 0.0' of @fmul does not hold:
           @fmul(0.0, -1.0) = -0.0, expected 0.0
    ```

    Checked: commutative, associative (exactly: floating-point addition is
    not associative), idempotent, annihilator and identity (at their
    positions), distributes_over, explicit algebras (outside the algebra the
    result must be f(assumed fills)), and case regions (they must agree with
    the body when the other arguments hold the algebra's assumed fills, or
    zero). NaN results compare equal to each other; -0.0 differs from 0.0.
  }];
  let options = [
    Option<"warnOnly", "warn-only", "bool", /*default=*/"false",
           "Report violations as warnings instead of failing">,
    Option<"randomSamples", "random-samples", "unsigned", /*default=*/"8",
           "Random values per type in addition to the edge values">
  ];
}

def SparseArrayGuardExactProductsPass
    : Pass<"sparse-array-guard-exact-products", "::mlir::ModuleOp"> {
  let summary = "Plan exact f64 matrix products at sparse cost under a run-time guard";
  let description = [{
    C(i, j) = sum_k A(i, k) * B(k, j) with exactly IEEE add (identity -0.0)
    and mul (no annihilator: 0 * inf is NaN, 0 * -1 is -0.0), A and B stored
    with fill +0.0 and a result whose fill is +0.0 (the standard library's
    add_f64/mul_f64), is a union of both factors: the dense program's value
    at a point no k stores in both can be NaN or -0.0 (issue 20 part 3).
    It is not when (1) every value A and B store is finite and (2) the most
    entries a row of A stores plus the most a column of B stores is less
    than the extent of k: then each point has a k stored in neither, whose
    term is +0.0, so every omitted term is a signed zero and the sum of the
    stored products from +0.0 is the dense fold bit for bit (adding +0.0
    changes only a -0.0, and a sum from +0.0 is never -0.0).

    The same for a matrix times a sparse vector, y(i) = sum_k A(i, k) * x(k),
    and x(k) * A(k, j): x's stored entries (not +0.0) count in place of the
    most a column of B stores. (With a dense x the exact plan reads A's
    stored entries already: not guarded.)

    Such a kernel becomes `scf.if` on that guard, computed by small kernels
    over A and B (count and finiteness reductions, at sparse cost), between
    a copy of the kernel whose add and mul are declared with identity and
    annihilator 0.0 — which hold on the guarded inputs — planned like any
    sparse product (row by row for CSR x CSR), and the kernel itself, the
    exact plan for any input.

    The same for (min, +) (issue 56): y = min_k A(.., k) + B(k, ..) with
    exactly IEEE add and minimum (identity +inf, the standard library's
    add_f64/min_f64), one factor sparse with fill +inf, is planned over
    every point, since inf + x is NaN for x = -inf and for x = NaN. When no
    value of either factor, stored or fill, is -inf or NaN (checked per
    call over the stored values), every term with a +inf factor is +inf,
    the minimum's identity, and skipping it is exact: the copy's add is
    declared with the annihilator +inf (`__sa_add_f64_inf_absorbs`), so it
    runs over the stored entries as a declared (min, +) product does.

    Example:

    ```mlir
    %c = sparse_array.kernel ins(%a, %b : ...) -> ... {  // add_f64, mul_f64
    // becomes
    %ok = ... // no inf/NaN stored, max row(A) + max column(B) < K
    %c = scf.if %ok -> (...) {
      %f = sparse_array.kernel ins(%a, %b : ...) -> ... {
        ... apply @__sa_mul_f64_finite ... with @__sa_add_f64_from_zero
      }
      scf.yield %f : ...
    } else {
      %e = sparse_array.kernel ins(%a, %b : ...) -> ... {...}  // unchanged
      scf.yield %e : ...
    }
    ```
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::LLVM::LLVMDialect",
                           "::mlir::memref::MemRefDialect",
                           "::mlir::scf::SCFDialect"];
}

def SparseArrayFusePass : Pass<"sparse-array-fuse", "::mlir::ModuleOp"> {
  let summary = "Turn array-level ops into kernels and fuse kernel chains";
  let description = [{
    Rewrites `sparse_array.map` (with NumPy broadcasting: a missing or
    size-1 dimension reads a fixed coordinate), `sparse_array.reduce` and
    `sparse_array.slice` (a sliced access, `%i(lo:hi:step)`, or a fixed
    coordinate for an integer index) into `sparse_array.kernel`s, then
    inlines a kernel whose result is used only by one other kernel into it,
    so a chain of array operations becomes one index-notation statement and
    no temporary array is built (seed 000 §8.2.2). What the consumer reads
    of the producer's result is composed into the producer's accesses: a
    slice of a slice is one slice (lo2 + step2 * (lo + step * x)), a slice
    of a computed expression slices what the expression reads, a fixed
    coordinate becomes the producer's (seed 001 §5.2). An array passed to a kernel twice and accessed
    with the same indices becomes one input read at both places: its leaf
    repeats in the iteration algebra, so xor(a, a) is known to be empty
    and a·b + a iterates a (the repeated-operand rules of seed 000 Alg. 2).

    Example: `and(xor(A, B), C)` written as two maps becomes

    ```mlir
    %r = sparse_array.kernel ins(%a, %b, %c : ...) -> ... {
    ^bb0(%i: index, %A: ..., %B: ..., %C: ...):
      %x = sparse_array.apply @xor(%ai, %bi) : (i1, i1) -> i1
      %y = sparse_array.apply @and(%x, %ci) : (i1, i1) -> i1
      sparse_array.yield %y : i1
    }
    ```
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect"];
}

#endif // SPARSE_ARRAY_PASSES
