// The CUDA kernel of Einsum (float, double) for the equations models write between layers, such
// as attention's "BTNH,BSNH->BNTS" and "BNTS,BSNH->BTNH": the operands are transposed to
// [batch, free_x, contract] and [batch, contract, free_y] by the strided copy (no copy when
// already in that order), multiplied by cuBLAS's strided batched GEMM on the compute stream, and
// the [batch, free_x, free_y] product is transposed into the output's order (or written there
// directly). One operand: a transpose. The equation, labels and errors are the CPU kernel's
// (kernels/math_lib/einsum_spec.h). Unimplemented on the GPU, naming the node: a label summed
// out of one operand alone, and batch dims that broadcast other than a whole operand's batch of 1.
#include <cstdint>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "core/gpu/cuda_blas.h"
#include "core/gpu/cuda_stream.h"
#include "core/status_macros.h"
#include "core/types.h"
#include "kernels/gpu/copy_box.h"
#include "kernels/gpu/copy_launchers.h"
#include "kernels/gpu/gpu_op_kernel.h"
#include "kernels/math_lib/einsum_spec.h"

namespace rill {
namespace {

class EinsumGpuOp final : public GpuOpKernel {
 public:
  explicit EinsumGpuOp(OpKernelConstruction& ctx) : GpuOpKernel(ctx) {
    std::string equation;
    ctx.SetStatus(ctx.GetAttr("equation", &equation));
    int64_t n = 0;
    ctx.SetStatus(ctx.GetAttr("N", &n));
    if (!ctx.status().ok()) return;
    absl::StatusOr<EinsumEquation> eq = ParseEinsumEquation(equation, static_cast<int>(n));
    if (!eq.ok()) {
      ctx.SetStatus(eq.status());
      return;
    }
    equation_ = *std::move(eq);
  }

  absl::Status Compute(OpKernelContext& ctx) const override {
    const int n = static_cast<int>(equation_.inputs.size());
    std::vector<TensorShape> shapes;
    for (int i = 0; i < n; ++i) shapes.push_back(ctx.input(i).shape());
    RILL_ASSIGN_OR_RETURN(EinsumLabels labels, EinsumLabelsOf(equation_, shapes));
    if (n == 1) {
      if (labels.output.size() != labels.operands[0].size()) {
        return Unsupported("a label summed out of one operand");
      }
      RILL_ASSIGN_OR_RETURN(Tensor * out, ctx.allocate_output(0, labels.out_shape));
      return Permute(ctx.input(0), labels.operands[0], labels.output, out);
    }
    const std::string &batch = labels.batch, &contract = labels.contract, &free_x = labels.free_x,
                      &free_y = labels.free_y;
    if (labels.operands[0].size() != batch.size() + free_x.size() + contract.size() ||
        labels.operands[1].size() != batch.size() + contract.size() + free_y.size()) {
      return Unsupported("a label summed out of one operand");
    }
    const Tensor& x = ctx.input(0);
    const Tensor& y = ctx.input(1);
    auto product = [&](int operand, const std::string& group) {
      int64_t p = 1;
      for (char l : group) {
        p *= shapes[operand].dim(static_cast<int>(labels.operands[operand].find(l)));
      }
      return p;
    };
    int64_t batches = 1;
    for (char l : batch) batches *= labels.size.at(l);
    const int64_t m = product(0, free_x), k = product(0, contract), nn = product(1, free_y);
    const int64_t xb = product(0, batch), yb = product(1, batch);
    if ((xb != batches && xb != 1) || (yb != batches && yb != 1)) {
      return Unsupported("batch dims that broadcast within an operand");
    }
    RILL_ASSIGN_OR_RETURN(Tensor * out, ctx.allocate_output(0, labels.out_shape));
    if (out->NumElements() == 0) return absl::OkStatus();
    void* s = stream();
    if (k == 0) {  // an empty sum
      const uint64_t zero = 0;
      gpu_kernels::LaunchFillBytes(out->raw_data(), &zero, DataTypeSize(out->dtype()),
                                   out->NumElements(), s);
      return Launched();
    }
    // The operands in GEMM order (the input itself when already so).
    RILL_ASSIGN_OR_RETURN(Tensor xt,
                          Ordered(ctx, x, labels.operands[0], batch + free_x + contract));
    RILL_ASSIGN_OR_RETURN(Tensor yt,
                          Ordered(ctx, y, labels.operands[1], batch + contract + free_y));
    const std::string product_labels = batch + free_x + free_y;
    Tensor prod = *out;
    if (product_labels != labels.output) {
      RILL_ASSIGN_OR_RETURN(prod, ctx.allocate_temp(out->dtype(), TensorShape({batches, m, nn})));
    }
    RILL_ASSIGN_OR_RETURN(void* handle, gpu()->BlasHandle());
    // Row-major P[b] (m x n) = X[b] (m x k) Y[b] (k x n) is column-major P^T = Y^T X^T.
    const int64_t stride_x = xb == 1 ? 0 : m * k, stride_y = yb == 1 ? 0 : k * nn;
    std::string error;
    bool ok;
    if (x.dtype() == DT_DOUBLE) {
      ok = gpu_internal::CublasGemmStridedBatched<double>(
          gpu()->platform_id(), handle, false, false, nn, m, k, yt.flat<double>().data(), nn,
          stride_y, xt.flat<double>().data(), k, stride_x, prod.flat<double>().data(), nn, m * nn,
          batches, &error);
    } else {
      ok = gpu_internal::CublasGemmStridedBatched<float>(
          gpu()->platform_id(), handle, false, false, nn, m, k, yt.flat<float>().data(), nn,
          stride_y, xt.flat<float>().data(), k, stride_x, prod.flat<float>().data(), nn, m * nn,
          batches, &error);
    }
    if (!ok) return gpu()->CudaError(absl::StrCat("in ", type_string(), " node ", name()), error);
    if (product_labels == labels.output) return absl::OkStatus();
    std::vector<int64_t> prod_dims;
    for (char l : product_labels) prod_dims.push_back(labels.size.at(l));
    RILL_ASSIGN_OR_RETURN(TensorShape prod_shape, TensorShape::FromDims(prod_dims));
    RILL_ASSIGN_OR_RETURN(Tensor labelled, prod.Reshaped(prod_shape));
    return Permute(labelled, product_labels, labels.output, out);
  }

