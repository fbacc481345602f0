//===- Readers.cpp - Matrix Market, FROSTT and text readers ---------------===//
//
// Every reader streams the file in fixed-size chunks (memory stays
// proportional to the array, not the file), validates every line and
// reports the first problem as "FILE:LINE: reason" with exit code 2. No
// partial array is ever returned.
//
// Policies (docs/storage.md):
//  - entries whose value equals the array's fill are not stored;
//  - a coordinate given twice is an error naming both lines;
//  - symmetric and skew-symmetric files are expanded (the mirrored entry of
//    an off-diagonal (i, j) is (j, i), negated for skew-symmetric);
//  - the element type decides how values parse: a `real` file cannot be
//    read into an integer array; integers must fit the (signless) width.
//
//===----------------------------------------------------------------------===//

#include "Array.h"
#include "Error.h"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstring>
#include <string>
#include <string_view>
#include <sys/stat.h>

namespace sa_rt {
namespace {

class LineReader {
public:
  explicit LineReader(const char *path) : path(path) {
    file = std::fopen(path, "rb");
    if (!file)
      fatal("%s: cannot open: %s", path, std::strerror(errno));
    buf.resize(1 << 16); // grows for longer lines
    struct stat st;
    if (fstat(fileno(file), &st) == 0 && S_ISREG(st.st_mode))
      fileSize = static_cast<uint64_t>(st.st_size);
  }
  /// Bytes of the file not returned as lines yet (UINT64_MAX when the
  /// size is unknown: a pipe).
  uint64_t bytesLeft() const {
    if (fileSize == UINT64_MAX)
      return UINT64_MAX;
    uint64_t consumed = totalRead - (end - begin);
    return fileSize > consumed ? fileSize - consumed : 0;
  }
  ~LineReader() { std::fclose(file); }

  /// The next line without its terminator; false at the end of the file.
  bool next(std::string_view &line) {
    while (true) {
      char *base = buf.data();
      char *nl = static_cast<char *>(
          std::memchr(base + begin, '\n', end - begin));
      if (nl) {
        line = std::string_view(base + begin, nl - (base + begin));
        begin = nl + 1 - base;
        ++lineNo;
        return true;
      }
      if (eof) {
        if (begin == end)
          return false;
        line = std::string_view(base + begin, end - begin);
        begin = end;
        ++lineNo;
        return true;
      }
      if (begin > 0) {
        std::memmove(base, base + begin, end - begin);
        end -= begin;
        begin = 0;
      }
      if (end == buf.size())
        buf.resize(buf.size() * 2); // a line longer than the buffer
      size_t n = std::fread(buf.data() + end, 1, buf.size() - end, file);
      if (n == 0) {
        if (std::ferror(file))
          fatal("%s:%llu: read error: %s", path,
                static_cast<unsigned long long>(lineNo + 1),
                std::strerror(errno));
        eof = true;
      }
      end += n;
      totalRead += n;
    }
  }
  uint64_t line() const { return lineNo; }
  const char *path;

private:
  std::FILE *file;
  std::vector<char> buf;
  size_t begin = 0, end = 0;
  bool eof = false;
  uint64_t lineNo = 0;
  uint64_t fileSize = UINT64_MAX, totalRead = 0;
};

inline bool isSpace(char c) {
  return c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v';
}

/// Splits `line` into at most `max` tokens; returns the number found, or
/// max + 1 when there are more.
unsigned tokenize(std::string_view line, std::string_view *tok,
                  unsigned max) {
  unsigned n = 0;
  size_t i = 0, size = line.size();
  while (true) {
    while (i < size && isSpace(line[i]))
      ++i;
    if (i == size)
      return n;
    if (n == max)
      return max + 1;
    size_t start = i;
    while (i < size && !isSpace(line[i]))
      ++i;
    tok[n++] = line.substr(start, i - start);
  }
}

bool isBlank(std::string_view line) {
  for (char c : line)
    if (!isSpace(c))
      return false;
  return true;
}

std::string lower(std::string_view s) {
  std::string r(s);
  for (char &c : r)
    c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return r;
}

std::string show(std::string_view t) {
  std::string s(t.substr(0, 40));
  if (t.size() > 40)
    s += "...";
  return s;
}

/// Where entries go: the array being read, or a search for the lines of a
/// duplicate coordinate.
struct Sink {
  virtual ~Sink() = default;
  virtual void reserve(uint64_t) {}
  virtual void entry(const uint64_t *coords, uint64_t bits, uint64_t line) = 0;
};

struct CollectSink final : Sink {
  Coo &coo;
  Elem elem;
  uint64_t fill;
  CollectSink(Coo &coo, Elem elem, uint64_t fill)
      : coo(coo), elem(elem), fill(fill) {}
  void reserve(uint64_t n) override { coo.reserve(n); }
  void entry(const uint64_t *coords, uint64_t bits, uint64_t) override {
    if (!sameValue(elem, bits, fill))
      coo.push(coords, bits);
  }
};

struct FindSink final : Sink {
  std::vector<uint64_t> target;
  std::vector<uint64_t> lines;
  void entry(const uint64_t *coords, uint64_t, uint64_t line) override {
    for (unsigned d = 0; d < target.size(); ++d)
      if (coords[d] != target[d])
        return;
    lines.push_back(line);
  }
};

struct FileInfo {
  std::vector<uint64_t> dims;
  bool hasFill = false;
  uint64_t fill = 0;
};

class Parser {
public:
  Parser(const char *path, const FormatSpec &spec, Sink &sink)
      : in(path), path(path), spec(spec), sink(sink) {}

