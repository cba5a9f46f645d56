// The attrs LRN and LRNGrad share (kernels/nn/lrn_op.cc, lrn_grad_op.cc): depth_radius, bias,
// alpha and beta, read and checked once.
#ifndef RILL_KERNELS_NN_LRN_PARAMS_H_
#define RILL_KERNELS_NN_LRN_PARAMS_H_

#include <cstdint>
#include <limits>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "kernels/framework/op_kernel.h"

namespace rill {

struct LrnParams {
  int64_t radius = 5;
  float bias = 1.0f, alpha = 1.0f, beta = 0.5f;
};

// Reads the attrs into *p; sets InvalidArgument "depth_radius = N larger than int max"
// (TensorFlow's text) on `ctx` for a radius outside [0, int max).
inline void ReadLrnParams(OpKernelConstruction& ctx, LrnParams* p) {
  ctx.SetStatus(ctx.GetAttr("depth_radius", &p->radius));
  ctx.SetStatus(ctx.GetAttr("bias", &p->bias));
  ctx.SetStatus(ctx.GetAttr("alpha", &p->alpha));
  ctx.SetStatus(ctx.GetAttr("beta", &p->beta));
  if (p->radius < 0 || p->radius >= std::numeric_limits<int>::max()) {
    ctx.SetStatus(absl::InvalidArgumentError(
        absl::StrCat("depth_radius = ", p->radius, " larger than int max")));
  }
}

}  // namespace rill

#endif  // RILL_KERNELS_NN_LRN_PARAMS_H_
