#include "graph/builder/initializer.h"

#include <vector>

#include "absl/strings/str_cat.h"

namespace rill {

Initializer::Initializer(std::initializer_list<Initializer> components) {
  if (components.size() == 0) {
    status_ = absl::InvalidArgumentError(
        "Initializer list is empty: its dtype cannot be known (use a Tensor for an empty "
        "constant)");
    return;
  }
  const Initializer& first = *components.begin();
  for (const Initializer& c : components) {
    if (!c.status().ok()) {
      status_ = c.status();
      return;
    }
    if (c.tensor().dtype() != first.tensor().dtype()) {
      status_ = absl::InvalidArgumentError(absl::StrCat(
          "Initializer list components should all have the same type; got ",
          DataTypeString(first.tensor().dtype()), " and ", DataTypeString(c.tensor().dtype())));
      return;
    }
    if (c.tensor().shape() != first.tensor().shape()) {
      status_ = absl::InvalidArgumentError(absl::StrCat(
          "Initializer list components should all have the same shape; got ",
          first.tensor().shape().DebugString(), " and ", c.tensor().shape().DebugString()));
      return;
    }
  }
  std::vector<int64_t> dims = {static_cast<int64_t>(components.size())};
  for (int64_t d : first.tensor().shape().dims()) dims.push_back(d);
  absl::StatusOr<TensorShape> shape = TensorShape::FromDims(dims);
  if (!shape.ok()) {
    status_ = shape.status();
    return;
  }
  const DataType dtype = first.tensor().dtype();
  Tensor out(dtype, *shape);
  const int64_t per_component = first.tensor().NumElements();
  status_ = VisitDataType(dtype, [&](auto tag) -> absl::Status {
    using T = typename decltype(tag)::type;
    absl::Span<T> dst = out.flat<T>();
    int64_t offset = 0;
    for (const Initializer& c : components) {
      absl::Span<const T> src = c.tensor().flat<T>();
      for (int64_t i = 0; i < per_component; ++i) dst[offset + i] = src[i];
      offset += per_component;
    }
    return absl::OkStatus();
  });
  if (status_.ok()) tensor_ = out;
}

}  // namespace rill
