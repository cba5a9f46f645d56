// _RillScaleShift on the CPU: y = act(x * scale + offset), the graph optimizer's fusion of an
// inference batch norm that no product precedes, as Keras and tf.nn.batch_normalization leave it
// once constants are folded (a Mul and an Add by per-channel constants), with the Relu or Relu6
// that follows it (ResNet v2's and DenseNet's pre-activation batch norms; session/
// graph_optimizer.h). Rill's internal op: TensorFlow's remapper fuses a FusedBatchNorm with its
// Relu into _FusedBatchNormEx, and frozen Keras 3 graphs hold no FusedBatchNorm. attr
// `activation`: "Identity", "Relu" or "Relu6".
//
// Each operation is rounded as the unfused Mul, AddV2, Relu and Relu6 kernels round it: the
// products of a chunk are stored before the sums read them, so the compiler cannot contract a
// product and a sum into a fused multiply-add; Relu keeps NaN and gives +0 for -0, as the Relu
// kernel does. The fused node so gives the unfused graph's results bit for bit in one pass over
// memory. Operands broadcast as Mul and AddV2 broadcast them (their "Incompatible shapes: ..."
// errors); the fast path is scale and offset as a scalar or a row along x's last dim, which is
// the fusion's form; x's buffer is reused for y when nothing else holds it.
//
// Kernels are immutable after construction; Compute is thread-safe.
#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <string>

#include "absl/strings/str_cat.h"
#include "core/status_macros.h"
#include "kernels/framework/kernel_registry.h"
#include "kernels/math_lib/broadcast.h"
#include "kernels/math_lib/cwise_op.h"

namespace rill {
namespace {

enum class Activation { kIdentity, kRelu, kRelu6 };

constexpr int64_t kChunk = 256;

inline float Activate(float v, Activation act) {
  if (act == Activation::kIdentity || std::isnan(v)) return v;
  if (act == Activation::kRelu6 && v > 6.f) return 6.f;
  return v > 0.f ? v : 0.f;
}

// y[i] = act(x[i] * s[i * ss] + b[i * sb]) for i in [0, n), n <= kChunk; ss and sb are 0 (a
// scalar) or 1. `t` holds kChunk floats.
template <int kSs, int kSb>
void ScaleShiftChunk(const float* __restrict x, const float* __restrict s,
                     const float* __restrict b, float* __restrict y, int64_t n, Activation act,
                     float* __restrict t) {
  for (int64_t i = 0; i < n; ++i) t[i] = x[i] * s[i * kSs];
  switch (act) {
    case Activation::kIdentity:
      for (int64_t i = 0; i < n; ++i) y[i] = t[i] + b[i * kSb];
      break;
    case Activation::kRelu:
      for (int64_t i = 0; i < n; ++i) y[i] = Activate(t[i] + b[i * kSb], Activation::kRelu);
      break;
    case Activation::kRelu6:
      for (int64_t i = 0; i < n; ++i) y[i] = Activate(t[i] + b[i * kSb], Activation::kRelu6);
      break;
  }
}

void ScaleShiftRun(const float* x, const float* s, int64_t ss, const float* b, int64_t sb, float* y,
                   int64_t n, Activation act, float* t) {
  if (ss == 1 && sb == 1) {
    ScaleShiftChunk<1, 1>(x, s, b, y, n, act, t);
  } else if (ss == 1) {
    ScaleShiftChunk<1, 0>(x, s, b, y, n, act, t);
  } else if (sb == 1) {
    ScaleShiftChunk<0, 1>(x, s, b, y, n, act, t);
  } else {
    ScaleShiftChunk<0, 0>(x, s, b, y, n, act, t);
  }
}

class ScaleShiftOp final : public OpKernel {
 public:
  explicit ScaleShiftOp(OpKernelConstruction& ctx) : OpKernel(ctx) {
    std::string act;
    absl::Status s = ctx.GetAttr("activation", &act);
    if (s.ok()) {
      if (act == "Relu") {
        act_ = Activation::kRelu;
      } else if (act == "Relu6") {
        act_ = Activation::kRelu6;
      } else if (act != "Identity") {
        s = absl::InvalidArgumentError(absl::StrCat("Unsupported activation: ", act));
      }
    }
    ctx.SetStatus(s);
  }

