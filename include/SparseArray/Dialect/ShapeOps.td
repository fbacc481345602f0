//===- ShapeOps.td - Shape operators ------------------------*- tablegen -*-===//
//
// Shape operators (seed 001 §4): array-level ops that `sparse-array-fuse`
// turns into kernels whose accesses map coordinates, fused with the
// compute around them.
//
//===----------------------------------------------------------------------===//

#ifndef SPARSE_ARRAY_SHAPE_OPS
#define SPARSE_ARRAY_SHAPE_OPS

def SparseArray_SliceOp : SparseArray_Op<"slice", [Pure]> {
  let summary = "NumPy basic indexing: slices and integer indices";
  let description = [{
    The array `source[spec]` with NumPy's basic-indexing semantics (seed
    001 §4.1's slice; seed 000 §4.2). One entry per leading dimension of
    the source (the remaining ones are taken whole):

    - `start:stop:step`, each part optional (`:`, `2:`, `:-1`, `::3`):
      Python's slice, negative `start`/`stop` counting from the end, both
      clamped to the dimension; a negative `step` counts down (a
      reversal: `::-1`, `5:1:-2`), from the end by default;
    - an integer (negative: from the end) selects one coordinate and drops
      the dimension.

    The result holds the dense program's values; its format and fill are
    the result type's (entries equal to its fill are not stored, a fill
    other than the source's makes every point computed). Its shape must be
    the slice's. Dimensions whose size is known only at run time may be
    taken whole, indexed by a non-negative integer, or sliced with explicit
    non-negative `start` and `stop` (checked against the size at run time;
    with a negative step the stop may be omitted).

    `sparse-array-fuse` lowers it to a kernel reading the source through a
    sliced access (`%i(lo:hi:step)`, constant coordinates for integers) and
    fuses it like any kernel: a slice of a computed expression slices that
    expression's inputs, and expressions of slices read the slices' sources
    (seed 001 §5.2: no temporary). With nothing to fuse with, a unit-step
    slice of one dimension of static size, stored like its result, under
    full levels only, stays for `sparse-array-lower-shape`, which copies
    the stored range per parent (located on full levels, found by
    bisection on ordered ones).

    Example:

    ```mlir
    %r = sparse_array.slice %A[1:9:2, -1]
        : !sparse_array.array<10x4xf64, #sparse_array.format<[dense, compressed]>>
       -> !sparse_array.array<4xf64, #sparse_array.format<[compressed]>>
    ```
  }];
  let arguments = (ins SparseArray_Array:$source, DenseI64ArrayAttr:$spec,
                       OptionalAttr<SparseArray_ShapePlanAttr>:$plan);
  let results = (outs SparseArray_Array:$result);
  let assemblyFormat = [{
    $source custom<SliceSpec>($spec) attr-dict `:` qualified(type($source)) `->` qualified(type($result))
  }];
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    /// `spec` holds four values per given dimension: kind (0: a slice,
    /// 1: an integer index), start, stop, step; kNone for an omitted part.
    static constexpr int64_t kNone = INT64_MIN;
    /// What dimension `dim` of the source reads, normalized against its
    /// size: coordinates lo, lo + step, ... before hi, counting down for a
    /// negative step, hi then at least -1 (`index`: the single
    /// coordinate lo, the dimension dropped). Fails (with `why`) for a
    /// dimension of unknown size that needs it for normalization.
    struct Normalized {
      bool index = false;
      int64_t lo = 0, hi = 0, step = 1;
      /// Whether the dimension is read whole (no slice needed).
      bool whole = false;
      int64_t length() const { return index ? 1 : sliceLength(lo, hi, step); }
    };
    FailureOr<Normalized> normalize(unsigned dim, std::string *why = nullptr);
    /// The result's shape the spec gives for the source's.
    FailureOr<SmallVector<int64_t>> inferShape(std::string *why = nullptr);
  }];
}