  /// Reserves room for `declared` entries, but never for more than the
  /// rest of the file can hold (an entry takes at least `minBytes` bytes):
  /// a header that declares 10^11 entries for a one-line file is read by
  /// growing with what is there, and reported as truncated.
  void reservePlausible(uint64_t declared, uint64_t minBytes,
                        uint64_t mirrored = 1) {
    uint64_t left = in.bytesLeft();
    uint64_t n = std::min(declared, left == UINT64_MAX ? uint64_t(1) << 20
                                                       : left / minBytes + 1);
    sink.reserve(n < UINT64_MAX / mirrored ? n * mirrored : n);
  }

  [[noreturn]] void fail(const char *fmt, const std::string &a = "",
                         const std::string &b = "") {
    fatal("%s:%llu: %s", path, static_cast<unsigned long long>(in.line()),
          format(fmt, a, b).c_str());
  }

  static std::string format(const char *fmt, const std::string &a,
                            const std::string &b) {
    // Minimal "%1" / "%2" substitution so messages stay readable.
    std::string out;
    for (const char *p = fmt; *p; ++p) {
      if (p[0] == '%' && (p[1] == '1' || p[1] == '2')) {
        out += p[1] == '1' ? a : b;
        ++p;
      } else {
        out += *p;
      }
    }
    return out;
  }

  uint64_t value(std::string_view token) {
    if (integerField) {
      // The header's field must agree with the data, whatever the
      // element type (a float array may read an integer file).
      size_t i = !token.empty() && (token[0] == '-' || token[0] == '+');
      bool digits = i < token.size();
      for (; i < token.size() && digits; ++i)
        digits = token[i] >= '0' && token[i] <= '9';
      if (!digits)
        fail("value '%1' is not an integer, but the header declares the "
             "'integer' field",
             show(token));
    }
    uint64_t bits;
    ParseStatus s = parseValue(spec.elem, token, bits);
    if (s != ParseStatus::Ok)
      fail("value '%1' is %2", show(token),
           std::string(parseStatusText(s)) + " for element type " +
               elemName(spec.elem));
    return bits;
  }

  uint64_t coord(std::string_view token, uint64_t dim, unsigned d) {
    uint64_t c;
    if (!parseDecimal(token, c))
      fail("coordinate '%1' is not a non-negative integer", show(token));
    if (c == 0 || c > dim)
      fail("coordinate %1 of dimension %2 is out of range",
           std::to_string(c),
           std::to_string(d + 1) + " (1.." + std::to_string(dim) + ")");
    return c - 1;
  }