  absl::Status Compute(OpKernelContext& ctx) const override {
    const Tensor& x = ctx.input(0);
    const Tensor& scale = ctx.input(1);
    const Tensor& offset = ctx.input(2);
    RILL_ASSIGN_OR_RETURN(const TensorShape scaled, BroadcastShapes(x.shape(), scale.shape()));
    RILL_ASSIGN_OR_RETURN(const TensorShape out_shape, BroadcastShapes(scaled, offset.shape()));
    const int rank = out_shape.rank();
    const int64_t channels = rank > 0 ? out_shape.dim(rank - 1) : 1;
    // A scalar, or a row along the last dim (every other dim 1): stride 0 or 1 per channel.
    auto row_stride = [&](const Tensor& t) -> int64_t {
      if (t.NumElements() == 1) return 0;
      const int r = t.shape().rank();
      return t.NumElements() == channels && r > 0 && t.shape().dim(r - 1) == channels ? 1 : -1;
    };
    const int64_t ss = row_stride(scale), sb = row_stride(offset);
    const float* s = scale.flat<float>().data();
    const float* b = offset.flat<float>().data();
    if (x.shape() == out_shape && ss >= 0 && sb >= 0) {
      RILL_ASSIGN_OR_RETURN(Tensor * out, ctx.forward_input_or_allocate_output({0}, 0, out_shape));
      const float* in = x.flat<float>().data();
      float* y = out->flat<float>().data();
      const int64_t n = out_shape.num_elements();
      // Chunks of up to kChunk elements. A chunk ends at its row's end only when a per-channel
      // row is at least a chunk long: shorter rows (an image's 3 channels) are repeated over
      // `rows` (kChunk + channels elements, element j channel j % channels), so that a chunk
      // starting at channel c reads them from c on across rows; scalars never end a chunk.
      std::array<float, 2 * kChunk> scale_rows, offset_rows;
      const bool repeated = channels < kChunk && (ss == 1 || sb == 1);
      if (repeated) {
        for (int64_t j = 0; j < kChunk + channels; ++j) {
          if (ss == 1) scale_rows[j] = s[j % channels];
          if (sb == 1) offset_rows[j] = b[j % channels];
        }
        if (ss == 1) s = scale_rows.data();
        if (sb == 1) b = offset_rows.data();
      }
      const bool row_bound = !repeated && (ss == 1 || sb == 1);
      cwise_internal::ParallelForElements<float>(
          ctx, n, 2 * cwise_internal::kCheapVectorCost, [&](int64_t begin, int64_t end) {
            cwise_internal::RunSimdFor<float>([&] {
              float t[kChunk];
              for (int64_t i = begin; i < end;) {
                const int64_t c = i % channels;
                int64_t len = std::min(end - i, kChunk);
                if (row_bound) len = std::min(len, channels - c);
                ScaleShiftRun(in + i, s + c * ss, ss, b + c * sb, sb, y + i, len, act_, t);
                i += len;
              }
            });
          });
      return absl::OkStatus();
    }
    // Any other broadcast: row by row over the output.
    RILL_ASSIGN_OR_RETURN(Tensor * out, ctx.allocate_output(0, out_shape));
    if (out_shape.num_elements() == 0) return absl::OkStatus();
    const float* in = x.flat<float>().data();
    float* y = out->flat<float>().data();
    const TensorShape shape = rank > 0 ? out_shape : TensorShape({1});
    const TensorShape xs = rank > 0 ? x.shape() : TensorShape({1});
    const TensorShape scs = rank > 0 ? scale.shape() : TensorShape({1});
    const TensorShape os = rank > 0 ? offset.shape() : TensorShape({1});
    ForEachBroadcastRowN<3>({&xs, &scs, &os}, shape,
                            [&](int64_t o, const std::array<int64_t, 3>& off, int64_t inner,
                                const std::array<int64_t, 3>& st) {
                              for (int64_t j = 0; j < inner; ++j) {
                                volatile float t = in[off[0] + j * st[0]] * s[off[1] + j * st[1]];
                                y[o + j] = Activate(t + b[off[2] + j * st[2]], act_);
                              }
                            });
    return absl::OkStatus();
  }

 private:
  Activation act_ = Activation::kIdentity;
};

REGISTER_KERNEL(
    KernelDefBuilder("_RillScaleShift").Device(kDeviceCpu).TypeConstraint("T", {DT_FLOAT}),
    ScaleShiftOp);

}  // namespace
}  // namespace rill
