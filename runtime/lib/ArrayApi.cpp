//===- ArrayApi.cpp - C ABI over runtime arrays ---------------------------===//

#include "Array.h"
#include "Error.h"
#include "SparseArrayRuntime.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <mutex>
#include <unordered_set>

using namespace sa_rt;

struct sa_rt_array {
  std::unique_ptr<Array> array;
};

struct sa_rt_concat {
  Concat concat;
};

struct sa_rt_slice {
  FormatSpec spec;
  std::vector<uint64_t> dims;
  std::vector<int64_t> offsets, strides;
};

namespace {
FormatSpec parseSpec(const char *text, const char *what) {
  FormatSpec spec;
  std::string error;
  if (!text || !FormatSpec::parse(text, spec, error))
    fatal("%s: bad array spec '%s': %s", what, text ? text : "(null)",
          error.c_str());
  return spec;
}

sa_rt_array *wrap(std::unique_ptr<Array> a) {
  return new sa_rt_array{std::move(a)};
}

Array &get(const sa_rt_array *h, const char *what) {
  if (!h || !h->array)
    fatal("%s: null array", what);
  return *h->array;
}

/// Checks borrowed buffers once before the runtime reads them.
void validate(const Array &a, const char *what) {
  std::string reason = a.validate();
  if (!reason.empty())
    fatal("%s: inconsistent array buffers: %s", what, reason.c_str());
}

void checkBuffer(const Array &a, int64_t k, const char *what) {
  if (k < 0 || k >= static_cast<int64_t>(a.buffers.size()))
    fatal("%s: buffer %lld does not exist (the format has %zu)", what,
          static_cast<long long>(k), a.buffers.size());
}
} // namespace

