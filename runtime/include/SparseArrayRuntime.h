/*===- SparseArrayRuntime.h - C ABI of the sparse_array runtime ----------===*
 *
 * Functions that compiled sparse_array programs call. Every symbol has the
 * prefix `sa_rt_`; all sizes and indices are int64_t.
 *
 * Errors (bad input index, ...) print "sparse_array runtime error: <reason>"
 * to stderr and terminate the process with exit code 2, so that a program
 * never continues on bad data.
 *
 *===----------------------------------------------------------------------===*/

#ifndef SPARSE_ARRAY_RUNTIME_H
#define SPARSE_ARRAY_RUNTIME_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

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
void sa_rt_print_str(const char *text);
void sa_rt_print_newline(void);

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
