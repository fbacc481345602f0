/*===- frontend-c.c - A C frontend using sparse_array as its backend ------===*\
|*                                                                            *|
|* Through MLIR's C API only: parse a program of linalg on sparse_tensor      *|
|* tensors, run sparse-array-from-sparse-tensor-pipeline, JIT it with MLIR's  *|
|* ExecutionEngine and the installed runtime, and call @main.                 *|
|*   frontend-c PROGRAM.mlir LIBSPARSE_ARRAY_RUNTIME.so LIBOMP.so             *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/

#include "SparseArray-c/Dialect.h"

#include "mlir-c/ExecutionEngine.h"
#include "mlir-c/IR.h"
#include "mlir-c/Pass.h"

#include <stdio.h>
#include <stdlib.h>

static void printError(MlirStringRef message, void *userData) {
  (void)userData;
  fprintf(stderr, "%.*s\n", (int)message.length, message.data);
}

static int fail(const char *what) {
  fprintf(stderr, "frontend-c: %s\n", what);
  return 1;
}

static char *readFile(const char *path) {
  FILE *f = fopen(path, "rb");
  if (!f)
    return NULL;
  fseek(f, 0, SEEK_END);
  long size = ftell(f);
  fseek(f, 0, SEEK_SET);
  char *text = malloc((size_t)size + 1);
  size_t got = fread(text, 1, (size_t)size, f);
  text[got] = '\0';
  fclose(f);
  return text;
}

int main(int argc, char **argv) {
  if (argc != 4) {
    fprintf(stderr, "usage: %s PROGRAM.mlir RUNTIME.so LIBOMP.so\n", argv[0]);
    return 2;
  }
  char *text = readFile(argv[1]);
  if (!text) {
    fprintf(stderr, "%s: cannot read %s\n", argv[0], argv[1]);
    return 2;
  }

  MlirContext ctx = mlirContextCreate();
  MlirDialectRegistry registry = mlirDialectRegistryCreate();
  mlirSparseArrayRegisterDialects(registry);
  mlirContextAppendDialectRegistry(ctx, registry);
  mlirDialectRegistryDestroy(registry);
  /* The handle works like any upstream dialect's. */
  MlirDialect dialect = mlirContextGetOrLoadDialect(
      ctx, mlirDialectHandleGetNamespace(mlirGetDialectHandle__sparse_array__()));
  if (mlirDialectIsNull(dialect))
    return fail("no sparse_array dialect");

  MlirModule module =
      mlirModuleCreateParse(ctx, mlirStringRefCreateFromCString(text));
  free(text);
  if (mlirModuleIsNull(module))
    return fail("the program does not parse");

  MlirPassManager pm = mlirPassManagerCreate(ctx);
  MlirOpPassManager opm = mlirPassManagerGetAsOpPassManager(pm);
  /* Bad options are reported, not fatal. */
  if (!mlirLogicalResultIsFailure(mlirSparseArrayAddPipeline(
          opm, true, mlirStringRefCreateFromCString("no-such-option=1"),
          printError, NULL)))
    return fail("a bad option was accepted");
  if (mlirLogicalResultIsFailure(mlirSparseArrayAddPipeline(
          opm, true, mlirStringRefCreateFromCString("workspace=hash"),
          printError, NULL)))
    return fail("the pipeline's options were rejected");
  if (mlirLogicalResultIsFailure(
          mlirPassManagerRunOnOp(pm, mlirModuleGetOperation(module))))
    return fail("the pipeline failed");
  mlirPassManagerDestroy(pm);

  MlirStringRef libs[2] = {mlirStringRefCreateFromCString(argv[2]),
                           mlirStringRefCreateFromCString(argv[3])};
  MlirExecutionEngine engine = mlirExecutionEngineCreate(
      module, /*optLevel=*/2, 2, libs, /*enableObjectDump=*/false,
      /*enablePIC=*/false);
  if (mlirExecutionEngineIsNull(engine))
    return fail("no execution engine");
  mlirExecutionEngineInitialize(engine);
  /* @main takes and returns nothing: call it directly. */
  void (*entry)(void) = (void (*)(void))mlirExecutionEngineLookup(
      engine, mlirStringRefCreateFromCString("main"));
  if (!entry)
    return fail("no @main");
  entry();
  fflush(stdout);
  mlirExecutionEngineDestroy(engine);
  mlirModuleDestroy(module);
  mlirContextDestroy(ctx);
  return 0;
}
