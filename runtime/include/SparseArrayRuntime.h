/*===- SparseArrayRuntime.h - C ABI of the sparse_array runtime ----------===*
 *
 * Functions that compiled sparse_array programs call. Every symbol has the
 * prefix `sa_rt_`; all sizes and indices are int64_t.
 *
 * Errors (bad input index, ...) print "sparse_array runtime error: <reason>"
 * to stderr and terminate the process with exit code 2, so that a program
 * never continues on bad data — unless the call runs under sa_rt_try (a
 * library host: Python, the C API), which returns the reason instead.
 *
 *===----------------------------------------------------------------------===*/

#ifndef SPARSE_ARRAY_RUNTIME_H
#define SPARSE_ARRAY_RUNTIME_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/*--- Errors in a library host ----------------------------------------------*/

/* Runs fn(arg). A runtime error on this thread during the call (in the
 * runtime or in compiled code calling it) returns 1 with its reason in
 * `message` (NUL-terminated, at most `size` bytes) instead of exiting;
 * memory the failed call had allocated is not freed. Errors on other
 * threads (OpenMP workers) still exit. Calls nest. Returns 0 otherwise. */
int sa_rt_try(void (*fn)(void *), void *arg, char *message, size_t size);

/*--- Program inputs (the `sa-run PROGRAM -- INPUT...` list) ----------------*/

/* Sets the inputs; the strings are copied. Called by sa-run before @main. */
void sa_rt_set_inputs(int64_t count, const char *const *paths);
/* Number of inputs given on the command line. */
int64_t sa_rt_num_inputs(void);
/* The k-th input (0-based); a runtime error when k is out of range. */
const char *sa_rt_input_path(int64_t k);

/*--- Printing (round-trip exact: floats read back to the same bits) --------*/

void sa_rt_print_i64(int64_t value);
void sa_rt_print_u64(uint64_t value);
/* Shortest decimal that reads back exactly; `inf`, `-inf`, `nan`. */
void sa_rt_print_f64(double value);
void sa_rt_print_f32(float value);
/* printf's %g, as upstream MLIR's runner library prints floats (what
   programs imported from sparse_tensor print). */
void sa_rt_print_f64_g(double value);
void sa_rt_print_f32_g(float value);
void sa_rt_print_str(const char *text);
void sa_rt_print_newline(void);

/*--- Timing (benchmarks) ----------------------------------------------------*/

/* Seconds on a monotonic clock, from an arbitrary origin. */
double sa_rt_seconds(void);

/*--- Memory -----------------------------------------------------------------*/

/* Advice for a fresh buffer of `bytes` at `address` that a kernel fills
 * once, in order: transparent huge pages for buffers of 4 MiB and more
 * (first-touch page faults dominate memory-bound merges otherwise). */
void sa_rt_advise_sequential_buffer(int64_t address, int64_t bytes);

/* Sorts `count` int64 values at `address` ascending, in place. */
void sa_rt_sort_i64(int64_t address, int64_t count);

/* Copies `bytes` from `source` to `dest` (buffers that do not overlap):
 * the C library's memcpy for the bulk copies of shape operators. */
void sa_rt_copy_bytes(int64_t dest, int64_t source, int64_t bytes);

/* A sparse result assembled in parts by parallel threads: each part's
 * buffers are kept here by the thread that computed them (one part, one
 * thread: no locks), each buffer in a numbered slot, then joined in part
 * order into the result's buffers. new returns the handle.
 * adopt_slot keeps the buffer at `address` (its first `bytes` bytes) in
 * part `part`'s slot `slot` and takes it over: it must come from malloc
 * (what memref.alloc of a scalar element type lowers to); the runtime
 * trims it to `bytes` with realloc and frees it once taken or freed
 * (adopt: slots 0, coordinates, and 1, values); take_part copies one
 * part's slot to `dest` (the caller's offset for it: parts may be taken
 * in parallel); take_part_positions does so for a
 * positions buffer (uint32_t or uint64_t, `width` bits), without its
 * leading 0 for a part after the first and each position plus `shift`
 * (the entries of the parts before); free releases the handle. */
int64_t sa_rt_parts_new(int64_t parts);
void sa_rt_parts_adopt_slot(int64_t handle, int64_t part, int64_t slot,
                            int64_t address, int64_t bytes);
void sa_rt_parts_take_part(int64_t handle, int64_t part, int64_t slot,
                           int64_t dest);
void sa_rt_parts_take_part_positions(int64_t handle, int64_t part,
                                     int64_t slot, int64_t dest,
                                     int64_t width, int64_t shift);
void sa_rt_parts_free(int64_t handle);
void sa_rt_parts_adopt(int64_t handle, int64_t part, int64_t coordinates,
                       int64_t coordinateBytes, int64_t values,
                       int64_t valueBytes);

/* Rows of a CSR/CSC result in parallel parts placed in part order as they
 * finish (`parts, chained`): new makes the chain of `parts` parts; claim
 * hands out the next part number (0, 1, ...; >= parts when none is left),
 * so parts are claimed in order by running threads; start returns where
 * part `part` begins in the result (the end of part - 1, 0 for part 0),
 * waiting until that part has published it; publish records where part
 * `part` ends (its start plus its entries); free releases the chain and
 * returns the end of the last part (the result's entries). */
