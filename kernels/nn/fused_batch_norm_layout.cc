#include "kernels/nn/fused_batch_norm_layout.h"

#include <string>
#include <utility>

#include "absl/strings/str_cat.h"

namespace rill {

FusedBatchNormAttrs ReadFusedBatchNormAttrs(OpKernelConstruction& ctx) {
  FusedBatchNormAttrs a;
  std::string format;
  ctx.SetStatus(ctx.GetAttr("epsilon", &a.epsilon));
  ctx.SetStatus(ctx.GetAttr("exponential_avg_factor", &a.avg_factor));
  ctx.SetStatus(ctx.GetAttr("data_format", &format));
  ctx.SetStatus(ctx.GetAttr("is_training", &a.is_training));
  a.channels_first = format == "NCHW" || format == "NCDHW";
  a.v3 = ctx.def().op() == "FusedBatchNormV3";
  return a;
}

absl::StatusOr<NormLayout> FusedBatchNormLayout(const Tensor& x, const Tensor& scale,
                                                const Tensor& offset, const Tensor& mean,
                                                const Tensor& variance, bool channels_first,
                                                bool is_training, float avg_factor) {
  const TensorShape& shape = x.shape();
  if (shape.rank() != 4 && shape.rank() != 5) {
    return absl::InvalidArgumentError(
        absl::StrCat("input must be 4 or 5-dimensional", shape.DebugString()));
  }
  const std::pair<const Tensor*, const char*> vectors[] = {{&scale, "scale"},
                                                           {&offset, "offset"},
                                                           {&mean, "estimated_mean"},
                                                           {&variance, "estimated_variance"}};
  for (const auto& [t, what] : vectors) {
    if (t->shape().rank() != 1) {
      return absl::InvalidArgumentError(
          absl::StrCat(what, " must be 1-dimensional", t->shape().DebugString()));
    }
  }
  NormLayout l;
  const int channel_dim = channels_first ? 1 : shape.rank() - 1;
  l.channels = shape.dim(channel_dim);
  l.outer = 1;
  l.inner = 1;
  for (int d = 0; d < channel_dim; ++d) l.outer *= shape.dim(d);
  for (int d = channel_dim + 1; d < shape.rank(); ++d) l.inner *= shape.dim(d);
  const std::pair<const Tensor*, const char*> affine[] = {{&scale, "scale"}, {&offset, "offset"}};
  for (const auto& [t, what] : affine) {
    if (t->NumElements() != l.channels) {
      return absl::InvalidArgumentError(
          absl::StrCat(what, " must have the same number of elements as the channels of x, got ",
                       t->NumElements(), " and ", l.channels));
    }
  }
  const bool use_inputs = !is_training || avg_factor != 1.0f;
  if (use_inputs) {
    const char* prefix =
        is_training ? "When exponential_avg_factor != 1" : "When is_training=false";
    const std::pair<const Tensor*, const char*> moments[] = {{&mean, "mean"},
                                                             {&variance, "variance"}};
    for (const auto& [t, what] : moments) {
      if (t->NumElements() != l.channels) {
        return absl::InvalidArgumentError(absl::StrCat(
            prefix, ", ", what, " must have the same number of elements as the channels of x, got ",
            t->NumElements(), " and ", l.channels));
      }
    }
  }
  return l;
}

}  // namespace rill
