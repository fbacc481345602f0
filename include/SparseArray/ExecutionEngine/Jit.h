//===- Jit.h - JIT compilation of lowered sparse_array programs -*- C++ -*-===//
//
// Shared by sa-run and the C API (libSparseArrayCAPI): compiling a module
// that sparse-array-pipeline lowered to LLVM into host code, with the
// runtime's symbols and libomp resolved.
//
//===----------------------------------------------------------------------===//

#ifndef SPARSEARRAY_EXECUTIONENGINE_JIT_H
#define SPARSEARRAY_EXECUTIONENGINE_JIT_H

#include "mlir/ExecutionEngine/ExecutionEngine.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/DialectRegistry.h"

#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace mlir {
namespace sparse_array {

struct JitOptions {
  /// LLVM optimization level (0-3) of the IR passes and code generation.
  unsigned optLevel = 3;
  /// Load libomp for the OpenMP runtime calls of parallel loops.
  bool enableOpenMP = true;
  /// Gathers in vectorized loops: "auto" (not on AMD Zen 1-4), "on", "off".
  std::string vectorGathers = "auto";
  /// Further shared libraries the program's declarations resolve to.
  std::vector<std::string> sharedLibs;
  /// Compile position-independent code and keep the object, so that
  /// saveSharedObject can write it (the on-disk kernel cache).
  bool keepObject = false;
  /// Verify the IR after each pass of the pipeline before the JIT, not
  /// only after the last (runPipeline).
  bool verifyEach = false;
  /// Where to print the LLVM IR after optimization (sa-run --print-llvm),
  /// or null.
  llvm::raw_ostream *printOptimized = nullptr;
};

/// The LLVM IR optimization the JIT runs on a translated module: LLVM's
/// default pipeline at `optLevel` for `targetMachine`, except that loops
/// on cold paths are neither vectorized nor unrolled (Optimizer.cpp).
/// With `print`, the optimized module is printed there.
std::function<llvm::Error(llvm::Module *)>
makeKernelOptimizer(unsigned optLevel, llvm::TargetMachine *targetMachine,
                    llvm::raw_ostream *print = nullptr);

/// The dialect translations the JIT needs, added to `registry`.
void registerJitTranslations(DialectRegistry &registry);

/// Initializes LLVM's native target once per process.
void initializeJitTarget();

/// JIT-compiles `module` (lowered to the LLVM dialect) for the host, the
/// runtime's symbols registered, the module's initializers run. On failure
/// returns null and sets `error`.
std::unique_ptr<ExecutionEngine> createJit(ModuleOp module,
                                           const JitOptions &options,
                                           std::string &error);

/// Writes the object `engine` compiled (createJit with keepObject) as a
/// shared library at `path`, linked with ld.lld against `libraries` (what
/// its undefined symbols resolve to: the runtime, libomp), through a
/// temporary renamed into place (concurrent writers are safe).
/// `entryPoints` are the module's public functions: their lookup forces
/// the (lazy) compilation. Fails with `error` when no linker is installed,
/// nothing was compiled or the link fails.
LogicalResult saveSharedObject(ExecutionEngine &engine, llvm::StringRef path,
                               llvm::ArrayRef<std::string> entryPoints,
                               llvm::ArrayRef<std::string> libraries,
                               std::string &error);

/// Where libomp is (the JIT loads it for OpenMP programs).
llvm::StringRef libompPath();

} // namespace sparse_array
} // namespace mlir

#endif // SPARSEARRAY_EXECUTIONENGINE_JIT_H
