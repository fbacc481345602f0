// RUN: sa-run %s | FileCheck %s
// RUN: sa-run --bounds-checks --disable-openmp %s | FileCheck %s
// RUN: sa-opt %s --sparse-array-fuse --sparse-array-guard-exact-products --sparse-array-derive-algebra --sparse-array-build-lattices | FileCheck %s --check-prefix=PLAN
// y = min_j A(i, j) + x(j) and C = min_k A(i, k) + A(k, j) with the exact
// IEEE add (identity -0.0, no annihilator) and minimum, A stored with fill
// +inf (issue 56): inf + x is NaN for x = -inf or NaN, so the exact plan
// visits every point; under the guard (no -inf/NaN in either factor) the
// terms with a +inf factor are +inf, min's identity, and the copy runs over
// the stored entries only. Expected: the dense program (numpy's
// np.minimum.reduce(A + x, axis=1), A dense with inf where not stored):
//   A = [[1, inf, 2], [inf, inf, inf], [inf, 5, inf]]
//   x = [0, 1, 10]      guard holds:  y = [1, inf, 6]
//   x = [0, -inf, 10]   fails: y = [nan (inf - inf), nan, -inf]
//   x = [0, nan, 10]    fails: y = [nan, nan, nan]
//   A' = A with A'(1, 1) = -inf stored, x = [0, inf, 10]: fails:
//                       y = [1, nan (-inf + inf), inf]
//   A min.+ A (both factors fill +inf, guard holds):
//                       C = [[2, 7, 3], [inf]*3, [inf]*3]

// PLAN-LABEL: func.func @mxv(
// The guard stops at the first -inf or NaN:
// PLAN: apply @__sa_nan_or_minus_inf_f64
// PLAN: with @__sa_any_i1 {early_exit
// PLAN: scf.if
// The copy runs over A's stored entries (x is located); the exact plan over
// the union of A's and x's.
// PLAN: algebra = #sparse_array.algebra<0>
// PLAN: apply @__sa_add_f64_inf_absorbs
// PLAN: } else {
// PLAN: algebra = #sparse_array.algebra<union(0, 1)>
// PLAN: apply @add_f64
// PLAN-LABEL: func.func @mxm(
// PLAN: scf.if
// PLAN: apply @__sa_add_f64_inf_absorbs

// CHECK-LABEL: guard holds
// CHECK-NEXT: # fill: inf
// CHECK-NEXT: 1 2
// CHECK-NEXT: 3
// CHECK-NEXT: 1 1
// CHECK-NEXT: 3 6
// CHECK-LABEL: x holds -inf
// CHECK-NEXT: # fill: inf
// CHECK-NEXT: 1 3
// CHECK-NEXT: 3
// CHECK-NEXT: 1 {{-?nan}}
// CHECK-NEXT: 2 {{-?nan}}
// CHECK-NEXT: 3 -inf
// CHECK-LABEL: x holds nan
// CHECK-NEXT: # fill: inf
// CHECK-NEXT: 1 3
// CHECK-NEXT: 3
// CHECK-NEXT: 1 {{-?nan}}
// CHECK-NEXT: 2 {{-?nan}}
// CHECK-NEXT: 3 {{-?nan}}
// CHECK-LABEL: A stores -inf
// CHECK-NEXT: # fill: inf
// CHECK-NEXT: 1 2
// CHECK-NEXT: 3
// CHECK-NEXT: 1 1
// CHECK-NEXT: 2 {{-?nan}}
// CHECK-LABEL: A min.+ A
// CHECK-NEXT: # fill: inf
// CHECK-NEXT: 2 3
// CHECK-NEXT: 3 3
// CHECK-NEXT: 1 1 2
// CHECK-NEXT: 1 2 7
// CHECK-NEXT: 1 3 3

!A = !sparse_array.array<3x3xf64, #sparse_array.format<[dense, compressed], fill = inf : f64>>
!x = !sparse_array.array<3xf64>
!y = !sparse_array.array<3xf64, #sparse_array.format<[compressed], fill = inf : f64>>

sparse_array.func @add_f64(%x: f64, %y: f64) -> f64
    attributes {commutative, identity = #sparse_array.identity<-0.0 : f64>} {
  %r = arith.addf %x, %y : f64
  sparse_array.yield %r : f64
}
sparse_array.func @min_f64(%x: f64, %y: f64) -> f64
    attributes {commutative, associative, idempotent,
                identity = #sparse_array.identity<inf : f64>} {
  %r = arith.minimumf %x, %y : f64
  sparse_array.yield %r : f64
}

