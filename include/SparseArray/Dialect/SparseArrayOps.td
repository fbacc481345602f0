//===- SparseArrayOps.td - sparse_array operations ---------*- tablegen -*-===//
//
// Root file of the dialect: add_mlir_dialect runs the op, type and dialect
// generators on this file, so it includes every definition file.
//
//===----------------------------------------------------------------------===//

#ifndef SPARSE_ARRAY_OPS
#define SPARSE_ARRAY_OPS

include "SparseArray/Dialect/SparseArrayBase.td"
include "SparseArray/Dialect/SparseArrayAttrs.td"
include "SparseArray/Dialect/SparseArrayTypes.td"

include "mlir/IR/SymbolInterfaces.td"
include "mlir/Interfaces/CallInterfaces.td"
include "mlir/Interfaces/ControlFlowInterfaces.td"
include "mlir/Interfaces/FunctionInterfaces.td"
include "mlir/Interfaces/InferTypeOpInterface.td"
include "mlir/Interfaces/SideEffectInterfaces.td"
include "mlir/IR/OpAsmInterface.td"
include "mlir/IR/BuiltinAttributeInterfaces.td"

def SparseArray_Array : Type<CPred<"::llvm::isa<::mlir::sparse_array::ArrayType>($_self)">,
                             "sparse_array array", "::mlir::sparse_array::ArrayType">;
def SparseArray_Scalar : AnyTypeOf<[I1, I8, I16, I32, I64, F16, BF16, F32, F64]>;

//===----------------------------------------------------------------------===//
// Functions (seed 000 §4.3, thesis §5.1 and §7)
//===----------------------------------------------------------------------===//

// Not a FunctionOpInterface: that interface allows a single region, and a
// function here also carries its case regions.
def SparseArray_FuncOp : SparseArray_Op<"func", [
    Symbol, IsolatedFromAbove, OpAsmOpInterface,
    DeclareOpInterfaceMethods<SymbolUserOpInterface>]> {
  let summary = "A scalar function with algebraic properties, usable on arrays";
  let description = [{
    Defines a scalar function that array operations apply element-wise or
    in reductions. The body may use any `arith`, `math` and `scf`
    operations, loops included, and `sparse_array.apply` to call other
    functions; it ends with `sparse_array.yield`.

    Properties (seed 000 §4.3, thesis §5.1), given as attributes:
    - `commutative`, `associative` (binary), `idempotent`;
    - `annihilator = #sparse_array.annihilator<v[, positions = [...]]>`;
    - `identity = #sparse_array.identity<v[, positions = [...]]>` (binary);
    - `distributes_over = [@g, ...]`: f(a, g(b, c)) = g(f(a, b), f(a, c));
    - `algebra = #sparse_array.algebra<expr, fills = [...]>`: an explicit
      iteration algebra over the argument positions with the argument fill
      values it assumes.

    `case [p, ...] { ... }` regions (seed 000 Fig. 5, thesis §4.2.4) give a
    cheaper body for points where exactly the arguments at positions
    `p, ...` are defined and the others hold their fill values: the fills
    the explicit algebra assumes, or zero without one. Code generation uses
    a case only where the actual operands' fills are those.

    Example (seed 000 Fig. 5):

    ```mlir
    sparse_array.func @gcd(%x: i64, %y: i64) -> i64
        attributes {commutative,
                    algebra = #sparse_array.algebra<union(0, 1), fills = [0 : i64, 0 : i64]>} {
      ... Euclid's algorithm in scf.while ...
      sparse_array.yield %g : i64
    } case [0] {
    ^bb0(%x: i64, %y: i64):
      %a = math.absi %x : i64
      sparse_array.yield %a : i64
    }
    ```
  }];
  let arguments = (ins SymbolNameAttr:$sym_name,
                       TypeAttrOf<FunctionType>:$function_type,
                       OptionalAttr<StrAttr>:$sym_visibility,
                       OptionalAttr<DictArrayAttr>:$arg_attrs,
                       OptionalAttr<DictArrayAttr>:$res_attrs,
                       UnitAttr:$commutative,
                       UnitAttr:$associative,
                       UnitAttr:$idempotent,
                       OptionalAttr<SparseArray_AnnihilatorAttr>:$annihilator,
                       OptionalAttr<SparseArray_IdentityAttr>:$identity,
                       OptionalAttr<SymbolRefArrayAttr>:$distributes_over,
                       OptionalAttr<SparseArray_AlgebraAttr>:$algebra,
                       // One entry per case region: the defined positions.
                       OptionalAttr<TypedArrayAttrBase<DenseI32ArrayAttr,
                                    "case argument sets">>:$case_args);
  let regions = (region AnyRegion:$body, VariadicRegion<AnyRegion>:$cases);
  let hasCustomAssemblyFormat = 1;
  let hasVerifier = 1;
  let hasRegionVerifier = 1;
  let extraClassDeclaration = [{
    ::llvm::ArrayRef<::mlir::Type> getArgumentTypes() {
      return getFunctionType().getInputs();
    }
    ::llvm::ArrayRef<::mlir::Type> getResultTypes() {
      return getFunctionType().getResults();
    }
    unsigned getArity() { return getFunctionType().getNumInputs(); }
    ::mlir::Type getResultType() { return getFunctionType().getResult(0); }
    /// The positions of case region `k`.
    ::llvm::ArrayRef<int32_t> getCasePositions(unsigned k);
    /// The case region for exactly the defined positions `defined` (sorted),
    /// or null.
    ::mlir::Region *getCaseFor(::llvm::ArrayRef<int32_t> defined);
    /// The fill case regions assume for argument `i` (its absent value):
    /// the explicit algebra's, else zero (thesis 003 §6.2.3).
    ::mlir::TypedAttr getCaseFill(unsigned i);
    static ::llvm::StringRef getDefaultDialect() { return "sparse_array"; }
  }];
}

