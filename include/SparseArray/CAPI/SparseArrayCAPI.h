/*===- SparseArrayCAPI.h - Compile and call sparse_array programs ---------===*
 *
 * The C API of libSparseArrayCAPI.so (what the Python package loads with
 * ctypes): compile a module of MLIR text with sparse-array-pipeline, JIT it,
 * look up its functions and call them, every failure returned as a status
 * and a message, never an exit. The runtime (SparseArrayRuntime.h) is part
 * of the library.
 *
 * Calling convention of a looked-up function (MLIR's packed interface):
 * `void f(void **args)` with one pointer per argument of the lowered
 * signature, then one pointer to the results' storage. An array argument
 * is, in the order of docs/storage.md, its buffers — each a 1-D memref,
 * expanded to five words (allocated pointer, aligned pointer, offset, size,
 * stride) — then one int64 per dimension. Several results are one struct
 * of those words, in order. Buffers a call returns were malloc()ed: the
 * caller frees them with sa_free (unless one is an argument's buffer).
 *
 *===----------------------------------------------------------------------===*/

#ifndef SPARSEARRAY_CAPI_SPARSEARRAYCAPI_H
#define SPARSEARRAY_CAPI_SPARSEARRAYCAPI_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct sa_module sa_module;

/* Parses `text` (an MLIR module of sparse_array programs), lowers it with
 * sparse-array-pipeline and JIT-compiles it. `options` is NULL or
 * "key=value;..." with keys opt (0-3), openmp (0/1), workspace
 * (auto/dense/hash), bounds_checks (0/1), linear_threshold (N),
 * branchless_merge (0/1),
 * parallel_min_extent (N), parallel_min_work (N), parallel_assembly (auto/two-phase/parts/chained),
 * vector_gathers (auto/on/off), verify_each (0/1: verify the IR after
 * every pass of the pipeline, not only after the last), cache_dir (PATH: the on-disk kernel cache;
 * a module compiled before with the same text and options by this build of
 * the library on this CPU is loaded from PATH/<digest>.so instead of
 * compiled, and a compiled one is written there, linked with ld.lld; a
 * cache that cannot be written or read only costs compilations).
 * Returns NULL on failure with *error set to
 * the diagnostics (free with sa_free). Thread-safe. */
sa_module *sa_module_compile(const char *text, size_t length,
                             const char *options, char **error);

/* Parses `text` and runs the textual pass pipeline `passes` on it (e.g.
 * "sparse-array-check-properties", nested in the module), without lowering or
 * JIT: 0 when it succeeds, else nonzero with *error set to the
 * diagnostics (free with sa_free). Thread-safe. */
int sa_check(const char *text, size_t length, const char *passes,
             char **error);

/* sa_check that also returns the module after the passes as text in
 * *output (free with sa_free): what the planner decided (sa.explain). */
int sa_run_passes(const char *text, size_t length, const char *passes,
                  char **output, char **error);

/* The packed entry point of public function `name`, or NULL. */
void *sa_module_lookup(sa_module *module, const char *name);

/* Calls a packed entry point. A runtime error (mismatched extents, a
 * malformed file, ...) returns nonzero with *error set (free with sa_free)
 * instead of ending the process; memory the call had allocated is then
 * not freed. Returns 0 on success. */
int sa_call(void *function, void **args, char **error);

/* 1 when `module` was loaded from the kernel cache (not compiled). */
int sa_module_from_cache(sa_module *module);
/* Frees a module (its functions become invalid). */
void sa_module_free(sa_module *module);

/* The level formats this library knows (built-ins and plugins, from their
 * traits: runtime/include/SparseArrayLevelTraits.h), one line each:
 * `name buffers=W,W,... nonunique=0|1 nonordered=0|1 hashorder=0|1
 * params=N`, W being `pos` or `crd` (the index width typing each buffer, in
 * layout order), N the integer parameters a level takes (`structured[n, m]`).
 * Free with sa_free. */
char *sa_level_formats(void);

/* Frees a message or a buffer the library or a call allocated. */
void sa_free(void *pointer);

#ifdef __cplusplus
}
#endif

#endif /* SPARSEARRAY_CAPI_SPARSEARRAYCAPI_H */
