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

Tensor Paddings(std::vector<int32_t> v) {
  const int64_t rows = static_cast<int64_t>(v.size()) / 2;
  return Tensor::FromVector<int32_t>(v, TensorShape({rows, 2}));
}

absl::StatusOr<std::vector<Tensor>> Pad(const Tensor& x, std::vector<int32_t> p) {
  OpTester t("Pad");
  t.Attr("T", x.dtype()).Input(x).Input(Paddings(p));
  return t.Run();
}

absl::StatusOr<std::vector<Tensor>> MirrorPad(const Tensor& x, std::vector<int32_t> p,
                                              const std::string& mode) {
  OpTester t("MirrorPad");
  t.Attr("T", x.dtype()).Attr("mode", mode).Input(x).Input(Paddings(p));
  return t.Run();
}

Tensor I(TensorShape s, std::vector<double> v) { return MakeTensor(DT_INT32, s, v); }

TEST(PadOpTest, PadWithZerosAndConstant) {
  const Tensor x = I(TensorShape({2, 2}), {1, 2, 3, 4});
  RILL_ASSERT_OK_AND_ASSIGN(auto out, Pad(x, {1, 0, 0, 2}));
  ExpectTensorEqual(out[0], I(TensorShape({3, 4}), {0, 0, 0, 0, 1, 2, 0, 0, 3, 4, 0, 0}));
  OpTester t("PadV2");
  t.Attr("T", DT_INT32).Input(x).Input(Paddings({0, 1, 1, 0})).Input(Tensor::Scalar<int32_t>(9));
  RILL_ASSERT_OK_AND_ASSIGN(out, t.Run());
  ExpectTensorEqual(out[0], I(TensorShape({3, 3}), {9, 1, 2, 9, 3, 4, 9, 9, 9}));
  RILL_ASSERT_OK_AND_ASSIGN(out, Pad(x, {0, 0, 0, 0}));
  EXPECT_TRUE(out[0].SharesBufferWith(x));
  RILL_ASSERT_OK_AND_ASSIGN(out, Pad(I(TensorShape({0, 1}), {}), {1, 0, 0, 0}));
  ExpectTensorEqual(out[0], I(TensorShape({1, 1}), {0}));
  const Tensor s = Tensor::FromVector<std::string>({"a"}, TensorShape({1}));
  RILL_ASSERT_OK_AND_ASSIGN(out, Pad(s, {1, 1}));
  ExpectTensorEqual(out[0], Tensor::FromVector<std::string>({"", "a", ""}, TensorShape({3})));
}

// Pads over every combination of padded dims of a [2, 3, 4, 5] tensor against a reference that
// maps each output element to its source: blocks copied whole, gaps filled, nothing left over.
TEST(PadOpTest, PadsOfAnyDimsPlaceEveryElement) {
  const std::vector<int64_t> dims = {2, 3, 4, 5};
  std::vector<double> values(120);
  for (int i = 0; i < 120; ++i) values[i] = i + 1;
  const Tensor x = MakeTensor(DT_FLOAT, TensorShape({2, 3, 4, 5}), values);
  for (int mask = 1; mask < 16; ++mask) {
    std::vector<int32_t> p;
    for (int d = 0; d < 4; ++d) {
      p.push_back((mask >> d) & 1 ? d + 1 : 0);
      p.push_back((mask >> d) & 1 ? 2 - d % 2 : 0);
    }
    SCOPED_TRACE(mask);
    OpTester t("PadV2");
    t.Attr("T", DT_FLOAT).Input(x).Input(Paddings(p)).Input(Tensor::Scalar<float>(-7));
    RILL_ASSERT_OK_AND_ASSIGN(auto out, t.Run());
    std::vector<int64_t> out_dims(4);
    for (int d = 0; d < 4; ++d) out_dims[d] = dims[d] + p[2 * d] + p[2 * d + 1];
    ASSERT_EQ(out[0].shape(), TensorShape({out_dims[0], out_dims[1], out_dims[2], out_dims[3]}));
    int64_t i = 0;
    for (int64_t a = 0; a < out_dims[0]; ++a) {
      for (int64_t b = 0; b < out_dims[1]; ++b) {
        for (int64_t c = 0; c < out_dims[2]; ++c) {
          for (int64_t e = 0; e < out_dims[3]; ++e, ++i) {
            const int64_t src[4] = {a - p[0], b - p[2], c - p[4], e - p[6]};
            bool inside = true;
            for (int d = 0; d < 4; ++d) inside = inside && src[d] >= 0 && src[d] < dims[d];
            const float want =
                inside ? static_cast<float>(((src[0] * 3 + src[1]) * 4 + src[2]) * 5 + src[3] + 1)
                       : -7.f;
            ASSERT_EQ(out[0].flat<float>()[i], want) << a << "," << b << "," << c << "," << e;
          }
        }
      }
    }
  }
}