def SparseArray_YieldOp : SparseArray_Op<"yield", [
    Pure, ReturnLike, Terminator,
    ParentOneOf<["FuncOp", "KernelOp"]>]> {
  let summary = "Result of a function body, function case or kernel body";
  let description = [{
    Example: `sparse_array.yield %r : f64`
  }];
  let arguments = (ins AnyType:$value);
  let assemblyFormat = "$value attr-dict `:` type($value)";
}

def SparseArray_ApplyOp : SparseArray_Op<"apply", [
    Pure, DeclareOpInterfaceMethods<SymbolUserOpInterface>]> {
  let summary = "Apply a sparse_array.func to scalars";
  let description = [{
    Calls a `sparse_array.func` on scalar operands. Inside a kernel body it
    is a node of the index-notation expression whose properties drive the
    iteration-algebra derivation; inside a function body it is an ordinary
    call.

    Example: `%g = sparse_array.apply @gcd(%b, %c) : (i64, i64) -> i64`
  }];
  let arguments = (ins FlatSymbolRefAttr:$callee, Variadic<AnyType>:$args);
  let results = (outs AnyType:$result);
  let assemblyFormat =
      "$callee `(` $args `)` attr-dict `:` functional-type($args, $result)";
}

//===----------------------------------------------------------------------===//
// Index-notation kernels (seed 000 §4.2)
//===----------------------------------------------------------------------===//

def SparseArray_KernelOp : SparseArray_Op<"kernel", [
    IsolatedFromAbove, SingleBlock,
    RecursiveMemoryEffects]> {
  let summary = "An array index notation statement";
  let description = [{
    Computes every entry of the result array from entries of the inputs, in
    array index notation (seed 000 §4.2): the entry block's arguments are
    first the index variables, then one array per input. The first `rank`
    index variables index the result, in order; all others must be reduced
    with `sparse_array.reduce_over`. The body is an expression of
    `sparse_array.access`, `sparse_array.apply`, `sparse_array.reduce_over`
    and `arith.constant`, ended by `sparse_array.yield`.

    Each input is accessed with one list of index variables; pass an array
    twice to access it two ways (e.g. A(i,j) and A(j,i)). The derived
    iteration algebra is over the inputs: leaf k is input k.

    `sparse-array-derive-algebra` attaches `algebra` (the iteration space)
    and `fill` (the value of every result entry outside it). With
    `infer_fill` the result type's fill is replaced by the derived one, and
    with `infer_format` its levels are chosen from the derivation (dense
    when every point is computed; else the layout of an input indexed like
    the result; else dense outer levels over a compressed innermost one);
    consuming kernels, and the return of a function nobody calls, follow.

    `sparse-array-build-lattices` attaches `lattices`: one
    `#sparse_array.lattice` per loop and set of inputs present there, the
    coiteration plan `sparse-array-lower-iterators` follows.
    `sparse-array-plan-parallel` attaches `parallel`
    (`#sparse_array.parallel`): whether the outermost result loop runs in
    parallel.

    Example, a(i) = bitwise_and(gcd(b(i), c(i)), d(i)):

    ```mlir
    %a = sparse_array.kernel ins(%b, %c, %d : !vec, !vec, !vec) -> !vec {
    ^bb0(%i: index, %B: !vec, %C: !vec, %D: !vec):
      %bi = sparse_array.access %B[%i] : !vec
      %ci = sparse_array.access %C[%i] : !vec
      %di = sparse_array.access %D[%i] : !vec
      %g = sparse_array.apply @gcd(%bi, %ci) : (i64, i64) -> i64
      %r = sparse_array.apply @bitwise_and(%g, %di) : (i64, i64) -> i64
      sparse_array.yield %r : i64
    }
    ```
  }];
  let arguments = (ins Variadic<SparseArray_Array>:$inputs,
                       OptionalAttr<SparseArray_AlgebraAttr>:$algebra,
                       OptionalAttr<SparseArray_ScalarAttr>:$fill,
                       OptionalAttr<TypedArrayAttrBase<SparseArray_LatticeAttr,
                           "lattices per loop">>:$lattices,
                       OptionalAttr<SparseArray_ParallelAttr>:$parallel,
                       UnitAttr:$infer_fill,
                       UnitAttr:$infer_format);
  let results = (outs SparseArray_Array:$result);
  let regions = (region SizedRegion<1>:$body);
  let assemblyFormat = [{
    (`ins` `(` $inputs^ `:` qualified(type($inputs)) `)`)? `->` qualified(type($result))
    attr-dict-with-keyword $body
  }];
  let hasRegionVerifier = 1;
  let skipDefaultBuilders = 1;
  let builders = [
    // Creates the body block with `numIndices` index arguments followed by
    // one argument per input.
    OpBuilder<(ins "::mlir::Type":$resultType, "::mlir::ValueRange":$inputs,
                   "unsigned":$numIndices)>
  ];
  let extraClassDeclaration = [{
    unsigned getNumIndices() {
      return getBody().front().getNumArguments() - getInputs().size();
    }
    ::mlir::BlockArgument getIndex(unsigned k) {
      return getBody().front().getArgument(k);
    }
    ::mlir::BlockArgument getInputArg(unsigned k) {
      return getBody().front().getArgument(getNumIndices() + k);
    }
    ArrayType getResultType() { return ::llvm::cast<ArrayType>(getResult().getType()); }
    YieldOp getYield();
    /// The access of input `k` (the first, all are equal), or null if the
    /// input is not accessed.
    AccessOp getAccessOf(unsigned k);
  }];
}

