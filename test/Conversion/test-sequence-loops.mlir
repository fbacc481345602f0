// RUN: sa-opt %s --sparse-array-test-sequence-loops --canonicalize --cse --split-input-file --verify-diagnostics | FileCheck %s
// The loop structure the sequence lattices and iterators emit (seed 001
// §6.3, Fig. 15 and 23a).

!sv = !sparse_array.array<8xf64, #sparse_array.format<[compressed]>>
!dv8 = !sparse_array.array<8xf64, #sparse_array.format<[dense]>>
!dv = !sparse_array.array<?xf64, #sparse_array.format<[dense]>>

// A union: one loop over both (least coordinate, cases for a ∪ b, a, b),
// then one per operand with the positions reached.
// CHECK-LABEL: func.func private @union
// CHECK:       %[[L:.*]]:2 = scf.while
// CHECK:         arith.andi
// CHECK:         scf.condition
// CHECK:         arith.minui
// CHECK:         scf.if
// CHECK:         } else {
// CHECK:           scf.if
// CHECK:           } else {
// CHECK:             scf.if
// CHECK:       scf.while (%{{.*}} = %[[L]]#0)
// CHECK:       scf.while (%{{.*}} = %[[L]]#1)
// CHECK-NOT:   scf.while
// CHECK:       return
func.func private @union(%a: !sv, %b: !sv) -> !dv
    attributes {sparse_array.test_sequence = "union(s0, s1)"}

// -----

!sv = !sparse_array.array<8xf64, #sparse_array.format<[compressed]>>
!dv8 = !sparse_array.array<8xf64, #sparse_array.format<[dense]>>
!dv = !sparse_array.array<?xf64, #sparse_array.format<[dense]>>

// An intersection with a dense operand: one loop over a alone; d is
// located at a's coordinate (its values read there, no loop over d).
// CHECK-LABEL: func.func private @locate
// CHECK:       scf.while (%{{.*}} = %{{.*}}) : (index) -> index
// CHECK:         memref.load
// CHECK-NOT:   scf.while
// CHECK:       return
func.func private @locate(%a: !sv, %d: !dv8) -> !dv
    attributes {sparse_array.test_sequence = "intersect(s0, d1)"}

// -----

!sv = !sparse_array.array<8xf64, #sparse_array.format<[compressed]>>
!dv = !sparse_array.array<?xf64, #sparse_array.format<[dense]>>

// A concatenation is fissioned: a's loop, then b's loop whose coordinate
// is shifted by |a| = 8 (seed 001 §6.2.2, footnote 4; a static size
// folds to a constant).
// CHECK-LABEL: func.func private @concat
// CHECK:       %[[N:.*]] = arith.constant 8 : index
// CHECK:       scf.while
// CHECK-NOT:     arith.addi %{{.*}}, %[[N]]
// CHECK:       scf.while
// CHECK:         arith.addi %{{.*}}, %[[N]]
// CHECK-NOT:   scf.while
func.func private @concat(%a: !sv, %b: !sv) -> !dv
    attributes {sparse_array.test_sequence = "concat(s0, s1)"}

// -----

!sv = !sparse_array.array<8xf64, #sparse_array.format<[compressed]>>
!dv = !sparse_array.array<?xf64, #sparse_array.format<[dense]>>
// expected-error@+1 {{malformed sparse_array.test_sequence}}
func.func private @malformed(%a: !sv) -> !dv
    attributes {sparse_array.test_sequence = "union(s0"}

// -----

!sv = !sparse_array.array<8xf64, #sparse_array.format<[compressed]>>
!dv = !sparse_array.array<?xf64, #sparse_array.format<[dense]>>
// expected-error@+1 {{leaf d0 says dense but the level is compressed}}
func.func private @density(%a: !sv) -> !dv
    attributes {sparse_array.test_sequence = "d0"}

// -----

!csr = !sparse_array.array<2x4xf64, #sparse_array.format<[dense, compressed]>>
!dv = !sparse_array.array<?xf64, #sparse_array.format<[dense]>>
// expected-error@+1 {{leaf s0.1 needs the level above it in the expression}}
func.func private @parent(%a: !csr) -> !dv
    attributes {sparse_array.test_sequence = "s0.1"}

// -----

!sv = !sparse_array.array<8xf64, #sparse_array.format<[compressed]>>
!dv = !sparse_array.array<?xf64, #sparse_array.format<[dense]>>
// expected-error@+1 {{no iterator for not(s0) yet}}
func.func private @complement(%a: !sv) -> !dv
    attributes {sparse_array.test_sequence = "not(s0)"}

// -----

!sv = !sparse_array.array<8xf64, #sparse_array.format<[compressed]>>
!dv = !sparse_array.array<?xf64, #sparse_array.format<[dense]>>
// expected-error@+1 {{leaf s1 names no argument}}
func.func private @argument(%a: !sv) -> !dv
    attributes {sparse_array.test_sequence = "s1"}
