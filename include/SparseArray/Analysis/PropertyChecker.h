//===- PropertyChecker.h - Test declared properties against bodies -*- C++ -*-===//
//
// Beyond the seeds (their §10 future work): wrong property declarations are
// the easiest way to get silently wrong sparse results, so each declared
// property of a sparse_array.func is tested against its body on edge values
// (0, -0.0, ±1, extremes, NaN, ±inf, the property values themselves) and
// seeded random values, with exact comparison (NaN equals NaN; -0.0 differs
// from 0.0). Inputs on which the body has no value (e.g. division by zero)
// are skipped.
//
//===----------------------------------------------------------------------===//

#ifndef SPARSEARRAY_ANALYSIS_PROPERTYCHECKER_H
#define SPARSEARRAY_ANALYSIS_PROPERTYCHECKER_H

#include "SparseArray/Analysis/Evaluator.h"

#include <string>
#include <vector>

namespace mlir {
namespace sparse_array {

struct PropertyViolation {
  /// The property as declared, e.g. "annihilator 0.0".
  std::string property;
  /// A counterexample, e.g. "@fmul(0.0, inf) = nan, expected 0.0".
  std::string counterexample;
};

struct PropertyCheckOptions {
  /// Random samples per type added to the edge values.
  unsigned randomSamples = 8;
  uint64_t seed = 0x5eed;
};

/// Checks every declared property of `func` (commutative, associative,
/// idempotent, annihilator, identity, distributes_over, explicit algebra,
/// case regions); returns the violated ones, each with a counterexample.
std::vector<PropertyViolation>
checkProperties(FuncOp func, SymbolTableCollection &symbols,
                Evaluator &evaluator, const PropertyCheckOptions &options = {});

/// Sample values of a scalar type: edge values, then seeded random ones.
SmallVector<TypedAttr> getSampleValues(Type type, unsigned randomSamples,
                                       uint64_t seed);

} // namespace sparse_array
} // namespace mlir

#endif // SPARSEARRAY_ANALYSIS_PROPERTYCHECKER_H
