#include "kernels/math_lib/fft_batch.h"

#include <algorithm>
#include <cmath>
#include <type_traits>
#include <vector>

#include "kernels/math_lib/simd_dispatch.h"

#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>
#endif

namespace rill {
namespace {

// Elements per row of a tiled transpose between rows and the [n][lanes] layout: the lanes'
// lines of a tile stay in the L1 cache.
constexpr int64_t kTile = 16;

// Moving pairs between rows and the [count][lanes] layout: re[j * lanes + l] = rows[l][2j] and
// im[j * lanes + l] = rows[l][2j + 1] (a complex row's parts, or a real row's even and odd
// elements), and back with a scale. Tiled so that the lanes' lines of a tile stay in the L1
// cache; 16 float lanes on an AVX-512 CPU move as 16 x 16 register transposes.
template <typename T>
void GatherPairsTiled(const T* const* rows, int64_t lanes, int64_t begin, int64_t count, T* re,
                      T* im) {
  for (int64_t j0 = begin; j0 < count; j0 += kTile) {
    const int64_t j1 = std::min(count, j0 + kTile);
    for (int64_t l = 0; l < lanes; ++l) {
      const T* x = rows[l];
      for (int64_t j = j0; j < j1; ++j) {
        re[j * lanes + l] = x[2 * j];
        im[j * lanes + l] = x[2 * j + 1];
      }
    }
  }
}

template <typename T>
void ScatterPairsTiled(const T* re, const T* im, int64_t lanes, int64_t begin, int64_t count,
                       T scale, T* const* rows) {
  for (int64_t j0 = begin; j0 < count; j0 += kTile) {
    const int64_t j1 = std::min(count, j0 + kTile);
    for (int64_t l = 0; l < lanes; ++l) {
      T* y = rows[l];
      for (int64_t j = j0; j < j1; ++j) {
        y[2 * j] = re[j * lanes + l] * scale;
        y[2 * j + 1] = im[j * lanes + l] * scale;
      }
    }
  }
}

#if defined(__x86_64__) && defined(__GNUC__)
#define RILL_FFT_AVX512 1
// Transposes the 16 x 16 matrix whose rows are r[0..15]. The loops here and in the callers are
// unrolled fully so that the arrays of vectors stay in registers (GCC otherwise keeps them on
// the stack and moves every shuffle through memory).
__attribute__((target("avx512f"), always_inline)) inline void Transpose16(__m512* r) {
  __m512 t[16];
#pragma GCC unroll 16
  for (int i = 0; i < 16; i += 2) {
    t[i] = _mm512_unpacklo_ps(r[i], r[i + 1]);
    t[i + 1] = _mm512_unpackhi_ps(r[i], r[i + 1]);
  }
#pragma GCC unroll 16
  for (int i = 0; i < 16; i += 4) {
    r[i] = _mm512_shuffle_ps(t[i], t[i + 2], 0x44);
    r[i + 1] = _mm512_shuffle_ps(t[i], t[i + 2], 0xEE);
    r[i + 2] = _mm512_shuffle_ps(t[i + 1], t[i + 3], 0x44);
    r[i + 3] = _mm512_shuffle_ps(t[i + 1], t[i + 3], 0xEE);
  }
#pragma GCC unroll 2
  for (int h = 0; h < 16; h += 8) {
#pragma GCC unroll 4
    for (int i = 0; i < 4; ++i) {
      t[h + i] = _mm512_shuffle_f32x4(r[h + i], r[h + i + 4], 0x88);
      t[h + i + 4] = _mm512_shuffle_f32x4(r[h + i], r[h + i + 4], 0xDD);
    }
  }
#pragma GCC unroll 8
  for (int i = 0; i < 8; ++i) {
    r[i] = _mm512_shuffle_f32x4(t[i], t[i + 8], 0x88);
    r[i + 8] = _mm512_shuffle_f32x4(t[i], t[i + 8], 0xDD);
  }
}

__attribute__((target("avx512f"))) int64_t GatherPairs16(const float* const* rows, int64_t count,
                                                         float* re, float* im) {
  int64_t j0 = 0;
  for (; j0 + 8 <= count; j0 += 8) {
    __m512 r[16];
#pragma GCC unroll 16
    for (int l = 0; l < 16; ++l) r[l] = _mm512_loadu_ps(rows[l] + 2 * j0);
    Transpose16(r);
#pragma GCC unroll 8
    for (int j = 0; j < 8; ++j) {
      _mm512_storeu_ps(re + (j0 + j) * 16, r[2 * j]);
      _mm512_storeu_ps(im + (j0 + j) * 16, r[2 * j + 1]);
    }
  }
  return j0;
}

__attribute__((target("avx512f,prfchw"))) int64_t ScatterPairs16(const float* re, const float* im,
                                                                 int64_t count, float scale,
                                                                 float* const* rows) {
  const __m512 s = _mm512_set1_ps(scale);
  int64_t j0 = 0;
  for (; j0 + 8 <= count; j0 += 8) {
    __m512 r[16];
#pragma GCC unroll 8
    for (int j = 0; j < 8; ++j) {
      r[2 * j] = _mm512_mul_ps(_mm512_loadu_ps(re + (j0 + j) * 16), s);
      r[2 * j + 1] = _mm512_mul_ps(_mm512_loadu_ps(im + (j0 + j) * 16), s);
    }
    Transpose16(r);
#pragma GCC unroll 16
    for (int l = 0; l < 16; ++l) {
      // The rows' next lines, fetched for writing: 16 store streams outrun the prefetchers.
      _mm_prefetch(reinterpret_cast<const char*>(rows[l] + 2 * j0 + 64), _MM_HINT_ET0);
      _mm512_storeu_ps(rows[l] + 2 * j0, r[l]);
    }
  }
  return j0;
}
#else
#define RILL_FFT_AVX512 0
#endif

template <typename T>
void GatherPairs(const T* const* rows, int64_t lanes, int64_t count, T* re, T* im) {
  int64_t done = 0;
#if RILL_FFT_AVX512
  if constexpr (std::is_same_v<T, float>) {
    if (lanes == 16 && ActiveSimdLevel() == SimdLevel::kAvx512) {
      done = GatherPairs16(rows, count, re, im);
    }
  }
#endif
  RunSimd([&] { GatherPairsTiled(rows, lanes, done, count, re, im); });
}

template <typename T>
void ScatterPairs(const T* re, const T* im, int64_t lanes, int64_t count, T scale, T* const* rows) {
  int64_t done = 0;
#if RILL_FFT_AVX512
  if constexpr (std::is_same_v<T, float>) {
    if (lanes == 16 && ActiveSimdLevel() == SimdLevel::kAvx512) {
      done = ScatterPairs16(re, im, count, scale, rows);
    }
  }
#endif
  RunSimd([&] { ScatterPairsTiled(re, im, lanes, done, count, scale, rows); });
}

// Blocks of `width` sequences (the last one shorter): whole vectors of lanes.
inline int64_t NumBlocks(int64_t count, int64_t width) { return (count + width - 1) / width; }
inline int64_t BlockStart(int64_t block, int64_t count, int64_t width) {
  return std::min(count, block * width);
}

// Lanes per block of a column transform: several vectors of lanes when the columns are short
// (longer contiguous loops), up to about 8192 complex elements per block (its buffers stay in the
// L2 cache).
template <typename T>
int64_t ColumnWidth(int64_t n) {
  return kFftLanes<T> * std::max<int64_t>(1, 8192 / (n * kFftLanes<T>));
}

// Cycles of a length-n transform of one block: about half a cycle per element and pass once
// vectorized, and two per element for moving it in and out.
int64_t BlockCost(int64_t n, int64_t lanes) {
  int64_t passes = 1;
  while ((int64_t{1} << passes) < n) ++passes;
  return n * lanes * (passes / 2 + 2) + 100;
}

// A buffer of `size` elements for this thread: kept between calls (transforms run often on the
// same shapes, and a fresh allocation costs page faults each time) up to 1 MiB, which holds the
// blocks of every complex length up to 4096 (Bluestein lengths up to 1024); larger ones are
// allocated into `owned` and freed after the call, whose transform then costs far more than the
// faults.
template <typename T>
T* Scratch(int64_t size, std::unique_ptr<T[]>* owned) {
  constexpr int64_t kMaxKept = (int64_t{1} << 20) / static_cast<int64_t>(sizeof(T));
  if (size > kMaxKept) {
    owned->reset(new T[size]);
    return owned->get();
  }
  thread_local std::vector<T> kept;
  if (static_cast<int64_t>(kept.size()) < size) kept.resize(size);
  return kept.data();
}

// The address of row i's first element, or null for a zero row.
template <typename E>
const E* RowStart(const FftRowLayout& layout, const E* base, int64_t i) {
  const int64_t g = i / layout.group, r = i % layout.group;
  if (r >= layout.valid_rows) return nullptr;
  const int64_t group_start = layout.block_groups > 0
                                  ? g / layout.block_groups * layout.block_stride +
                                        g % layout.block_groups * layout.group_stride
                                  : g * layout.group_stride;
  return base + group_start + r * layout.row_stride;
}

// Real rows of a block into the [len][lanes] layout, cropped to n and zero-padded: packed pairs
// (x[2k] + i x[2k + 1]) for an even n, the elements with zero imaginary parts for an odd one.
template <typename T>
void GatherRealRows(const FftRowLayout& layout, const T* in, int64_t n, int64_t len, int64_t r0,
                    int64_t lanes, T* re, T* im) {
  const bool even = n % 2 == 0;
  const int64_t valid = std::min(layout.valid_len, n);
  for (int64_t l = 0; l < lanes; ++l) {
    const T* x = RowStart(layout, in, r0 + l);
    const int64_t v = x == nullptr ? 0 : valid;
    if (even) {
      for (int64_t k = 0; k < v / 2; ++k) {
        re[k * lanes + l] = x[2 * k];
        im[k * lanes + l] = x[2 * k + 1];
      }
      int64_t k = v / 2;
      if (v % 2 == 1) {
        re[k * lanes + l] = x[2 * k];
        im[k * lanes + l] = T(0);
        ++k;
      }
      for (; k < len; ++k) re[k * lanes + l] = im[k * lanes + l] = T(0);
    } else {
      for (int64_t k = 0; k < v; ++k) {
        re[k * lanes + l] = x[k];
        im[k * lanes + l] = T(0);
      }
      for (int64_t k = v; k < len; ++k) re[k * lanes + l] = im[k * lanes + l] = T(0);
    }
  }
}

}  // namespace

template <typename T>
ComplexAxisFft<T>::ComplexAxisFft(int64_t outer, int64_t n, int64_t inner, bool inverse, T scale,
                                  const C* src, C* dst)
    : plan_(FftPlan<T>::Get(n)),
      outer_(outer),
      n_(n),
      inner_(inner),
      inverse_(inverse),
      scale_(scale),
      src_(src),
      dst_(dst) {
  if (inner_ == 1) {
    // The rows of all outer indices form one batch.
    seqs_ = outer_;
    width_ = kFftLanes<T>;
    outer_ = 1;
  } else {
    seqs_ = inner_;
    width_ = std::min(inner_, ColumnWidth<T>(n_));
  }
}

template <typename T>
int64_t ComplexAxisFft<T>::cost_per_job() const {
  return BlockCost(n_, std::min(seqs_, width_));
}

template <typename T>
void ComplexAxisFft<T>::Run(int64_t begin, int64_t end) const {
  const int64_t max_lanes = std::min(width_, seqs_);  // buffers for the widest block only
  std::unique_ptr<T[]> owned;
  T* re = Scratch<T>(2 * n_ * max_lanes + plan_->WorkSize(max_lanes), &owned);
  T* im = re + n_ * max_lanes;
  T* work = im + n_ * max_lanes;
  for (int64_t job = begin; job < end; ++job) {
    const int64_t o = job / NumBlocksPerOuter(), b = job % NumBlocksPerOuter();
    const int64_t s0 = BlockStart(b, seqs_, width_);
    const int64_t lanes = BlockStart(b + 1, seqs_, width_) - s0;
    // Sequence s0 + l, element j sits at base + l * seq_stride + j * elem_stride.
    const bool rows = inner_ == 1;
    const int64_t offset = rows ? s0 * n_ : o * n_ * inner_ + s0;
    const int64_t seq_stride = rows ? n_ : 1, elem_stride = rows ? 1 : inner_;
    const C* x = src_ + offset;
    C* y = dst_ + offset;
    if (rows) {
      const T* in_rows[kFftLanes<T>];
      for (int64_t l = 0; l < lanes; ++l) {
        in_rows[l] = reinterpret_cast<const T*>(x + l * seq_stride);
      }
      GatherPairs<T>(in_rows, lanes, n_, re, im);
    }
    RunSimd([&] {
      if (!rows) {
        for (int64_t j = 0; j < n_; ++j) {
          const C* xj = x + j * elem_stride;
          for (int64_t l = 0; l < lanes; ++l) {
            re[j * lanes + l] = xj[l].real();
            im[j * lanes + l] = xj[l].imag();
          }
        }
      }
    });
    plan_->Run(re, im, lanes, work, inverse_);
    if (rows) {
      T* out_rows[kFftLanes<T>];
      for (int64_t l = 0; l < lanes; ++l) out_rows[l] = reinterpret_cast<T*>(y + l * seq_stride);
      ScatterPairs<T>(re, im, lanes, n_, scale_, out_rows);
      continue;
    }
    RunSimd([&] {
      const T s = scale_;
      {
        for (int64_t j = 0; j < n_; ++j) {
          C* yj = y + j * elem_stride;
          for (int64_t l = 0; l < lanes; ++l)
            yj[l] = C(re[j * lanes + l] * s, im[j * lanes + l] * s);
        }
      }
    });
  }
}

template <typename T>
RealForwardRows<T>::RealForwardRows(int64_t n, const FftRowLayout& layout, const T* in, C* out)
    : plan_(FftPlan<T>::Get(n % 2 == 0 ? n / 2 : n)),
      n_(n),
      layout_(layout),
      in_(in),
      out_(out),
      jobs_(NumBlocks(layout.rows, kFftLanes<T>)) {}

template <typename T>
int64_t RealForwardRows<T>::cost_per_job() const {
  return BlockCost(plan_->size(), std::min(layout_.rows, kFftLanes<T>));
}

template <typename T>
void RealForwardRows<T>::Run(int64_t begin, int64_t end) const {
  const int64_t max_lanes = std::min(kFftLanes<T>, layout_.rows);
  const int64_t len = plan_->size();  // complex points transformed
  const int64_t half = n_ / 2 + 1;
  std::unique_ptr<T[]> owned;
  T* re = Scratch<T>(2 * (len + 1) * max_lanes + plan_->WorkSize(max_lanes), &owned);
  T* im = re + (len + 1) * max_lanes;
  T* work = im + (len + 1) * max_lanes;
  const bool even = n_ % 2 == 0;
  const int64_t valid = std::min(layout_.valid_len, n_);
  for (int64_t job = begin; job < end; ++job) {
    const int64_t r0 = BlockStart(job, layout_.rows, kFftLanes<T>);
    const int64_t lanes = BlockStart(job + 1, layout_.rows, kFftLanes<T>) - r0;
    if (even && valid == n_ && layout_.valid_rows >= layout_.group) {
      // Every row full length: the packed pairs of each row.
      const T* in_rows[kFftLanes<T>];
      for (int64_t l = 0; l < lanes; ++l) in_rows[l] = RowStart(layout_, in_, r0 + l);
      GatherPairs<T>(in_rows, lanes, len, re, im);
    } else {
      RunSimd([&] { GatherRealRows(layout_, in_, n_, len, r0, lanes, re, im); });
    }
    plan_->Run(re, im, lanes, work, false);
    RunSimd([&] {
      if (even) {
        // With E, O the DFTs of the even and odd elements: E[k] = (z[k] + conj z[m-k]) / 2,
        // O[k] = -i (z[k] - conj z[m-k]) / 2 and X[k] = E[k] + e^{-2 pi i k / n} O[k]; the pair
        // (k, m - k) is computed together in place.
        const int64_t m = len;
        const T* twr = plan_->real_twiddles_re();
        const T* twi = plan_->real_twiddles_im();
        for (int64_t l = 0; l < lanes; ++l) {  // X[0] and X[m] from z[0]
          const T zr = re[l], zi = im[l];
          re[l] = zr + zi;
          im[l] = T(0);
          re[m * lanes + l] = zr - zi;
          im[m * lanes + l] = T(0);
        }
        for (int64_t k = 1; 2 * k <= m; ++k) {
          const int64_t q = m - k;
          T* ar = re + k * lanes;
          T* ai = im + k * lanes;
          T* br = re + q * lanes;
          T* bi = im + q * lanes;
          const T wkr = twr[k], wki = twi[k], wqr = twr[q], wqi = twi[q];
#pragma GCC ivdep
          for (int64_t l = 0; l < lanes; ++l) {
            const T a_r = ar[l], a_i = ai[l], b_r = br[l], b_i = bi[l];
            // X[k]: E = (a + conj b) / 2, O = -i (a - conj b) / 2.
            const T ekr = T(0.5) * (a_r + b_r), eki = T(0.5) * (a_i - b_i);
            const T okr = T(0.5) * (a_i + b_i), oki = T(-0.5) * (a_r - b_r);
            // X[q]: E = (b + conj a) / 2, O = -i (b - conj a) / 2.
            const T eqr = ekr, eqi = -eki;
            const T oqr = okr, oqi = -oki;
            ar[l] = ekr + wkr * okr - wki * oki;
            ai[l] = eki + wkr * oki + wki * okr;
            br[l] = eqr + wqr * oqr - wqi * oqi;
            bi[l] = eqi + wqr * oqi + wqi * oqr;
          }
        }
      }
    });
    T* out_rows[kFftLanes<T>];
    for (int64_t l = 0; l < lanes; ++l) {
      out_rows[l] = reinterpret_cast<T*>(out_ + (r0 + l) * half);
    }
    ScatterPairs<T>(re, im, lanes, half, T(1), out_rows);
  }
}

template <typename T>
RealInverseRows<T>::RealInverseRows(int64_t n, const FftRowLayout& layout, T scale, const C* in,
                                    T* out)
    : plan_(FftPlan<T>::Get(n % 2 == 0 ? n / 2 : n)),
      n_(n),
      layout_(layout),
      scale_(scale),
      in_(in),
      out_(out),
      jobs_(NumBlocks(layout.rows, kFftLanes<T>)) {}

template <typename T>
int64_t RealInverseRows<T>::cost_per_job() const {
  return BlockCost(plan_->size(), std::min(layout_.rows, kFftLanes<T>));
}

template <typename T>
void RealInverseRows<T>::Run(int64_t begin, int64_t end) const {
  const int64_t max_lanes = std::min(kFftLanes<T>, layout_.rows);
  const int64_t len = plan_->size();
  const int64_t half = n_ / 2 + 1;
  std::unique_ptr<T[]> owned;
  T* re = Scratch<T>(2 * (len + 1) * max_lanes + plan_->WorkSize(max_lanes), &owned);
  T* im = re + (len + 1) * max_lanes;
  T* work = im + (len + 1) * max_lanes;
  const bool even = n_ % 2 == 0;
  std::vector<T> zeros;
  for (int64_t job = begin; job < end; ++job) {
    const int64_t r0 = BlockStart(job, layout_.rows, kFftLanes<T>);
    const int64_t lanes = BlockStart(job + 1, layout_.rows, kFftLanes<T>) - r0;
    // Rows at or beyond valid_rows read as zeros.
    const T* in_rows[kFftLanes<T>];
    zeros.resize(static_cast<size_t>(2 * half));
    for (int64_t l = 0; l < lanes; ++l) {
      const C* x = RowStart(layout_, in_, r0 + l);
      in_rows[l] = x == nullptr ? zeros.data() : reinterpret_cast<const T*>(x);
    }
    GatherPairs<T>(in_rows, lanes, half, re, im);
    RunSimd([&] {
      for (int64_t l = 0; l < lanes; ++l) {
        im[l] = T(0);  // the DC bin is real
        if (even) {
          im[(half - 1) * lanes + l] = T(0);  // so is the Nyquist bin
        } else {
          for (int64_t k = half; k < n_; ++k) {  // the Hermitian upper half
            re[k * lanes + l] = re[(n_ - k) * lanes + l];
            im[k * lanes + l] = -im[(n_ - k) * lanes + l];
          }
        }
      }
      if (even) {
        // z[k] = (X[k] + conj X[m-k]) + i e^{2 pi i k / n} (X[k] - conj X[m-k]), k < m: its
        // inverse DFT of length m holds the even outputs in its real parts and the odd ones in
        // its imaginary parts. The pair (k, m - k) is computed together in place.
        const int64_t m = len;
        const T* twr = plan_->real_twiddles_re();
        const T* twi = plan_->real_twiddles_im();
        for (int64_t l = 0; l < lanes; ++l) {
          const T x0 = re[l], xm = re[m * lanes + l];
          re[l] = x0 + xm;
          im[l] = x0 - xm;
        }
        for (int64_t k = 1; 2 * k <= m; ++k) {
          const int64_t q = m - k;
          T* ar = re + k * lanes;
          T* ai = im + k * lanes;
          T* br = re + q * lanes;
          T* bi = im + q * lanes;
          // e^{+2 pi i k / n} is the conjugate of the forward twiddle.
          const T ukr = twr[k], uki = -twi[k], uqr = twr[q], uqi = -twi[q];
#pragma GCC ivdep
          for (int64_t l = 0; l < lanes; ++l) {
            const T a_r = ar[l], a_i = ai[l], b_r = br[l], b_i = bi[l];
            // k: S = a + conj b, D = a - conj b; z = S + i u D.
            const T skr = a_r + b_r, ski = a_i - b_i;
            const T dkr = a_r - b_r, dki = a_i + b_i;
            // q: S = b + conj a = conj(S_k), D = b - conj a = -conj(D_k).
            const T sqr = skr, sqi = -ski;
            const T dqr = -dkr, dqi = dki;
            const T vkr = ukr * dkr - uki * dki, vki = ukr * dki + uki * dkr;
            const T vqr = uqr * dqr - uqi * dqi, vqi = uqr * dqi + uqi * dqr;
            ar[l] = skr - vki;
            ai[l] = ski + vkr;
            br[l] = sqr - vqi;
            bi[l] = sqi + vqr;
          }
        }
      }
    });
    plan_->Run(re, im, lanes, work, true);
    if (even) {
      T* out_rows[kFftLanes<T>];
      for (int64_t l = 0; l < lanes; ++l) out_rows[l] = out_ + (r0 + l) * n_;
      ScatterPairs<T>(re, im, lanes, len, scale_, out_rows);
      continue;
    }
    RunSimd([&] {
      const T s = scale_;
      for (int64_t j0 = 0; j0 < len; j0 += kTile) {
        const int64_t j1 = std::min(len, j0 + kTile);
        for (int64_t l = 0; l < lanes; ++l) {
          T* y = out_ + (r0 + l) * n_;
          for (int64_t j = j0; j < j1; ++j) y[j] = re[j * lanes + l] * s;
        }
      }
    });
  }
}

template class ComplexAxisFft<float>;
template class ComplexAxisFft<double>;
template class RealForwardRows<float>;
template class RealForwardRows<double>;
template class RealInverseRows<float>;
template class RealInverseRows<double>;

}  // namespace rill