def SparseArray_DynamicSliceOp : SparseArray_Op<"dynamic_slice", [
    AttrSizedOperandSegments]> {
  let summary = "A strided slice whose offsets, sizes and strides are known at run time";
  let description = [{
    `result[i0, i1, ...] = source[o0 + i0 * s0, o1 + i1 * s1, ...]` for
    `i_d` in `[0, size_d)`: seed 001 §4.1's slice with bounds that are
    values (a `tensor.extract_slice` with operands, a convolution tap at
    a window offset known only at run time). One offset, size and stride
    per dimension; strides at least 1. The result holds the dense
    program's values in the result type's format and fill; a static
    result size must equal its size operand.

    Where `sparse_array.slice` is fused into the kernels that read it, this
    operation makes a new array at run time: the runtime moves the
    source's stored entries in range to their coordinates in the result
    (O(stored entries) and a pack), after checking the bounds against the
    source's sizes (a run-time error names the dimension). Not pure: that
    check stops the program.

    Example:

    ```mlir
    %r = sparse_array.dynamic_slice %A[%o0, %o1] [%n0, %n1] [%c1, %c2]
        : !sparse_array.array<?x?xf64, #sparse_array.format<[dense, compressed]>>
       -> !sparse_array.array<?x?xf64, #sparse_array.format<[dense, compressed]>>
    ```
  }];
  let arguments = (ins SparseArray_Array:$source, Variadic<Index>:$offsets,
                       Variadic<Index>:$sizes, Variadic<Index>:$strides);
  let results = (outs SparseArray_Array:$result);
  let assemblyFormat = [{
    $source `[` $offsets `]` ` ` `[` $sizes `]` ` ` `[` $strides `]` attr-dict `:` qualified(type($source)) `->` qualified(type($result))
  }];
  let hasVerifier = 1;
}

def SparseArray_TransposeOp : SparseArray_Op<"transpose", [Pure]> {
  let summary = "Permutation of the dimensions (numpy.transpose)";
  let description = [{
    The array whose dimension d is dimension `permutation[d]` of the source
    (`numpy.transpose(a, axes)`). A view: `sparse-array-fuse` lowers it to a
    kernel reading the source with permuted indices, fused with what
    surrounds it. The loops follow the result's storage order; a stored
    source whose levels come in another order is converted first (seed 002
    §3: a transposed traversal of a compressed level needs its entries
    re-sorted), so transposing CSR into CSC copies no entry order while CSR
    into CSR sorts once.

    Example:

    ```mlir
    %t = sparse_array.transpose %a [1, 0]
        : !sparse_array.array<4x6xf64, #sparse_array.format<[dense, compressed]>>
       -> !sparse_array.array<6x4xf64, #sparse_array.format<[dense, compressed], order = [1, 0]>>
    ```
  }];
  let arguments = (ins SparseArray_Array:$source,
                       DenseI64ArrayAttr:$permutation);
  let results = (outs SparseArray_Array:$result);
  let assemblyFormat = [{
    $source $permutation attr-dict `:` qualified(type($source)) `->` qualified(type($result))
  }];
  let hasVerifier = 1;
}

