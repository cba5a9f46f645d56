// Unique and UniqueWithCounts on the CPU: y holds the distinct elements of the 1-D input in order
// of first appearance, idx the position in y of each input element (int32 or int64, out_idx).
// Elements compare with ==, so 0.0 and -0.0 are one value and every NaN is its own; half compares
// as float. UniqueWithCounts adds `count`, how often each of y occurs (out_idx's type). Errors:
// InvalidArgument "unique expects a 1D vector." (TensorFlow's text).
//
// Kernels are immutable after construction; Compute is thread-safe.
#include <cstdint>
#include <functional>
#include <unordered_map>
#include <vector>

#include "core/status_macros.h"
#include "kernels/framework/kernel_registry.h"
#include "kernels/math_lib/cwise_op.h"

namespace rill {
namespace {

#define RILL_UNIQUE_TYPES half, float, double, int8_t, int16_t, int32_t, int64_t, uint8_t, bool

// Hash consistent with == for floats (0.0 == -0.0 hash alike; std::hash does that for float and
// double).
template <typename C>
struct ValueHash {
  size_t operator()(C v) const { return std::hash<C>()(v); }
};

// Writes `values` into output `i`, an int32 or int64 vector.
absl::Status OutputIndices(OpKernelContext& ctx, int i, const std::vector<int64_t>& values) {
  RILL_ASSIGN_OR_RETURN(Tensor * out,
                        ctx.allocate_output(i, TensorShape({static_cast<int64_t>(values.size())})));
  for (size_t j = 0; j < values.size(); ++j) {
    if (out->dtype() == DT_INT32) {
      out->flat<int32_t>()[j] = static_cast<int32_t>(values[j]);
    } else {
      out->flat<int64_t>()[j] = values[j];
    }
  }
  return absl::OkStatus();
}

// kCounts: UniqueWithCounts (a third output, the count of each distinct value).
template <bool kCounts>
class UniqueOp final : public OpKernel {
 public:
  explicit UniqueOp(OpKernelConstruction& ctx) : OpKernel(ctx) {}

  absl::Status Compute(OpKernelContext& ctx) const override {
    const Tensor& in = ctx.input(0);
    if (in.shape().rank() != 1) return absl::InvalidArgumentError("unique expects a 1D vector.");
    const int64_t n = in.NumElements();
    return VisitKernelTypes<RILL_UNIQUE_TYPES>(*this, in.dtype(), [&](auto tag) -> absl::Status {
      using T = typename decltype(tag)::type;
      using C = decltype(cwise_internal::Load(T()));
      const T* x = in.flat<T>().data();
      std::unordered_map<C, int64_t, ValueHash<C>> position;
      std::vector<int64_t> first;  // input index of each distinct value
      std::vector<int64_t> idx(n);
      for (int64_t i = 0; i < n; ++i) {
        const C v = cwise_internal::Load(x[i]);
        auto [it, inserted] = position.emplace(v, static_cast<int64_t>(first.size()));
        if (inserted) first.push_back(i);
        idx[i] = it->second;
      }
      RILL_ASSIGN_OR_RETURN(
          Tensor * y, ctx.allocate_output(0, TensorShape({static_cast<int64_t>(first.size())})));
      T* yv = y->flat<T>().data();
      for (size_t j = 0; j < first.size(); ++j) yv[j] = x[first[j]];
      RILL_RETURN_IF_ERROR(OutputIndices(ctx, 1, idx));
      if (!kCounts) return absl::OkStatus();
      std::vector<int64_t> count(first.size(), 0);
      for (int64_t i = 0; i < n; ++i) ++count[idx[i]];
      return OutputIndices(ctx, 2, count);
    });
  }
};

REGISTER_KERNEL(KernelDefBuilder("Unique")
                    .Device(kDeviceCpu)
                    .TypeConstraint("T", DataTypesOf<RILL_UNIQUE_TYPES>())
                    .TypeConstraint("out_idx", {DT_INT32, DT_INT64}),
                UniqueOp<false>);
REGISTER_KERNEL(KernelDefBuilder("UniqueWithCounts")
                    .Device(kDeviceCpu)
                    .TypeConstraint("T", DataTypesOf<RILL_UNIQUE_TYPES>())
                    .TypeConstraint("out_idx", {DT_INT32, DT_INT64}),
                UniqueOp<true>);

}  // namespace
}  // namespace rill
