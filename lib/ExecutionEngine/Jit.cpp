//===- Jit.cpp - JIT compilation of lowered sparse_array programs ---------===//

#include "SparseArray/ExecutionEngine/Jit.h"

#include "SparseArrayRuntime.h"

#include "mlir/Target/LLVMIR/Dialect/Builtin/BuiltinToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/LLVMIR/LLVMToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/OpenMP/OpenMPToLLVMIRTranslation.h"
#include "llvm/ExecutionEngine/Orc/JITTargetMachineBuilder.h"
#include "llvm/ExecutionEngine/Orc/Mangling.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Target/TargetMachine.h"

#include <mutex>

using namespace mlir;

void sparse_array::registerJitTranslations(DialectRegistry &registry) {
  registerBuiltinDialectTranslation(registry);
  registerLLVMDialectTranslation(registry);
  registerOpenMPDialectTranslation(registry);
}

void sparse_array::initializeJitTarget() {
  static std::once_flag once;
  std::call_once(once, [] {
    llvm::InitializeNativeTarget();
    llvm::InitializeNativeTargetAsmPrinter();
  });
}

/// The host's target machine: its cost model and features guide the
/// vectorizer and unroller, which otherwise guess.
static std::unique_ptr<llvm::TargetMachine>
hostTargetMachine(const sparse_array::JitOptions &options) {
  auto builder = llvm::orc::JITTargetMachineBuilder::detectHost();
  if (!builder) {
    llvm::consumeError(builder.takeError());
    return nullptr;
  }
  // A dense operand read at a sparse one's coordinates (mxv's x(j)) is a
  // gather once vectorized. Zen 1-4 microcode gathers: scalar loads ran
  // that loop 1.5x faster (bench/graphblas, tropical mxv on bcsstk13, 53 vs
  // 35 us); the tuning flag is clang's -mno-gather.
  StringRef cpu = builder->getCPU();
  bool slowGathers = cpu == "znver1" || cpu == "znver2" || cpu == "znver3" ||
                     cpu == "znver4";
  if (options.vectorGathers == "off" ||
      (options.vectorGathers == "auto" && slowGathers))
    builder->getFeatures().AddFeature("prefer-no-gather");
  builder->setCodeGenOptLevel(
      static_cast<llvm::CodeGenOptLevel>(options.optLevel));
  // Position-independent code, always: it links into a shared library (the
  // kernel cache), and the engine's own default (static relocations, large
  // code model) is miscompiled by LLVM 22's x86 backend for znver4/5 (a
  // coordinate's urem read the wrong value; test/Integration/Exactness/
  // jit-large-code-model.mlir, `llc -code-model=large
  // -relocation-model=static -mcpu=znver5` reproduces it; small or PIC
  // does not).
  builder->setRelocationModel(llvm::Reloc::PIC_);
  auto machine = builder->createTargetMachine();
  if (!machine) {
    llvm::consumeError(machine.takeError());
    return nullptr;
  }
  return std::move(*machine);
}

