//===- Array.h - Runtime arrays, COO staging, packing -----------*- C++ -*-===//
//
// An Array is one array value as buffers: for each level the buffers its
// LevelKind declares (positions, coordinates), then the values, plus the
// dimension sizes. Buffers are malloc'd, so ownership can pass to compiled
// code (which frees with free()) or be borrowed from it.
//
// Coo is the staging form every reader and every conversion goes through:
// one 64-bit coordinate column per dimension and the values as bit patterns.
// Packing sorts it in the target's level order and appends level by level
// through LevelKind (seed 002 §3.2, §4: assembly from sorted coordinates).
//
// Stored entries equal to the fill value carry no information (the dense
// program cannot tell them from implicit entries), so readers and
// conversions never store them; dense levels store every entry anyway.
//
//===----------------------------------------------------------------------===//

#ifndef SPARSE_ARRAY_RUNTIME_ARRAY_H
#define SPARSE_ARRAY_RUNTIME_ARRAY_H

#include "Format.h"

#include <cstdio>
#include <memory>
#include <string>
#include <vector>

namespace sa_rt {

/// malloc that terminates with a clear error instead of returning null.
void *checkedMalloc(uint64_t count, uint64_t elemSize, const char *what);
void *checkedCalloc(uint64_t count, uint64_t elemSize, const char *what);
void *checkedRealloc(void *p, uint64_t count, uint64_t elemSize,
                     const char *what);

struct Buffer {
  void *data = nullptr;
  uint64_t len = 0;
  bool owned = false;
};

struct Array {
  FormatSpec spec;
  std::vector<uint64_t> dims;
  std::vector<Buffer> buffers;

  explicit Array(const FormatSpec &spec);
  ~Array();
  Array(const Array &) = delete;
  Array &operator=(const Array &) = delete;

  LevelBuffers level(unsigned l) const;
  /// The extent of level l: its dimension's size, or with blocks the
  /// number of blocks or the block size.
  uint64_t levelDim(unsigned l) const {
    return spec.levelExtent(l, dims[spec.order[l]]);
  }
  const Buffer &values() const { return buffers[spec.valuesBufferIndex()]; }
  uint64_t valueBits(uint64_t pos) const;
  /// Checks that borrowed buffers have the lengths the levels require;
  /// returns an empty string or the reason.
  std::string validate() const;
  /// After validate(): checks that ordered levels' coordinates increase
  /// within each segment (lexicographically over a compressed level and
  /// the singleton levels under it, COO) and that unique ones do not
  /// repeat; returns an empty string or the reason.
  std::string validateOrder() const;
};

struct Coo {
  Elem elem = Elem::F64;
  std::vector<uint64_t> dims;
  std::vector<uint64_t *> cols; // one per dimension
  void *vals = nullptr;
  uint64_t nnz = 0, cap = 0;

  Coo(Elem elem, unsigned rank);
  ~Coo();
  Coo(const Coo &) = delete;
  Coo &operator=(const Coo &) = delete;
  Coo(Coo &&other) noexcept;