def SparseArray_AccessOp : SparseArray_Op<"access", [
    Pure, HasParent<"KernelOp">,
    TypesMatchWith<"result is the array's element type", "array", "result",
                   "::llvm::cast<::mlir::sparse_array::ArrayType>($_self).getElementType()">]> {
  let summary = "An entry of a kernel input: B(i, j), optionally sliced";
  let description = [{
    Reads the input array (a kernel block argument) at the index variables
    given, one per dimension; an `arith.constant` index instead fixes the
    coordinate (how broadcasting of a size-1 dimension is expressed). A
    dimension may be sliced Python-style,
    `%i(lo:hi:step)`: the index variable then ranges over
    `ceil((hi - lo) / step)` values and reads coordinate `lo + step * i`
    (seed 000 §4.2, Fig. 8). A negative step counts down from `lo` to
    just above `hi` (`%i(8:-1:-2)` reads 8, 6, 4, 2, 0).

    `padded`: slices may reach outside a dimension of static size, and
    coordinates outside it read the input's fill (a window: how the parts
    of a concatenation are read, seed 001 §5.1's offset |a| + b).

    `bounds` (padded only; two values per dimension, `[0, -1)` for none):
    coordinates of a sliced dimension outside `[lo, hi)` read the fill too
    (`0 <= lo <= hi`, and `hi` at most the dimension's size: verified, or
    checked at run time where the size is dynamic).
    A window over a slice (a concatenation's part that slices its input,
    fused) reads its array only within the slice's range: as a sequence it
    is slice(slice(a, lo, hi), window) (seed 001 §5.2).

    Example:

    ```mlir
    %v = sparse_array.access %B[%i(0:8:2), %j] : !sparse_array.array<8x4xf64>
    %u = sparse_array.access %B[%i(7:-1:-2), %j] : !sparse_array.array<8x4xf64>
    %w = sparse_array.access %C[%l(-8:4)] padded : !sparse_array.array<4xf64>
    %x = sparse_array.access %D[%i(-3:5)] padded bounds [2, 6] : !sparse_array.array<10xf64>
    ```
  }];
  let arguments = (ins SparseArray_Array:$array, Variadic<Index>:$indices,
                       DefaultValuedAttr<DenseI64ArrayAttr, "{}">:$slices,
                       UnitAttr:$padded,
                       OptionalAttr<DenseI64ArrayAttr>:$bounds);
  let results = (outs AnyType:$result);
  let assemblyFormat = [{
    $array `[` custom<SlicedIndices>($indices, $slices) `]` (`padded` $padded^)? (`bounds` $bounds^)? attr-dict `:` qualified(type($array))
  }];
  let builders = [
    // An access that is not a padded window.
    OpBuilder<(ins "Value":$array, "ValueRange":$indices,
                   "DenseI64ArrayAttr":$slices), [{
      build($_builder, $_state, array, indices, slices, UnitAttr(),
            DenseI64ArrayAttr());
    }]>
  ];
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    ArrayType getArrayType() { return ::llvm::cast<ArrayType>(getArray().getType()); }
    bool isSliced(unsigned dim) { return !getSlices().empty() && getSlices()[3 * dim + 2] != 0; }
    /// (lo, hi, step) of a sliced dimension.
    std::array<int64_t, 3> getSlice(unsigned dim) {
      return {getSlices()[3 * dim], getSlices()[3 * dim + 1], getSlices()[3 * dim + 2]};
    }
    /// [lo, hi) of the coordinates a padded window reads at `dim`, when
    /// narrower than the dimension (`bounds`).
    std::optional<std::array<int64_t, 2>> getBound(unsigned dim) {
      std::optional<ArrayRef<int64_t>> b = getBounds();
      if (!b || b->size() <= 2 * dim + 1 || (*b)[2 * dim + 1] < 0)
        return std::nullopt;
      return std::array<int64_t, 2>{(*b)[2 * dim], (*b)[2 * dim + 1]};
    }
  }];
}

