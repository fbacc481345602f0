//===- Coiteration.h - Loop order and lattices of kernels -------*- C++ -*-===//
//
// The coiteration plan of a derived kernel (seed 000 §6-7): the loop of
// every index variable, the inputs coiterated at each loop, and one
// iteration lattice per loop and set of inputs that can still be present
// there. sparse-array-build-lattices attaches the plan to the kernel as
// `#sparse_array.lattice` attributes; sparse-array-lower-iterators follows
// it.
//
//===----------------------------------------------------------------------===//

#ifndef SPARSEARRAY_TRANSFORMS_COITERATION_H
#define SPARSEARRAY_TRANSFORMS_COITERATION_H

#include "SparseArray/Dialect/SparseArray.h"

#include "mlir/IR/Builders.h"

namespace mlir {
namespace sparse_array {

/// The loop of each index variable: the result's levels, in storage order,
/// give the loops of the result's index variables.
SmallVector<int> getLoopOfIndex(KernelOp kernel);

/// Whether an input read with the given loops per dimension (a plain
/// variable: one; a split read through sparse_array.linearize: one per
/// part, outermost first; a fixed coordinate: none) can be iterated level
/// by level: a split dimension's parts come from one stored level, so they
/// take increasing loops with no loop of the input's other dimensions in
/// between (its levels follow the loops, conversions included).
bool splitReadsIterable(ArrayRef<SmallVector<int>> loopsPerDim);

/// What input k iterates as at a loop bound to `parts` adjacent levels of
/// it through a collapsed read (sparse_array.delinearize): the product of
/// the levels, outer first, s_k × (s_k.1 × ...) (seed 001 §5.1); the leaf
/// levels count from the loop's first. `windowed`: read through a split
/// (AccessedLevel::window), the slice of it the enclosing loops fix, with
/// bounds known at run time only.
SequenceExpr collapsedView(unsigned k, unsigned parts, bool windowed = false);

/// What input k iterates as at a level read through the slice `slice`
/// (lo, hi, step) of its coordinates: slice(s_k, lo, hi, step). A padded
/// window with `bound` [blo, bhi) reads only the coordinates in it (a
/// concatenation's part that slices its input, fused): when the slice
/// reaches outside, the bound is a slice of its own first, and the window
/// slices that — slice(slice(s_k, blo, bhi, 1), lo - blo, hi - blo, step),
/// or, counting down, the bound reversed and the window ascending over it
/// (seed 001 §5.2).
SequenceExpr slicedView(unsigned k, std::array<int64_t, 3> slice,
                        std::optional<std::array<int64_t, 2>> bound);

/// Converts every sparse input stored in an order the loops do not follow
/// into one that does (a `sparse_array.convert` before the kernel), and
/// frees the copies after it (`sparse_array.dealloc`). Returns how many
/// inputs were converted.
unsigned convertMisorderedInputs(KernelOp kernel);

/// A matrix product the row-wise (Gustavson) order computes better than
/// inner products: C(i, j) = ⊕_k P(i, k) ⊗ Q(k, j) with P and Q stored by
/// rows (dense rows, compressed columns), a CSR result, a reduction that
/// visits stored products only (strategy identity) and a product that is
/// the fill unless both factors are stored (its algebra is P ∩ Q). Then
/// each row of C accumulates the rows of Q scaled by the row of P in a
/// dense workspace (seed 000 §7.2: a scatter reduction). The result may
/// also be g(M(i, j), product) for a mask M stored by rows, provided the
/// kernel is the fill wherever no product is stored (e.g. a complemented
/// mask). Returns the input numbers of P and Q.
std::optional<std::pair<unsigned, unsigned>> matchRowWiseProduct(
    KernelOp kernel, ReduceOverOp reduce, const IterationAlgebra &valueAlgebra,
    ReductionStrategy strategy);

/// The structural half of matchRowWiseProduct: formats, accesses and the
/// yielded value (no algebra, no strategy). The lowering checks a recorded
/// `scatter` plan with it: it does not decide, but rejects a plan it
/// cannot lower (hand-written IR).
std::optional<std::pair<unsigned, unsigned>>
matchRowWiseShape(KernelOp kernel, ReduceOverOp reduce);

/// A reduction (the kernel's yielded value, its strategy planned) whose
/// sparse inputs store a reduced variable above a kept one (column sums
/// of CSR): the order of loops over all index variables that follows every
/// sparse input's storage (ties in the nested order), to scatter each
/// point's value into the result entry at its kept coordinates instead of
/// converting the inputs (ScatterLoops.cpp). nullopt when the nested order
/// needs no conversion, when the inputs disagree, when a read is
/// collapsed, split or unordered, or when the result is sparse beyond one
/// dimension and its leading level is not the outermost loop (see
/// scatterRowPrefix).
std::optional<SmallVector<unsigned>> matchScatterLoops(KernelOp kernel,
                                                       ReduceOverOp reduce);

/// How many of the result's leading levels are, in storage order, the
/// outermost loops of a scatter order: a sparse result of rank >= 2
/// accumulates the entries below one such prefix coordinate at a time.
unsigned scatterRowPrefix(ArrayType result, ArrayRef<int32_t> order);

/// The map a scatter reduction's loops compute (built before `kernel`, to
/// be erased by the caller): the reduced value at every point of the index
/// variables, as an all-dense array stored in the loop order `order`, with
/// the reduced value's space (every point for the universe strategy) and
/// fill. Its lattices are the scatter reduction's.
KernelOp buildScatterMapKernel(OpBuilder &b, KernelOp kernel,
                               ReduceOverOp reduce, ArrayRef<int32_t> order);

/// The lattices of every loop of a kernel with a derived algebra, one per
/// set of inputs that can be present when the loop starts (seed 000
/// Alg. 2 per loop; operands located at a loop — full levels — or not
/// present are eliminated from its algebra). Fails with a diagnostic when
/// the kernel has no derived algebra or too many inputs. A loop that
/// coiterates `linearThreshold` inputs or more is planned `linear` where it
/// can be (one loop over the union of their coordinates); 0 never plans
/// linear loops (lattices only, however large: for comparisons).
/// `branchlessMerge` lets innermost result loops whose root point covers
/// every subset of its inputs evaluate once per step instead of branching
/// per case (LatticeAttr's `branchless`); false: cases always.
/// `workspace` is recorded on the plan of a reduction planned as a
/// row-wise product.
constexpr unsigned kDefaultLinearThreshold = 5;
/// A loop whose lattice cases, times the copies of the loop that outer
/// loops descending per case emit, exceed this is planned linear too.
constexpr uint64_t kMaxLatticeCases = 64;
FailureOr<ArrayAttr>
buildKernelLattices(KernelOp kernel,
                    unsigned linearThreshold = kDefaultLinearThreshold,
                    bool branchlessMerge = true,
                    ReductionWorkspace workspace = ReductionWorkspace::Auto);

} // namespace sparse_array
} // namespace mlir

#endif // SPARSEARRAY_TRANSFORMS_COITERATION_H
