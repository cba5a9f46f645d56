#include "kernels/math_lib/fft_batch.h"

#include <cmath>
#include <complex>
#include <cstdint>
#include <random>
#include <vector>

#include "gtest/gtest.h"
#include "kernels/math_lib/simd_dispatch.h"

namespace rill {
namespace {

using Cld = std::complex<long double>;
using Cd = std::complex<double>;

// The DFT along the middle axis of an [outer][n][inner] array, directly in long double.
std::vector<Cld> DirectAxisDft(const std::vector<Cld>& x, int64_t outer, int64_t n, int64_t inner,
                               int sign) {
  const long double pi = 3.14159265358979323846264338327950288L;
  std::vector<Cld> w(n);  // e^{sign 2 pi i t / n}
  for (int64_t t = 0; t < n; ++t) {
    const long double angle = sign * 2 * pi * static_cast<long double>(t) / n;
    w[t] = Cld(std::cos(angle), std::sin(angle));
  }
  std::vector<Cld> out(x.size());
  for (int64_t o = 0; o < outer; ++o) {
    for (int64_t c = 0; c < inner; ++c) {
      for (int64_t k = 0; k < n; ++k) {
        Cld sum = 0;
        for (int64_t j = 0; j < n; ++j) sum += x[(o * n + j) * inner + c] * w[j * k % n];
        out[(o * n + k) * inner + c] = sum;
      }
    }
  }
  return out;
}

std::vector<Cd> Random(int64_t size, uint32_t seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> dist(-1.0, 1.0);
  std::vector<Cd> x(size);
  for (auto& v : x) v = Cd(dist(rng), dist(rng));
  return x;
}

template <typename Jobs>
void RunAll(const Jobs& jobs) {
  // Two ranges, as two threads would run them.
  const int64_t mid = jobs.num_jobs() / 2;
  jobs.Run(0, mid);
  jobs.Run(mid, jobs.num_jobs());
}

TEST(ComplexAxisFftTest, RowsColumnsAndThreeDimensionsMatchADirectDft) {
  // A [5][12][7][9] array (outer 5): the 3-D transform over its last three axes, one axis at a
  // time (rows first), in double, and inverse with scale.
  const int64_t d0 = 5, d1 = 12, d2 = 7, d3 = 9;
  const std::vector<Cd> x = Random(d0 * d1 * d2 * d3, 1);
  for (bool inverse : {false, true}) {
    std::vector<Cd> y(x.size());
    const double scale = inverse ? 1.0 / (d1 * d2 * d3) : 1.0;
    RunAll(ComplexAxisFft<double>(d0 * d1 * d2, d3, 1, inverse, 1.0, x.data(), y.data()));
    RunAll(ComplexAxisFft<double>(d0 * d1, d2, d3, inverse, 1.0, y.data(), y.data()));
    RunAll(ComplexAxisFft<double>(d0, d1, d2 * d3, inverse, scale, y.data(), y.data()));
    std::vector<Cld> want(x.begin(), x.end());
    const int sign = inverse ? 1 : -1;
    want = DirectAxisDft(want, d0 * d1 * d2, d3, 1, sign);
    want = DirectAxisDft(want, d0 * d1, d2, d3, sign);
    want = DirectAxisDft(want, d0, d1, d2 * d3, sign);
    for (size_t i = 0; i < x.size(); ++i) {
      EXPECT_NEAR(y[i].real(), static_cast<double>(want[i].real() * scale), 1e-12) << i;
      EXPECT_NEAR(y[i].imag(), static_cast<double>(want[i].imag() * scale), 1e-12) << i;
    }
  }
}

TEST(ComplexAxisFftTest, FloatRowsOfManyLengths) {
  // 37 rows (blocks of 13 and 12 lanes) of Bluestein, mixed-radix and power-of-two lengths.
  for (int64_t n : {1, 2, 8, 30, 67, 256}) {
    const std::vector<Cd> xd = Random(37 * n, n);
    std::vector<std::complex<float>> x(xd.begin(), xd.end()), y(x.size());
    RunAll(ComplexAxisFft<float>(37, n, 1, false, 1.0f, x.data(), y.data()));
    const std::vector<Cld> want = DirectAxisDft(std::vector<Cld>(x.begin(), x.end()), 37, n, 1, -1);
    for (size_t i = 0; i < x.size(); ++i) {
      EXPECT_NEAR(y[i].real(), static_cast<double>(want[i].real()), 2e-5) << n << " " << i;
      EXPECT_NEAR(y[i].imag(), static_cast<double>(want[i].imag()), 2e-5) << n << " " << i;
    }
  }
}

TEST(ComplexAxisFftTest, SixteenLaneBlocksAtEverySimdLevel) {
  // 32 float rows: two blocks of 16 lanes, which an AVX-512 CPU moves with register transposes
  // (a tail of 3 elements past the 8-element tiles); the baseline moves them element by element.
  const int64_t rows = 32, n = 19;
  const std::vector<Cd> xd = Random(rows * n, 9);
  const std::vector<std::complex<float>> x(xd.begin(), xd.end());
  const std::vector<Cld> want = DirectAxisDft(std::vector<Cld>(x.begin(), x.end()), rows, n, 1, 1);
  for (SimdLevel level : {SimdLevel::kBaseline, SimdLevel::kAvx2, SimdLevel::kAvx512}) {
    ScopedSimdLevelForTesting scoped(level);
    std::vector<std::complex<float>> y(x.size());
    RunAll(ComplexAxisFft<float>(rows, n, 1, true, 0.5f, x.data(), y.data()));
    for (size_t i = 0; i < x.size(); ++i) {
      EXPECT_NEAR(y[i].real(), static_cast<double>(want[i].real()) * 0.5, 1e-5)
          << SimdLevelName(level) << " " << i;
      EXPECT_NEAR(y[i].imag(), static_cast<double>(want[i].imag()) * 0.5, 1e-5)
          << SimdLevelName(level) << " " << i;
    }
  }
}

TEST(ComplexAxisFftTest, OneLongRowRoundTrip) {
  // A single row: buffers for one lane, not a block of 16. 3 * 2^14 is mixed radix, 65537 a
  // Bluestein length.
  for (int64_t n : {49152, 65537}) {
    const std::vector<Cd> x = Random(n, 11);
    std::vector<Cd> y(n), back(n);
    RunAll(ComplexAxisFft<double>(1, n, 1, false, 1.0, x.data(), y.data()));
    RunAll(ComplexAxisFft<double>(1, n, 1, true, 1.0 / n, y.data(), back.data()));
    // y[0] is the sum of the row.
    Cd sum = 0;
    for (const Cd& v : x) sum += v;
    EXPECT_NEAR(y[0].real(), sum.real(), 1e-9) << n;
    EXPECT_NEAR(y[0].imag(), sum.imag(), 1e-9) << n;
    for (int64_t i = 0; i < n; ++i) {
      ASSERT_NEAR(back[i].real(), x[i].real(), 1e-12) << n << " " << i;
      ASSERT_NEAR(back[i].imag(), x[i].imag(), 1e-12) << n << " " << i;
    }
  }
}

// The first n / 2 + 1 bins of the DFT of each row of `rows` (cropped or zero-padded to n).
std::vector<Cld> DirectRealDft(const std::vector<double>& x, int64_t rows, int64_t width,
                               int64_t n) {
  std::vector<Cld> padded(rows * n, 0);
  for (int64_t r = 0; r < rows; ++r) {
    for (int64_t j = 0; j < std::min(n, width); ++j) padded[r * n + j] = x[r * width + j];
  }
  const std::vector<Cld> full = DirectAxisDft(padded, rows, n, 1, -1);
  std::vector<Cld> out;
  for (int64_t r = 0; r < rows; ++r) {
    for (int64_t k = 0; k <= n / 2; ++k) out.push_back(full[r * n + k]);
  }
  return out;
}

TEST(RealForwardRowsTest, EvenAndOddLengthsCroppedOrPadded) {
  const int64_t rows = 21, width = 10;
  std::mt19937 rng(3);
  std::uniform_real_distribution<double> dist(-1.0, 1.0);
  std::vector<double> x(rows * width);
  for (auto& v : x) v = dist(rng);
  for (int64_t n : {1, 2, 3, 7, 8, 10, 13, 16, 24}) {
    FftRowLayout layout;
    layout.rows = rows;
    layout.group_stride = width;
    layout.valid_len = width;
    const int64_t half = n / 2 + 1;
    std::vector<Cd> y(rows * half);
    RunAll(RealForwardRows<double>(n, layout, x.data(), y.data()));
    const std::vector<Cld> want = DirectRealDft(x, rows, width, n);
    for (int64_t i = 0; i < rows * half; ++i) {
      EXPECT_NEAR(y[i].real(), static_cast<double>(want[i].real()), 1e-13) << n << " " << i;
      EXPECT_NEAR(y[i].imag(), static_cast<double>(want[i].imag()), 1e-13) << n << " " << i;
    }
  }
}

TEST(RealForwardRowsTest, GroupsWithZeroRows) {
  // Two groups of 3 rows, of which the first 2 are read (row stride 4, group stride 12) and the
  // third is zero: RFFT2D's padding of the second-to-last dimension.
  std::vector<float> x(24);
  for (int i = 0; i < 24; ++i) x[i] = static_cast<float>(i % 5) - 1.5f;
  FftRowLayout layout;
  layout.rows = 6;
  layout.group = 3;
  layout.group_stride = 12;
  layout.row_stride = 4;
  layout.valid_rows = 2;
  layout.valid_len = 4;
  std::vector<std::complex<float>> y(6 * 3);
  RunAll(RealForwardRows<float>(4, layout, x.data(), y.data()));
  for (int64_t row = 0; row < 6; ++row) {
    const int64_t g = row / 3, r = row % 3;
    std::vector<float> v(4, 0.0f);
    if (r < 2) {
      for (int j = 0; j < 4; ++j) v[j] = x[g * 12 + r * 4 + j];
    }
    // Length 4, exact: X0 = sum, X1 = (v0 - v2) - i (v1 - v3), X2 = v0 - v1 + v2 - v3.
    EXPECT_EQ(y[row * 3 + 0], std::complex<float>(v[0] + v[1] + v[2] + v[3], 0)) << row;
    EXPECT_EQ(y[row * 3 + 1], std::complex<float>(v[0] - v[2], v[3] - v[1])) << row;
    EXPECT_EQ(y[row * 3 + 2], std::complex<float>(v[0] - v[1] + v[2] - v[3], 0)) << row;
  }
}

TEST(RealForwardRowsTest, BlocksOfGroups) {
  // RFFT3D's cropped volumes: 2 blocks (stride 30) of 2 groups (stride 10) of 2 rows (stride 5),
  // 4 elements read per row.
  std::vector<float> x(60);
  for (int i = 0; i < 60; ++i) x[i] = static_cast<float>(i % 7) - 2.5f;
  FftRowLayout layout;
  layout.rows = 8;
  layout.group = 2;
  layout.group_stride = 10;
  layout.row_stride = 5;
  layout.valid_rows = 2;
  layout.valid_len = 4;
  layout.block_groups = 2;
  layout.block_stride = 30;
  std::vector<std::complex<float>> y(8 * 3);
  RunAll(RealForwardRows<float>(4, layout, x.data(), y.data()));
  for (int64_t row = 0; row < 8; ++row) {
    const float* v = x.data() + row / 4 * 30 + row / 2 % 2 * 10 + row % 2 * 5;
    EXPECT_EQ(y[row * 3 + 0], std::complex<float>(v[0] + v[1] + v[2] + v[3], 0)) << row;
    EXPECT_EQ(y[row * 3 + 1], std::complex<float>(v[0] - v[2], v[3] - v[1])) << row;
    EXPECT_EQ(y[row * 3 + 2], std::complex<float>(v[0] - v[1] + v[2] - v[3], 0)) << row;
  }
}

TEST(RealInverseRowsTest, MatchesTheHermitianInverseDft) {
  const int64_t rows = 19;
  for (int64_t n : {1, 2, 3, 6, 9, 16, 20, 101}) {
    const int64_t half = n / 2 + 1, width = half + 2;  // two extra bins per row, not read
    const std::vector<Cd> x = Random(rows * width, 5 * n);
    FftRowLayout layout;
    layout.rows = rows;
    layout.group_stride = width;
    std::vector<double> y(rows * n);
    RunAll(RealInverseRows<double>(n, layout, 0.5, x.data(), y.data()));
    for (int64_t r = 0; r < rows; ++r) {
      // The full Hermitian spectrum, DC (and an even n's Nyquist bin) taken as real.
      std::vector<Cld> spectrum(n);
      for (int64_t k = 0; k < half; ++k) spectrum[k] = x[r * width + k];
      spectrum[0] = spectrum[0].real();
      if (n % 2 == 0) spectrum[n / 2] = spectrum[n / 2].real();
      for (int64_t k = half; k < n; ++k) spectrum[k] = std::conj(spectrum[n - k]);
      const std::vector<Cld> want = DirectAxisDft(spectrum, 1, n, 1, 1);
      for (int64_t j = 0; j < n; ++j) {
        EXPECT_NEAR(y[r * n + j], static_cast<double>(want[j].real()) * 0.5, 1e-12)
            << n << " " << r << " " << j;
      }
    }
  }
}

TEST(RealInverseRowsTest, UndoesRealForwardRows) {
  // 17 rows: blocks of 8 and 9 lanes; 32 rows: two blocks of 16 (AVX-512's register transposes).
  for (int64_t n : {4, 15, 36, 512, 1000}) {
    const int64_t rows = n == 36 ? 32 : 17, half = n / 2 + 1;
    std::vector<float> x(rows * n);
    for (int64_t i = 0; i < rows * n; ++i) x[i] = static_cast<float>(std::sin(0.01 * i * i));
    FftRowLayout layout;
    layout.rows = rows;
    layout.group_stride = n;
    layout.valid_len = n;
    std::vector<std::complex<float>> spectrum(rows * half);
    RunAll(RealForwardRows<float>(n, layout, x.data(), spectrum.data()));
    FftRowLayout back_layout;
    back_layout.rows = rows;
    back_layout.group_stride = half;
    std::vector<float> back(rows * n);
    RunAll(RealInverseRows<float>(n, back_layout, 1.0f / n, spectrum.data(), back.data()));
    for (int64_t i = 0; i < rows * n; ++i) EXPECT_NEAR(back[i], x[i], 2e-6) << n << " " << i;
  }
}

}  // namespace
}  // namespace rill
