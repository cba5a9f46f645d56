#include "kernels/math_lib/fft_plan.h"

#include <algorithm>
#include <cmath>
#include <unordered_map>
#include <utility>

#include "core/mutex.h"
#include "kernels/math_lib/simd_dispatch.h"

namespace rill {
namespace {

// cos and -sin of 2 pi num / den (the forward twiddle e^{-2 pi i num / den}), in long double
// after reducing num mod den exactly.
void Twiddle(int64_t num, int64_t den, double* c, double* s) {
  const long double pi = 3.14159265358979323846264338327950288L;
  const long double angle = 2 * pi * static_cast<long double>(num % den) / den;
  *c = static_cast<double>(std::cos(angle));
  *s = static_cast<double>(-std::sin(angle));
}

// One Stockham pass of radix R over a [R * m][block] split-complex array: for each p < m, the
// length-R DFT of the rows p + j m (j < R) goes, multiplied by the twiddles of p, to the rows
// R p + k (k < R). `block` = stride * lanes elements are contiguous per row.
template <typename T, int64_t kBlock>
inline void Pass2(const T* xr, const T* xi, T* yr, T* yi, int64_t m, int64_t runtime_block,
                  const T* wr, const T* wi) {
  const int64_t block = kBlock > 0 ? kBlock : runtime_block;
  for (int64_t p = 0; p < m; ++p) {
    const T* a0r = xr + p * block;
    const T* a0i = xi + p * block;
    const T* a1r = xr + (p + m) * block;
    const T* a1i = xi + (p + m) * block;
    T* b0r = yr + 2 * p * block;
    T* b0i = yi + 2 * p * block;
    T* b1r = b0r + block;
    T* b1i = b0i + block;
    const T w1r = wr[p], w1i = wi[p];
#pragma GCC ivdep
    for (int64_t i = 0; i < block; ++i) {
      const T ar = a0r[i], ai = a0i[i], br = a1r[i], bi = a1i[i];
      b0r[i] = ar + br;
      b0i[i] = ai + bi;
      const T dr = ar - br, di = ai - bi;
      b1r[i] = dr * w1r - di * w1i;
      b1i[i] = dr * w1i + di * w1r;
    }
  }
}

template <typename T, int64_t kBlock>
inline void Pass3(const T* xr, const T* xi, T* yr, T* yi, int64_t m, int64_t runtime_block,
                  const T* wr, const T* wi) {
  const int64_t block = kBlock > 0 ? kBlock : runtime_block;
  const T h = static_cast<T>(0.866025403784438646763723170752936183L);  // sin(2 pi / 3)
  for (int64_t p = 0; p < m; ++p) {
    const T* a0r = xr + p * block;
    const T* a0i = xi + p * block;
    const T* a1r = xr + (p + m) * block;
    const T* a1i = xi + (p + m) * block;
    const T* a2r = xr + (p + 2 * m) * block;
    const T* a2i = xi + (p + 2 * m) * block;
    T* b0r = yr + 3 * p * block;
    T* b0i = yi + 3 * p * block;
    T* b1r = b0r + block;
    T* b1i = b0i + block;
    T* b2r = b1r + block;
    T* b2i = b1i + block;
    const T w1r = wr[2 * p], w1i = wi[2 * p], w2r = wr[2 * p + 1], w2i = wi[2 * p + 1];
#pragma GCC ivdep
    for (int64_t i = 0; i < block; ++i) {
      const T x0r = a0r[i], x0i = a0i[i], x1r = a1r[i], x1i = a1i[i], x2r = a2r[i], x2i = a2i[i];
      const T tr = x1r + x2r, ti = x1i + x2i;
      const T ur = x0r - T(0.5) * tr, ui = x0i - T(0.5) * ti;
      // (a1 - a2) * (-i sin(2 pi / 3))
      const T vr = h * (x1i - x2i), vi = -h * (x1r - x2r);
      b0r[i] = x0r + tr;
      b0i[i] = x0i + ti;
      const T c1r = ur + vr, c1i = ui + vi, c2r = ur - vr, c2i = ui - vi;
      b1r[i] = c1r * w1r - c1i * w1i;
      b1i[i] = c1r * w1i + c1i * w1r;
      b2r[i] = c2r * w2r - c2i * w2i;
      b2i[i] = c2r * w2i + c2i * w2r;
    }
  }
}

template <typename T, int64_t kBlock>
inline void Pass4(const T* xr, const T* xi, T* yr, T* yi, int64_t m, int64_t runtime_block,
                  const T* wr, const T* wi) {
  const int64_t block = kBlock > 0 ? kBlock : runtime_block;
  for (int64_t p = 0; p < m; ++p) {
    const T* a0r = xr + p * block;
    const T* a0i = xi + p * block;
    const T* a1r = xr + (p + m) * block;
    const T* a1i = xi + (p + m) * block;
    const T* a2r = xr + (p + 2 * m) * block;
    const T* a2i = xi + (p + 2 * m) * block;
    const T* a3r = xr + (p + 3 * m) * block;
    const T* a3i = xi + (p + 3 * m) * block;
    T* b0r = yr + 4 * p * block;
    T* b0i = yi + 4 * p * block;
    T* b1r = b0r + block;
    T* b1i = b0i + block;
    T* b2r = b1r + block;
    T* b2i = b1i + block;
    T* b3r = b2r + block;
    T* b3i = b2i + block;
    const T w1r = wr[3 * p], w1i = wi[3 * p];
    const T w2r = wr[3 * p + 1], w2i = wi[3 * p + 1];
    const T w3r = wr[3 * p + 2], w3i = wi[3 * p + 2];
    if (p == 0) {  // twiddles of 1
#pragma GCC ivdep
      for (int64_t i = 0; i < block; ++i) {
        const T t0r = a0r[i] + a2r[i], t0i = a0i[i] + a2i[i];
        const T t1r = a0r[i] - a2r[i], t1i = a0i[i] - a2i[i];
        const T t2r = a1r[i] + a3r[i], t2i = a1i[i] + a3i[i];
        const T t3r = a1i[i] - a3i[i], t3i = a3r[i] - a1r[i];  // (a1 - a3) * -i
        b0r[i] = t0r + t2r;
        b0i[i] = t0i + t2i;
        b1r[i] = t1r + t3r;
        b1i[i] = t1i + t3i;
        b2r[i] = t0r - t2r;
        b2i[i] = t0i - t2i;
        b3r[i] = t1r - t3r;
        b3i[i] = t1i - t3i;
      }
      continue;
    }
#pragma GCC ivdep
    for (int64_t i = 0; i < block; ++i) {
      const T t0r = a0r[i] + a2r[i], t0i = a0i[i] + a2i[i];
      const T t1r = a0r[i] - a2r[i], t1i = a0i[i] - a2i[i];
      const T t2r = a1r[i] + a3r[i], t2i = a1i[i] + a3i[i];
      const T t3r = a1i[i] - a3i[i], t3i = a3r[i] - a1r[i];  // (a1 - a3) * -i
      b0r[i] = t0r + t2r;
      b0i[i] = t0i + t2i;
      const T c1r = t1r + t3r, c1i = t1i + t3i;
      const T c2r = t0r - t2r, c2i = t0i - t2i;
      const T c3r = t1r - t3r, c3i = t1i - t3i;
      b1r[i] = c1r * w1r - c1i * w1i;
      b1i[i] = c1r * w1i + c1i * w1r;
      b2r[i] = c2r * w2r - c2i * w2i;
      b2i[i] = c2r * w2i + c2i * w2r;
      b3r[i] = c3r * w3r - c3i * w3i;
      b3i[i] = c3r * w3i + c3i * w3r;
    }
  }
}

// Two radix-4 passes fused into one radix-16 pass over a [16 * m][block] array, so the data
// crosses the cache once instead of twice. The first pass (sub-transforms of length 16 m) runs on
// the rows q + (j' + 4 j) m (j' < 4: its butterfly q + j' m over j < 4), its outputs stay in
// registers, and the second (length 4 m) combines them over j' into the rows 16 q + 4 k' + k.
// `wr`, `wi`: the first pass's twiddles ([p][k - 1], p < 4 m); `vr`, `vi`: the second's.
template <typename T, int64_t kBlock>
inline void Pass44(const T* xr, const T* xi, T* yr, T* yi, int64_t m, int64_t runtime_block,
                   const T* wr, const T* wi, const T* vr, const T* vi) {
  const int64_t block = kBlock > 0 ? kBlock : runtime_block;
  for (int64_t q = 0; q < m; ++q) {
    const T* ar[16];
    const T* ai[16];
    for (int t = 0; t < 16; ++t) {
      ar[t] = xr + (q + t * m) * block;
      ai[t] = xi + (q + t * m) * block;
    }
    T* br = yr + 16 * q * block;
    T* bi = yi + 16 * q * block;
    // Twiddles: w[j'][k - 1] of the first pass's butterfly q + j' m, v[k' - 1] of the second's.
    T w_r[4][3], w_i[4][3];
    for (int jp = 0; jp < 4; ++jp) {
      for (int k = 0; k < 3; ++k) {
        w_r[jp][k] = wr[3 * (q + jp * m) + k];
        w_i[jp][k] = wi[3 * (q + jp * m) + k];
      }
    }
    const T v1r = vr[3 * q], v1i = vi[3 * q], v2r = vr[3 * q + 1], v2i = vi[3 * q + 1];
    const T v3r = vr[3 * q + 2], v3i = vi[3 * q + 2];
#pragma GCC ivdep
    for (int64_t i = 0; i < block; ++i) {
      T cr[4][4], ci[4][4];  // [j'][k]: the first pass's outputs
#pragma GCC unroll 4
      for (int jp = 0; jp < 4; ++jp) {
        const T x0r = ar[jp][i], x0i = ai[jp][i], x1r = ar[jp + 4][i], x1i = ai[jp + 4][i];
        const T x2r = ar[jp + 8][i], x2i = ai[jp + 8][i], x3r = ar[jp + 12][i],
                x3i = ai[jp + 12][i];
        const T t0r = x0r + x2r, t0i = x0i + x2i, t1r = x0r - x2r, t1i = x0i - x2i;
        const T t2r = x1r + x3r, t2i = x1i + x3i;
        const T t3r = x1i - x3i, t3i = x3r - x1r;  // (a1 - a3) * -i
        cr[jp][0] = t0r + t2r;
        ci[jp][0] = t0i + t2i;
        const T c1r = t1r + t3r, c1i = t1i + t3i;
        const T c2r = t0r - t2r, c2i = t0i - t2i;
        const T c3r = t1r - t3r, c3i = t1i - t3i;
        cr[jp][1] = c1r * w_r[jp][0] - c1i * w_i[jp][0];
        ci[jp][1] = c1r * w_i[jp][0] + c1i * w_r[jp][0];
        cr[jp][2] = c2r * w_r[jp][1] - c2i * w_i[jp][1];
        ci[jp][2] = c2r * w_i[jp][1] + c2i * w_r[jp][1];
        cr[jp][3] = c3r * w_r[jp][2] - c3i * w_i[jp][2];
        ci[jp][3] = c3r * w_i[jp][2] + c3i * w_r[jp][2];
      }
#pragma GCC unroll 4
      for (int k = 0; k < 4; ++k) {
        const T t0r = cr[0][k] + cr[2][k], t0i = ci[0][k] + ci[2][k];
        const T t1r = cr[0][k] - cr[2][k], t1i = ci[0][k] - ci[2][k];
        const T t2r = cr[1][k] + cr[3][k], t2i = ci[1][k] + ci[3][k];
        const T t3r = ci[1][k] - ci[3][k], t3i = cr[3][k] - cr[1][k];
        const T c1r = t1r + t3r, c1i = t1i + t3i;
        const T c2r = t0r - t2r, c2i = t0i - t2i;
        const T c3r = t1r - t3r, c3i = t1i - t3i;
        br[k * block + i] = t0r + t2r;
        bi[k * block + i] = t0i + t2i;
        br[(4 + k) * block + i] = c1r * v1r - c1i * v1i;
        bi[(4 + k) * block + i] = c1r * v1i + c1i * v1r;
        br[(8 + k) * block + i] = c2r * v2r - c2i * v2i;
        bi[(8 + k) * block + i] = c2r * v2i + c2i * v2r;
        br[(12 + k) * block + i] = c3r * v3r - c3i * v3i;
        bi[(12 + k) * block + i] = c3r * v3i + c3i * v3r;
      }
    }
  }
}

template <typename T, int64_t kBlock>
inline void Pass5(const T* xr, const T* xi, T* yr, T* yi, int64_t m, int64_t runtime_block,
                  const T* wr, const T* wi) {
  const int64_t block = kBlock > 0 ? kBlock : runtime_block;
  const T c1 = static_cast<T>(0.309016994374947424102293417182819059L);   // cos(2 pi / 5)
  const T c2 = static_cast<T>(-0.809016994374947424102293417182819059L);  // cos(4 pi / 5)
  const T s1 = static_cast<T>(0.951056516295153572116439333379382143L);   // sin(2 pi / 5)
  const T s2 = static_cast<T>(0.587785252292473129168705954639072769L);   // sin(4 pi / 5)
  for (int64_t p = 0; p < m; ++p) {
    const T* a0r = xr + p * block;
    const T* a0i = xi + p * block;
    const T* a1r = xr + (p + m) * block;
    const T* a1i = xi + (p + m) * block;
    const T* a2r = xr + (p + 2 * m) * block;
    const T* a2i = xi + (p + 2 * m) * block;
    const T* a3r = xr + (p + 3 * m) * block;
    const T* a3i = xi + (p + 3 * m) * block;
    const T* a4r = xr + (p + 4 * m) * block;
    const T* a4i = xi + (p + 4 * m) * block;
    T* b0r = yr + 5 * p * block;
    T* b0i = yi + 5 * p * block;
    T* b1r = b0r + block;
    T* b1i = b0i + block;
    T* b2r = b1r + block;
    T* b2i = b1i + block;
    T* b3r = b2r + block;
    T* b3i = b2i + block;
    T* b4r = b3r + block;
    T* b4i = b3i + block;
    const T* w = wr + 4 * p;
    const T* v = wi + 4 * p;
    const T w1r = w[0], w1i = v[0], w2r = w[1], w2i = v[1];
    const T w3r = w[2], w3i = v[2], w4r = w[3], w4i = v[3];
#pragma GCC ivdep
    for (int64_t i = 0; i < block; ++i) {
      const T x0r = a0r[i], x0i = a0i[i];
      const T p1r = a1r[i] + a4r[i], p1i = a1i[i] + a4i[i];
      const T m1r = a1r[i] - a4r[i], m1i = a1i[i] - a4i[i];
      const T p2r = a2r[i] + a3r[i], p2i = a2i[i] + a3i[i];
      const T m2r = a2r[i] - a3r[i], m2i = a2i[i] - a3i[i];
      const T e1r = x0r + p1r * c1 + p2r * c2, e1i = x0i + p1i * c1 + p2i * c2;
      const T f1r = m1i * s1 + m2i * s2, f1i = m1r * s1 + m2r * s2;
      const T e2r = x0r + p1r * c2 + p2r * c1, e2i = x0i + p1i * c2 + p2i * c1;
      b0r[i] = x0r + p1r + p2r;
      b0i[i] = x0i + p1i + p2i;
      const T f2r = m1i * s2 - m2i * s1, f2i = m1r * s2 - m2r * s1;
      const T y1r = e1r + f1r, y1i = e1i - f1i, y4r = e1r - f1r, y4i = e1i + f1i;
      const T y2r = e2r + f2r, y2i = e2i - f2i, y3r = e2r - f2r, y3i = e2i + f2i;
      b1r[i] = y1r * w1r - y1i * w1i;
      b1i[i] = y1r * w1i + y1i * w1r;
      b2r[i] = y2r * w2r - y2i * w2i;
      b2i[i] = y2r * w2i + y2i * w2r;
      b3r[i] = y3r * w3r - y3i * w3i;
      b3i[i] = y3r * w3i + y3i * w3r;
      b4r[i] = y4r * w4r - y4i * w4i;
      b4i[i] = y4r * w4i + y4i * w4r;
    }
  }
}

// A pass of any odd radix r: y_k = a_0 + sum_{j <= r/2} (a_j + a_{r-j}) cos(2 pi jk / r)
// - i (a_j - a_{r-j}) sin(2 pi jk / r), in chunks of kChunk elements that stay in the L1 cache.
template <typename T>
inline void PassOdd(int r, const T* xr, const T* xi, T* yr, T* yi, int64_t m, int64_t block,
                    const T* wr, const T* wi, const T* dc, const T* ds) {
  constexpr int64_t kChunk = 64;
  const int h = r / 2;
  for (int64_t p = 0; p < m; ++p) {
    for (int64_t i0 = 0; i0 < block; i0 += kChunk) {
      const int64_t len = std::min(kChunk, block - i0);
      const T* a0r = xr + p * block + i0;
      const T* a0i = xi + p * block + i0;
      T* y0r = yr + r * p * block + i0;
      T* y0i = yi + r * p * block + i0;
      for (int64_t i = 0; i < len; ++i) {
        y0r[i] = a0r[i];
        y0i[i] = a0i[i];
      }
      for (int j = 1; j < r; ++j) {
        const T* ajr = xr + (p + j * m) * block + i0;
        const T* aji = xi + (p + j * m) * block + i0;
#pragma GCC ivdep
        for (int64_t i = 0; i < len; ++i) {
          y0r[i] += ajr[i];
          y0i[i] += aji[i];
        }
      }
      for (int k = 1; k <= h; ++k) {
        T* ykr = yr + (r * p + k) * block + i0;
        T* yki = yi + (r * p + k) * block + i0;
        T* ylr = yr + (r * p + r - k) * block + i0;
        T* yli = yi + (r * p + r - k) * block + i0;
#pragma GCC ivdep
        for (int64_t i = 0; i < len; ++i) {
          ykr[i] = ylr[i] = a0r[i];
          yki[i] = yli[i] = a0i[i];
        }
        for (int j = 1; j <= h; ++j) {
          const T c = dc[(j * k) % r], s = ds[(j * k) % r];
          const T* ajr = xr + (p + j * m) * block + i0;
          const T* aji = xi + (p + j * m) * block + i0;
          const T* anr = xr + (p + (r - j) * m) * block + i0;
          const T* ani = xi + (p + (r - j) * m) * block + i0;
#pragma GCC ivdep
          for (int64_t i = 0; i < len; ++i) {
            const T pr = ajr[i] + anr[i], pi = aji[i] + ani[i];
            const T mr = ajr[i] - anr[i], mi = aji[i] - ani[i];
            ykr[i] += pr * c + mi * s;
            yki[i] += pi * c - mr * s;
            ylr[i] += pr * c - mi * s;
            yli[i] += pi * c + mr * s;
          }
        }
      }
      for (int k = 1; k < r; ++k) {
        const T w_r = wr[p * (r - 1) + k - 1], w_i = wi[p * (r - 1) + k - 1];
        T* ykr = yr + (r * p + k) * block + i0;
        T* yki = yi + (r * p + k) * block + i0;
#pragma GCC ivdep
        for (int64_t i = 0; i < len; ++i) {
          const T vr = ykr[i], vi = yki[i];
          ykr[i] = vr * w_r - vi * w_i;
          yki[i] = vr * w_i + vi * w_r;
        }
      }
    }
  }
}

// The radices of n, 4 first (the first passes, on short rows, do the least work per row), or an
// empty list when a prime factor is above max_radix.
std::vector<int> Radices(int64_t n, int64_t max_radix) {
  std::vector<int> radices;
  while (n % 4 == 0) {
    radices.push_back(4);
    n /= 4;
  }
  for (int64_t p = 2; p <= max_radix && n > 1; ++p) {
    while (n % p == 0) {
      radices.push_back(static_cast<int>(p));
      n /= p;
    }
  }
  if (n != 1) radices.clear();
  return radices;
}

}  // namespace

template <typename T>
FftPlan<T>::FftPlan(int64_t n) : n_(n) {
  real_tw_re_.resize(n_ + 1);
  real_tw_im_.resize(n_ + 1);
  for (int64_t k = 0; k <= n_; ++k) {
    double c, s;
    Twiddle(k, 2 * n_, &c, &s);
    real_tw_re_[k] = static_cast<T>(c);
    real_tw_im_[k] = static_cast<T>(s);
  }
  if (n_ <= 1) return;
  const std::vector<int> radices = Radices(n_, kMaxDirectRadix);
  if (radices.empty()) {
    // Bluestein: jk = (j^2 + k^2 - (k - j)^2) / 2, so the DFT is a chirp, a convolution with the
    // conjugate chirp and a chirp. k^2 is reduced mod 2n to keep the angles exact.
    auto b = std::make_unique<Bluestein>();
    b->m = 1;
    while (b->m < 2 * n_ - 1) b->m <<= 1;
    const int64_t m = b->m;
    b->conv = std::make_unique<const FftPlan<T>>(m);
    b->chirp_re.resize(n_);
    b->chirp_im.resize(n_);
    std::vector<double> kr(m, 0.0), ki(m, 0.0);
    const unsigned __int128 two_n = static_cast<unsigned __int128>(2 * n_);
    for (int64_t k = 0; k < n_; ++k) {
      const auto k2 = static_cast<int64_t>(static_cast<unsigned __int128>(k) * k % two_n);
      double c, s;
      Twiddle(k2, 2 * n_, &c, &s);  // e^{-2 pi i k^2 / 2n}
      b->chirp_re[k] = static_cast<T>(c);
      b->chirp_im[k] = static_cast<T>(s);
      kr[k] = c;
      ki[k] = -s;
      if (k > 0) {
        kr[m - k] = c;
        ki[m - k] = -s;
      }
    }
    const FftPlan<double> kernel_plan(m);
    std::vector<double> work(kernel_plan.WorkSize(1));
    kernel_plan.Run(kr.data(), ki.data(), 1, work.data(), false);
    b->kernel_re.resize(m);
    b->kernel_im.resize(m);
    for (int64_t k = 0; k < m; ++k) {
      b->kernel_re[k] = static_cast<T>(kr[k] / static_cast<double>(m));
      b->kernel_im[k] = static_cast<T>(ki[k] / static_cast<double>(m));
    }
    bluestein_ = std::move(b);
    return;
  }
  int64_t n_cur = n_;
  for (int r : radices) {
    Pass pass;
    pass.radix = r;
    pass.m = n_cur / r;
    pass.stride = n_ / n_cur;
    pass.wr.resize(pass.m * (r - 1));
    pass.wi.resize(pass.m * (r - 1));
    for (int64_t p = 0; p < pass.m; ++p) {
      for (int k = 1; k < r; ++k) {
        double c, s;
        Twiddle(p * k, n_cur, &c, &s);
        pass.wr[p * (r - 1) + k - 1] = static_cast<T>(c);
        pass.wi[p * (r - 1) + k - 1] = static_cast<T>(s);
      }
    }
    if (r > 5) {
      pass.dft_c.resize(r);
      pass.dft_s.resize(r);
      for (int t = 0; t < r; ++t) {
        double c, s;
        Twiddle(t, r, &c, &s);
        pass.dft_c[t] = static_cast<T>(c);
        pass.dft_s[t] = static_cast<T>(-s);
      }
    }
    passes_.push_back(std::move(pass));
    n_cur /= r;
  }
  // The same passes with consecutive radix-4 ones fused in pairs.
  for (size_t i = 0; i < passes_.size(); ++i) {
    Pass pass = passes_[i];
    if (i + 1 < passes_.size() && pass.radix == 4 && passes_[i + 1].radix == 4) {
      pass.radix = 16;
      pass.m = passes_[i + 1].m;
      pass.vr = passes_[i + 1].wr;
      pass.vi = passes_[i + 1].wi;
      ++i;
    }
    fused_passes_.push_back(std::move(pass));
  }
  if (fused_passes_.size() == passes_.size()) fused_passes_.clear();
}

template <typename T>
int64_t FftPlan<T>::WorkSize(int64_t lanes) const {
  if (bluestein_ != nullptr) return 4 * bluestein_->m * lanes;
  return 2 * n_ * lanes;
}

// The largest part (real or imaginary) of a block that runs the fused radix-16 passes.
constexpr int64_t kMaxFusedBytes = 16 * 1024;

template <typename T>
void FftPlan<T>::RunDirect(T* re, T* im, int64_t lanes, T* work) const {
  const int64_t total = n_ * lanes;
  T* xr = re;
  T* xi = im;
  T* yr = work;
  T* yi = work + total;
  // Each pass reads x and writes y. The last pass (one sub-transform, m = 1) writes the rows it
  // reads, so a fixed radix (which reads all its rows before writing) can run it in place: with an
  // odd number of passes that leaves the result in (re, im) without a copy. A fused pass reads 16
  // rows n * lanes / 16 elements apart: beyond 4 KiB they start to share the L1 cache's sets
  // (power-of-two lengths), so long transforms keep the radix-4 passes.
  const std::vector<Pass>& passes =
      fused_passes_.empty() || total * static_cast<int64_t>(sizeof(T)) > kMaxFusedBytes
          ? passes_
          : fused_passes_;
  const size_t count = passes.size();
  const bool last_in_place =
      count % 2 == 1 && (passes.back().radix <= 5 || passes.back().radix == 16);
  for (size_t i = 0; i < count; ++i) {
    const Pass& pass = passes[i];
    if (last_in_place && i + 1 == count) {
      yr = xr;
      yi = xi;
    }
    const int64_t block = pass.stride * lanes;
    const T* wr = pass.wr.data();
    const T* wi = pass.wi.data();
    // A block of one vector (the first pass of 16 float or 8 double lanes) runs with a constant
    // trip count: straight-line vector code instead of a loop per sub-transform.
    constexpr int64_t kVector = 64 / sizeof(T);
    const bool one_vector = block == kVector;
    // Each radix is its own RunSimd clone: one function holding every pass compiles the
    // radix-4 loops worse.
    switch (pass.radix) {
      case 2:
        RunSimd([&] {
          one_vector ? Pass2<T, kVector>(xr, xi, yr, yi, pass.m, block, wr, wi)
                     : Pass2<T, 0>(xr, xi, yr, yi, pass.m, block, wr, wi);
        });
        break;
      case 3:
        RunSimd([&] {
          one_vector ? Pass3<T, kVector>(xr, xi, yr, yi, pass.m, block, wr, wi)
                     : Pass3<T, 0>(xr, xi, yr, yi, pass.m, block, wr, wi);
        });
        break;
      case 4:
        RunSimd([&] {
          one_vector ? Pass4<T, kVector>(xr, xi, yr, yi, pass.m, block, wr, wi)
                     : Pass4<T, 0>(xr, xi, yr, yi, pass.m, block, wr, wi);
        });
        break;
      case 16:
        RunSimd([&] {
          const T* vr = pass.vr.data();
          const T* vi = pass.vi.data();
          one_vector ? Pass44<T, kVector>(xr, xi, yr, yi, pass.m, block, wr, wi, vr, vi)
                     : Pass44<T, 0>(xr, xi, yr, yi, pass.m, block, wr, wi, vr, vi);
        });
        break;
      case 5:
        RunSimd([&] {
          one_vector ? Pass5<T, kVector>(xr, xi, yr, yi, pass.m, block, wr, wi)
                     : Pass5<T, 0>(xr, xi, yr, yi, pass.m, block, wr, wi);
        });
        break;
      default:
        RunSimd([&] {
          PassOdd(pass.radix, xr, xi, yr, yi, pass.m, block, wr, wi, pass.dft_c.data(),
                  pass.dft_s.data());
        });
        break;
    }
    std::swap(xr, yr);
    std::swap(xi, yi);
  }
  if (xr != re) {
    std::copy_n(xr, total, re);
    std::copy_n(xi, total, im);
  }
}

template <typename T>
void FftPlan<T>::RunBluestein(T* re, T* im, int64_t lanes, T* work, bool inverse) const {
  const Bluestein& b = *bluestein_;
  const int64_t m = b.m;
  T* wr = work;
  T* wi = work + m * lanes;
  T* sub = work + 2 * m * lanes;
  // The inverse transform is the forward one with real and imaginary parts exchanged on the way
  // in and out.
  if (inverse) std::swap(re, im);
  RunSimd([&] {
    for (int64_t j = 0; j < n_; ++j) {
      const T cr = b.chirp_re[j], ci = b.chirp_im[j];
      const T* xr = re + j * lanes;
      const T* xi = im + j * lanes;
      T* zr = wr + j * lanes;
      T* zi = wi + j * lanes;
      for (int64_t l = 0; l < lanes; ++l) {
        zr[l] = xr[l] * cr - xi[l] * ci;
        zi[l] = xr[l] * ci + xi[l] * cr;
      }
    }
  });
  std::fill(wr + n_ * lanes, wr + m * lanes, T(0));
  std::fill(wi + n_ * lanes, wi + m * lanes, T(0));
  b.conv->RunDirect(wr, wi, lanes, sub);
  RunSimd([&] {
    for (int64_t k = 0; k < m; ++k) {
      const T cr = b.kernel_re[k], ci = b.kernel_im[k];
      T* zr = wr + k * lanes;
      T* zi = wi + k * lanes;
      for (int64_t l = 0; l < lanes; ++l) {
        const T vr = zr[l], vi = zi[l];
        zr[l] = vr * cr - vi * ci;
        zi[l] = vr * ci + vi * cr;
      }
    }
  });
  b.conv->RunDirect(wi, wr, lanes, sub);  // exchanged parts: the inverse transform
  RunSimd([&] {
    for (int64_t k = 0; k < n_; ++k) {
      const T cr = b.chirp_re[k], ci = b.chirp_im[k];
      const T* zr = wr + k * lanes;
      const T* zi = wi + k * lanes;
      T* xr = re + k * lanes;
      T* xi = im + k * lanes;
      for (int64_t l = 0; l < lanes; ++l) {
        xr[l] = zr[l] * cr - zi[l] * ci;
        xi[l] = zr[l] * ci + zi[l] * cr;
      }
    }
  });
}

template <typename T>
void FftPlan<T>::Run(T* re, T* im, int64_t lanes, T* work, bool inverse) const {
  if (n_ <= 1 || lanes <= 0) return;
  if (bluestein_ != nullptr) {
    RunBluestein(re, im, lanes, work, inverse);
  } else if (inverse) {
    RunDirect(im, re, lanes, work);
  } else {
    RunDirect(re, im, lanes, work);
  }
}

template <typename T>
std::shared_ptr<const FftPlan<T>> FftPlan<T>::Get(int64_t n) {
  static Mutex mu;
  static auto* cache = new std::unordered_map<int64_t, std::shared_ptr<const FftPlan<T>>>();
  {
    MutexLock lock(&mu);
    auto it = cache->find(n);
    if (it != cache->end()) return it->second;
  }
  auto plan = std::make_shared<const FftPlan<T>>(n);
  MutexLock lock(&mu);
  if (cache->size() >= 128) cache->clear();
  return cache->emplace(n, std::move(plan)).first->second;
}

template class FftPlan<float>;
template class FftPlan<double>;

}  // namespace rill
