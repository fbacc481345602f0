//===- RowWise.h - What a row-wise product's rows read and write -*- C++ -*-===//
//
// Shared by the sequential row loop (RowWiseProduct.cpp) and its parallel
// driver (RowWiseParallel.cpp).
//
//===----------------------------------------------------------------------===//

#ifndef SPARSEARRAY_LIB_CONVERSION_ROWWISE_H
#define SPARSEARRAY_LIB_CONVERSION_ROWWISE_H

#include "SparseArray/Algebra/IterationAlgebra.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/Value.h"

#include <optional>

namespace mlir::sparse_array::detail {

/// A compressed level of a factor or the mask: its positions, coordinates
/// and the array's values.
struct RowWiseFactor {
  Value pos, crd, vals;
};

/// The workspace every run of rows allocates: hash or dense (chosen at run
/// time in `auto` mode), its size, and the hash table's.
struct WorkspacePlan {
  Value useHash, size, tableSize, tableMask;
};

/// What the rows of a row-wise product read and write.
struct RowWise {
  unsigned pk, qk;
  std::optional<unsigned> mk;
  RowWiseFactor P, Q;
  std::optional<RowWiseFactor> M;
  Value rows, cols;
  /// The columns a row touched; the mask's row, scattered (its generation
  /// marks and values). Per run of rows (emitRowWiseRange).
  Value touched, maskMark, maskVal;
  /// The most products one row has (bounds `touched`).
  Value bound;
  /// Whether a product at (i, j) can matter, from the mask alone.
  IterationAlgebra maskSpace = IterationAlgebra::universe();
  /// The result (CSR): positions; coordinates and values are appended.
  Value posOut;
  Type posType, crdType, valType;
  WorkspacePlan workspace;
  /// Prefix sums of the rows' products (rows + 1, i64): the parallel
  /// driver's measure of work. Only built for a parallel plan.
  Value work;
  /// Every row's products summed: a bound on the result's entries.
  Value products;
};

/// The capacity a run of rows starts its coordinates and values at: their
/// products (the result has no more entries), so no row grows the
/// buffers — growing copies them into fresh pages (realloc moves a heap
/// block; two thirds of a 6.5M-entry product's time here). Pages are only
/// touched as entries are written, and the buffers are trimmed at the
/// end. Products can far exceed the entries (bcsstk13 times its
/// transpose: 4.6M products, 0.4M entries; A @ A of a power-law graph):
/// at most 8 times the entries the run reads (`inputEntries`) up front,
/// which keeps such buffers small enough for malloc to reuse between
/// calls (fresh pages fault); past that they double as before.
Value rowWiseCapacity(OpBuilder &b, Location loc, Value products,
                      Value inputEntries);

} // namespace mlir::sparse_array::detail

#endif // SPARSEARRAY_LIB_CONVERSION_ROWWISE_H
