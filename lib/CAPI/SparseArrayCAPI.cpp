//===- SparseArrayCAPI.cpp - Compile and call sparse_array programs -------===//
//
// The library behind the Python package: parse, lower, JIT, call, with
// every failure a returned message (a library must not exit the process).
//
//===----------------------------------------------------------------------===//

#include "SparseArray/CAPI/SparseArrayCAPI.h"

#include "SparseArray/Conversion/Pipeline.h"
#include "SparseArray/ExecutionEngine/Jit.h"
#include "SparseArray/Dialect/LevelFormat.h"
#include "SparseArray/InitSparseArray.h"
#include "SparseArrayRuntime.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/SourceMgr.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/SHA256.h"
#include "llvm/TargetParser/Host.h"

#include <cstdlib>
#include <cstring>
#include <dlfcn.h>
#include <mutex>

using namespace mlir;

struct sa_module {
  /// The JIT's code, or
  std::unique_ptr<ExecutionEngine> engine;
  /// a shared library from the kernel cache (dlopen()ed).
  void *library = nullptr;
  ~sa_module() {
    if (library)
      dlclose(library);
  }
};

namespace {

/// One context for every compilation (dialects loaded once), used under a
/// lock: MLIR contexts are not safe to parse into from several threads.
struct Compiler {
  Compiler() : context(makeRegistry()) {
    // Textual pipelines (sa_check) name the project's passes.
    sparse_array::registerSparseArrayPassesAndPipelines();
    context.loadAllAvailableDialects();
    context.printOpOnDiagnostic(false);
  }
  static DialectRegistry makeRegistry() {
    DialectRegistry registry;
    sparse_array::registerSparseArrayDialects(registry);
    sparse_array::registerJitTranslations(registry);
    return registry;
  }
  std::mutex lock;
  MLIRContext context;
};

Compiler &compiler() {
  static Compiler *instance = new Compiler(); // never destroyed: at exit
  return *instance;                           // JIT code may still run
}

char *copyMessage(const std::string &message) {
  char *copy = static_cast<char *>(std::malloc(message.size() + 1));
  if (copy)
    std::memcpy(copy, message.c_str(), message.size() + 1);
  return copy;
}

void setError(char **error, const std::string &message) {
  if (error)
    *error = copyMessage(message);
}

/// Applies "key=value;..." to the pipeline's and the JIT's options.
LogicalResult parseOptions(StringRef text,
                           sparse_array::SparseArrayPipelineOptions &pipeline,
                           sparse_array::JitOptions &jit, std::string &error) {
  SmallVector<StringRef> items;
  text.split(items, ';', -1, /*KeepEmpty=*/false);
  for (StringRef item : items) {
    std::pair<StringRef, StringRef> kv = item.split('=');
    StringRef key = kv.first.trim(), value = kv.second.trim();
    auto number = [&](auto &into) -> bool {
      long long n;
      if (value.getAsInteger(10, n) || n < 0)
        return false;
      into = n;
      return true;
    };
    auto flag = [&](auto &into) -> bool {
      if (value != "0" && value != "1")
        return false;
      into = value == "1";
      return true;
    };
    bool ok = true;
    if (key == "opt") {
      ok = number(jit.optLevel) && jit.optLevel <= 3;
    } else if (key == "openmp") {
      ok = flag(jit.enableOpenMP);
      pipeline.enableOpenMP = jit.enableOpenMP;
    } else if (key == "workspace") {
      ok = value == "auto" || value == "dense" || value == "hash";
      pipeline.workspace = value.str();
    } else if (key == "bounds_checks") {
      ok = flag(pipeline.boundsChecks);
    } else if (key == "linear_threshold") {
      unsigned n = 0;
      ok = number(n);
      pipeline.linearThreshold = n;
    } else if (key == "branchless_merge") {
      bool on = true;
      ok = flag(on);
      pipeline.branchlessMerge = on;
    } else if (key == "parallel_min_extent") {
      int64_t n = 0;
      ok = number(n);
      pipeline.parallelMinExtent = n;
    } else if (key == "parallel_min_work") {
      int64_t n = 0;
      ok = number(n);
      pipeline.parallelMinWork = n;
    } else if (key == "parallel_assembly") {
      ok = value == "auto" || value == "two-phase" || value == "parts" ||
           value == "chained";
      pipeline.parallelAssembly = value.str();
    } else if (key == "verify_each") {
      ok = flag(jit.verifyEach);
    } else if (key == "vector_gathers") {
      ok = value == "auto" || value == "on" || value == "off";
      jit.vectorGathers = value.str();
    } else {
      error = "unknown option '" + key.str() + "'";
      return failure();
    }
    if (!ok) {
      error = "bad value '" + value.str() + "' for option '" + key.str() + "'";
      return failure();
    }
  }
  return success();
}

/// Removes `cache_dir=PATH` from "key=value;..." options; returns PATH
/// (empty without one) and the other options in `rest`.
std::string takeCacheDir(StringRef options, std::string &rest) {
  SmallVector<StringRef> items;
  options.split(items, ';', -1, /*KeepEmpty=*/false);
  std::string dir;
  for (StringRef item : items) {
    std::pair<StringRef, StringRef> kv = item.split('=');
    if (kv.first.trim() == "cache_dir") {
      dir = kv.second.trim().str();
      continue;
    }
    rest += item.str() + ";";
  }
  return dir;
}

/// This library's file (what cached kernels link against for the runtime).
std::string selfPath() {
  Dl_info info;
  if (dladdr(reinterpret_cast<void *>(&sa_module_compile), &info) &&
      info.dli_fname)
    return info.dli_fname;
  return "";
}

/// The cache entry of a compilation: a digest of the program, the options,
/// this library's build (path, size, time) and the host CPU and features
/// (the code is tuned to them).
std::string cacheKey(StringRef text, StringRef options,
                     const std::string &self) {
  llvm::SHA256 hash;
  auto add = [&](StringRef part) {
    hash.update(part);
    hash.update(StringRef("\0", 1));
  };
  add(text);
  add(options);
  add(self);
  llvm::sys::fs::file_status status;
  if (!llvm::sys::fs::status(self, status)) {
    add(std::to_string(status.getSize()));
    add(std::to_string(
        status.getLastModificationTime().time_since_epoch().count()));
  }
  add(llvm::sys::getHostCPUName());
  for (const auto &feature : llvm::sys::getHostCPUFeatures())
    if (feature.second)
      add(feature.first());
  return llvm::toHex(hash.final(), /*LowerCase=*/true);
}

} // namespace

