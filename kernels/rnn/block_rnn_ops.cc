// TensorFlow's fused recurrent cells on the CPU (the ops of tf.contrib.rnn's LSTMBlockFusedCell,
// LSTMBlockCell and GRUBlockCell, kept by TF1 speech and text graphs):
//
//   LSTMBlockCell  one step: xh = [x, h_prev]; z = xh * w + b, split into gate blocks of
//                  cell_size columns; with use_peephole i += cs_prev * wci, f += cs_prev * wcf;
//                  i = sigmoid(i); ci = tanh(ci); f = sigmoid(f + forget_bias);
//                  cs = i * ci + f * cs_prev, clipped to [-cell_clip, cell_clip] when
//                  cell_clip > 0; co = tanh(cs); with use_peephole o += cs * wco;
//                  o = sigmoid(o); h = o * co. Outputs i, cs, f, o, ci, co, h [batch, cell].
//   BlockLSTM      the same step over x [time, batch, input] for t < seq_len_max (the state of
//                  step t - 1 feeding step t); steps from seq_len_max on are zeros
//                  (TensorFlow zeroes cs and h there and leaves i, f, o, ci, co unwritten).
//                  Gate blocks in the order i, ci, f, o.
//   BlockLSTMV2    BlockLSTM with the gate blocks in the order i, f, ci, o and no forget_bias
//                  (0: the bias is in b).
//   GRUBlockCell   r, u = sigmoid([x, h_prev] * w_ru + b_ru) (r the first cell_size columns);
//                  c = tanh([x, h_prev * r] * w_c + b_c); h = u * (h_prev - c) + c.
//
// Products go through Gemm (float; half is widened and each output rounded to half, the state
// read back from the rounded outputs as TensorFlow's next step reads them). The elementwise steps
// use vector_math's SigmoidF and TanhF, TensorFlow's Sigmoid and Tanh kernels' functions.
//
// LSTMBlockCell refuses an empty state as TensorFlow does ("cs_prev_tensor is empty, has shape:
// (0,6)."); BlockLSTM and GRUBlockCell give empty outputs.
//
// Errors are InvalidArgument with TensorFlow's texts ("x must be 3D", "cs_prev.dims(0) !=
// batch_size: 3 vs. 2", "w.dim_size(1) != cell_size * 4: 16 vs. 20", "b must be 1D",
// "`seq_len_max_tensor` must be rank 0 but is rank 1", "w_ru.dim_size(0) != input_size +
// cell_size: 8 vs. 9", "Rank of b_c must be 1", ...). Where TensorFlow's kernel does not check and
// crashes or reads out of bounds, Rill refuses instead: seq_len_max outside [0, time]
// ("seq_len_max must be in [0, 3] (the time dimension of x), got 5"), inputs of the wrong rank of
// LSTMBlockCell and GRUBlockCell ("cs_prev must be 2D"), and LSTMBlockCell's peephole weights of
// the wrong size when use_peephole is set (TensorFlow ignores them otherwise, and so does Rill).
//
// Kernels are immutable after construction; Compute is thread-safe.
#include <algorithm>
#include <cstdint>
#include <vector>

#include "absl/strings/str_cat.h"
#include "core/half.h"
#include "core/status_macros.h"
#include "kernels/framework/kernel_registry.h"
#include "kernels/math_lib/gemm.h"
#include "kernels/math_lib/vector_math.h"

