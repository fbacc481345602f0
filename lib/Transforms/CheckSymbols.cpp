//===- CheckSymbols.cpp - Names compiled code calls -----------------------===//
//
// A function of the program named like a C library function that lowered
// code calls (math → libm, buffers → malloc/memcpy, OpenMP → __kmpc_*) or
// like the runtime's entry points would capture those calls at link time.
// Reported before anything is compiled.
//
//===----------------------------------------------------------------------===//

#include "SparseArray/Transforms/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "llvm/ADT/StringSet.h"

namespace mlir {
namespace sparse_array {
#define GEN_PASS_DEF_SPARSEARRAYCHECKSYMBOLSPASS
#include "SparseArray/Transforms/Passes.h.inc"
} // namespace sparse_array
} // namespace mlir

using namespace mlir;

namespace {

/// libm's functions (double and float forms) and the C library functions
/// the LLVM lowering or the generated code call.
const llvm::StringSet<> &reservedNames() {
  static const llvm::StringSet<> names = [] {
    llvm::StringSet<> set;
    for (const char *f :
         {"acos", "acosh", "asin", "asinh", "atan", "atan2", "atanh", "cbrt",
          "ceil", "copysign", "cos", "cosh", "erf", "erfc", "exp", "exp10",
          "exp2", "expm1", "fabs", "fdim", "floor", "fma", "fmax", "fmin",
          "fmod", "frexp", "hypot", "ldexp", "lgamma", "llrint", "llround",
          "log", "log10", "log1p", "log2", "logb", "lrint", "lround", "modf",
          "nearbyint", "nextafter", "pow", "remainder", "rint", "round",
          "roundeven", "scalbn", "sin", "sincos", "sinh", "sqrt", "tan",
          "tanh", "tgamma", "trunc"}) {
      set.insert(f);
      set.insert(std::string(f) + "f");
    }
    for (const char *f :
         {"malloc", "calloc", "realloc", "free", "aligned_alloc",
          "posix_memalign", "memcpy", "memmove", "memset", "memcmp", "abort",
          "exit", "printf", "fprintf", "puts", "putchar", "qsort", "bcmp"})
      set.insert(f);
    return set;
  }();
  return names;
}

struct CheckSymbolsPass
    : public sparse_array::impl::SparseArrayCheckSymbolsPassBase<
          CheckSymbolsPass> {
  void runOnOperation() override {
    bool failedAny = false;
    for (auto func : getOperation().getOps<func::FuncOp>()) {
      if (func.isExternal())
        continue;
      StringRef name = func.getSymName();
      bool reserved = reservedNames().contains(name);
      if (!reserved && !name.starts_with("sa_rt_") &&
          !name.starts_with("__kmpc_") && !name.starts_with("omp_"))
        continue;
      func.emitError() << "function @" << name << " has the name of "
                       << (reserved ? "the C library function '"
                                    : "the runtime function '")
                       << name << "', which compiled code calls: rename it";
      failedAny = true;
    }
    if (failedAny)
      signalPassFailure();
  }
};

} // namespace
