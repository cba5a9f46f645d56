// What the conformance cases cannot hold: long transforms against a direct DFT in long double
// (Bluestein for a prime length, mixed radix and radix 4 beyond the recorded sizes), the
// IRFFT(RFFT(x)) round trip, the 3-D forms on a batch of cropped volumes against a direct 3-D DFT,
// and the zero spectrum of an empty input (TensorFlow leaves that output uninitialized).
#include <cmath>
#include <complex>
#include <vector>

#include "core/status_matchers.h"
#include "gtest/gtest.h"
#include "kernels/framework/op_test_util.h"

namespace rill {
namespace {

using Cld = std::complex<long double>;

std::vector<complex128> Signal(int n) {
  std::vector<complex128> x(n);
  for (int i = 0; i < n; ++i) x[i] = complex128(std::sin(0.37 * i + 1.0), std::cos(1.3 * i * i));
  return x;
}

// The DFT with sign -1 (forward) or +1, computed directly in long double.
std::vector<Cld> DirectDft(const std::vector<complex128>& x, int sign) {
  const int n = static_cast<int>(x.size());
  std::vector<Cld> out(n);
  const long double pi = 3.14159265358979323846264338327950288L;
  for (int k = 0; k < n; ++k) {
    Cld sum = 0;
    for (int j = 0; j < n; ++j) {
      const long double angle = sign * 2 * pi * ((static_cast<long long>(j) * k) % n) / n;
      sum += Cld(x[j].real(), x[j].imag()) * Cld(std::cos(angle), std::sin(angle));
    }
    out[k] = sum;
  }
  return out;
}

absl::StatusOr<std::vector<Tensor>> RunComplexFft(const char* op, const Tensor& x) {
  OpTester t(op);
  t.Attr("Tcomplex", x.dtype()).Input(x);
  return t.Run();
}

TEST(FftOpTest, LongTransformsMatchADirectDft) {
  for (int n : {1009, 1000, 1024, 6, 3}) {
    const std::vector<complex128> x = Signal(n);
    for (const char* op : {"FFT", "IFFT"}) {
      const bool inverse = op[0] == 'I';
      RILL_ASSERT_OK_AND_ASSIGN(
          std::vector<Tensor> out,
          RunComplexFft(op, Tensor::FromVector<complex128>(x, TensorShape({1, n}))));
      const std::vector<Cld> want = DirectDft(x, inverse ? 1 : -1);
      const complex128* got = out[0].flat<complex128>().data();
      for (int k = 0; k < n; ++k) {
        const Cld w = inverse ? want[k] / static_cast<long double>(n) : want[k];
        EXPECT_NEAR(got[k].real(), static_cast<double>(w.real()), 1e-11) << op << " n=" << n;
        EXPECT_NEAR(got[k].imag(), static_cast<double>(w.imag()), 1e-11) << op << " n=" << n;
      }
    }
  }
}

TEST(FftOpTest, InverseRealFftUndoesRealFft) {
  for (int n : {1, 2, 7, 64, 97}) {
    std::vector<float> x(n);
    for (int i = 0; i < n; ++i) x[i] = static_cast<float>(std::sin(0.5 * i) + 0.25 * i);
    const Tensor fft_length = Tensor::FromVector<int32_t>({n}, TensorShape({1}));
    OpTester rfft("RFFT");
    rfft.Attr("Treal", DT_FLOAT).Attr("Tcomplex", DT_COMPLEX64);
    rfft.Input(Tensor::FromVector<float>(x, TensorShape({n}))).Input(fft_length);
    RILL_ASSERT_OK_AND_ASSIGN(std::vector<Tensor> spectrum, rfft.Run());
    ASSERT_EQ(spectrum[0].shape(), TensorShape({n / 2 + 1}));
    OpTester irfft("IRFFT");
    irfft.Attr("Treal", DT_FLOAT).Attr("Tcomplex", DT_COMPLEX64);
    irfft.Input(spectrum[0]).Input(fft_length);
    RILL_ASSERT_OK_AND_ASSIGN(std::vector<Tensor> back, irfft.Run());
    ASSERT_EQ(back[0].shape(), TensorShape({n}));
    for (int i = 0; i < n; ++i) EXPECT_NEAR(back[0].flat<float>()[i], x[i], 1e-5) << "n=" << n;
  }
}

// The 3-D DFT (sign -1 or +1) of each [n0][n1][n2] corner of x's [batch][d0][d1][d2] volumes.
std::vector<Cld> DirectDft3(const std::vector<complex128>& x, int batch, const int* d, const int* n,
                            int sign) {
  const long double pi = 3.14159265358979323846264338327950288L;
  std::vector<Cld> out;
  for (int b = 0; b < batch; ++b) {
    for (int k0 = 0; k0 < n[0]; ++k0) {
      for (int k1 = 0; k1 < n[1]; ++k1) {
        for (int k2 = 0; k2 < n[2]; ++k2) {
          Cld sum = 0;
          for (int j0 = 0; j0 < n[0]; ++j0) {
            for (int j1 = 0; j1 < n[1]; ++j1) {
              for (int j2 = 0; j2 < n[2]; ++j2) {
                const long double turns = static_cast<long double>(j0 * k0 % n[0]) / n[0] +
                                          static_cast<long double>(j1 * k1 % n[1]) / n[1] +
                                          static_cast<long double>(j2 * k2 % n[2]) / n[2];
                const complex128 v = x[((b * d[0] + j0) * d[1] + j1) * d[2] + j2];
                sum += Cld(v.real(), v.imag()) *
                       Cld(std::cos(sign * 2 * pi * turns), std::sin(sign * 2 * pi * turns));
              }
            }
          }
          out.push_back(sum);
        }
      }
    }
  }
  return out;
}

TEST(FftOpTest, ThreeDimensionalTransformsMatchADirectDft) {
  const int batch = 2, d[3] = {3, 4, 6};
  const std::vector<complex128> x = Signal(batch * 3 * 4 * 6);
  for (const char* op : {"FFT3D", "IFFT3D"}) {
    const bool inverse = op[0] == 'I';
    RILL_ASSERT_OK_AND_ASSIGN(
        std::vector<Tensor> out,
        RunComplexFft(op, Tensor::FromVector<complex128>(x, TensorShape({batch, 3, 4, 6}))));
    const std::vector<Cld> want = DirectDft3(x, batch, d, d, inverse ? 1 : -1);
    const complex128* got = out[0].flat<complex128>().data();
    for (size_t k = 0; k < want.size(); ++k) {
      const Cld w = inverse ? want[k] / 72.0L : want[k];
      EXPECT_NEAR(got[k].real(), static_cast<double>(w.real()), 1e-12) << op << " " << k;
      EXPECT_NEAR(got[k].imag(), static_cast<double>(w.imag()), 1e-12) << op << " " << k;
    }
  }
  // RFFT3D of the real parts cropped to [2, 3, 5]: the first 3 bins of each innermost row of
  // the complex DFT of that corner; IRFFT3D of the spectrum gives the corner back.
  std::vector<double> re(x.size());
  std::vector<complex128> re_c(x.size());
  for (size_t i = 0; i < x.size(); ++i) {
    re[i] = x[i].real();
    re_c[i] = complex128(x[i].real(), 0);
  }
  const int n[3] = {2, 3, 5};
  const Tensor fft_length = Tensor::FromVector<int32_t>({2, 3, 5}, TensorShape({3}));
  OpTester rfft("RFFT3D");
  rfft.Attr("Treal", DT_DOUBLE).Attr("Tcomplex", DT_COMPLEX128);
  rfft.Input(Tensor::FromVector<double>(re, TensorShape({batch, 3, 4, 6}))).Input(fft_length);
  RILL_ASSERT_OK_AND_ASSIGN(std::vector<Tensor> spectrum, rfft.Run());
  ASSERT_EQ(spectrum[0].shape(), TensorShape({batch, 2, 3, 3}));
  const std::vector<Cld> want = DirectDft3(re_c, batch, d, n, -1);
  const complex128* got = spectrum[0].flat<complex128>().data();
  for (int r = 0; r < batch * 2 * 3; ++r) {
    for (int k = 0; k < 3; ++k) {
      const Cld w = want[r * 5 + k];
      EXPECT_NEAR(got[r * 3 + k].real(), static_cast<double>(w.real()), 1e-12) << r << " " << k;
      EXPECT_NEAR(got[r * 3 + k].imag(), static_cast<double>(w.imag()), 1e-12) << r << " " << k;
    }
  }
  OpTester irfft("IRFFT3D");
  irfft.Attr("Treal", DT_DOUBLE).Attr("Tcomplex", DT_COMPLEX128);
  irfft.Input(spectrum[0]).Input(fft_length);
  RILL_ASSERT_OK_AND_ASSIGN(std::vector<Tensor> back, irfft.Run());
  ASSERT_EQ(back[0].shape(), TensorShape({batch, 2, 3, 5}));
  for (int b = 0; b < batch; ++b) {
    for (int i = 0; i < 2 * 3 * 5; ++i) {
      const int i0 = i / 15, i1 = i / 5 % 3, i2 = i % 5;
      EXPECT_NEAR(back[0].flat<double>()[b * 30 + i], re[((b * 3 + i0) * 4 + i1) * 6 + i2], 1e-12)
          << b << " " << i;
    }
  }
}

TEST(FftOpTest, LargeInverseRealFft2DUndoesRealFft2D) {
  // IRFFT2D's other axis runs on a cropped copy of the spectrum (here 1 MB) that must stay alive
  // until the rows' transforms have read it.
  const int64_t rows = 256, cols = 512;
  std::vector<double> x(rows * cols);
  for (int64_t i = 0; i < rows * cols; ++i) x[i] = std::sin(0.01 * i) + 0.001 * (i % 97);
  const Tensor fft_length = Tensor::FromVector<int32_t>(
      {static_cast<int32_t>(rows), static_cast<int32_t>(cols)}, TensorShape({2}));
  OpTester rfft("RFFT2D");
  rfft.Attr("Treal", DT_DOUBLE).Attr("Tcomplex", DT_COMPLEX128);
  rfft.Input(Tensor::FromVector<double>(x, TensorShape({rows, cols}))).Input(fft_length);
  RILL_ASSERT_OK_AND_ASSIGN(std::vector<Tensor> spectrum, rfft.Run());
  for (int run = 0; run < 2; ++run) {
    OpTester irfft("IRFFT2D");
    irfft.Attr("Treal", DT_DOUBLE).Attr("Tcomplex", DT_COMPLEX128);
    irfft.Input(spectrum[0]).Input(fft_length);
    RILL_ASSERT_OK_AND_ASSIGN(std::vector<Tensor> back, irfft.Run());
    ASSERT_EQ(back[0].shape(), TensorShape({rows, cols}));
    for (int64_t i = 0; i < rows * cols; ++i) {
      ASSERT_NEAR(back[0].flat<double>()[i], x[i], 1e-12) << run << " " << i;
    }
  }
}

TEST(FftOpTest, EmptyInputGivesAZeroSpectrum) {
  OpTester rfft("RFFT2D");
  rfft.Attr("Treal", DT_DOUBLE).Attr("Tcomplex", DT_COMPLEX128);
  rfft.Input(Tensor(DT_DOUBLE, TensorShape({2, 0})))
      .Input(Tensor::FromVector<int32_t>({3, 4}, TensorShape({2})));
  RILL_ASSERT_OK_AND_ASSIGN(std::vector<Tensor> out, rfft.Run());
  ASSERT_EQ(out[0].shape(), TensorShape({3, 3}));
  for (int i = 0; i < 9; ++i) EXPECT_EQ(out[0].flat<complex128>()[i], complex128(0, 0));
}

}  // namespace
}  // namespace rill
