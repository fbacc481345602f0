//===- SparseArrayAttrs.td - sparse_array attributes -------*- tablegen -*-===//

#ifndef SPARSE_ARRAY_ATTRS
#define SPARSE_ARRAY_ATTRS

include "SparseArray/Dialect/SparseArrayBase.td"
include "mlir/IR/EnumAttr.td"

def LevelSpecArrayParameter
    : ArrayRefParameter<"::mlir::sparse_array::LevelSpec",
                        "level formats, outermost level first">;

def SparseArray_FormatAttr : SparseArray_Attr<"Format", "format"> {
  let summary = "Storage format of an array: level formats, order, widths, fill value";
  let description = [{
    Describes how an array is stored (seed 002 §3): one *level format* per
    stored level, outermost first, each with its properties; the order in
    which the dimensions are stored as levels; the bit widths of position and
    coordinate buffers; and the **fill value** that every implicit (not
    stored) entry holds (seed 000 §3).

    Syntax:

    ```
    #sparse_array.format<[level, ...] (, key = value)*>
    level ::= dense | compressed | singleton | <plugin name>
              ( `(` (nonunique | nonordered) (`,` ...)* `)` )?
    keys  ::= order = [d0, d1, ...]   // level l stores dimension order[l]
              pos_width = 32 | 64      // default 64
              crd_width = 32 | 64      // default 64
              fill = <value> : <type>  // default: zero of the element type
              blocks = [b0, b1, ...]   // block size per dimension (BCSR)
    ```

    **Blocks** (seed 002 §3's BCSR: a dense block level below the levels
    that find the block): with `blocks`, a dimension `d` of block size
    `b > 1` is stored at two levels — the first level naming `d` in `order`
    stores `d floordiv b` (which block), the second `d mod b` (where in the
    block); a dimension of block size 1 is stored once, as without blocks.
    Such a format has one level per dimension plus one per blocked
    dimension, and every size of a blocked dimension is a multiple of its
    block. Kernels read and write blocked arrays through their unblocked
    format (`sparse-array-legalize-formats`); the runtime's conversions,
    I/O and printing take them as stored.

    Fill values are written as integer or float literals (`42 : i32`,
    `-0.0 : f64`, `0x7FF8000000000001 : f64`), or as `nan`, `inf`, `-inf`
    followed by the float type.

    Example:

    ```mlir
    #CSR = #sparse_array.format<[dense, compressed]>
    #CSC = #sparse_array.format<[dense, compressed], order = [1, 0]>
    #COO = #sparse_array.format<[compressed(nonunique), singleton],
                                pos_width = 32, crd_width = 32>
    #DistanceMatrix = #sparse_array.format<[dense, compressed], fill = inf : f64>
    // BCSR with 2 x 3 blocks: (i / 2, j / 3, i mod 2, j mod 3).
    #BSR = #sparse_array.format<[dense, compressed, dense, dense],
                                order = [0, 1, 0, 1], blocks = [2, 3]>
    ```

    Invariants (checked by the verifier): the order is a permutation of the
    levels; widths are 32 or 64; each level's properties are allowed by its
    format; every level's format accepts its parent (e.g. a `singleton`
    level must follow a `compressed` or a non-unique level, and a non-unique
    level must be followed by a level that accepts duplicates from its
    parent); the fill value is an integer or floating-point constant. That
    the fill value's type is the array's element type is checked by the
    array type.
  }];

  let parameters = (ins
    // One entry per stored level, outermost first.
    LevelSpecArrayParameter:$levels,
    // order[l] is the dimension stored by level l; empty means identity.
    ArrayRefParameter<"unsigned", "dimension stored by each level">:$order,
    // Bit widths of the position and coordinate buffers.
    "unsigned":$posWidth,
    "unsigned":$crdWidth,
    // The value of every implicit entry; null only while a format is being
    // built without an element type (an array type always normalizes it).
    OptionalParameter<"::mlir::TypedAttr">:$fill,
    // Block size per dimension; empty when no dimension is blocked.
    OptionalArrayRefParameter<"uint64_t", "block size per dimension">:$blocks
  );
  let builders = [
    AttrBuilder<(ins "::llvm::ArrayRef<::mlir::sparse_array::LevelSpec>":$levels,
                     "::llvm::ArrayRef<unsigned>":$order,
                     "unsigned":$posWidth, "unsigned":$crdWidth,
                     "::mlir::TypedAttr":$fill), [{
      return $_get($_ctxt, levels, order, posWidth, crdWidth, fill,
                   ::llvm::ArrayRef<uint64_t>{});
    }]>
  ];
  let hasCustomAssemblyFormat = 1;
  let genVerifyDecl = 1;

  let extraClassDeclaration = [{
    unsigned getNumLevels() const { return getLevels().size(); }
    /// The number of dimensions: one per level, less one per blocked one.
    unsigned getRank() const;
    /// The dimension stored at level `lvl` (whole, or its block or the
    /// place in its block: getLevelPart).
    unsigned getLevelDim(unsigned lvl) const {
      return getOrder().empty() ? lvl : getOrder()[lvl];
    }
    /// True when some dimension is stored as blocks (two levels).
    bool isBlocked() const;
    /// What of its dimension level `lvl` stores.
    enum class LevelPart { Whole, Block, InBlock };
    LevelPart getLevelPart(unsigned lvl) const;
    /// The block size of dimension `dim` (1 when not blocked).
    uint64_t getBlock(unsigned dim) const;
    /// The level that stores dimension `dim` (its block level when blocked).
    unsigned getDimLevel(unsigned dim) const;
    /// The same format without blocks: each blocked dimension stored once,
    /// at its block level, by that level's format (null when there is no
    /// valid such format).
    FormatAttr withoutBlocks() const;
    bool isIdentityOrder() const { return getOrder().empty(); }
    /// True when every level is full (the array stores every entry).
    bool isAllDense() const;
    /// Rows of segments: the outermost level full and the next one
    /// segmented (CSR, and CSC through its order) — the one format-shape
    /// query the planners, verifiers and emitters ask.
    bool isRowsOfSegments() const;
    /// The same format with another fill value.
    FormatAttr withFill(::mlir::TypedAttr fill) const;
    /// The default format for a rank: all dense, identity order, 64-bit
    /// widths, fill zero of `elementType`.
    static FormatAttr getDefault(::mlir::MLIRContext *ctx, unsigned rank,
                                 ::mlir::Type elementType);
    static constexpr unsigned kDefaultWidth = 64;
  }];
}

