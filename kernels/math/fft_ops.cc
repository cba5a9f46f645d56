// FFTs on the CPU over the innermost one or two dimensions: FFT, IFFT, RFFT, IRFFT and the 2-D
// forms FFT2D, IFFT2D, RFFT2D, IRFFT2D, computed in the element type (float for complex64,
// double for complex128) by kernels/math_lib/fft_batch.h's batched, vectorized transforms: one
// pass per transformed axis, the innermost first, except for IRFFT2D, whose real innermost axis
// comes last. The inverse transforms scale by 1 / (product of the lengths).
// The real forms crop or zero-pad the input to fft_length (RFFT) or read the first
// fft_length[-1] / 2 + 1 bins of the innermost dimension (IRFFT, which treats the spectrum as
// Hermitian: the imaginary parts of the DC and Nyquist bins are ignored).
//
// Kernels are immutable after construction; Compute is thread-safe (plans are shared, read-only).
#include <algorithm>
#include <complex>
#include <cstdint>
#include <vector>

#include "absl/strings/str_cat.h"
#include "core/status_macros.h"
#include "kernels/framework/kernel_registry.h"
#include "kernels/math_lib/cwise_op.h"
#include "kernels/math_lib/fft_batch.h"

namespace rill {
namespace {

// Runs a fft_batch job set on the intra-op threads.
template <typename Jobs>
void RunJobs(const OpKernelContext& ctx, const Jobs& jobs) {
  ctx.ParallelFor(jobs.num_jobs(), jobs.cost_per_job(),
                  [&](int64_t begin, int64_t end) { jobs.Run(begin, end); });
}

enum class FftKind { kComplex, kRealForward, kRealInverse };

template <int kRank, FftKind kKind, bool kInverse>
class FftOp final : public OpKernel {
 public:
  explicit FftOp(OpKernelConstruction& ctx) : OpKernel(ctx) {}
  bool IsExpensive() const override { return true; }

  absl::Status Compute(OpKernelContext& ctx) const override {
    const Tensor& in = ctx.input(0);
    const TensorShape& shape = in.shape();
    const int rank = shape.rank();
    if (rank < kRank) {
      return absl::InvalidArgumentError(absl::StrCat("Input must have rank of at least ", kRank,
                                                     " but got: ", shape.DebugString()));
    }
    // The innermost two dims (1 x n for the 1-D transforms): input and transform lengths.
    int64_t d[2] = {1, shape.dim(rank - 1)};
    if (kRank == 2) d[0] = shape.dim(rank - 2);
    int64_t len[2] = {d[0], d[1]};
    if (kKind != FftKind::kComplex) {
      const Tensor& fft_length = ctx.input(1);
      if (fft_length.shape().rank() != 1 || fft_length.shape().dim(0) != kRank) {
        return absl::InvalidArgumentError(absl::StrCat("fft_length must have shape [", kRank, "]"));
      }
      const int32_t* l = fft_length.flat<int32_t>().data();
      for (int i = 0; i < kRank; ++i) {
        if (l[i] < 0) {
          return absl::InvalidArgumentError(
              absl::StrCat("fft_length[", i, "] must >= 0, but got: ", l[i]));
        }
        len[2 - kRank + i] = l[i];
      }
    }
    // The bins a real transform keeps (none of an empty transform).
    const int64_t half = len[1] == 0 ? 0 : len[1] / 2 + 1;
    std::vector<int64_t> out_dims(shape.dims().begin(), shape.dims().end());
    if (kRank == 2) out_dims[rank - 2] = len[0];
    out_dims[rank - 1] = kKind == FftKind::kRealForward ? half : len[1];
    RILL_ASSIGN_OR_RETURN(TensorShape out_shape, TensorShape::FromDims(out_dims));
    // An empty input gives a zero spectrum: TensorFlow checks the input lengths only after that.
    const bool empty_in = in.NumElements() == 0;
    if (!empty_in && kKind != FftKind::kComplex) {
      // The real transforms read the first fft_length elements (RFFT) or bins (IRFFT's innermost
      // dimension: fft_length / 2 + 1) of each transformed dimension.
      for (int i = 0; i < kRank; ++i) {
        const int axis = 2 - kRank + i;
        const int64_t need =
            kKind == FftKind::kRealInverse && axis == 1 ? len[1] / 2 + 1 : len[axis];
        if (d[axis] < need) {
          return absl::InvalidArgumentError(absl::StrCat("Input dimension ", rank - kRank + i,
                                                         " must have length of at least ", need,
                                                         " but got: ", d[axis]));
        }
      }
    }
    RILL_ASSIGN_OR_RETURN(Tensor * out, ctx.allocate_output(0, out_shape));
    const int64_t out_n = out_shape.num_elements();
    if (out_n == 0) return absl::OkStatus();
    const bool zeros = empty_in || len[0] == 0 || len[1] == 0;
    int64_t batch = 1;
    for (int i = 0; i < rank - kRank; ++i) batch *= shape.dim(i);
    const DataType complex_type = kKind == FftKind::kRealForward ? out->dtype() : in.dtype();
    return VisitKernelTypes<complex64, complex128>(*this, complex_type, [&](auto tag) {
      using C = typename decltype(tag)::type;
      using R = typename C::value_type;
      if (zeros) {
        if constexpr (kKind == FftKind::kRealInverse) {
          std::fill_n(out->flat<R>().data(), out_n, R(0));
        } else {
          std::fill_n(out->flat<C>().data(), out_n, C(0, 0));
        }
        return absl::OkStatus();
      }
      Transform<C, R>(ctx, in, out, batch, d, len, half);
      return absl::OkStatus();
    });
  }

