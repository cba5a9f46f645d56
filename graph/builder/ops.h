// Rill. Typed wrappers, one per op Rill registers (ops/*.cc), over OpBuilder. One style throughout:
//   - a function named as the op, taking the Scope, then the inputs (Output, or a list of them),
//     then the required attrs the inputs do not determine (dtype, shape);
//   - optional attrs in a `<Op>Attrs` value with chainable setters named as TensorFlow's C++ API
//     names them: ops::MatMul(scope, a, b, ops::MatMulAttrs().TransposeA(true));
//   - returns the Output (one output), std::vector<Output> (IdentityN), or the Operation (ops
//     without outputs: NoOp, Assign*VariableOp);
//   - the node is named after the op type ("MatMul", "MatMul_1", ...) unless the scope has an op
//     name; ops::Variable (VariableV2) is named "Variable" by default, as in TensorFlow.
//
//   Scope root = Scope::NewRootScope();
//   Output a = ops::Const(root.WithOpName("a"), {{1.f, 2.f, 3.f}, {4.f, 5.f, 6.f}});
//   Output b = ops::Const<float>(root.WithOpName("b"), {1, 2, 3, 4, 5, 6}, {3, 2});
//   Output c = ops::MatMul(root, a, b);
//   Output sum = ops::AddN(root.WithDevice("/cpu:0"), {c, c});
//   Output w = ops::Variable(root.WithOpName("w"), PartialTensorShape({2, 2}), DT_FLOAT);
//   Output init = ops::Assign(root, w, ops::Const(root.WithOpName("zeros"), 0.f, {2, 2}));
//
// Errors (dtype mismatches, bad initializers, ...) are recorded in the scope's status naming the
// node, and the wrapper returns an invalid Output / Operation; see op_builder.h. Wrappers are
// thread-safe to the extent Scope is.
#ifndef RILL_GRAPH_BUILDER_OPS_H_
#define RILL_GRAPH_BUILDER_OPS_H_

#include <string>
#include <vector>

#include "absl/types/span.h"
#include "core/partial_tensor_shape.h"
#include "core/tensor.h"
#include "core/tensor_shape.h"
#include "graph/builder/array_nn_ops.h"
#include "graph/builder/control_flow_ops.h"
#include "graph/builder/dataset_ops.h"
#include "graph/builder/grad_ops.h"
#include "graph/builder/image_codec_ops.h"
#include "graph/builder/image_ops.h"
#include "graph/builder/index_ops.h"
#include "graph/builder/initializer.h"
#include "graph/builder/input.h"
#include "graph/builder/io_ops.h"
#include "graph/builder/legacy_ops.h"
#include "graph/builder/linalg_ops.h"
#include "graph/builder/list_ops.h"
#include "graph/builder/lookup_ops.h"
#include "graph/builder/math_ops.h"
#include "graph/builder/nn_ops.h"
#include "graph/builder/parsing_ops.h"
#include "graph/builder/pool_norm_ops.h"
#include "graph/builder/quantize_ops.h"
#include "graph/builder/ragged_text_ops.h"
#include "graph/builder/random_ops.h"
#include "graph/builder/rnn_ops.h"
#include "graph/builder/scope.h"
#include "graph/builder/sparse_ops.h"
#include "graph/builder/spectral_ops.h"
#include "graph/builder/string_ops.h"
#include "graph/builder/tensor_array_ops.h"
#include "graph/builder/training_ops.h"

