// Unique, UniqueWithCounts and UniqueV2 on the CPU: y holds the distinct elements of the 1-D input
// in order of first appearance, idx the position in y of each input element (int32 or int64,
// out_idx). Elements compare with ==, so 0.0 and -0.0 are one value and every NaN is its own; half
// compares as float. UniqueWithCounts adds `count`, how often each of y occurs (out_idx's type).
// UniqueV2's `axis` is a vector of at most one element: empty is Unique's 1-D form; [k] finds the
// distinct slices along dimension k of an input of any rank (slices compare element by element),
// y being the input with dimension k cut to the distinct slices, idx one entry per input slice.
// Errors (InvalidArgument, TensorFlow's texts): "unique expects a 1D vector.", "axis expects a 1D
// vector.", "axis does not support input tensors larger than 1 elements", "axis has to be between
// [0, R)".
//
// Kernels are immutable after construction; Compute is thread-safe.
#include <cstdint>
#include <functional>
#include <unordered_map>
#include <vector>

#include "absl/strings/str_cat.h"
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

// The input seen as [outer, n, inner], n the dimension whose entries are made unique.
struct UniqueLayout {
  int axis = 0;
  int64_t outer = 1, n = 0, inner = 1;
};

// UniqueV2's axis input: empty (the 1-D form) or one element naming a dimension of `in`.
absl::StatusOr<UniqueLayout> LayoutFromAxis(const Tensor& in, const Tensor& axis_tensor) {
  if (axis_tensor.shape().rank() != 1) {
    return absl::InvalidArgumentError("axis expects a 1D vector.");
  }
  if (axis_tensor.NumElements() > 1) {
    return absl::InvalidArgumentError("axis does not support input tensors larger than 1 elements");
  }
  UniqueLayout layout;
  if (axis_tensor.NumElements() == 0) {
    if (in.shape().rank() != 1) return absl::InvalidArgumentError("unique expects a 1D vector.");
    layout.n = in.NumElements();
    return layout;
  }
  int64_t axis = axis_tensor.dtype() == DT_INT32 ? axis_tensor.flat<int32_t>()[0]
                                                 : axis_tensor.flat<int64_t>()[0];
  const int rank = in.shape().rank();
  if (axis < 0) axis += rank;
  if (axis < 0 || axis >= rank) {
    return absl::InvalidArgumentError(absl::StrCat("axis has to be between [0, ", rank, ")"));
  }
  layout.axis = static_cast<int>(axis);
  for (int d = 0; d < rank; ++d) {
    const int64_t size = in.shape().dim(d);
    if (d < axis) layout.outer *= size;
    if (d == axis) layout.n = size;
    if (d > axis) layout.inner *= size;
  }
  return layout;
}

enum class Kind { kUnique, kUniqueWithCounts, kUniqueV2 };

template <Kind kKind>
class UniqueOp final : public OpKernel {
 public:
  explicit UniqueOp(OpKernelConstruction& ctx) : OpKernel(ctx) {}

  absl::Status Compute(OpKernelContext& ctx) const override {
    const Tensor& in = ctx.input(0);
    UniqueLayout layout;
    if (kKind == Kind::kUniqueV2) {
      RILL_ASSIGN_OR_RETURN(layout, LayoutFromAxis(in, ctx.input(1)));
    } else {
      if (in.shape().rank() != 1) return absl::InvalidArgumentError("unique expects a 1D vector.");
      layout.n = in.NumElements();
    }
    return VisitKernelTypes<RILL_UNIQUE_TYPES>(*this, in.dtype(), [&](auto tag) -> absl::Status {
      using T = typename decltype(tag)::type;
      const T* x = in.flat<T>().data();
      std::vector<int64_t> first;  // the input index along the axis of each distinct entry
      std::vector<int64_t> idx(layout.n);
      if (layout.outer == 1 && layout.inner == 1) {
        UniqueElements<T>(x, layout.n, &first, &idx);
      } else {
        UniqueSlices<T>(x, layout, &first, &idx);
      }
      const int64_t uniques = static_cast<int64_t>(first.size());
      std::vector<int64_t> y_dims = {uniques};
      if (kKind == Kind::kUniqueV2 && in.shape().rank() != 1) {
        y_dims.assign(in.shape().dims().begin(), in.shape().dims().end());
        y_dims[layout.axis] = uniques;
      }
      RILL_ASSIGN_OR_RETURN(TensorShape y_shape, TensorShape::FromDims(y_dims));
      RILL_ASSIGN_OR_RETURN(Tensor * y, ctx.allocate_output(0, y_shape));
      T* yv = y->flat<T>().data();
      for (int64_t o = 0; o < layout.outer; ++o) {
        for (int64_t j = 0; j < uniques; ++j) {
          const T* from = x + (o * layout.n + first[j]) * layout.inner;
          T* to = yv + (o * uniques + j) * layout.inner;
          for (int64_t i = 0; i < layout.inner; ++i) to[i] = from[i];
        }
      }
      RILL_RETURN_IF_ERROR(OutputIndices(ctx, 1, idx));
      if (kKind != Kind::kUniqueWithCounts) return absl::OkStatus();
      std::vector<int64_t> count(first.size(), 0);
      for (int64_t i = 0; i < layout.n; ++i) ++count[idx[i]];
      return OutputIndices(ctx, 2, count);
    });
  }

