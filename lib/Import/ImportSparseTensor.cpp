//===- ImportSparseTensor.cpp - sparse-array-import-sparse-tensor ---------===//
//
// Issue 19: sparse_array as the backend of frontends that emit linalg on
// sparse_tensor-encoded tensors. Named linalg ops are generalized first;
// then each function is rewritten op by op in program order, tensor values
// mapped to array values (ModuleImporter). Anything on tensors that has no
// exact translation is an error naming it.
//
//===----------------------------------------------------------------------===//

#include "ModuleImporter.h"

#include "SparseArray/Conversion/Pipeline.h"
#include "SparseArray/Conversion/RuntimeCalls.h"
#include "SparseArray/Import/Passes.h"

#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/SparseTensor/IR/SparseTensor.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Pass/PassRegistry.h"
#include "llvm/ADT/SetVector.h"

namespace mlir {
namespace sparse_array {
#define GEN_PASS_DEF_SPARSEARRAYIMPORTSPARSETENSORPASS
#include "SparseArray/Import/Passes.h.inc"
} // namespace sparse_array
} // namespace mlir

using namespace mlir;
using namespace mlir::sparse_array;
using namespace mlir::sparse_array::import;

namespace {

/// Named linalg ops as linalg.generic (linalg.fill stays: its constant is
/// an output's initial value, see OutputInit).
LogicalResult generalizeNamedOps(ModuleOp module) {
  SmallVector<linalg::LinalgOp> named;
  module.walk([&](linalg::LinalgOp op) {
    if (!isa<linalg::GenericOp, linalg::FillOp>(op))
      named.push_back(op);
  });
  IRRewriter rewriter(module.getContext());
  for (linalg::LinalgOp op : named) {
    rewriter.setInsertionPoint(op);
    if (failed(linalg::generalizeNamedOp(rewriter, op)))
      return op->emitOpError("cannot be imported: it has no linalg.generic "
                             "form");
  }
  return success();
}

} // namespace

LogicalResult ModuleImporter::run() {
  if (failed(generalizeNamedOps(module)) ||
      failed(import::unrollWindows(module)))
    return failure();
  SmallVector<func::FuncOp> funcs(module.getOps<func::FuncOp>());
  for (func::FuncOp func : funcs)
    if (failed(convertSignature(func)))
      return failure();
  for (func::FuncOp func : funcs)
    if (!func.isExternal() && failed(importBody(func)))
      return failure();
  return success();
}

LogicalResult ModuleImporter::convertSignature(func::FuncOp func) {
  FunctionType type = func.getFunctionType();
  if (func.isExternal()) {
    // A function defined elsewhere (the runner library's printMemref*)
    // takes buffers: what bufferization would pass it.
    SmallVector<Type> ins;
    for (Type t : type.getInputs()) {
      if (auto ranked = dyn_cast<RankedTensorType>(t)) {
        if (ranked.getEncoding())
          return func.emitOpError("cannot be imported: an external function "
                                  "taking a sparse tensor");
        t = MemRefType::get(ranked.getShape(), ranked.getElementType());
      } else if (auto unranked = dyn_cast<UnrankedTensorType>(t)) {
        t = UnrankedMemRefType::get(unranked.getElementType(), 0);
      }
      ins.push_back(t);
    }
    if (llvm::any_of(type.getResults(), isTensor))
      return func.emitOpError("cannot be imported: an external function "
                              "returning a tensor");
    func.setFunctionType(
        FunctionType::get(func.getContext(), ins, type.getResults()));
    return success();
  }
  // Tensor types become array types; the others stay.
  auto convertAll = [&](TypeRange types,
                        SmallVector<Type> &into) -> LogicalResult {
    for (Type t : types) {
      if (!isTensor(t)) {
        into.push_back(t);
        continue;
      }
      FailureOr<ArrayType> a = convert(func.getLoc(), t);
      if (failed(a))
        return failure();
      into.push_back(*a);
    }
    return success();
  };
  SmallVector<Type> ins, outs;
  if (failed(convertAll(type.getInputs(), ins)) ||
      failed(convertAll(type.getResults(), outs)))
    return failure();
  func.setFunctionType(FunctionType::get(func.getContext(), ins, outs));
  if (!func.isExternal())
    for (auto [arg, t] : llvm::zip(func.getArguments(), ins)) {
      if (isTensor(arg.getType())) {
        arrays[arg] = arg;
        tensorTypes[arg] = arg.getType();
      }
      arg.setType(t);
    }
  return success();
}

OutputInit ModuleImporter::initOf(Value v) {
  OutputInit init;
  if (undefined.contains(v))
    return init;
  if (TypedAttr c = filled.lookup(v)) {
    init.kind = OutputInit::Kind::Constant;
    init.constant = c;
    return init;
  }
  // A splat constant (`arith.constant dense<0.0>`, how many programs make
  // an output) starts every entry from the same value, as a fill does.
  if (auto c = v.getDefiningOp<arith::ConstantOp>())
    if (auto splat = dyn_cast<SplatElementsAttr>(c.getValue())) {
      init.kind = OutputInit::Kind::Constant;
      init.constant = splat.getSplatValue<TypedAttr>();
      return init;
    }
  init.kind = OutputInit::Kind::Array;
  init.array = arrays.lookup(v);
  return init;
}

