//===- Dialect.cpp - sparse_array in MLIR's C API -------------------------===//

#include "SparseArray-c/Dialect.h"

#include "SparseArray/Conversion/Pipeline.h"
#include "SparseArray/Dialect/SparseArray.h"
#include "SparseArray/ExecutionEngine/Jit.h"
#include "SparseArray/Import/Passes.h"
#include "SparseArray/InitSparseArray.h"

#include "mlir/CAPI/IR.h"
#include "mlir/CAPI/Pass.h"
#include "mlir/CAPI/Registration.h"
#include "mlir/CAPI/Support.h"
#include "mlir/CAPI/Utils.h"

using namespace mlir;

MLIR_DEFINE_CAPI_DIALECT_REGISTRATION(SparseArray, sparse_array,
                                      sparse_array::SparseArrayDialect)

void mlirSparseArrayRegisterDialects(MlirDialectRegistry registry) {
  DialectRegistry *r = unwrap(registry);
  sparse_array::registerSparseArrayDialects(*r);
  sparse_array::registerJitTranslations(*r);
}

void mlirSparseArrayRegisterPasses(void) {
  sparse_array::registerSparseArrayPassesAndPipelines();
}

MlirLogicalResult mlirSparseArrayAddPipeline(MlirOpPassManager pm,
                                             bool importSparseTensor,
                                             MlirStringRef options,
                                             MlirStringCallback errorCallback,
                                             void *userData) {
  std::string error;
  llvm::raw_string_ostream errorStream(error);
  sparse_array::SparseArrayPipelineOptions parsed;
  if (failed(parsed.parseFromString(unwrap(options), errorStream))) {
    if (errorCallback)
      errorCallback(wrap(StringRef(error)), userData);
    return mlirLogicalResultFailure();
  }
  OpPassManager *opm = unwrap(pm);
  if (importSparseTensor)
    opm->addPass(sparse_array::createSparseArrayImportSparseTensorPass());
  sparse_array::buildSparseArrayPipeline(*opm, parsed);
  return mlirLogicalResultSuccess();
}