namespace rill {
namespace {

absl::Status Invalid(const absl::string_view a, int64_t got, int64_t want) {
  return absl::InvalidArgumentError(absl::StrCat(a, got, " vs. ", want));
}

absl::Status CheckRank(const Tensor& t, int rank, absl::string_view what) {
  if (t.shape().rank() == rank) return absl::OkStatus();
  return absl::InvalidArgumentError(absl::StrCat(what, " must be ", rank, "D"));
}

// A tensor's elements as floats.
std::vector<float> Floats(const Tensor& t) {
  std::vector<float> v(static_cast<size_t>(t.NumElements()));
  if (t.dtype() == DT_HALF) {
    const half* p = t.flat<half>().data();
    for (size_t i = 0; i < v.size(); ++i) v[i] = static_cast<float>(p[i]);
  } else {
    const float* p = t.flat<float>().data();
    std::copy(p, p + v.size(), v.begin());
  }
  return v;
}

// Writes v to element i of t (rounded to half for half) and returns the stored value.
float Store(Tensor* t, int64_t i, float v) {
  if (t->dtype() == DT_HALF) {
    const half h(v);
    t->flat<half>()[i] = h;
    return static_cast<float>(h);
  }
  t->flat<float>()[i] = v;
  return v;
}

// The LSTM cell's weights, as floats, and its attrs.
struct LstmParams {
  int64_t input = 0, cell = 0;
  std::vector<float> w, wci, wcf, wco, b;
  float forget_bias = 0, cell_clip = 0;
  bool peephole = false;
  bool ifco = false;  // gate blocks i, f, ci, o (BlockLSTMV2) instead of i, ci, f, o
};

// One LSTM step for `batch` rows: x [batch, input] and the state cs_prev, h_prev [batch, cell]
// (floats) to the seven outputs at element offset `at` of each; cs_prev and h_prev are replaced
// by the step's (stored) cs and h.
absl::Status LstmStep(const LstmParams& p, int64_t batch, const float* x,
                      std::vector<float>& cs_prev, std::vector<float>& h_prev,
                      const std::vector<Tensor*>& out, int64_t at) {
  const int64_t in = p.input, cell = p.cell, k = in + cell;
  if (batch == 0 || cell == 0) return absl::OkStatus();
  std::vector<float> xh(static_cast<size_t>(batch * k));
  for (int64_t r = 0; r < batch; ++r) {
    std::copy(x + r * in, x + (r + 1) * in, xh.begin() + r * k);
    std::copy(h_prev.begin() + r * cell, h_prev.begin() + (r + 1) * cell, xh.begin() + r * k + in);
  }
  std::vector<float> z(static_cast<size_t>(batch * 4 * cell));
  GemmDims d{batch, 4 * cell, k, /*lda=*/k, /*ldb=*/4 * cell, false, false};
  RILL_RETURN_IF_ERROR(Gemm<float>(d, xh.data(), p.w.data(), z.data()));
  const int64_t ci_block = p.ifco ? 2 : 1, f_block = p.ifco ? 1 : 2;
  for (int64_t r = 0; r < batch; ++r) {
    const float* zr = z.data() + r * 4 * cell;
    for (int64_t j = 0; j < cell; ++j) {
      const int64_t e = r * cell + j;
      const float c_prev = cs_prev[e];
      float i = zr[j] + p.b[j];
      float ci = zr[ci_block * cell + j] + p.b[ci_block * cell + j];
      float f = zr[f_block * cell + j] + p.b[f_block * cell + j];
      float o = zr[3 * cell + j] + p.b[3 * cell + j];
      if (p.peephole) {
        const float pi = c_prev * p.wci[j];
        i = i + pi;
      }
      i = Store(out[0], at + e, vector_math::SigmoidF(i));
      ci = Store(out[4], at + e, vector_math::TanhF(ci));
      f = f + p.forget_bias;
      if (p.peephole) {
        const float pf = c_prev * p.wcf[j];
        f = f + pf;
      }
      f = Store(out[2], at + e, vector_math::SigmoidF(f));
      const float a = i * ci;
      const float bterm = f * c_prev;
      float cs = a + bterm;
      if (p.cell_clip > 0) cs = std::min(std::max(cs, -p.cell_clip), p.cell_clip);
      cs = Store(out[1], at + e, cs);
      const float co = Store(out[5], at + e, vector_math::TanhF(cs));
      if (p.peephole) {
        const float po = cs * p.wco[j];
        o = o + po;
      }
      o = Store(out[3], at + e, vector_math::SigmoidF(o));
      cs_prev[e] = cs;
      h_prev[e] = Store(out[6], at + e, o * co);
    }
  }
  return absl::OkStatus();
}

// The shape checks of BlockLSTM and LSTMBlockCell on cs_prev, h_prev, w and b, given batch and
// input sizes; the cell size is cs_prev's second dimension.
absl::StatusOr<int64_t> CheckLstmState(const Tensor& cs_prev, const Tensor& h_prev, const Tensor& w,
                                       const Tensor& b, int64_t batch, int64_t input) {
  RILL_RETURN_IF_ERROR(CheckRank(cs_prev, 2, "cs_prev"));
  if (cs_prev.shape().dim(0) != batch) {
    return Invalid("cs_prev.dims(0) != batch_size: ", cs_prev.shape().dim(0), batch);
  }
  const int64_t cell = cs_prev.shape().dim(1);
  RILL_RETURN_IF_ERROR(CheckRank(h_prev, 2, "h_prev"));
  if (h_prev.shape().dim(0) != batch) {
    return Invalid("h_prev.dims(0) != batch_size: ", h_prev.shape().dim(0), batch);
  }
  if (h_prev.shape().dim(1) != cell) {
    return Invalid("h_prev.dims(1) != cell_size: ", h_prev.shape().dim(1), cell);
  }
  RILL_RETURN_IF_ERROR(CheckRank(w, 2, "w"));
  if (w.shape().dim(0) != input + cell) {
    return Invalid("w.dim_size(0) != input_size + cell_size: ", w.shape().dim(0), input + cell);
  }
  if (w.shape().dim(1) != cell * 4) {
    return Invalid("w.dim_size(1) != cell_size * 4: ", w.shape().dim(1), cell * 4);
  }
  RILL_RETURN_IF_ERROR(CheckRank(b, 1, "b"));
  if (b.shape().dim(0) != cell * 4) {
    return Invalid("b.dim_size(0) != cell_size * 4: ", b.shape().dim(0), cell * 4);
  }
  return cell;
}

absl::Status CheckPeephole(const Tensor& t, absl::string_view name, int64_t cell) {
  RILL_RETURN_IF_ERROR(CheckRank(t, 1, name));
  if (t.shape().dim(0) != cell) {
    return Invalid(absl::StrCat(name, ".dim_size(0) != cell_size: "), t.shape().dim(0), cell);
  }
  return absl::OkStatus();
}

// BlockLSTM (kV2 false) and BlockLSTMV2 (kV2 true), and LSTMBlockCell (kSequence false).
template <bool kSequence, bool kV2>
class LstmOp final : public OpKernel {
 public:
  explicit LstmOp(OpKernelConstruction& ctx) : OpKernel(ctx) {
    if (!kV2) ctx.SetStatus(ctx.GetAttr("forget_bias", &forget_bias_));
    ctx.SetStatus(ctx.GetAttr("cell_clip", &cell_clip_));
    ctx.SetStatus(ctx.GetAttr("use_peephole", &peephole_));
  }