def SparseArray_ReduceOverOp : SparseArray_Op<"reduce_over", [
    Pure, HasParent<"KernelOp">, AllTypesMatch<["value", "result"]>,
    OptionalTypesMatchWith<"start has the value's type", "value", "start", "$_self">,
    AttrSizedOperandSegments,
    DeclareOpInterfaceMethods<SymbolUserOpInterface>]> {
  let summary = "Reduce an index-notation expression over index variables";
  let description = [{
    The reduction of `value` over every value of the index variables
    `indices` with the binary function `combiner` (seed 000 §4.2:
    y(i) = min_j A(i, j)). Everything `value` depends on that depends on
    a reduced variable is inside the reduction.

    Over an empty range the result is the combiner's identity, or, when it
    declares none, the reduced value's fill (the dense program has no value
    to give there).

    `from %start`: the fold starts from `start` (a value of the kept index
    variables, such as the entry of an output the reduction accumulates
    into: `y(i) = y0(i) + sum_j A(i, j) x(j)`) instead of the identity, and
    combines the points in order after it, `((start ⊕ v0) ⊕ v1) ...`, which
    is the dense program's fold for any combiner, associative or not. Over
    an empty range the result is `start`. Such a reduction is planned as one
    fold per result point: never split into parts, scattered or computed
    row-wise.

    `sparse-array-build-lattices` records how the reduction will iterate
    (seed 000 §7.2, thesis §6.3) as `plan`, a `#sparse_array.reduction`
    whose `strategy` is one of:
    - `"identity"`: the value's fill is the combiner's identity, so only
      the points of the value's algebra are visited, from the identity;
    - `"idempotent"`: the combiner is idempotent, commutative and
      associative: the points of the value's algebra are visited and the
      fill is combined once more when some point was not;
    - `"reassociate"`: the combiner is commutative and associative (not
      idempotent): the points of the value's algebra are visited, then the
      fill, combined with itself as many times as points were not visited
      (by repeated squaring: an integer row sum with fill 1 adds the number
      of implicit entries), is combined once;
    - `"signed_zero_sum"`: the combiner is exactly IEEE addition with
      identity -0.0 and the value's fill is +0.0 (exact f64 sums): the
      points of the value's algebra are visited and counted; a -0.0 sum
      becomes +0.0 when some point was not visited;
    - `"signed_zero_dot"`: as `signed_zero_sum`, and the value is exactly
      IEEE x * y of a sparse input with fill ±0.0 and a dense input read at
      the reduced variables (SpMV with exact f64 add and mul): only the
      sparse input's stored points are visited; counts of the dense input's
      non-finite values and of those whose omitted product is +0.0, over
      the whole input and over the visited points, decide whether an
      omitted point makes the result NaN or a -0.0 sum +0.0;
    - `"universe"`: every point is visited, in order (e.g. f64 sums, which
      are not associative, over a value whose fill is not +0.0);
    and `early_exit` when the combiner has an annihilator: the loops stop
    as soon as the accumulator holds it (never for scatter reductions);
    `scatter = array<i32: p, q>` when the kernel is a matrix product
    computed row by row (Gustavson; a vector times a matrix is the one-row
    case): kernel inputs p and q are the factors P(i, k) and Q(k, j), and
    each result row accumulates the rows of Q scaled by the row of P in a
    workspace. The planner records the factors; the lowering follows them.
    `scatter_loops = array<i32: ...>` (a scatter reduction; issue 20) when
    an input stores a reduced variable above a kept one (column sums of a
    CSR matrix): the kernel's loops run over the index variables in this
    order, as the inputs store them, and each visited point's value is
    combined into the result entry at its kept coordinates — in the same
    order per entry as the nested fold, so the result is the same, without
    converting the input. The kernel's lattices are then those of these
    loops over the reduced value's space.

    Example:

    ```mlir
    %m = sparse_array.reduce_over [%j] %aij with @min : f64
    %s = sparse_array.reduce_over [%j] %p with @or {early_exit, plan = #sparse_array.reduction<strategy = identity, algebra = #sparse_array.algebra<0, fills = []>, value_fill = #sparse_array.scalar<false>>} : i1
    %c = sparse_array.reduce_over [%k] %pq with @add {scatter = array<i32: 0, 1>, plan = #sparse_array.reduction<strategy = identity, algebra = #sparse_array.algebra<intersect(0, 1), fills = []>, value_fill = #sparse_array.scalar<0.0 : f64>>} : f64
    %t = sparse_array.reduce_over [%i] %aij with @add {scatter_loops = array<i32: 1, 0>, plan = #sparse_array.reduction<strategy = universe>} : f64
    %y = sparse_array.reduce_over [%j] %aij from %y0 with @add : f64
    ```
  }];
  // The value first: type inference (AllTypesMatch) must not depend on how
  // many indices precede it.
  let arguments = (ins AnyType:$value, Variadic<Index>:$indices,
                       Optional<AnyType>:$start,
                       FlatSymbolRefAttr:$combiner,
                       OptionalAttr<SparseArray_ReductionPlanAttr>:$plan,
                       UnitAttr:$early_exit,
                       OptionalAttr<DenseI32ArrayAttr>:$scatter,
                       OptionalAttr<DenseI32ArrayAttr>:$scatter_loops);
  let results = (outs AnyType:$result);
  let assemblyFormat = [{
    ` ` `[` $indices `]` $value (`from` $start^)? `with` $combiner attr-dict `:` type($value)
  }];
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    /// The planned strategy (none before sparse-array-build-lattices).
    std::optional<::mlir::sparse_array::ReductionStrategy> getStrategy() {
      if (ReductionPlanAttr plan = getPlanAttr())
        return plan.getStrategy();
      return std::nullopt;
    }
  }];
}

