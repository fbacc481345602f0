//===- SequenceIteratorImpl.h - Combinator iterators, privately -*- C++ -*-===//
//
// Private to lib/Conversion: the combinator iterators of seed 001 §7.1.2
// (MergeIterator.cpp: union, intersection; ShapeIterators.cpp: product,
// concatenation, offset, slice, projection, ∅/F) as factories for
// SequenceIterator::fromExpr, and the helpers they share.
//
//===----------------------------------------------------------------------===//

#ifndef SPARSEARRAY_LIB_CONVERSION_SEQUENCEITERATORIMPL_H
#define SPARSEARRAY_LIB_CONVERSION_SEQUENCEITERATORIMPL_H

#include "SparseArray/Conversion/SequenceIterator.h"

namespace mlir {
namespace sparse_array {
namespace detail {

using IteratorPtr = std::unique_ptr<SequenceIterator>;

/// The conjunction / disjunction of i1 values (null for none).
Value andAll(OpBuilder &b, Location loc, ArrayRef<Value> values);
Value orAll(OpBuilder &b, Location loc, ArrayRef<Value> values);
/// cond ? f() : false, evaluating f only under cond (it may read past a
/// buffer otherwise).
Value guarded(OpBuilder &b, Location loc, Value cond,
              llvm::function_ref<Value(OpBuilder &, Location)> f);
/// valid ? eval : the largest index (past every coordinate).
Value evalOrEnd(OpBuilder &b, Location loc, SequenceIterator &it);
/// Whether the cursor's current coordinate is x (what a loop steps: its
/// `equals` may ask more, e.g. every part of a union at x for a case).
Value isAt(OpBuilder &b, Location loc, SequenceIterator &it, Value x);
/// if (isAt(x)) it.advance(): `next` of an iterator whose parts step
/// together (products, slices, aligned intersections).
void advanceIfAt(OpBuilder &b, Location loc, SequenceIterator &it, Value x,
                 SequenceCursors &cursors);

/// Union or intersection of `parts` (MergeIterator.cpp).
IteratorPtr makeMergeIterator(SmallVector<IteratorPtr> parts, bool intersection,
                              bool latticeMode, SequenceCursors &cursors);
/// Shape combinators (ShapeIterators.cpp).
IteratorPtr makeProductIterator(IteratorPtr outer, IteratorPtr inner,
                                SequenceCursors &cursors);
IteratorPtr makeConcatIterator(IteratorPtr first, IteratorPtr second,
                               bool latticeMode);
IteratorPtr makeOffsetIterator(IteratorPtr shift, IteratorPtr operand);
IteratorPtr makeSliceIterator(IteratorPtr operand, int64_t start, int64_t stop,
                              int64_t step, SequenceCursors &cursors);
/// The coordinates of `operand` in [lo, hi), shifted down by lo: a slice
/// with step 1 whose bounds are run-time values (a collapse's product
/// iterated in the windows of a split, seed 001 §5.2).
IteratorPtr makeWindowIterator(IteratorPtr operand, Value lo, Value hi,
                               SequenceCursors &cursors);
IteratorPtr makeProjectOuterIterator(IteratorPtr operand, int64_t inner,
                                     SequenceCursors &cursors);
IteratorPtr makeExhaustedIterator(IteratorPtr shape);

} // namespace detail
} // namespace sparse_array
} // namespace mlir

#endif // SPARSEARRAY_LIB_CONVERSION_SEQUENCEITERATORIMPL_H
