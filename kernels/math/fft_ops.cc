// FFTs on the CPU over the innermost one or two dimensions: FFT, IFFT, RFFT, IRFFT and the 2-D
// forms FFT2D, IFFT2D, RFFT2D, IRFFT2D. Every transform is computed in double (complex64 too):
// an iterative radix-2 FFT for power-of-two lengths, Eigen's FFT (kissfft, mixed radix) for the
// other lengths whose prime factors are all at most 7, and Bluestein's chirp-z algorithm (a
// power-of-two circular convolution) for the rest, whose large prime factors kissfft would
// transform in quadratic time. The inverse transforms scale by 1/n.
// The real forms crop or zero-pad the input to fft_length (RFFT) or read the first
// fft_length[-1] / 2 + 1 bins of the innermost dimension (IRFFT, which treats the spectrum as
// Hermitian: the imaginary parts of the DC and Nyquist bins are ignored); RFFT transforms a real
// row of power-of-two length as half as many complex points.
//
// Kernels are immutable after construction; Compute is thread-safe (Eigen's FFT objects, whose
// plan caches are not, are per thread).
#include <algorithm>
#include <cmath>
#include <complex>
#include <cstdint>
#include <eigen3/unsupported/Eigen/FFT>
#include <vector>

#include "absl/strings/str_cat.h"
#include "core/status_macros.h"
#include "kernels/framework/kernel_registry.h"
#include "kernels/math_lib/cwise_op.h"

namespace rill {
namespace {

using Cd = std::complex<double>;
using EigenFft = Eigen::FFT<double>;

// Whether n's prime factors are all at most 7 (kissfft's radices and small generic ones).
bool SmoothLength(int64_t n) {
  for (int64_t p : {2, 3, 5, 7}) {
    while (n % p == 0) n /= p;
  }
  return n == 1;
}

// This thread's Eigen FFT (unscaled), whose plans for the lengths it has seen are kept; bounded:
// the plans are dropped after 64 lengths.
EigenFft& ThreadFft(int64_t n) {
  thread_local EigenFft fft;
  thread_local std::vector<int64_t> lengths;
  if (std::find(lengths.begin(), lengths.end(), n) == lengths.end()) {
    if (lengths.size() >= 64) {
      fft.impl().clear();
      lengths.clear();
    }
    fft.SetFlag(EigenFft::Unscaled);
    lengths.push_back(n);
  }
  return fft;
}

// Plain complex product (std::complex's operator* goes through the C99 Annex G NaN recovery).
inline Cd CMul(Cd a, Cd b) {
  return Cd(a.real() * b.real() - a.imag() * b.imag(), a.real() * b.imag() + a.imag() * b.real());
}

// Twiddles e^{-2 pi i k / n}, k < n / 2, for a power of two n.
std::vector<Cd> Twiddles(int64_t n) {
  std::vector<Cd> tw(static_cast<size_t>(n / 2));
  for (int64_t k = 0; k < n / 2; ++k) {
    const double angle = -2.0 * M_PI * static_cast<double>(k) / static_cast<double>(n);
    tw[k] = Cd(std::cos(angle), std::sin(angle));
  }
  return tw;
}

// In-place unnormalized DFT of a[0, n), n a power of two: sign -1 (forward) uses `tw`, +1 its
// conjugates.
void Radix2(Cd* a, int64_t n, const std::vector<Cd>& tw, bool inverse) {
  for (int64_t i = 1, j = 0; i < n; ++i) {  // bit-reversal permutation
    int64_t bit = n >> 1;
    for (; j & bit; bit >>= 1) j ^= bit;
    j ^= bit;
    if (i < j) std::swap(a[i], a[j]);
  }
  for (int64_t len = 2; len <= n; len <<= 1) {
    const int64_t half = len / 2;
    const int64_t step = n / len;
    for (int64_t i = 0; i < n; i += len) {
      for (int64_t j = 0; j < half; ++j) {
        Cd w = tw[j * step];
        if (inverse) w = std::conj(w);
        const Cd u = a[i + j];
        const Cd v = CMul(a[i + j + half], w);
        a[i + j] = u + v;
        a[i + j + half] = u - v;
      }
    }
  }
}

// An unnormalized DFT of one length and direction: out[k] = sum_j x[j] e^{-+2 pi i jk / n}.
class FftPlan {
 public:
  FftPlan(int64_t n, bool inverse) : n_(n), inverse_(inverse) {
    if (n_ <= 1) return;
    if ((n_ & (n_ - 1)) == 0) {
      tw_ = Twiddles(n_);
      return;
    }
    if (SmoothLength(n_)) {
      eigen_ = true;
      return;
    }
    // Bluestein: jk = (j^2 + k^2 - (k - j)^2) / 2, so the DFT is a chirp, a convolution with the
    // conjugate chirp, and a chirp. k^2 is reduced mod 2n to keep the angles exact.
    m_ = 1;
    while (m_ < 2 * n_ - 1) m_ <<= 1;
    tw_ = Twiddles(m_);
    const double sign = inverse_ ? 1.0 : -1.0;
    chirp_.resize(static_cast<size_t>(n_));
    const unsigned __int128 two_n = static_cast<unsigned __int128>(2 * n_);
    for (int64_t k = 0; k < n_; ++k) {
      const unsigned __int128 k2 =
          static_cast<unsigned __int128>(k) * static_cast<unsigned __int128>(k) % two_n;
      const double angle =
          sign * M_PI * static_cast<double>(static_cast<int64_t>(k2)) / static_cast<double>(n_);
      chirp_[k] = Cd(std::cos(angle), std::sin(angle));
    }
    kernel_.assign(static_cast<size_t>(m_), Cd(0, 0));
    kernel_[0] = std::conj(chirp_[0]);
    for (int64_t k = 1; k < n_; ++k) kernel_[k] = kernel_[m_ - k] = std::conj(chirp_[k]);
    Radix2(kernel_.data(), m_, tw_, false);
  }

