#include "tools/session_runner/numpy_format.h"

#include <cmath>
#include <limits>
#include <vector>

#include "absl/strings/str_cat.h"
#include "core/quantized_types.h"
#include "gtest/gtest.h"

namespace rill {
namespace {

// Expected strings are what numpy 2.x's str() printed for the same arrays.
TEST(NumpyFormatTest, FloatsKeepTheDotAndAlign) {
  EXPECT_EQ(FormatLikeNumpy(Tensor::FromVector<float>({22, 28, 49, 64}, TensorShape({2, 2}))),
            "[[22. 28.]\n [49. 64.]]");
  EXPECT_EQ(FormatLikeNumpy(Tensor::FromVector<float>({1.5f, 10}, TensorShape({2}))),
            "[ 1.5 10. ]");
  EXPECT_EQ(FormatLikeNumpy(Tensor::FromVector<float>({0.1f, 0.25f}, TensorShape({2}))),
            "[0.1  0.25]");
  EXPECT_EQ(FormatLikeNumpy(Tensor::Scalar<float>(3.5f)), "3.5");
}

// numpy's str of what session.run returns for a qint8 / quint16 output (their integers).
TEST(NumpyFormatTest, QuantizedDtypesPrintTheirIntegers) {
  Tensor q(DT_QINT8, TensorShape({3}));
  q.flat<qint8>()[0] = qint8(-128);
  q.flat<qint8>()[1] = qint8(5);
  q.flat<qint8>()[2] = qint8(127);
  EXPECT_EQ(FormatLikeNumpy(q), "[-128    5  127]");
  Tensor u(DT_QUINT16, TensorShape({}));
  u.flat<quint16>()[0] = quint16(65535);
  EXPECT_EQ(FormatLikeNumpy(u), "65535");
}

TEST(NumpyFormatTest, ScientificWhenMagnitudesCallForIt) {
  EXPECT_EQ(FormatLikeNumpy(Tensor::FromVector<float>({1e8f, 1}, TensorShape({2}))),
            "[1.e+08 1.e+00]");
  EXPECT_EQ(FormatLikeNumpy(Tensor::FromVector<double>({1e-5, 1}, TensorShape({2}))),
            "[1.e-05 1.e+00]");
}

// numpy's str() of the same arrays.
TEST(NumpyFormatTest, NanAndInfInScientificNotationHaveNoExponent) {
  const float inf = std::numeric_limits<float>::infinity();
  EXPECT_EQ(FormatLikeNumpy(
                Tensor::FromVector<float>({0, std::nanf(""), inf, 1e30f, -inf}, TensorShape({5}))),
            "[0.e+00    nan    inf 1.e+30   -inf]");
  EXPECT_EQ(
      FormatLikeNumpy(Tensor::FromVector<double>({1e-5, -std::nan(""), 2.5}, TensorShape({3}))),
      "[1.0e-05     nan 2.5e+00]");
}

TEST(NumpyFormatTest, NanAndInfAreRightAligned) {
  const float inf = std::numeric_limits<float>::infinity();
  EXPECT_EQ(FormatLikeNumpy(Tensor::FromVector<float>({std::nanf(""), 1, -inf}, TensorShape({3}))),
            "[ nan   1. -inf]");
}

TEST(NumpyFormatTest, IntsBoolsStringsAndRank3) {
  EXPECT_EQ(FormatLikeNumpy(Tensor::FromVector<int32_t>({1, 22, -3}, TensorShape({3}))),
            "[ 1 22 -3]");
  EXPECT_EQ(FormatLikeNumpy(Tensor::FromVector<bool>({true, false}, TensorShape({2}))),
            "[ True False]");
  EXPECT_EQ(FormatLikeNumpy(Tensor::FromVector<std::string>({"a", "bc"}, TensorShape({2}))),
            "[b'a' b'bc']");
  std::vector<int64_t> v(24);
  for (int i = 0; i < 24; ++i) v[i] = i;
  EXPECT_EQ(FormatLikeNumpy(Tensor::FromVector<int64_t>(v, TensorShape({2, 3, 4}))),
            "[[[ 0  1  2  3]\n  [ 4  5  6  7]\n  [ 8  9 10 11]]\n\n"
            " [[12 13 14 15]\n  [16 17 18 19]\n  [20 21 22 23]]]");
}

TEST(NumpyFormatTest, LongRowsWrapAt75Columns) {
  std::vector<float> v(30);
  for (int i = 0; i < 30; ++i) v[i] = 1.5f * i;
  EXPECT_EQ(FormatLikeNumpy(Tensor::FromVector<float>(v, TensorShape({30}))),
            "[ 0.   1.5  3.   4.5  6.   7.5  9.  10.5 12.  13.5 15.  16.5 18.  19.5\n"
            " 21.  22.5 24.  25.5 27.  28.5 30.  31.5 33.  34.5 36.  37.5 39.  40.5\n"
            " 42.  43.5]");
}

TEST(NumpyFormatTest, LargeArraysAreSummarized) {
  std::vector<float> v(2000);
  for (int i = 0; i < 2000; ++i) v[i] = i;
  EXPECT_EQ(FormatLikeNumpy(Tensor::FromVector<float>(v, TensorShape({2000}))),
            "[0.000e+00 1.000e+00 2.000e+00 ... 1.997e+03 1.998e+03 1.999e+03]");
}

TEST(NumpyFormatTest, SummariesFormatOnlyTheItemsShown) {
  std::vector<int64_t> v(2000);
  for (int i = 0; i < 2000; ++i) v[i] = i;
  EXPECT_EQ(FormatLikeNumpy(Tensor::FromVector<int64_t>(v, TensorShape({40, 50}))),
            "[[   0    1    2 ...   47   48   49]\n [  50   51   52 ...   97   98   99]\n"
            " [ 100  101  102 ...  147  148  149]\n ...\n [1850 1851 1852 ... 1897 1898 1899]\n"
            " [1900 1901 1902 ... 1947 1948 1949]\n [1950 1951 1952 ... 1997 1998 1999]]");
  // A value that is not shown does not widen the others or switch to scientific notation
  // (numpy: np.ones(1001) with a[500] = 12345.5 prints "[1. 1. 1. ... 1. 1. 1.]").
  std::vector<float> ones(1001, 1.f);
  ones[500] = 12345.5f;
  EXPECT_EQ(FormatLikeNumpy(Tensor::FromVector<float>(ones, TensorShape({1001}))),
            "[1. 1. 1. ... 1. 1. 1.]");
}

TEST(NumpyFormatTest, HugeTensorsPrintOnlyTheSummary) {
  // 40 MB of floats: only the 36 items shown are formatted.
  Tensor big(DT_FLOAT, TensorShape({1000, 10000}));
  auto f = big.flat<float>();
  for (int64_t i = 0; i < big.NumElements(); ++i) f[i] = 0.5f;
  const std::string s = FormatLikeNumpy(big);
  EXPECT_EQ(s.substr(0, 35), "[[0.5 0.5 0.5 ... 0.5 0.5 0.5]\n [0.");
  EXPECT_LT(s.size(), 300u);
}

TEST(NumpyFormatTest, DeepRanksAreFormattedWithoutRecursion) {
  // Rank 254, TensorShape's (and TensorFlow's) highest: brackets only, formatted iteratively.
  std::vector<int64_t> dims(254, 1);
  dims[0] = 2;
  absl::StatusOr<TensorShape> shape = TensorShape::FromDims(dims);
  ASSERT_TRUE(shape.ok());
  Tensor t(DT_INT32, *shape);
  t.flat<int32_t>()[0] = 7;
  t.flat<int32_t>()[1] = 8;
  const std::string s = FormatLikeNumpy(t);
  const std::string open(254, '['), close(253, ']');
  EXPECT_EQ(s, open + "7" + close + std::string(253, '\n') + " " + std::string(253, '[') + "8" +
                   close + "]");
}

// Strings print as Python's bytes repr (numpy 2.4 printed the expected texts), and an element of
// any length in bounded space (a fetched string may be gigabytes).
TEST(NumpyFormatTest, StringsAreEscapedAndLongOnesCut) {
  EXPECT_EQ(FormatLikeNumpy(Tensor::FromVector<std::string>(
                {"a'b", "x\"y'", std::string("\0\xff\n\t\\\r", 6), "q"}, TensorShape({4}))),
            "[b\"a'b\" b'x\"y\\'' b'\\x00\\xff\\n\\t\\\\\\r' b'q']");
  const std::string big(5000000, 'z');
  const std::string shown = FormatLikeNumpy(Tensor::Scalar<std::string>(big));
  EXPECT_EQ(shown, absl::StrCat("b'", std::string(1000, 'z'), "'...(5000000 bytes)"));
}

// Expected strings are numpy 2.4's str() of the same arrays (TensorFlow's fetches print so).
TEST(NumpyFormatTest, FloatDigitsAreTheTypesOwnAndAtMostEightAfterThePoint) {
  EXPECT_EQ(FormatLikeNumpy(Tensor::FromVector<double>({0.1, 1.0 / 3, 2}, TensorShape({3}))),
            "[0.1        0.33333333 2.        ]");
  EXPECT_EQ(FormatLikeNumpy(Tensor::FromVector<double>({0.0012345678901, 1}, TensorShape({2}))),
            "[0.00123457 1.        ]");
  EXPECT_EQ(FormatLikeNumpy(Tensor::FromVector<double>({1e-5, 1.0 / 3}, TensorShape({2}))),
            "[1.00000000e-05 3.33333333e-01]");
  EXPECT_EQ(FormatLikeNumpy(Tensor::FromVector<double>({1e100, 1e-5}, TensorShape({2}))),
            "[1.e+100 1.e-005]");
  auto halves = [](std::vector<float> v) {
    std::vector<half> h;
    for (float f : v) h.push_back(half(f));
    return Tensor::FromVector<half>(h, TensorShape({static_cast<int64_t>(h.size())}));
  };
  EXPECT_EQ(FormatLikeNumpy(halves({0.1f, 1.0f / 3, 2})), "[0.1    0.3333 2.    ]");
  // Scientific from 1e3 for half and 1e6 for float (numpy: 10^min(8, the type's digits)); a
  // mantissa padded with the value's further digits.
  EXPECT_EQ(FormatLikeNumpy(halves({13040, 1})), "[1.304e+04 1.000e+00]");
  EXPECT_EQ(FormatLikeNumpy(halves({123.456f, 0.001234f, 7})),
            "[1.2344e+02 1.2341e-03 7.0000e+00]");
  EXPECT_EQ(FormatLikeNumpy(Tensor::FromVector<float>({1e6f}, TensorShape({1}))), "[1.e+06]");
  EXPECT_EQ(FormatLikeNumpy(Tensor::FromVector<float>({999999}, TensorShape({1}))), "[999999.]");
  EXPECT_EQ(FormatLikeNumpy(Tensor::FromVector<bfloat16>(
                {bfloat16(1.0f), bfloat16(0.5f), bfloat16(100.0f)}, TensorShape({3}))),
            "[1 0.5 100]");
}

TEST(NumpyFormatTest, ComplexElementsAreRealAndSignedImaginaryColumns) {
  EXPECT_EQ(
      FormatLikeNumpy(Tensor::FromVector<complex64>({{1, 2}, {3.25f, -4.5f}}, TensorShape({2}))),
      "[1.  +2.j  3.25-4.5j]");
  const double nan = std::nan(""), inf = INFINITY;
  EXPECT_EQ(FormatLikeNumpy(
                Tensor::FromVector<complex128>({{0, 2}, {nan, 1}, {1, -inf}}, TensorShape({3}))),
            "[ 0. +2.j nan +1.j  1.-infj]");
  // Trailing padding stays before "]" and is stripped where a line wraps.
  std::vector<complex128> v(9, complex128(1, 2.5));
  v.insert(v.end(), 9, complex128(1, 1));
  EXPECT_EQ(FormatLikeNumpy(Tensor::FromVector<complex128>(v, TensorShape({18}))),
            "[1.+2.5j 1.+2.5j 1.+2.5j 1.+2.5j 1.+2.5j 1.+2.5j 1.+2.5j 1.+2.5j 1.+2.5j\n"
            " 1.+1.j  1.+1.j  1.+1.j  1.+1.j  1.+1.j  1.+1.j  1.+1.j  1.+1.j  1.+1.j ]");
}

TEST(NumpyFormatTest, ScalarsPrintAsNumpyScalars) {
  EXPECT_EQ(FormatLikeNumpy(Tensor::Scalar<double>(2)), "2.0");
  EXPECT_EQ(FormatLikeNumpy(Tensor::Scalar<double>(1.0 / 3)), "0.3333333333333333");
  EXPECT_EQ(FormatLikeNumpy(Tensor::Scalar<double>(1e20)), "1e+20");
  EXPECT_EQ(FormatLikeNumpy(Tensor::Scalar<double>(-0.0)), "-0.0");
  EXPECT_EQ(FormatLikeNumpy(Tensor::Scalar<float>(1e-4f)), "1e-04");
  EXPECT_EQ(FormatLikeNumpy(Tensor::Scalar<float>(123456789.0f)), "1.2345679e+08");
  EXPECT_EQ(FormatLikeNumpy(Tensor::Scalar<half>(half(65504.0f))), "6.55e+04");
  EXPECT_EQ(FormatLikeNumpy(Tensor::Scalar<half>(half(1.0f / 3))), "0.3333");
  EXPECT_EQ(FormatLikeNumpy(Tensor::Scalar<bfloat16>(bfloat16(2.0f))), "2");
  EXPECT_EQ(FormatLikeNumpy(Tensor::Scalar<complex64>({0, 2})), "2j");
  EXPECT_EQ(FormatLikeNumpy(Tensor::Scalar<complex64>({1, 2})), "(1+2j)");
  EXPECT_EQ(FormatLikeNumpy(Tensor::Scalar<complex64>({-0.0f, -0.0f})), "(-0-0j)");
  EXPECT_EQ(FormatLikeNumpy(Tensor::Scalar<complex64>({1, std::nanf("")})), "(1+nanj)");
  EXPECT_EQ(FormatLikeNumpy(Tensor::Scalar<complex128>({1e20, 1e-5})), "(1e+20+1e-05j)");
}

TEST(NumpyFormatTest, RowsWrapWithOneColumnLessPerAxis) {
  std::vector<double> v;
  for (int k = 0; k < 8; ++k) v.push_back(123456.5 + k);
  EXPECT_EQ(FormatLikeNumpy(Tensor::FromVector<double>(v, TensorShape({1, 1, 8}))),
            "[[[123456.5 123457.5 123458.5 123459.5 123460.5 123461.5 123462.5\n"
            "   123463.5]]]");
}

}  // namespace
}  // namespace rill
