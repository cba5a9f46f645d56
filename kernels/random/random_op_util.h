// Input checks shared by the stateful and stateless random kernels, with TensorFlow's error texts
// (InvalidArgument):
//   RandomOutputShape(shape_t): "shape must be a vector of {int32,int64}, got shape [2,2]",
//     "Dimension -1 must be >= 0";
//   CheckRandomIntBoundsAreScalars, RandomIntBounds(minval, maxval): "minval must be 0-D, got shape
//   [1]",
//     "Need minval < maxval, got 5 >= 5".
// and fills of an allocated output tensor from a Philox stream (philox_fill.h):
//   FillFloatTensor (half, float, double), FillUniformIntTensor (int32, int64).
// Pure functions; thread-safe.
#ifndef RILL_KERNELS_RANDOM_RANDOM_OP_UTIL_H_
#define RILL_KERNELS_RANDOM_RANDOM_OP_UTIL_H_

#include <cstdint>
#include <utility>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "core/tensor.h"
#include "core/tensor_shape.h"
#include "kernels/framework/index_values.h"
#include "kernels/random/philox_fill.h"

namespace rill {
namespace random {

// The output shape a random op's 1-D int32/int64 `shape` input names.
inline absl::StatusOr<TensorShape> RandomOutputShape(const Tensor& shape_t) {
  if (shape_t.shape().rank() != 1) {
    return absl::InvalidArgumentError(absl::StrCat(
        "shape must be a vector of {int32,int64}, got shape ", shape_t.shape().DebugString()));
  }
  const std::vector<int64_t> dims = IndexValues(shape_t);
  for (int64_t d : dims) {
    if (d < 0) return absl::InvalidArgumentError(absl::StrCat("Dimension ", d, " must be >= 0"));
  }
  return TensorShape::FromDims(dims);
}

// OK when a uniform integer op's bounds are both scalars.
inline absl::Status CheckRandomIntBoundsAreScalars(const Tensor& lo, const Tensor& hi) {
  for (const Tensor* t : {&lo, &hi}) {
    if (t->shape().rank() != 0) {
      return absl::InvalidArgumentError(absl::StrCat(
          t == &lo ? "minval" : "maxval", " must be 0-D, got shape ", t->shape().DebugString()));
    }
  }
  return absl::OkStatus();
}

// The scalar int32/int64 bounds (lo, hi) of a uniform integer op, lo < hi.
inline absl::StatusOr<std::pair<int64_t, int64_t>> RandomIntBounds(const Tensor& lo,
                                                                   const Tensor& hi) {
  if (absl::Status s = CheckRandomIntBoundsAreScalars(lo, hi); !s.ok()) return s;
  const int64_t lo_v = IndexValues(lo)[0], hi_v = IndexValues(hi)[0];
  if (lo_v >= hi_v) {
    return absl::InvalidArgumentError(
        absl::StrCat("Need minval < maxval, got ", lo_v, " >= ", hi_v));
  }
  return std::make_pair(lo_v, hi_v);
}

// Fills a half, float or double `out`; InvalidArgument naming `op` for another dtype.
inline absl::Status FillFloatTensor(FloatKind kind, const PhiloxRandom& base, Tensor* out,
                                    absl::string_view op) {
  const int64_t n = out->NumElements();
  switch (out->dtype()) {
    case DT_FLOAT:
      FillFloat(kind, base, n, out->flat<float>().data());
      return absl::OkStatus();
    case DT_DOUBLE:
      FillFloat(kind, base, n, out->flat<double>().data());
      return absl::OkStatus();
    case DT_HALF:
      FillFloat(kind, base, n, out->flat<half>().data());
      return absl::OkStatus();
    default:
      return absl::InvalidArgumentError(
          absl::StrCat(op, " has no CPU kernel for ", DataTypeString(out->dtype())));
  }
}

// Fills an int32 or int64 `out` with integers in [lo, hi), lo < hi.
inline void FillUniformIntTensor(const PhiloxRandom& base, int64_t lo, int64_t hi, Tensor* out) {
  const int64_t n = out->NumElements();
  if (out->dtype() == DT_INT32) {
    UniformIntDist<int32_t> dist{static_cast<int32_t>(lo),
                                 static_cast<uint32_t>(hi) - static_cast<uint32_t>(lo)};
    FillGroups(base, dist, n, out->flat<int32_t>().data());
  } else {
    UniformIntDist<int64_t> dist{lo, static_cast<uint64_t>(hi) - static_cast<uint64_t>(lo)};
    FillGroups(base, dist, n, out->flat<int64_t>().data());
  }
}

}  // namespace random
}  // namespace rill

#endif  // RILL_KERNELS_RANDOM_RANDOM_OP_UTIL_H_
