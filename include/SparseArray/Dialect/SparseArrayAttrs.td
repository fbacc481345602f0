//===- SparseArrayAttrs.td - sparse_array attributes -------*- tablegen -*-===//

#ifndef SPARSE_ARRAY_ATTRS
#define SPARSE_ARRAY_ATTRS

include "SparseArray/Dialect/SparseArrayBase.td"

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
    ```

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
    OptionalParameter<"::mlir::TypedAttr">:$fill
  );
  let hasCustomAssemblyFormat = 1;
  let genVerifyDecl = 1;

  let extraClassDeclaration = [{
    unsigned getNumLevels() const { return getLevels().size(); }
    /// The dimension stored at level `lvl`.
    unsigned getLevelDim(unsigned lvl) const {
      return getOrder().empty() ? lvl : getOrder()[lvl];
    }
    /// The level that stores dimension `dim`.
    unsigned getDimLevel(unsigned dim) const;
    bool isIdentityOrder() const { return getOrder().empty(); }
    /// True when every level is full (the array stores every entry).
    bool isAllDense() const;
    /// The same format with another fill value.
    FormatAttr withFill(::mlir::TypedAttr fill) const;
    /// The default format for a rank: all dense, identity order, 64-bit
    /// widths, fill zero of `elementType`.
    static FormatAttr getDefault(::mlir::MLIRContext *ctx, unsigned rank,
                                 ::mlir::Type elementType);
    static constexpr unsigned kDefaultWidth = 64;
  }];
}

#endif // SPARSE_ARRAY_ATTRS
