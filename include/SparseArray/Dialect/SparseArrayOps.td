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

// Operations arrive with the storage (I/O, conversion) and algebra issues.

#endif // SPARSE_ARRAY_OPS
