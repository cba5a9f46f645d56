#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "core/status_matchers.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "kernels/framework/op_test_util.h"

namespace rill {
namespace {

using ::testing::Eq;

Tensor Indices(const std::vector<int64_t>& v, int64_t rank) {
  return Tensor::FromVector<int64_t>(v, TensorShape({static_cast<int64_t>(v.size()) / rank, rank}));
}
Tensor Vec(const std::vector<int64_t>& v) {
  return Tensor::FromVector<int64_t>(v, TensorShape({static_cast<int64_t>(v.size())}));
}

absl::StatusOr<std::vector<Tensor>> RunEditDistance(const Tensor& hi, const Tensor& hv,
                                                    const Tensor& hs, const Tensor& ti,
                                                    const Tensor& tv, const Tensor& ts,
                                                    bool normalize) {
  OpTester t("EditDistance", "ed");
  t.Attr("T", hv.dtype()).Attr("normalize", normalize);
  t.Input(hi).Input(hv).Input(hs).Input(ti).Input(tv).Input(ts);
  return t.Run();
}

// Hypothesis [[1, 2], [3]], truth [[1, 3, 2], [3]]: one insertion in a truth of 3 (TensorFlow
// gives 1/3 normalized, 1 not).
TEST(EditDistanceOpTest, LevenshteinPerRow) {
  const Tensor hi = Indices({0, 0, 0, 1, 1, 0}, 2);
  const Tensor hv = Vec({1, 2, 3});
  const Tensor ti = Indices({0, 0, 0, 1, 0, 2, 1, 0}, 2);
  const Tensor tv = Vec({1, 3, 2, 3});
  RILL_ASSERT_OK_AND_ASSIGN(std::vector<Tensor> n,
                            RunEditDistance(hi, hv, Vec({2, 2}), ti, tv, Vec({2, 3}), true));
  ExpectTensorEqual(n[0], Tensor::FromVector<float>({1.0f / 3.0f, 0.0f}, TensorShape({2})));
  RILL_ASSERT_OK_AND_ASSIGN(std::vector<Tensor> raw,
                            RunEditDistance(hi, hv, Vec({2, 2}), ti, tv, Vec({2, 3}), false));
  ExpectTensorEqual(raw[0], Tensor::FromVector<float>({1.0f, 0.0f}, TensorShape({2})));
}

// Output [3]: row 0 has only a hypothesis (Inf normalized), row 1 nothing, row 2 only a truth.
TEST(EditDistanceOpTest, MissingSequences) {
  const float inf = std::numeric_limits<float>::infinity();
  RILL_ASSERT_OK_AND_ASSIGN(std::vector<Tensor> out,
                            RunEditDistance(Indices({0, 0}, 2), Vec({1}), Vec({3, 1}),
                                            Indices({2, 0}, 2), Vec({2}), Vec({1, 1}), true));
  ExpectTensorEqual(out[0], Tensor::FromVector<float>({inf, 0.0f, 1.0f}, TensorShape({3})));
}

TEST(EditDistanceOpTest, StringsAndTensorFlowErrors) {
  Tensor a = Tensor::FromVector<std::string>({"a", "b"}, TensorShape({2}));
  Tensor b = Tensor::FromVector<std::string>({"a"}, TensorShape({1}));
  RILL_ASSERT_OK_AND_ASSIGN(std::vector<Tensor> out,
                            RunEditDistance(Indices({0, 0, 0, 1}, 2), a, Vec({2, 2}),
                                            Indices({0, 0}, 2), b, Vec({2, 1}), true));
  ExpectTensorEqual(out[0], Tensor::FromVector<float>({1.0f, 0.0f}, TensorShape({2})));
  EXPECT_THAT(RunEditDistance(Indices({5, 0}, 2), Vec({1}), Vec({2, 1}), Indices({0, 0}, 2),
                              Vec({1}), Vec({2, 1}), true)
                  .status(),
              StatusIs(absl::StatusCode::kInternal,
                       Eq("Got an inner product 5 which would require writing to outside of the "
                          "buffer for the output tensor (max elements 2)")));
  EXPECT_THAT(RunEditDistance(Indices({0}, 1), Vec({1}), Vec({2}), Indices({0}, 1), Vec({1}),
                              Vec({2}), true)
                  .status(),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       Eq("Input SparseTensors must have rank at least 2, but truth_shape rank "
                          "is: 1")));
}

}  // namespace
}  // namespace rill
