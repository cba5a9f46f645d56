// _RillGruCell on the CPU: the gate arithmetic of a GRU step as Keras's GRUCell writes it with
// reset_after (the default), the graph optimizer's fusion (graph/gru_cell_fusion.h) of
//   x_z, x_r, x_c = Split(x, 3)[gate_order];  hh_z, hh_r, hh_c = column blocks of hh
//   z = Sigmoid(x_z + hh_z);  r = Sigmoid(x_r + hh_r);  c = Tanh(x_c + r * hh_c)
//   h_next = z * h + (1 - z) * c
// Inputs x [B, 3U] and hh [B, 3U] (the input's and the state's projections, biases added) and the
// state h [B, U]; output h_next. Rill's internal op; attr gate_order: the column blocks that are
// z, r and c, in x and hh alike.
//
// Each operation is rounded as the unfused AddV2, Sigmoid, Tanh, Mul and Sub kernels round it (the
// same vector_math functions in the same SIMD build; products stored before the sums read them, so
// no multiply-add is contracted): the fused node gives the unfused graph's results bit for bit.
// Batches of 1 broadcast as AddV2 and Mul broadcast them (their "Incompatible shapes: ..." errors);
// an x whose width 3 does not divide gets Split's error. The fusion proves the widths (hh 3U, h
// U); other widths are refused with InvalidArgument saying which width to give. Attr
// _rill_error_nodes (kernels/framework/error_nodes.h): [the Split of x, the Add of z's blocks,
// the Mul z * h, hh's StridedSlice of z's block], the nodes those errors name;
// _rill_error_operands_swapped: those of them (1: hh's block first, 2: h first) whose operands the
// errors name in the other order.
//
// _RillGruUpdate: the update of a GRU whose reset gate acts before the candidate's product
// (Keras's reset_after=False, TF1's GRUCell), the fusion's FuseGruUpdates of
//   h_next = z * h + (1 - z) * Tanh(c)
// from the gate z, the candidate's pre-activation c and the state h, broadcast together as Mul,
// Sub and AddV2 broadcast them (their errors), each operation rounded as those kernels and Tanh
// round it. Attr _rill_error_nodes: [the Mul z * h, the Mul (1 - z) * Tanh(c), the sum];
// _rill_error_operands_swapped: those taking h, Tanh(c) or the second product first.
//
// Kernels are immutable after construction; Compute is thread-safe.
#include <algorithm>
#include <array>
#include <cstdint>
#include <string>
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

// Scratch for one chunk of a row: every intermediate the unfused graph stores in a tensor.
struct Scratch {
  float sum[kChunk];
  float z[kChunk];
  float r[kChunk];
  float prod[kChunk];
  float c[kChunk];
  float zh[kChunk];
  float keep[kChunk];
};

// One output row of n elements. xz/xr/xc and hz/hr/hc are the gate blocks of the row's x and hh;
// h is read at h[j * hs] (hs 0 where h is broadcast along the row).
void GruRow(const float* xz, const float* xr, const float* xc, const float* hz, const float* hr,
            const float* hc, const float* h, int64_t hs, int64_t n, float* out, Scratch* s) {
  for (int64_t j0 = 0; j0 < n; j0 += kChunk) {
    const int64_t len = std::min(kChunk, n - j0);
    const float* hj = h + j0 * hs;
    for (int64_t j = 0; j < len; ++j) s->sum[j] = xz[j0 + j] + hz[j0 + j];
    for (int64_t j = 0; j < len; ++j) s->z[j] = vector_math::SigmoidF(s->sum[j]);
    for (int64_t j = 0; j < len; ++j) s->sum[j] = xr[j0 + j] + hr[j0 + j];
    for (int64_t j = 0; j < len; ++j) s->r[j] = vector_math::SigmoidF(s->sum[j]);
    for (int64_t j = 0; j < len; ++j) s->prod[j] = s->r[j] * hc[j0 + j];
    for (int64_t j = 0; j < len; ++j) s->sum[j] = xc[j0 + j] + s->prod[j];
    for (int64_t j = 0; j < len; ++j) s->c[j] = vector_math::TanhF(s->sum[j]);
    if (hs == 1) {
      for (int64_t j = 0; j < len; ++j) s->zh[j] = s->z[j] * hj[j];
    } else {
      for (int64_t j = 0; j < len; ++j) s->zh[j] = s->z[j] * hj[j * hs];
    }
    for (int64_t j = 0; j < len; ++j) s->keep[j] = 1.0f - s->z[j];
    for (int64_t j = 0; j < len; ++j) s->prod[j] = s->keep[j] * s->c[j];
    for (int64_t j = 0; j < len; ++j) out[j0 + j] = s->zh[j] + s->prod[j];
  }
}