/// Parses `text` into the shared context (its lock held by the caller);
/// diagnostics go to `os`.
static OwningOpRef<ModuleOp> parseModule(Compiler &c, const char *text,
                                         size_t length, llvm::SourceMgr &sourceMgr) {
  sourceMgr.AddNewSourceBuffer(
      llvm::MemoryBuffer::getMemBufferCopy(StringRef(text, length), "program"),
      llvm::SMLoc());
  return parseSourceFile<ModuleOp>(sourceMgr, &c.context);
}

namespace {
/// One use of the shared context: its lock held, the diagnostics collected
/// as "line:col: error: ..." text, the parsed module.
struct Session {
  explicit Session(Compiler &c)
      : c(c), guard(c.lock), os(message), handler(sourceMgr, &c.context, os) {}
  bool parse(const char *text, size_t length) {
    module = parseModule(c, text, length, sourceMgr);
    return bool(module);
  }
  /// Reports the diagnostics, or `fallback` when there were none.
  void fail(char **error, const char *fallback) {
    setError(error, message.empty() ? fallback : message);
  }

  Compiler &c;
  std::lock_guard<std::mutex> guard;
  std::string message;
  llvm::raw_string_ostream os;
  llvm::SourceMgr sourceMgr;
  SourceMgrDiagnosticHandler handler;
  OwningOpRef<ModuleOp> module;
};
} // namespace

extern "C" int sa_check(const char *text, size_t length, const char *passes,
                        char **error) {
  return sa_run_passes(text, length, passes, nullptr, error);
}

extern "C" int sa_run_passes(const char *text, size_t length,
                             const char *passes, char **output,
                             char **error) {
  if (error)
    *error = nullptr;
  if (output)
    *output = nullptr;
  Session session(compiler());
  if (!session.parse(text, length)) {
    session.fail(error, "parse error");
    return 1;
  }
  PassManager pm(&session.c.context);
  if (failed(parsePassPipeline(passes ? passes : "", pm, session.os))) {
    session.fail(error, "bad pass pipeline");
    return 1;
  }
  if (failed(pm.run(*session.module))) {
    session.fail(error, "the passes failed");
    return 1;
  }
  if (output) {
    std::string printed;
    llvm::raw_string_ostream ps(printed);
    session.module->print(ps);
    *output = copyMessage(printed);
  }
  return 0;
}