//===----------------------------------------------------------------------===//
// Iteration algebra and function properties
//===----------------------------------------------------------------------===//

def SparseArray_AlgebraAttr : SparseArray_Attr<"Algebra", "algebra"> {
  let summary = "An iteration algebra: a set expression over operands";
  let description = [{
    A set expression (seed 000 §5.1) over the coordinate sets of operands:
    leaf `k` is "where operand k stores an entry"; `union(...)`,
    `intersect(...)`, `complement(...)`, `universe`, `empty` combine them.

    On a `sparse_array.func` the leaves are argument positions and `fills`
    gives the fill value of each argument the algebra assumes (seed 000
    §5.2: the algebra is used only when the actual operands' fills match).
    On a kernel the leaves are the kernel's operands, and the attribute is
    what `sparse-array-derive-algebra` derived.

    Example:

    ```mlir
    // xor: defined where exactly one argument is defined.
    #sparse_array.algebra<intersect(union(0, 1), complement(intersect(0, 1))),
                          fills = [0 : i1, 0 : i1]>
    ```
  }];
  let parameters = (ins
    // IterationAlgebra::encode() of the expression (prefix order).
    ArrayRefParameter<"uint32_t", "encoded set expression">:$code,
    // The argument fill values the expression assumes; empty when none.
    ArrayRefParameter<"::mlir::TypedAttr", "assumed fill values">:$fills
  );
  let hasCustomAssemblyFormat = 1;
  let genVerifyDecl = 1;
  let skipDefaultBuilders = 1;
  let builders = [
    AttrBuilder<(ins "const ::mlir::sparse_array::IterationAlgebra &":$algebra,
                     CArg<"::llvm::ArrayRef<::mlir::TypedAttr>", "{}">:$fills), [{
      std::vector<uint32_t> code = algebra.encode();
      return $_get($_ctxt, ::llvm::ArrayRef<uint32_t>(code), fills);
    }]>
  ];
  let extraClassDeclaration = [{
    /// The decoded expression.
    ::mlir::sparse_array::IterationAlgebra getAlgebra() const;
  }];
}

def SparseArray_LatticeAttr : SparseArray_Attr<"Lattice", "lattice"> {
  let summary = "The coiteration plan of one loop of a kernel: its lattice";
  let description = [{
    What `sparse-array-build-lattices` decides for one loop of a kernel
    (seed 000 §6-7, Alg. 2): `loop` is the loop (loops follow the result's
    storage order), `present` the kernel inputs that may still hold an
    entry when the loop starts (outer loops' cases drop the others),
    `coiterate` the inputs whose level at this loop is iterated rather than
    located, and `points` the iteration lattice over them, root first.

    Each point is a loop of the generated code: it runs while every input
    it lists has entries, continuing where the previous point's loop
    stopped, so points drop out as their inputs run out (`U` means every
    coordinate of the dimension: the loop is an `scf.for`). Inside a
    point's loop, the cases are the points included in it, tried in order:
    the first whose inputs all match the current coordinate is taken.
    `produce` points compute; `omit` points skip their coordinates (at the
    innermost loop, after checking that the stored entries are not
    explicit fill values) and exist so that the loop above them knows to.

    Example, xor(a(i), b(i)) of two compressed vectors:

    ```mlir
    #sparse_array.lattice<loop 0, present [0, 1], coiterate [0, 1],
                          points [{0, 1} omit, {0} produce, {1} produce]>
    ```

    Three loops: over both inputs (cases: both match — skip; only a; only
    b), then over what is left of a, then of b.

    `linear` instead of `points` plans one loop over the union of the
    coiterated inputs' coordinates (the smallest coordinate not yet visited,
    a presence bit per input, absent inputs read as their fills and the
    function evaluated in general form): code linear in the number of
    inputs where a lattice would have up to 2^n points and 3^n cases. The
    planner chooses it for loops coiterating many inputs whose space does
    not need U (issue 14, class 6); `linear U` visits every coordinate of
    the dimension (a counted loop) for spaces that need U:

    ```mlir
    #sparse_array.lattice<loop 0, present [0, 1, 2, 3, 4], coiterate [0, 1, 2, 3, 4], linear>
    ```

    `merged` after the points (outer loops only) plans one loop over the
    coordinates some point needs that descends with every coiterated
    input — an empty segment where one does not match — instead of one loop
    per point descending per case: the planner records it when every level
    the coiterated inputs have left below stores coordinates (an empty
    segment then iterates as nothing), so the code stays linear in the
    number of loops. The lowering follows the plan; it does not decide.

    ```mlir
    #sparse_array.lattice<loop 0, present [0, 1], coiterate [0, 1],
                          points [{0, 1} produce, {0} produce, {1} produce], merged>
    ```

    `branchless` after the points (innermost result loops only) plans the
    root point's loop without a branch per case: each step moves the inputs
    at the least coordinate, reads the others as their fills and evaluates
    the function once in general form. The planner records it when the
    root's cases are every non-empty subset of its inputs, all `produce`
    (so no case is evaluated that the lattice would skip) — or all but the
    root, for functions without math-library calls (evaluated and dropped
    where every input is stored, the rarest case) — the function cannot
    trap, and every coiterated level is its input's last and is read as
    stored. Where inputs' coordinates interleave at random, the case
    branch is mispredicted about once per step; the selects are not.

    ```mlir
    #sparse_array.lattice<loop 1, present [0, 1], coiterate [0, 1],
                          points [{0, 1} produce, {0} produce, {1} produce], branchless>
    ```

    `sequence` (seed 001 §5.1) is the loop's sequence expression when some
    coiterated input's level is read through a shape combinator (a slice,
    `slice(s1, 1, 9, 2)`): the expression over the inputs' levels (leaves
    `s<k>`, input k's level at this loop) whose lattice the points are. Each
    input iterates the part of it that reads only that input. Without it,
    every coiterated level is iterated as it is stored.

    ```mlir
    #sparse_array.lattice<loop 0, present [0, 1], coiterate [0, 1],
                          points [{0, 1} produce, {0} produce, {1} produce],
                          sequence "union(s0, slice(s1, 1, 9, 2))">
    ```
  }];
  let parameters = (ins
    "unsigned":$loop,
    ArrayRefParameter<"unsigned", "inputs present">:$present,
    ArrayRefParameter<"unsigned", "inputs coiterated">:$coiterated,
    ArrayRefParameter<"::mlir::sparse_array::LatticePoint", "points">:$points,
    "bool":$linear,
    "bool":$merged,
    "bool":$branchless,
    OptionalParameter<"::mlir::StringAttr", "the loop's sequence expression">:$sequence
  );
  let hasCustomAssemblyFormat = 1;
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    /// The lattice the points form.
    ::mlir::sparse_array::Lattice getLattice() const;
    /// `present` as a bit set.
    uint64_t getPresentMask() const;
    /// What input k's level iterates as at this loop: the recorded
    /// sequence's part that reads only input k (a leaf under no shape
    /// combinator when nothing is recorded).
    ::mlir::sparse_array::SequenceExpr getView(unsigned k) const;
  }];
}

