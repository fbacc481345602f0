// RUN: sa-opt %s | sa-opt | FileCheck %s
// RUN: sa-opt %s --verify-roundtrip > /dev/null
// Functions with properties, explicit algebras and cases; index-notation
// kernels (accesses, slices, applications, reductions); array-level ops.

#sv = #sparse_array.format<[compressed]>
#csr = #sparse_array.format<[dense, compressed]>
!vec = !sparse_array.array<8xi64, #sv>
!mat = !sparse_array.array<8x8xf64, #csr>

// CHECK-LABEL: sparse_array.func @gcd(
// CHECK-SAME: attributes {algebra = #sparse_array.algebra<union(0, 1), fills = [0 : i64, 0 : i64]>, commutative}
// CHECK: scf.while
// CHECK: yield %{{.*}} : i64
// CHECK: } case [0] {
// CHECK: ^bb0(%[[X:.*]]: i64, %{{.*}}: i64):
// CHECK: math.absi %[[X]]
// CHECK: } case [1] {
sparse_array.func @gcd(%x: i64, %y: i64) -> i64
    attributes {commutative,
                algebra = #sparse_array.algebra<union(0, 1), fills = [0 : i64, 0 : i64]>} {
  %ax = math.absi %x : i64
  %ay = math.absi %y : i64
  %r:2 = scf.while (%a = %ax, %b = %ay) : (i64, i64) -> (i64, i64) {
    %c0 = arith.constant 0 : i64
    %nz = arith.cmpi ne, %a, %c0 : i64
    scf.condition(%nz) %a, %b : i64, i64
  } do {
  ^bb0(%a: i64, %b: i64):
    %m = arith.remsi %b, %a : i64
    scf.yield %m, %a : i64, i64
  }
  yield %r#1 : i64
} case [0] {
^bb0(%x: i64, %y: i64):
  %a = math.absi %x : i64
  yield %a : i64
} case [1] {
^bb0(%x: i64, %y: i64):
  %a = math.absi %y : i64
  yield %a : i64
}

// CHECK-LABEL: sparse_array.func @bitwise_and(
// CHECK-SAME: annihilator = #sparse_array.annihilator<0 : i64>, associative, commutative, idempotent
sparse_array.func @bitwise_and(%x: i64, %y: i64) -> i64
    attributes {commutative, associative, idempotent,
                annihilator = #sparse_array.annihilator<0 : i64>} {
  %r = arith.andi %x, %y : i64
  sparse_array.yield %r : i64
}

// CHECK-LABEL: sparse_array.func @divide(
// CHECK-SAME: annihilator = #sparse_array.annihilator<0.0 : f64, positions = [0]>
sparse_array.func @divide(%x: f64, %y: f64) -> f64
    attributes {annihilator = #sparse_array.annihilator<0.0 : f64, positions = [0]>,
                identity = #sparse_array.identity<1.0 : f64, positions = [1]>} {
  %r = arith.divf %x, %y : f64
  sparse_array.yield %r : f64
}

// CHECK-LABEL: sparse_array.func @max(
// CHECK-SAME: identity = #sparse_array.identity<-inf : f64>
sparse_array.func @max(%x: f64, %y: f64) -> f64
    attributes {commutative, associative, idempotent,
                annihilator = #sparse_array.annihilator<inf : f64>,
                identity = #sparse_array.identity<-inf : f64>} {
  %r = arith.maximumf %x, %y : f64
  sparse_array.yield %r : f64
}

// CHECK-LABEL: sparse_array.func @add(
// CHECK-SAME: distributes_over = [@max]
sparse_array.func @add(%x: f64, %y: f64) -> f64
    attributes {commutative, associative, distributes_over = [@max],
                identity = #sparse_array.identity<-0.0 : f64>} {
  %r = arith.addf %x, %y : f64
  sparse_array.yield %r : f64
}

