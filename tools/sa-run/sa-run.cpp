//===- sa-run.cpp - JIT runner for sparse_array programs ------------------===//
//
//   sa-run PROGRAM.mlir [options] [-- INPUT...]
//
// Parses PROGRAM, compiles it with sparse-array-pipeline, JIT-compiles the
// result and runs @main (type `() -> ()` or `() -> i32`; an i32 result is the
// exit code). The project runtime is linked in; INPUTs are handed to it by
// position. Errors in the program or the pipeline are diagnostics with a
// non-zero exit, never a crash.
//
//===----------------------------------------------------------------------===//

#include "SparseArray/Conversion/Pipeline.h"
#include "SparseArray/ExecutionEngine/Jit.h"
#include "SparseArray/Import/Passes.h"
#include "SparseArray/InitSparseArray.h"
#include "SparseArrayRuntime.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/ExecutionEngine/ExecutionEngine.h"
#include "mlir/IR/AsmState.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Support/FileUtilities.h"
#include "mlir/Support/Timing.h"

#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <malloc.h>

using namespace mlir;
namespace cl = llvm::cl;

static cl::opt<std::string> programFile(cl::Positional, cl::Required,
                                        cl::desc("<program.mlir>"));
static cl::list<std::string> programInputs(
    cl::ConsumeAfter,
    cl::desc("[-- INPUT...]: inputs the program reads by position"));
static cl::opt<std::string> entryPoint("entry-point",
                                       cl::desc("Function to run"),
                                       cl::init("main"));
static cl::opt<unsigned>
    optLevel("O", cl::Prefix, cl::init(3),
             cl::desc("LLVM optimization level of the JIT (0-3)"));
static cl::opt<bool> importExactPrint(
    "import-exact-print", cl::init(false),
    cl::desc("An imported program (linalg on sparse_tensor tensors) prints "
             "sparse_array's exact text, not upstream's"));
static cl::opt<bool> disableOpenMP(
    "disable-openmp", cl::init(false),
    cl::desc("Keep scf.parallel loops sequential instead of using OpenMP"));
static cl::list<std::string> extraSharedLibs(
    "shared-libs", cl::CommaSeparated,
    cl::desc("Shared libraries whose functions the program may call "
             "(declared func.func private, with llvm.emit_c_interface for "
             "memref arguments)"),
    cl::value_desc("path,..."));
static cl::opt<std::string> workspaceMode(
    "workspace", cl::init("auto"),
    cl::desc("Workspace of row-wise matrix products: auto, dense or hash"));
static cl::opt<unsigned> linearThreshold(
    "linear-threshold", cl::init(5),
    cl::desc("Coiterate this many sparse inputs or more in one loop with a "
             "presence bit each instead of an iteration lattice (0: lattices "
             "only, however large)"));
static cl::opt<bool> branchlessMerge(
    "branchless-merge", cl::init(true),
    cl::desc("Plan innermost unions that compute every case branch-free "
             "(false: a branch per case)"));
static cl::opt<bool> boundsChecks(
    "bounds-checks", cl::init(false),
    cl::desc("Check every buffer access of the generated code and stop with "
             "the kernel, buffer and index on a violation (debug mode)"));
static cl::opt<std::string> vectorGathers(
    "vector-gathers", cl::init("auto"),
    cl::desc("Whether vectorized loops may use gather instructions: auto "
             "(not on AMD Zen 1-4, whose gathers are microcoded), on, off"));
static cl::opt<unsigned> threads(
    "num-threads", cl::init(0),
    cl::desc("OpenMP threads of parallel loops (0: OMP_NUM_THREADS, else "
             "one per core)"));
static cl::opt<int64_t> parallelMinExtent(
    "parallel-min-extent", cl::init(0),
    cl::desc("Fewest iterations of a kernel's outermost loop run in "
             "parallel (0: the plan's defaults)"));
static cl::opt<int64_t> parallelMinWork(
    "parallel-min-work", cl::init(0),
    cl::desc("Fewest stored values a kernel reads worth running it in "
             "parallel (0: the plan's defaults, 32768, and 131072 for a "
             "sparse result)"));
static cl::opt<std::string> parallelAssembly(
    "parallel-assembly", cl::init("auto"),
    cl::desc("Parallel rows of a CSR/CSC result: auto, two-phase (count, "
             "then fill), parts (append per part, then join) or chained "
             "(parts placed in order as they finish)"));