  absl::Status Compute(OpKernelContext& ctx) const override {
    const int first = kSequence ? 1 : 0;  // x's input index
    int64_t seq_len_max = 1, time = 1;
    const Tensor& x = ctx.input(first);
    if (kSequence) {
      const Tensor& len = ctx.input(0);
      if (len.shape().rank() != 0) {
        return absl::InvalidArgumentError(
            absl::StrCat("`seq_len_max_tensor` must be rank 0 but is rank ", len.shape().rank()));
      }
      RILL_RETURN_IF_ERROR(CheckRank(x, 3, "x"));
      time = x.shape().dim(0);
      seq_len_max = len.flat<int64_t>()[0];
    } else {
      RILL_RETURN_IF_ERROR(CheckRank(x, 2, "x"));
    }
    const int64_t batch = x.shape().dim(first == 1 ? 1 : 0);
    const int64_t input = x.shape().dim(first == 1 ? 2 : 1);
    const Tensor& cs_prev = ctx.input(first + 1);
    const Tensor& h_prev = ctx.input(first + 2);
    const Tensor& w = ctx.input(first + 3);
    const Tensor& b = ctx.input(first + 7);
    if (!kSequence && cs_prev.shape().rank() == 2 && cs_prev.NumElements() == 0) {
      return absl::InvalidArgumentError(absl::StrCat("cs_prev_tensor is empty, has shape: (",
                                                     cs_prev.shape().dim(0), ",",
                                                     cs_prev.shape().dim(1), ")."));
    }
    RILL_ASSIGN_OR_RETURN(const int64_t cell, CheckLstmState(cs_prev, h_prev, w, b, batch, input));
    const char* names[3] = {"wci", "wcf", "wco"};
    if (kSequence || peephole_) {
      for (int i = 0; i < 3; ++i) {
        RILL_RETURN_IF_ERROR(CheckPeephole(ctx.input(first + 4 + i), names[i], cell));
      }
    }
    if (kSequence && (seq_len_max < 0 || seq_len_max > time)) {
      return absl::InvalidArgumentError(absl::StrCat(
          "seq_len_max must be in [0, ", time, "] (the time dimension of x), got ", seq_len_max));
    }
    LstmParams p;
    p.input = input;
    p.cell = cell;
    p.w = Floats(w);
    p.b = Floats(b);
    if (peephole_) {
      p.wci = Floats(ctx.input(first + 4));
      p.wcf = Floats(ctx.input(first + 5));
      p.wco = Floats(ctx.input(first + 6));
    }
    p.forget_bias = kV2 ? 0.0f : forget_bias_;
    p.cell_clip = cell_clip_;
    p.peephole = peephole_;
    p.ifco = kV2;
    const TensorShape shape =
        kSequence ? TensorShape({time, batch, cell}) : TensorShape({batch, cell});
    std::vector<Tensor*> out(7);
    for (int i = 0; i < 7; ++i) {
      RILL_ASSIGN_OR_RETURN(out[i], ctx.allocate_output(i, shape));
    }
    std::vector<float> cs = Floats(cs_prev), h = Floats(h_prev);
    const std::vector<float> xs = Floats(x);
    const int64_t step = batch * cell;
    for (int64_t t = 0; t < seq_len_max; ++t) {
      RILL_RETURN_IF_ERROR(LstmStep(p, batch, xs.data() + t * batch * input, cs, h, out, t * step));
    }
    for (int64_t e = seq_len_max * step; e < time * step; ++e) {
      for (Tensor* o : out) Store(o, e, 0.0f);
    }
    return absl::OkStatus();
  }

