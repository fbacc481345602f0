//===- LevelFormat.h - Level formats as plugins -----------------*- C++ -*-===//
//
// A level format describes how one level of an array's coordinate tree is
// stored (seed 002 §3.1-3.3). Every consumer (verifier, storage lowering,
// iterator codegen) asks a LevelFormat for its properties and capabilities
// instead of switching on a format's name, so that new formats (range,
// offset, hashed, ...) plug in by registering a subclass.
//
//===----------------------------------------------------------------------===//

#ifndef SPARSEARRAY_DIALECT_LEVELFORMAT_H
#define SPARSEARRAY_DIALECT_LEVELFORMAT_H

#include "mlir/Support/LLVM.h"
#include "llvm/ADT/Hashing.h"
#include "llvm/ADT/StringRef.h"

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace mlir {
namespace sparse_array {

class LevelFormat;

/// One stored level: its format plus the properties that a format may let
/// the user relax (seed 002 §3.3: ordered, unique).
struct LevelSpec {
  const LevelFormat *format = nullptr;
  bool ordered = true;
  bool unique = true;

  bool operator==(const LevelSpec &other) const {
    return format == other.format && ordered == other.ordered &&
           unique == other.unique;
  }
  bool operator!=(const LevelSpec &other) const { return !(*this == other); }

  /// Seed 002 §3.3 properties of this level (format properties combined
  /// with the per-level ordered/unique flags).
  bool isFull() const;
  bool isBranchless() const;
  bool isCompact() const;
  StringRef getName() const;
};

inline llvm::hash_code hash_value(const LevelSpec &spec) {
  return llvm::hash_combine(spec.format, spec.ordered, spec.unique);
}

/// Level capabilities (seed 002 §3.2): how a level can be iterated, accessed
/// and assembled. A bit set.
enum class LevelCapability : unsigned {
  None = 0,
  /// Iterate a coordinate range and compute positions from coordinates.
  CoordinateValueIteration = 1u << 0,
  /// Iterate stored positions and read coordinates from them.
  PositionIteration = 1u << 1,
  /// Random access: position of a given coordinate in O(1) or better than a
  /// scan.
  Locate = 1u << 2,
  /// Insert coordinates in any order into preallocated storage.
  Insert = 1u << 3,
  /// Append coordinates in order.
  Append = 1u << 4,
};

inline LevelCapability operator|(LevelCapability a, LevelCapability b) {
  return static_cast<LevelCapability>(static_cast<unsigned>(a) |
                                      static_cast<unsigned>(b));
}
inline bool hasCapability(LevelCapability set, LevelCapability c) {
  return (static_cast<unsigned>(set) & static_cast<unsigned>(c)) != 0;
}

/// Abstract level format. Subclasses are stateless singletons owned by the
/// registry; LevelSpec refers to them by pointer, so a format's identity is
/// its address.
class LevelFormat {
public:
  virtual ~LevelFormat();

  /// Keyword used in `#sparse_array.format<[...]>`.
  virtual StringRef getName() const = 0;

  // Format properties (seed 002 §3.3). `ordered` and `unique` are per level
  // (LevelSpec); a format says whether it allows relaxing them.
  virtual bool isFull() const = 0;
  virtual bool isBranchless() const = 0;
  virtual bool isCompact() const = 0;
  virtual bool allowsNonUnique() const = 0;
  virtual bool allowsNonOrdered() const = 0;

  /// Capabilities of a level stored in this format.
  virtual LevelCapability getCapabilities() const = 0;

  // Buffers a level of this format stores (seed 002 §3.1). The storage
  // lowering, the C ABI and the runtime lay out an array as, per level in
  // storage order, its positions buffer then its coordinates buffer (each
  // only if the format has it), then the values.
  /// positions[p] .. positions[p + 1] are the children of parent position p.
  virtual bool hasPositionsBuffer() const = 0;
  /// coordinates[q] is the coordinate of position q.
  virtual bool hasCoordinatesBuffer() const = 0;

  /// Whether this level may be stored below `parent` (std::nullopt for the
  /// outermost level). On failure, returns the reason (without the level
  /// number), e.g. "must follow a compressed or non-unique level".
  virtual std::optional<std::string>
  checkParent(std::optional<LevelSpec> parent) const;

  /// Whether this level may hold the duplicates of a non-unique parent: each
  /// parent position then owns exactly one child position.
  virtual bool acceptsNonUniqueParent() const { return false; }
};

/// Registry of level formats, looked up by name when parsing. The built-in
/// formats (dense, compressed, singleton) are always present; plugins add
/// theirs with registerFormat before parsing IR that names them.
class LevelFormatRegistry {
public:
  /// Takes ownership; returns the registered instance, or nullptr when a
  /// format of that name exists already.
  static const LevelFormat *registerFormat(std::unique_ptr<LevelFormat> format);
  static const LevelFormat *lookup(StringRef name);
  /// Names of all registered formats in registration order.
  static std::vector<std::string> getNames();

  static const LevelFormat *dense();
  static const LevelFormat *compressed();
  static const LevelFormat *singleton();
};

} // namespace sparse_array
} // namespace mlir

#endif // SPARSEARRAY_DIALECT_LEVELFORMAT_H