//===----------------------------------------------------------------------===//
// Array-level operations (what frontends emit)
//===----------------------------------------------------------------------===//

def SparseArray_MapOp : SparseArray_Op<"map", [
    Pure, DeclareOpInterfaceMethods<SymbolUserOpInterface>]> {
  let summary = "Element-wise application of a function, with broadcasting";
  let description = [{
    Applies `fn` to corresponding entries of the inputs. Shapes broadcast as
    in NumPy: dimensions align from the right, and a dimension of static
    size 1 (or a missing one) repeats along the result's. A dynamic (`?`)
    dimension is never broadcast: it must equal the result's at run time
    (a size-1 dimension that is meant to broadcast must be typed as 1). Output format and fill are
    those of the result type unless `infer_fill` / `infer_format` ask for
    them to be derived (see `sparse_array.kernel`); `sparse-array-fuse`
    turns maps into kernels.

    Example:

    ```mlir
    %r = sparse_array.map @ldexp(%a, %e)
        : (!sparse_array.array<?x8xf64>, !sparse_array.array<8xi32>) -> !sparse_array.array<?x8xf64>
    ```
  }];
  let arguments = (ins FlatSymbolRefAttr:$fn, Variadic<SparseArray_Array>:$inputs,
                       UnitAttr:$infer_fill, UnitAttr:$infer_format);
  let results = (outs SparseArray_Array:$result);
  let assemblyFormat =
      "$fn `(` $inputs `)` attr-dict `:` functional-type($inputs, $result)";
  let hasVerifier = 1;
}

def SparseArray_ReduceOp : SparseArray_Op<"reduce", [
    Pure, DeclareOpInterfaceMethods<SymbolUserOpInterface>]> {
  let summary = "Reduction of dimensions of an array with a binary function";
  let description = [{
    Combines the entries along `dims` with the binary function `fn`; the
    result has the remaining dimensions in order.

    Example (row minima):

    ```mlir
    %m = sparse_array.reduce @min %A dims [1]
        : !sparse_array.array<?x?xf64> -> !sparse_array.array<?xf64>
    ```
  }];
  let arguments = (ins FlatSymbolRefAttr:$fn, SparseArray_Array:$input,
                       DenseI64ArrayAttr:$dims);
  let results = (outs SparseArray_Array:$result);
  let assemblyFormat =
      "$fn $input `dims` $dims attr-dict `:` qualified(type($input)) `->` qualified(type($result))";
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Storage, I/O and conversion (seed 002 §3; docs/storage.md)
//===----------------------------------------------------------------------===//

def SparseArray_ReadOp : SparseArray_Op<"read", [AttrSizedOperandSegments]> {
  let summary = "Reads an array from a Matrix Market, FROSTT or text file";
  let description = [{
    Reads the file given as the `input`-th program input (`sa-run PROGRAM
    -- INPUT...`, 0-based; without inputs on the command line, the
    environment variable `TENSOR<input>` as upstream's runner library
    reads it), at a literal `path`, or named by a `file` string (an
    `!llvm.ptr` to a NUL-terminated path computed at run time: what
    imported programs pass around) into an array of the
    result type: any format, any fill value. Dynamic dimensions take the
    file's sizes; static ones must match them.

    `file_format` is `auto` (default: a `%%MatrixMarket` banner, the text
    format, else FROSTT), `mtx`, `tns` (FROSTT: one line per entry, 1-based
    coordinates then the value) or `text` (what `sparse_array.print`
    writes). The entries a file does not list take the array's fill value;
    listed entries equal to the fill are not stored. A malformed file stops
    the program with "FILE:LINE: reason" and exit code 2.

    Example:

    ```mlir
    %a = sparse_array.read input %c0
        : !sparse_array.array<?x?xf64, #sparse_array.format<[dense, compressed]>>
    %b = sparse_array.read path "graph.mtx" {file_format = "mtx"}
        : !sparse_array.array<?x?xi1, #sparse_array.format<[dense, compressed]>>
    %c = sparse_array.read file %name : !llvm.ptr
        : !sparse_array.array<?x?xf64, #sparse_array.format<[dense, compressed]>>
    ```
  }];
  let arguments = (ins Optional<Index>:$input, Optional<AnyType>:$file,
                       OptionalAttr<StrAttr>:$path,
                       DefaultValuedAttr<StrAttr, "\"auto\"">:$file_format);
  let results = (outs SparseArray_Array:$result);
  let assemblyFormat = [{
    (`input` $input^)? (`file` $file^ `:` type($file))? (`path` $path^)? attr-dict `:` qualified(type($result))
  }];
  let hasVerifier = 1;
}

def SparseArray_PrintOp : SparseArray_Op<"print"> {
  let summary = "Prints an array in the text format";
  let description = [{
    Writes the array to standard output:

    ```
    # fill: <value>
    <rank> <number of entries listed>
    <dim 1> ... <dim rank>
    <i1> ... <i_rank> <value>      1-based, lexicographic order
    ```

    Entries equal to the fill value are not listed, so every format of the
    same array prints the same text. Floats print the shortest decimal that
    reads back to the same bits (`inf`, `-inf`, `nan`); i1 as 0/1.

    Example:

    ```mlir
    sparse_array.print %a : !sparse_array.array<?x?xf64, #sparse_array.format<[dense, compressed]>>
    ```
  }];
  let arguments = (ins SparseArray_Array:$source);
  let assemblyFormat = "$source attr-dict `:` qualified(type($source))";
}

def SparseArray_ValidateOp : SparseArray_Op<"validate"> {
  let summary = "Checks at run time that an array's buffers fit its format";
  let description = [{
    Stops the program with a runtime error naming `what` (a returned error
    under `sa_rt_try`) unless the array's buffers are consistent with its
    format: buffer lengths, positions that start at 0 and never decrease,
    coordinates within their dimensions, in order within each segment on
    ordered levels (lexicographically over a compressed level and the
    singleton levels under it) and without repeats on unique ones. Kernels
    assume all of this; `sparse_array.assemble` does not check it, so an
    array built from a user's buffers (the importer's
    `sparse_tensor.assemble`) passes through `validate` first.

    Example:

    ```mlir
    sparse_array.validate %a, "assemble" : !sparse_array.array<3x4xf64, #sparse_array.format<[dense, compressed]>>
    ```
  }];
  let arguments = (ins SparseArray_Array:$source, StrAttr:$what);
  let assemblyFormat = "$source `,` $what attr-dict `:` qualified(type($source))";
}

