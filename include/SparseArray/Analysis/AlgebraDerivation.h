//===- AlgebraDerivation.h - Iteration spaces from properties ---*- C++ -*-===//
//
// Derives, for every value of a kernel's index-notation expression, its
// iteration algebra over the kernel inputs and its fill value (the value it
// has wherever the algebra does not hold), from the functions' explicit
// algebras and properties and the inputs' fill values (seed 000 §5.2,
// thesis 003 §5.2, in the same rule order).
//
//===----------------------------------------------------------------------===//

#ifndef SPARSEARRAY_ANALYSIS_ALGEBRADERIVATION_H
#define SPARSEARRAY_ANALYSIS_ALGEBRADERIVATION_H

#include "SparseArray/Analysis/Evaluator.h"
#include "SparseArray/Dialect/SparseArray.h"

#include "mlir/IR/SymbolTable.h"

namespace mlir {
namespace sparse_array {

struct DerivedSpace {
  IterationAlgebra algebra = IterationAlgebra::universe();
  /// The value outside `algebra`; null when it could not be determined.
  TypedAttr fill;
  /// Whether the value differs from `fill` exactly where `algebra` holds,
  /// once stored entries equal to their input's fill count as absent (the
  /// explicit-fill checks of the generated code): inputs and constants. A
  /// computed value may equal its fill inside its algebra (x + y with
  /// y = -x), which only a monotone use tolerates.
  bool exact = false;
  /// Which rule produced this (for remarks and tests).
  std::string rule;
};

/// How a reduction iterates (seed 000 §7.2; thesis §6.3), from the
/// combiner's properties and the fill of the reduced value.
struct ReductionPlan {
  /// The strategies (ReductionStrategy, SparseArrayAttrs.td):
  /// - Identity: The value's fill is the combiner's identity: visit the value's
  ///   algebra only, starting from the identity.
  /// - Idempotent: Idempotent, commutative, associative combiner: visit the value's
  ///   algebra, then combine the fill once if some point was not visited.
  /// - Reassociate: Commutative, associative combiner (not idempotent): visit the
  ///   value's algebra, then combine the fill as many times as points were
  ///   not visited, by repeated squaring (regrouping the dense program's
  ///   fold is what associativity allows).
  /// - SignedZeroSum: The combiner is exactly IEEE addition (arith.addf of its two
  ///   arguments) with identity -0.0, and the value's fill is +0.0 (the
  ///   standard library's exact add_f64 over fill 0): visit the value's
  ///   algebra from -0.0, counting points. Adding a +0.0 changes only a
  ///   -0.0 sum (+0.0), and a sum is -0.0 only while every term was, so
  ///   the points not visited matter only there: a -0.0 result becomes
  ///   +0.0 when some point was not visited. Bitwise the dense fold
  ///   (issue 20; NaN and ±inf included).
  /// - SignedZeroDot: The combiner is the exact IEEE addition of SignedZeroSum and the
  ///   reduced value is exactly IEEE x * y of a sparse input with fill ±0.0
  ///   and a dense input read at the reduced variables (and perhaps kept
  ///   ones: SpMM's B(k, j), whose counts are then per j) (SpMV with the
  ///   standard library's exact add_f64/mul_f64). A point the sparse input
  ///   does not store adds fill * y: ±0.0 when y is finite, NaN otherwise.
  ///   So only the stored points are visited (from -0.0), counting those
  ///   whose y is finite with the fill's sign (their omitted term would be
  ///   +0.0) and those whose y is not finite; the same two counts over the
  ///   whole dense input, taken once per kernel call, say whether an
  ///   omitted point adds NaN (the result is NaN) or +0.0 (a -0.0 result
  ///   becomes +0.0). Bitwise the dense fold (issue 20, the run-time guard
  ///   of part 3 computed as counts: no universe fallback is needed).
  /// - Universe: Every point.
  using Strategy = ReductionStrategy;
  Strategy strategy = Strategy::Universe;
  /// What the reduction loops visit.
  IterationAlgebra algebra = IterationAlgebra::universe();
  /// The reduced value's fill (null when unknown).
  TypedAttr valueFill;
  /// The combiner's identity at every position, or null.
  TypedAttr identity;
  /// A value that, once accumulated, is the result whatever follows
  /// (the combiner's annihilator at the accumulator's position), or null.
  TypedAttr annihilator;
  /// SignedZeroDot: the kernel input whose stored points are visited (the
  /// factor with fill ±0.0), the dense input whose values decide the
  /// omitted terms, and whether the sparse factor's fill is -0.0.
  int zeroFactorInput = -1, denseFactorInput = -1;
  bool zeroFillNegative = false;
  /// Float min/max accumulated as total-order keys (ReductionKeys), and the
  /// longest range a result point accumulates as floats instead.
  ReductionKeys keys = ReductionKeys::None;
  int64_t keyShortRange = 0;
  /// A row-wise product's workspace (the planner's option).
  ReductionWorkspace workspace = ReductionWorkspace::Auto;

