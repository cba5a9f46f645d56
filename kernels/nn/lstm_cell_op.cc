// _RillLstmCell on the CPU: the gate arithmetic of an LSTM step as Keras's LSTMCell writes it,
// the graph optimizer's fusion (session/graph_optimizer.h, graph/lstm_cell_fusion.h) of
//   i, f, g, o = Split(1, z)[gate_order];  c' = Sigmoid(f) * c + Sigmoid(i) * Tanh(g);
//   h = Sigmoid(o) * Tanh(c')
// Inputs z [B, 4U] (rank 2: the fusion takes z from products) and c; outputs c' and h. Rill's
// internal op; attr gate_order: the Split outputs that are i, f, g and o.
//
// Each operation is rounded as the unfused Split, Sigmoid, Tanh, Mul and AddV2 kernels round it
// (the same vector_math functions; products stored before the sums read them, so no multiply-add
// is contracted): the fused node gives the unfused graph's results bit for bit. c broadcasts
// against [B, U] as Mul broadcasts it (its "Incompatible shapes: ..." error), and so c' and h
// have the broadcast shape; a z whose second dim 4 does not divide gets Split's error. Attr
// _rill_error_nodes (kernels/framework/error_nodes.h): [the Split, the Mul of Sigmoid(f) and c],
// the nodes those errors name; _rill_error_operands_swapped [1] when that Mul takes c first.
//
// Kernels are immutable after construction; Compute is thread-safe.
#include <algorithm>
#include <array>
#include <cstdint>
#include <vector>

#include "absl/strings/str_cat.h"
#include "core/status_macros.h"
#include "kernels/framework/error_nodes.h"
#include "kernels/framework/kernel_registry.h"
#include "kernels/math_lib/broadcast.h"
#include "kernels/math_lib/cwise_op.h"
#include "kernels/math_lib/vector_math.h"

namespace rill {
namespace {

constexpr int64_t kChunk = 256;

// One row of the output: n elements from `o`, the gates (and i * g) at offset `go` with stride
// `gs`, c at `co` with stride `cs`. `t` holds kChunk floats.
void CellRow(const float* gf, const float* ig, const float* go_gate, const float* c, int64_t go,
             int64_t gs, int64_t co, int64_t cs, int64_t n, float* c_out, float* h_out, float* t) {
  for (int64_t j0 = 0; j0 < n; j0 += kChunk) {
    const int64_t len = std::min(kChunk, n - j0);
    const int64_t g0 = go + j0 * gs, c0 = co + j0 * cs;
    if (gs == 1 && cs == 1) {
      for (int64_t j = 0; j < len; ++j) t[j] = gf[g0 + j] * c[c0 + j];
      for (int64_t j = 0; j < len; ++j) c_out[j0 + j] = t[j] + ig[g0 + j];
      for (int64_t j = 0; j < len; ++j) t[j] = vector_math::TanhF(c_out[j0 + j]);
      for (int64_t j = 0; j < len; ++j) h_out[j0 + j] = go_gate[g0 + j] * t[j];
    } else {
      for (int64_t j = 0; j < len; ++j) t[j] = gf[g0 + j * gs] * c[c0 + j * cs];
      for (int64_t j = 0; j < len; ++j) c_out[j0 + j] = t[j] + ig[g0 + j * gs];
      for (int64_t j = 0; j < len; ++j) t[j] = vector_math::TanhF(c_out[j0 + j]);
      for (int64_t j = 0; j < len; ++j) h_out[j0 + j] = go_gate[g0 + j * gs] * t[j];
    }
  }
}

class LstmCellOp final : public OpKernel {
 public:
  explicit LstmCellOp(OpKernelConstruction& ctx) : OpKernel(ctx), nodes_(ctx) {
    std::vector<int64_t> order;
    absl::Status s = ctx.GetAttr("gate_order", &order);
    if (s.ok()) {
      std::array<bool, 4> seen{};
      if (order.size() != 4) s = absl::InvalidArgumentError("gate_order must have 4 entries");
      for (size_t k = 0; s.ok() && k < order.size(); ++k) {
        if (order[k] < 0 || order[k] > 3 || seen[order[k]]) {
          s = absl::InvalidArgumentError("gate_order must be a permutation of 0, 1, 2, 3");
        } else {
          seen[order[k]] = true;
          order_[k] = order[k];
        }
      }
    }
    ctx.SetStatus(s);
  }