class GruCellOp final : public OpKernel {
 public:
  explicit GruCellOp(OpKernelConstruction& ctx) : OpKernel(ctx), nodes_(ctx) {
    std::vector<int64_t> order;
    absl::Status s = ctx.GetAttr("gate_order", &order);
    if (s.ok()) {
      std::array<bool, 3> seen{};
      if (order.size() != 3) s = absl::InvalidArgumentError("gate_order must have 3 entries");
      for (size_t k = 0; s.ok() && k < order.size(); ++k) {
        if (order[k] < 0 || order[k] > 2 || seen[order[k]]) {
          s = absl::InvalidArgumentError("gate_order must be a permutation of 0, 1, 2");
        } else {
          seen[order[k]] = true;
          order_[k] = order[k];
        }
      }
    }
    if (s.ok()) s = ctx.GetAttr("units", &units_);
    ctx.SetStatus(s);
  }

  absl::Status Compute(OpKernelContext& ctx) const override {
    const Tensor& x = ctx.input(0);
    const Tensor& hh = ctx.input(1);
    const Tensor& h = ctx.input(2);
    if (x.shape().rank() != 2) {
      return nodes_.At(0, absl::InvalidArgumentError(absl::StrCat(
                              "The GRU step's input projection must be a matrix [batch, 3 * "
                              "units]; got ",
                              x.shape().DebugString())));
    }
    if (hh.shape().rank() != 2) {
      return nodes_.At(3, absl::InvalidArgumentError(absl::StrCat(
                              "The GRU step's state projection must be a matrix [batch, 3 * "
                              "units]; got ",
                              hh.shape().DebugString())));
    }
    const int64_t width = x.shape().dim(1);
    if (width % 3 != 0) {
      return nodes_.At(
          0, absl::InvalidArgumentError(absl::StrCat(
                 "Number of ways to split should evenly divide the split dimension, but got "
                 "split_dim 1 (size = ",
                 width, ") and num_split 3")));
    }
    const int64_t units = width / 3;
    if (units_ >= 0 && units != units_) {
      // The unfused z gate: Split's [B, width / 3] block plus hh's fixed-bound slice [B, units],
      // in the order z's Add takes them.
      const std::string xs = absl::StrCat("[", x.shape().dim(0), ",", units, "]");
      const std::string hs = absl::StrCat("[", hh.shape().dim(0), ",", units_, "]");
      return nodes_.At(1, absl::InvalidArgumentError(
                              absl::StrCat("Incompatible shapes: ", nodes_.Swapped(1) ? hs : xs,
                                           " vs. ", nodes_.Swapped(1) ? xs : hs)));
    }
    if (hh.shape().dim(1) != width) {
      return nodes_.At(1, absl::InvalidArgumentError(absl::StrCat(
                              "The GRU step's state projection must have the input projection's "
                              "width ",
                              width, " (3 * units); got ", hh.shape().DebugString())));
    }
    // z's sum (x's gates + hh's), then z * h: the first two broadcasts of the unfused graph, each
    // with its operands in its node's order.
    const int64_t bx = x.shape().dim(0), bh = hh.shape().dim(0);
    RILL_ASSIGN_OR_RETURN(
        const TensorShape gates,
        nodes_.At(1, Broadcast(1, TensorShape({bx, units}), TensorShape({bh, units}))));
    RILL_ASSIGN_OR_RETURN(const TensorShape out_shape,
                          nodes_.At(2, Broadcast(2, gates, h.shape())));
    if (out_shape.rank() != 2 || out_shape.dim(1) != units) {
      return nodes_.At(2, absl::InvalidArgumentError(absl::StrCat(
                              "The GRU step's state must be a matrix [batch, units] of ", units,
                              " units; got ", h.shape().DebugString())));
    }
    RILL_ASSIGN_OR_RETURN(Tensor * out, ctx.allocate_output(0, out_shape));
    if (out_shape.num_elements() == 0) return absl::OkStatus();
    const std::vector<int64_t> h_strides = BroadcastStrides(h.shape(), out_shape);
    const int64_t batch = out_shape.dim(0);
    const float* xd = x.flat<float>().data();
    const float* hhd = hh.flat<float>().data();
    const float* hd = h.flat<float>().data();
    float* od = out->flat<float>().data();
    // In the SIMD build the unfused Sigmoid and Tanh run in (FMA changes TanhF's last bit).
    cwise_internal::RunSimdFor<float>([&] {
      Scratch s;
      for (int64_t b = 0; b < batch; ++b) {
        const float* xrow = xd + (bx == 1 ? 0 : b) * width;
        const float* hrow = hhd + (bh == 1 ? 0 : b) * width;
        GruRow(xrow + order_[0] * units, xrow + order_[1] * units, xrow + order_[2] * units,
               hrow + order_[0] * units, hrow + order_[1] * units, hrow + order_[2] * units,
               hd + b * h_strides[0], h_strides[1], units, od + b * units, &s);
      }
    });
    return absl::OkStatus();
  }