 private:
  template <typename C, typename R>
  void Transform(OpKernelContext& ctx, const Tensor& in, Tensor* out, int64_t batch,
                 const int64_t* d, const int64_t* len, int64_t half) const {
    const int64_t l0 = len[0], l1 = len[1];
    const R scale = kInverse ? static_cast<R>(1.0 / (static_cast<double>(l0) * l1)) : R(1);
    if constexpr (kKind == FftKind::kComplex) {
      const C* x = in.flat<C>().data();
      C* y = out->flat<C>().data();
      // Rows first (into the output), then the columns of each [l0][l1] matrix in place.
      RunJobs(ctx, ComplexAxisFft<R>(batch * l0, l1, 1, kInverse, kRank == 1 ? scale : R(1), x, y));
      if (kRank == 2) RunJobs(ctx, ComplexAxisFft<R>(batch, l0, l1, kInverse, scale, y, y));
    } else if constexpr (kKind == FftKind::kRealForward) {
      FftRowLayout rows;
      rows.rows = batch * l0;
      rows.group = l0;
      rows.group_stride = d[0] * d[1];
      rows.row_stride = d[1];
      rows.valid_rows = std::min(l0, d[0]);
      rows.valid_len = std::min(l1, d[1]);
      C* y = out->flat<C>().data();
      RunJobs(ctx, RealForwardRows<R>(l1, rows, in.flat<R>().data(), y));
      if (kRank == 2) RunJobs(ctx, ComplexAxisFft<R>(batch, l0, half, false, R(1), y, y));
    } else {  // kRealInverse
      const C* x = in.flat<C>().data();
      FftRowLayout rows;
      rows.rows = batch * l0;
      rows.group = l0;
      rows.group_stride = d[0] * d[1];
      rows.row_stride = d[1];
      rows.valid_rows = l0;
      std::vector<C> cropped;
      if (kRank == 2 && l0 > 1) {
        // The columns' inverse transforms first, on the [l0][half] corner of each matrix.
        cropped.resize(static_cast<size_t>(batch * l0 * half));
        for (int64_t b = 0; b < batch; ++b) {
          for (int64_t r = 0; r < l0; ++r) {
            std::copy_n(x + (b * d[0] + r) * d[1], half, cropped.data() + (b * l0 + r) * half);
          }
        }
        RunJobs(ctx,
                ComplexAxisFft<R>(batch, l0, half, true, R(1), cropped.data(), cropped.data()));
        x = cropped.data();
        rows.group_stride = l0 * half;
        rows.row_stride = half;
      }
      RunJobs(ctx, RealInverseRows<R>(l1, rows, scale, x, out->flat<R>().data()));
    }
  }
};

#define RILL_COMPLEX_FFT(op, rank, inverse)                                       \
  REGISTER_KERNEL(KernelDefBuilder(op)                                            \
                      .Device(kDeviceCpu)                                         \
                      .TypeConstraint("Tcomplex", {DT_COMPLEX64, DT_COMPLEX128}), \
                  FftOp<rank, FftKind::kComplex, inverse>)
#define RILL_REAL_FFT(op, rank, kind, inverse)                      \
  REGISTER_KERNEL(KernelDefBuilder(op)                              \
                      .Device(kDeviceCpu)                           \
                      .TypeConstraint("Treal", {DT_FLOAT})          \
                      .TypeConstraint("Tcomplex", {DT_COMPLEX64}),  \
                  FftOp<rank, kind, inverse>);                      \
  REGISTER_KERNEL(KernelDefBuilder(op)                              \
                      .Device(kDeviceCpu)                           \
                      .TypeConstraint("Treal", {DT_DOUBLE})         \
                      .TypeConstraint("Tcomplex", {DT_COMPLEX128}), \
                  FftOp<rank, kind, inverse>)

RILL_COMPLEX_FFT("FFT", 1, false);
RILL_COMPLEX_FFT("IFFT", 1, true);
RILL_COMPLEX_FFT("FFT2D", 2, false);
RILL_COMPLEX_FFT("IFFT2D", 2, true);
RILL_REAL_FFT("RFFT", 1, FftKind::kRealForward, false);
RILL_REAL_FFT("IRFFT", 1, FftKind::kRealInverse, true);
RILL_REAL_FFT("RFFT2D", 2, FftKind::kRealForward, false);
RILL_REAL_FFT("IRFFT2D", 2, FftKind::kRealInverse, true);

}  // namespace
}  // namespace rill