def SparseArray_WriteOp : SparseArray_Op<"write"> {
  let summary = "Writes an array to a file";
  let description = [{
    Writes the array to the path given as the `input`-th program input or
    to a literal `path`: Matrix Market when the path ends in `.mtx` (rank 2
    and fill zero only; anything else stops with an error), the text format
    of `sparse_array.print` otherwise.

    Example:

    ```mlir
    sparse_array.write %a to input %c1 : !sparse_array.array<4x4xf32>
    ```
  }];
  let arguments = (ins SparseArray_Array:$source, Optional<Index>:$input,
                       OptionalAttr<StrAttr>:$path);
  let assemblyFormat = [{
    $source `to` (`input` $input^)? (`path` $path^)? attr-dict `:`
    qualified(type($source))
  }];
  let hasVerifier = 1;
}

def SparseArray_DeallocOp : SparseArray_Op<"dealloc"> {
  let summary = "Frees the buffers of an array";
  let description = [{
    Releases the storage of an array that owns its buffers: the result of
    `sparse_array.read`, `convert`, `change_fill` or of a kernel
    (`sparse_array.map` and friends). Afterwards neither the array nor any
    array sharing its buffers may be used — in particular the source of a
    `convert` to the same type, which folds to its source. The buffers of
    `sparse_array.constant` arrays are global data and cannot be freed (a
    verifier error where the constant is visible), nor can buffers the
    program passed to `sparse_array.assemble` that it did not allocate.

    Example:

    ```mlir
    %c = sparse_array.map @add_f64(%a, %b) : (...) -> !sparse_array.array<?xf64, #sparse_array.format<[compressed]>>
    sparse_array.print %c : !sparse_array.array<?xf64, #sparse_array.format<[compressed]>>
    sparse_array.dealloc %c : !sparse_array.array<?xf64, #sparse_array.format<[compressed]>>
    ```
  }];
  let arguments = (ins Arg<SparseArray_Array, "", [MemFree]>:$source);
  let assemblyFormat = "$source attr-dict `:` qualified(type($source))";
  let hasVerifier = 1;
}

def SparseArray_ConvertOp : SparseArray_Op<"convert", [AlwaysSpeculatable]> {
  let summary = "Converts an array to another storage format";
  let description = [{
    The same array in another format (levels, order, widths): element type,
    rank and fill value must agree, and static dimensions must match; a
    dynamic source dimension must equal a static result dimension at run
    time. To change the fill value use `sparse_array.change_fill`.

    Example:

    ```mlir
    %csc = sparse_array.convert %csr
        : !sparse_array.array<?x?xf64, #sparse_array.format<[dense, compressed]>>
       to !sparse_array.array<?x?xf64, #sparse_array.format<[dense, compressed], order = [1, 0]>>
    ```
  }];
  let arguments = (ins SparseArray_Array:$source);
  // New storage (freed with sparse_array.dealloc): two converts of one
  // array are two arrays, never merged by CSE.
  let results = (outs Res<SparseArray_Array, "", [MemAlloc]>:$result);
  let assemblyFormat = [{
    $source attr-dict `:` qualified(type($source)) `to` qualified(type($result))
  }];
  let hasVerifier = 1;
  let hasFolder = 1;
}

