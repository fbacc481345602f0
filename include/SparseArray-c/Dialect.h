/*===- Dialect.h - sparse_array in MLIR's C API -------------------*- C -*-===*\
|*                                                                            *|
|* For frontends written in other languages (issue 19): the dialect handle,   *|
|* registration of everything a sparse_array program and its pipeline use,    *|
|* and the pipelines appended to an MlirOpPassManager. Link                   *|
|* SparseArray::MLIRCAPI with MLIR's C API libraries (MLIRCAPIIR, ...).       *|
|* libSparseArrayCAPI.so (SparseArrayCAPI.h) is the other C API: compile and  *|
|* call programs without MLIR's C API.                                        *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/

#ifndef SPARSEARRAY_C_DIALECT_H
#define SPARSEARRAY_C_DIALECT_H

#include "mlir-c/IR.h"
#include "mlir-c/Pass.h"
#include "mlir-c/Support.h"

#ifdef __cplusplus
extern "C" {
#endif

/* mlirGetDialectHandle__sparse_array__() */
MLIR_DECLARE_CAPI_DIALECT_REGISTRATION(SparseArray, sparse_array);

/* Inserts sparse_array, the upstream dialects its programs and pipeline use,
 * the ones imported programs contain (linalg, tensor, sparse_tensor,
 * bufferization) and the LLVM IR translations an ExecutionEngine needs to
 * run the pipeline's result. */
MLIR_CAPI_EXPORTED void
mlirSparseArrayRegisterDialects(MlirDialectRegistry registry);

/* Registers the project's passes and pipelines by name (for
 * mlirParsePassPipeline / mlirOpPassManagerAddPipeline strings). Call once. */
MLIR_CAPI_EXPORTED void mlirSparseArrayRegisterPasses(void);

/* Appends sparse-array-pipeline to `pm` (anchored on builtin.module),
 * preceded by sparse-array-import-sparse-tensor when `importSparseTensor`
 * (the pipeline sparse-array-from-sparse-tensor-pipeline). `options` uses
 * the pipeline's option syntax, e.g. "enable-openmp=false workspace=hash"
 * (empty: the defaults). On bad options returns failure and passes the
 * message to `errorCallback` (if not null). */
MLIR_CAPI_EXPORTED MlirLogicalResult mlirSparseArrayAddPipeline(
    MlirOpPassManager pm, bool importSparseTensor, MlirStringRef options,
    MlirStringCallback errorCallback, void *userData);

#ifdef __cplusplus
}
#endif

#endif /* SPARSEARRAY_C_DIALECT_H */