class SparseArray_PropertyValueAttr<string name, string attrMnemonic>
    : SparseArray_Attr<name, attrMnemonic> {
  let parameters = (ins
    "::mlir::TypedAttr":$value,
    // Argument positions the property holds at; empty means every position.
    ArrayRefParameter<"unsigned", "argument positions">:$positions
  );
  let hasCustomAssemblyFormat = 1;
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    /// Whether the property holds at argument position `pos`.
    bool holdsAt(unsigned pos) const {
      return getPositions().empty() || ::llvm::is_contained(getPositions(), pos);
    }
  }];
}

def SparseArray_AnnihilatorAttr
    : SparseArray_PropertyValueAttr<"Annihilator", "annihilator"> {
  let summary = "Annihilator property: f(..., a, ...) = a";
  let description = [{
    The function returns `value` whenever an argument (at one of
    `positions`, or at any position when none are given) equals `value`
    (seed 000 §4.3, thesis §5.1). Multiplication: `#sparse_array.annihilator<0 : i64>`;
    division, first argument only: `#sparse_array.annihilator<0.0 : f64, positions = [0]>`.
  }];
}

def SparseArray_IdentityAttr
    : SparseArray_PropertyValueAttr<"Identity", "identity"> {
  let summary = "Identity property: f(i, y) = y";
  let description = [{
    A binary function returns its other argument whenever the argument at
    one of `positions` (any position when none are given) equals `value`
    (seed 000 §4.3). `max`: `#sparse_array.identity<-inf : f64>`; exact
    floating-point addition: `#sparse_array.identity<-0.0 : f64>`.
  }];
}

