// Counting and shape kernels on the CPU:
//
//   InTopKV2(predictions [batch, classes] float, targets [batch], k scalar): whether each
//     target's prediction is among the k largest of its row (fewer than k predictions strictly
//     greater, so ties count as in). False for a target outside [0, classes) and for a row with a
//     non-finite prediction, as in TensorFlow.
//   BroadcastArgs(s0, s1): the broadcast shape of two shape vectors (numpy rules: dims aligned at
//     the end, equal or one of them 1).
//   DenseBincount(input, size, weights): out[..., v] = the sum of the weights of the values v in
//     [0, size) (their count when weights is empty; 1 where present with binary_output), per row
//     for a matrix input; values >= size are dropped.
//   Bincount(arr, size, weights): the same over the int32 arr of any rank as one vector.
//
// Errors are InvalidArgument with TensorFlow's texts: "k must be 0-D, got shape [1]",
// "predictions must be 2-dimensional", "targets must be 1-dimensional", "First dimension of
// predictions 4 must match length of targets 2", "In[0] must be a vector.[1,2]", "Incompatible
// shapes: [2,3] vs. [3,2]", "Shape must be rank 0 but is rank 1", "size (-1) must be
// non-negative", "`weights` must be the same shape as `arr` or a length-0 `Tensor`, in which case
// it acts as all weights equal to 1. Received [2]", "Shape must be at most rank 2 but is rank 3",
// "Input arr must be non-negative!".
//
// Kernels are immutable after construction; Compute is thread-safe.
#include <cmath>
#include <cstdint>
#include <vector>

#include "absl/strings/str_cat.h"
#include "core/status_macros.h"
#include "kernels/framework/index_values.h"
#include "kernels/framework/kernel_registry.h"
#include "kernels/math_lib/cwise_math.h"
#include "kernels/math_lib/cwise_op.h"

namespace rill {
namespace {

const std::vector<DataType>& IndexTypes() {
  static const auto* types = new std::vector<DataType>{DT_INT32, DT_INT64};
  return *types;
}

// InTopKV2, and InTopK, its older form with k as an attr.
class InTopKV2Op final : public OpKernel {
 public:
  explicit InTopKV2Op(OpKernelConstruction& ctx) : OpKernel(ctx) {
    if (ctx.def().op() == "InTopK") ctx.SetStatus(ctx.GetAttr("k", &k_attr_));
  }

  absl::Status Compute(OpKernelContext& ctx) const override {
    const Tensor& predictions = ctx.input(0);
    const Tensor& targets_t = ctx.input(1);
    const bool k_input = ctx.num_inputs() > 2;
    if (k_input && ctx.input(2).shape().rank() != 0) {
      return absl::InvalidArgumentError(
          absl::StrCat("k must be 0-D, got shape ", ctx.input(2).shape().DebugString()));
    }
    if (predictions.shape().rank() != 2) {
      return absl::InvalidArgumentError("predictions must be 2-dimensional");
    }
    if (targets_t.shape().rank() != 1) {
      return absl::InvalidArgumentError("targets must be 1-dimensional");
    }
    const int64_t batch = predictions.shape().dim(0);
    const int64_t classes = predictions.shape().dim(1);
    if (batch != targets_t.shape().dim(0)) {
      return absl::InvalidArgumentError(absl::StrCat("First dimension of predictions ", batch,
                                                     " must match length of targets ",
                                                     targets_t.shape().dim(0)));
    }
    const int64_t k = k_input ? IndexValues(ctx.input(2))[0] : k_attr_;
    const std::vector<int64_t> targets = IndexValues(targets_t);
    RILL_ASSIGN_OR_RETURN(Tensor * out, ctx.allocate_output(0, TensorShape({batch})));
    const float* p = predictions.flat<float>().data();
    bool* z = out->flat<bool>().data();
    for (int64_t b = 0; b < batch; ++b) {
      const float* row = p + b * classes;
      const int64_t t = targets[b];
      bool in = t >= 0 && t < classes;
      if (in) {
        const float target = row[t];
        int64_t greater = 0;
        for (int64_t i = 0; i < classes && in; ++i) {
          if (!std::isfinite(row[i])) in = false;
          if (row[i] > target) ++greater;
        }
        in = in && greater < k;
      }
      z[b] = in;
    }
    return absl::OkStatus();
  }

 private:
  int64_t k_attr_ = 0;  // InTopK's k
};

class BroadcastArgsOp final : public OpKernel {
 public:
  using OpKernel::OpKernel;

