//===- ModuleImporter.h - Rewriting one module's functions ------*- C++ -*-===//
//
// The importer's driver (ImportSparseTensor.cpp) and its per-op rewrite
// (ImportOp.cpp) share this class. Private to lib/Import.
//
//===----------------------------------------------------------------------===//

#ifndef SPARSEARRAY_LIB_IMPORT_MODULEIMPORTER_H
#define SPARSEARRAY_LIB_IMPORT_MODULEIMPORTER_H

#include "Importer.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SetVector.h"

namespace mlir {
namespace sparse_array {
namespace import {

inline bool isTensor(Type t) { return isa<TensorType>(t); }

/// Tensor-valued before the import (function arguments are retyped in
/// place first).
inline bool wasTensor(Value v) {
  return isa<TensorType, ArrayType>(v.getType());
}

/// Rewrites one module's functions.
class ModuleImporter {
public:
  ModuleImporter(ModuleOp module, bool exactPrint)
      : module(module), functions(module), exactPrint(exactPrint) {}

  /// Imports every function of the module.
  LogicalResult run();

private:
  LogicalResult convertSignature(func::FuncOp func);
  LogicalResult importBody(func::FuncOp func);
  /// Imports the ops under `root` (and `root` itself when `includeRoot`),
  /// outer ones first; the ops replaced are added to `replaced`.
  LogicalResult importOps(Operation *root, bool includeRoot);
  /// Rewrites `op` (builder before it); sets `handled` when it did.
  LogicalResult importOp(Operation *op, OpBuilder &b, bool &handled);
  /// scf.for/while/if carrying tensors: operands, region arguments and
  /// results retyped to arrays in place (their bodies are imported next);
  /// sets `retyped` when `op` is one.
  LogicalResult retypeControlFlow(Operation *op, bool &retyped);
  /// The array of tensor value `v` as an operand of `user`.
  FailureOr<Value> arrayOf(Value v, Operation *user);
  /// `v` (a tensor of static shape) as a constant array of `value` (zero
  /// when null), made once where `v` is defined.
  FailureOr<Value> materializeSplat(Value v, TypedAttr value);
  /// What importOperands does with operands that are not tensors.
  enum class OtherOperands { Keep, Null, Drop };
  /// The arrays of `values`' tensors, in order, with the others kept,
  /// replaced by null or dropped.
  FailureOr<SmallVector<Value>> importOperands(ValueRange values,
                                               Operation *user,
                                               OtherOperands others);
  FailureOr<ArrayType> convert(Location loc, Type type) {
    return convertTensorType(loc, type);
  }
  OutputInit initOf(Value v);
  /// The tensor type `v` had before it was retyped to an array.
  RankedTensorType tensorTypeOf(Value v) {
    Type t = tensorTypes.lookup(v);
    return cast<RankedTensorType>(t ? t : v.getType());
  }

  ModuleOp module;
  FunctionTable functions;
  /// Print sparse_array's exact text instead of upstream's.
  bool exactPrint;
  /// Tensor value -> array value.
  DenseMap<Value, Value> arrays;
  /// The tensor types of function arguments retyped to arrays (storage
  /// details arrays do not keep: a COO region's array of structures).
  DenseMap<Value, Type> tensorTypes;
  /// Tensors that are a linalg.fill of a constant (materialized on demand).
  DenseMap<Value, TypedAttr> filled;
  /// Tensors without defined values (tensor.empty, alloc_tensor).
  DenseSet<Value> undefined;
  /// Arrays freed already (a dealloc of an alias must not free twice).
  DenseSet<Value> freed;
  /// Ops rewritten, erased (last first) once their function is imported.
  SmallVector<Operation *> replaced;
  /// getTensorFilename calls sparse_tensor.new read (erased once unused: the
  /// runner library that defines it is not needed).
  SetVector<Operation *> filenameCalls;
};

} // namespace import
} // namespace sparse_array
} // namespace mlir

#endif // SPARSEARRAY_LIB_IMPORT_MODULEIMPORTER_H
