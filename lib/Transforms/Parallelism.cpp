//===- Parallelism.cpp - Which kernel loops run in parallel ---------------===//
//
// The outermost result loop runs in parallel when its iterations are
// independent by construction: every output point is stored in place (a
// dense result), and the loop carries no cursor (every input level bound
// to it is located at the loop's coordinate, so the loop is counted and
// driven by U). Everything else stays sequential, and the plan says why.
//
//===----------------------------------------------------------------------===//

#include "SparseArray/Transforms/Parallelism.h"
#include "SparseArray/Transforms/Coiteration.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/InterleavedRange.h"

using namespace mlir;
using namespace mlir::sparse_array;

ParallelAttr
mlir::sparse_array::planParallelism(KernelOp kernel,
                                    const ParallelOptions &options) {
  MLIRContext *ctx = kernel.getContext();
  auto sequential = [&](const Twine &why) {
    return ParallelAttr::get(ctx, "none", 0, why.str());
  };
  bool scatter = false;
  kernel.getBody().walk(
      [&](ReduceOverOp r) { scatter |= r.getScatter().has_value(); });
  if (scatter)
    return sequential("row-wise product: its workspace is one per kernel, "
                      "not one per thread");
  ArrayType resultType = kernel.getResultType();
  unsigned rank = resultType.getRank();
  if (rank == 0)
    return sequential("scalar result: no result loop to share out "
                      "(parallel reductions not planned yet)");
  if (!resultType.isAllDense())
    return sequential("sparse result: entries are appended in order "
                      "(two-phase parallel assembly not planned yet)");
  // The outermost loop's lattice with every accessed input present.
  uint64_t used = 0;
  for (unsigned k = 0; k < kernel.getInputs().size(); ++k)
    if (kernel.getAccessOf(k))
      used |= uint64_t(1) << k;
  LatticeAttr outer;
  ArrayAttr lattices = *kernel.getLattices();
  for (Attribute a : lattices) {
    auto lattice = cast<LatticeAttr>(a);
    if (lattice.getLoop() == 0 && lattice.getPresentMask() == used)
      outer = lattice;
  }
  if (!outer)
    return sequential("no lattice for the outermost loop");
  if (!outer.getCoiterated().empty())
    return sequential(
        "the outermost loop coiterates stored levels of input" +
        Twine(outer.getCoiterated().size() > 1 ? "s " : " ") +
        llvm::join(llvm::map_range(outer.getCoiterated(),
                                   [](unsigned k) { return std::to_string(k); }),
                   ", ") +
        ": their cursors carry from one iteration to the next");
  ArrayRef<LatticePoint> points = outer.getPoints();
  if (points.size() != 1 || !points.front().universe || outer.getLinear())
    return sequential("the outermost loop is not one counted loop");
  int64_t minExtent = options.minExtent;
  if (minExtent <= 0)
    minExtent = kernel.getNumIndices() == 1 ? kMinParallelEntries
                                            : kMinParallelRows;
  int64_t size =
      resultType.getShape()[resultType.getFormat().getLevelDim(0)];
  if (!ShapedType::isDynamic(size) && size < minExtent)
    return sequential("the outermost loop has " + Twine(size) +
                      " iterations, fewer than " + Twine(minExtent));
  return ParallelAttr::get(ctx, "outer", minExtent, "");
}