  absl::Status Compute(OpKernelContext& ctx) const override {
    const Tensor& s0 = ctx.input(0);
    const Tensor& s1 = ctx.input(1);
    for (int i = 0; i < 2; ++i) {
      const Tensor& s = ctx.input(i);
      if (s.shape().rank() != 1) {
        return absl::InvalidArgumentError(
            absl::StrCat("In[", i, "] must be a vector.", s.shape().DebugString()));
      }
    }
    const std::vector<int64_t> a = IndexValues(s0);
    const std::vector<int64_t> b = IndexValues(s1);
    const size_t rank = a.size() > b.size() ? a.size() : b.size();
    std::vector<int64_t> r(rank);
    for (size_t i = 0; i < rank; ++i) {
      // Aligned at the end: a missing dim is 1.
      const int64_t da = i < rank - a.size() ? 1 : a[i - (rank - a.size())];
      const int64_t db = i < rank - b.size() ? 1 : b[i - (rank - b.size())];
      if (da == db || db == 1) {
        r[i] = da;
      } else if (da == 1) {
        r[i] = db;
      } else {
        auto show = [](const std::vector<int64_t>& v) {
          std::string s = "[";
          for (size_t j = 0; j < v.size(); ++j) absl::StrAppend(&s, j ? "," : "", v[j]);
          return s + "]";
        };
        return absl::InvalidArgumentError(
            absl::StrCat("Incompatible shapes: ", show(a), " vs. ", show(b)));
      }
    }
    RILL_ASSIGN_OR_RETURN(Tensor * out,
                          ctx.allocate_output(0, TensorShape({static_cast<int64_t>(rank)})));
    for (size_t i = 0; i < rank; ++i) {
      if (out->dtype() == DT_INT32) {
        out->flat<int32_t>()[i] = static_cast<int32_t>(r[i]);
      } else {
        out->flat<int64_t>()[i] = r[i];
      }
    }
    return absl::OkStatus();
  }
};

// kDense: DenseBincount (rank 1 or 2, per-row counts, binary_output attr); otherwise Bincount
// (int32 arr of any rank counted as one vector).
template <bool kDense, typename... Ts>
class BincountOp final : public OpKernel {
 public:
  explicit BincountOp(OpKernelConstruction& ctx) : OpKernel(ctx) {
    if (kDense) ctx.SetStatus(ctx.GetAttr("binary_output", &binary_output_));
  }

  absl::Status Compute(OpKernelContext& ctx) const override {
    const Tensor& input = ctx.input(0);
    const Tensor& size_tensor = ctx.input(1);
    const Tensor& weights = ctx.input(2);
    if (size_tensor.shape().rank() != 0) {
      return absl::InvalidArgumentError(
          absl::StrCat("Shape must be rank 0 but is rank ", size_tensor.shape().rank()));
    }
    const int64_t size = IndexValues(size_tensor)[0];
    if (size < 0) {
      return absl::InvalidArgumentError(absl::StrCat("size (", size, ") must be non-negative"));
    }
    const bool weighted = weights.NumElements() > 0;
    if (weighted && weights.shape() != input.shape()) {
      return absl::InvalidArgumentError(absl::StrCat(
          "`weights` must be the same shape as `arr` or a length-0 `Tensor`, in which case it "
          "acts as all weights equal to 1. Received ",
          weights.shape().DebugString()));
    }
    const int rank = kDense ? input.shape().rank() : 1;
    if (rank > 2) {
      return absl::InvalidArgumentError(
          absl::StrCat("Shape must be at most rank 2 but is rank ", rank));
    }
    const std::vector<int64_t> values = IndexValues(input);
    for (int64_t v : values) {
      if (v < 0) return absl::InvalidArgumentError("Input arr must be non-negative!");
    }
    const int64_t rows = rank == 2 ? input.shape().dim(0) : 1;
    const int64_t per_row = rank == 2 ? input.shape().dim(1) : input.NumElements();
    std::vector<int64_t> dims;
    if (rank == 2) dims.push_back(rows);
    dims.push_back(size);
    RILL_ASSIGN_OR_RETURN(TensorShape shape, TensorShape::FromDims(dims));
    RILL_ASSIGN_OR_RETURN(Tensor * out, ctx.allocate_output(0, shape));
    return VisitKernelTypes<Ts...>(*this, out->dtype(), [&](auto tag) {
      using T = typename decltype(tag)::type;
      T* z = out->flat<T>().data();
      for (int64_t i = 0; i < out->NumElements(); ++i) z[i] = T(0);
      const T* w = weighted ? weights.flat<T>().data() : nullptr;
      for (int64_t r = 0; r < rows; ++r) {
        T* row = z + r * size;
        for (int64_t j = 0; j < per_row; ++j) {
          const int64_t at = r * per_row + j;
          const int64_t v = values[at];
          if (v >= size) continue;
          if (binary_output_) {
            row[v] = T(1);
          } else {
            row[v] = cwise_math::WrapAdd(row[v], w ? w[at] : T(1));
          }
        }
      }
      return absl::OkStatus();
    });
  }

 private:
  bool binary_output_ = false;
};

REGISTER_KERNEL(KernelDefBuilder("InTopKV2").Device(kDeviceCpu).TypeConstraint("T", IndexTypes()),
                InTopKV2Op);
REGISTER_KERNEL(KernelDefBuilder("InTopK").Device(kDeviceCpu).TypeConstraint("T", IndexTypes()),
                InTopKV2Op);
REGISTER_KERNEL(
    KernelDefBuilder("BroadcastArgs").Device(kDeviceCpu).TypeConstraint("T", IndexTypes()),
    BroadcastArgsOp);
REGISTER_KERNEL(KernelDefBuilder("DenseBincount")
                    .Device(kDeviceCpu)
                    .TypeConstraint("T", DataTypesOf<int32_t, int64_t, float, double>())
                    .TypeConstraint("Tidx", IndexTypes()),
                BincountOp<true, int32_t, int64_t, float, double>);
REGISTER_KERNEL(KernelDefBuilder("Bincount")
                    .Device(kDeviceCpu)
                    .TypeConstraint("T", DataTypesOf<int32_t, int64_t, float, double>()),
                BincountOp<false, int32_t, int64_t, float, double>);

}  // namespace
}  // namespace rill
