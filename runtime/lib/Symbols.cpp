//===- Symbols.cpp - Symbol table for JIT hosts ---------------------------===//
//
// sa-run links the runtime statically and hands these addresses to the
// ExecutionEngine, so users never pass -shared-libs. Add every new entry
// point here.
//
//===----------------------------------------------------------------------===//

#include "SparseArrayRuntime.h"

#define SA_RT_SYMBOL(name) {#name, reinterpret_cast<void *>(&name)}

static const SaRtSymbol kSymbols[] = {
    SA_RT_SYMBOL(sa_rt_set_inputs),   SA_RT_SYMBOL(sa_rt_num_inputs),
    SA_RT_SYMBOL(sa_rt_input_path),   SA_RT_SYMBOL(sa_rt_print_i64),
    SA_RT_SYMBOL(sa_rt_print_u64),    SA_RT_SYMBOL(sa_rt_print_f64),
    SA_RT_SYMBOL(sa_rt_print_f32),    SA_RT_SYMBOL(sa_rt_print_str),
    SA_RT_SYMBOL(sa_rt_print_newline),
};

extern "C" const SaRtSymbol *sa_rt_symbols(size_t *count) {
  *count = sizeof(kSymbols) / sizeof(kSymbols[0]);
  return kSymbols;
}