 private:
  // BroadcastShapes of a and b as error node `index` takes them.
  absl::StatusOr<TensorShape> Broadcast(int index, const TensorShape& a,
                                        const TensorShape& b) const {
    return nodes_.Swapped(index) ? BroadcastShapes(b, a) : BroadcastShapes(a, b);
  }

  std::array<int64_t, 3> order_ = {0, 1, 2};
  int64_t units_ = -1;  // the U the pass proved; -1: width / 3 of x
  const ErrorNodes nodes_;
};

// h_next for n elements of a row: z[j * zs], c[j * cs], h[j * hs].
void UpdateRow(const float* z, int64_t zs, const float* c, int64_t cs, const float* h, int64_t hs,
               int64_t n, float* out, Scratch* s) {
  for (int64_t j0 = 0; j0 < n; j0 += kChunk) {
    const int64_t len = std::min(kChunk, n - j0);
    const float* zj = z + j0 * zs;
    const float* cj = c + j0 * cs;
    const float* hj = h + j0 * hs;
    for (int64_t j = 0; j < len; ++j) s->c[j] = vector_math::TanhF(cj[j * cs]);
    for (int64_t j = 0; j < len; ++j) s->keep[j] = 1.0f - zj[j * zs];
    for (int64_t j = 0; j < len; ++j) s->prod[j] = s->keep[j] * s->c[j];
    for (int64_t j = 0; j < len; ++j) s->zh[j] = zj[j * zs] * hj[j * hs];
    for (int64_t j = 0; j < len; ++j) out[j0 + j] = s->zh[j] + s->prod[j];
  }
}

class GruUpdateOp final : public OpKernel {
 public:
  explicit GruUpdateOp(OpKernelConstruction& ctx) : OpKernel(ctx), nodes_(ctx) {}

  absl::Status Compute(OpKernelContext& ctx) const override {
    const Tensor& z = ctx.input(0);
    const Tensor& c = ctx.input(1);
    const Tensor& h = ctx.input(2);
    // z * h, (1 - z) * Tanh(c), then their sum: the unfused graph's broadcasts.
    // Each with its operands in its node's order.
    RILL_ASSIGN_OR_RETURN(const TensorShape zh, nodes_.At(0, Broadcast(0, z.shape(), h.shape())));
    RILL_ASSIGN_OR_RETURN(const TensorShape zc, nodes_.At(1, Broadcast(1, z.shape(), c.shape())));
    RILL_ASSIGN_OR_RETURN(const TensorShape out_shape, nodes_.At(2, Broadcast(2, zh, zc)));
    RILL_ASSIGN_OR_RETURN(Tensor * out, ctx.allocate_output(0, out_shape));
    if (out_shape.num_elements() == 0) return absl::OkStatus();
    // A scalar output as one row of one.
    const TensorShape rows = out_shape.rank() == 0 ? TensorShape({1}) : out_shape;
    const float* zd = z.flat<float>().data();
    const float* cd = c.flat<float>().data();
    const float* hd = h.flat<float>().data();
    float* od = out->flat<float>().data();
    cwise_internal::RunSimdFor<float>([&] {
      Scratch s;
      ForEachBroadcastRowN<3>({&z.shape(), &c.shape(), &h.shape()}, rows,
                              [&](int64_t o, const std::array<int64_t, 3>& off, int64_t inner,
                                  const std::array<int64_t, 3>& stride) {
                                UpdateRow(zd + off[0], stride[0], cd + off[1], stride[1],
                                          hd + off[2], stride[2], inner, od + o, &s);
                              });
    });
    return absl::OkStatus();
  }

 private:
  // BroadcastShapes of a and b as error node `index` takes them.
  absl::StatusOr<TensorShape> Broadcast(int index, const TensorShape& a,
                                        const TensorShape& b) const {
    return nodes_.Swapped(index) ? BroadcastShapes(b, a) : BroadcastShapes(a, b);
  }

  const ErrorNodes nodes_;
};

REGISTER_KERNEL(
    KernelDefBuilder("_RillGruUpdate").Device(kDeviceCpu).TypeConstraint("T", {DT_FLOAT}),
    GruUpdateOp);

REGISTER_KERNEL(KernelDefBuilder("_RillGruCell").Device(kDeviceCpu).TypeConstraint("T", {DT_FLOAT}),
                GruCellOp);

}  // namespace
}  // namespace rill