 private:
  float forget_bias_ = 1.0f;
  float cell_clip_ = 0.0f;
  bool peephole_ = false;
};

class GruBlockCellOp final : public OpKernel {
 public:
  explicit GruBlockCellOp(OpKernelConstruction& ctx) : OpKernel(ctx) {}

  absl::Status Compute(OpKernelContext& ctx) const override {
    const Tensor& x = ctx.input(0);
    const Tensor& h_prev = ctx.input(1);
    const Tensor& w_ru = ctx.input(2);
    const Tensor& w_c = ctx.input(3);
    const Tensor& b_ru = ctx.input(4);
    const Tensor& b_c = ctx.input(5);
    RILL_RETURN_IF_ERROR(CheckRank(x, 2, "x"));
    RILL_RETURN_IF_ERROR(CheckRank(h_prev, 2, "h_prev"));
    RILL_RETURN_IF_ERROR(CheckRank(w_ru, 2, "w_ru"));
    RILL_RETURN_IF_ERROR(CheckRank(w_c, 2, "w_c"));
    const int64_t batch = x.shape().dim(0), input = x.shape().dim(1);
    const int64_t cell = h_prev.shape().dim(1), k = input + cell;
    if (h_prev.shape().dim(0) != batch) {
      return Invalid("h_prev.dims(0) != batch_size: ", h_prev.shape().dim(0), batch);
    }
    if (w_ru.shape().dim(0) != k) {
      return Invalid("w_ru.dim_size(0) != input_size + cell_size: ", w_ru.shape().dim(0), k);
    }
    if (w_ru.shape().dim(1) != cell * 2) {
      return Invalid("w_ru.dim_size(1) != cell_size * 2: ", w_ru.shape().dim(1), cell * 2);
    }
    if (w_c.shape().dim(0) != k) {
      return Invalid("w_c.dim_size(0) != input_size + cell_size: ", w_c.shape().dim(0), k);
    }
    if (w_c.shape().dim(1) != cell) {
      return Invalid("w_c.dim_size(1) != cell_size: ", w_c.shape().dim(1), cell);
    }
    if (b_ru.shape().rank() == 0 || b_ru.shape().dim(0) != cell * 2) {
      return Invalid("b_ru.dim_size(0) != cell_size * 2: ",
                     b_ru.shape().rank() == 0 ? 1 : b_ru.shape().dim(0), cell * 2);
    }
    if (b_ru.shape().rank() != 1) {
      return Invalid("Rank of b_ru must be 1", b_ru.shape().rank(), 1);
    }
    if (b_c.shape().rank() == 0 || b_c.shape().dim(0) != cell) {
      return Invalid(
          "b_c.dim_size(0) != cell_size: ", b_c.shape().rank() == 0 ? 1 : b_c.shape().dim(0), cell);
    }
    if (b_c.shape().rank() != 1) return Invalid("Rank of b_c must be 1", b_c.shape().rank(), 1);
    const TensorShape shape({batch, cell});
    std::vector<Tensor*> out(4);
    for (int i = 0; i < 4; ++i) {
      RILL_ASSIGN_OR_RETURN(out[i], ctx.allocate_output(i, shape));
    }
    if (batch == 0 || cell == 0) return absl::OkStatus();
    const float* xs = x.flat<float>().data();
    const float* h = h_prev.flat<float>().data();
    std::vector<float> xh(static_cast<size_t>(batch * k));
    for (int64_t r = 0; r < batch; ++r) {
      std::copy(xs + r * input, xs + (r + 1) * input, xh.begin() + r * k);
      std::copy(h + r * cell, h + (r + 1) * cell, xh.begin() + r * k + input);
    }
    std::vector<float> ru(static_cast<size_t>(batch * 2 * cell));
    GemmDims d{batch, 2 * cell, k, /*lda=*/k, /*ldb=*/2 * cell, false, false};
    RILL_RETURN_IF_ERROR(Gemm<float>(d, xh.data(), w_ru.flat<float>().data(), ru.data()));
    const float* bru = b_ru.flat<float>().data();
    float* r_out = out[0]->flat<float>().data();
    float* u_out = out[1]->flat<float>().data();
    for (int64_t r = 0; r < batch; ++r) {
      for (int64_t j = 0; j < cell; ++j) {
        const int64_t e = r * cell + j;
        r_out[e] = vector_math::SigmoidF(ru[r * 2 * cell + j] + bru[j]);
        u_out[e] = vector_math::SigmoidF(ru[r * 2 * cell + cell + j] + bru[cell + j]);
        xh[r * k + input + j] = h[e] * r_out[e];
      }
    }
    float* c_out = out[2]->flat<float>().data();
    float* h_out = out[3]->flat<float>().data();
    GemmDims dc{batch, cell, k, /*lda=*/k, /*ldb=*/cell, false, false};
    RILL_RETURN_IF_ERROR(Gemm<float>(dc, xh.data(), w_c.flat<float>().data(), c_out));
    const float* bc = b_c.flat<float>().data();
    for (int64_t r = 0; r < batch; ++r) {
      for (int64_t j = 0; j < cell; ++j) {
        const int64_t e = r * cell + j;
        const float c = vector_math::TanhF(c_out[e] + bc[j]);
        c_out[e] = c;
        const float diff = h[e] - c;
        const float prod = u_out[e] * diff;
        h_out[e] = prod + c;
      }
    }
    return absl::OkStatus();
  }
};

REGISTER_KERNEL(KernelDefBuilder("BlockLSTM")
                    .Device(kDeviceCpu)
                    .TypeConstraint("T", {DT_HALF, DT_FLOAT})
                    .HostMemory("seq_len_max"),
                LstmOp<true, false>);
REGISTER_KERNEL(KernelDefBuilder("BlockLSTMV2")
                    .Device(kDeviceCpu)
                    .TypeConstraint("T", {DT_HALF, DT_FLOAT})
                    .HostMemory("seq_len_max"),
                LstmOp<true, true>);
REGISTER_KERNEL(
    KernelDefBuilder("LSTMBlockCell").Device(kDeviceCpu).TypeConstraint("T", {DT_HALF, DT_FLOAT}),
    LstmOp<false, false>);
REGISTER_KERNEL(KernelDefBuilder("GRUBlockCell").Device(kDeviceCpu).TypeConstraint("T", {DT_FLOAT}),
                GruBlockCellOp);

}  // namespace
}  // namespace rill
