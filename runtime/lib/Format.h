//===- Format.h - Level kinds and array format specs ------------*- C++ -*-===//
//
// The runtime half of the storage model (seed 002 §3). A LevelKind knows the
// buffers one level stores and how to append to and iterate over them; all
// packing, unpacking and conversion code goes through this interface, never
// through a format's name. The compiler's LevelFormat plugins name their
// runtime counterpart by the same keyword.
//
// A format spec is the text the compiler passes for an array type, e.g.
//   elem=f64;dims=?,4;levels=dense,compressed(nonunique);order=1,0;
//   pos=64;crd=32;fill=bits:0x7ff0000000000000
// Keys may come in any order; `levels` and `elem` are required; `dims`
// defaults to all dynamic, `order` to identity, widths to 64, `fill` to 0.
// `fill` is either `bits:0x...` (exact bit pattern) or a literal of the
// element type (`inf`, `-0.0`, `255`).
//
//===----------------------------------------------------------------------===//

#ifndef SPARSE_ARRAY_RUNTIME_FORMAT_H
#define SPARSE_ARRAY_RUNTIME_FORMAT_H

#include "Scalar.h"
#include "SparseArrayLevelTraits.h"

#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

namespace sa_rt {

/// Typed access to one level's position and coordinate buffers, whose
/// widths (32 or 64 bits) come from the format.
struct LevelBuffers {
  void *pos = nullptr;
  uint64_t posLen = 0;
  void *crd = nullptr;
  uint64_t crdLen = 0;
  unsigned posWidth = 64;
  unsigned crdWidth = 64;

  uint64_t getPos(uint64_t i) const {
    return posWidth == 32 ? static_cast<const uint32_t *>(pos)[i]
                          : static_cast<const uint64_t *>(pos)[i];
  }
  void setPos(uint64_t i, uint64_t v) {
    if (posWidth == 32)
      static_cast<uint32_t *>(pos)[i] = static_cast<uint32_t>(v);
    else
      static_cast<uint64_t *>(pos)[i] = v;
  }
  uint64_t getCrd(uint64_t i) const {
    return crdWidth == 32 ? static_cast<const uint32_t *>(crd)[i]
                          : static_cast<const uint64_t *>(crd)[i];
  }
  /// No-op while the builder reuses an existing coordinate column (crd is
  /// then filled already).
  void setCrd(uint64_t i, uint64_t v) {
    if (!crdWritable)
      return;
    if (crdWidth == 32)
      static_cast<uint32_t *>(crd)[i] = static_cast<uint32_t>(v);
    else
      static_cast<uint64_t *>(crd)[i] = v;
  }
  /// Entry i of declared buffer `s`, whose entries are `width` bits.
  uint64_t getSlot(unsigned s, uint64_t i, unsigned width) const {
    return width == 32 ? static_cast<const uint32_t *>(slot[s])[i]
                       : static_cast<const uint64_t *>(slot[s])[i];
  }
  void setSlot(unsigned s, uint64_t i, uint64_t v, unsigned width) {
    if (width == 32)
      static_cast<uint32_t *>(slot[s])[i] = static_cast<uint32_t>(v);
    else
      static_cast<uint64_t *>(slot[s])[i] = v;
  }
  /// The coordinate marking a free slot (padding, an empty hash bucket):
  /// all ones at the coordinate width.
  uint64_t freeSlot() const { return crdWidth == 32 ? UINT32_MAX : UINT64_MAX; }
  bool crdWritable = true;
  /// Build state: positions handed out so far.
  uint64_t next = 0;
  /// Every buffer the level's kind declares, by slot (pos and crd above
  /// alias the positions and coordinates roles).
  void *slot[sparse_array_levels::kMaxLevelBuffers] = {};
  uint64_t slotLen[sparse_array_levels::kMaxLevelBuffers] = {};
  /// The extent of the dimension the parent level stores (0 at the
  /// outermost level): a level whose coordinates derive from its parent's
  /// reads it.
  uint64_t parentDim = 0;
  /// The extent of the dimension this level stores.
  uint64_t dim = 0;
  /// The most entries one parent position has, when the packer counted
  /// them (an insertion in any order); kUncounted: count them from the
  /// sorted columns (mostChildren).
  static constexpr uint64_t kUncounted = UINT64_MAX;
  uint64_t mostChildren = kUncounted;
  /// The parent level's position count (1 at the outermost level), for
  /// LevelKind::prepare and validateBuffers: a level with buffers sized
  /// per parent position (a loose level's bounds) reads it.
  uint64_t parents = 0;
  /// The level's format parameters (LevelSpec::params).
  uint64_t params[sparse_array_levels::kMaxLevelParams] = {};
  void setParams(const uint64_t (&from)[sparse_array_levels::kMaxLevelParams]) {
    std::memcpy(params, from, sizeof(params));
  }
};

/// The positions below one parent position and how to get their
/// coordinates: as `position - coordBase` (coordinate value iteration),
/// from the coordinate buffer (position iteration), or computed by the
/// kind (LevelKind::coordinateAt), seed 002 §3.2.
struct ChildRange {
  enum class Coords { FromPosition, FromBuffer, FromKind };
  uint64_t lo = 0, hi = 0;
  Coords coords = Coords::FromPosition;
  uint64_t coordBase = 0;
  /// Slots in [lo, hi) whose coordinate (from the buffer) is all-ones are
  /// empty, not entries (a hashed level's free slots).
  bool holes = false;
};

struct LevelSpec;

/// The runtime half of a level format: its traits (shared with the
/// compiler's LevelFormat, SparseArrayLevelTraits.h) and how to append to
/// and iterate its buffers.
class LevelKind {
public:
  explicit LevelKind(const sparse_array_levels::LevelTraits &traits)
      : traits(traits) {}
  virtual ~LevelKind();
  const sparse_array_levels::LevelTraits &getTraits() const { return traits; }
  /// Keyword shared with the compiler's LevelFormat.
  const char *name() const { return traits.name; }
  unsigned numBuffers() const { return traits.numBuffers; }
  bool hasPositions() const { return traits.hasPositions(); }
  bool hasCoordinates() const { return traits.hasCoordinates(); }
  bool allowsNonUnique() const { return traits.allowsNonUnique; }
  bool allowsNonOrdered() const { return traits.allowsNonOrdered; }