def SparseArray_ExpandDimsOp : SparseArray_Op<"expand_dims", [Pure]> {
  let summary = "New dimensions of size 1 (numpy.expand_dims)";
  let description = [{
    The source with a dimension of size 1 inserted at each of `dims`
    (positions in the result, `numpy.expand_dims(a, axis=dims)`). Lowered
    to a kernel whose new index variables no access reads (broadcasting
    along them, seed 001 §5.2 Fig. 11's U), fused with what surrounds it.

    Example:

    ```mlir
    %e = sparse_array.expand_dims %v [0]
        : !sparse_array.array<6xf64> -> !sparse_array.array<1x6xf64>
    ```
  }];
  let arguments = (ins SparseArray_Array:$source, DenseI64ArrayAttr:$dims);
  let results = (outs SparseArray_Array:$result);
  let assemblyFormat = [{
    $source $dims attr-dict `:` qualified(type($source)) `->` qualified(type($result))
  }];
  let hasVerifier = 1;
}

def SparseArray_SqueezeOp : SparseArray_Op<"squeeze", [Pure]> {
  let summary = "Removal of dimensions of size 1 (numpy.squeeze)";
  let description = [{
    The source without the dimensions `dims`, each of static size 1
    (`numpy.squeeze(a, axis=dims)`): the index 0 of each, as
    `sparse_array.slice` with an integer index would read it.

    Example:

    ```mlir
    %s = sparse_array.squeeze %m [0]
        : !sparse_array.array<1x6xf64> -> !sparse_array.array<6xf64>
    ```
  }];
  let arguments = (ins SparseArray_Array:$source, DenseI64ArrayAttr:$dims);
  let results = (outs SparseArray_Array:$result);
  let assemblyFormat = [{
    $source $dims attr-dict `:` qualified(type($source)) `->` qualified(type($result))
  }];
  let hasVerifier = 1;
}

def SparseArray_ConcatOp : SparseArray_Op<"concat", [Pure]> {
  let summary = "Concatenation along a dimension (numpy.concatenate)";
  let description = [{
    The inputs joined along dimension `dim` (`numpy.concatenate(inputs,
    axis=dim)`; `hstack` and `vstack` are its cases): every other dimension
    agrees, the result's `dim` is their sum (`?` when an input's size along
    `dim` is known only at run time).
    Seed 001 §4.1 and §5.1: a loop over the result's `dim` iterates
    `a ⊔ b`, then `|a| + b` once `a` ran out.

    Fill values: each input's implicit entries hold its own fill, so the
    result holds the dense program's values whatever the fills; the result
    type's fill decides what is stored. Where an input's fill differs from
    the result's, its part is computed at every point (its implicit entries
    are values there).

    `sparse-array-fuse` lowers it to a kernel that reads each input through
    a padded window of `dim` (`%l(-offset:total-offset)`) and picks the part
    a coordinate lies in (`sparse_array.select_range`), fused with what
    surrounds it. With nothing to fuse with, inputs stored like the result
    (levels, order, widths, fill) and only full levels above the one
    storing `dim`, it stays for `sparse-array-lower-shape`, which copies
    each input's range of stored positions per parent of that level (CSR
    vstack: the buffers one after the other, positions moved; hstack: each
    row's segments in turn, coordinates moved). Sizes along `dim` known
    only at run time give no window offsets to compile: such a
    concatenation is not fused (its result is an array its readers read);
    it moves stored ranges where the inputs allow, else the runtime adds
    each input's entries at its offset and packs them.

    Example:

    ```mlir
    %c = sparse_array.concat %a, %b dim 1
        : !sparse_array.array<4x3xf64, #csr>, !sparse_array.array<4x5xf64, #csr>
       -> !sparse_array.array<4x8xf64, #csr>
    ```
  }];
  let arguments = (ins Variadic<SparseArray_Array>:$inputs, I64Attr:$dim,
                       OptionalAttr<SparseArray_ShapePlanAttr>:$plan);
  let results = (outs SparseArray_Array:$result);
  let assemblyFormat = [{
    $inputs `dim` $dim attr-dict `:` qualified(type($inputs)) `->` qualified(type($result))
  }];
  let hasVerifier = 1;
}

def SparseArray_CollapseOp : SparseArray_Op<"collapse", [Pure]> {
  let summary = "Merge adjacent dimensions into one (seed 001 §4.1 collapse)";
  let description = [{
    The source with the adjacent dimensions `dims` (ascending, at least
    one) merged into one at the position of the first: with `order "C"`
    (the default, row-major) coordinate (i, j) of dimensions of sizes
    (m, n) becomes i * n + j; with `order "F"` (column-major) i + m * j.
    `numpy.reshape` with the merged size is the same operation. Sizes known
    only at run time make the merged size known only at run time.

    The result holds the dense program's values: every stored entry moves
    to its linearized coordinate, implicit entries stay implicit (the fill
    is kept; a result type with another fill makes the source's implicit
    entries explicit). Dimensions that are not adjacent are collapsed by
    transposing them next to each other first (`sparse_array.transpose`).

    `sparse-array-fuse` fuses a collapse into the computation that uses it
    (a kernel reading the source through `sparse_array.delinearize`, whose
    loop iterates the product of the levels storing the parts: no
    collapsed array); a collapse with no such user is lowered by
    `sparse-array-lower-shape` (merged levels) or the runtime.

    Example:

    ```mlir
    %v = sparse_array.collapse %a [0, 1]
        : !sparse_array.array<4x6xf64, #sparse_array.format<[dense, compressed]>>
       -> !sparse_array.array<24xf64, #sparse_array.format<[compressed]>>
    ```
  }];
  let arguments = (ins SparseArray_Array:$source, DenseI64ArrayAttr:$dims,
                       DefaultValuedAttr<StrAttr, "\"C\"">:$order,
                       OptionalAttr<SparseArray_ShapePlanAttr>:$plan);
  let results = (outs SparseArray_Array:$result);
  let assemblyFormat = [{
    $source $dims (`order` $order^)? attr-dict `:` qualified(type($source)) `->` qualified(type($result))
  }];
  let hasVerifier = 1;
}

