//===- Storage.h - Buffers of an array type ---------------------*- C++ -*-===//
//
// How an array value is laid out in memory (seed 002 §3.1): for each level
// in storage order, the buffers its LevelFormat declares (positions, then
// coordinates), then the values; plus one index per dimension. The storage
// lowering, the C ABI (docs/storage.md) and the runtime agree on this order;
// everything here asks the LevelFormat interface, never a format's name.
//
//===----------------------------------------------------------------------===//

#ifndef SPARSEARRAY_DIALECT_STORAGE_H
#define SPARSEARRAY_DIALECT_STORAGE_H

#include "SparseArray/Dialect/SparseArray.h"

#include <optional>
#include <string>

namespace mlir {
namespace sparse_array {

/// What a buffer holds: the two level roles the generic code reads, any
/// other role a level format declares (Other: see `role`), or the values.
enum class BufferKind { Positions, Coordinates, Other, Values };

struct ArrayBuffer {
  BufferKind kind;
  /// The level (unused for values).
  unsigned level;
  /// The role its level's format declares ("positions", "coordinates", a
  /// plugin's own; empty for values).
  StringRef role;
  /// Element type of the 1-D buffer: i32/i64 for positions and
  /// coordinates (the format's widths), the array's element type for
  /// values.
  Type elementType;
};

/// The buffers of `type`, in ABI order.
SmallVector<ArrayBuffer> getArrayBuffers(ArrayType type);

/// Index of a level's positions/coordinates buffer, or of the values buffer
/// (level ignored); std::nullopt when the level's format has no such buffer.
std::optional<unsigned> getBufferIndex(ArrayType type, BufferKind kind,
                                       unsigned level = 0);
/// Index of the buffer of `level` with `role`, if its format declares one.
std::optional<unsigned> getBufferIndex(ArrayType type, unsigned level,
                                       StringRef role);

/// The lowered form of an array value: one `memref<?xT>` per buffer, then
/// one `index` per dimension.
void getLoweredArrayTypes(ArrayType type, SmallVectorImpl<Type> &types);

/// The bit pattern of a scalar attribute (integer or float), zero-extended.
uint64_t getScalarBits(TypedAttr value);

/// The runtime's description of `type` (runtime/lib/Format.h), e.g.
/// "elem=f64;dims=?,4;levels=dense,compressed;order=0,1;pos=64;crd=64;
/// fill=bits:0x0".
std::string getRuntimeSpec(ArrayType type);

} // namespace sparse_array
} // namespace mlir

#endif // SPARSEARRAY_DIALECT_STORAGE_H
