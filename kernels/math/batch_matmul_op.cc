// BatchMatMul, BatchMatMulV2 and BatchMatMulV3 on the CPU: out[..., m, n] = adj(x)[..., m, k] *
// adj(y)[..., k, n] per batch, adj() transposing when adj_x / adj_y and, for complex64 and
// complex128, conjugating: Gemm only transposes, so an adjointed complex
// operand is read from a conjugated copy. V2 broadcasts the batch dims (numpy rules); V1 needs
// equal ranks and batch dims. V3 is V2 with the operand and output types as attrs Ta, Tb, Tout,
// registered where all three match (no half: TensorFlow has no half CPU kernel for it). Each batch
// is one call of kernels/math_lib/gemm.h (batches of small products spread over the intra-op
// threads, one product per thread), except where y has a single batch (a Keras EinsumDense, or
// tf.matmul of activations by a weight matrix): x's batches, not adjointed, are then rows of one
// [batches * m, k] matrix, so the product is one call (B packed once, and a block over the threads
// large enough to split), on oneDNN's matmul primitive with y packed once per kernel when y is a
// constant float matrix the optimizer marked (`_rill_constant_weights`, as for MatMul).
// Errors are InvalidArgument with TensorFlow's texts: "In[0] ndims must be >= 2: 1", "In[0] and
// In[1] must have compatible batch dimensions: [2,3,4] vs. [3,4,5]", "Matrix size-incompatible:
// In[0]: [2,3,4], In[1]: [2,5,6]", and for V1 "In[0] and In[1] has different ndims: [2,3,4] vs.
// [3,4]", "In[0].dim(0) and In[1].dim(0) must be the same: [2,3,4] vs [3,4,5]".
//
// Kernels are immutable after construction; Compute is thread-safe.
#include <algorithm>
#include <complex>
#include <cstdint>
#include <limits>
#include <memory>
#include <vector>

#include "absl/strings/str_cat.h"
#include "core/status_macros.h"
#include "kernels/framework/kernel_registry.h"
#include "kernels/math_lib/broadcast.h"
#include "kernels/math_lib/cwise_math.h"
#include "kernels/math_lib/cwise_op.h"
#include "kernels/math_lib/gemm.h"
#include "kernels/math_lib/gemm_batches.h"
#include "kernels/math_lib/onednn_common.h"
#include "kernels/math_lib/onednn_matmul.h"

namespace rill {
namespace {

#define RILL_BATCH_MATMUL_TYPES half, float, double, int32_t, int64_t, complex64, complex128

// `t`'s elements; conjugated into `copy` when T is complex and `conj` holds.
template <typename T>
const T* Operand(const Tensor& t, bool conj, std::vector<T>* copy) {
  const T* p = t.flat<T>().data();
  if constexpr (cwise_math::kIsComplex<T>) {
    if (conj) {
      copy->resize(t.NumElements());
      std::transform(p, p + t.NumElements(), copy->begin(), [](T v) { return std::conj(v); });
      return copy->data();
    }
  }
  return p;
}

// The dims before the last two (already a valid shape, so FromDims cannot fail).
TensorShape BatchDims(const TensorShape& s) {
  return *TensorShape::FromDims(s.dims().subspan(0, s.rank() - 2));
}

template <bool kBroadcast>
class BatchMatMulOp final : public OpKernel {
 public:
  explicit BatchMatMulOp(OpKernelConstruction& ctx) : OpKernel(ctx) {
    ctx.SetStatus(ctx.GetAttr("adj_x", &adj_x_));
    ctx.SetStatus(ctx.GetAttr("adj_y", &adj_y_));
    constant_weights_ = HasConstantWeights(ctx);
  }