def SparseArray_ScalarAttr : SparseArray_Attr<"Scalar", "scalar"> {
  let summary = "A scalar constant spelled exactly (nan, inf, -0.0, ...)";
  let description = [{
    An integer or floating-point constant written the way fill values are:
    `#sparse_array.scalar<inf : f64>`, `#sparse_array.scalar<-0.0 : f32>`.
  }];
  let parameters = (ins "::mlir::TypedAttr":$value);
  let hasCustomAssemblyFormat = 1;
  let genVerifyDecl = 1;
}


def SparseArray_ReductionStrategy : I32EnumAttr<"ReductionStrategy",
    "how a reduction iterates (seed 000 §7.2, thesis §6.3)", [
      I32EnumAttrCase<"Identity", 0, "identity">,
      I32EnumAttrCase<"Idempotent", 1, "idempotent">,
      I32EnumAttrCase<"Reassociate", 2, "reassociate">,
      I32EnumAttrCase<"SignedZeroSum", 3, "signed_zero_sum">,
      I32EnumAttrCase<"SignedZeroDot", 4, "signed_zero_dot">,
      I32EnumAttrCase<"Universe", 5, "universe">]> {
  let cppNamespace = "::mlir::sparse_array";
  let genSpecializedAttr = 0;
}

def SparseArray_ReductionKeys : I32EnumAttr<"ReductionKeys",
    "how a float min/max reduction accumulates", [
      I32EnumAttrCase<"None", 0, "none">,
      I32EnumAttrCase<"Min", 1, "min">,
      I32EnumAttrCase<"Max", 2, "max">]> {
  let cppNamespace = "::mlir::sparse_array";
  let genSpecializedAttr = 0;
}