  void checkRank(unsigned rank, const char *what) {
    if (rank != spec.rank())
      fail("the file holds %1 but the array has rank %2", what,
           std::to_string(spec.rank()));
  }

  void checkDims(const std::vector<uint64_t> &dims) {
    for (unsigned d = 0; d < dims.size(); ++d)
      if (spec.dims[d] >= 0 && static_cast<uint64_t>(spec.dims[d]) != dims[d])
        fail("dimension %1 has size %2", std::to_string(d + 1),
             std::to_string(dims[d]) + " but the array type requires " +
                 std::to_string(spec.dims[d]));
  }

  /// Next line that is neither blank nor a comment (starting with
  /// `comment`); false at the end of the file.
  bool nextData(std::string_view &line, char comment) {
    while (in.next(line)) {
      size_t i = 0;
      while (i < line.size() && isSpace(line[i]))
        ++i;
      if (i == line.size() || line[i] == comment)
        continue;
      return true;
    }
    return false;
  }

  void expectEnd(char comment, uint64_t declared) {
    std::string_view line;
    if (nextData(line, comment))
      fail("more entries than the %1 declared", std::to_string(declared));
  }

  [[noreturn]] void truncated(uint64_t got, uint64_t declared) {
    fatal("%s:%llu: the file ends after %llu of the %llu entries it declares",
          path, static_cast<unsigned long long>(in.line()),
          static_cast<unsigned long long>(got),
          static_cast<unsigned long long>(declared));
  }

  FileInfo matrixMarket();
  FileInfo frostt();
  FileInfo text();