extern "C" sa_module *sa_module_compile(const char *text, size_t length,
                                        const char *options, char **error) {
  if (error)
    *error = nullptr;
  sparse_array::SparseArrayPipelineOptions pipelineOptions;
  sparse_array::JitOptions jitOptions;
  std::string message, otherOptions;
  std::string cacheDir = takeCacheDir(options ? options : "", otherOptions);
  if (failed(parseOptions(otherOptions, pipelineOptions, jitOptions,
                          message))) {
    setError(error, message);
    return nullptr;
  }

  // The on-disk kernel cache: a hit is a dlopen(), no compilation.
  std::string self = cacheDir.empty() ? "" : selfPath();
  std::string entry;
  if (!self.empty()) {
    llvm::SmallString<256> path(cacheDir);
    llvm::sys::path::append(path, cacheKey(StringRef(text, length),
                                           otherOptions, self) +
                                      ".so");
    entry = path.str().str();
    if (llvm::sys::fs::exists(entry))
      if (void *library = dlopen(entry.c_str(), RTLD_NOW | RTLD_LOCAL))
        return new sa_module{nullptr, library};
    // Missing or unusable: compiled below, then written.
    jitOptions.keepObject = true;
  }

  Session session(compiler());
  if (!session.parse(text, length)) {
    session.fail(error, "parse error");
    return nullptr;
  }
  PassManager pm(&session.c.context);
  sparse_array::buildSparseArrayPipeline(pm, pipelineOptions);
  if (failed(sparse_array::runPipeline(pm, *session.module,
                                       jitOptions.verifyEach))) {
    session.fail(error, "sparse-array-pipeline failed");
    return nullptr;
  }
  // The entry points (what a cached library must define).
  std::vector<std::string> publicFunctions;
  session.module->walk([&](LLVM::LLVMFuncOp f) {
    if (!f.isExternal() && f.isPublic())
      publicFunctions.push_back(f.getName().str());
  });
  std::string jitError;
  std::unique_ptr<ExecutionEngine> engine =
      sparse_array::createJit(*session.module, jitOptions, jitError);
  if (!engine) {
    setError(error, jitError);
    return nullptr;
  }
  if (!entry.empty() && !llvm::sys::fs::create_directories(cacheDir)) {
    // A cache that cannot be written only costs the next process a
    // compilation.
    std::vector<std::string> libraries = {self};
    if (jitOptions.enableOpenMP &&
        llvm::sys::fs::exists(sparse_array::libompPath()))
      libraries.push_back(sparse_array::libompPath().str());
    std::string ignored;
    (void)sparse_array::saveSharedObject(*engine, entry, publicFunctions,
                                         libraries, ignored);
  }
  return new sa_module{std::move(engine)};
}

extern "C" void *sa_module_lookup(sa_module *module, const char *name) {
  if (!module || !name)
    return nullptr;
  if (module->library)
    return dlsym(module->library, ("_mlir_" + std::string(name)).c_str());
  auto function = module->engine->lookupPacked(name);
  if (!function) {
    llvm::consumeError(function.takeError());
    return nullptr;
  }
  return reinterpret_cast<void *>(*function);
}

namespace {
struct PackedCall {
  void (*function)(void **);
  void **args;
};
void runPacked(void *data) {
  auto *call = static_cast<PackedCall *>(data);
  call->function(call->args);
}
} // namespace

extern "C" int sa_call(void *function, void **args, char **error) {
  if (error)
    *error = nullptr;
  if (!function) {
    setError(error, "no function to call");
    return 1;
  }
  PackedCall call{reinterpret_cast<void (*)(void **)>(function), args};
  char message[1024];
  if (sa_rt_try(runPacked, &call, message, sizeof(message)) == 0)
    return 0;
  setError(error, message);
  return 1;
}

extern "C" int sa_module_from_cache(sa_module *module) {
  return module && module->library ? 1 : 0;
}

extern "C" void sa_module_free(sa_module *module) { delete module; }

extern "C" char *sa_level_formats(void) {
  using sparse_array::LevelFormatRegistry;
  std::string text;
  for (const std::string &name : LevelFormatRegistry::getNames()) {
    const sparse_array::LevelFormat *format = LevelFormatRegistry::lookup(name);
    text += name + " buffers=";
    llvm::ListSeparator comma(",");
    for (const sparse_array::LevelBufferDecl &buffer : format->getBuffers())
      text += StringRef(comma).str() +
              (buffer.width == sparse_array_levels::BufferWidth::Positions
                   ? "pos"
                   : "crd");
    text += format->allowsNonUnique() ? " nonunique=1" : " nonunique=0";
    text += format->allowsNonOrdered() ? " nonordered=1" : " nonordered=0";
    text += format->hasHashOrder() ? " hashorder=1" : " hashorder=0";
    text += " params=" + std::to_string(format->getNumParams()) + "\n";
  }
  return strdup(text.c_str());
}

extern "C" void sa_free(void *pointer) { std::free(pointer); }