// CHECK-LABEL: sparse_array.func @logical_xor(
// CHECK-SAME: algebra = #sparse_array.algebra<intersect(union(0, 1), complement(intersect(0, 1))), fills = [0 : i1, 0 : i1]>
sparse_array.func @logical_xor(%x: i1, %y: i1) -> i1
    attributes {commutative, associative,
                algebra = #sparse_array.algebra<intersect(union(0, 1), complement(intersect(0, 1))),
                                                fills = [0 : i1, 0 : i1]>} {
  %r = arith.xori %x, %y : i1
  sparse_array.yield %r : i1
}

// CHECK-LABEL: sparse_array.func @everything_or_nothing(
// CHECK-SAME: algebra = #sparse_array.algebra<union(universe, empty, 0), fills = [nan : f32]>
sparse_array.func @everything_or_nothing(%x: f32) -> f32
    attributes {algebra = #sparse_array.algebra<union(universe, empty, 0), fills = [nan : f32]>} {
  sparse_array.yield %x : f32
}

// a(i) = bitwise_and(gcd(b(i), c(i)), d(i))
// CHECK-LABEL: func.func @fused_and_of_gcd(
// CHECK: sparse_array.kernel ins(%{{.*}}, %{{.*}}, %{{.*}} : !sparse_array.array<8xi64, #{{.*}}>, !sparse_array.array<8xi64, #{{.*}}>, !sparse_array.array<8xi64, #{{.*}}>) -> !sparse_array.array<8xi64, #{{.*}}> {
// CHECK: ^bb0(%[[I:[^:]*]]: index, %[[B:[^:]*]]: !sparse_array.array<8xi64, #{{.*}}>,
// CHECK: %[[BI:.*]] = sparse_array.access %[[B]][%[[I]]]
// CHECK: %[[G:.*]] = sparse_array.apply @gcd(%[[BI]], %{{.*}}) : (i64, i64) -> i64
// CHECK: sparse_array.apply @bitwise_and(%[[G]], %{{.*}})
// CHECK: sparse_array.yield
func.func @fused_and_of_gcd(%b: !vec, %c: !vec, %d: !vec) -> !vec {
  %a = sparse_array.kernel ins(%b, %c, %d : !vec, !vec, !vec) -> !vec {
  ^bb0(%i: index, %B: !vec, %C: !vec, %D: !vec):
    %bi = sparse_array.access %B[%i] : !vec
    %ci = sparse_array.access %C[%i] : !vec
    %di = sparse_array.access %D[%i] : !vec
    %g = sparse_array.apply @gcd(%bi, %ci) : (i64, i64) -> i64
    %r = sparse_array.apply @bitwise_and(%g, %di) : (i64, i64) -> i64
    sparse_array.yield %r : i64
  }
  return %a : !vec
}