FailureOr<Value> ModuleImporter::materializeSplat(Value v, TypedAttr value) {
  auto tensor = cast<RankedTensorType>(v.getType());
  FailureOr<ArrayType> type = convert(v.getLoc(), tensor);
  if (failed(type))
    return failure();
  OpBuilder b(v.getDefiningOp());
  // A fill's constant has the tensor's element type; zeros the array's.
  Type elem = value ? tensor.getElementType() : type->getElementType();
  auto splat = DenseElementsAttr::get(
      RankedTensorType::get(tensor.getShape(), elem),
      value ? Attribute(value) : Attribute(b.getZeroAttr(elem)));
  Value a = ConstantOp::create(b, v.getLoc(), *type, splat);
  arrays[v] = a;
  return a;
}

FailureOr<Value> ModuleImporter::arrayOf(Value v, Operation *user) {
  if (Value a = arrays.lookup(v))
    return a;
  // Already an array (a program mixing sparse_array code with the upstream
  // ops that trigger the import, e.g. vector.print): as it is.
  if (isa<ArrayType>(v.getType()))
    return v;
  if (undefined.contains(v)) {
    // A tensor.empty handed on as a value (to a function that writes it as
    // an output): its contents are undefined upstream; here zeros, made
    // once, where it was.
    auto tensor = cast<RankedTensorType>(v.getType());
    // A sparse tensor.empty (or one entries are inserted into) is empty,
    // as upstream's sparse tensor.empty is.
    if (!tensor.hasStaticShape() ||
        !(tensor.getEncoding() || isa<func::CallOp, tensor::InsertOp>(user)))
      return user->emitOpError("cannot be imported: it reads a tensor that "
                               "was never initialized");
    return materializeSplat(v, TypedAttr());
  }
  if (TypedAttr c = filled.lookup(v)) {
    // A constant tensor used as a value: materialize it once, where the
    // fill was.
    if (cast<RankedTensorType>(v.getType()).hasStaticShape())
      return materializeSplat(v, c);
    // Of a shape known only at run time: filled in a loop where it was.
    auto fill = cast<linalg::FillOp>(v.getDefiningOp());
    OpBuilder b(fill);
    FailureOr<ArrayType> type = convert(v.getLoc(), v.getType());
    FailureOr<Value> a = failed(type) ? FailureOr<Value>(failure()) : importFill(
        b, fill, *type, fill.getInputs()[0],
        [&](Value w) { return arrayOf(w, fill); });
    if (succeeded(a))
      arrays[v] = *a;
    return a;
  }
  return user->emitOpError("cannot be imported: operand of type ")
         << v.getType() << " has no imported value";
}

FailureOr<SmallVector<Value>>
ModuleImporter::importOperands(ValueRange values, Operation *user,
                               OtherOperands others) {
  SmallVector<Value> result;
  for (Value v : values) {
    if (!wasTensor(v)) {
      if (others == OtherOperands::Keep)
        result.push_back(v);
      else if (others == OtherOperands::Null)
        result.push_back(Value());
      continue;
    }
    FailureOr<Value> a = arrayOf(v, user);
    if (failed(a))
      return failure();
    result.push_back(*a);
  }
  return result;
}

LogicalResult ModuleImporter::retypeControlFlow(Operation *op,
                                                bool &retyped) {
  retyped = false;
  if (!isa<scf::ForOp, scf::WhileOp, scf::IfOp, scf::YieldOp,
           scf::ConditionOp>(op))
    return success();
  auto carriesTensor = [](Value v) { return isTensor(v.getType()); };
  bool any = llvm::any_of(op->getOperands(), carriesTensor) ||
             llvm::any_of(op->getResults(), carriesTensor);
  for (Region &r : op->getRegions())
    for (Block &block : r)
      any |= llvm::any_of(block.getArguments(), carriesTensor);
  if (!any)
    return success();
  retyped = true;
  // Operands: the arrays of the tensors (initial values, yielded values).
  for (OpOperand &operand : op->getOpOperands()) {
    if (!isTensor(operand.get().getType()))
      continue;
    FailureOr<Value> a = arrayOf(operand.get(), op);
    if (failed(a))
      return failure();
    operand.set(*a);
  }
  // Region arguments and results: the arrays of their tensor types.
  auto retype = [&](Value v) -> LogicalResult {
    if (!isTensor(v.getType()))
      return success();
    FailureOr<ArrayType> t = convert(op->getLoc(), v.getType());
    if (failed(t))
      return failure();
    v.setType(*t);
    arrays[v] = v;
    return success();
  };
  for (Region &r : op->getRegions())
    for (Block &block : r)
      for (BlockArgument arg : block.getArguments())
        if (failed(retype(arg)))
          return failure();
  for (Value result : op->getResults())
    if (failed(retype(result)))
      return failure();
  return success();
}