 private:
  template <typename T>
  static void UniqueElements(const T* x, int64_t n, std::vector<int64_t>* first,
                             std::vector<int64_t>* idx) {
    using C = decltype(cwise_internal::Load(T()));
    std::unordered_map<C, int64_t, ValueHash<C>> position;
    for (int64_t i = 0; i < n; ++i) {
      const C v = cwise_internal::Load(x[i]);
      auto [it, inserted] = position.emplace(v, static_cast<int64_t>(first->size()));
      if (inserted) first->push_back(i);
      (*idx)[i] = it->second;
    }
  }

  // Slice k is the elements x[o, k, i] for every o and i; two slices are one when all their
  // elements compare equal (so slices of no elements are all one).
  template <typename T>
  static void UniqueSlices(const T* x, const UniqueLayout& l, std::vector<int64_t>* first,
                           std::vector<int64_t>* idx) {
    using C = decltype(cwise_internal::Load(T()));
    auto at = [x, &l](int64_t o, int64_t k, int64_t i) {
      return cwise_internal::Load(x[(o * l.n + k) * l.inner + i]);
    };
    auto hash = [&](int64_t k) {
      size_t h = 0;
      for (int64_t o = 0; o < l.outer; ++o) {
        for (int64_t i = 0; i < l.inner; ++i) {
          h = h * 1000003u ^ ValueHash<C>()(at(o, k, i));
        }
      }
      return h;
    };
    auto equal = [&](int64_t a, int64_t b) {
      for (int64_t o = 0; o < l.outer; ++o) {
        for (int64_t i = 0; i < l.inner; ++i) {
          if (!(at(o, a, i) == at(o, b, i))) return false;
        }
      }
      return true;
    };
    std::unordered_map<int64_t, int64_t, decltype(hash), decltype(equal)> position(16, hash, equal);
    for (int64_t k = 0; k < l.n; ++k) {
      auto [it, inserted] = position.emplace(k, static_cast<int64_t>(first->size()));
      if (inserted) first->push_back(k);
      (*idx)[k] = it->second;
    }
  }
};

REGISTER_KERNEL(KernelDefBuilder("Unique")
                    .Device(kDeviceCpu)
                    .TypeConstraint("T", DataTypesOf<RILL_UNIQUE_TYPES>())
                    .TypeConstraint("out_idx", {DT_INT32, DT_INT64}),
                UniqueOp<Kind::kUnique>);
REGISTER_KERNEL(KernelDefBuilder("UniqueWithCounts")
                    .Device(kDeviceCpu)
                    .TypeConstraint("T", DataTypesOf<RILL_UNIQUE_TYPES>())
                    .TypeConstraint("out_idx", {DT_INT32, DT_INT64}),
                UniqueOp<Kind::kUniqueWithCounts>);
REGISTER_KERNEL(KernelDefBuilder("UniqueV2")
                    .Device(kDeviceCpu)
                    .TypeConstraint("T", DataTypesOf<RILL_UNIQUE_TYPES>())
                    .TypeConstraint("Taxis", {DT_INT32, DT_INT64})
                    .TypeConstraint("out_idx", {DT_INT32, DT_INT64}),
                UniqueOp<Kind::kUniqueV2>);

}  // namespace
}  // namespace rill
