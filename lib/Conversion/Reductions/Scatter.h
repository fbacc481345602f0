//===- Scatter.h - A scatter reduction's accumulators -------*- C++ -*-===//
//
// Shared by the assemblers of a scatter reduction (ScatterReduction.cpp:
// one accumulator per result entry; ScatterRowsOutput.cpp: one row's
// entries at a time in a workspace). Private to lib/Conversion.
//
//===----------------------------------------------------------------------===//

#ifndef SPARSEARRAY_LIB_CONVERSION_SCATTER_H
#define SPARSEARRAY_LIB_CONVERSION_SCATTER_H

#include "Output/OutputAssembler.h"

#include <functional>

namespace mlir {
namespace sparse_array {
namespace detail {

/// What the accumulators need of the reduction being scattered.
struct ScatterTarget {
  KernelOp kernel; // the reduction's kernel (its result is assembled)
  ArrayRef<int32_t> order; // index variable of each loop
  bool counting = false;   // visited points counted per entry
  /// Only the visited points whose value is -0.0 are counted
  /// (signed_zero_sum): the count matters only where the sum is -0.0 at
  /// the end, and there every point added was -0.0 (IEEE: x + y is -0.0
  /// only for -0.0 + -0.0). Such points are logged (their entries, in a
  /// buffer the loops carry) and counted per entry after the loops, only
  /// when there are any: a second randomly written array per entry cost 4x
  /// in TLB misses (column sums of a 524288^2 CSR: 13 ms without counts, 70
  /// with), and allocating and zeroing one per call a quarter more.
  bool countNegativeZerosOnly = false;
  bool hasIdentity = false;
  TypedAttr start;
  std::function<Value(OpBuilder &, Value, Value)> combine;
  /// The entry from its accumulator, count and the points per entry.
  std::function<Value(OpBuilder &, Value, Value, Value)> finishEntry;
};

/// Counts a point of entry q, whose value is v and combination `next`:
/// returns the new accumulator (without an identity the first point is the
/// accumulator).
Value countPoint(OpBuilder &b, Location loc, const ScatterTarget &target,
                        Value count, Value q, Value v, Value next);

/// A sparse result of rank >= 2 whose leading `prefix` levels are the
/// outermost loops: accumulated a row at a time (ScatterRowsOutput.cpp).
/// `result` receives the assembled array.
std::unique_ptr<OutputAssembler>
createScatterRowsOutput(OpBuilder &b, const OutputShape &shape,
                        ScatterTarget target, unsigned prefix, Value *result);

} // namespace detail
} // namespace sparse_array
} // namespace mlir

#endif // SPARSEARRAY_LIB_CONVERSION_SCATTER_H