extern "C" {

sa_rt_array *sa_rt_array_read(const char *path, const char *spec,
                              const char *fileFormat) {
  FormatSpec s = parseSpec(spec, "read");
  if (!path)
    fatal("read: null path");
  return wrap(readFile(path, s, fileFormat));
}

sa_rt_array *sa_rt_array_new(const char *spec) {
  return wrap(std::make_unique<Array>(parseSpec(spec, "new")));
}

void sa_rt_array_set_dim(sa_rt_array *h, int64_t dim, int64_t size) {
  Array &a = get(h, "set_dim");
  if (dim < 0 || dim >= static_cast<int64_t>(a.dims.size()) || size < 0)
    fatal("set_dim: bad dimension %lld or size %lld",
          static_cast<long long>(dim), static_cast<long long>(size));
  a.dims[dim] = static_cast<uint64_t>(size);
}

int64_t sa_rt_array_dim(const sa_rt_array *h, int64_t dim) {
  const Array &a = get(h, "dim");
  if (dim < 0 || dim >= static_cast<int64_t>(a.dims.size()))
    fatal("dim: dimension %lld of an array of rank %zu",
          static_cast<long long>(dim), a.dims.size());
  return static_cast<int64_t>(a.dims[dim]);
}

int64_t sa_rt_array_num_buffers(const sa_rt_array *h) {
  return static_cast<int64_t>(get(h, "num_buffers").buffers.size());
}

int64_t sa_rt_array_storage_bytes(const sa_rt_array *h) {
  const Array &a = get(h, "storage_bytes");
  uint64_t bytes = 0;
  for (unsigned k = 0; k < a.buffers.size(); ++k)
    bytes += a.buffers[k].len * a.spec.bufferElemBytes(k);
  return static_cast<int64_t>(bytes);
}

sa_rt_array *sa_rt_array_convert(sa_rt_array *h, const char *spec) {
  const Array &a = get(h, "convert");
  validate(a, "convert");
  return wrap(convert(a, parseSpec(spec, "convert")));
}

sa_rt_array *sa_rt_array_reshape(sa_rt_array *h, sa_rt_array *shape,
                                 int64_t fortran) {
  const Array &a = get(h, "reshape");
  validate(a, "reshape");
  const Array &s = get(shape, "reshape");
  return wrap(reshape(a, s.spec, s.dims, fortran != 0));
}

sa_rt_concat *sa_rt_concat_new(sa_rt_array *shape, int64_t axis) {
  const Array &s = get(shape, "concat");
  if (axis < 0 || axis >= static_cast<int64_t>(s.dims.size()))
    fatal("concat: axis %lld of a rank-%zu result",
          static_cast<long long>(axis), s.dims.size());
  return new sa_rt_concat{Concat(s.spec, s.dims, static_cast<unsigned>(axis))};
}

void sa_rt_concat_add(sa_rt_concat *c, sa_rt_array *part) {
  if (!c)
    fatal("concat: null concatenation");
  const Array &a = get(part, "concat");
  validate(a, "concat");
  c->concat.add(a);
}

sa_rt_array *sa_rt_concat_finish(sa_rt_concat *c) {
  if (!c)
    fatal("concat: null concatenation");
  // Freed before a run-time error too (the host may go on).
  std::unique_ptr<sa_rt_concat> owned(c);
  return wrap(owned->concat.finish());
}

sa_rt_slice *sa_rt_slice_new(sa_rt_array *shape) {
  const Array &s = get(shape, "slice");
  size_t rank = s.dims.size();
  return new sa_rt_slice{s.spec, s.dims, std::vector<int64_t>(rank, 0),
                         std::vector<int64_t>(rank, 1)};
}

void sa_rt_slice_set(sa_rt_slice *sl, int64_t dim, int64_t offset,
                     int64_t stride) {
  if (!sl)
    fatal("slice: null slice");
  if (dim < 0 || dim >= static_cast<int64_t>(sl->dims.size()))
    fatal("slice: dimension %lld of a rank-%zu result",
          static_cast<long long>(dim), sl->dims.size());
  sl->offsets[dim] = offset;
  sl->strides[dim] = stride;
}

sa_rt_array *sa_rt_slice_finish(sa_rt_slice *sl, sa_rt_array *source) {
  if (!sl)
    fatal("slice: null slice");
  // Freed before a run-time error too (the host may go on).
  std::unique_ptr<sa_rt_slice> owned(sl);
  const Array &a = get(source, "slice");
  validate(a, "slice");
  return wrap(slice(a, owned->spec, owned->dims, owned->offsets,
                    owned->strides));
}

void sa_rt_array_validate(sa_rt_array *h, const char *what) {
  const Array &a = get(h, what ? what : "validate");
  validate(a, what ? what : "validate");
  std::string reason = a.validateOrder();
  if (!reason.empty())
    fatal("%s: inconsistent array buffers: %s", what ? what : "validate",
          reason.c_str());
}

void sa_rt_array_print(sa_rt_array *h) {
  const Array &a = get(h, "print");
  validate(a, "print");
  printText(a, stdout);
  std::fflush(stdout);
}

void sa_rt_array_write(sa_rt_array *h, const char *path) {
  const Array &a = get(h, "write");
  validate(a, "write");
  if (!path)
    fatal("write: null path");
  std::FILE *f = std::fopen(path, "wb");
  if (!f)
    fatal("%s: cannot open for writing: %s", path, std::strerror(errno));
  size_t n = std::strlen(path);
  if (n >= 4 && std::strcmp(path + n - 4, ".mtx") == 0)
    printMatrixMarket(a, f, path);
  else
    printText(a, f);
  if (std::fclose(f) != 0)
    fatal("%s: write error: %s", path, std::strerror(errno));
}

void sa_rt_array_free(sa_rt_array *h) { delete h; }

void sa_rt_array_take_buffer(sa_rt_array *h, int64_t k, sa_rt_memref1d *out) {
  Array &a = get(h, "take_buffer");
  checkBuffer(a, k, "take_buffer");
  Buffer &b = a.buffers[k];
  if (!b.owned && b.data)
    fatal("take_buffer: buffer %lld is borrowed, not owned by the array",
          static_cast<long long>(k));
  if (!b.data)
    b.data = checkedMalloc(0, 1, "an empty buffer");
  out->allocated = out->aligned = b.data;
  out->offset = 0;
  out->size = static_cast<int64_t>(b.len);
  out->stride = 1;
  b.owned = false;
}

void sa_rt_array_set_buffer(sa_rt_array *h, int64_t k,
                            const sa_rt_memref1d *m) {
  Array &a = get(h, "set_buffer");
  checkBuffer(a, k, "set_buffer");
  if (m->size < 0 || (m->size > 0 && m->stride != 1))
    fatal("set_buffer: buffer %lld must be contiguous (size %lld, stride "
          "%lld)",
          static_cast<long long>(k), static_cast<long long>(m->size),
          static_cast<long long>(m->stride));
  Buffer &b = a.buffers[k];
  if (b.owned)
    std::free(b.data);
  b.data = static_cast<char *>(m->aligned) +
           m->offset * static_cast<int64_t>(a.spec.bufferElemBytes(k));
  b.len = static_cast<uint64_t>(m->size);
  b.owned = false;
}

#define SA_RT_BUFFER_IMPL(T)                                                   \
  void _mlir_ciface_sa_rt_array_take_buffer_##T(                               \
      sa_rt_memref1d *out, sa_rt_array *array, int64_t k) {                    \
    sa_rt_array_take_buffer(array, k, out);                                    \
  }                                                                            \
  void _mlir_ciface_sa_rt_array_set_buffer_##T(                                \
      sa_rt_array *array, int64_t k, sa_rt_memref1d *buffer) {                 \
    sa_rt_array_set_buffer(array, k, buffer);                                  \
  }
