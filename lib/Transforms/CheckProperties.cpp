//===- CheckProperties.cpp - Test declared properties ---------------------===//
//
// Thin shell over checkProperties() (PropertyChecker.h).
//
//===----------------------------------------------------------------------===//

#include "SparseArray/Analysis/PropertyChecker.h"
#include "SparseArray/Transforms/Passes.h"

namespace mlir {
namespace sparse_array {
#define GEN_PASS_DEF_SPARSEARRAYCHECKPROPERTIESPASS
#include "SparseArray/Transforms/Passes.h.inc"
} // namespace sparse_array
} // namespace mlir

using namespace mlir;
using namespace mlir::sparse_array;

namespace {
struct SparseArrayCheckPropertiesPass
    : public sparse_array::impl::SparseArrayCheckPropertiesPassBase<
          SparseArrayCheckPropertiesPass> {
  using Base::Base;

  void runOnOperation() override {
    SymbolTableCollection symbols;
    Evaluator evaluator;
    PropertyCheckOptions options;
    options.randomSamples = randomSamples;
    bool anyViolation = false;
    getOperation()->walk([&](FuncOp func) {
      for (const PropertyViolation &violation :
           checkProperties(func, symbols, evaluator, options)) {
        anyViolation = true;
        InFlightDiagnostic diag =
            warnOnly ? func.emitWarning() : func.emitError();
        diag << "property '" << violation.property << "' of @"
             << func.getSymName()
             << " does not hold: " << violation.counterexample;
      }
    });
    if (anyViolation && !warnOnly)
      signalPassFailure();
  }
};
} // namespace
