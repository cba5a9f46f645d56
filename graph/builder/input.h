// Rill. Input: what an ops:: wrapper takes for a tensor argument: an Output of the graph, or a
// literal that becomes a Const node (TensorFlow C++'s Input):
//
//   Output y = ops::Add(scope, x, {1.f, 2.f});          // x + Const [1, 2]
//   Output z = ops::Mul(scope, y, 3.f);                 // y * Const 3
//   Output m = ops::MatMul(scope, {{1.f, 2.f}}, w);     // Const [[1, 2]] x w
//
// A literal is anything an Initializer takes (a scalar, a nested brace list, a string, a Tensor);
// its Const is built, when the wrapper builds its node, in the wrapper's scope (same name scope,
// devices, control dependencies), named "Const" (suffixed when in use); its dtype is the
// literal's, so `Add(x, {1, 2})` with a float x is the dtype error TensorFlow gives. A malformed
// literal (ragged lists, mixed types) is the wrapper's node's build error.
//
// A value type; thread-compatible.
#ifndef RILL_GRAPH_BUILDER_INPUT_H_
#define RILL_GRAPH_BUILDER_INPUT_H_

#include <initializer_list>
#include <optional>
#include <type_traits>

#include "core/tensor.h"
#include "graph/builder/initializer.h"
#include "graph/builder/scope.h"

namespace rill {

class Input {
 public:
  Input(const Output& output) : output_(output) {}          // NOLINT: implicit, like TensorFlow's
  Input(const Initializer& literal) : literal_(literal) {}  // NOLINT
  Input(const Tensor& literal) : literal_(Initializer(literal)) {}  // NOLINT
  template <typename T, typename = std::enable_if_t<builder_internal::IsTensorElement<T>::value>>
  Input(const T& scalar) : literal_(Initializer(scalar)) {}     // NOLINT
  Input(const char* scalar) : literal_(Initializer(scalar)) {}  // NOLINT
  template <typename T, typename = std::enable_if_t<builder_internal::IsTensorElement<T>::value ||
                                                    std::is_same<T, const char*>::value>>
  Input(std::initializer_list<T> values) : literal_(Initializer(values)) {}  // NOLINT
  Input(std::initializer_list<Initializer> components)                       // NOLINT
      : literal_(Initializer(components)) {}

  // True for a literal (the Const is not built yet).
  bool is_literal() const { return literal_.has_value(); }
  // The Output given, or the Const built from the literal in `scope` (an invalid Output, with the
  // error recorded in the scope, for a malformed literal).
  Output ToOutput(const Scope& scope) const;

 private:
  Output output_;
  std::optional<Initializer> literal_;
};

}  // namespace rill

#endif  // RILL_GRAPH_BUILDER_INPUT_H_