def SparseArray_ChangeFillOp : SparseArray_Op<"change_fill", [Pure]> {
  let summary = "The same array with another fill value (may densify)";
  let description = [{
    Returns an array equal to the source at every coordinate whose fill
    value (and format) is the result type's. Stored entries equal to the new
    fill become implicit; the source's implicit entries become explicit
    entries holding the old fill unless it equals the new one, so changing
    the fill of a sparse array generally stores all of its entries: the cost
    is proportional to the number of entries of the dense array.

    Example:

    ```mlir
    %d = sparse_array.change_fill %a
        : !sparse_array.array<?x?xf64, #sparse_array.format<[dense, compressed]>>
       to !sparse_array.array<?x?xf64, #sparse_array.format<[dense, compressed], fill = inf : f64>>
    ```
  }];
  let arguments = (ins SparseArray_Array:$source);
  let results = (outs SparseArray_Array:$result);
  let assemblyFormat = [{
    $source attr-dict `:` qualified(type($source)) `to` qualified(type($result))
  }];
  let hasVerifier = 1;
}

def SparseArray_DimOp : SparseArray_Op<"dim", [Pure]> {
  let summary = "The size of one dimension of an array";
  let description = [{
    Folds to a constant for a static dimension.

    Example:

    ```mlir
    %n = sparse_array.dim %a[1] : !sparse_array.array<4x?xf64>
    ```
  }];
  let arguments = (ins SparseArray_Array:$source, I64Attr:$dimension);
  let results = (outs Index:$result);
  let assemblyFormat = [{
    $source `[` $dimension `]` attr-dict `:` qualified(type($source))
  }];
  let hasVerifier = 1;
  let hasFolder = 1;
}

def SparseArray_ExtractOp : SparseArray_Op<"extract", [
    Pure,
    TypesMatchWith<"result is the array's element type", "source", "result",
                   "::llvm::cast<::mlir::sparse_array::ArrayType>($_self).getElementType()">]> {
  let summary = "One entry of an array at coordinates known at run time";
  let description = [{
    The dense program's value at the coordinates, one index per dimension:
    the stored value when the array stores the point, else the fill (an
    array of rank 0 has one entry). `sparse-array-lower-extract` finds the
    point level by level through the level iterators: a located position on
    levels with random access, a bisection (ordered) or a scan in the
    parent's segment otherwise. A coordinate outside its dimension stops
    the program with a run-time error naming the operation (NumPy raises
    IndexError; `tensor.extract` leaves it undefined).

    Example:

    ```mlir
    %v = sparse_array.extract %a[%i, %j]
        : !sparse_array.array<?x?xf64, #sparse_array.format<[dense, compressed]>>
    ```
  }];
  let arguments = (ins SparseArray_Array:$source, Variadic<Index>:$indices);
  let results = (outs AnyType:$result);
  let assemblyFormat = [{
    $source `[` $indices `]` attr-dict `:` qualified(type($source))
  }];
  let hasVerifier = 1;
}

def SparseArray_ConstantOp : SparseArray_Op<"constant", [Pure]> {
  let summary = "An array from a dense or sparse constant";
  let description = [{
    Builds an array of a static shape from a `dense<...>` or
    `sparse<coordinates, values>` attribute of the same shape and element
    type; entries not listed by a sparse attribute and entries equal to the
    fill value are implicit.

    Example:

    ```mlir
    %a = sparse_array.constant dense<[[1.0, 0.0], [0.0, 2.0]]> : tensor<2x2xf64>
        : !sparse_array.array<2x2xf64, #sparse_array.format<[dense, compressed]>>
    ```
  }];
  let arguments = (ins ElementsAttr:$value);
  let results = (outs SparseArray_Array:$result);
  let assemblyFormat = "$value attr-dict `:` qualified(type($result))";
  let hasVerifier = 1;
}

def SparseArray_PositionsOp : SparseArray_Op<"positions", [Pure]> {
  let summary = "The positions buffer of one level";
  let description = [{
    The level's positions buffer (seed 002 §3.1): the children of parent
    position p are positions p[p] .. p[p + 1] - 1. Only for levels whose
    format stores positions; the element type is the format's `pos_width`.

    Example:

    ```mlir
    %p = sparse_array.positions %a[1]
        : !sparse_array.array<?x?xf64, #sparse_array.format<[dense, compressed]>>
       -> memref<?xi64>
    ```
  }];
  let arguments = (ins SparseArray_Array:$source, I64Attr:$level);
  let results = (outs MemRefRankOf<[I32, I64], [1]>:$result);
  let assemblyFormat = [{
    $source `[` $level `]` attr-dict `:` qualified(type($source)) `->` type($result)
  }];
  let hasVerifier = 1;
}