func.func @mxv(%a: !A, %x: !x) -> !y {
  %y = sparse_array.kernel ins(%a, %x : !A, !x) -> !y {
  ^bb0(%i: index, %j: index, %P: !A, %X: !x):
    %p = sparse_array.access %P[%i, %j] : !A
    %q = sparse_array.access %X[%j] : !x
    %s = sparse_array.apply @add_f64(%p, %q) : (f64, f64) -> f64
    %m = sparse_array.reduce_over [%j] %s with @min_f64 : f64
    sparse_array.yield %m : f64
  }
  return %y : !y
}

func.func @mxm(%a: !A, %b: !A) -> !A {
  %c = sparse_array.kernel ins(%a, %b : !A, !A) -> !A {
  ^bb0(%i: index, %j: index, %k: index, %P: !A, %Q: !A):
    %p = sparse_array.access %P[%i, %k] : !A
    %q = sparse_array.access %Q[%k, %j] : !A
    %s = sparse_array.apply @add_f64(%p, %q) : (f64, f64) -> f64
    %m = sparse_array.reduce_over [%k] %s with @min_f64 : f64
    sparse_array.yield %m : f64
  }
  return %c : !A
}

func.func private @sa_rt_print_str(!llvm.ptr)
func.func private @sa_rt_print_newline()
llvm.mlir.global internal constant @l1("guard holds\0A\00") {addr_space = 0 : i32}
llvm.mlir.global internal constant @l2("x holds -inf\0A\00") {addr_space = 0 : i32}
llvm.mlir.global internal constant @l3("x holds nan\0A\00") {addr_space = 0 : i32}
llvm.mlir.global internal constant @l4("A stores -inf\0A\00") {addr_space = 0 : i32}
llvm.mlir.global internal constant @l5("A min.+ A\0A\00") {addr_space = 0 : i32}

func.func @main() {
  %a = sparse_array.constant sparse<[[0, 0], [0, 2], [2, 1]], [1.0, 2.0, 5.0]> : tensor<3x3xf64> : !A
  %a2 = sparse_array.constant sparse<[[0, 0], [0, 2], [1, 1], [2, 1]], [1.0, 2.0, 0xFFF0000000000000, 5.0]> : tensor<3x3xf64> : !A
  %x1 = sparse_array.constant dense<[0.0, 1.0, 10.0]> : tensor<3xf64> : !x
  %x2 = sparse_array.constant dense<[0.0, 0xFFF0000000000000, 10.0]> : tensor<3xf64> : !x
  %x3 = sparse_array.constant dense<[0.0, 0x7FF8000000000000, 10.0]> : tensor<3xf64> : !x
  %x4 = sparse_array.constant dense<[0.0, 0x7FF0000000000000, 10.0]> : tensor<3xf64> : !x
  %s1 = llvm.mlir.addressof @l1 : !llvm.ptr
  func.call @sa_rt_print_str(%s1) : (!llvm.ptr) -> ()
  %y1 = func.call @mxv(%a, %x1) : (!A, !x) -> !y
  sparse_array.print %y1 : !y
  %s2 = llvm.mlir.addressof @l2 : !llvm.ptr
  func.call @sa_rt_print_str(%s2) : (!llvm.ptr) -> ()
  %y2 = func.call @mxv(%a, %x2) : (!A, !x) -> !y
  sparse_array.print %y2 : !y
  %s3 = llvm.mlir.addressof @l3 : !llvm.ptr
  func.call @sa_rt_print_str(%s3) : (!llvm.ptr) -> ()
  %y3 = func.call @mxv(%a, %x3) : (!A, !x) -> !y
  sparse_array.print %y3 : !y
  %s4 = llvm.mlir.addressof @l4 : !llvm.ptr
  func.call @sa_rt_print_str(%s4) : (!llvm.ptr) -> ()
  %y4 = func.call @mxv(%a2, %x4) : (!A, !x) -> !y
  sparse_array.print %y4 : !y
  %s5 = llvm.mlir.addressof @l5 : !llvm.ptr
  func.call @sa_rt_print_str(%s5) : (!llvm.ptr) -> ()
  %c = func.call @mxm(%a, %a) : (!A, !A) -> !A
  sparse_array.print %c : !A
  sparse_array.dealloc %y1 : !y
  sparse_array.dealloc %y2 : !y
  sparse_array.dealloc %y3 : !y
  sparse_array.dealloc %y4 : !y
  sparse_array.dealloc %c : !A
  return
}
