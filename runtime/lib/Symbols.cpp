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
    SA_RT_SYMBOL(sa_rt_set_inputs),
    SA_RT_SYMBOL(sa_rt_num_inputs),
    SA_RT_SYMBOL(sa_rt_input_path),
    SA_RT_SYMBOL(sa_rt_print_i64),
    SA_RT_SYMBOL(sa_rt_print_u64),
    SA_RT_SYMBOL(sa_rt_print_f64),
    SA_RT_SYMBOL(sa_rt_print_f32),
    SA_RT_SYMBOL(sa_rt_print_f64_g),
    SA_RT_SYMBOL(sa_rt_print_f32_g),
    SA_RT_SYMBOL(sa_rt_print_str),
    SA_RT_SYMBOL(sa_rt_print_newline),
    SA_RT_SYMBOL(sa_rt_seconds),
    SA_RT_SYMBOL(sa_rt_advise_sequential_buffer),
    SA_RT_SYMBOL(sa_rt_sort_i64),
    SA_RT_SYMBOL(sa_rt_copy_bytes),
    SA_RT_SYMBOL(sa_rt_parts_new),
    SA_RT_SYMBOL(sa_rt_parts_adopt),
    SA_RT_SYMBOL(sa_rt_parts_adopt_slot),
    SA_RT_SYMBOL(sa_rt_parts_take_part),
    SA_RT_SYMBOL(sa_rt_parts_take_part_positions),
    SA_RT_SYMBOL(sa_rt_parts_free),
    SA_RT_SYMBOL(sa_rt_chain_new),
    SA_RT_SYMBOL(sa_rt_chain_claim),
    SA_RT_SYMBOL(sa_rt_chain_start),
    SA_RT_SYMBOL(sa_rt_chain_publish),
    SA_RT_SYMBOL(sa_rt_chain_free),
    SA_RT_SYMBOL(sa_rt_array_read),
    SA_RT_SYMBOL(sa_rt_array_new),
    SA_RT_SYMBOL(sa_rt_array_set_dim),
    SA_RT_SYMBOL(sa_rt_array_dim),
    SA_RT_SYMBOL(sa_rt_check_extent),
    SA_RT_SYMBOL(sa_rt_check_concat),
    SA_RT_SYMBOL(sa_rt_check_slice),
    SA_RT_SYMBOL(sa_rt_check_split),
    SA_RT_SYMBOL(sa_rt_check_windows),
    SA_RT_SYMBOL(sa_rt_bounds_error),
    SA_RT_SYMBOL(sa_rt_index_error),
    SA_RT_SYMBOL(sa_rt_check_capacity),
    SA_RT_SYMBOL(sa_rt_checked_dealloc),
    SA_RT_SYMBOL(sa_rt_array_num_buffers),
    SA_RT_SYMBOL(sa_rt_array_storage_bytes),
    SA_RT_SYMBOL(sa_rt_array_convert),
    SA_RT_SYMBOL(sa_rt_array_reshape),
    SA_RT_SYMBOL(sa_rt_concat_new),
    SA_RT_SYMBOL(sa_rt_concat_add),
    SA_RT_SYMBOL(sa_rt_concat_finish),
    SA_RT_SYMBOL(sa_rt_slice_new),
    SA_RT_SYMBOL(sa_rt_slice_set),
    SA_RT_SYMBOL(sa_rt_slice_finish),
    SA_RT_SYMBOL(sa_rt_array_print),
    SA_RT_SYMBOL(sa_rt_array_validate),
    SA_RT_SYMBOL(sa_rt_array_write),
    SA_RT_SYMBOL(sa_rt_array_free),
    SA_RT_SYMBOL(sa_rt_array_take_buffer),
    SA_RT_SYMBOL(sa_rt_array_set_buffer),
#define SA_RT_BUFFER_SYMBOLS(T)                                                \
  SA_RT_SYMBOL(_mlir_ciface_sa_rt_array_take_buffer_##T),                      \
      SA_RT_SYMBOL(_mlir_ciface_sa_rt_array_set_buffer_##T),
    SA_RT_BUFFER_SYMBOLS(i1) SA_RT_BUFFER_SYMBOLS(i8) SA_RT_BUFFER_SYMBOLS(i16)
        SA_RT_BUFFER_SYMBOLS(i32) SA_RT_BUFFER_SYMBOLS(i64)
            SA_RT_BUFFER_SYMBOLS(f16) SA_RT_BUFFER_SYMBOLS(bf16)
                SA_RT_BUFFER_SYMBOLS(f32) SA_RT_BUFFER_SYMBOLS(f64)
#undef SA_RT_BUFFER_SYMBOLS
};

extern "C" const SaRtSymbol *sa_rt_symbols(size_t *count) {
  *count = sizeof(kSymbols) / sizeof(kSymbols[0]);
  return kSymbols;
}