def SparseArray_SplitOp : SparseArray_Op<"split", [Pure]> {
  let summary = "Split one dimension into several (seed 001 §4.1 split)";
  let description = [{
    The inverse of `sparse_array.collapse`: dimension `dim` of the source
    becomes dimensions of sizes `sizes` (at least one), whose product is its
    size; one size may be -1, inferred from the others (numpy's
    `reshape(..., -1, ...)`). With `order "C"` (the default) coordinate l
    becomes (l / n, l % n) for sizes (m, n); with `order "F"`
    (l % m, l / m). A size inferred from a dimension known only at run time
    is known only at run time, and the split is checked then.

    Example:

    ```mlir
    %m = sparse_array.split %v dim 0 [4, 6]
        : !sparse_array.array<24xf64, #sparse_array.format<[compressed]>>
       -> !sparse_array.array<4x6xf64, #sparse_array.format<[dense, compressed]>>
    ```
  }];
  let arguments = (ins SparseArray_Array:$source, I64Attr:$dim,
                       DenseI64ArrayAttr:$sizes,
                       DefaultValuedAttr<StrAttr, "\"C\"">:$order,
                       OptionalAttr<SparseArray_ShapePlanAttr>:$plan);
  let results = (outs SparseArray_Array:$result);
  let assemblyFormat = [{
    $source `dim` $dim $sizes (`order` $order^)? attr-dict `:` qualified(type($source)) `->` qualified(type($result))
  }];
  let hasVerifier = 1;
}

def SparseArray_ReshapeOp : SparseArray_Op<"reshape", [Pure]> {
  let summary = "numpy.reshape: the same entries in another shape";
  let description = [{
    `numpy.reshape(source, shape, order)`: every coordinate of the source,
    linearized in `order` ("C", the default: row-major; "F":
    column-major), is delinearized in the same order into `shape`. One
    entry of `shape` may be -1, inferred from the source's size; the
    sizes' product must equal the source's (checked at run time when a size
    is known only then; the error names both shapes). A collapse followed
    by a split (seed 001 §4.1), in one operation.

    Example:

    ```mlir
    %r = sparse_array.reshape %a [3, -1]
        : !sparse_array.array<4x6xf64, #sparse_array.format<[dense, compressed]>>
       -> !sparse_array.array<3x8xf64, #sparse_array.format<[dense, compressed]>>
    ```
  }];
  let arguments = (ins SparseArray_Array:$source, DenseI64ArrayAttr:$shape,
                       DefaultValuedAttr<StrAttr, "\"C\"">:$order);
  let results = (outs SparseArray_Array:$result);
  let assemblyFormat = [{
    $source $shape (`order` $order^)? attr-dict `:` qualified(type($source)) `->` qualified(type($result))
  }];
  let hasVerifier = 1;
}

def SparseArray_LinearizeOp : SparseArray_Op<"linearize", [
    Pure, HasParent<"KernelOp">]> {
  let summary = "One coordinate from several index variables (a split read)";
  let description = [{
    The coordinate `((i0 * s1 + i1) * s2 + i2) ...` of index variables
    `indices` = (i0, i1, ...) with `sizes` = (s1, s2, ...), the extents of
    all but the first: how a kernel reads an array through a split of one
    of its dimensions (seed 001 §4.1 split; §5.1's projections: the first
    variable iterates the stored coordinates' quotients, the others the
    remainders within them). Only `sparse_array.access` may use it, as the
    index of one dimension.

    Example:

    ```mlir
    %l = sparse_array.linearize %i, %j [4]
    %v = sparse_array.access %x[%l] : !sparse_array.array<12xf64>
    ```
  }];
  let arguments = (ins Variadic<Index>:$indices, DenseI64ArrayAttr:$sizes);
  let results = (outs Index:$result);
  let assemblyFormat = [{
    $indices $sizes attr-dict
  }];
  let hasVerifier = 1;
}

