#include "kernels/state/variable.h"

#include <cstring>
#include <string>
#include <type_traits>

#include "absl/strings/str_cat.h"
#include "core/status_macros.h"

namespace rill {

std::string Var::DebugString() const {
  rill::ReaderMutexLock lock(&mu_);
  return absl::StrCat(
      "Var<", DataTypeString(dtype_), " ",
      tensor_.IsInitialized() ? tensor_.shape().DebugString() : std::string("uninitialized"), ">");
}

Tensor MakeResourceHandleTensor(const std::string& container, const std::string& name) {
  return Tensor::Scalar<std::string>(absl::StrCat(container, "/", name));
}

absl::StatusOr<ResourceHandle> ResourceHandleFromTensor(const Tensor& t) {
  if (t.dtype() != DT_STRING || t.shape().rank() != 0) {
    return absl::InvalidArgumentError(
        absl::StrCat("Expected a resource handle (a scalar string \"<container>/<name>\"), got ",
                     DataTypeString(t.dtype()), " tensor of shape ", t.shape().DebugString()));
  }
  const std::string& s = t.flat<std::string>()[0];
  const size_t slash = s.find('/');
  if (slash == std::string::npos) {
    return absl::InvalidArgumentError(
        absl::StrCat("Malformed resource handle \"", s, "\": expected \"<container>/<name>\""));
  }
  return ResourceHandle{s.substr(0, slash), s.substr(slash + 1)};
}

absl::Status ApplyDenseUpdate(DenseUpdate op, const Tensor& lhs, const Tensor& rhs, Tensor* out) {
  return VisitDataType(lhs.dtype(), [&](auto tag) -> absl::Status {
    using T = typename decltype(tag)::type;
    if constexpr (std::is_same_v<T, bool> || std::is_same_v<T, std::string>) {
      return absl::InvalidArgumentError(absl::StrCat(
          "Cannot add to or subtract from a variable of type ", DataTypeString(lhs.dtype())));
    } else {
      auto x = lhs.flat<T>();
      auto y = rhs.flat<T>();
      auto z = out->flat<T>();
      const bool add = op == DenseUpdate::kAdd;
      for (size_t i = 0; i < z.size(); ++i) {
        if constexpr (std::is_same_v<T, half> || std::is_same_v<T, bfloat16>) {
          const float a = static_cast<float>(x[i]), b = static_cast<float>(y[i]);
          z[i] = T(add ? a + b : a - b);
        } else if constexpr (std::is_integral_v<T>) {
          using U = std::make_unsigned_t<T>;  // wrap, never UB
          const U a = static_cast<U>(x[i]), b = static_cast<U>(y[i]);
          z[i] = static_cast<T>(static_cast<U>(add ? a + b : a - b));
        } else {
          z[i] = add ? x[i] + y[i] : x[i] - y[i];
        }
      }
      return absl::OkStatus();
    }
  });
}

void CopyTensorElements(const Tensor& from, Tensor* to) {
  if (from.dtype() == DT_STRING) {
    auto src = from.flat<std::string>();
    auto dst = to->flat<std::string>();
    for (size_t i = 0; i < src.size(); ++i) dst[i] = src[i];
  } else if (from.TotalBytes() > 0) {
    std::memcpy(to->raw_data(), from.raw_data(), from.TotalBytes());
  }
}

absl::Status UninitializedVariableError(const ResourceHandle& h, const absl::Status& cause) {
  std::string message = absl::StrCat("Error while reading resource variable ", h.name,
                                     " from Container: ", h.container,
                                     ". This could mean that the variable was uninitialized.");
  if (!cause.ok()) {
    // TensorFlow's spelling of the cause's code ("Not found: Resource localhost/v ...").
    const std::string code = cause.code() == absl::StatusCode::kNotFound
                                 ? "Not found"
                                 : absl::StatusCodeToString(cause.code());
    absl::StrAppend(&message, " ", code, ": ", cause.message());
  }
  return absl::FailedPreconditionError(message);
}

absl::StatusOr<std::shared_ptr<Var>> LookupResourceVar(ResourceMgr& resources,
                                                       const Tensor& handle_tensor,
                                                       ResourceHandle* handle) {
  RILL_ASSIGN_OR_RETURN(*handle, ResourceHandleFromTensor(handle_tensor));
  absl::StatusOr<std::shared_ptr<Var>> var = resources.Lookup<Var>(handle->container, handle->name);
  if (!var.ok()) return UninitializedVariableError(*handle, var.status());
  return var;
}

absl::StatusOr<Tensor> SnapshotResourceVar(ResourceMgr& resources, const Tensor& handle_tensor,
                                           ResourceHandle* handle) {
  RILL_ASSIGN_OR_RETURN(*handle, ResourceHandleFromTensor(handle_tensor));
  RILL_ASSIGN_OR_RETURN(std::shared_ptr<Var> var,
                        resources.Lookup<Var>(handle->container, handle->name));
  rill::ReaderMutexLock lock(var->mu());
  if (!var->is_initialized()) return UninitializedVariableError(*handle, absl::OkStatus());
  return *var->tensor();
}

}  // namespace rill