  llvm::StringRef getStrategyName() const;

  /// The plan as the IR records it (sparse_array.reduce_over's `plan`).
  ReductionPlanAttr toAttr(MLIRContext *context) const;
  /// The plan `attr` records for a reduction with `combiner` (its identity
  /// and annihilator are the combiner's properties, not decisions).
  static ReductionPlan fromAttr(ReductionPlanAttr attr, FuncOp combiner);
};

/// A reduction combiner's identity at every position, or null.
TypedAttr combinerIdentity(FuncOp combiner);
/// A value that, once accumulated, is the result whatever follows (the
/// combiner's annihilator at the accumulator's position), or null.
TypedAttr combinerAnnihilator(FuncOp combiner);

/// Whether `combiner` is exactly IEEE addition of its arguments with
/// identity -0.0 and the reduced value's fill +0.0 (f32, f64): the
/// SignedZeroSum strategy.
bool isSignedZeroSum(FuncOp combiner, TypedAttr identity, TypedAttr fill);

/// Whether `func` is exactly IEEE x + y (x * y) of its two arguments:
/// one arith.addf (mulf) without fast-math flags, no explicit algebra.
bool isExactFloatAdd(FuncOp func);
bool isExactFloatMul(FuncOp func);
/// Whether `func` is exactly arith.minimumf of its two arguments (IEEE
/// minimum: NaN if either is, -0.0 below +0.0).
bool isExactFloatMinimum(FuncOp func);

class AlgebraDerivation {
public:
  AlgebraDerivation(SymbolTableCollection &symbols, Evaluator &evaluator)
      : symbols(symbols), evaluator(evaluator) {}

  /// The space of a value of `kernel`'s body (memoized per kernel run).
  const DerivedSpace &derive(KernelOp kernel, Value value);

  /// The kernel's result: the derivation of its yielded value, reconciled
  /// with the fill the result type declares. When the declared fill is not
  /// the one derived (or nothing could be derived), every point must be
  /// visited: the algebra becomes the universe and the fill the declared
  /// one (iterate more, never less).
  DerivedSpace deriveKernel(KernelOp kernel);

  /// How `reduce` iterates (see ReductionPlan).
  ReductionPlan planReduction(KernelOp kernel, ReduceOverOp reduce);

  /// The value input `k`'s leaf stands for where it is absent: what its
  /// entries are compared against to tell whether they are defined, and
  /// what a read outside its window yields. Its array's fill, except for a
  /// dense part read only through concatenation windows (select_range),
  /// whose own fill is never seen: there the concatenation's common fill,
  /// so that "absent" means "the select yields the common fill".
  TypedAttr leafFill(KernelOp kernel, unsigned k);

private:
  /// The fill of a concatenation's value outside its parts' algebras.
  TypedAttr commonFill(KernelOp kernel, SelectRangeOp select);
  DerivedSpace deriveApply(KernelOp kernel, ApplyOp apply);
  /// Rules 1-5 (everything but an explicit algebra).
  DerivedSpace deriveFromProperties(FuncOp func,
                                    llvm::ArrayRef<IterationAlgebra> algebras,
                                    llvm::ArrayRef<TypedAttr> fills);
  static llvm::SmallVector<unsigned>
  complementedLeaves(const IterationAlgebra &algebra);
  DerivedSpace deriveReduce(KernelOp kernel, ReduceOverOp reduce);
  DerivedSpace deriveReduceFrom(KernelOp kernel, ReduceOverOp reduce,
                                FuncOp combiner);
  /// acc ⊕ v ⊕ ... ⊕ v (n times v) by evaluation, or null.
  TypedAttr foldFills(FuncOp combiner, TypedAttr acc, TypedAttr v, int64_t n);
  /// f(args) by evaluation, or null.
  TypedAttr evaluate(FuncOp func, ArrayRef<TypedAttr> args);

  SymbolTableCollection &symbols;
  Evaluator &evaluator;
  llvm::DenseMap<Value, DerivedSpace> cache;
};

} // namespace sparse_array
} // namespace mlir

#endif // SPARSEARRAY_ANALYSIS_ALGEBRADERIVATION_H