// Column maxima planned as a scatter reduction (loops j, then i).
// CHECK-LABEL: func.func @column_max_scatter(
// CHECK: sparse_array.reduce_over [%{{.*}}] %{{.*}} with @max {plan = #sparse_array.reduction<strategy = idempotent, algebra = <0>>, scatter_loops = array<i32: 1, 0>} : f64
func.func @column_max_scatter(%A: !mat) -> !sparse_array.array<8xf64> {
  %y = sparse_array.kernel ins(%A : !mat) -> !sparse_array.array<8xf64> {
  ^bb0(%j: index, %i: index, %a: !mat):
    %aij = sparse_array.access %a[%i, %j] : !mat
    %m = sparse_array.reduce_over [%i] %aij with @max {scatter_loops = array<i32: 1, 0>, plan = #sparse_array.reduction<strategy = idempotent, algebra = #sparse_array.algebra<0>>} : f64
    sparse_array.yield %m : f64
  }
  return %y : !sparse_array.array<8xf64>
}

// y(i) = max(y0(i), max_j A(i, j)): a fold from a start value.
// CHECK-LABEL: func.func @row_max_from(
// CHECK: %[[S:.*]] = sparse_array.access %{{.*}}[%{{.*}}] : !sparse_array.array<8xf64>
// CHECK: sparse_array.reduce_over [%{{.*}}] %{{.*}} from %[[S]] with @max : f64
func.func @row_max_from(%A: !mat, %y0: !sparse_array.array<8xf64>) -> !sparse_array.array<8xf64> {
  %y = sparse_array.kernel ins(%A, %y0 : !mat, !sparse_array.array<8xf64>) -> !sparse_array.array<8xf64> {
  ^bb0(%i: index, %j: index, %a: !mat, %s: !sparse_array.array<8xf64>):
    %aij = sparse_array.access %a[%i, %j] : !mat
    %si = sparse_array.access %s[%i] : !sparse_array.array<8xf64>
    %m = sparse_array.reduce_over [%j] %aij from %si with @max : f64
    sparse_array.yield %m : f64
  }
  return %y : !sparse_array.array<8xf64>
}

// y(i) = max_j A(i, j) + 1, with slices of the operands and a constant.
// CHECK-LABEL: func.func @sliced_row_max(
// CHECK: sparse_array.access %{{.*}}[%[[I:.*]](0:8:2), %[[J:.*]](2:6)]
// CHECK: %[[M:.*]] = sparse_array.reduce_over [%[[J]]] %{{.*}} with @max : f64
// CHECK: arith.constant 1.0
func.func @sliced_row_max(%A: !mat) -> !sparse_array.array<4xf64> {
  %y = sparse_array.kernel ins(%A : !mat) -> !sparse_array.array<4xf64> {
  ^bb0(%i: index, %j: index, %a: !mat):
    %aij = sparse_array.access %a[%i(0:8:2), %j(2:6)] : !mat
    %m = sparse_array.reduce_over [%j] %aij with @max : f64
    %one = arith.constant 1.0 : f64
    %r = sparse_array.apply @add(%m, %one) : (f64, f64) -> f64
    sparse_array.yield %r : f64
  }
  return %y : !sparse_array.array<4xf64>
}

// The derived annotations print as attributes.
// CHECK-LABEL: func.func @annotated(
// CHECK: sparse_array.kernel ins({{.*}}) -> !sparse_array.array<8xi64> attributes {algebra = #sparse_array.algebra<0>, fill = #sparse_array.scalar<7 : i64>}
func.func @annotated(%b: !vec) -> !sparse_array.array<8xi64> {
  %a = sparse_array.kernel ins(%b : !vec) -> !sparse_array.array<8xi64>
      attributes {algebra = #sparse_array.algebra<0>, fill = #sparse_array.scalar<7 : i64>} {
  ^bb0(%i: index, %B: !vec):
    %bi = sparse_array.access %B[%i] : !vec
    sparse_array.yield %bi : i64
  }
  return %a : !sparse_array.array<8xi64>
}

// The coiteration plan: lattices with omitters and U.
// CHECK-LABEL: func.func @with_lattices(
// CHECK: lattices = [#sparse_array.lattice<loop 0, present [0, 1], coiterate [0, 1], points [{0, 1} omit, {0} produce, {1} produce]>]
// CHECK-LABEL: func.func @with_merged(
// CHECK: lattices = [#sparse_array.lattice<loop 0, present [0, 1], coiterate [0, 1], points [{0, 1} produce, {0} produce, {1} produce], merged>]
// CHECK-LABEL: func.func @with_branchless(
// CHECK: lattices = [#sparse_array.lattice<loop 0, present [0, 1], coiterate [0, 1], points [{0, 1} produce, {0} produce, {1} produce], branchless>]
// CHECK-LABEL: func.func @with_linear(
// CHECK: lattices = [#sparse_array.lattice<loop 0, present [0, 1], coiterate [0, 1], linear>]
// CHECK-LABEL: func.func @with_linear_universe(
// CHECK: lattices = [#sparse_array.lattice<loop 0, present [0, 1], coiterate [0, 1], linear U>]
// CHECK-LABEL: func.func @with_universe(
// CHECK: lattices = [#sparse_array.lattice<loop 0, present [0, 1], coiterate [0], points [{0, U} produce, {U} produce]>]
func.func @with_lattices(%b: !vec, %c: !vec) -> !vec {
  %a = sparse_array.kernel ins(%b, %c : !vec, !vec) -> !vec
      attributes {lattices = [#sparse_array.lattice<loop 0, present [0, 1], coiterate [0, 1],
                                                    points [{0, 1} omit, {0} produce, {1} produce]>]} {
  ^bb0(%i: index, %B: !vec, %C: !vec):
    %bi = sparse_array.access %B[%i] : !vec
    %ci = sparse_array.access %C[%i] : !vec
    %r = sparse_array.apply @bitwise_and(%bi, %ci) : (i64, i64) -> i64
    sparse_array.yield %r : i64
  }
  return %a : !vec
}
func.func @with_merged(%b: !vec, %c: !vec) -> !vec {
  %a = sparse_array.kernel ins(%b, %c : !vec, !vec) -> !vec
      attributes {lattices = [#sparse_array.lattice<loop 0, present [0, 1], coiterate [0, 1],
                                                    points [{0, 1} produce, {0} produce, {1} produce], merged>]} {
  ^bb0(%i: index, %B: !vec, %C: !vec):
    %bi = sparse_array.access %B[%i] : !vec
    %ci = sparse_array.access %C[%i] : !vec
    %r = sparse_array.apply @bitwise_and(%bi, %ci) : (i64, i64) -> i64
    sparse_array.yield %r : i64
  }
  return %a : !vec
}
func.func @with_branchless(%b: !vec, %c: !vec) -> !vec {
  %a = sparse_array.kernel ins(%b, %c : !vec, !vec) -> !vec
      attributes {lattices = [#sparse_array.lattice<loop 0, present [0, 1], coiterate [0, 1],
                                                    points [{0, 1} produce, {0} produce, {1} produce], branchless>]} {
  ^bb0(%i: index, %B: !vec, %C: !vec):
    %bi = sparse_array.access %B[%i] : !vec
    %ci = sparse_array.access %C[%i] : !vec
    %r = sparse_array.apply @bitwise_and(%bi, %ci) : (i64, i64) -> i64
    sparse_array.yield %r : i64
  }
  return %a : !vec
}
func.func @with_linear(%b: !vec, %c: !vec) -> !vec {
  %a = sparse_array.kernel ins(%b, %c : !vec, !vec) -> !vec
      attributes {lattices = [#sparse_array.lattice<loop 0, present [0, 1], coiterate [0, 1], linear>]} {
  ^bb0(%i: index, %B: !vec, %C: !vec):
    %bi = sparse_array.access %B[%i] : !vec
    %ci = sparse_array.access %C[%i] : !vec
    %r = sparse_array.apply @bitwise_and(%bi, %ci) : (i64, i64) -> i64
    sparse_array.yield %r : i64
  }
  return %a : !vec
}
func.func @with_linear_universe(%b: !vec, %c: !vec) -> !vec {
  %a = sparse_array.kernel ins(%b, %c : !vec, !vec) -> !vec
      attributes {lattices = [#sparse_array.lattice<loop 0, present [0, 1], coiterate [0, 1], linear U>]} {
  ^bb0(%i: index, %B: !vec, %C: !vec):
    %bi = sparse_array.access %B[%i] : !vec
    %ci = sparse_array.access %C[%i] : !vec
    %r = sparse_array.apply @bitwise_and(%bi, %ci) : (i64, i64) -> i64
    sparse_array.yield %r : i64
  }
  return %a : !vec
}
func.func @with_universe(%b: !vec, %c: !vec) -> !vec {
  %a = sparse_array.kernel ins(%b, %c : !vec, !vec) -> !vec
      attributes {lattices = [#sparse_array.lattice<loop 0, present [0, 1], coiterate [0],
                                                    points [{0, U} produce, {U} produce]>]} {
  ^bb0(%i: index, %B: !vec, %C: !vec):
    %bi = sparse_array.access %B[%i] : !vec
    %ci = sparse_array.access %C[%i] : !vec
    %r = sparse_array.apply @gcd(%bi, %ci) : (i64, i64) -> i64
    sparse_array.yield %r : i64
  }
  return %a : !vec
}

// Rank-0 access: a scalar array.
// CHECK-LABEL: func.func @scalar_kernel(
// CHECK: sparse_array.access %{{.*}}[] : !sparse_array.array<f64>
func.func @scalar_kernel(%s: !sparse_array.array<f64>) -> !sparse_array.array<f64> {
  %r = sparse_array.kernel ins(%s : !sparse_array.array<f64>) -> !sparse_array.array<f64> {
  ^bb0(%S: !sparse_array.array<f64>):
    %v = sparse_array.access %S[] : !sparse_array.array<f64>
    sparse_array.yield %v : f64
  }
  return %r : !sparse_array.array<f64>
}

// CHECK-LABEL: func.func @array_level(
// CHECK: sparse_array.map @add(%{{.*}}, %{{.*}}) : (!sparse_array.array<?x8xf64, #{{.*}}>, !sparse_array.array<8xf64>) -> !sparse_array.array<?x8xf64, #{{.*}}>
// CHECK: sparse_array.reduce @max %{{.*}} dims [1] : !sparse_array.array<?x8xf64, #{{.*}}> -> !sparse_array.array<?xf64>
func.func @array_level(%A: !sparse_array.array<?x8xf64, #csr>, %v: !sparse_array.array<8xf64>)
    -> !sparse_array.array<?xf64> {
  %s = sparse_array.map @add(%A, %v)
      : (!sparse_array.array<?x8xf64, #csr>, !sparse_array.array<8xf64>) -> !sparse_array.array<?x8xf64, #csr>
  %m = sparse_array.reduce @max %s dims [1]
      : !sparse_array.array<?x8xf64, #csr> -> !sparse_array.array<?xf64>
  return %m : !sparse_array.array<?xf64>
}

// CHECK-LABEL: func.func @inference_requests(
// CHECK: sparse_array.map @add(%{{.*}}, %{{.*}}) {infer_fill, infer_format}
func.func @inference_requests(%v: !sparse_array.array<8xf64>) -> !sparse_array.array<8xf64> {
  %s = sparse_array.map @add(%v, %v) {infer_fill, infer_format}
      : (!sparse_array.array<8xf64>, !sparse_array.array<8xf64>) -> !sparse_array.array<8xf64>
  return %s : !sparse_array.array<8xf64>
}

// A loop reading input 1 through a slice records its sequence expression.
// CHECK-LABEL: func.func @with_sequence(
// CHECK: lattices = [#sparse_array.lattice<loop 0, present [0, 1], coiterate [0, 1], points [{0, 1} produce, {0} produce, {1} produce], merged, sequence "union(s0, slice(s1, 1, 9, 2))">]
func.func @with_sequence(%b: !vec, %c: !sparse_array.array<10xi64, #sv>) -> !sparse_array.array<4xi64, #sv> {
  %a = sparse_array.kernel ins(%b, %c : !vec, !sparse_array.array<10xi64, #sv>) -> !sparse_array.array<4xi64, #sv>
      attributes {lattices = [#sparse_array.lattice<loop 0, present [0, 1], coiterate [0, 1],
                                                    points [{0, 1} produce, {0} produce, {1} produce], merged,
                                                    sequence "union(s0, slice(s1, 1, 9, 2))">]} {
  ^bb0(%i: index, %B: !vec, %C: !sparse_array.array<10xi64, #sv>):
    %bi = sparse_array.access %B[%i(0:4)] : !vec
    %ci = sparse_array.access %C[%i(1:9:2)] : !sparse_array.array<10xi64, #sv>
    %r = sparse_array.apply @bitwise_and(%bi, %ci) : (i64, i64) -> i64
    sparse_array.yield %r : i64
  }
  return %a : !sparse_array.array<4xi64, #sv>
}
