// RUN: sa-opt %s -split-input-file -verify-diagnostics
// One case per diagnostic of the type system: the format attribute's parser
// and verifier, then the array type's.

//===----------------------------------------------------------------------===//
// #sparse_array.format: parser
//===----------------------------------------------------------------------===//

// expected-error@+1 {{unknown level format 'sparse'; expected one of dense, compressed, singleton}}
func.func private @unknown_level_format(!sparse_array.array<4xf64, #sparse_array.format<[sparse]>>)

// -----

// expected-error@+1 {{unknown level property 'nonsorted'; expected 'nonunique' or 'nonordered'}}
func.func private @unknown_level_property(!sparse_array.array<4xf64, #sparse_array.format<[compressed(nonsorted)]>>)

// -----

// expected-error@+1 {{level property 'nonunique' given twice}}
func.func private @level_property_twice(!sparse_array.array<4x4xf64, #sparse_array.format<[compressed(nonunique, nonunique), singleton]>>)

// -----

// A level format's parameters: as many as it takes, none for the others.
// expected-error@+1 {{level format 'structured' takes 2 parameters, got 1}}
func.func private @structured_one_param(!sparse_array.array<4x8xf64, #sparse_array.format<[dense, dense, structured[2]], order = [0, 1, 1], blocks = [1, 4]>>)

// -----

// expected-error@+1 {{expected '['}}
func.func private @structured_no_params(!sparse_array.array<4x8xf64, #sparse_array.format<[dense, dense, structured], order = [0, 1, 1], blocks = [1, 4]>>)

// -----

// expected-error@+1 {{level format 'dense' takes no parameters}}
func.func private @dense_params(!sparse_array.array<4xf64, #sparse_array.format<[dense[4]]>>)

// -----

// expected-error@+1 {{unknown format key 'fil'; expected 'order', 'blocks', 'pos_width', 'crd_width' or 'fill'}}
func.func private @unknown_format_key(!sparse_array.array<4xf64, #sparse_array.format<[compressed], fil = 1.0 : f64>>)

// -----

// expected-error@+1 {{format key 'fill' given twice}}
func.func private @format_key_twice(!sparse_array.array<4xf64, #sparse_array.format<[compressed], fill = 1.0 : f64, fill = 2.0 : f64>>)

// -----

// expected-error@+1 {{'nan' needs a floating-point type, got 'i32'}}
func.func private @nan_fill_integer_type(!sparse_array.array<4xi32, #sparse_array.format<[compressed], fill = nan : i32>>)

// -----

// expected-error@+1 {{'inf' needs a floating-point type, got 'i64'}}
func.func private @inf_fill_integer_type(!sparse_array.array<4xi64, #sparse_array.format<[compressed], fill = -inf : i64>>)

// -----

// -129 does not fit i8 (129 alone does, as an unsigned bit pattern).
// expected-error@+1 {{integer fill value out of range for 'i8'}}
func.func private @negative_fill_out_of_range(!sparse_array.array<4xi8, #sparse_array.format<[compressed], fill = -129 : i8>>)

// -----

// expected-error@+1 {{fill value must be an integer or floating-point constant, got "zero"}}
func.func private @fill_not_a_number(!sparse_array.array<4xf64, #sparse_array.format<[compressed], fill = "zero">>)

// -----

// expected-error@+1 {{expected a #sparse_array.format attribute, got [0, 1]}}
func.func private @format_not_a_format(!sparse_array.array<4x4xf64, [0, 1]>)

//===----------------------------------------------------------------------===//
// #sparse_array.format: verifier
//===----------------------------------------------------------------------===//

// -----

// expected-error@+1 {{level 0 ('dense') cannot be non-unique}}
func.func private @dense_nonunique(!sparse_array.array<4x4xf64, #sparse_array.format<[dense(nonunique), singleton]>>)

// -----

// expected-error@+1 {{level 1 ('dense') cannot be non-ordered}}
func.func private @dense_nonordered(!sparse_array.array<4x4xf64, #sparse_array.format<[dense, dense(nonordered)]>>)

// -----

// expected-error@+1 {{level 0 ('singleton') cannot be the outermost level}}
func.func private @singleton_outermost(!sparse_array.array<4xf64, #sparse_array.format<[singleton]>>)

// -----

// expected-error@+1 {{level 1 ('singleton') must follow a compressed or non-unique level}}
func.func private @singleton_after_dense(!sparse_array.array<4x4xf64, #sparse_array.format<[dense, singleton]>>)

// -----

// A unique singleton parent is branchless: one child per entry cannot add
// anything below it.
// expected-error@+1 {{level 2 ('singleton') must follow a compressed or non-unique level}}
func.func private @singleton_after_unique_singleton(!sparse_array.array<4x4x4xf64, #sparse_array.format<[compressed(nonunique), singleton, singleton]>>)

// -----

// The diagonal level (DIA) reads its parent's coordinate off a full level.
// expected-error@+1 {{level 0 ('diagonal') must follow a full (dense) level}}
func.func private @diagonal_outermost(!sparse_array.array<4xf64, #sparse_array.format<[diagonal]>>)

// -----

// expected-error@+1 {{level 1 ('diagonal') must follow a full (dense) level}}
func.func private @diagonal_after_compressed(!sparse_array.array<4x4xf64, #sparse_array.format<[compressed, diagonal]>>)

// -----

// expected-error@+1 {{level 1 ('diagonal') cannot be non-ordered}}
func.func private @diagonal_nonordered(!sparse_array.array<4x4xf64, #sparse_array.format<[dense, diagonal(nonordered)]>>)

// -----

// ELL's slots are counted per position of a full parent.
// expected-error@+1 {{level 1 ('ellpack') must follow a full (dense) level}}
func.func private @ellpack_after_compressed(!sparse_array.array<4x4xf64, #sparse_array.format<[compressed, ellpack]>>)

// -----

// expected-error@+1 {{level 1 ('ellpack') cannot be non-unique}}
func.func private @ellpack_nonunique(!sparse_array.array<4x4xf64, #sparse_array.format<[dense, ellpack(nonunique)]>>)

// -----

// expected-error@+1 {{level 1 ('compressed') cannot follow the non-unique level above it; only a level that accepts duplicates (e.g. singleton) can}}
func.func private @compressed_after_nonunique(!sparse_array.array<4x4xf64, #sparse_array.format<[compressed(nonunique), compressed]>>)


// -----

// A loose level's segment belongs to one parent position.
// expected-error@+1 {{level 1 ('loose_compressed') cannot follow the non-unique level above it}}
func.func private @loose_after_nonunique(!sparse_array.array<4x4xf64, #sparse_array.format<[compressed(nonunique), loose_compressed]>>)
// -----

// A hashed level's positions are hash slots, filled out of order: only a
// level that computes its positions from them (a full one) goes below.
// expected-error@+1 {{level 1 ('singleton') cannot follow a level in hash order ('hashed'); only a full level can}}
func.func private @singleton_after_hashed(!sparse_array.array<4x4xf64, #sparse_array.format<[hashed, singleton]>>)

// -----

// expected-error@+1 {{level 0 ('hashed') cannot be non-unique}}
func.func private @hashed_nonunique(!sparse_array.array<4xf64, #sparse_array.format<[hashed(nonunique)]>>)

// -----

// N:M structured: at most m entries in a block of m.
// expected-error@+1 {{level 2 ('structured') needs 1 <= n <= m, got n = 5, m = 4}}
func.func private @structured_n_above_m(!sparse_array.array<4x8xf64, #sparse_array.format<[dense, dense, structured[5, 4]], order = [0, 1, 1], blocks = [1, 4]>>)

// -----

// expected-error@+1 {{level 1 ('structured') must follow a full (dense) level}}
func.func private @structured_after_compressed(!sparse_array.array<4x4xf64, #sparse_array.format<[compressed, structured[2, 4]]>>)

// -----

// expected-error@+1 {{level 1 ('structured') cannot be non-ordered}}
func.func private @structured_nonordered(!sparse_array.array<4x4xf64, #sparse_array.format<[dense, structured[2, 4](nonordered)]>>)

// -----

// expected-error@+1 {{innermost level 1 cannot be non-unique: stored entries must have distinct coordinates}}
func.func private @innermost_nonunique(!sparse_array.array<4x4xf64, #sparse_array.format<[compressed(nonunique), singleton(nonunique)]>>)

// -----

// expected-error@+1 {{order must be a permutation of [0, 2), got [1, 1]}}
func.func private @order_not_permutation(!sparse_array.array<4x4xf64, #sparse_array.format<[dense, compressed], order = [1, 1]>>)

// -----

// expected-error@+1 {{order must be a permutation of [0, 2), got [0]}}
func.func private @order_too_short(!sparse_array.array<4x4xf64, #sparse_array.format<[dense, compressed], order = [0]>>)

// -----

// expected-error@+1 {{pos_width must be 32 or 64, got 16}}
func.func private @pos_width_16(!sparse_array.array<4xf64, #sparse_array.format<[compressed], pos_width = 16>>)

// -----

// expected-error@+1 {{crd_width must be 32 or 64, got 8}}
func.func private @crd_width_8(!sparse_array.array<4xf64, #sparse_array.format<[compressed], crd_width = 8>>)

//===----------------------------------------------------------------------===//
// !sparse_array.array
//===----------------------------------------------------------------------===//

// -----

// expected-error@+1 {{element type must be a signless integer of 1, 8, 16, 32 or 64 bits or one of f16, bf16, f32, f64, got 'index'}}
func.func private @element_index(!sparse_array.array<4xindex>)

// -----

// expected-error@+1 {{element type must be a signless integer of 1, 8, 16, 32 or 64 bits or one of f16, bf16, f32, f64, got 'ui32'}}
func.func private @element_unsigned(!sparse_array.array<4xui32>)

// -----

// expected-error@+1 {{element type must be a signless integer of 1, 8, 16, 32 or 64 bits or one of f16, bf16, f32, f64, got 'i4'}}
func.func private @element_i4(!sparse_array.array<4xi4>)

// -----

// expected-error@+1 {{element type must be a signless integer of 1, 8, 16, 32 or 64 bits or one of f16, bf16, f32, f64, got 'complex<f64>'}}
func.func private @element_complex(!sparse_array.array<4xcomplex<f64>>)

// -----

// expected-error@+1 {{block size of dimension 1 must be positive}}
func.func private @block_zero(!sparse_array.array<4x4xf64, #sparse_array.format<[dense, compressed, dense], order = [0, 1, 0], blocks = [2, 0]>>)

// -----

// expected-error@+1 {{blocks of size 1 only: omit 'blocks'}}
func.func private @blocks_all_one(!sparse_array.array<4x4xf64, #sparse_array.format<[dense, compressed], blocks = [1, 1]>>)

// -----

// expected-error@+1 {{a format with blocks 2 dimensions, 1 of them blocked, has 3 levels, got 4}}
func.func private @blocks_level_count(!sparse_array.array<4x4xf64, #sparse_array.format<[dense, compressed, dense, dense], order = [0, 1, 0, 1], blocks = [2, 1]>>)

// -----

// expected-error@+1 {{a format with blocks needs an order naming each blocked dimension twice (its block, then its place in the block)}}
func.func private @blocks_without_order(!sparse_array.array<4x4xf64, #sparse_array.format<[dense, compressed, dense, dense], blocks = [2, 2]>>)

// -----

// expected-error@+1 {{order names dimension 2 of 2}}
func.func private @blocks_order_out_of_range(!sparse_array.array<4x4xf64, #sparse_array.format<[dense, compressed, dense, dense], order = [0, 1, 0, 2], blocks = [2, 2]>>)

// -----

// expected-error@+1 {{order names dimension 0 (block size 2) 1 times; expected 2}}
func.func private @blocks_order_once(!sparse_array.array<4x4xf64, #sparse_array.format<[dense, compressed, dense, dense], order = [0, 1, 1, 1], blocks = [2, 2]>>)

// -----

// expected-error@+1 {{format has 1 levels but the array has rank 2}}
func.func private @levels_rank_mismatch(!sparse_array.array<4x4xf64, #sparse_array.format<[compressed]>>)

// -----

// expected-error@+1 {{format has blocks for 2 dimensions but the array has rank 3}}
func.func private @blocks_rank_mismatch(!sparse_array.array<4x4x4xf64, #sparse_array.format<[dense, compressed, dense, dense], order = [0, 1, 0, 1], blocks = [2, 2]>>)

// -----

// expected-error@+1 {{dimension 1 of size 6 is not a multiple of its block size 4}}
func.func private @blocks_not_dividing(!sparse_array.array<4x6xf64, #sparse_array.format<[dense, compressed, dense, dense], order = [0, 1, 0, 1], blocks = [2, 4]>>)

// -----

// An N:M structured level is the place in a block of m.
// expected-error@+1 {{level 2 ('structured') must have extent 8, got 4}}
func.func private @structured_other_block(!sparse_array.array<4x8xf64, #sparse_array.format<[dense, dense, structured[2, 8]], order = [0, 1, 1], blocks = [1, 4]>>)

// -----

// expected-error@+1 {{format has 1 levels but the array has rank 0}}
func.func private @scalar_with_levels(!sparse_array.array<f64, #sparse_array.format<[dense]>>)

// -----

// expected-error@+1 {{fill value type 'f32' does not match element type 'f64'}}
func.func private @fill_type_mismatch(!sparse_array.array<4xf64, #sparse_array.format<[compressed], fill = 1.0 : f32>>)

// -----

// An untyped integer literal is i64; the element type is not assumed.
// expected-error@+1 {{fill value type 'i64' does not match element type 'i32'}}
func.func private @fill_untyped_integer(!sparse_array.array<4xi32, #sparse_array.format<[compressed], fill = 7>>)

// -----

// expected-error@+1 {{dimension 1 of size 4294967297 does not fit 32-bit coordinates (crd_width)}}
func.func private @dimension_exceeds_crd_width(!sparse_array.array<4x4294967297xf64, #sparse_array.format<[dense, compressed], crd_width = 32>>)

//===----------------------------------------------------------------------===//
// #sparse_array.lattice: parser and verifier
//===----------------------------------------------------------------------===//

// -----

// expected-error@+1 {{expected 'produce'}}
func.func private @lattice_point_kind() attributes {l = #sparse_array.lattice<loop 0, present [0], coiterate [0], points [{0} keep]>}

// -----

// expected-error@+1 {{input 63 is beyond the lattice limit}}
func.func private @lattice_point_input_limit() attributes {l = #sparse_array.lattice<loop 0, present [0], coiterate [0], points [{63} produce]>}

// -----

// expected-error@+1 {{input 70 is beyond the lattice limit}}
func.func private @lattice_present_limit() attributes {l = #sparse_array.lattice<loop 0, present [70], coiterate [], points []>}

// -----

// expected-error@+1 {{'present' and 'coiterate' must list inputs in increasing order, each once}}
func.func private @lattice_unordered_inputs() attributes {l = #sparse_array.lattice<loop 0, present [1, 0], coiterate [], points []>}

// -----

// expected-error@+1 {{coiterated input 2 is not present}}
func.func private @lattice_coiterated_not_present() attributes {l = #sparse_array.lattice<loop 0, present [0, 1], coiterate [2], points []>}

// -----

// expected-error@+1 {{point 1 lists an input that is not coiterated}}
func.func private @lattice_point_not_coiterated() attributes {l = #sparse_array.lattice<loop 0, present [0, 1], coiterate [0], points [{0} produce, {1} produce]>}

// -----

// expected-error@+1 {{point 0 is empty}}
func.func private @lattice_empty_point() attributes {l = #sparse_array.lattice<loop 0, present [0], coiterate [0], points [{} produce]>}

// -----

// expected-error@+1 {{point 1 is not included in the root (the first point)}}
func.func private @lattice_point_outside_root() attributes {l = #sparse_array.lattice<loop 0, present [0, 1], coiterate [0, 1], points [{0} produce, {1} produce]>}

// -----

// expected-error@+1 {{point 1 repeats point 0}}
func.func private @lattice_repeated_point() attributes {l = #sparse_array.lattice<loop 0, present [0], coiterate [0], points [{0} produce, {0} omit]>}

// -----

// expected-error@+1 {{points must be ordered by decreasing size}}
func.func private @lattice_point_order() attributes {l = #sparse_array.lattice<loop 0, present [0, 1], coiterate [0, 1], points [{0, 1, U} produce, {0} produce, {1, U} produce]>}

// -----

// expected-error@+1 {{a merged loop needs lattice points}}
func.func private @lattice_merged_nothing() attributes {l = #sparse_array.lattice<loop 0, present [0], coiterate [0], points [], merged>}

// -----

// expected-error@+1 {{a branchless loop needs a lattice whose root coiterates two or more inputs, without U, and is neither linear nor merged}}
func.func private @lattice_branchless_one() attributes {l = #sparse_array.lattice<loop 0, present [0], coiterate [0], points [{0} produce], branchless>}

// -----

// expected-error@+1 {{a branchless loop's points must be every non-empty subset of the root's inputs, each 'produce' but the root}}
func.func private @lattice_branchless_omit() attributes {l = #sparse_array.lattice<loop 0, present [0, 1], coiterate [0, 1], points [{0, 1} produce, {0} omit, {1} produce], branchless>}

// -----

// expected-error@+1 {{expected 'merged', 'branchless' or 'sequence'}}
func.func private @lattice_merged_keyword() attributes {l = #sparse_array.lattice<loop 0, present [0], coiterate [0], points [{0} produce], mergd>}

// -----

// expected-error@+1 {{a linear coiteration needs coiterated inputs}}
func.func private @lattice_linear_nothing() attributes {l = #sparse_array.lattice<loop 0, present [0], coiterate [], linear>}

// -----

// expected-error@+1 {{expected '>'}}
func.func private @lattice_linear_points() attributes {l = #sparse_array.lattice<loop 0, present [0], coiterate [0], linear points [{0} produce]>}

// -----

// expected-error@+1 {{malformed sequence expression "slice(s0, 1"}}
func.func private @lattice_sequence_malformed() attributes {l = #sparse_array.lattice<loop 0, present [0], coiterate [0], points [{0} produce], sequence "slice(s0, 1">}

// -----

// expected-error@+1 {{the sequence reads input 1, which is not coiterated}}
func.func private @lattice_sequence_input() attributes {l = #sparse_array.lattice<loop 0, present [0, 1], coiterate [0], points [{0} produce], sequence "union(s0, slice(s1, 0, 4, 2))">}

//===----------------------------------------------------------------------===//
// #sparse_array.parallel: verifier
//===----------------------------------------------------------------------===//

// -----

// expected-error@+1 {{parallel mode must be "outer", "ranges" or "none", not "inner"}}
func.func private @parallel_mode() attributes {p = #sparse_array.parallel<"inner", min_extent = 4>}

// -----

// expected-error@+1 {{ranges of stored coordinates assemble a sparse result in parts, not in two phases}}
func.func private @parallel_ranges_two_phase() attributes {p = #sparse_array.parallel<"ranges", min_extent = 4, balance = 0, two_phase>}

// -----

// expected-error@+1 {{a parallel loop needs min_extent >= 1}}
func.func private @parallel_min_extent() attributes {p = #sparse_array.parallel<"outer">}

// -----

// expected-error@+1 {{a parallel loop has no reason to stay sequential}}
func.func private @parallel_with_reason() attributes {p = #sparse_array.parallel<"outer", min_extent = 4, reason = "tiny">}

// -----

// expected-error@+1 {{a sequential kernel's plan says why (reason)}}
func.func private @sequential_without_reason() attributes {p = #sparse_array.parallel<"none">}

// -----

// expected-error@+1 {{min_extent applies to parallel loops only}}
func.func private @sequential_min_extent() attributes {p = #sparse_array.parallel<"none", min_extent = 4, reason = "sparse result">}

// -----

// expected-error@+1 {{min_work applies to parallel loops only}}
func.func private @sequential_min_work() attributes {p = #sparse_array.parallel<"none", min_work = 4, reason = "sparse result">}

// -----

// expected-error@+1 {{min_work counts stored values: it is in [0, 2^31)}}
func.func private @negative_min_work() attributes {p = #sparse_array.parallel<"outer", min_extent = 4, min_work = -1>}

// -----

// expected-error@+1 {{balance names an input of a parallel loop}}
func.func private @sequential_balance() attributes {p = #sparse_array.parallel<"none", balance = 0, reason = "sparse result">}

// -----

// expected-error@+1 {{two_phase assembles the result of a parallel loop}}
func.func private @sequential_two_phase() attributes {p = #sparse_array.parallel<"none", two_phase, reason = "sparse result">}

// -----

// expected-error@+1 {{parts assembles the result of a parallel loop}}
func.func private @sequential_parts() attributes {p = #sparse_array.parallel<"none", parts, reason = "sparse result">}

// -----

// expected-error@+1 {{a result is assembled in two phases or in parts, not both}}
func.func private @two_phase_parts() attributes {p = #sparse_array.parallel<"outer", min_extent = 4, two_phase, parts>}

// -----

// expected-error@+1 {{chained places the parts of a parallel outer loop (with parts)}}
func.func private @chained_without_parts() attributes {p = #sparse_array.parallel<"outer", min_extent = 4, chained>}
