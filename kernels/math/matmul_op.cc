// MatMul on the CPU: product = op(a) * op(b), op() transposing when transpose_a / transpose_b.
// Float products whose weights the optimizer found constant (and large) run on oneDNN with the
// weights packed once (kernels/math_lib/onednn_matmul.h); otherwise the product is
// kernels/math_lib/gemm.h's (OpenBLAS for float, double and complex; a loop accumulating half and
// bfloat16 in float and wrapping int32/int64). Errors are InvalidArgument with TensorFlow's text:
//   In[0] is not a matrix. Instead it has shape [2,3,4]
//   Matrix size-incompatible: In[0]: [2,3], In[1]: [2,2]
// An output with a zero dimension is empty; a zero inner dimension gives zeros.
#include <memory>

#include "absl/strings/str_cat.h"
#include "core/status_macros.h"
#include "kernels/framework/kernel_registry.h"
#include "kernels/framework/kernel_shapes.h"
#include "kernels/math_lib/fused_epilogue.h"
#include "kernels/math_lib/gemm.h"
#include "kernels/math_lib/onednn_matmul.h"
#include "kernels/math_lib/sparse_row_gemv.h"

namespace rill {
namespace {

// The GEMM of op(a) * op(b) for MatMul's inputs; TensorFlow's errors for non-matrices and
// mismatched inner dimensions.
absl::StatusOr<GemmDims> MatMulDims(OpKernelContext& ctx, const Tensor& a, const Tensor& b,
                                    bool transpose_a, bool transpose_b) {
  RILL_ASSIGN_OR_RETURN(MatMulShape s,
                        MatMulShapeOf(a.shape(), b.shape(), transpose_a, transpose_b));
  GemmDims d;
  d.threads = ctx.intra_op_threads();
  d.transpose_a = transpose_a;
  d.transpose_b = transpose_b;
  d.m = s.m;
  d.k = s.k;
  d.n = s.n;
  d.lda = a.shape().dim(1);
  d.ldb = b.shape().dim(1);
  return d;
}

OneDnnMatMulShape PackedShape(const GemmDims& d, const Tensor* bias, FusedActivation act) {
  OneDnnMatMulShape s;
  s.m = d.m;
  s.n = d.n;
  s.k = d.k;
  s.transpose_a = d.transpose_a;
  s.transpose_b = d.transpose_b;
  s.has_bias = bias != nullptr;
  s.activation = act;
  return s;
}

// Whether a batch-1 float product may skip the weight rows under zeros of its input: only for
// constant weights (the same Const buffer every run, scanned for Inf and NaN once).
bool WeightsKnownFinite(bool constant_weights, const FiniteWeightsCache& cache, const Tensor& b,
                        const GemmDims& d) {
  return constant_weights && d.m == 1 && !d.transpose_b && b.dtype() == DT_FLOAT &&
         cache.IsFinite(b.flat<float>().data(), b.NumElements());
}

class MatMulOp final : public OpKernel {
 public:
  explicit MatMulOp(OpKernelConstruction& ctx) : OpKernel(ctx) {
    ctx.SetStatus(ctx.GetAttr("transpose_a", &transpose_a_));
    ctx.SetStatus(ctx.GetAttr("transpose_b", &transpose_b_));
    constant_weights_ = HasConstantWeights(ctx);
  }

  absl::Status Compute(OpKernelContext& ctx) const override {
    const Tensor& a = ctx.input(0);
    const Tensor& b = ctx.input(1);
    RILL_ASSIGN_OR_RETURN(GemmDims d, MatMulDims(ctx, a, b, transpose_a_, transpose_b_));
    d.b_known_finite = WeightsKnownFinite(constant_weights_, finite_, b, d);
    // m * n can overflow int64 when k is 0 (empty inputs with huge dims): checked, not aborted.
    RILL_ASSIGN_OR_RETURN(const TensorShape out_shape, TensorShape::FromDims({d.m, d.n}));
    absl::StatusOr<Tensor*> out = ctx.allocate_output(0, out_shape);
    if (!out.ok()) return out.status();
    Tensor* c = *out;
    if (UsePackedWeights(a, d)) {
      return OneDnnMatMul(PackedShape(d, nullptr, FusedActivation::kNone), ctx.intra_op_threads(),
                          a.flat<float>().data(), b.flat<float>().data(), nullptr,
                          c->flat<float>().data(), HoldConstantWeights(packed_.get(), b));
    }
    switch (a.dtype()) {
      case DT_FLOAT:
        return Gemm<float>(d, a, b, c);
      case DT_DOUBLE:
        return Gemm<double>(d, a, b, c);
      case DT_COMPLEX64:
        return Gemm<complex64>(d, a, b, c);
      case DT_COMPLEX128:
        return Gemm<complex128>(d, a, b, c);
      case DT_HALF:
        return Gemm<half>(d, a, b, c);
      case DT_BFLOAT16:
        return Gemm<bfloat16>(d, a, b, c);
      case DT_INT32:
        return Gemm<int32_t>(d, a, b, c);
      case DT_INT64:
        return Gemm<int64_t>(d, a, b, c);
      default:
        return absl::InvalidArgumentError(absl::StrCat(
            "MatMul node ", name(), " has no CPU implementation for ", DataTypeString(a.dtype())));
    }
  }