static cl::opt<bool> printLowered(
    "print-lowered", cl::init(false),
    cl::desc("Print the module after the pipeline, then run it"));

static cl::opt<bool> printLLVM(
    "print-llvm", cl::init(false),
    cl::desc("Print the LLVM IR after the JIT's optimization, then run it"));

static cl::opt<bool> verifyEach(
    "verify-each", cl::init(false),
    cl::desc("Verify the IR after each pass of the pipeline (by default only "
             "after the last; sa-opt verifies after each)"));

static cl::opt<bool> compileTimes(
    "compile-times", cl::init(false),
    cl::desc("Print to stderr how long parsing, the pipeline and the JIT's "
             "compilation of the whole module took, in ms (before running)"));

/// Milliseconds since a start, for --compile-times.
class Stopwatch {
public:
  double lap() {
    auto now = std::chrono::steady_clock::now();
    double ms = std::chrono::duration<double, std::milli>(now - last).count();
    last = now;
    return ms;
  }

private:
  std::chrono::steady_clock::time_point last = std::chrono::steady_clock::now();
};

static int fail(const Twine &message) {
  llvm::errs() << "sa-run: error: " << message << "\n";
  return 1;
}

/// Checks that the entry point exists with a runnable signature; returns
/// whether it produces an i32 exit code.
static FailureOr<bool> checkEntryPoint(ModuleOp module) {
  auto func = module.lookupSymbol<func::FuncOp>(entryPoint);
  if (!func) {
    emitError(module.getLoc()) << "no function @" << entryPoint << " to run";
    return failure();
  }
  if (func.isExternal()) {
    func.emitError() << "@" << entryPoint << " is only a declaration";
    return failure();
  }
  FunctionType type = func.getFunctionType();
  bool returnsExitCode =
      type.getNumResults() == 1 && type.getResult(0).isSignlessInteger(32);
  if (type.getNumInputs() != 0 ||
      (type.getNumResults() != 0 && !returnsExitCode)) {
    func.emitError() << "@" << entryPoint
                     << " must have type () -> () or () -> i32, got " << type;
    return failure();
  }
  return returnsExitCode;
}