  absl::Status Compute(OpKernelContext& ctx) const override {
    const Tensor& x = ctx.input(0);
    const Tensor& y = ctx.input(1);
    const TensorShape& xs = x.shape();
    const TensorShape& ys = y.shape();
    if (!kBroadcast && xs.rank() != ys.rank()) {
      return absl::InvalidArgumentError(absl::StrCat(
          "In[0] and In[1] has different ndims: ", xs.DebugString(), " vs. ", ys.DebugString()));
    }
    if (xs.rank() < 2) {
      return absl::InvalidArgumentError(absl::StrCat("In[0] ndims must be >= 2: ", xs.rank()));
    }
    if (ys.rank() < 2) {
      return absl::InvalidArgumentError(absl::StrCat("In[1] ndims must be >= 2: ", ys.rank()));
    }
    const TensorShape xb = BatchDims(xs);
    const TensorShape yb = BatchDims(ys);
    if (!kBroadcast) {
      for (int d = 0; d < xb.rank(); ++d) {
        if (xb.dim(d) != yb.dim(d)) {
          return absl::InvalidArgumentError(absl::StrCat("In[0].dim(", d, ") and In[1].dim(", d,
                                                         ") must be the same: ", xs.DebugString(),
                                                         " vs ", ys.DebugString()));
        }
      }
    }
    absl::StatusOr<TensorShape> batch = BroadcastShapes(xb, yb);
    if (!batch.ok()) {
      return absl::InvalidArgumentError(
          absl::StrCat("In[0] and In[1] must have compatible batch dimensions: ", xs.DebugString(),
                       " vs. ", ys.DebugString()));
    }
    const int64_t xr = xs.dim(xs.rank() - 2), xc = xs.dim(xs.rank() - 1);
    const int64_t yr = ys.dim(ys.rank() - 2), yc = ys.dim(ys.rank() - 1);
    GemmDims d;
    d.threads = ctx.intra_op_threads();
    d.transpose_a = adj_x_;
    d.transpose_b = adj_y_;
    d.m = adj_x_ ? xc : xr;
    d.k = adj_x_ ? xr : xc;
    d.n = adj_y_ ? yr : yc;
    d.lda = xc;
    d.ldb = yc;
    if ((adj_y_ ? yc : yr) != d.k) {
      return absl::InvalidArgumentError(absl::StrCat(
          "Matrix size-incompatible: In[0]: ", xs.DebugString(), ", In[1]: ", ys.DebugString()));
    }
    std::vector<int64_t> out_dims(batch->dims().begin(), batch->dims().end());
    out_dims.push_back(d.m);
    out_dims.push_back(d.n);
    RILL_ASSIGN_OR_RETURN(TensorShape out_shape, TensorShape::FromDims(out_dims));
    RILL_ASSIGN_OR_RETURN(Tensor * out, ctx.allocate_output(0, out_shape));
    if (out->NumElements() == 0) return absl::OkStatus();
    // One y for every batch and x not adjointed: x's batches are consecutive rows of one matrix
    // (y's batch dims are all 1, so the output's batches are x's, in x's order).
    if (!adj_x_ && yb.num_elements() == 1 &&
        d.m <= std::numeric_limits<int32_t>::max() / batch->num_elements()) {
      d.m *= batch->num_elements();
      if (constant_weights_ && x.dtype() == DT_FLOAT && d.m > 1 && OneDnnMatMulPays(d.n, d.k)) {
        OneDnnMatMulShape s;
        s.m = d.m;
        s.n = d.n;
        s.k = d.k;
        s.transpose_b = adj_y_;
        return OneDnnMatMul(s, d.threads, x.flat<float>().data(), y.flat<float>().data(), nullptr,
                            out->flat<float>().data(), HoldConstantWeights(packed_.get(), y));
      }
      return VisitKernelTypes<RILL_BATCH_MATMUL_TYPES>(*this, x.dtype(), [&](auto tag) {
        using T = typename decltype(tag)::type;
        std::vector<T> y_conj;
        return Gemm<T>(d, x.flat<T>().data(), Operand(y, adj_y_, &y_conj), out->flat<T>().data());
      });
    }
    // Per output batch, the batch offsets of x and y (0 strides where broadcast).
    const int64_t batches = batch->num_elements();
    std::vector<int64_t> x_batch(batches, 0), y_batch(batches, 0);
    if (batch->rank() > 0) {
      int64_t b = 0;
      ForEachBroadcastRow(
          xb, yb, *batch,
          [&](int64_t, int64_t ox, int64_t oy, int64_t inner, int64_t sx, int64_t sy) {
            for (int64_t j = 0; j < inner; ++j, ++b) {
              x_batch[b] = ox + j * sx;
              y_batch[b] = oy + j * sy;
            }
          });
    }
    return VisitKernelTypes<RILL_BATCH_MATMUL_TYPES>(*this, x.dtype(), [&](auto tag) {
      using T = typename decltype(tag)::type;
      std::vector<T> x_conj, y_conj;
      const T* a = Operand(x, adj_x_, &x_conj);
      const T* bm = Operand(y, adj_y_, &y_conj);
      T* c = out->flat<T>().data();
      auto product = [&](const GemmDims& dims, int64_t i) {
        return Gemm<T>(dims, a + x_batch[i] * xr * xc, bm + y_batch[i] * yr * yc,
                       c + i * d.m * d.n);
      };
      return RunGemmBatches(ctx, d, batches, product);
    });
  }

 private:
  bool adj_x_ = false;
  bool adj_y_ = false;
  bool constant_weights_ = false;
  const std::unique_ptr<OneDnnPackedWeights> packed_ = std::make_unique<OneDnnPackedWeights>();
};

REGISTER_KERNEL(KernelDefBuilder("BatchMatMul")
                    .Device(kDeviceCpu)
                    .TypeConstraint("T", DataTypesOf<RILL_BATCH_MATMUL_TYPES>()),
                BatchMatMulOp<false>);
REGISTER_KERNEL(KernelDefBuilder("BatchMatMulV2")
                    .Device(kDeviceCpu)
                    .TypeConstraint("T", DataTypesOf<RILL_BATCH_MATMUL_TYPES>()),
                BatchMatMulOp<true>);
#define RILL_REGISTER_BATCH_MATMUL_V3(T)                         \
  REGISTER_KERNEL(KernelDefBuilder("BatchMatMulV3")              \
                      .Device(kDeviceCpu)                        \
                      .TypeConstraint("Ta", DataTypesOf<T>())    \
                      .TypeConstraint("Tb", DataTypesOf<T>())    \
                      .TypeConstraint("Tout", DataTypesOf<T>()), \
                  BatchMatMulOp<true>)
RILL_REGISTER_BATCH_MATMUL_V3(float);
RILL_REGISTER_BATCH_MATMUL_V3(double);
RILL_REGISTER_BATCH_MATMUL_V3(int32_t);
RILL_REGISTER_BATCH_MATMUL_V3(int64_t);
RILL_REGISTER_BATCH_MATMUL_V3(complex64);
RILL_REGISTER_BATCH_MATMUL_V3(complex128);
#undef RILL_REGISTER_BATCH_MATMUL_V3

}  // namespace
}  // namespace rill