namespace rill {
namespace ops {

// --- Constants and feeds (ops/array_ops.cc) ---------------------------------------------------

// Const from a value or nested initializer list; the shape follows the nesting (initializer.h).
// The value attr lists every element in the dtype's typed field (float_val, int_val, ...).
Output Const(const Scope& scope, const Initializer& value);

// Const of `shape` from row-major `values`. A single value fills the whole shape and is stored
// once, as TensorFlow Python stores tf.zeros / tf.fill constants; otherwise values.size() must
// equal shape.num_elements() (InvalidArgument "Expected 6 values for a Const of shape [2,3], got
// 4").
Output ConstOfShape(const Scope& scope, const Tensor& values, const TensorShape& shape);
template <typename T>
Output Const(const Scope& scope, const std::vector<T>& values, const TensorShape& shape) {
  return ConstOfShape(
      scope, Tensor::FromVector<T>(values, TensorShape({static_cast<int64_t>(values.size())})),
      shape);
}
// Const of `shape` filled with `value` (stored once): ops::Const(scope, 0.f, {2, 2}).
template <typename T, typename = std::enable_if_t<builder_internal::IsTensorElement<T>::value>>
Output Const(const Scope& scope, const T& value, const TensorShape& shape) {
  return ConstOfShape(scope, Tensor::Scalar<T>(value), shape);
}

struct PlaceholderAttrs {
  // The shape a fed value must have; unknown rank by default.
  PlaceholderAttrs Shape(const PartialTensorShape& x) const {
    PlaceholderAttrs r = *this;
    r.shape = x;
    return r;
  }
  PartialTensorShape shape;
};
Output Placeholder(const Scope& scope, DataType dtype, const PlaceholderAttrs& attrs = {});
// Shorthand for Placeholder(scope, dtype, PlaceholderAttrs().Shape(shape)).
Output Placeholder(const Scope& scope, DataType dtype, const PartialTensorShape& shape);

// `input` unless fed; a fed value must have `shape`.
Output PlaceholderWithDefault(const Scope& scope, const Input& input,
                              const PartialTensorShape& shape);

// --- Plumbing (ops/array_ops.cc)
// ------------------------------------------------------------------

Output Identity(const Scope& scope, const Input& input);
// The reference `input` itself (a ref-typed output, e.g. a VariableV2), not its value.
Output RefIdentity(const Scope& scope, const Input& input);
// One output per input; empty when the build failed.
std::vector<Output> IdentityN(const Scope& scope, absl::Span<const Output> inputs);
// Does nothing; used as a target that groups control dependencies.
Operation NoOp(const Scope& scope);

// --- Math (ops/math_ops.cc)
// -----------------------------------------------------------------------

struct MatMulAttrs {
  MatMulAttrs TransposeA(bool x) const {
    MatMulAttrs r = *this;
    r.transpose_a = x;
    return r;
  }
  MatMulAttrs TransposeB(bool x) const {
    MatMulAttrs r = *this;
    r.transpose_b = x;
    return r;
  }
  bool transpose_a = false;
  bool transpose_b = false;
};
Output MatMul(const Scope& scope, const Input& a, const Input& b, const MatMulAttrs& attrs = {});

Output Add(const Scope& scope, const Input& x, const Input& y);
Output AddV2(const Scope& scope, const Input& x, const Input& y);
// Sum of the inputs (all of one dtype and shape); N is their count.
Output AddN(const Scope& scope, absl::Span<const Output> inputs);

// --- Reference variables (ops/state_ops.cc) ---------------------------------------------------

struct VariableAttrs {
  VariableAttrs Container(const std::string& x) const {
    VariableAttrs r = *this;
    r.container = x;
    return r;
  }
  VariableAttrs SharedName(const std::string& x) const {
    VariableAttrs r = *this;
    r.shared_name = x;
    return r;
  }
  std::string container;
  std::string shared_name;
};
// A VariableV2 node (default name "Variable"); its output is a reference (e.g. float_ref).
Output Variable(const Scope& scope, const PartialTensorShape& shape, DataType dtype,
                const VariableAttrs& attrs = {});
// The deprecated "Variable" op (graphs from before VariableV2); same attrs and output.
Output LegacyVariable(const Scope& scope, const PartialTensorShape& shape, DataType dtype,
                      const VariableAttrs& attrs = {});

struct AssignAttrs {
  AssignAttrs ValidateShape(bool x) const {
    AssignAttrs r = *this;
    r.validate_shape = x;
    return r;
  }
  AssignAttrs UseLocking(bool x) const {
    AssignAttrs r = *this;
    r.use_locking = x;
    return r;
  }
  bool validate_shape = true;
  bool use_locking = true;
};
// ref = value; returns the reference. Colocated with `ref`'s producer (see scope.h).
Output Assign(const Scope& scope, const Input& ref, const Input& value,
              const AssignAttrs& attrs = {});

struct AssignAddAttrs {
  AssignAddAttrs UseLocking(bool x) const {
    AssignAddAttrs r = *this;
    r.use_locking = x;
    return r;
  }
  bool use_locking = false;
};
using AssignSubAttrs = AssignAddAttrs;
// ref += value / ref -= value; returns the reference. Colocated with `ref`'s producer.
Output AssignAdd(const Scope& scope, const Input& ref, const Input& value,
                 const AssignAddAttrs& attrs = {});
Output AssignSub(const Scope& scope, const Input& ref, const Input& value,
                 const AssignSubAttrs& attrs = {});

// Scatter updates of a reference variable, in place: ScatterAdd & co. combine rows
// ref[indices[i], ...] with updates[i, ...]; ScatterNdAdd & co. combine the slices picked by index
// tuples (indices [..., K]). Each returns the reference; colocated with `ref`'s producer.
struct ScatterUpdateAttrs {
  ScatterUpdateAttrs UseLocking(bool x) const {
    ScatterUpdateAttrs r = *this;
    r.use_locking = x;
    return r;
  }
  bool use_locking = true;
};
using ScatterAddAttrs = AssignAddAttrs;  // use_locking = false, as every combining scatter
Output ScatterUpdate(const Scope& scope, const Input& ref, const Input& indices,
                     const Input& updates, const ScatterUpdateAttrs& attrs = {});
Output ScatterAdd(const Scope& scope, const Input& ref, const Input& indices, const Input& updates,
                  const ScatterAddAttrs& attrs = {});
Output ScatterSub(const Scope& scope, const Input& ref, const Input& indices, const Input& updates,
                  const ScatterAddAttrs& attrs = {});
Output ScatterMul(const Scope& scope, const Input& ref, const Input& indices, const Input& updates,
                  const ScatterAddAttrs& attrs = {});
Output ScatterDiv(const Scope& scope, const Input& ref, const Input& indices, const Input& updates,
                  const ScatterAddAttrs& attrs = {});
Output ScatterMax(const Scope& scope, const Input& ref, const Input& indices, const Input& updates,
                  const ScatterAddAttrs& attrs = {});
Output ScatterMin(const Scope& scope, const Input& ref, const Input& indices, const Input& updates,
                  const ScatterAddAttrs& attrs = {});
Output ScatterNdUpdate(const Scope& scope, const Input& ref, const Input& indices,
                       const Input& updates, const ScatterUpdateAttrs& attrs = {});
Output ScatterNdAdd(const Scope& scope, const Input& ref, const Input& indices,
                    const Input& updates, const ScatterAddAttrs& attrs = {});
Output ScatterNdSub(const Scope& scope, const Input& ref, const Input& indices,
                    const Input& updates, const ScatterAddAttrs& attrs = {});

// --- Resource variables (ops/state_ops.cc) ----------------------------------------------------

struct VarHandleOpAttrs {
  VarHandleOpAttrs Container(const std::string& x) const {
    VarHandleOpAttrs r = *this;
    r.container = x;
    return r;
  }
  VarHandleOpAttrs SharedName(const std::string& x) const {
    VarHandleOpAttrs r = *this;
    r.shared_name = x;
    return r;
  }
  VarHandleOpAttrs DebugName(const std::string& x) const {
    VarHandleOpAttrs r = *this;
    r.debug_name = x;
    return r;
  }
  VarHandleOpAttrs AllowedDevices(const std::vector<std::string>& x) const {
    VarHandleOpAttrs r = *this;
    r.allowed_devices = x;
    return r;
  }
  std::string container;
  std::string shared_name;
  std::string debug_name;
  std::vector<std::string> allowed_devices;
};
// A DT_RESOURCE handle to a variable of `dtype` and `shape`.
Output VarHandleOp(const Scope& scope, DataType dtype, const PartialTensorShape& shape,
                   const VarHandleOpAttrs& attrs = {});
Output ReadVariableOp(const Scope& scope, const Input& resource, DataType dtype);

struct AssignVariableOpAttrs {
  AssignVariableOpAttrs ValidateShape(bool x) const {
    AssignVariableOpAttrs r = *this;
    r.validate_shape = x;
    return r;
  }
  bool validate_shape = false;
};
// The variable's dtype attr is the value's dtype.
Operation AssignVariableOp(const Scope& scope, const Input& resource, const Input& value,
                           const AssignVariableOpAttrs& attrs = {});
Operation AssignAddVariableOp(const Scope& scope, const Input& resource, const Input& value);
Operation AssignSubVariableOp(const Scope& scope, const Input& resource, const Input& value);
// A bool scalar: whether the variable has been assigned.
// Scatter updates of a resource variable (the ref forms' arithmetic; the new value is swapped in
// under the variable's lock). Return the step's Operation (no outputs) for control edges.
Operation ResourceScatterUpdate(const Scope& scope, const Input& resource, const Input& indices,
                                const Input& updates);
Operation ResourceScatterAdd(const Scope& scope, const Input& resource, const Input& indices,
                             const Input& updates);
Operation ResourceScatterSub(const Scope& scope, const Input& resource, const Input& indices,
                             const Input& updates);
Operation ResourceScatterMul(const Scope& scope, const Input& resource, const Input& indices,
                             const Input& updates);
Operation ResourceScatterDiv(const Scope& scope, const Input& resource, const Input& indices,
                             const Input& updates);
Operation ResourceScatterMax(const Scope& scope, const Input& resource, const Input& indices,
                             const Input& updates);
Operation ResourceScatterMin(const Scope& scope, const Input& resource, const Input& indices,
                             const Input& updates);
Operation ResourceScatterNdUpdate(const Scope& scope, const Input& resource, const Input& indices,
                                  const Input& updates);
Operation ResourceScatterNdAdd(const Scope& scope, const Input& resource, const Input& indices,
                               const Input& updates);
// Rows (ResourceGather, along axis batch_dims) or index-tuple slices (ResourceGatherNd) of a
// resource variable's current value.
struct ResourceGatherAttrs {
  ResourceGatherAttrs BatchDims(int64_t x) const {
    ResourceGatherAttrs r = *this;
    r.batch_dims = x;
    return r;
  }
  int64_t batch_dims = 0;
};
Output ResourceGather(const Scope& scope, const Input& resource, const Input& indices,
                      DataType dtype, const ResourceGatherAttrs& attrs = {});
Output ResourceGatherNd(const Scope& scope, const Input& resource, const Input& indices,
                        DataType dtype);
// Drops the resource variable; a missing one is NotFound unless ignore_lookup_error.
Operation DestroyResourceOp(const Scope& scope, const Input& resource,
                            bool ignore_lookup_error = true);
// The variable's shape as an int32 (or int64) vector.
Output VariableShape(const Scope& scope, const Input& resource, DataType out_type = DT_INT32);
Output VarIsInitializedOp(const Scope& scope, const Input& resource);

}  // namespace ops
}  // namespace rill

#endif  // RILL_GRAPH_BUILDER_OPS_H_