 private:
  absl::Status Unsupported(const std::string& what) const {
    return absl::UnimplementedError(
        absl::StrCat(type_string(), " node ", name(), " on the GPU does not support ", what,
                     " (the CPU kernel does); pin the node to the CPU"));
  }

  // `in` (one label per dim in `from`) with its dims in the order of `to`, a permutation of
  // `from`: the input itself when the orders agree, else a transposed temporary.
  absl::StatusOr<Tensor> Ordered(OpKernelContext& ctx, const Tensor& in, const std::string& from,
                                 const std::string& to) const {
    if (from == to) return in;
    std::vector<int64_t> dims;
    for (char l : to) dims.push_back(in.shape().dim(static_cast<int>(from.find(l))));
    RILL_ASSIGN_OR_RETURN(TensorShape shape, TensorShape::FromDims(dims));
    RILL_ASSIGN_OR_RETURN(Tensor t, ctx.allocate_temp(in.dtype(), shape));
    RILL_RETURN_IF_ERROR(Permute(in, from, to, &t));
    return t;
  }

  // Writes `in` (labels `from`) into `out` (labels `to`, a permutation of `from`).
  absl::Status Permute(const Tensor& in, const std::string& from, const std::string& to,
                       Tensor* out) const {
    gpu_copy::CopyBox box(out->shape().dims());
    const std::vector<int64_t> in_strides = gpu_copy::RowMajor(in.shape().dims());
    for (size_t d = 0; d < to.size(); ++d) box.src_strides[d] = in_strides[from.find(to[d])];
    gpu_kernels::StridedCopy copy;
    absl::StatusOr<bool> any = gpu_copy::MergeCopyBox(box, &copy);
    if (!any.ok()) {
      return absl::UnimplementedError(
          absl::StrCat(type_string(), " node ", name(), ": ", any.status().message()));
    }
    if (!*any) return absl::OkStatus();
    gpu_kernels::LaunchStridedCopy(copy, DataTypeSize(in.dtype()), in.raw_data(), out->raw_data(),
                                   stream());
    return Launched();
  }

  EinsumEquation equation_;
};

REGISTER_GPU_KERNEL(KernelDefBuilder("Einsum").TypeConstraint("T", {DT_FLOAT, DT_DOUBLE}),
                    EinsumGpuOp);

}  // namespace
}  // namespace rill
