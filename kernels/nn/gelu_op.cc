// _RillGelu on the CPU: the GELU activation, the graph optimizer's fusion of the elementwise
// nodes TensorFlow and Keras write for it (session/graph_optimizer.h); Rill's internal op
// (TensorFlow has none: its remapper fuses GELU into _FusedMatMul only). attr `form` names the
// graph it replaces, computed in that graph's order of operations:
//   "erf"  (0.5 * x) * (1 + erf(x * 0.70710677))             a user's exact GELU written with Erf
//   "erfc" (0.5 * x) * erfc((-x) * 0.70710677)               tf.nn.gelu / Keras's gelu, exact
//   "tanh" (0.5 * x) * (1 + tanh(0.7978846 * (x + 0.044715 * pow(x, 3))))   approximate=True
// with the float constants TensorFlow writes, each operation rounded to float as the unfused
// Mul, Neg, Erf (vector_math's ErfF), Erfc (erfc_float.h's ErfcF), Pow (x^3: vector_math's CubeF,
// as the Pow kernel computes it), AddV2 and Tanh (vector_math's TanhF) kernels round it: every
// intermediate is stored before the next operation reads it (a chunk of the row at a time), so the
// compiler cannot contract a product and a sum into a fused multiply-add that the unfused kernels
// do not do. The fused node so gives the unfused graph's results bit for bit, infinities and NaNs
// included, in one pass over memory. Elements run in parallel over the kernel's intra-op threads at
// the CPU's vector width.
//
// Kernels are immutable after construction; Compute is thread-safe.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>

#include "absl/strings/str_cat.h"
#include "core/status_macros.h"
#include "kernels/framework/kernel_registry.h"
#include "kernels/math_lib/cwise_op.h"
#include "kernels/math_lib/erfc_float.h"
#include "kernels/math_lib/vector_math.h"

namespace rill {
namespace {

enum class GeluForm { kErf, kErfc, kTanh };

constexpr int64_t kChunk = 256;

// y[0, n) = GELU(x[0, n)) in `form`, n <= kChunk; `a` and `b` hold kChunk floats.
void GeluChunk(GeluForm form, const float* __restrict x, float* __restrict y, int64_t n,
               float* __restrict a, float* __restrict b) {
  for (int64_t i = 0; i < n; ++i) a[i] = 0.5f * x[i];
  switch (form) {
    case GeluForm::kErf:
      for (int64_t i = 0; i < n; ++i) b[i] = x[i] * 0.70710677f;
      for (int64_t i = 0; i < n; ++i) b[i] = vector_math::ErfF(b[i]);
      for (int64_t i = 0; i < n; ++i) b[i] = 1.f + b[i];
      break;
    case GeluForm::kErfc:
      for (int64_t i = 0; i < n; ++i) b[i] = -x[i];
      for (int64_t i = 0; i < n; ++i) b[i] = b[i] * 0.70710677f;
      for (int64_t i = 0; i < n; ++i) b[i] = vector_math::ErfcF(b[i]);
      break;
    case GeluForm::kTanh:
      for (int64_t i = 0; i < n; ++i) b[i] = vector_math::CubeF(x[i]);
      for (int64_t i = 0; i < n; ++i) b[i] = 0.044715f * b[i];
      for (int64_t i = 0; i < n; ++i) b[i] = x[i] + b[i];
      for (int64_t i = 0; i < n; ++i) b[i] = 0.7978846f * b[i];
      for (int64_t i = 0; i < n; ++i) b[i] = vector_math::TanhF(b[i]);
      for (int64_t i = 0; i < n; ++i) b[i] = 1.f + b[i];
      break;
  }
  for (int64_t i = 0; i < n; ++i) y[i] = a[i] * b[i];
}

class GeluOp final : public OpKernel {
 public:
  explicit GeluOp(OpKernelConstruction& ctx) : OpKernel(ctx) {
    std::string form;
    absl::Status s = ctx.GetAttr("form", &form);
    if (s.ok() && form == "erf") {
      form_ = GeluForm::kErf;
    } else if (s.ok() && form == "erfc") {
      form_ = GeluForm::kErfc;
    } else if (s.ok() && form == "tanh") {
      form_ = GeluForm::kTanh;
    } else if (s.ok()) {
      s = absl::InvalidArgumentError(
          absl::StrCat("form must be \"erf\", \"erfc\" or \"tanh\", got \"", form, "\""));
    }
    ctx.SetStatus(s);
    // Per element: Erf and Tanh as their elementwise kernels are charged (vector loops), the cube
    // as a few double operations, Erfc (ErfcF: a division and two polynomials in double) alike.
    cost_ = form_ == GeluForm::kErf ? 5 : 10;
  }

  absl::Status Compute(OpKernelContext& ctx) const override {
    const Tensor& x = ctx.input(0);
    RILL_ASSIGN_OR_RETURN(Tensor * out, ctx.allocate_output(0, x.shape()));
    const float* xv = x.flat<float>().data();
    float* yv = out->flat<float>().data();
    const int64_t chunks = (x.NumElements() + kChunk - 1) / kChunk;
    const int64_t n = x.NumElements();
    ctx.ParallelFor(chunks, kChunk * cost_, [&](int64_t begin, int64_t end) {
      alignas(64) float a[kChunk];
      alignas(64) float b[kChunk];
      cwise_internal::RunSimdFor<float>([&] {
        for (int64_t c = begin; c < end; ++c) {
          const int64_t first = c * kChunk;
          GeluChunk(form_, xv + first, yv + first, std::min(kChunk, n - first), a, b);
        }
      });
    });
    return absl::OkStatus();
  }

 private:
  GeluForm form_ = GeluForm::kErf;
  int64_t cost_ = 5;
};

REGISTER_KERNEL(KernelDefBuilder("_RillGelu").Device(kDeviceCpu).TypeConstraint("T", {DT_FLOAT}),
                GeluOp);

}  // namespace
}  // namespace rill