int64_t sa_rt_chain_new(int64_t parts);
int64_t sa_rt_chain_claim(int64_t handle);
int64_t sa_rt_chain_start(int64_t handle, int64_t part);
void sa_rt_chain_publish(int64_t handle, int64_t part, int64_t end);
int64_t sa_rt_chain_free(int64_t handle);

/*--- Arrays ----------------------------------------------------------------
 *
 * An array crosses the C boundary as an opaque sa_rt_array handle or as its
 * buffers. Buffer k of an array, in this order (docs/storage.md):
 *   for each level, outermost first: its positions buffer (if the level
 *   format has one), then its coordinates buffer (if it has one);
 *   finally the values buffer.
 * Positions/coordinates are uint32_t or uint64_t (pos_width, crd_width);
 * values have the element type (i1 as one byte holding 0 or 1).
 *
 * `spec` strings describe an array type, e.g.
 *   "elem=f64;dims=?,?;levels=dense,compressed;fill=0"
 * (keys elem, dims, levels, order, pos, crd, fill; see docs/storage.md).
 * Every function reports bad input as a runtime error (exit code 2).
 */

typedef struct sa_rt_array sa_rt_array;

/* A 1-D memref descriptor (MLIR's StridedMemRefType<T, 1>). */
typedef struct sa_rt_memref1d {
  void *allocated;
  void *aligned;
  int64_t offset;
  int64_t size;
  int64_t stride;
} sa_rt_memref1d;

/* Reads a file (format "auto", "mtx", "tns" or "text") into a new array. */
sa_rt_array *sa_rt_array_read(const char *path, const char *spec,
                              const char *file_format);
/* An array whose buffers the caller sets (borrowed, never freed by it). */
sa_rt_array *sa_rt_array_new(const char *spec);
void sa_rt_array_set_dim(sa_rt_array *array, int64_t dim, int64_t size);
int64_t sa_rt_array_dim(const sa_rt_array *array, int64_t dim);
int64_t sa_rt_array_num_buffers(const sa_rt_array *array);
/* Bytes of all buffers (what the array occupies). */
int64_t sa_rt_array_storage_bytes(const sa_rt_array *array);
/* Converts to another format and/or fill value (a new array). */
sa_rt_array *sa_rt_array_convert(sa_rt_array *array, const char *spec);
/* numpy.reshape (seed 001 collapse/split): `array`'s entries in the format,
   fill and shape of `shape` (a handle from sa_rt_array_new with its
   dimensions set), linearized in C order, or Fortran order when `fortran`.
   A new array. */
sa_rt_array *sa_rt_array_reshape(sa_rt_array *array, sa_rt_array *shape,
                                 int64_t fortran);
/* numpy.concatenate along `axis` (seed 001 concatenation), for sizes
   along the axis known only at run time: sa_rt_concat_new takes the
   result's format, fill and sizes from `shape` (a handle from
   sa_rt_array_new with its dimensions set), sa_rt_concat_add copies a
   part's entries at the parts' running offset (the part may be freed
   after; a part with another fill adds every point of its range), and
   sa_rt_concat_finish packs them into a new array and frees the
   concatenation. A runtime error when a part's other sizes or the parts'
   total along the axis are not the result's. */
typedef struct sa_rt_concat sa_rt_concat;
sa_rt_concat *sa_rt_concat_new(sa_rt_array *shape, int64_t axis);
void sa_rt_concat_add(sa_rt_concat *concat, sa_rt_array *part);
sa_rt_array *sa_rt_concat_finish(sa_rt_concat *concat);
/* A strided slice with bounds known at run time (seed 001 §4.1,
   sparse_array.dynamic_slice): sa_rt_slice_new takes the result's format,
   fill and sizes from `shape` (a handle from sa_rt_array_new with its
   dimensions set), sa_rt_slice_set gives dimension `dim`'s first
   coordinate and stride (0 and 1 unless set), sa_rt_slice_finish moves
   the source's stored entries on that grid into a new array and frees
   the slice. A runtime error when the slice does not fit the source. */
typedef struct sa_rt_slice sa_rt_slice;
sa_rt_slice *sa_rt_slice_new(sa_rt_array *shape);
void sa_rt_slice_set(sa_rt_slice *slice, int64_t dim, int64_t offset,
                     int64_t stride);
sa_rt_array *sa_rt_slice_finish(sa_rt_slice *slice, sa_rt_array *source);
/* A runtime error naming `what` unless the buffers are consistent with
   the format: lengths, positions, coordinates within their dimensions, in
   order on ordered levels (lexicographically over COO levels) and without
   repeats on unique ones (arrays assembled from a user's buffers). */
void sa_rt_array_validate(sa_rt_array *array, const char *what);
/* The text format on stdout / in a file (.mtx: Matrix Market). */
void sa_rt_array_print(sa_rt_array *array);
void sa_rt_array_write(sa_rt_array *array, const char *path);
/* Frees the handle and the buffers it still owns. */
void sa_rt_array_free(sa_rt_array *array);

