// FFTs on the CPU over the innermost one, two or three dimensions: FFT, IFFT, RFFT, IRFFT and the
// 2-D and 3-D forms (FFT2D ... IRFFT3D), computed in the element type (float for complex64,
// double for complex128) by kernels/math_lib/fft_batch.h's batched, vectorized transforms: one
// pass per transformed axis, the innermost first, except for IRFFT2D / IRFFT3D, whose real
// innermost axis comes last. The inverse transforms scale by 1 / (product of the lengths).
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
    // The innermost kRank dims: input and transform lengths.
    int64_t d[kRank], len[kRank];
    for (int i = 0; i < kRank; ++i) d[i] = len[i] = shape.dim(rank - kRank + i);
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
        len[i] = l[i];
      }
    }
    const int64_t inner_len = len[kRank - 1];
    // The bins a real transform keeps (none of an empty transform).
    const int64_t half = inner_len == 0 ? 0 : inner_len / 2 + 1;
    std::vector<int64_t> out_dims(shape.dims().begin(), shape.dims().end());
    for (int i = 0; i < kRank; ++i) out_dims[rank - kRank + i] = len[i];
    if (kKind == FftKind::kRealForward) out_dims[rank - 1] = half;
    RILL_ASSIGN_OR_RETURN(TensorShape out_shape, TensorShape::FromDims(out_dims));
    // An empty input gives a zero spectrum: TensorFlow checks the input lengths only after that.
    const bool empty_in = in.NumElements() == 0;
    if (!empty_in && kKind != FftKind::kComplex) {
      // The real transforms read the first fft_length elements (RFFT) or bins (IRFFT's innermost
      // dimension: fft_length / 2 + 1) of each transformed dimension.
      for (int i = 0; i < kRank; ++i) {
        const int64_t need =
            kKind == FftKind::kRealInverse && i == kRank - 1 ? inner_len / 2 + 1 : len[i];
        if (d[i] < need) {
          return absl::InvalidArgumentError(absl::StrCat("Input dimension ", rank - kRank + i,
                                                         " must have length of at least ", need,
                                                         " but got: ", d[i]));
        }
      }
    }
    RILL_ASSIGN_OR_RETURN(Tensor * out, ctx.allocate_output(0, out_shape));
    const int64_t out_n = out_shape.num_elements();
    if (out_n == 0) return absl::OkStatus();
    bool zeros = empty_in;
    for (int i = 0; i < kRank; ++i) zeros = zeros || len[i] == 0;
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
      return Transform<C, R>(ctx, in, out, batch, d, len, half);
    });
  }

 private:
  // The complex transforms of y's [batch][l0]...[l_{k-2}][inner] matrices along their axes
  // 0 .. k - 2 (all but the innermost), in place, the last one multiplied by `scale`.
  template <typename R>
  static void OuterAxes(OpKernelContext& ctx, int64_t batch, const int64_t* len, int64_t inner,
                        bool inverse, R scale, std::complex<R>* y) {
    for (int axis = kRank - 2; axis >= 0; --axis) {
      int64_t outer = batch, after = inner;
      for (int i = 0; i < axis; ++i) outer *= len[i];
      for (int i = axis + 1; i < kRank - 1; ++i) after *= len[i];
      RunJobs(ctx,
              ComplexAxisFft<R>(outer, len[axis], after, inverse, axis == 0 ? scale : R(1), y, y));
    }
  }

  // The innermost-axis rows of the input (dims `d`, transform lengths `len`) for the real
  // transforms: row (b, i_0, ..., i_{k-2}); a group is the rows of one [.., l_{k-2}, d] matrix;
  // the rank-3 transforms' groups form blocks of l_0 matrices per batch element. The caller sets
  // how much of each group and row is read (valid_rows, valid_len).
  static FftRowLayout InputRows(int64_t rows, const int64_t* d, const int64_t* len) {
    FftRowLayout layout;
    layout.rows = rows;
    layout.group = kRank == 1 ? 1 : len[kRank - 2];
    layout.row_stride = d[kRank - 1];
    layout.group_stride = kRank == 1 ? d[0] : d[kRank - 2] * d[kRank - 1];
    if (kRank == 3) {
      layout.block_groups = len[0];
      layout.block_stride = d[0] * d[1] * d[2];
    }
    return layout;
  }

  template <typename C, typename R>
  absl::Status Transform(OpKernelContext& ctx, const Tensor& in, Tensor* out, int64_t batch,
                         const int64_t* d, const int64_t* len, int64_t half) const {
    double size = 1;
    int64_t rows = batch;  // rows of the innermost axis
    for (int i = 0; i < kRank; ++i) size *= static_cast<double>(len[i]);
    for (int i = 0; i < kRank - 1; ++i) rows *= len[i];
    const int64_t n = len[kRank - 1];
    const R scale = kInverse ? static_cast<R>(1.0 / size) : R(1);
    if constexpr (kKind == FftKind::kComplex) {
      const C* x = in.flat<C>().data();
      C* y = out->flat<C>().data();
      // Rows first (into the output), then the other axes in place.
      RunJobs(ctx, ComplexAxisFft<R>(rows, n, 1, kInverse, kRank == 1 ? scale : R(1), x, y));
      OuterAxes<R>(ctx, batch, len, n, kInverse, scale, y);
    } else if constexpr (kKind == FftKind::kRealForward) {
      FftRowLayout layout = InputRows(rows, d, len);
      layout.valid_rows = kRank == 1 ? 1 : std::min(len[kRank - 2], d[kRank - 2]);
      layout.valid_len = std::min(n, d[kRank - 1]);
      C* y = out->flat<C>().data();
      RunJobs(ctx, RealForwardRows<R>(n, layout, in.flat<R>().data(), y));
      OuterAxes<R>(ctx, batch, len, half, false, R(1), y);
    } else {  // kRealInverse
      const C* x = in.flat<C>().data();
      FftRowLayout layout = InputRows(rows, d, len);
      layout.valid_rows = layout.group;
      Tensor cropped_t;  // outlives the row transforms that read it
      if (kRank > 1 && rows > batch) {
        // The other axes' inverse transforms first, on the [l_0]...[l_{k-2}][half] corner of
        // each input matrix, copied into a temp of the session's allocator (a fresh vector
        // faulted its pages in on every run).
        RILL_ASSIGN_OR_RETURN(cropped_t, ctx.allocate_temp(in.dtype(), TensorShape({rows * half})));
        C* cropped = cropped_t.flat<C>().data();
        ctx.ParallelFor(rows, 2 * half + 20, [&](int64_t begin, int64_t end) {
          for (int64_t r = begin; r < end; ++r) {
            // Row r = ((b * l_0 + i_0) * l_1 + i_1)...: its offset in the input.
            int64_t rest = r, offset = 0, stride = d[kRank - 1];
            for (int i = kRank - 2; i >= 0; --i) {
              offset += (rest % len[i]) * stride;
              rest /= len[i];
              stride *= d[i];
            }
            offset += rest * stride;
            std::copy_n(x + offset, half, cropped + r * half);
          }
        });
        OuterAxes<R>(ctx, batch, len, half, true, R(1), cropped);
        x = cropped;
        layout.group_stride = layout.group * half;
        layout.row_stride = half;
        layout.block_groups = 0;
      }
      RunJobs(ctx, RealInverseRows<R>(n, layout, scale, x, out->flat<R>().data()));
    }
    return absl::OkStatus();
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
RILL_COMPLEX_FFT("FFT3D", 3, false);
RILL_COMPLEX_FFT("IFFT3D", 3, true);
RILL_REAL_FFT("RFFT3D", 3, FftKind::kRealForward, false);
RILL_REAL_FFT("IRFFT3D", 3, FftKind::kRealInverse, true);

}  // namespace
}  // namespace rill