std::unique_ptr<ExecutionEngine>
sparse_array::createJit(ModuleOp module, const JitOptions &options,
                        std::string &error) {
  if (options.optLevel > 3) {
    error = "-O" + std::to_string(options.optLevel) +
            " is not an optimization level (0-3)";
    return nullptr;
  }
  if (options.vectorGathers != "auto" && options.vectorGathers != "on" &&
      options.vectorGathers != "off") {
    error = "vector gathers '" + options.vectorGathers +
            "' is not one of auto, on, off";
    return nullptr;
  }
  initializeJitTarget();
  std::unique_ptr<llvm::TargetMachine> host = hostTargetMachine(options);
  ExecutionEngineOptions engineOptions;
  auto transformer = makeKernelOptimizer(options.optLevel, host.get(), options.printOptimized);
  engineOptions.transformer = transformer;
  engineOptions.jitCodeGenOptLevel =
      static_cast<llvm::CodeGenOptLevel>(options.optLevel);
  SmallVector<StringRef> sharedLibs;
  if (options.enableOpenMP && llvm::sys::fs::exists(SPARSE_ARRAY_LIBOMP_PATH))
    sharedLibs.push_back(SPARSE_ARRAY_LIBOMP_PATH);
  for (const std::string &lib : options.sharedLibs) {
    if (!llvm::sys::fs::exists(lib)) {
      error = "shared library '" + lib + "' does not exist";
      return nullptr;
    }
    sharedLibs.push_back(lib);
  }
  engineOptions.sharedLibPaths = sharedLibs;
  engineOptions.enableObjectDump = options.keepObject;
  // Code is generated for the host machine as configured above; the
  // engine's own machine only if the host cannot be detected.
  std::unique_ptr<llvm::TargetMachine> codegen = hostTargetMachine(options);
  auto engine =
      ExecutionEngine::create(module, engineOptions, std::move(codegen));
  if (!engine) {
    error = "JIT compilation failed: " + llvm::toString(engine.takeError());
    return nullptr;
  }
  // The runtime is linked into the host: its addresses, no dlopen.
  (*engine)->registerSymbols([](llvm::orc::MangleAndInterner interner) {
    llvm::orc::SymbolMap symbols;
    size_t count = 0;
    const SaRtSymbol *table = sa_rt_symbols(&count);
    for (size_t i = 0; i < count; ++i)
      symbols[interner(table[i].name)] = {
          llvm::orc::ExecutorAddr::fromPtr(table[i].address),
          llvm::JITSymbolFlags::Exported};
    return symbols;
  });
  (*engine)->initialize();
  return std::move(*engine);
}

llvm::StringRef sparse_array::libompPath() { return SPARSE_ARRAY_LIBOMP_PATH; }

LogicalResult sparse_array::saveSharedObject(
    ExecutionEngine &engine, llvm::StringRef path,
    llvm::ArrayRef<std::string> entryPoints,
    llvm::ArrayRef<std::string> libraries, std::string &error) {
  if (!llvm::sys::fs::exists(SPARSE_ARRAY_LLD_PATH)) {
    error = "no linker at " SPARSE_ARRAY_LLD_PATH;
    return failure();
  }
  // The JIT compiles on first lookup: the object exists only then
  // (dumpToObjectFile would otherwise look up every function, private
  // ones included, and fail).
  for (const std::string &name : entryPoints) {
    auto function = engine.lookupPacked(name);
    if (!function) {
      error = llvm::toString(function.takeError());
      return failure();
    }
  }
  // Unique temporaries beside the target: the rename is atomic.
  std::string stem =
      (path + ".tmp." + llvm::Twine(llvm::sys::Process::getProcessId()) + "." +
       llvm::Twine(reinterpret_cast<uintptr_t>(&engine)))
          .str();
  std::string object = stem + ".o", library = stem + ".so";
  engine.dumpToObjectFile(object);
  if (!llvm::sys::fs::exists(object)) {
    error = "the JIT kept no object to write";
    return failure();
  }
  SmallVector<StringRef> args = {SPARSE_ARRAY_LLD_PATH, "-shared",
                                 "--no-undefined-version", "-o", library,
                                 object};
  for (const std::string &lib : libraries)
    args.push_back(lib);
  std::string linkError;
  int status = llvm::sys::ExecuteAndWait(SPARSE_ARRAY_LLD_PATH, args,
                                         std::nullopt, {}, 0, 0, &linkError);
  llvm::sys::fs::remove(object);
  if (status != 0) {
    llvm::sys::fs::remove(library);
    error = "linking the kernel cache entry failed" +
            (linkError.empty() ? std::string() : ": " + linkError);
    return failure();
  }
  if (std::error_code ec = llvm::sys::fs::rename(library, path)) {
    llvm::sys::fs::remove(library);
    error = "cannot write " + path.str() + ": " + ec.message();
    return failure();
  }
  return success();
}
