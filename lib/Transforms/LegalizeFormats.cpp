//===- LegalizeFormats.cpp - Conversions around unsupported formats -------===//
//
// A thin shell around legalizeLevelFormats: the one place that decides
// where an array in a level format plugin's storage is used as it is (a
// kernel's plain read through the format's iterator; the runtime's
// conversions, I/O and printing) and where it is converted to its generic
// format (seed 002 §3.2: what a level can do follows from its
// capabilities, not from its name).
//
//===----------------------------------------------------------------------===//

#include "SparseArray/Dialect/SparseArray.h"
#include "SparseArray/Transforms/Coiteration.h"
#include "SparseArray/Transforms/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"

namespace mlir {
namespace sparse_array {
#define GEN_PASS_DEF_SPARSEARRAYLEGALIZEFORMATSPASS
#include "SparseArray/Transforms/Passes.h.inc"
} // namespace sparse_array
} // namespace mlir

using namespace mlir;
using namespace mlir::sparse_array;

static bool needsGenericLevel(const LevelSpec &spec) {
  return spec.isReadOnlyByItsIterator() || !spec.canAssemble();
}

ArrayType mlir::sparse_array::getGenericArrayType(ArrayType type) {
  // Blocks (BCSR): kernels iterate dimensions, not a dimension's two
  // levels; they read and write the unblocked format.
  FormatAttr format = type.getFormat().withoutBlocks();
  if (!llvm::any_of(format.getLevels(), needsGenericLevel))
    return ArrayType::get(type.getShape(), type.getElementType(), format);
  SmallVector<LevelSpec> levels(format.getLevels());
  for (LevelSpec &spec : levels)
    if (needsGenericLevel(spec)) {
      // Hash order is a hashed level's own: its generic level is sorted.
      bool ordered = spec.ordered || spec.format->hasHashOrder();
      spec = spec.withFormat(LevelFormatRegistry::compressed());
      spec.ordered = ordered;
    }
  auto generic = FormatAttr::get(type.getContext(), levels, format.getOrder(),
                                 format.getPosWidth(), format.getCrdWidth(),
                                 format.getFill());
  return ArrayType::get(type.getShape(), type.getElementType(), generic);
}

/// Whether input k's access reads every level only its iterator reads as
/// that iterator can: the level's and its parent's dimensions bound to two
/// different index variables, unsliced, the parent's loop outside (at the
/// outermost level, the level's own dimension bound to a variable).
static bool readsPlainly(KernelOp kernel, unsigned k, ArrayRef<int> loopOf) {
  AccessOp access = kernel.getAccessOf(k);
  if (!access)
    return false;
  FormatAttr format = cast<ArrayType>(kernel.getInputs()[k].getType()).getFormat();
  auto variable = [&](unsigned dim) -> BlockArgument {
    if (access.isSliced(dim))
      return {};
    return dyn_cast<BlockArgument>(access.getIndices()[dim]);
  };
  for (unsigned l = 0; l < format.getNumLevels(); ++l) {
    if (!format.getLevels()[l].isReadOnlyByItsIterator())
      continue;
    BlockArgument own = variable(format.getLevelDim(l));
    if (l == 0) {
      if (!own)
        return false;
      continue;
    }
    BlockArgument parent = variable(format.getLevelDim(l - 1));
    if (!own || !parent || own == parent ||
        loopOf[parent.getArgNumber()] >= loopOf[own.getArgNumber()])
      return false;
  }
  return true;
}

/// The runtime's operations know every level format (SparseArrayLevelTraits
/// and the runtime's LevelKinds): they take and make any array as it is.
/// The buffer ops name stored buffers: a converted copy's would be freed
/// while the memref is still read. An extract reads one point through the
/// level iterators, which every format has (locating where it can).
static bool usesAnyFormat(Operation *op) {
  return isa<ConvertOp, ChangeFillOp, PrintOp, WriteOp, ValidateOp, DeallocOp,
             DimOp, ValuesOp, PositionsOp, CoordinatesOp, LevelBufferOp,
             ConstantOp, ReadOp, AssembleOp, DemapOp, ExtractOp>(op);
}

unsigned mlir::sparse_array::legalizeLevelFormats(Operation *root) {
  unsigned conversions = 0;
  SmallVector<Operation *> ops;
  root->walk([&](Operation *op) {
    // Kernels and the operations between them; not the bodies of kernels
    // and functions (accesses read the kernel's own arguments).
    if (op->getDialect() && isa<SparseArrayDialect>(op->getDialect()) &&
        !usesAnyFormat(op) && !op->getParentOfType<KernelOp>() &&
        !op->getParentOfType<FuncOp>())
      ops.push_back(op);
  });
  for (Operation *op : ops) {
    auto kernel = dyn_cast<KernelOp>(op);
    // Blocked inputs are read by their levels where the kernel allows it
    // (no conversion); what remains blocked is converted below.
    if (kernel)
      (void)demapBlockedInputs(kernel);
    SmallVector<int> loopOf;
    if (kernel)
      loopOf = getLoopOfIndex(kernel);
    OpBuilder before(op);
    SmallVector<Value> temporaries;
    for (OpOperand &operand : op->getOpOperands()) {
      auto type = dyn_cast<ArrayType>(operand.get().getType());
      if (!type || (!type.getFormat().isBlocked() &&
                    !llvm::any_of(type.getFormat().getLevels(),
                                  [](const LevelSpec &s) {
                                    return s.isReadOnlyByItsIterator();
                                  })))
        continue;
      unsigned k = operand.getOperandNumber();
      if (kernel && !type.getFormat().isBlocked() &&
          readsPlainly(kernel, k, loopOf))
        continue;
      ArrayType generic = getGenericArrayType(type);
      Value converted =
          ConvertOp::create(before, op->getLoc(), generic, operand.get());
      operand.set(converted);
      if (kernel)
        kernel.getInputArg(k).setType(generic);
      temporaries.push_back(converted);
      ++conversions;
    }
    OpBuilder after(op->getContext());
    after.setInsertionPointAfter(op);
    for (OpResult result : op->getResults()) {
      auto type = dyn_cast<ArrayType>(result.getType());
      if (!type)
        continue;
      ArrayType generic = getGenericArrayType(type);
      if (generic == type)
        continue;
      result.setType(generic);
      auto converted = ConvertOp::create(after, op->getLoc(), type, result);
      result.replaceAllUsesExcept(converted, converted);
      temporaries.push_back(result);
      ++conversions;
    }
    // The generic copies die here: only this operation reads the inputs',
    // only the conversion the result's.
    for (Value t : temporaries)
      DeallocOp::create(after, op->getLoc(), t);
  }
  return conversions;
}

namespace {
struct LegalizeFormatsPass
    : public sparse_array::impl::SparseArrayLegalizeFormatsPassBase<
          LegalizeFormatsPass> {
  void runOnOperation() override { legalizeLevelFormats(getOperation()); }
};
} // namespace
