// Rill. The gradient function registry: for each op type TensorFlow differentiates, the function
// that builds the gradients of its inputs from the gradients of its outputs, in the graph being
// built (graph/builder/scope.h). AddSymbolicGradients (gradients.h) calls them in reverse order.
//
//   absl::Status MatMulGrad(const Scope& scope, const GradOp& op,
//                           absl::Span<const Output> grad_outputs, std::vector<Output>*
//                           grad_inputs);
//   RILL_REGISTER_GRADIENT("MatMul", MatMulGrad);
//   RILL_REGISTER_NO_GRADIENT("Shape");   // differentiable dtype, but no gradient flows through
//
// A gradient function receives one gradient per output of the op (an invalid Output for an
// output no gradient reached whose dtype carries none; float outputs without a gradient get
// zeros) and fills `grad_inputs` with one entry per data input: the gradient, or an invalid
// Output where none flows (an integer index input, a shape). It builds under `scope`, whose name
// scope is "gradients/<op name>_grad" and whose device/colocation are the caller's choice. Errors
// are returned (or recorded in the scope) and name the op.
//
// The functions live in graph/gradients/<family>_grad.cc, one file per file of ops/ (math_grad.cc
// for ops/math_ops.cc), each registration beside its gradient function.
// Thread safety: registration happens during static initialization; lookups are read-only after.
#ifndef RILL_GRAPH_GRADIENTS_GRAD_REGISTRY_H_
#define RILL_GRAPH_GRADIENTS_GRAD_REGISTRY_H_

#include <functional>
#include <map>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "absl/types/span.h"
#include "graph/builder/scope.h"
#include "proto/node_def.pb.h"

namespace rill {

// The forward op whose gradient is built: its NodeDef (with attr defaults) and its data inputs
// and outputs as Outputs of the graph.
struct GradOp {
  NodeDef node;
  std::vector<Output> inputs;
  std::vector<Output> outputs;

  const std::string& name() const { return node.name(); }
  const std::string& type() const { return node.op(); }
  // Attr accessors: InvalidArgument "Node 'x' (Op) has no attr 'y'" when absent or of another kind.
  absl::StatusOr<bool> GetBool(absl::string_view attr) const;
  absl::StatusOr<int64_t> GetInt(absl::string_view attr) const;
  absl::StatusOr<float> GetFloat(absl::string_view attr) const;
  absl::StatusOr<std::string> GetString(absl::string_view attr) const;
  absl::StatusOr<DataType> GetType(absl::string_view attr) const;
  absl::StatusOr<std::vector<int64_t>> GetInts(absl::string_view attr) const;
  // Bool attr with a default when absent.
  bool BoolOr(absl::string_view attr, bool fallback) const;
};

using GradFunc = std::function<absl::Status(const Scope& scope, const GradOp& op,
                                            absl::Span<const Output> grad_outputs,
                                            std::vector<Output>* grad_inputs)>;

class GradRegistry {
 public:
  static GradRegistry* Global();

  // Registers `fn` for `op`; a second registration of the same op is a programming error and
  // aborts at start-up with the op's name.
  void Register(absl::string_view op, GradFunc fn);
  // Registers `op` as having no gradient (TensorFlow's NotDifferentiable).
  void RegisterNoGradient(absl::string_view op);

  // The gradient function of `op`; nullptr with *no_gradient true for a NotDifferentiable op;
  // nullptr with *no_gradient false when nothing is registered.
  const GradFunc* Find(absl::string_view op, bool* no_gradient) const;
  // Op types with a gradient function, and those registered NotDifferentiable, sorted.
  std::vector<std::string> OpsWithGradient() const;
  std::vector<std::string> OpsWithoutGradient() const;

 private:
  struct Entry {
    GradFunc fn;  // empty for NotDifferentiable
  };
  std::map<std::string, Entry, std::less<>> entries_;
};

namespace grad_registry_internal {
struct Registrar {
  Registrar(const char* op, GradFunc fn) { GradRegistry::Global()->Register(op, std::move(fn)); }
  explicit Registrar(const char* op) { GradRegistry::Global()->RegisterNoGradient(op); }
};
}  // namespace grad_registry_internal

#define RILL_GRAD_CONCAT_INNER(a, b) a##b
#define RILL_GRAD_CONCAT(a, b) RILL_GRAD_CONCAT_INNER(a, b)
#define RILL_REGISTER_GRADIENT(op, fn)                                                    \
  static ::rill::grad_registry_internal::Registrar RILL_GRAD_CONCAT(rill_grad_registrar_, \
                                                                    __COUNTER__)(op, fn)
#define RILL_REGISTER_NO_GRADIENT(op)                                                     \
  static ::rill::grad_registry_internal::Registrar RILL_GRAD_CONCAT(rill_grad_registrar_, \
                                                                    __COUNTER__)(op)

}  // namespace rill

#endif  // RILL_GRAPH_GRADIENTS_GRAD_REGISTRY_H_