def SparseArray_CoordinatesOp : SparseArray_Op<"coordinates", [Pure]> {
  let summary = "The coordinates buffer of one level";
  let description = [{
    The level's coordinates buffer: the coordinate of each position. Only
    for levels whose format stores coordinates; the element type is the
    format's `crd_width`.

    Example:

    ```mlir
    %c = sparse_array.coordinates %a[1]
        : !sparse_array.array<?x?xf64, #sparse_array.format<[dense, compressed]>>
       -> memref<?xi64>
    ```
  }];
  let arguments = (ins SparseArray_Array:$source, I64Attr:$level);
  let results = (outs MemRefRankOf<[I32, I64], [1]>:$result);
  let assemblyFormat = [{
    $source `[` $level `]` attr-dict `:` qualified(type($source)) `->` type($result)
  }];
  let hasVerifier = 1;
}

def SparseArray_LevelBufferOp : SparseArray_Op<"level_buffer", [Pure]> {
  let summary = "A buffer of one level, named by the role its format declares";
  let description = [{
    Any buffer a level format declares (seed 002 §3.1), by its role: the
    roles a level format plugin adds beyond positions and coordinates, such
    as a `diagonal` level's `offsets`. The element type is the width the
    format declares the buffer with (`pos_width` or `crd_width`).

    Example:

    ```mlir
    %o = sparse_array.level_buffer %a[1] "offsets"
        : !sparse_array.array<?x?xf64, #sparse_array.format<[dense, diagonal]>>
       -> memref<?xi64>
    ```
  }];
  let arguments = (ins SparseArray_Array:$source, I64Attr:$level,
                       StrAttr:$role);
  let results = (outs MemRefRankOf<[I32, I64], [1]>:$result);
  let assemblyFormat = [{
    $source `[` $level `]` $role attr-dict `:` qualified(type($source)) `->` type($result)
  }];
  let hasVerifier = 1;
}

def SparseArray_ValuesOp : SparseArray_Op<"values", [Pure]> {
  let summary = "The values buffer of an array";
  let description = [{
    One value per position of the innermost level (every entry for an
    all-dense array, in storage order).

    Example:

    ```mlir
    %v = sparse_array.values %a : !sparse_array.array<4xf32> -> memref<?xf32>
    ```
  }];
  let arguments = (ins SparseArray_Array:$source);
  let results = (outs AnyRankedOrUnrankedMemRef:$result);
  let assemblyFormat = [{
    $source attr-dict `:` qualified(type($source)) `->` type($result)
  }];
  let hasVerifier = 1;
}

def SparseArray_AssembleOp : SparseArray_Op<"assemble", [Pure, AttrSizedOperandSegments]> {
  let summary = "An array from its level buffers and dimension sizes";
  let description = [{
    The inverse of `positions`/`coordinates`/`values`: builds an array value
    from its buffers in ABI order (per level, positions then coordinates as
    the format stores them, then the values; docs/storage.md) and one size
    per dimension. The array owns the buffers afterwards. Kernel lowering
    emits it for the arrays it computes; the buffers must be consistent
    with the format (not checked).

    Example:

    ```mlir
    %a = sparse_array.assemble (%pos, %crd, %val), (%n)
        : memref<?xi64>, memref<?xi64>, memref<?xf64>
       -> !sparse_array.array<?xf64, #sparse_array.format<[compressed]>>
    ```
  }];
  let arguments = (ins Variadic<MemRefRankOf<[AnyType], [1]>>:$buffers,
                       Variadic<Index>:$dims);
  let results = (outs SparseArray_Array:$result);
  let assemblyFormat = [{
    `(` $buffers `)` `,` `(` $dims `)` attr-dict `:` type($buffers) `->` qualified(type($result))
  }];
  let hasVerifier = 1;
}

def SparseArray_DemapOp : SparseArray_Op<"demap", [Pure]> {
  let summary = "An array's levels as an array of their own (the same buffers)";
  let description = [{
    Views `source` as the array whose dimension `l` is its level `l` (seed
    002 §3: each level a coordinate of its own): a blocked dimension of
    block size `b` (a format with `blocks`) becomes two dimensions, its
    blocks (extent `d / b`) and the place in a block (extent `b`); the
    result's format has the source's levels in identity order, without
    blocks. No entry moves: the result is the source's buffers with the
    levels' extents, valid while the source is, and never freed on its own.
    `sparse-array-legalize-formats` reads blocked arrays in kernels through
    it, the block levels iterated as loops of their own.

    Example:

    ```mlir
    %l = sparse_array.demap %a
        : !sparse_array.array<?x?xf64, #sparse_array.format<[dense, compressed, dense, dense], order = [0, 1, 0, 1], blocks = [2, 3]>>
       -> !sparse_array.array<?x?x2x3xf64, #sparse_array.format<[dense, compressed, dense, dense]>>
    ```
  }];
  let arguments = (ins SparseArray_Array:$source);
  let results = (outs SparseArray_Array:$result);
  let assemblyFormat = [{
    $source attr-dict `:` qualified(type($source)) `->` qualified(type($result))
  }];
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    /// The type of the array of `source`'s levels.
    static ArrayType getDemappedType(ArrayType source);
  }];
}

include "SparseArray/Dialect/ShapeOps.td"

#endif // SPARSE_ARRAY_OPS
