// Batched FFTs of interleaved complex (std::complex<T>) and real tensors on top of FftPlan: each
// job gathers a block of up to kLanes sequences into FftPlan's split-complex [n][lanes] layout,
// transforms them together and scatters the result. Multi-dimensional transforms apply
// ComplexAxisFft along each axis.
//
//   ComplexAxisFft: the complex transform along the middle axis of an [outer][n][inner] array.
//   RealForwardRows: the first n / 2 + 1 bins of the DFT of real rows (RFFT's innermost axis);
//     an even n runs as n / 2 complex points (even elements real, odd imaginary).
//   RealInverseRows: real rows of length n from their first n / 2 + 1 bins, taken as a Hermitian
//     spectrum (the imaginary parts of the DC bin and of an even n's Nyquist bin are ignored).
//
// Each class splits its work into num_jobs() independent jobs: Run(begin, end) does jobs
// [begin, end) and may be called from several threads at once on disjoint ranges
// (OpKernelContext::ParallelFor); cost_per_job() estimates a job's cycles.
#ifndef RILL_KERNELS_MATH_LIB_FFT_BATCH_H_
#define RILL_KERNELS_MATH_LIB_FFT_BATCH_H_

#include <complex>
#include <cstdint>
#include <memory>

#include "kernels/math_lib/fft_plan.h"

namespace rill {

// Sequences per block at most: a 64-byte cache line of lanes (an AVX-512 register).
template <typename T>
constexpr int64_t kFftLanes = 64 / static_cast<int64_t>(sizeof(T));

// How a batch of rows sits in memory: row i is row i % group of group i / group; a group's rows
// at or beyond valid_rows read as zeros (RFFT2D's zero padding), and each row reads valid_len
// elements (the rest zeros). With block_groups > 0, group g is group g % block_groups of block
// g / block_groups (RFFT3D: the cropped matrices of one batch element).
struct FftRowLayout {
  int64_t rows = 0;          // rows in the batch
  int64_t group = 1;         // rows per group
  int64_t group_stride = 0;  // elements between groups (of a block)
  int64_t row_stride = 0;    // elements between a group's rows
  int64_t valid_rows = 1;    // rows read from memory per group
  int64_t valid_len = 0;     // elements read per row
  int64_t block_groups = 0;  // groups per block; 0: no blocks
  int64_t block_stride = 0;  // elements between blocks
};

template <typename T>
class ComplexAxisFft {
 public:
  using C = std::complex<T>;
  // Transforms src's [outer][n][inner] sequences into dst (which may be src), multiplying by
  // `scale`; `inverse` picks the +i transform.
  ComplexAxisFft(int64_t outer, int64_t n, int64_t inner, bool inverse, T scale, const C* src,
                 C* dst);
  int64_t num_jobs() const { return NumBlocksPerOuter() * outer_; }
  int64_t cost_per_job() const;
  void Run(int64_t begin, int64_t end) const;

 private:
  std::shared_ptr<const FftPlan<T>> plan_;
  int64_t outer_, n_, inner_;
  bool inverse_;
  T scale_;
  const C* src_;
  C* dst_;
  int64_t NumBlocksPerOuter() const { return (seqs_ + width_ - 1) / width_; }
  // inner == 1: blocks of rows over all of outer; otherwise blocks of columns per outer index.
  int64_t seqs_, width_;
};

template <typename T>
class RealForwardRows {
 public:
  using C = std::complex<T>;
  // out: layout.rows dense rows of n / 2 + 1 bins.
  RealForwardRows(int64_t n, const FftRowLayout& layout, const T* in, C* out);
  int64_t num_jobs() const { return jobs_; }
  int64_t cost_per_job() const;
  void Run(int64_t begin, int64_t end) const;

 private:
  std::shared_ptr<const FftPlan<T>> plan_;  // n / 2 (even n) or n
  int64_t n_;
  FftRowLayout layout_;
  const T* in_;
  C* out_;
  int64_t jobs_;
};

template <typename T>
class RealInverseRows {
 public:
  using C = std::complex<T>;
  // in: rows of at least n / 2 + 1 bins (layout.valid_len is ignored); out: layout.rows dense
  // rows of n reals, multiplied by `scale`.
  RealInverseRows(int64_t n, const FftRowLayout& layout, T scale, const C* in, T* out);
  int64_t num_jobs() const { return jobs_; }
  int64_t cost_per_job() const;
  void Run(int64_t begin, int64_t end) const;

 private:
  std::shared_ptr<const FftPlan<T>> plan_;  // n / 2 (even n) or n
  int64_t n_;
  FftRowLayout layout_;
  T scale_;
  const C* in_;
  T* out_;
  int64_t jobs_;
};

extern template class ComplexAxisFft<float>;
extern template class ComplexAxisFft<double>;
extern template class RealForwardRows<float>;
extern template class RealForwardRows<double>;
extern template class RealInverseRows<float>;
extern template class RealInverseRows<double>;

}  // namespace rill

#endif  // RILL_KERNELS_MATH_LIB_FFT_BATCH_H_