def SparseArray_ReductionWorkspace : I32EnumAttr<"ReductionWorkspace",
    "the workspace of a row-wise (scatter) product", [
      I32EnumAttrCase<"Auto", 0, "auto">,
      I32EnumAttrCase<"Dense", 1, "dense">,
      I32EnumAttrCase<"Hash", 2, "hash">]> {
  let cppNamespace = "::mlir::sparse_array";
  let genSpecializedAttr = 0;
}

def SparseArray_ReductionPlanAttr
    : SparseArray_Attr<"ReductionPlan", "reduction"> {
  let summary = "How a reduction iterates, decided once by the planner";
  let description = [{
    What `sparse-array-build-lattices` decides for a `sparse_array.reduce_over`
    (its `strategy`; the op's description says what each strategy visits)
    and everything the lowering needs to carry it out, so that code
    generation reads the plan and never plans again:
    - `algebra`: the points the reduction visits (the reduced value's
      iteration algebra over the kernel's inputs; absent for `universe`);
    - `value_fill`: the reduced value's fill, as derived (absent when the
      derivation found none);
    - for `signed_zero_dot`, `zero_factor` and `dense_factor` (the kernel
      inputs of the sparse factor with fill ±0.0 and of the dense factor)
      and `zero_fill_negative` (the sparse factor's fill is -0.0);
    - `keys = min` / `max`: the combiner is exactly IEEE minimum / maximum
      of floats (`arith.minimumf`/`maximumf`, no annihilator), accumulated
      as total-order integer keys (NaN and -0.0 < +0.0 exact without a
      branch per point); a result point whose ranges hold at most
      `key_short_range` positions accumulates floats instead and redoes
      the fold with keys only when it ends at a zero without a NaN (0:
      always keys);
    - `workspace = dense` / `hash` for a `scatter` (row-wise) product: each
      row accumulates in a dense array over the columns or in a hash
      table; `auto` (the default) picks per call by the measured rule
      (hash when rows average under 8 products over at least 2^16 columns).

    ```mlir
    #sparse_array.reduction<strategy = identity, algebra = #sparse_array.algebra<intersect(0, 1), fills = []>, value_fill = #sparse_array.scalar<0 : i64>>
    #sparse_array.reduction<strategy = signed_zero_dot, algebra = #sparse_array.algebra<0, fills = []>, value_fill = #sparse_array.scalar<0.0 : f64>, zero_factor = 0, dense_factor = 1>
    #sparse_array.reduction<strategy = universe>
    ```
  }];
  let parameters = (ins
    EnumParameter<SparseArray_ReductionStrategy>:$strategy,
    OptionalParameter<"::mlir::sparse_array::AlgebraAttr">:$algebra,
    OptionalParameter<"::mlir::sparse_array::ScalarAttr">:$value_fill,
    DefaultValuedParameter<"int64_t", "-1">:$zero_factor,
    DefaultValuedParameter<"int64_t", "-1">:$dense_factor,
    DefaultValuedParameter<"bool", "false">:$zero_fill_negative,
    DefaultValuedParameter<"::mlir::sparse_array::ReductionKeys",
                           "::mlir::sparse_array::ReductionKeys::None">:$keys,
    DefaultValuedParameter<"int64_t", "0">:$key_short_range,
    DefaultValuedParameter<"::mlir::sparse_array::ReductionWorkspace",
                           "::mlir::sparse_array::ReductionWorkspace::Auto">:$workspace
  );
  let assemblyFormat = "`<` struct(params) `>`";
  let genVerifyDecl = 1;
}

def SparseArray_ShapeLowering : I32EnumAttr<"ShapeLowering",
    "how a shape operator left unfused moves its entries", [
      I32EnumAttrCase<"MoveRanges", 0, "move_ranges">,
      I32EnumAttrCase<"RowsFromCoo", 1, "rows_from_coo">,
      I32EnumAttrCase<"CooFromRows", 2, "coo_from_rows">,
      I32EnumAttrCase<"SplitLevels", 3, "split_levels">,
      I32EnumAttrCase<"MergeLevels", 4, "merge_levels">]> {
  let cppNamespace = "::mlir::sparse_array";
  let genSpecializedAttr = 0;
}

def SparseArray_ShapePlanAttr
    : SparseArray_Attr<"ShapePlan", "shape_plan"> {
  let summary = "How an unfused shape operator is lowered, decided once";
  let description = [{
    What `sparse-array-build-lattices` decides for a `slice`, `concat`,
    `split` or `collapse` that fusion left as it is (nothing to fuse with),
    so that `sparse-array-lower-shape` carries the plan out and never asks
    the storage again. Without a plan the runtime moves the entries
    (`sparse-array-lower-storage`).
    - `move_ranges`: the stored ranges below level `level` are copied per
      parent, coordinates moved (a slice of dimension `dim`; a
      concatenation's parts in turn);
    - `rows_from_coo`: COO parts concatenated into CSR rows;
    - `coo_from_rows`: CSR parts (or a CSR row slice) into COO;
    - `split_levels`: the entries keep their positions, the split level
      `level`'s coordinates are computed in one pass;
    - `merge_levels`: the collapsed dimensions' adjacent levels merged.
    The verifier checks that the operand and result storage allow it.

    ```mlir
    #sparse_array.shape_plan<lowering = move_ranges, level = 1>
    #sparse_array.shape_plan<lowering = move_ranges, level = 1, dim = 1>
    #sparse_array.shape_plan<lowering = merge_levels>
    ```
  }];
  let parameters = (ins
    EnumParameter<SparseArray_ShapeLowering>:$lowering,
    DefaultValuedParameter<"int64_t", "-1">:$level,
    DefaultValuedParameter<"int64_t", "-1">:$dim
  );
  let assemblyFormat = "`<` struct(params) `>`";
}

def SparseArray_ParallelAttr : SparseArray_Attr<"Parallel", "parallel"> {
  let summary = "Whether a kernel's outermost result loop runs in parallel, and why";
  let description = [{
    The plan `sparse-array-plan-parallel` records on each kernel (issue:
    OpenMP parallel kernels). `"outer"`: the outermost result loop becomes
    an `scf.parallel` (OpenMP `omp.wsloop` through
    `convert-scf-to-openmp`), its iterations writing disjoint parts of the
    output; a loop with fewer than `min_extent` iterations (known only at
    run time) runs sequentially instead, and so does one whose kernel reads
    fewer than `min_work` stored values (the values buffers of the inputs
    it reads, plus every point of its loops when its iteration space
    reaches outside the inputs' stored entries; 0 or 1: no such bound) — a
    parallel region's fork and join cost more than a few thousand entries'
    work. A kernel with a sparse result is then emitted twice behind that
    test, the sequential version appending straight into the result's
    buffers (no parts to join, no second phase). `balance = k`: its iterations are
    shared out in parts of equal work — the entries input k stores below
    each of them (a prefix over its positions), not equal counts of rows
    (power-law rows would leave a thread idle). `two_phase`: the result is
    sparse (a compressed level under a full one, CSR) and assembled in two
    phases — the loops count each row's entries, a scan makes the
    positions, the loops run again and write each row at its offset.
    `parts`: the result is sparse and every part of the loop's iterations
    appends its entries to buffers of its own, joined in part order after
    the loop (a compressed vector whose loop visits each coordinate once;
    row-wise products, whose rows cost too much to compute twice; any
    other sparse format, each part assembling its rows of the outermost
    level; a scatter reduction's accumulators, one set per part — a
    dense or compressed-vector result, one part per thread but no more than
    its visited points over the result's size — combined per entry in part
    order when the combiner is associative). `chained` (with `parts`, rows
    of a CSR/CSC result whose entries the inputs' stored entries bound):
    threads claim the parts in order, each computes its rows into a scratch
    buffer and copies them to where the part before it ended, as soon as
    that part has published its end — each entry computed once, no join
    after the loop, no per-part buffers kept (ChainedRowsOutput.cpp). `"ranges"`: the outermost
    result loop coiterates stored coordinates (DCSR, COO, CSF, sparse
    vectors); its coordinates are cut into ranges at input `balance`'s
    stored coordinates (equal entries below them when its next level has
    positions, equal coordinates otherwise) or, without `balance`, into
    equal ranges of [0, extent) (a loop that visits every coordinate, U,
    runs its counted loop over its range only); each range runs in
    parallel as a part, every coiterated input's segment narrowed to the
    range by bisection; a sparse result is then assembled in `parts`. `"none"`: sequential,
    `reason` says why.

    ```mlir
    #sparse_array.parallel<"outer", min_extent = 256, balance = 0>
    #sparse_array.parallel<"outer", min_extent = 256, balance = 0, two_phase>
    #sparse_array.parallel<"outer", min_extent = 256, min_work = 32768, balance = 0>
    #sparse_array.parallel<"outer", min_extent = 256, balance = 1, parts>
    #sparse_array.parallel<"outer", min_extent = 256, balance = 0, parts, chained>
    #sparse_array.parallel<"ranges", min_extent = 256, balance = 0, parts>
    #sparse_array.parallel<"ranges", min_extent = 256>
    #sparse_array.parallel<"none", reason = "sparse result: appended in order">
    ```
  }];
  let parameters = (ins
    StringRefParameter<"outer, ranges or none">:$mode,
    DefaultValuedParameter<"int64_t", "0">:$minExtent,
    DefaultValuedParameter<"int64_t", "0">:$minWork,
    DefaultValuedParameter<"int64_t", "-1">:$balance,
    DefaultValuedParameter<"bool", "false">:$twoPhase,
    DefaultValuedParameter<"bool", "false">:$parts,
    DefaultValuedParameter<"bool", "false">:$chained,
    StringRefParameter<"why the kernel stays sequential", "\"\"">:$reason
  );
  let hasCustomAssemblyFormat = 1;
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    bool isParallel() const {
      return getMode() == "outer" || getMode() == "ranges";
    }
    /// The outermost loop's stored coordinates cut into ranges.
    bool isRanges() const { return getMode() == "ranges"; }
  }];
}

#endif // SPARSE_ARRAY_ATTRS
