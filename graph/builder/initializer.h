// Rill. Initializer: a constant tensor written as a C++ value or (nested) initializer list, the
// argument of ops::Const. The shape follows the nesting, TensorFlow C++'s Input::Initializer:
//
//   Initializer(3.f)                              // float scalar
//   Initializer({1, 2, 3})                        // int32 [3]
//   Initializer({{1.f, 2.f, 3.f}, {4.f, 5.f, 6.f}})  // float [2,3]
//   Initializer({"a", "b"})                       // string [2]
//   Initializer(tensor)                           // any Tensor
//
// C++ types map to dtypes as DataTypeToEnum does (float, double, int32_t, int64_t, bool,
// std::string / const char*, half, ...). Components of a nested list must all have the same dtype
// and shape; otherwise status() is InvalidArgument "Initializer list components should all have
// the same type" / "... the same shape" (TensorFlow's words), which ops::Const reports as its
// node's build error.
//
// A value type (the tensor's buffer is shared between copies); thread-compatible.
#ifndef RILL_GRAPH_BUILDER_INITIALIZER_H_
#define RILL_GRAPH_BUILDER_INITIALIZER_H_

#include <initializer_list>
#include <string>
#include <type_traits>
#include <vector>

#include "absl/status/status.h"
#include "core/tensor.h"
#include "core/tensor_shape.h"
#include "core/types.h"

namespace rill {
namespace builder_internal {
// True for C++ types DataTypeToEnum maps to a dtype.
template <typename T, typename = void>
struct IsTensorElement : std::false_type {};
template <typename T>
struct IsTensorElement<T, std::void_t<decltype(DataTypeToEnum<T>::value)>> : std::true_type {};
}  // namespace builder_internal

class Initializer {
 public:
  // A scalar.
  template <typename T,
            typename = std::enable_if_t<builder_internal::IsTensorElement<T>::value>>
  Initializer(const T& value)  // NOLINT: implicit, like TensorFlow's
      : tensor_(Tensor::Scalar<T>(value)) {}
  Initializer(const char* value)  // NOLINT
      : Initializer(std::string(value)) {}

  // A vector. (A template for const char* too, so that {{"a"}, {"b"}} nests instead of
  // brace-initializing each const char*.)
  template <typename T, typename = std::enable_if_t<builder_internal::IsTensorElement<T>::value ||
                                                    std::is_same<T, const char*>::value>>
  Initializer(std::initializer_list<T> values) {  // NOLINT
    const TensorShape shape({static_cast<int64_t>(values.size())});
    if constexpr (std::is_same<T, const char*>::value) {
      tensor_ = Tensor::FromVector<std::string>(
          std::vector<std::string>(values.begin(), values.end()), shape);
    } else {
      tensor_ = Tensor::FromVector<T>(std::vector<T>(values), shape);
    }
  }

  // One more dimension over components of equal dtype and shape.
  Initializer(std::initializer_list<Initializer> components);  // NOLINT

  Initializer(const Tensor& tensor)  // NOLINT
      : tensor_(tensor) {}

  // The tensor; DT_INVALID when !status().ok().
  const Tensor& tensor() const { return tensor_; }
  const absl::Status& status() const { return status_; }

 private:
  Tensor tensor_;
  absl::Status status_;
};

}  // namespace rill

#endif  // RILL_GRAPH_BUILDER_INITIALIZER_H_