  LineReader in;
  const char *path;
  const FormatSpec &spec;
  bool integerField = false;
  Sink &sink;
};

FileInfo Parser::matrixMarket() {
  std::string_view line;
  if (!in.next(line))
    fatal("%s: empty file (expected a %%%%MatrixMarket banner)", path);
  std::string_view tok[6];
  unsigned n = tokenize(line, tok, 5);
  if (n == 0 || tok[0] != "%%MatrixMarket")
    fail("expected the banner '%%MatrixMarket matrix <format> <field> "
         "<symmetry>'");
  if (n != 5)
    fail("the banner needs 4 words after %%MatrixMarket (object, format, "
         "field, symmetry)");
  std::string object = lower(tok[1]), format = lower(tok[2]),
              field = lower(tok[3]), symmetry = lower(tok[4]);
  if (object != "matrix")
    fail("unknown object '%1' (only 'matrix' is supported)", object);
  bool coordinate = format == "coordinate";
  if (!coordinate && format != "array")
    fail("unknown format '%1' (expected 'coordinate' or 'array')", format);
  bool pattern = field == "pattern";
  if (field == "complex")
    fail("complex values are not supported");
  if (field != "real" && field != "double" && field != "integer" && !pattern)
    fail("unknown field '%1' (expected real, integer or pattern)", field);
  if (symmetry == "hermitian")
    fail("hermitian symmetry is not supported (it implies complex values)");
  bool symmetric = symmetry == "symmetric";
  bool skew = symmetry == "skew-symmetric";
  if (!symmetric && !skew && symmetry != "general")
    fail("unknown symmetry '%1' (expected general, symmetric or "
         "skew-symmetric)",
         symmetry);
  if (pattern && !coordinate)
    fail("'array' files cannot have the 'pattern' field");
  if (pattern && skew)
    fail("'pattern' files cannot be skew-symmetric");
  if ((field == "real" || field == "double") && !isFloatElem(spec.elem))
    fail("the file holds real values but the array's element type is %1",
         elemName(spec.elem));
  checkRank(2, "a matrix");
  integerField = field == "integer";

  // Size line.
  if (!nextData(line, '%'))
    fatal("%s:%llu: the file ends before its size line", path,
          static_cast<unsigned long long>(in.line()));
  std::string_view size[4];
  unsigned expect = coordinate ? 3 : 2;
  if (tokenize(line, size, 3) != expect)
    fail(coordinate ? "the size line must be 'rows columns entries'"
                    : "the size line must be 'rows columns'");
  uint64_t rows, cols, declared = 0;
  if (!parseDecimal(size[0], rows) || !parseDecimal(size[1], cols) ||
      (coordinate && !parseDecimal(size[2], declared)))
    fail("the size line must hold non-negative integers");
  if (rows > INT64_MAX || cols > INT64_MAX)
    fail("dimension sizes must be below 2^63");
  if ((symmetric || skew) && rows != cols)
    fail("a %1 matrix must be square", symmetry);
  FileInfo info;
  info.dims = {rows, cols};
  checkDims(info.dims);

  uint64_t one = oneBits(spec.elem);
  uint64_t c[2];
  auto emit = [&](uint64_t i, uint64_t j, uint64_t bits) {
    c[0] = i;
    c[1] = j;
    sink.entry(c, bits, in.line());
    if (i != j && (symmetric || skew)) {
      c[0] = j;
      c[1] = i;
      // Skew-symmetric: the negated value, negated in the file's field:
      // an integer 0 mirrors to 0, not to the float -0.0.
      bool integerZero = integerField && sameValue(spec.elem, bits, 0);
      sink.entry(c, skew && !integerZero ? negateBits(spec.elem, bits) : bits,
                 in.line());
    }
  };

  if (coordinate) {
    // Mirrored entries at most double the count; reserving that much costs
    // only address space (large blocks are mmap'ed and touched as filled).
    // ("i j\n" or "i j v\n": at least 4 or 6 bytes per entry.)
    reservePlausible(declared, pattern ? 4 : 6, (symmetric || skew) ? 2 : 1);
    unsigned fields = pattern ? 2 : 3;
    for (uint64_t k = 0; k < declared; ++k) {
      if (!nextData(line, '%'))
        truncated(k, declared);
      std::string_view t[4];
      unsigned got = tokenize(line, t, fields);
      if (got != fields)
        fail("expected %1 fields per entry, found %2", std::to_string(fields),
             got > fields ? "more" : std::to_string(got));
      uint64_t i = coord(t[0], rows, 0);
      uint64_t j = coord(t[1], cols, 1);
      uint64_t bits = pattern ? one : value(t[2]);
      if (skew && i == j && !sameValue(spec.elem, bits, 0) &&
          !sameValue(spec.elem, bits, negateBits(spec.elem, 0)))
        fail("a skew-symmetric matrix has a zero diagonal; entry (%1) is "
             "not zero",
             std::to_string(i + 1) + ", " + std::to_string(j + 1));
      emit(i, j, bits);
    }
    expectEnd('%', declared);
    return info;
  }

  // Array format: column-major; symmetric files list the lower triangle,
  // skew-symmetric ones the strictly lower triangle.
  uint64_t total = 0;
  if (symmetric || skew) {
    uint64_t n = rows;
    uint64_t diag = symmetric ? n : 0;
    // n(n-1)/2 + diag without overflow for n < 2^63.
    total = (n % 2 == 0 ? (n / 2) * (n ? n - 1 : 0) : n * ((n - 1) / 2)) + diag;
  } else if (__builtin_mul_overflow(rows, cols, &total)) {
    fail("rows x columns overflows 64 bits");
  }
  reservePlausible(total, 2); // "v\n"
  uint64_t i = symmetric ? 0 : skew ? 1 : 0, j = 0;
  for (uint64_t k = 0; k < total; ++k) {
    if (!nextData(line, '%'))
      truncated(k, total);
    std::string_view t[2];
    unsigned got = tokenize(line, t, 1);
    if (got != 1)
      fail("expected one value per line in an 'array' file");
    emit(i, j, value(t[0]));
    if (++i == rows) {
      ++j;
      i = symmetric ? j : skew ? j + 1 : 0;
    }
  }
  expectEnd('%', total);
  return info;
}

FileInfo Parser::frostt() {
  std::string_view line;
  unsigned rank = spec.rank();
  std::vector<std::string_view> t(rank + 2);
  FileInfo info;
  info.dims.assign(rank, 0);
  std::vector<uint64_t> c(rank), limit(rank, UINT64_MAX);
  for (unsigned d = 0; d < rank; ++d)
    if (spec.dims[d] >= 0)
      limit[d] = static_cast<uint64_t>(spec.dims[d]);
  bool any = false;
  while (nextData(line, '#')) {
    if (!any) {
      std::string_view all[65];
      unsigned fields = tokenize(line, all, 64);
      if (fields >= 2 && fields <= 64 && fields != rank + 1)
        fail("entries have %1 coordinates but the array has rank %2",
             std::to_string(fields - 1), std::to_string(rank));
    }
    unsigned got = tokenize(line, t.data(), rank + 1);
    if (got != rank + 1)
      fail("expected %1 fields per entry (coordinates and value)",
           std::to_string(rank + 1));
    any = true;
    for (unsigned d = 0; d < rank; ++d) {
      c[d] = coord(t[d], limit[d], d);
      if (c[d] + 1 > info.dims[d])
        info.dims[d] = c[d] + 1;
    }
    sink.entry(c.data(), value(t[rank]), in.line());
  }
  for (unsigned d = 0; d < rank; ++d)
    if (spec.dims[d] >= 0)
      info.dims[d] = static_cast<uint64_t>(spec.dims[d]);
  if (rank == 0)
    fatal("%s: FROSTT files hold arrays of rank >= 1", path);
  return info;
}

FileInfo Parser::text() {
  std::string_view line;
  FileInfo info;
  // Comments; `# fill: v` gives the value of the entries not listed.
  while (true) {
    if (!in.next(line))
      fatal("%s:%llu: the file ends before its 'rank entries' line", path,
            static_cast<unsigned long long>(in.line()));
    if (isBlank(line))
      continue;
    size_t i = line.find_first_not_of(" \t");
    if (line[i] != '#')
      break;
    std::string_view body = line.substr(i + 1);
    size_t k = body.find_first_not_of(" \t");
    if (k != std::string_view::npos && body.substr(k, 5) == "fill:") {
      std::string_view t[2];
      if (tokenize(body.substr(k + 5), t, 1) != 1)
        fail("expected '# fill: <value>'");
      info.hasFill = true;
      info.fill = value(t[0]);
    }
  }
  std::string_view h[3];
  uint64_t rank, declared;
  if (tokenize(line, h, 2) != 2 || !parseDecimal(h[0], rank) ||
      !parseDecimal(h[1], declared))
    fail("expected the header line '<rank> <number of entries>'");
  if (rank > 64)
    fail("rank %1 is too large", std::to_string(rank));
  checkRank(static_cast<unsigned>(rank),
            ("an array of rank " + std::to_string(rank)).c_str());
  std::vector<std::string_view> t(rank + 2);
  // (rank 0: the dimension line is empty, and blank lines are skipped)
  if (rank > 0 && !nextData(line, '#'))
    fatal("%s:%llu: the file ends before its dimension sizes", path,
          static_cast<unsigned long long>(in.line()));
  if (rank > 0 &&
      tokenize(line, t.data(), static_cast<unsigned>(rank)) != rank)
    fail("expected %1 dimension sizes", std::to_string(rank));
  info.dims.resize(rank);
  for (unsigned d = 0; d < rank; ++d)
    if (!parseDecimal(t[d], info.dims[d]) || info.dims[d] > INT64_MAX)
      fail("dimension size '%1' is not an integer below 2^63", show(t[d]));
  checkDims(info.dims);
  if (info.hasFill && !sameValue(spec.elem, info.fill, spec.fill)) {
    char a[48], b[48];
    formatValue(spec.elem, info.fill, a);
    formatValue(spec.elem, spec.fill, b);
    fatal("%s: the file's fill value is %s but the array's is %s (read it "
          "with fill %s, then change the fill)",
          path, a, b, a);
  }
  reservePlausible(declared, 2 * (rank + 1)); // rank coordinates and a value
  std::vector<uint64_t> c(rank);
  for (uint64_t k = 0; k < declared; ++k) {
    if (!nextData(line, '#'))
      truncated(k, declared);
    unsigned got = tokenize(line, t.data(), static_cast<unsigned>(rank + 1));
    if (got != rank + 1)
      fail("expected %1 fields per entry (coordinates and value)",
           std::to_string(rank + 1));
    for (unsigned d = 0; d < rank; ++d)
      c[d] = coord(t[d], info.dims[d], d);
    sink.entry(c.data(), value(t[rank]), in.line());
  }
  expectEnd('#', declared);
  return info;
}

/// "mtx", "tns" or "text" from the file's first lines.
std::string detectFormat(const char *path) {
  LineReader in(path);
  std::string_view line;
  std::vector<std::vector<std::string_view>> first;
  std::vector<std::string> keep; // line storage (views die with refills)
  keep.reserve(3);                // never reallocated: views stay valid
  bool sawLine = false;
  while (first.size() < 3 && in.next(line)) {
    if (isBlank(line))
      continue;
    if (!sawLine && line.substr(0, 14) == "%%MatrixMarket")
      return "mtx";
    sawLine = true;
    size_t i = line.find_first_not_of(" \t");
    if (line[i] == '#') {
      std::string_view body = line.substr(i + 1);
      size_t k = body.find_first_not_of(" \t");
      if (k != std::string_view::npos && body.substr(k, 5) == "fill:")
        return "text";
      continue;
    }
    keep.emplace_back(line);
    first.emplace_back();
    std::string_view stored = keep.back();
    std::string_view tok[66];
    unsigned n = tokenize(stored, tok, 65);
    first.back().assign(tok, tok + std::min(n, 65u));
  }
  if (!sawLine) {
    if (std::string_view(path).size() >= 4 &&
        std::string_view(path).substr(std::string_view(path).size() - 4) ==
            ".mtx")
      return "mtx";
    fatal("%s: empty file", path);
  }
  // Text format: "rank nnz", then `rank` sizes, then entries of rank + 1.
  uint64_t rank, nnz, ignored;
  if (first.size() >= 2 && first[0].size() == 2 &&
      parseDecimal(first[0][0], rank) && parseDecimal(first[0][1], nnz) &&
      first[1].size() == rank) {
    bool sizes = true;
    for (std::string_view s : first[1])
      sizes = sizes && parseDecimal(s, ignored);
    if (sizes && (nnz == 0 ? first.size() == 2
                           : first.size() == 3 && first[2].size() == rank + 1))
      return "text";
  }
  std::string_view p(path);
  if (p.size() >= 4 && p.substr(p.size() - 4) == ".mtx")
    return "mtx";
  return "tns";
}

FileInfo parseAs(const std::string &format, const char *path,
                 const FormatSpec &spec, Sink &sink) {
  Parser parser(path, spec, sink);
  if (format == "mtx")
    return parser.matrixMarket();
  if (format == "tns")
    return parser.frostt();
  return parser.text();
}

} // namespace

std::unique_ptr<Array> readFile(const char *path, const FormatSpec &spec,
                                const char *fileFormat) {
  std::string format = fileFormat ? fileFormat : "auto";
  if (format == "auto")
    format = detectFormat(path);
  if (format != "mtx" && format != "tns" && format != "text")
    fatal("%s: unknown file format '%s' (expected auto, mtx, tns or text)",
          path, format.c_str());
  Coo coo(spec.elem, spec.rank());
  CollectSink sink(coo, spec.elem, spec.fill);
  FileInfo info = parseAs(format, path, spec, sink);
  coo.dims = info.dims;
  coo.shrinkToFit();
  PackError error;
  std::unique_ptr<Array> array = pack(std::move(coo), spec, error);
  if (array)
    return array;
  if (error.duplicate.empty())
    fatal("%s: %s", path, error.message.c_str());
  // Find the lines that gave the duplicate (only on this error path).
  FindSink find;
  find.target = error.duplicate;
  parseAs(format, path, spec, find);
  std::string coords;
  for (uint64_t c : error.duplicate)
    coords += (coords.empty() ? "" : ", ") + std::to_string(c + 1);
  if (find.lines.size() >= 2)
    fatal("%s:%llu: entry (%s) is given again (first on line %llu)", path,
          static_cast<unsigned long long>(find.lines[1]), coords.c_str(),
          static_cast<unsigned long long>(find.lines[0]));
  fatal("%s: entry (%s) is given more than once", path, coords.c_str());
}

} // namespace sa_rt
