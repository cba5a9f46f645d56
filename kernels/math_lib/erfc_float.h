// ErfcF: the complementary error function of a float, written so GCC vectorizes a loop of it (no
// table, no branch, no library call). The Erfc kernel's float path and _RillGelu's "erfc" form
// call it, so the fused node stays the unfused graph's bit for bit. glibc's erfcf, which both
// called before, is 1-3 ulp off the correctly rounded value on about 0.5% of floats and costs a
// library call per element.
//
// In double, for a = min(|x|, 10.75):
//   erfc(a) = exp(-a^2) * erfcx(a), erfcx(a) = sum_k kErfcxCheb[k] T_k(v),
//   v = kErfcxScale * (a - 4) / (a + 4) + kErfcxShift   (v in [-1, 1] for a in [0, 10.75]):
// a Chebyshev series (Clenshaw's recurrence) fitted to erfcx over that range in the variable
// (a - 4) / (a + 4), relative error about 1e-14; exp(-a^2) (a^2 exact in double) by Cody-Waite
// reduction by ln 2 and a degree-13 Taylor polynomial, relative error about 2e-16. erfc(x) for
// x < 0 is 2 - erfc(-x). The double result is rounded once to float. Checked exhaustively over
// all 2^32 float patterns, at the baseline, AVX2 + FMA and AVX-512 widths: it equals glibc's
// double erfc rounded to float for every float but one, x = -0x1.d9366ep-9, whose exact erfc lies
// 2.9e-16 (relative) below a float midpoint and which every width rounds one ulp up, to
// 0x1.010afcp+0. So every width gives the same float for every input, and that float is the
// correctly rounded erfc but for that one input (erfc_float_test.cc checks a strided sample and
// that input at every width). Above 10.75 erfc is under 1e-51 (a float rounds it to 0 above about
// 10.06), so a is clamped there: +inf gives 0, -inf 2, NaN itself.
//
// Pure function; thread-safe.
#ifndef RILL_KERNELS_MATH_LIB_ERFC_FLOAT_H_
#define RILL_KERNELS_MATH_LIB_ERFC_FLOAT_H_

#include <cmath>
#include <cstdint>
#include <cstring>

namespace rill {
namespace vector_math {

inline constexpr double kErfcxScale = 1.372093023255814;
inline constexpr double kErfcxShift = 0.37209302325581395;
inline constexpr int kErfcxTerms = 21;
inline constexpr double kErfcxCheb[kErfcxTerms] = {
    0.36633423374162927,    -0.4286781474434246,     0.1490761191844592,     -0.043082840132255766,
    0.010383202723850007,   -0.0020689947132214305,  0.0003325307027603496,  -4.069881515338074e-05,
    3.222041263263662e-06,  -4.071279729571436e-08,  -2.731268745205396e-08, 3.00923151238985e-09,
    6.922462211867816e-11,  -4.0999291441275736e-11, 1.394801106835976e-12,  4.853829836234493e-13,
    -3.596274371381092e-14, -6.216912485003898e-15,  6.00501607088033e-16,   1.1353807601636833e-16,
    -7.106501507390347e-17,
};

// exp(y) for y in [-116, 0]: y = n ln2 + r, |r| <= ln2 / 2 (n rounded by adding and subtracting
// 1.5 * 2^52; ln 2 split so that n * kLn2Hi is exact for |n| < 2^11), exp(r) by its Taylor
// polynomial to degree 13, and 2^n (a normal double for n >= -168) from n's bits.
inline double ExpOfNonPositiveD(double y) {
  constexpr double kRound = 6755399441055744.0;  // 1.5 * 2^52
  constexpr double kLog2e = 1.4426950408889634;
  constexpr double kLn2Hi = 0.6931471803691238;  // ln 2 to 42 bits
  constexpr double kLn2Lo = 1.9082149292705877e-10;
  const double t = y * kLog2e + kRound;
  const double n = t - kRound;
  const double r = (y - n * kLn2Hi) - n * kLn2Lo;
  double p = 1.0 / 6227020800.0;
  p = p * r + 1.0 / 479001600.0;
  p = p * r + 1.0 / 39916800.0;
  p = p * r + 1.0 / 3628800.0;
  p = p * r + 1.0 / 362880.0;
  p = p * r + 1.0 / 40320.0;
  p = p * r + 1.0 / 5040.0;
  p = p * r + 1.0 / 720.0;
  p = p * r + 1.0 / 120.0;
  p = p * r + 1.0 / 24.0;
  p = p * r + 1.0 / 6.0;
  p = p * r + 0.5;
  p = p * r + 1.0;
  p = p * r + 1.0;
  // t's low mantissa bits hold 2^51 + n; shifted up by 52, only n's bits are left above bit 52.
  uint64_t t_bits;
  std::memcpy(&t_bits, &t, sizeof t_bits);
  const uint64_t scale_bits = (t_bits << 52) + (uint64_t{1023} << 52);
  double scale;
  std::memcpy(&scale, &scale_bits, sizeof scale);
  return p * scale;
}

inline float ErfcF(float x) {
  const double ax = std::fabs(static_cast<double>(x));
  const double a = ax < 10.75 ? ax : 10.75;  // NaN too (its result is replaced below)
  const double v = kErfcxScale * ((a - 4.0) / (a + 4.0)) + kErfcxShift;
  double b1 = 0.0;
  double b2 = 0.0;
#pragma GCC unroll 32
  for (int k = kErfcxTerms - 1; k >= 1; --k) {
    const double b0 = 2.0 * v * b1 - b2 + kErfcxCheb[k];
    b2 = b1;
    b1 = b0;
  }
  const double erfcx = v * b1 - b2 + kErfcxCheb[0];
  const double e = ExpOfNonPositiveD(-(a * a)) * erfcx;
  const double r = x < 0.0f ? 2.0 - e : e;
  return x != x ? x : static_cast<float>(r);
}

}  // namespace vector_math
}  // namespace rill

#endif  // RILL_KERNELS_MATH_LIB_ERFC_FLOAT_H_