  unsigned rank() const { return static_cast<unsigned>(dims.size()); }
  void reserve(uint64_t n);
  void push(const uint64_t *coords, uint64_t bits) {
    if (nnz == cap)
      reserve(cap < 1024 ? 1024 : cap + cap / 2);
    for (unsigned d = 0; d < cols.size(); ++d)
      cols[d][nnz] = coords[d];
    unsigned b = elemBytes(elem);
    std::memcpy(static_cast<char *>(vals) + nnz * b, &bits, b);
    ++nnz;
  }
  uint64_t valueBits(uint64_t i) const {
    uint64_t bits = 0;
    std::memcpy(&bits, static_cast<const char *>(vals) + i * elemBytes(elem),
                elemBytes(elem));
    return bits;
  }
  void shrinkToFit();
  /// Frees all storage (the Coo becomes empty).
  void release();
};

/// Why packing failed.
struct PackError {
  std::string message;
  /// For duplicates: the coordinates (0-based, dimension order).
  std::vector<uint64_t> duplicate;
  explicit operator bool() const { return !message.empty(); }
};

/// Packs `coo` (consumed) into `spec` with dims `coo.dims`. Entries equal to
/// the fill must have been dropped already. Fails on duplicate coordinates
/// and on sizes that do not fit the format's widths.
std::unique_ptr<Array> pack(Coo &&coo, const FormatSpec &spec,
                            PackError &error);

/// Level l's own buffers from the entries (LevelKind::prepare; `cols` the
/// sorted level columns, null when b.mostChildren is counted), handed to
/// `array`, and its position count (b.parents and b.dim set; `groups` as
/// numPositions takes it). False with the reason in `error`.
bool prepareLevel(Array &array, unsigned l, LevelBuffers &b,
                  const uint64_t *const *cols, uint64_t n, uint64_t groups,
                  uint64_t &positions, PackError &error);
/// Whether `coo`'s extents fit `spec` (coordinate width, block sizes).
bool checkExtents(const Coo &coo, const FormatSpec &spec, PackError &error);
/// Whether every level of `spec` can insert (seed 002 §3.4: dense, hashed)
/// so that entries are packed in the order they come, without a sort.
bool insertsInAnyOrder(const FormatSpec &spec);
/// pack() for such a format (InsertPack.cpp).
std::unique_ptr<Array> packByInsert(Coo &coo, const FormatSpec &spec,
                                    PackError &error);

/// The stored entries of `a` whose value is not `*dropValue` (same-value
/// comparison; all of them for null), in storage order, with coordinate
/// columns in dimension order.
Coo unpack(const Array &a, const uint64_t *dropValue);
/// convert to `spec` of an array whose format differs only in an unordered
/// innermost level below dense ones, which `spec` stores compressed and
/// ordered (same fill); null where that is not the case (SortLevel.cpp).
std::unique_ptr<Array> sortInnermostLevel(const Array &a,
                                          const FormatSpec &spec);

/// Converts to `spec` (any format, any fill: a different fill makes the
/// old implicit entries explicit, which may densify). Fatal on failure.
std::unique_ptr<Array> convert(const Array &a, const FormatSpec &spec);

/// numpy.reshape: every stored entry of `a` moved to the coordinates in
/// `dims` that its index linearized in C (row-major) or Fortran order has
/// (Reshape.cpp). Fatal when the sizes' products differ.
std::unique_ptr<Array> reshape(const Array &a, const FormatSpec &spec,
                               const std::vector<uint64_t> &dims, bool fortran);

/// Entries moved out of an array whose fill is `sourceFill` (a reshape, a
/// slice), packed into `spec`: implicit entries stay implicit, and a
/// `spec` with another fill makes them values (Reshape.cpp). Fatal, naming
/// `what`, when packing fails.
std::unique_ptr<Array> packMoved(Coo &&entries, const FormatSpec &spec,
                                 uint64_t sourceFill, const char *what);

/// A strided slice: result[i] = a[offsets + i * strides] for i within
/// `dims`, in `spec`'s format and fill (Slice.cpp). Fatal when the slice
/// does not fit `a`, a stride is below 1 or `dims` contradicts `spec`.
std::unique_ptr<Array> slice(const Array &a, const FormatSpec &spec,
                             const std::vector<uint64_t> &dims,
                             const std::vector<int64_t> &offsets,
                             const std::vector<int64_t> &strides);

/// numpy.concatenate along `axis` into `spec` with sizes `dims`
/// (Concat.cpp): parts added in order, each at the running offset, then
/// packed. Fatal when a part's other sizes or the parts' total along the
/// axis differ from `dims`.
class Concat {
public:
  Concat(const FormatSpec &spec, std::vector<uint64_t> dims, unsigned axis);
  void add(const Array &part);
  std::unique_ptr<Array> finish();

private:
  FormatSpec spec;
  std::vector<uint64_t> dims;
  unsigned axis;
  Coo out;
  uint64_t offset = 0;
  unsigned parts = 0;
};

/// Writes the text format (seed of every execution test): `# fill: v`,
/// `rank nnz`, dims, then 1-based coordinates and value per entry in
/// lexicographic order; entries equal to the fill are omitted.
void printText(const Array &a, std::FILE *out);
/// Matrix Market coordinate output (rank 2, fill zero only). Fatal when the
/// array cannot be represented.
void printMatrixMarket(const Array &a, std::FILE *out, const char *path);

/// Reads a file into `spec`. `fileFormat` is "auto", "mtx", "tns" (FROSTT)
/// or "text" (the runtime's own format). Fatal with file, line and reason
/// on any malformed input.
std::unique_ptr<Array> readFile(const char *path, const FormatSpec &spec,
                                const char *fileFormat);

} // namespace sa_rt

#endif // SPARSE_ARRAY_RUNTIME_ARRAY_H
