//===- Evaluator.h - Exact compile-time evaluation of functions -*- C++ -*-===//
//
// Evaluates a sparse_array.func on constant arguments, through its whole
// body: arith/math operations via their folders (so NaN, ±inf, -0.0,
// integer wrap-around and unsigned operations behave exactly as the
// generated code), scf.if/for/while loops, and calls to other functions.
// Used to infer fill values (seed 000 §5.2 fallback: "constant propagate
// through f") and by the property checker.
//
//===----------------------------------------------------------------------===//

#ifndef SPARSEARRAY_ANALYSIS_EVALUATOR_H
#define SPARSEARRAY_ANALYSIS_EVALUATOR_H

#include "SparseArray/Dialect/SparseArray.h"

#include "mlir/IR/BuiltinOps.h"
#include "llvm/ADT/DenseMap.h"

#include <string>

namespace mlir {
namespace sparse_array {

class Evaluator {
public:
  struct Options {
    /// Operations executed per top-level evaluation before giving up (a loop
    /// that does not terminate on these inputs).
    uint64_t maxSteps = 1u << 22;
    unsigned maxCallDepth = 64;
  };

  Evaluator() : Evaluator(Options{}) {}
  explicit Evaluator(Options options) : options(options) {}

  /// f(args) through the body of `func`, or through case region `region`
  /// (one of func's cases) when given. On failure, `getLastError()` says
  /// which construct could not be evaluated.
  FailureOr<TypedAttr> evaluate(FuncOp func, ArrayRef<TypedAttr> args,
                                Region *region = nullptr);

  const std::string &getLastError() const { return lastError; }

private:
  /// Values of one region activation; nested regions see their parents'.
  struct Scope {
    llvm::DenseMap<Value, Attribute> values;
    const Scope *parent = nullptr;
    Attribute lookup(Value v) const {
      for (const Scope *s = this; s; s = s->parent)
        if (Attribute a = s->values.lookup(v))
          return a;
      return {};
    }
  };
  FailureOr<SmallVector<Attribute>> run(Region &region,
                                        ArrayRef<Attribute> args,
                                        unsigned depth,
                                        const Scope *parent = nullptr);
  FailureOr<SmallVector<Attribute>> callFunction(FuncOp func,
                                                 ArrayRef<Attribute> args,
                                                 unsigned depth,
                                                 Region *region = nullptr);
  LogicalResult fail(const Twine &message);
  /// A private copy of `func`: folders may rewrite an op in place, and the
  /// evaluation must not touch the program.
  FuncOp getCopy(FuncOp func);

  Options options;
  uint64_t steps = 0;
  std::string lastError;
  llvm::DenseMap<Operation *, OwningOpRef<FuncOp>> copies;
  /// Copy -> original, to resolve calls against the original program.
  llvm::DenseMap<Operation *, Operation *> originals;
};

} // namespace sparse_array
} // namespace mlir

#endif // SPARSEARRAY_ANALYSIS_EVALUATOR_H
