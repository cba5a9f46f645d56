#include <cstdint>
#include <string>
#include <vector>

#include "core/half.h"
#include "core/status_matchers.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "kernels/framework/op_test_util.h"
#include "kernels/math_lib/simd_dispatch.h"

namespace rill {
namespace {

using ::testing::HasSubstr;

Tensor F(std::vector<float> v, TensorShape s) { return Tensor::FromVector<float>(v, s); }

absl::StatusOr<std::vector<Tensor>> BiasAdd(const Tensor& x, const Tensor& b,
                                            const std::string& format = "NHWC") {
  OpTester t("BiasAdd");
  t.Attr("T", x.dtype()).Attr("data_format", format).Input(x).Input(b);
  return t.Run();
}

TEST(BiasAddOpTest, AddsAlongTheChannelDimension) {
  const Tensor x = F({1, 2, 3, 4, 5, 6, 7, 8}, TensorShape({1, 2, 2, 2}));
  RILL_ASSERT_OK_AND_ASSIGN(auto out, BiasAdd(x, F({10, 20}, TensorShape({2}))));
  ExpectTensorEqual(out[0], F({11, 22, 13, 24, 15, 26, 17, 28}, TensorShape({1, 2, 2, 2})));
  RILL_ASSERT_OK_AND_ASSIGN(out, BiasAdd(x, F({10, 20}, TensorShape({2})), "NCHW"));
  ExpectTensorEqual(out[0], F({11, 12, 13, 14, 25, 26, 27, 28}, TensorShape({1, 2, 2, 2})));
  // A matrix's channels are its last dimension in both formats.
  RILL_ASSERT_OK_AND_ASSIGN(
      out, BiasAdd(F({1, 2, 3, 4}, TensorShape({2, 2})), F({10, 20}, TensorShape({2})), "NCHW"));
  ExpectTensorEqual(out[0], F({11, 22, 13, 24}, TensorShape({2, 2})));
}

// Rows of vector loops with tails (40 channels; NCHW planes of 30 x 90 pixels), over 1 and 2
// intra-op threads (900k elements: enough to split), against the sums computed here.
TEST(BiasAddOpTest, LargeTensorsInBothFormatsAndThreadCounts) {
  const int64_t n = 9, c = 40, hw = 2700;
  std::vector<float> xv(n * c * hw), bv(c);
  for (size_t i = 0; i < xv.size(); ++i) xv[i] = static_cast<float>(i % 1000);
  for (int64_t j = 0; j < c; ++j) bv[j] = static_cast<float>(j * 1000);
  std::vector<float> nhwc(xv.size()), nchw(xv.size());
  for (size_t i = 0; i < xv.size(); ++i) {
    nhwc[i] = xv[i] + bv[i % c];
    nchw[i] = xv[i] + bv[(i / hw) % c];
  }
  for (int threads : {1, 2}) {
    SCOPED_TRACE(threads);
    for (const std::string format : {"NHWC", "NCHW"}) {
      const bool last = format == "NHWC";
      const TensorShape shape = last ? TensorShape({n, 30, 90, c}) : TensorShape({n, c, 30, 90});
      OpTester t("BiasAdd");
      t.Attr("T", DT_FLOAT).Attr("data_format", format);
      t.Input(F(xv, shape)).Input(F(bv, TensorShape({c})));
      t.SetIntraOpThreads(threads);
      RILL_ASSERT_OK_AND_ASSIGN(auto out, t.Run());
      ExpectTensorEqual(out[0], F(last ? nhwc : nchw, shape));
    }
  }
}

// Equal bits, or both NaN (which operand's NaN a sum of two NaNs keeps is the compiler's choice).
bool SameHalf(half a, half b) {
  auto nan = [](half h) { return (h.bits & 0x7c00) == 0x7c00 && (h.bits & 0x3ff) != 0; };
  return a.bits == b.bits || (nan(a) && nan(b));
}

// half: each element is half(float(x) + float(bias)), converted by F16C a chunk at a time. Every
// half bit pattern among the values (NaN, +-inf, -0, subnormals, 65504), rows shorter and longer
// than a chunk (3, 37 and 300 channels), NCHW planes of 5 and 300 pixels, the scalar conversions
// (baseline) and F16C, 1 and 2 intra-op threads.
TEST(BiasAddOpTest, HalfIsTheFloatSumRoundedOnce) {
  for (const int64_t c : {3, 37, 300}) {
    for (const int64_t inner : {1, 5, 300}) {
      const bool nchw = inner > 1;
      const int64_t n = 2, rows = 120;
      const int64_t count = n * rows * c * inner / (nchw ? rows : 1);
      Tensor x(DT_HALF, nchw ? TensorShape({n, c, 1, inner}) : TensorShape({n, rows, 1, c}));
      Tensor b(DT_HALF, TensorShape({c}));
      half* xv = x.flat<half>().data();
      half* bv = b.flat<half>().data();
      for (int64_t i = 0; i < x.NumElements(); ++i) {
        xv[i] = half::FromBits(static_cast<uint16_t>((i * 40503 + c) & 0xffff));
      }
      const uint16_t specials[] = {0x7c00, 0xfc00, 0x7e00, 0x8000, 0x0001, 0x7bff, 0xfbff};
      for (int64_t j = 0; j < c; ++j) {
        bv[j] = j % 5 == 1 ? half::FromBits(specials[(j / 5) % 7])
                           : half(static_cast<float>(j % 17) * 0.25f - 2.f);
      }
      ASSERT_EQ(x.NumElements(), count);
      for (SimdLevel level : {SimdLevel::kBaseline, SimdLevel::kAvx512}) {
        for (int threads : {1, 2}) {
          SCOPED_TRACE(std::to_string(c) + " channels, inner " + std::to_string(inner) + ", " +
                       SimdLevelName(level) + ", threads " + std::to_string(threads));
          ScopedSimdLevelForTesting cap(level);
          OpTester t("BiasAdd");
          t.Attr("T", DT_HALF).Attr("data_format", nchw ? "NCHW" : "NHWC").Input(x).Input(b);
          t.SetIntraOpThreads(threads);
          RILL_ASSERT_OK_AND_ASSIGN(auto out, t.Run());
          const half* got = out[0].flat<half>().data();
          int mismatches = 0;
          for (int64_t i = 0; i < count; ++i) {
            const half bias = bv[nchw ? (i / inner) % c : i % c];
            const half want(static_cast<float>(xv[i]) + static_cast<float>(bias));
            if (!SameHalf(got[i], want) && ++mismatches <= 3) {
              ADD_FAILURE() << "element " << i << ": " << xv[i].bits << " + " << bias.bits
                            << " gave " << got[i].bits << ", want " << want.bits;
            }
          }
          EXPECT_EQ(mismatches, 0);
        }
      }
    }
  }
}

TEST(BiasAddOpTest, ErrorsAreTensorFlows) {
  EXPECT_THAT(BiasAdd(F({1, 2, 3}, TensorShape({3})), F({1, 2, 3}, TensorShape({3}))),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("Input tensor must be at least 2D: [3]")));
  EXPECT_THAT(BiasAdd(F({1, 2, 3, 4, 5, 6}, TensorShape({2, 3})), F({1, 2}, TensorShape({2}))),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("Must provide as many biases as the last dimension of the input "
                                 "tensor: [2] vs. [2,3]")));
  EXPECT_THAT(BiasAdd(F({1, 2, 3, 4}, TensorShape({2, 2})), F({1, 2, 3, 4}, TensorShape({2, 2}))),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("Biases must be 1D: [2,2]")));
}

TEST(BiasAddGradOpTest, SumsAllButTheChannelDimension) {
  const Tensor g = F({1, 2, 3, 4, 5, 6, 7, 8}, TensorShape({1, 2, 2, 2}));
  OpTester nhwc("BiasAddGrad");
  nhwc.Attr("T", DT_FLOAT).Input(g);
  RILL_ASSERT_OK_AND_ASSIGN(auto out, nhwc.Run());
  ExpectTensorEqual(out[0], F({16, 20}, TensorShape({2})));
  OpTester nchw("BiasAddGrad");
  nchw.Attr("T", DT_FLOAT).Attr("data_format", "NCHW").Input(g);
  RILL_ASSERT_OK_AND_ASSIGN(out, nchw.Run());
  ExpectTensorEqual(out[0], F({10, 26}, TensorShape({2})));
}

}  // namespace
}  // namespace rill