/* Stops the program (exit 2) unless an operand's dimension `dim` (0-based)
   has the size of the result's: element-wise operations on arrays whose
   sizes are only known at run time. */
void sa_rt_check_extent(int64_t operand, int64_t dim, int64_t actual,
                        int64_t expected);
/* Stops the program (exit 2) unless input `input` of a concatenation along
   `axis` has size `expected` in dimension `dim` (all 0-based): the first
   input's size there, known only at run time. */
void sa_rt_check_concat(int64_t input, int64_t axis, int64_t dim,
                        int64_t actual, int64_t expected);
/* Stops the program (exit 2) unless an operand's dimension `dim` (0-based)
   has at least `stop` entries: a sliced access reads coordinates below
   `stop` of a dimension whose size is only known at run time. */
void sa_rt_check_slice(int64_t operand, int64_t dim, int64_t actual,
                       int64_t stop);
/* Stops the program (exit 2) unless an operand's dimension `dim` (0-based)
   is a multiple of `inner`: a kernel reads it split into parts whose inner
   sizes multiply to `inner` (sparse_array.split, numpy.reshape). */
void sa_rt_check_split(int64_t operand, int64_t dim, int64_t actual,
                       int64_t inner);
/* Stops the program (exit 2) unless `actual` * `per` entries (an operand's
   dimension `dim` collapsed with the static sizes of the other dimensions
   of its reshape, whose product is `per`) split into parts of `inner`
   entries make exactly `windows` parts: a kernel reads the reshape in
   windows of `inner` whose count its loops have as extent (the result's
   or another operand's size). Names the entries, so `actual` alone is not
   mistaken for the split size. */
void sa_rt_check_windows(int64_t operand, int64_t dim, int64_t actual,
                         int64_t per, int64_t inner, int64_t windows);

/* Stops the program (exit 2): code compiled with bounds checks
   (sa-run --bounds-checks) accessed a buffer at `index`, which has `size`
   elements; `site` names the operation and the buffer. */
void sa_rt_bounds_error(const char *site, int64_t index, int64_t size);

/* Stops the program (exit 2) unless `needed` <= `capacity`: `site` names a
   user's buffer (a sparse_tensor.disassemble output) that must hold
   `needed` elements and holds `capacity`. */
void sa_rt_check_capacity(const char *site, int64_t needed, int64_t capacity);

/* Stops the program (exit 2): `site` (an element read such as
   sparse_array.extract) asked for coordinate `index` of dimension `dim`
   (0-based), which has `size` coordinates. */
void sa_rt_index_error(const char *site, int64_t dim, int64_t index,
                       int64_t size);

/* Checked free (bounds-checks mode): records the array whose values buffer
   is at `values` (its buffers are kept, never reused); a second free of it
   stops the program (exit 2) naming `site`. */
void sa_rt_checked_dealloc(const char *site, int64_t values);

/* Buffer k as a memref; ownership passes to the caller (free() it). */
void sa_rt_array_take_buffer(sa_rt_array *array, int64_t k,
                             sa_rt_memref1d *out);
/* Lends buffer k (aligned + offset, size elements) to the array. */
void sa_rt_array_set_buffer(sa_rt_array *array, int64_t k,
                            const sa_rt_memref1d *buffer);

/* The same two per MLIR element type, in the calling convention of
 * `llvm.emit_c_interface` declarations (what compiled code calls). */
#define SA_RT_BUFFER_FUNCS(T)                                                \
  void _mlir_ciface_sa_rt_array_take_buffer_##T(                             \
      sa_rt_memref1d *out, sa_rt_array *array, int64_t k);                   \
  void _mlir_ciface_sa_rt_array_set_buffer_##T(                              \
      sa_rt_array *array, int64_t k, sa_rt_memref1d *buffer);
SA_RT_BUFFER_FUNCS(i1)
SA_RT_BUFFER_FUNCS(i8)
SA_RT_BUFFER_FUNCS(i16)
SA_RT_BUFFER_FUNCS(i32)
SA_RT_BUFFER_FUNCS(i64)
SA_RT_BUFFER_FUNCS(f16)
SA_RT_BUFFER_FUNCS(bf16)
SA_RT_BUFFER_FUNCS(f32)
SA_RT_BUFFER_FUNCS(f64)
#undef SA_RT_BUFFER_FUNCS

/*--- Symbol table for JIT hosts --------------------------------------------*/

typedef struct SaRtSymbol {
  const char *name;
  void *address;
} SaRtSymbol;

/* All functions above, so that a JIT can resolve them without dlopen. */
const SaRtSymbol *sa_rt_symbols(size_t *count);

/* Formats `value` like sa_rt_print_f64 into buf (at least 32 bytes);
 * returns the length. Shared with the writers of the text format. */
int sa_rt_format_f64(char *buf, size_t size, double value);
int sa_rt_format_f32(char *buf, size_t size, float value);

#ifdef __cplusplus
}
#endif

#endif /* SPARSE_ARRAY_RUNTIME_H */
