//===- SparseArrayOps.cpp - sparse_array operations -----------------------===//

#include "SparseArray/Dialect/SparseArray.h"

using namespace mlir;
using namespace mlir::sparse_array;

#define GET_OP_CLASSES
#include "SparseArray/Dialect/SparseArrayOps.cpp.inc"