def SparseArray_DelinearizeOp : SparseArray_Op<"delinearize", [
    Pure, HasParent<"KernelOp">]> {
  let summary = "Several coordinates from one index variable (a collapse read)";
  let description = [{
    The coordinates (x / (s1 * s2 ...), (x / (s2 * ...)) % s1, ..., x % sn)
    of index variable `x` with `sizes` = (s1, ..., sn), the extents of all
    but the first part: how a kernel reads an array through a collapse of
    several of its dimensions (seed 001 §4.1 collapse; §5.1's product
    a × b: one loop iterates the levels storing the parts, outer first,
    when they are adjacent in the linearization's order). The inverse of
    `sparse_array.linearize`. Only `sparse_array.access` may use the
    results, as indices.

    Example:

    ```mlir
    %p:2 = sparse_array.delinearize %x [6] : index, index
    %v = sparse_array.access %A[%p#0, %p#1] : !sparse_array.array<4x6xf64>
    ```
  }];
  let arguments = (ins Index:$index, DenseI64ArrayAttr:$sizes);
  let results = (outs Variadic<Index>:$results);
  let assemblyFormat = [{
    $index $sizes attr-dict `:` type($results)
  }];
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    /// Result `part` is (x / divisor) % modulus (no modulus, 0, for the
    /// first part).
    int64_t getDivisor(unsigned part) {
      int64_t d = 1;
      for (int64_t s : getSizes().drop_front(part))
        d *= s;
      return d;
    }
    int64_t getModulus(unsigned part) {
      return part ? getSizes()[part - 1] : 0;
    }
  }];
}

def SparseArray_SelectRangeOp : SparseArray_Op<"select_range", [
    Pure, HasParent<"KernelOp">, AttrSizedOperandSegments]> {
  let summary = "The value of the part a coordinate lies in";
  let description = [{
    `parts[p]` where `bounds[p - 1] <= index < bounds[p]` (with -inf and +inf
    around the bounds): the value of a concatenation at coordinate `index`
    (an index variable of the kernel), each part read through a padded
    window (seed 001 §5.1). Its iteration algebra is the union of the
    parts' where their fills agree, the universe otherwise (a part whose
    implicit entries differ from the others' covers its whole range). A
    dense part that only concatenations read agrees whatever its fill: it
    is present in its window alone, and an entry there is tested against
    the common fill, which is what the concatenation yields where it is
    absent.

    A part computed with a fill other than the common one is a value at
    every point of its range. `ranges` names such parts (`ranged`, part
    numbers) with, for each, the read of a dense marker array present at
    exactly the points of the part's window: its leaf is the part's range
    (a range-restricted universe, seed 001 §5.1 with fills), so the kernel
    iterates that range and not the whole result. The markers' values are
    never read.

    Example:

    ```mlir
    %v = sparse_array.select_range %l [3] (%a, %b) : f64, f64 -> f64
    %w = sparse_array.select_range %l [3] (%a, %b) ranges [0] (%m) : f64, f64 -> f64
    ```
  }];
  let arguments = (ins Index:$index, DenseI64ArrayAttr:$bounds,
                       Variadic<AnyType>:$parts,
                       OptionalAttr<DenseI64ArrayAttr>:$ranged,
                       Variadic<I1>:$ranges);
  let results = (outs AnyType:$result);
  let assemblyFormat = [{
    $index $bounds ` ` `(` $parts `)` (`ranges` $ranged^ ` ` `(` $ranges `)`)? attr-dict `:` type($parts) `->` type($result)
  }];
  let builders = [
    OpBuilder<(ins "Type":$result, "Value":$index,
                   "DenseI64ArrayAttr":$bounds, "ValueRange":$parts), [{
      build($_builder, $_state, result, index, bounds, parts,
            DenseI64ArrayAttr(), ValueRange{});
    }]>
  ];
  let extraClassDeclaration = [{
    /// The marker read of part `p` (a range-restricted part), or null.
    Value getRangeOf(unsigned p);
  }];
  let hasVerifier = 1;
}

#endif // SPARSE_ARRAY_SHAPE_OPS
