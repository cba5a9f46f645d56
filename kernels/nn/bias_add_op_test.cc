#include "core/status_matchers.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "kernels/framework/op_test_util.h"

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
