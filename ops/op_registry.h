// The op registry: one declaration per op (inputs, outputs, attrs with types, defaults and
// allowed values, stateful flag, shape function), written declaratively next to its family:
//
//   REGISTER_OP("MatMul")
//       .Input("a: T")
//       .Input("b: T")
//       .Output("product: T")
//       .Attr("transpose_a: bool = false")
//       .Attr("T: {half, bfloat16, float, double, int32, int64}")
//       .SetShapeFn(MatMulShape);
//
// Spec strings follow TensorFlow's OpDef notation: inputs/outputs "name: T", "name: float",
// "name: N * T", "name: Ref(T)", "name: Tlist" (a list(type) attr); attrs "name: type",
// "name: {float, int32}", "name: {'A', 'B'}" (a string with allowed values), "name: int >= 1",
// "name: bool = false", "name: list(type) >= 0",
// "name: shape = { unknown_rank: true }" (defaults in AttrValue text-format spelling).
//
// Registration happens during static initialization; a malformed spec or a duplicate name aborts
// the process at start-up with a message naming the op (a programming error, not user input).
// Lookups are thread-safe. Ops whose names start with '_' are runtime-internal and hidden from
// ListOps(/*include_internal=*/false).
#ifndef RILL_OPS_OP_REGISTRY_H_
#define RILL_OPS_OP_REGISTRY_H_

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "core/mutex.h"
#include "ops/shape_inference.h"
#include "proto/node_def.pb.h"
#include "proto/op_def.pb.h"

namespace rill {

struct OpRegistration {
  OpDef op_def;
  ShapeFn shape_fn;           // never null after registration (defaults to shape_fns::Unknown)
  bool has_shape_fn = false;  // SetShapeFn was called (every op Rill ships sets one)
};

class OpDefBuilder {
 public:
  explicit OpDefBuilder(std::string name);
  OpDefBuilder& Input(std::string spec);
  OpDefBuilder& Output(std::string spec);
  OpDefBuilder& Attr(std::string spec);
  OpDefBuilder& SetIsStateful();
  OpDefBuilder& SetIsCommutative();
  OpDefBuilder& SetAllowsUninitializedInput();
  OpDefBuilder& SetShapeFn(ShapeFn fn);
  OpDefBuilder& Doc(std::string summary);

  // Parses the specs. InvalidArgument naming the op and the spec that does not parse.
  absl::StatusOr<OpRegistration> Finalize() const;

 private:
  std::string name_;
  std::vector<std::string> inputs_, outputs_, attrs_;
  bool stateful_ = false, commutative_ = false, allows_uninitialized_ = false;
  std::string summary_;
  ShapeFn shape_fn_;
};

class OpRegistry {
 public:
  // The process-wide registry every REGISTER_OP writes into. Never destroyed.
  static OpRegistry* Global();

  // AlreadyExists for a second op with the same name.
  absl::Status Register(OpRegistration registration);
  // nullptr when unknown. The pointer stays valid for the registry's life.
  const OpRegistration* LookUp(absl::string_view op) const;
  // NotFound with TensorFlow's text: "Op type not registered 'X' in binary running on Rill. ...".
  absl::StatusOr<const OpRegistration*> LookUpOrError(absl::string_view op) const;
  // Sorted op names.
  std::vector<std::string> ListOps(bool include_internal) const;

 private:
  mutable rill::Mutex mu_;
  std::map<std::string, std::unique_ptr<OpRegistration>, std::less<>> ops_ ABSL_GUARDED_BY(mu_);
};

// Dtypes of `node`'s outputs (refs as refs), with attr defaults taken from its registered op.
// NotFound "Op type not registered ..." for an unknown op; InvalidArgument for missing attrs.
absl::StatusOr<std::vector<DataType>> OutputTypesForNode(const NodeDef& node);

namespace op_registry_internal {
// Finalizes and registers into the global registry; aborts on error (start-up misuse).
struct OpRegistrar {
  OpRegistrar(const OpDefBuilder& builder);  // NOLINT: implicit, for the macro
};
}  // namespace op_registry_internal

#define RILL_OP_CONCAT_INNER_(a, b) a##b
#define RILL_OP_CONCAT_(a, b) RILL_OP_CONCAT_INNER_(a, b)
#define REGISTER_OP(name)                                                 \
  static const ::rill::op_registry_internal::OpRegistrar RILL_OP_CONCAT_( \
      rill_op_registrar_, __COUNTER__) ABSL_ATTRIBUTE_UNUSED = ::rill::OpDefBuilder(name)

}  // namespace rill

#endif  // RILL_OPS_OP_REGISTRY_H_