int main(int argc, char **argv) {
  llvm::InitLLVM initLLVM(argc, argv);
  registerAsmPrinterCLOptions();
  registerMLIRContextCLOptions();
  registerPassManagerCLOptions();
  registerDefaultTimingManagerCLOptions();
  cl::ParseCommandLineOptions(argc, argv, "sparse_array JIT runner\n");
  if (vectorGathers != "auto" && vectorGathers != "on" &&
      vectorGathers != "off")
    return fail("--vector-gathers=" + vectorGathers +
                " is not one of auto, on, off");
  if (optLevel > 3)
    return fail("-O" + Twine(optLevel) + " is not an optimization level (0-3)");

  // `sa-run P -- a b` and `sa-run P a b` both mean the inputs a, b.
  std::vector<std::string> inputs(programInputs.begin(), programInputs.end());
  if (!inputs.empty() && inputs.front() == "--")
    inputs.erase(inputs.begin());
  // Without `--`, an option written after the program would silently become
  // an input (cl::ConsumeAfter); say so instead of ignoring it.
  else
    for (const std::string &input : inputs)
      if (StringRef(input).starts_with("-") && input != "-")
        return fail("'" + input +
                    "' after the program would be an input: put options "
                    "before the program, or inputs after `--`");

  // Programs allocate their results afresh and free them. glibc returns
  // blocks above its mmap threshold to the kernel on free and trims the
  // heap's top, so a loop that makes a result per iteration pays a page
  // fault and a zeroed page per 4 KiB each time (vstack of 1.3M entries:
  // 7.6 ms, 2.9 ms with reuse). The runner owns the process: keep freed
  // memory below 32 MiB per block for reuse, as glibc's dynamic threshold
  // does for numpy's arrays once one was freed.
  mallopt(M_MMAP_THRESHOLD, 32 << 20);
  mallopt(M_TRIM_THRESHOLD, 256 << 20);

  DialectRegistry registry;
  sparse_array::registerSparseArrayDialects(registry);
  sparse_array::registerJitTranslations(registry);
  MLIRContext context(registry);
  // Diagnostics name the construct; dumping the whole op only adds noise.
  context.printOpOnDiagnostic(false);

  Stopwatch watch;
  std::string errorMessage;
  std::unique_ptr<llvm::MemoryBuffer> file =
      openInputFile(programFile, &errorMessage);
  if (!file)
    return fail(errorMessage);
  llvm::SourceMgr sourceMgr;
  sourceMgr.AddNewSourceBuffer(std::move(file), SMLoc());
  SourceMgrDiagnosticHandler diagnostics(sourceMgr, &context);

  OwningOpRef<ModuleOp> module = parseSourceFile<ModuleOp>(sourceMgr, &context);
  if (!module)
    return 1;
  FailureOr<bool> returnsExitCode = checkEntryPoint(*module);
  if (failed(returnsExitCode))
    return 1;

  double parseMs = watch.lap();

  PassManager pm(&context);
  if (failed(applyPassManagerCLOptions(pm)))
    return 1;
  // --mlir-timing: the pipeline's passes.
  DefaultTimingManager timing;
  applyDefaultTimingManagerCLOptions(timing);
  TimingScope timingScope = timing.getRootScope();
  pm.enableTiming(timingScope);
  sparse_array::SparseArrayPipelineOptions pipelineOptions;
  pipelineOptions.enableOpenMP = !disableOpenMP;
  pipelineOptions.workspace = workspaceMode;
  pipelineOptions.linearThreshold = linearThreshold;
  pipelineOptions.branchlessMerge = branchlessMerge;
  pipelineOptions.boundsChecks = boundsChecks;
  pipelineOptions.parallelMinExtent = parallelMinExtent;
  pipelineOptions.parallelMinWork = parallelMinWork;
  pipelineOptions.parallelAssembly = parallelAssembly;
  // libomp reads it when the first parallel region starts (after this).
  if (threads > 0)
    ::setenv("OMP_NUM_THREADS", std::to_string(threads).c_str(), 1);
  // linalg on (sparse_tensor) tensors, as upstream frontends emit it, is
  // imported first (sparse-array-from-sparse-tensor-pipeline).
  if (sparse_array::needsSparseTensorImport(*module))
    pm.addPass(sparse_array::createSparseArrayImportSparseTensorPass(
        {/*exactPrint=*/importExactPrint}));
  sparse_array::buildSparseArrayPipeline(pm, pipelineOptions);
  if (failed(sparse_array::runPipeline(pm, *module, verifyEach)))
    return 1;
  double pipelineMs = watch.lap();
  if (printLowered)
    module->print(llvm::outs());

  sparse_array::JitOptions jitOptions;
  jitOptions.optLevel = optLevel;
  if (printLLVM)
    jitOptions.printOptimized = &llvm::outs();
  jitOptions.enableOpenMP = !disableOpenMP;
  jitOptions.vectorGathers = vectorGathers;
  jitOptions.sharedLibs.assign(extraSharedLibs.begin(), extraSharedLibs.end());
  std::string jitError;
  std::unique_ptr<ExecutionEngine> engine =
      sparse_array::createJit(*module, jitOptions, jitError);
  if (!engine)
    return fail(jitError);
  if (compileTimes) {
    // The JIT compiles the module when a symbol is first looked up.
    if (auto fn = engine->lookupPacked(entryPoint); !fn)
      return fail("no compiled @" + entryPoint + ": " +
                  llvm::toString(fn.takeError()));
    double jitMs = watch.lap();
    llvm::errs() << llvm::formatv(
        "sa-run: compile times [ms]: parse {0:F1}, pipeline {1:F1}, jit "
        "{2:F1}, total {3:F1}\n",
        parseMs, pipelineMs, jitMs, parseMs + pipelineMs + jitMs);
  }

  std::vector<const char *> inputPaths;
  for (const std::string &input : inputs)
    inputPaths.push_back(input.c_str());
  sa_rt_set_inputs(static_cast<int64_t>(inputPaths.size()), inputPaths.data());

  int32_t exitCode = 0;
  SmallVector<void *, 1> results;
  if (*returnsExitCode)
    results.push_back(&exitCode);
  if (llvm::Error error = engine->invokePacked(entryPoint, results))
    return fail("running @" + entryPoint + " failed: " +
                llvm::toString(std::move(error)));
  std::fflush(stdout);
  return exitCode;
}