SA_RT_BUFFER_IMPL(i1)
SA_RT_BUFFER_IMPL(i8)
SA_RT_BUFFER_IMPL(i16)
SA_RT_BUFFER_IMPL(i32)
SA_RT_BUFFER_IMPL(i64)
SA_RT_BUFFER_IMPL(f16)
SA_RT_BUFFER_IMPL(bf16)
SA_RT_BUFFER_IMPL(f32)
SA_RT_BUFFER_IMPL(f64)
#undef SA_RT_BUFFER_IMPL

} // extern "C"

extern "C" void sa_rt_bounds_error(const char *site, int64_t index,
                                   int64_t size) {
  sa_rt::fatal("%s: index %lld, but the buffer has %lld elements", site,
               static_cast<long long>(index), static_cast<long long>(size));
}

extern "C" void sa_rt_check_capacity(const char *site, int64_t needed,
                                     int64_t capacity) {
  if (needed > capacity)
    sa_rt::fatal("%s need %lld elements, but the output tensor holds %lld",
                 site, static_cast<long long>(needed),
                 static_cast<long long>(capacity));
}

extern "C" void sa_rt_index_error(const char *site, int64_t dim,
                                  int64_t index, int64_t size) {
  sa_rt::fatal("%s: coordinate %lld of dimension %lld is outside [0, %lld)",
               site, static_cast<long long>(index),
               static_cast<long long>(dim + 1), static_cast<long long>(size));
}

extern "C" void sa_rt_checked_dealloc(const char *site, int64_t values) {
  // Quarantined: never freed, so an address seen twice is the same array.
  static std::mutex mutex;
  static std::unordered_set<int64_t> freed;
  if (values == 0)
    return; // no values buffer to tell arrays apart
  std::lock_guard<std::mutex> lock(mutex);
  if (!freed.insert(values).second)
    sa_rt::fatal("%s: the array was freed already (a double free)", site);
}

extern "C" void sa_rt_check_slice(int64_t operand, int64_t dim, int64_t actual,
                                  int64_t stop) {
  if (actual < stop)
    sa_rt::fatal(
        "operand %lld of a kernel has size %lld in dimension %lld, "
        "but a slice of it reads up to coordinate %lld",
        static_cast<long long>(operand), static_cast<long long>(actual),
        static_cast<long long>(dim + 1), static_cast<long long>(stop - 1));
}

extern "C" void sa_rt_check_split(int64_t operand, int64_t dim, int64_t actual,
                                  int64_t inner) {
  if (inner <= 0 || actual % inner != 0)
    sa_rt::fatal(
        "operand %lld of a kernel has size %lld in dimension %lld, which a "
        "split into parts of %lld entries cannot divide",
        static_cast<long long>(operand), static_cast<long long>(actual),
        static_cast<long long>(dim + 1), static_cast<long long>(inner));
}

extern "C" void sa_rt_check_windows(int64_t operand, int64_t dim,
                                    int64_t actual, int64_t per, int64_t inner,
                                    int64_t windows) {
  // 128-bit products: a size near 2^63 must not wrap into a false match.
  __int128 entries = static_cast<__int128>(actual) * per;
  bool divides = inner > 0 && entries % inner == 0;
  if (divides && entries == static_cast<__int128>(windows) * inner)
    return;
  char what[256];
  std::snprintf(what, sizeof(what),
                "operand %lld of a kernel has size %lld in dimension %lld: "
                "with the other dimensions of its reshape it holds %lld x "
                "%lld entries",
                static_cast<long long>(operand), static_cast<long long>(actual),
                static_cast<long long>(dim + 1), static_cast<long long>(actual),
                static_cast<long long>(per));
  if (!divides)
    sa_rt::fatal("%s, which a split into parts of %lld entries cannot divide",
                 what, static_cast<long long>(inner));
  sa_rt::fatal("%s, %lld parts of %lld, but the kernel's loop over the parts "
               "(the result's size or another operand's) has %lld",
               what, static_cast<long long>(entries / inner),
               static_cast<long long>(inner), static_cast<long long>(windows));
}

extern "C" void sa_rt_check_concat(int64_t input, int64_t axis, int64_t dim,
                                   int64_t actual, int64_t expected) {
  if (actual != expected)
    sa_rt::fatal(
        "input %lld of a concatenation along dimension %lld has "
        "size %lld in dimension %lld, but the result has size %lld "
        "there",
        static_cast<long long>(input), static_cast<long long>(axis + 1),
        static_cast<long long>(actual), static_cast<long long>(dim + 1),
        static_cast<long long>(expected));
}

extern "C" void sa_rt_check_extent(int64_t operand, int64_t dim,
                                   int64_t actual, int64_t expected) {
  if (actual != expected)
    sa_rt::fatal("operand %lld of a kernel has size %lld in "
                 "dimension %lld, but the result has size %lld there",
                 static_cast<long long>(operand),
                 static_cast<long long>(actual),
                 static_cast<long long>(dim + 1),
                 static_cast<long long>(expected));
}
