//===- InitSparseArray.cpp - Registration for the tools -------------------===//

#include "SparseArray/InitSparseArray.h"

#include "SparseArray/Conversion/Passes.h"
#include "SparseArray/Conversion/Pipeline.h"
#include "SparseArray/Dialect/SparseArray.h"
#include "SparseArray/Import/Passes.h"
#include "SparseArray/Transforms/Passes.h"

#include "mlir/Conversion/Passes.h"
#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlow.h"
#include "mlir/Dialect/Func/Extensions/AllExtensions.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Index/IR/IndexDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/MemRef/Transforms/Passes.h"
#include "mlir/Dialect/OpenMP/OpenMPDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/UB/IR/UBOps.h"
#include "mlir/Transforms/Passes.h"

using namespace mlir;

void mlir::sparse_array::registerSparseArrayDialects(
    DialectRegistry &registry) {
  registry.insert<sparse_array::SparseArrayDialect, affine::AffineDialect,
                  arith::ArithDialect, cf::ControlFlowDialect,
                  func::FuncDialect, index::IndexDialect, LLVM::LLVMDialect,
                  math::MathDialect, memref::MemRefDialect,
                  omp::OpenMPDialect, scf::SCFDialect, ub::UBDialect>();
  func::registerAllExtensions(registry);
  // What imported programs (linalg on sparse_tensor tensors) contain.
  sparse_array::registerImportedDialects(registry);
}

void mlir::sparse_array::registerSparseArrayPassesAndPipelines() {
  // The project's own.
  sparse_array::registerSparseArrayPasses();
  sparse_array::registerSparseArrayConversionPasses();
  sparse_array::registerSparseArrayPipelines();
  sparse_array::registerSparseArrayImportPasses();
  sparse_array::registerSparseArrayImportPipeline();
  // Generic clean-ups.
  registerCanonicalizerPass();
  registerCSEPass();
  registerInlinerPass();
  registerSymbolDCEPass();
  registerLoopInvariantCodeMotionPass();
  // Every upstream stage of sparse-array-pipeline.
  registerConvertSCFToOpenMPPass();
  registerLowerAffinePass();
  memref::registerExpandStridedMetadataPass();
  registerFinalizeMemRefToLLVMConversionPass();
  registerSCFToControlFlowPass();
  registerConvertMathToLLVMPass();
  registerConvertMathToLibmPass();
  registerArithToLLVMConversionPass();
  registerConvertIndexToLLVMPass();
  registerConvertOpenMPToLLVMPass();
  registerConvertControlFlowToLLVMPass();
  registerConvertFuncToLLVMPass();
  registerUBToLLVMConversionPass();
  registerReconcileUnrealizedCastsPass();
}
