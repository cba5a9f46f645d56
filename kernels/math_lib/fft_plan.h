// Plans for unnormalized discrete Fourier transforms of one length, in float or double, run on
// many sequences at once: the sequences are the columns ("lanes") of a split-complex [n][lanes]
// array (real parts in one array, imaginary parts in another), so every butterfly is a loop over
// contiguous lanes that the compiler vectorizes (RunSimd: AVX-512, AVX2 or the baseline).
//
// Lengths whose prime factors are all at most kMaxDirectRadix run as an iterative Stockham
// (self-sorting, out of place into a work buffer) transform with radix-4, 2, 3 and 5 butterflies
// and a generic odd one (pairs of radix-4 passes fused into radix-16 ones where a block is small
// enough for its 16 rows to sit in different L1 cache sets); other lengths go through Bluestein's
// chirp-z algorithm (a circular convolution of a power-of-two length, itself a Stockham transform).
// Twiddles are computed in long double with exact argument reduction and then rounded to T.
//
// Forward: X[k] = sum_j x[j] e^{-2 pi i jk / n}; inverse: the same with +i, not scaled by 1 / n.
//
// Plans are immutable after construction and safe to share between threads; FftPlan::Get caches
// them per length.
#ifndef RILL_KERNELS_MATH_LIB_FFT_PLAN_H_
#define RILL_KERNELS_MATH_LIB_FFT_PLAN_H_

#include <cstdint>
#include <memory>
#include <vector>

namespace rill {

template <typename T>
class FftPlan {
 public:
  // The largest prime factor a direct (mixed-radix) plan handles; longer ones use Bluestein.
  static constexpr int64_t kMaxDirectRadix = 31;

  // The plan of length n >= 1, shared from a process-wide cache (bounded: the cache is emptied
  // when it holds 128 lengths; plans already handed out stay alive with their users).
  static std::shared_ptr<const FftPlan<T>> Get(int64_t n);

  explicit FftPlan(int64_t n);

  int64_t size() const { return n_; }
  bool bluestein() const { return bluestein_ != nullptr; }

  // e^{-2 pi i k / 2n} for k <= n (real and imaginary parts): the twiddles that split a real
  // transform of length 2n computed as this plan's n complex points.
  const T* real_twiddles_re() const { return real_tw_re_.data(); }
  const T* real_twiddles_im() const { return real_tw_im_.data(); }

  // The number of T elements Run's `work` must hold for `lanes` lanes.
  int64_t WorkSize(int64_t lanes) const;

  // Transforms every column of the split-complex [n][lanes] arrays (re, im) in place (element j
  // of lane l at j * lanes + l). `work` holds WorkSize(lanes) elements and must not overlap them.
  void Run(T* re, T* im, int64_t lanes, T* work, bool inverse) const;

 private:
  struct Pass {
    int radix;
    int64_t m;              // sub-transforms of this pass: length n_cur = radix * m
    int64_t stride;         // s: n_ / n_cur
    std::vector<T> wr, wi;  // twiddles e^{-2 pi i pk / n_cur}, [p][k - 1], p < m, 1 <= k < radix
    // Radix 16: two radix-4 passes fused (lengths 16 m and 4 m); wr, wi are the first's
    // twiddles ([p][k - 1], p < 4 m) and vr, vi the second's ([p][k - 1], p < m).
    std::vector<T> vr, vi;
    std::vector<T> dft_c, dft_s;  // a generic radix's cos and sin of 2 pi t / radix, t < radix
  };
  struct Bluestein {
    int64_t m;                               // power-of-two convolution length, >= 2n - 1
    std::unique_ptr<const FftPlan<T>> conv;  // the length-m plan
    std::vector<T> chirp_re, chirp_im;       // e^{-i pi k^2 / n}, k < n
    std::vector<T> kernel_re, kernel_im;     // FFT of the conjugate chirp, scaled by 1 / m
  };

  void RunDirect(T* re, T* im, int64_t lanes, T* work) const;
  void RunBluestein(T* re, T* im, int64_t lanes, T* work, bool inverse) const;

  int64_t n_;
  std::vector<Pass> passes_;
  std::vector<Pass> fused_passes_;  // passes_ with radix-4 pairs fused; empty if none
  std::unique_ptr<Bluestein> bluestein_;
  std::vector<T> real_tw_re_, real_tw_im_;
};

extern template class FftPlan<float>;
extern template class FftPlan<double>;

}  // namespace rill

#endif  // RILL_KERNELS_MATH_LIB_FFT_PLAN_H_