TEST(PadOpTest, PadErrorsAreTensorFlows) {
  const Tensor x = I(TensorShape({3, 4}), std::vector<double>(12, 1));
  EXPECT_THAT(Pad(x, {-1, 0, 0, 0}),
              StatusIs(absl::StatusCode::kInvalidArgument, "Paddings must be non-negative: -1 0"));
  EXPECT_THAT(Pad(x, {0, 0}), StatusIs(absl::StatusCode::kInvalidArgument,
                                       "The first dimension of paddings must "
                                       "be the rank of inputs[1,2] [3,4]"));
  OpTester t("Pad");
  t.Attr("T", DT_INT32).Input(x).Input(Tensor::FromVector<int32_t>({0, 0}, TensorShape({2})));
  EXPECT_THAT(t.Run(), StatusIs(absl::StatusCode::kInvalidArgument,
                                "paddings must be a matrix with 2 columns: [2]"));
  OpTester v("PadV2");
  v.Attr("T", DT_INT32).Input(x).Input(Paddings({0, 0, 0, 1}));
  v.Input(I(TensorShape({2}), {1, 2}));
  EXPECT_THAT(v.Run(), StatusIs(absl::StatusCode::kInvalidArgument,
                                "constant_values must be a scalar. Found: [2]"));
}

TEST(PadOpTest, MirrorPadReflectAndSymmetric) {
  const Tensor x = I(TensorShape({2, 3}), {1, 2, 3, 4, 5, 6});
  RILL_ASSERT_OK_AND_ASSIGN(auto out, MirrorPad(x, {1, 1, 2, 2}, "REFLECT"));
  ExpectTensorEqual(out[0], I(TensorShape({4, 7}), {6, 5, 4, 5, 6, 5, 4,  //
                                                    3, 2, 1, 2, 3, 2, 1,  //
                                                    6, 5, 4, 5, 6, 5, 4,  //
                                                    3, 2, 1, 2, 3, 2, 1}));
  RILL_ASSERT_OK_AND_ASSIGN(out, MirrorPad(x, {1, 1, 2, 2}, "SYMMETRIC"));
  ExpectTensorEqual(out[0], I(TensorShape({4, 7}), {2, 1, 1, 2, 3, 3, 2,  //
                                                    2, 1, 1, 2, 3, 3, 2,  //
                                                    5, 4, 4, 5, 6, 6, 5,  //
                                                    5, 4, 4, 5, 6, 6, 5}));
  RILL_ASSERT_OK_AND_ASSIGN(out, MirrorPad(I(TensorShape({3}), {1, 2, 3}), {3, 0}, "SYMMETRIC"));
  ExpectTensorEqual(out[0], I(TensorShape({6}), {3, 2, 1, 1, 2, 3}));
}

TEST(PadOpTest, MirrorPadErrorsAreTensorFlows) {
  const Tensor x = I(TensorShape({3}), {1, 2, 3});
  EXPECT_THAT(MirrorPad(x, {3, 0}, "REFLECT"),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       "paddings must be less than the dimension size: 3, 0 "
                       "not less than 3"));
  EXPECT_THAT(MirrorPad(x, {4, 0}, "SYMMETRIC"),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       "paddings must be no greater than the dimension size: "
                       "4, 0 greater than 3"));
  EXPECT_THAT(MirrorPad(x, {0, -1}, "SYMMETRIC"),
              StatusIs(absl::StatusCode::kInvalidArgument, "paddings must be non-negative: 0 -1"));
  EXPECT_THAT(MirrorPad(x, {0, 0, 0, 0}, "SYMMETRIC"),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       "The first dimension of paddings must be the rank of "
                       "inputs[2,2], [3]"));
}

// Issue 26: before + dim + after is checked for int64 overflow before it becomes a shape.
absl::StatusOr<std::vector<Tensor>> Pad64(const Tensor& x, std::vector<int64_t> p) {
  const int64_t rows = static_cast<int64_t>(p.size()) / 2;
  OpTester t("Pad");
  t.Attr("T", x.dtype()).Attr("Tpaddings", DT_INT64).Input(x);
  t.Input(Tensor::FromVector<int64_t>(p, TensorShape({rows, 2})));
  return t.Run();
}

TEST(PadOpTest, OverflowingOrHugePaddingsAreErrorsNotCrashes) {
  const Tensor x = I(TensorShape({2}), {1, 2});
  EXPECT_THAT(Pad64(x, {std::numeric_limits<int64_t>::max(), 1}),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       ::testing::HasSubstr("Paddings 9223372036854775807 1 of dimension 0 (size "
                                            "2) overflow int64")));
  // TensorFlow 2.21 wraps 2 + 2 * (2^63 - 1) to 0 and returns an empty tensor: Rill refuses it.
  EXPECT_THAT(Pad64(x, {std::numeric_limits<int64_t>::max(), std::numeric_limits<int64_t>::max()}),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       ::testing::HasSubstr("Paddings 9223372036854775807 9223372036854775807 of "
                                            "dimension 0 (size 2) overflow int64")));
  EXPECT_THAT(Pad64(x, {int64_t{1} << 62, int64_t{1} << 62}),
              StatusIs(absl::StatusCode::kInvalidArgument, ::testing::HasSubstr("overflow int64")));
  EXPECT_THAT(
      Pad64(x, {int64_t{1} << 59, 0}),
      StatusIs(absl::StatusCode::kResourceExhausted, ::testing::HasSubstr("OOM when allocating")));
}

}  // namespace
}  // namespace rill
