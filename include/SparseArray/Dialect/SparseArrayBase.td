//===- SparseArrayBase.td - sparse_array dialect definition -*- tablegen -*-===//
//
// The dialect and the base classes for its ops, attributes and types.
//
//===----------------------------------------------------------------------===//

#ifndef SPARSE_ARRAY_BASE
#define SPARSE_ARRAY_BASE

include "mlir/IR/OpBase.td"
include "mlir/IR/AttrTypeBase.td"

def SparseArray_Dialect : Dialect {
  let name = "sparse_array";
  let cppNamespace = "::mlir::sparse_array";
  let summary = "Sparse array programming: any function over arrays with any fill value";
  let description = [{
    The `sparse_array` dialect represents *sparse array programs*: element-wise
    application of arbitrary functions, reductions, broadcasting and shape
    operators over dense and sparse arrays whose implicit entries hold an
    arbitrary **fill value** (0, 1, +inf, NaN, ...), as described in Henry et
    al., *Compilation of Sparse Array Programming Models* (OOPSLA 2021).

    Every array has the type `!sparse_array.array<shape x element, format>`.
    The `#sparse_array.format` attribute gives one level format per stored
    level (`dense`, `compressed`, `singleton`; new level formats are plugins,
    see `LevelFormat.h`), the per-level properties (ordered, unique), the
    order in which dimensions are stored as levels, the bit widths of the
    position and coordinate buffers, and the fill value (Chou et al., *Format
    Abstraction for Sparse Tensor Algebra Compilers*, OOPSLA 2018).

    Sparsity is a property of the type, not of the program: the same program
    is correct for every format and fill, and the compiler derives from the
    functions' algebraic properties and the fill values which entries it must
    visit.
  }];
  let useDefaultAttributePrinterParser = 1;
  let useDefaultTypePrinterParser = 1;
  // Folders give scalar attributes (sparse_array.dim of a static size):
  // materialized as arith constants.
  let hasConstantMaterializer = 1;
  let dependentDialects = ["arith::ArithDialect"];
  let extraClassDeclaration = [{
    void registerAttributes();
    void registerTypes();
  }];
}

class SparseArray_Op<string mnemonic, list<Trait> traits = []>
    : Op<SparseArray_Dialect, mnemonic, traits>;

class SparseArray_Attr<string name, string attrMnemonic, list<Trait> traits = []>
    : AttrDef<SparseArray_Dialect, name, traits> {
  let mnemonic = attrMnemonic;
}

class SparseArray_Type<string name, string typeMnemonic, list<Trait> traits = []>
    : TypeDef<SparseArray_Dialect, name, traits> {
  let mnemonic = typeMnemonic;
}

#endif // SPARSE_ARRAY_BASE