  /// Number of positions of this level, given the parent level's position
  /// count, the level's dimension size and the number of coordinate groups
  /// stored (distinct (parent, coordinate) pairs; one per entry below a
  /// non-unique level). Returns false on 64-bit overflow.
  virtual bool numPositions(const LevelBuffers &b, uint64_t parentPositions,
                            uint64_t dimSize, uint64_t groups,
                            uint64_t &out) const = 0;
  /// Why this level may not sit below `parent` (null at the outermost
  /// level), or null when it may.
  virtual const char *checkParent(const LevelSpec *parent) const {
    (void)parent;
    return nullptr;
  }
  /// Why a level with `spec`'s parameters cannot have extent `extent`
  /// (null: dynamic, known only when an array is made), or "" when it can.
  virtual std::string checkLevel(const LevelSpec &spec,
                                 const uint64_t *extent) const {
    (void)spec, (void)extent;
    return "";
  }
  /// Before packing: builds the buffers the level declares beyond positions
  /// and coordinates (into b.slot, malloc'ed; the array takes them over)
  /// and any build state, from the `n` entries' coordinates, sorted, one
  /// column per level (`cols[level]` is this level's). False with the
  /// reason in `error` when the entries do not fit the level.
  virtual bool prepare(LevelBuffers &b, const uint64_t *const *cols,
                       unsigned level, uint64_t n, std::string &error) const {
    (void)b, (void)cols, (void)level, (void)n, (void)error;
    return true;
  }
  /// Checks of the declared buffers beyond positions and coordinates, for
  /// Array::validate ("" when they are well formed).
  virtual std::string validateBuffers(const LevelBuffers &b,
                                      uint64_t dimSize) const {
    (void)b, (void)dimSize;
    return "";
  }
  /// The coordinate at position `pos`, for ChildRange::Coords::FromKind.
  virtual uint64_t coordinateAt(const LevelBuffers &b, uint64_t pos) const {
    (void)b;
    return pos;
  }
  /// Buffer lengths for `positions` positions under `parentPositions`.
  virtual uint64_t posLength(uint64_t parentPositions) const {
    return hasPositions() ? parentPositions + 1 : 0;
  }
  virtual uint64_t crdLength(uint64_t positions) const {
    return hasCoordinates() ? positions : 0;
  }

