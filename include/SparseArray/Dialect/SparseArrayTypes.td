//===- SparseArrayTypes.td - sparse_array types ------------*- tablegen -*-===//

#ifndef SPARSE_ARRAY_TYPES
#define SPARSE_ARRAY_TYPES

include "SparseArray/Dialect/SparseArrayBase.td"

def SparseArray_ArrayType : SparseArray_Type<"Array", "array"> {
  let summary = "An array with a static or dynamic shape, a storage format and a fill value";
  let description = [{
    A value-semantics array of rank >= 0. Each dimension has a static size
    (>= 0) or is dynamic (`?`). Element types are signless integers of 1, 8,
    16, 32 or 64 bits (functions may interpret them as unsigned) and f16,
    bf16, f32, f64.

    The optional second parameter is a `#sparse_array.format`; without it the
    array is stored densely with fill value zero. A format without `fill`
    means fill zero of the element type; the type stores the fill explicitly,
    so both spellings denote the same type.

    Example:

    ```mlir
    !sparse_array.array<f64>                       // a scalar
    !sparse_array.array<8x?xi32>                   // dense, fill 0
    !sparse_array.array<?x?xf64, #sparse_array.format<[dense, compressed],
                                  fill = inf : f64>>  // CSR, fill +inf
    ```
  }];

  let parameters = (ins
    ArrayRefParameter<"int64_t", "dimension sizes; ShapedType::kDynamic for `?`">:$shape,
    "::mlir::Type":$elementType,
    "::mlir::sparse_array::FormatAttr":$format
  );
  let hasCustomAssemblyFormat = 1;
  let genVerifyDecl = 1;
  let skipDefaultBuilders = 1;
  let builders = [
    // Normalizes `format`: null means the default format; a missing fill
    // becomes zero of the element type.
    TypeBuilderWithInferredContext<(ins "::llvm::ArrayRef<int64_t>":$shape,
                                        "::mlir::Type":$elementType,
                                        CArg<"::mlir::sparse_array::FormatAttr", "{}">:$format), [{
      return $_get(elementType.getContext(), shape, elementType,
                   normalizeFormat(elementType.getContext(), shape.size(),
                                   elementType, format));
    }]>
  ];

  let extraClassDeclaration = [{
    unsigned getRank() const { return getShape().size(); }
    bool isDynamicDim(unsigned dim) const {
      return ::mlir::ShapedType::isDynamic(getShape()[dim]);
    }
    bool hasStaticShape() const {
      return ::mlir::ShapedType::isStaticShape(getShape());
    }
    /// Number of entries for a static shape, or std::nullopt when a dimension
    /// is dynamic or the product overflows int64_t.
    std::optional<int64_t> getNumElements() const;
    unsigned getNumLevels() const { return getFormat().getNumLevels(); }
    ::mlir::TypedAttr getFillValue() const { return getFormat().getFill(); }
    bool isAllDense() const { return getFormat().isAllDense(); }
    /// Builds the canonical format for `format` (see the builder).
    static FormatAttr normalizeFormat(::mlir::MLIRContext *ctx, unsigned rank,
                                      ::mlir::Type elementType,
                                      FormatAttr format);
    /// Whether `type` may be the element type of an array.
    static bool isValidElementType(::mlir::Type type);
  }];
}

#endif // SPARSE_ARRAY_TYPES