  int64_t scratch_size() const { return std::max(m_, n_); }

  // Transforms x[0, n) in place; `scratch` holds scratch_size() elements.
  void Run(Cd* x, Cd* scratch) const {
    if (n_ <= 1) return;
    if (eigen_) {
      std::copy_n(x, n_, scratch);
      EigenFft& fft = ThreadFft(n_);
      if (inverse_) {
        fft.inv(x, scratch, n_);
      } else {
        fft.fwd(x, scratch, n_);
      }
      return;
    }
    if (m_ == 0) {
      Radix2(x, n_, tw_, inverse_);
      return;
    }
    for (int64_t k = 0; k < n_; ++k) scratch[k] = CMul(x[k], chirp_[k]);
    std::fill(scratch + n_, scratch + m_, Cd(0, 0));
    Radix2(scratch, m_, tw_, false);
    for (int64_t k = 0; k < m_; ++k) scratch[k] = std::conj(CMul(scratch[k], kernel_[k]));
    Radix2(scratch, m_, tw_, false);  // conj(FFT(conj(.))) is m times the inverse
    const double scale = 1.0 / static_cast<double>(m_);
    for (int64_t k = 0; k < n_; ++k) x[k] = CMul(std::conj(scratch[k]) * scale, chirp_[k]);
  }