  /// Appends coordinate `coord` below `parentPos` (parents are visited in
  /// increasing order, coordinates in increasing order within a parent)
  /// and returns the child's position (seed 002 §3.2 append/insert).
  virtual uint64_t append(LevelBuffers &b, uint64_t parentPos, uint64_t coord,
                          uint64_t dimSize) const = 0;
  /// Called once after all appends (e.g. prefix sums of counts).
  virtual void finish(LevelBuffers &b, uint64_t parentPositions) const {}
  /// Before inserting in any order (a kind with the Insert capability;
  /// seed 002 Table 3's insert_init): readies every position's storage.
  /// append then takes parents and coordinates in any order and returns
  /// the position already holding a coordinate inserted before.
  virtual void insertInit(LevelBuffers &b, uint64_t parentPositions) const {
    (void)b, (void)parentPositions;
  }

  /// Iteration below `parentPos`.
  virtual ChildRange children(const LevelBuffers &b, uint64_t parentPos,
                              uint64_t dimSize) const = 0;

private:
  const sparse_array_levels::LevelTraits &traits;
};

/// The most entries of `n` (sorted, one coordinate column per level) that
/// share their coordinates at the levels above `level`: the children one
/// parent position of `level` must hold (b.mostChildren when counted).
uint64_t mostChildren(const LevelBuffers &b, const uint64_t *const *cols,
                      unsigned level, uint64_t n);

/// Registry of level kinds by keyword; dense, compressed and singleton are
/// built in.
const LevelKind *lookupLevelKind(const std::string &name);
void registerLevelKind(const LevelKind *kind);
/// Every registered kind, in registration order.
std::vector<const LevelKind *> getLevelKinds();

/// The level kinds in runtime/lib/levels, registered with the built-ins.
const LevelKind *diagonalLevelKind();
const LevelKind *ellpackLevelKind();
const LevelKind *looseCompressedLevelKind();
const LevelKind *hashedLevelKind();
const LevelKind *structuredLevelKind();

struct LevelSpec {
  const LevelKind *kind = nullptr;
  bool ordered = true;
  bool unique = true;
  /// The kind's integer parameters (`structured[n,m]`), the rest 0.
  uint64_t params[sparse_array_levels::kMaxLevelParams] = {};
};

/// An array type as the runtime sees it.
struct FormatSpec {
  Elem elem = Elem::F64;
  /// Per dimension; -1 for dynamic (`?`).
  std::vector<int64_t> dims;
  std::vector<LevelSpec> levels;
  /// order[l] = dimension stored by level l.
  std::vector<unsigned> order;
  /// Block size per dimension, empty when none is blocked. A dimension of
  /// block size b > 1 is stored at two levels: the first naming it in
  /// `order` holds d / b, the second d mod b (seed 002's BCSR).
  std::vector<uint64_t> blocks;
  unsigned posWidth = 64, crdWidth = 64;
  uint64_t fill = 0;

  unsigned rank() const { return static_cast<unsigned>(dims.size()); }
  unsigned numLevels() const { return static_cast<unsigned>(levels.size()); }
  bool blocked() const { return !blocks.empty(); }
  uint64_t block(unsigned d) const { return blocks.empty() ? 1 : blocks[d]; }
  /// What level l stores of its dimension order[l].
  enum class Part { Whole, Block, InBlock };
  Part levelPart(unsigned l) const;
  /// Level l's extent and coordinate, from its dimension's.
  uint64_t levelExtent(unsigned l, uint64_t dimSize) const;
  uint64_t levelCoord(unsigned l, uint64_t dimCoord) const;
  /// Adds level l's share of its dimension's coordinate (c, c * b or c) to
  /// `dimCoord` (which starts at 0).
  void addLevelCoord(unsigned l, uint64_t c, uint64_t &dimCoord) const;
  /// True when every level stores all coordinates (no buffers but values).
  bool allDense() const;
  /// The level storing dimension `d`.
  unsigned levelOfDim(unsigned d) const;
  /// Number of buffers: per level the buffers its kind declares, then the
  /// values. Index of each in that order (-1 when the level has none with
  /// that role; a null role: where the level's buffers start).
  unsigned numBuffers() const;
  int levelBufferIndex(unsigned level, const char *role) const;
  int posBufferIndex(unsigned level) const;
  int crdBufferIndex(unsigned level) const;
  unsigned valuesBufferIndex() const { return numBuffers() - 1; }
  /// Element bytes of buffer k.
  unsigned bufferElemBytes(unsigned k) const;

  /// Parses a spec; on error returns false with the reason in `error`.
  static bool parse(const std::string &text, FormatSpec &out,
                    std::string &error);
  /// The spec text (round-trips through parse).
  std::string str() const;
};

} // namespace sa_rt

#endif // SPARSE_ARRAY_RUNTIME_FORMAT_H