 private:
  template <typename T>
  static absl::Status Gemm(const GemmDims& d, const Tensor& a, const Tensor& b, Tensor* c) {
    return ::rill::Gemm<T>(d, a.flat<T>().data(), b.flat<T>().data(), c->flat<T>().data());
  }

  bool UsePackedWeights(const Tensor& a, const GemmDims& d) const {
    // A single row (batch 1) streams the weights once either way, and Gemm's row-vector paths
    // (skipping rows under zeros, or OpenBLAS's gemv in row bands over the threads,
    // kernels/math_lib/gemm.cc) are at least as fast as the packed product there.
    return constant_weights_ && a.dtype() == DT_FLOAT && d.m > 1 && OneDnnMatMulPays(d.n, d.k);
  }

  bool transpose_a_ = false;
  bool transpose_b_ = false;
  bool constant_weights_ = false;
  const std::unique_ptr<OneDnnPackedWeights> packed_ = std::make_unique<OneDnnPackedWeights>();
  const FiniteWeightsCache finite_;
};

// _FusedMatMul (made by the graph optimizer from MatMul + BiasAdd [+ Relu | Relu6]): the GEMM
// into the output, each block then getting its bias and activation on the thread that computed
// it (Gemm's epilogue, kernels/math_lib/fused_epilogue.h).
class FusedMatMulOp final : public OpKernel {
 public:
  explicit FusedMatMulOp(OpKernelConstruction& ctx) : OpKernel(ctx) {
    ctx.SetStatus(ctx.GetAttr("transpose_a", &transpose_a_));
    ctx.SetStatus(ctx.GetAttr("transpose_b", &transpose_b_));
    absl::StatusOr<FusedActivation> act = ParseFusedOps(ctx);
    if (act.ok()) activation_ = *act;
    ctx.SetStatus(act.status());
    constant_weights_ = HasConstantWeights(ctx);
  }

  absl::Status Compute(OpKernelContext& ctx) const override {
    const Tensor& a = ctx.input(0);
    const Tensor& b = ctx.input(1);
    const Tensor& bias = ctx.input(2);
    RILL_ASSIGN_OR_RETURN(GemmDims d, MatMulDims(ctx, a, b, transpose_a_, transpose_b_));
    d.b_known_finite = WeightsKnownFinite(constant_weights_, finite_, b, d);
    RILL_RETURN_IF_ERROR(CheckBias(bias, d.n));
    RILL_ASSIGN_OR_RETURN(const TensorShape out_shape, TensorShape::FromDims({d.m, d.n}));
    RILL_ASSIGN_OR_RETURN(Tensor * c, ctx.allocate_output(0, out_shape));
    if (c->NumElements() == 0) return absl::OkStatus();
    if (constant_weights_ && a.dtype() == DT_FLOAT && d.m > 1 && OneDnnMatMulPays(d.n, d.k)) {
      return OneDnnMatMul(PackedShape(d, &bias, activation_), ctx.intra_op_threads(),
                          a.flat<float>().data(), b.flat<float>().data(), bias.flat<float>().data(),
                          c->flat<float>().data(), HoldConstantWeights(packed_.get(), b));
    }
    if (a.dtype() == DT_FLOAT) return Run<float>(d, a, b, bias, c);
    return Run<double>(d, a, b, bias, c);
  }

 private:
  template <typename T>
  absl::Status Run(const GemmDims& d, const Tensor& a, const Tensor& b, const Tensor& bias,
                   Tensor* c) const {
    // Bias and activation per block of the product, on the thread that computed it.
    T* out = c->flat<T>().data();
    const T* bias_data = bias.flat<T>().data();
    auto add_bias = [&](int64_t r0, int64_t r1, int64_t c0, int64_t c1) {
      BiasActivationBlock(out, d.n, bias_data, r0, r1, c0, c1, activation_);
    };
    const GemmEpilogue epilogue(add_bias);
    GemmDims with_epilogue = d;
    with_epilogue.epilogue = &epilogue;
    return ::rill::Gemm<T>(with_epilogue, a.flat<T>().data(), b.flat<T>().data(), out);
  }

  bool transpose_a_ = false;
  bool transpose_b_ = false;
  FusedActivation activation_ = FusedActivation::kNone;
  bool constant_weights_ = false;
  const std::unique_ptr<OneDnnPackedWeights> packed_ = std::make_unique<OneDnnPackedWeights>();
  const FiniteWeightsCache finite_;
};

REGISTER_KERNEL(
    KernelDefBuilder("_FusedMatMul").Device(kDeviceCpu).TypeConstraint("T", {DT_FLOAT, DT_DOUBLE}),
    FusedMatMulOp);
REGISTER_KERNEL(KernelDefBuilder("MatMul")
                    .Device(kDeviceCpu)
                    .TypeConstraint("T", {DT_BFLOAT16, DT_HALF, DT_FLOAT, DT_DOUBLE, DT_INT32,
                                          DT_INT64, DT_COMPLEX64, DT_COMPLEX128}),
                MatMulOp);

}  // namespace
}  // namespace rill