 private:
  int64_t n_;
  bool inverse_;
  bool eigen_ = false;      // a smooth length other than a power of two: Eigen's FFT
  int64_t m_ = 0;           // Bluestein's power-of-two length (0: n is a power of two)
  std::vector<Cd> tw_;      // twiddles of n (power of two) or m
  std::vector<Cd> chirp_;   // e^{-+ i pi k^2 / n}
  std::vector<Cd> kernel_;  // FFT of the conjugate chirp, length m
};

// The first n / 2 + 1 bins of the DFT of a real row of even length n from z, the n / 2 point DFT
// of its elements packed as z[k] = x[2k] + i x[2k+1]: with E and O the DFTs of the even and odd
// elements, E[k] = (z[k] + conj(z[m-k])) / 2, O[k] = -i (z[k] - conj(z[m-k])) / 2 and
// X[k] = E[k] + e^{-2 pi i k / n} O[k]. `tw`: Twiddles(n).
void RealRow(const Cd* z, int64_t n, const std::vector<Cd>& tw, Cd* out) {
  const int64_t m = n / 2;
  for (int64_t k = 0; k <= m; ++k) {
    const Cd a = z[k == m ? 0 : k];
    const Cd b = std::conj(z[k == 0 ? 0 : m - k]);
    const Cd even = (a + b) * 0.5;
    const Cd odd = CMul(a - b, Cd(0, -0.5));
    out[k] = even + CMul(k < m ? tw[k] : Cd(-1, 0), odd);
  }
}

// Transforms the columns of the rows x cols matrix `buf` (row-major) with `plan` (length rows).
void TransformColumns(const FftPlan& plan, Cd* buf, int64_t rows, int64_t cols,
                      std::vector<Cd>& column, std::vector<Cd>& scratch) {
  if (rows <= 1) return;
  column.resize(static_cast<size_t>(rows));
  for (int64_t c = 0; c < cols; ++c) {
    for (int64_t r = 0; r < rows; ++r) column[r] = buf[r * cols + c];
    plan.Run(column.data(), scratch.data());
    for (int64_t r = 0; r < rows; ++r) buf[r * cols + c] = column[r];
  }
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
    const FftPlan rows_plan(len[1], kInverse);
    const FftPlan cols_plan(len[0], kInverse);
    // A real row of even power-of-two length n is transformed as n / 2 complex points (even
    // elements real, odd imaginary) and then separated (RealRow).
    const int64_t n1 = len[1];
    const bool packed = kKind == FftKind::kRealForward && n1 >= 4 && (n1 & (n1 - 1)) == 0;
    const FftPlan half_plan(packed ? n1 / 2 : 0, false);
    const std::vector<Cd> row_twiddles = packed ? Twiddles(n1) : std::vector<Cd>();
    const int64_t scratch = std::max(rows_plan.scratch_size(), cols_plan.scratch_size());
    const int64_t in_per = d[0] * d[1];
    const int64_t l0 = len[0], l1 = len[1];
    const double scale = kInverse ? 1.0 / (static_cast<double>(l0) * static_cast<double>(l1)) : 1.0;
    const int64_t cost = 20 * l0 * l1 * (1 + static_cast<int64_t>(std::log2(l0 * l1 + 1)));
    ctx.ParallelFor(batch, cost, [&](int64_t begin, int64_t end) {
      std::vector<Cd> buf, column, row, work(static_cast<size_t>(scratch));
      for (int64_t b = begin; b < end; ++b) {
        if constexpr (kKind == FftKind::kComplex) {
          const C* x = in.flat<C>().data() + b * in_per;
          C* y = out->flat<C>().data() + b * l0 * l1;
          buf.assign(x, x + l0 * l1);
          for (int64_t r = 0; r < l0; ++r) rows_plan.Run(buf.data() + r * l1, work.data());
          TransformColumns(cols_plan, buf.data(), l0, l1, column, work);
          for (int64_t i = 0; i < l0 * l1; ++i) y[i] = C(buf[i] * scale);
        } else if constexpr (kKind == FftKind::kRealForward) {
          const R* x = in.flat<R>().data() + b * in_per;
          C* y = out->flat<C>().data() + b * l0 * half;
          buf.assign(static_cast<size_t>(l0 * half), Cd(0, 0));
          row.resize(static_cast<size_t>(l1));
          for (int64_t r = 0; r < l0; ++r) {
            std::fill(row.begin(), row.end(), Cd(0, 0));
            const int64_t n = r < d[0] ? std::min(l1, d[1]) : 0;
            if (packed) {
              const R* xr = n > 0 ? x + r * d[1] : x;
              for (int64_t k = 0; k < n1 / 2; ++k) {
                row[k] = Cd(2 * k < n ? xr[2 * k] : R(0), 2 * k + 1 < n ? xr[2 * k + 1] : R(0));
              }
              half_plan.Run(row.data(), work.data());
              RealRow(row.data(), n1, row_twiddles, buf.data() + r * half);
              continue;
            }
            for (int64_t c = 0; c < n; ++c) row[c] = Cd(x[r * d[1] + c], 0);
            rows_plan.Run(row.data(), work.data());
            std::copy(row.begin(), row.begin() + half, buf.begin() + r * half);
          }
          TransformColumns(cols_plan, buf.data(), l0, half, column, work);
          for (int64_t i = 0; i < l0 * half; ++i) y[i] = C(buf[i]);
        } else {  // kRealInverse
          const C* x = in.flat<C>().data() + b * in_per;
          R* y = out->flat<R>().data() + b * l0 * l1;
          buf.resize(static_cast<size_t>(l0 * half));
          for (int64_t r = 0; r < l0; ++r) {
            for (int64_t c = 0; c < half; ++c) buf[r * half + c] = Cd(x[r * d[1] + c]);
          }
          TransformColumns(cols_plan, buf.data(), l0, half, column, work);
          row.resize(static_cast<size_t>(l1));
          for (int64_t r = 0; r < l0; ++r) {
            const Cd* h = buf.data() + r * half;
            for (int64_t c = 0; c < l1; ++c) row[c] = c < half ? h[c] : std::conj(h[l1 - c]);
            rows_plan.Run(row.data(), work.data());
            for (int64_t c = 0; c < l1; ++c) y[r * l1 + c] = static_cast<R>(row[c].real() * scale);
          }
        }
      }
    });
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