  absl::Status Compute(OpKernelContext& ctx) const override {
    const Tensor& z = ctx.input(0);
    const Tensor& c = ctx.input(1);
    if (z.shape().rank() != 2) {
      return nodes_.At(0, absl::InvalidArgumentError(absl::StrCat(
                              "The LSTM step's gate pre-activations must be a matrix [batch, 4 * "
                              "units] (the product of the step's input and kernel); got ",
                              z.shape().DebugString())));
    }
    const int64_t batch = z.shape().dim(0), width = z.shape().dim(1);
    if (width % 4 != 0) {
      return nodes_.At(
          0, absl::InvalidArgumentError(absl::StrCat(
                 "Number of ways to split should evenly divide the split dimension, but got "
                 "split_dim 1 (size = ",
                 width, ") and num_split 4")));
    }
    const int64_t units = width / 4;
    const TensorShape gates_shape({batch, units});
    RILL_ASSIGN_OR_RETURN(
        const TensorShape out_shape,
        nodes_.At(1, nodes_.Swapped(1) ? BroadcastShapes(c.shape(), gates_shape)
                                       : BroadcastShapes(gates_shape, c.shape())));
    RILL_ASSIGN_OR_RETURN(Tensor * c_out, ctx.allocate_output(0, out_shape));
    RILL_ASSIGN_OR_RETURN(Tensor * h_out, ctx.allocate_output(1, out_shape));
    if (out_shape.num_elements() == 0) return absl::OkStatus();
    // The gates, each [B, U], and i * g.
    const int64_t n = batch * units;
    std::vector<float> gates(5 * n);
    float* gi = gates.data();
    float* gf = gi + n;
    float* gg = gf + n;
    float* go = gg + n;
    float* ig = go + n;
    const float* zd = z.flat<float>().data();
    cwise_internal::RunSimdFor<float>([&] {
      for (int64_t b = 0; b < batch; ++b) {
        const float* row = zd + b * width;
        const float* zi = row + order_[0] * units;
        const float* zf = row + order_[1] * units;
        const float* zg = row + order_[2] * units;
        const float* zo = row + order_[3] * units;
        float* ri = gi + b * units;
        float* rf = gf + b * units;
        float* rg = gg + b * units;
        float* ro = go + b * units;
        for (int64_t u = 0; u < units; ++u) ri[u] = vector_math::SigmoidF(zi[u]);
        for (int64_t u = 0; u < units; ++u) rf[u] = vector_math::SigmoidF(zf[u]);
        for (int64_t u = 0; u < units; ++u) rg[u] = vector_math::TanhF(zg[u]);
        for (int64_t u = 0; u < units; ++u) ro[u] = vector_math::SigmoidF(zo[u]);
      }
      for (int64_t k = 0; k < n; ++k) ig[k] = gi[k] * gg[k];
    });
    const float* cd = c.flat<float>().data();
    float* cn = c_out->flat<float>().data();
    float* hn = h_out->flat<float>().data();
    if (c.shape() == gates_shape) {
      cwise_internal::RunSimdFor<float>([&] {
        float t[kChunk];
        CellRow(gf, ig, go, cd, 0, 1, 0, 1, n, cn, hn, t);
      });
      return absl::OkStatus();
    }
    // c broadcast against [B, U] (or the gates against c): row by row over the output, in the
    // same SIMD build as above and as the unfused Tanh (FMA changes TanhF's last bit).
    cwise_internal::RunSimdFor<float>([&] {
      ForEachBroadcastRow(
          gates_shape, c.shape(), out_shape,
          [&](int64_t o, int64_t g_off, int64_t c_off, int64_t inner, int64_t gs, int64_t cs) {
            float t[kChunk];
            CellRow(gf, ig, go, cd, g_off, gs, c_off, cs, inner, cn + o, hn + o, t);
          });
    });
    return absl::OkStatus();
  }

 private:
  std::array<int64_t, 4> order_ = {0, 1, 2, 3};
  const ErrorNodes nodes_;
};

REGISTER_KERNEL(
    KernelDefBuilder("_RillLstmCell").Device(kDeviceCpu).TypeConstraint("T", {DT_FLOAT}),
    LstmCellOp);

}  // namespace
}  // namespace rill