LogicalResult ModuleImporter::importOps(Operation *root, bool includeRoot) {
  WalkResult walk = root->walk<WalkOrder::PreOrder>([&](Operation *op) {
    if (op == root && !includeRoot)
      return WalkResult::advance();
    bool retyped = false;
    if (failed(retypeControlFlow(op, retyped)))
      return WalkResult::interrupt();
    if (retyped)
      return WalkResult::advance();
    OpBuilder b(op);
    bool handled = false;
    if (failed(importOp(op, b, handled)))
      return WalkResult::interrupt();
    if (handled) {
      replaced.push_back(op);
      return WalkResult::skip();
    }
    Dialect *d = op->getDialect();
    StringRef ns = d ? d->getNamespace() : StringRef();
    bool onTensors =
        llvm::any_of(op->getOperandTypes(), isTensor) ||
        llvm::any_of(op->getResultTypes(), isTensor) ||
        ns == "linalg" || ns == "tensor" || ns == "sparse_tensor" ||
        ns == "bufferization";
    if (onTensors) {
      op->emitOpError("cannot be imported: '")
          << op->getName() << "' has no sparse_array translation";
      return WalkResult::interrupt();
    }
    return WalkResult::advance();
  });
  return failure(walk.wasInterrupted());
}

LogicalResult ModuleImporter::importBody(func::FuncOp func) {
  replaced.clear();
  if (failed(importOps(func, /*includeRoot=*/false)))
    return failure();
  for (Operation *op : llvm::reverse(replaced)) {
    op->dropAllUses();
    op->erase();
  }
  for (Operation *call : filenameCalls)
    if (call->use_empty())
      call->erase();
  // getTensorFilename(i) whose string is used otherwise (passed to a
  // function that reads it): the runtime's program input i, which is the
  // runner's TENSOR<i> without command-line inputs.
  SmallVector<func::CallOp> named;
  func.walk([&](func::CallOp call) {
    if (call.getCallee() == "getTensorFilename" && call.getNumOperands() == 1 &&
        call.getNumResults() == 1)
      named.push_back(call);
  });
  for (func::CallOp call : named) {
    OpBuilder b(call);
    Value k = call.getOperand(0);
    if (k.getType().isIndex())
      k = arith::IndexCastOp::create(b, call.getLoc(), b.getI64Type(), k);
    Value path = callRuntime(b, call.getLoc(), call, "sa_rt_input_path",
                             {call.getResult(0).getType()}, {k});
    call.getResult(0).replaceAllUsesWith(path);
    call.erase();
  }
  filenameCalls.clear();
  return success();
}

namespace {

struct ImportSparseTensorPass
    : public sparse_array::impl::SparseArrayImportSparseTensorPassBase<
          ImportSparseTensorPass> {
  using Base::Base;
  void runOnOperation() override {
    if (failed(importSparseTensorProgram(getOperation(), exactPrint)))
      signalPassFailure();
  }
};

} // namespace

LogicalResult mlir::sparse_array::importSparseTensorProgram(ModuleOp module,
                                                           bool exactPrint) {
  return ModuleImporter(module, exactPrint).run();
}

void mlir::sparse_array::registerImportedDialects(DialectRegistry &registry) {
  registry.insert<bufferization::BufferizationDialect, linalg::LinalgDialect,
                  sparse_tensor::SparseTensorDialect, tensor::TensorDialect,
                  vector::VectorDialect>();
}

bool mlir::sparse_array::needsSparseTensorImport(ModuleOp module) {
  WalkResult found = module.walk([](Operation *op) {
    Dialect *d = op->getDialect();
    StringRef ns = d ? d->getNamespace() : StringRef();
    if (ns == "linalg" || ns == "tensor" || ns == "sparse_tensor" ||
        ns == "bufferization" || ns == "vector")
      return WalkResult::interrupt();
    if (llvm::any_of(op->getOperandTypes(), isTensor) ||
        llvm::any_of(op->getResultTypes(), isTensor))
      return WalkResult::interrupt();
    if (auto f = dyn_cast<func::FuncOp>(op))
      if (llvm::any_of(f.getFunctionType().getInputs(), isTensor) ||
          llvm::any_of(f.getFunctionType().getResults(), isTensor))
        return WalkResult::interrupt();
    return WalkResult::advance();
  });
  return found.wasInterrupted();
}

void mlir::sparse_array::registerSparseArrayImportPipeline() {
  PassPipelineRegistration<SparseArrayPipelineOptions>(
      "sparse-array-from-sparse-tensor-pipeline",
      "Import linalg on sparse_tensor-encoded tensors, then "
      "sparse-array-pipeline down to the LLVM dialect",
      [](OpPassManager &pm, const SparseArrayPipelineOptions &options) {
        pm.addPass(createSparseArrayImportSparseTensorPass());
        buildSparseArrayPipeline(pm, options);
      });
}
