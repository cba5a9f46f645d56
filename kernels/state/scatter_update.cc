#include "kernels/state/scatter_update.h"

#include <algorithm>
#include <cstdint>
#include <string>
#include <type_traits>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "core/status_macros.h"
#include "core/types.h"
#include "kernels/framework/array_shapes.h"
#include "kernels/framework/index_values.h"

namespace rill {
namespace {

// InvalidArgument "Integer division by zero" when an integer kDiv has a zero update.
absl::Status CheckDivisor(ScatterOp op, const Tensor& updates) {
  if (op != ScatterOp::kDiv) return absl::OkStatus();
  return VisitDataType(updates.dtype(), [&](auto tag) -> absl::Status {
    using T = typename decltype(tag)::type;
    if constexpr (std::is_integral_v<T> && !std::is_same_v<T, bool>) {
      const T* u = updates.flat<T>().data();
      if (std::find(u, u + updates.NumElements(), T(0)) != u + updates.NumElements()) {
        return absl::InvalidArgumentError("Integer division by zero");
      }
    }
    return absl::OkStatus();
  });
}

// dst[t] = dst[t] (op) src[t * src_step] for t < n, in params' dtype.
absl::Status CombineSlices(ScatterOp op, const Tensor& updates, Tensor* params,
                           const std::vector<int64_t>& dst_offsets,
                           const std::vector<int64_t>& src_offsets, int64_t n, bool scalar) {
  return VisitDataType(params->dtype(), [&](auto tag) -> absl::Status {
    using T = typename decltype(tag)::type;
    T* p = params->flat<T>().data();
    const T* u = updates.flat<T>().data();
    for (size_t i = 0; i < dst_offsets.size(); ++i) {
      if (dst_offsets[i] < 0) continue;
      T* dst = p + dst_offsets[i];
      const T* src = u + (scalar ? 0 : src_offsets[i]);
      for (int64_t t = 0; t < n; ++t) dst[t] = ScatterCombine<T>(op, dst[t], src[scalar ? 0 : t]);
    }
    return absl::OkStatus();
  });
}

}  // namespace

absl::Status ValidateScatter(const Tensor& params, const Tensor& indices, const Tensor& updates) {
  const TensorShape& ps = params.shape();
  const TensorShape& is = indices.shape();
  const TensorShape& us = updates.shape();
  if (ps.rank() < 1) {
    return absl::InvalidArgumentError(
        absl::StrCat("params must be at least 1-D, got shape ", ps.DebugString()));
  }
  bool ok = us.rank() == 0;
  if (!ok && us.rank() == is.rank() + ps.rank() - 1) {
    ok = true;
    for (int d = 0; ok && d < is.rank(); ++d) ok = us.dim(d) == is.dim(d);
    for (int d = 1; ok && d < ps.rank(); ++d) ok = ps.dim(d) == us.dim(d - 1 + is.rank());
  }
  if (!ok) {
    return absl::InvalidArgumentError(absl::StrCat(
        "Must have updates.shape = indices.shape + params.shape[1:] or updates.shape = [], got ",
        "updates.shape ", us.DebugString(), ", indices.shape ", is.DebugString(), ", params.shape ",
        ps.DebugString()));
  }
  return absl::OkStatus();
}

absl::Status ApplyScatter(ScatterOp op, const Tensor& indices, const Tensor& updates,
                          Tensor* params) {
  RILL_RETURN_IF_ERROR(CheckDivisor(op, updates));
  const std::vector<int64_t> idx = IndexValues(indices);
  const int64_t rows = params->shape().dim(0);
  const int64_t row = rows > 0 ? params->NumElements() / rows : 0;
  // Rows up to the first bad index are updated, as TensorFlow's loop does.
  size_t good = 0;
  while (good < idx.size() && idx[good] >= 0 && idx[good] < rows) ++good;
  std::vector<int64_t> dst(good), src(good);
  for (size_t i = 0; i < good; ++i) {
    dst[i] = idx[i] * row;
    src[i] = static_cast<int64_t>(i) * row;
  }
  RILL_RETURN_IF_ERROR(
      CombineSlices(op, updates, params, dst, src, row, updates.shape().rank() == 0));
  if (good < idx.size()) {
    return absl::InvalidArgumentError(
        absl::StrCat("indices", IndexCoordinates(indices.shape(), static_cast<int64_t>(good)),
                     " = ", idx[good], " is not in [0, ", rows, ")"));
  }
  return absl::OkStatus();
}

absl::Status ApplyScatterNd(ScatterOp op, const Tensor& indices, const Tensor& updates,
                            bool ignore_bad_indices, Tensor* params) {
  const TensorShape& ps = params->shape();
  const TensorShape& is = indices.shape();
  const TensorShape& us = updates.shape();
  if (ps.rank() < 1) {
    return absl::InvalidArgumentError(
        absl::StrCat("Output must be at least 1-D, got shape: ", ps.DebugString()));
  }
  if (is.rank() < 1) {
    return absl::InvalidArgumentError(
        absl::StrCat("Indices shape must have rank at least one. Found:", is.DebugString()));
  }
  const bool empty_ok =
      (indices.NumElements() == 0 && updates.NumElements() == 0) ||
      (ps.num_elements() != 0 && indices.NumElements() != 0 && updates.NumElements() != 0);
  if (!empty_ok) {
    return absl::InvalidArgumentError(absl::StrCat(
        "Indices and updates specified for empty output.  indices shape: ", is.DebugString()));
  }
  RILL_RETURN_IF_ERROR(CheckScatterNdShapes(is, us, ps.dims()));
  const int64_t k = is.dim(is.rank() - 1);
  if (indices.NumElements() == 0) return absl::OkStatus();
  if (k < 1 || k > 7) {
    return absl::InvalidArgumentError(absl::StrCat(
        "Only indices.shape[-1] values between 1 and 7 are currently supported.  Requested "
        "rank: ",
        k));
  }
  RILL_RETURN_IF_ERROR(CheckDivisor(op, updates));
  std::vector<int64_t> strides(static_cast<size_t>(ps.rank()), 1);
  for (int d = ps.rank() - 2; d >= 0; --d) strides[d] = strides[d + 1] * ps.dim(d + 1);
  const int64_t slice = strides[k - 1];
  const std::vector<int64_t> idx = IndexValues(indices);
  const int64_t n = static_cast<int64_t>(idx.size()) / k;
  std::vector<int64_t> dst(static_cast<size_t>(n)), src(static_cast<size_t>(n));
  for (int64_t i = 0; i < n; ++i) {
    int64_t off = 0;
    for (int64_t j = 0; j < k; ++j) {
      const int64_t v = idx[i * k + j];
      if (v < 0 || v >= ps.dim(static_cast<int>(j))) {
        off = -1;
        break;
      }
      off += v * strides[j];
    }
    if (off < 0 && !ignore_bad_indices) {
      const auto first = idx.begin() + i * k;
      return absl::InvalidArgumentError(
          absl::StrCat("indices[", i, "] = [", absl::StrJoin(first, first + k, ", "),
                       "] does not index into shape ", ps.DebugString()));
    }
    dst[i] = off;
    src[i] = i * slice;
  }
  return CombineSlices(op, updates, params, dst, src, slice, false);
}

}  // namespace rill
