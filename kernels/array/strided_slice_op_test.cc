#include <numeric>
#include <string>
#include <vector>

#include "core/status_matchers.h"
#include "gtest/gtest.h"
#include "kernels/framework/op_test_util.h"

namespace rill {
namespace {

struct Spec {
  std::vector<int32_t> begin, end, strides;
  int64_t begin_mask = 0, end_mask = 0, ellipsis_mask = 0, new_axis_mask = 0, shrink_axis_mask = 0;
};

absl::StatusOr<std::vector<Tensor>> StridedSlice(const Tensor& x, const Spec& s) {
  OpTester t("StridedSlice");
  t.Attr("T", x.dtype()).Attr("Index", DT_INT32);
  t.Attr("begin_mask", s.begin_mask).Attr("end_mask", s.end_mask);
  t.Attr("ellipsis_mask", s.ellipsis_mask).Attr("new_axis_mask", s.new_axis_mask);
  t.Attr("shrink_axis_mask", s.shrink_axis_mask).Input(x);
  for (const auto* v : {&s.begin, &s.end, &s.strides}) {
    t.Input(Tensor::FromVector<int32_t>(*v, TensorShape({static_cast<int64_t>(v->size())})));
  }
  return t.Run();
}

std::vector<double> Iota(int n) {
  std::vector<double> v(n);
  std::iota(v.begin(), v.end(), 0.0);
  return v;
}

Tensor I(TensorShape s, std::vector<double> v) { return MakeTensor(DT_INT32, s, v); }
const Tensor kX = I(TensorShape({3, 4}), Iota(12));

TEST(StridedSliceOpTest, BasicStridesAndNegativeIndices) {
  RILL_ASSERT_OK_AND_ASSIGN(auto out, StridedSlice(kX, {{0, 1}, {3, 4}, {2, 2}}));
  ExpectTensorEqual(out[0], I(TensorShape({2, 2}), {1, 3, 9, 11}));
  RILL_ASSERT_OK_AND_ASSIGN(out, StridedSlice(kX, {{-1, -1}, {-4, -5}, {-1, -2}}));  // reversed
  ExpectTensorEqual(out[0], I(TensorShape({3, 2}), {11, 9, 7, 5, 3, 1}));
  RILL_ASSERT_OK_AND_ASSIGN(out, StridedSlice(kX, {{1, 10}, {100, 20}, {1, 1}}));  // clamped
  ExpectTensorEqual(out[0], I(TensorShape({2, 0}), {}));
  RILL_ASSERT_OK_AND_ASSIGN(out, StridedSlice(kX, {{0, 0}, {3, 4}, {1, 1}}));
  EXPECT_TRUE(out[0].SharesBufferWith(kX));
}

TEST(StridedSliceOpTest, Masks) {
  Spec s{{2, 1}, {0, 3}, {1, 1}};
  s.begin_mask = 1;  // x[:0, 1:3] -> empty rows
  RILL_ASSERT_OK_AND_ASSIGN(auto out, StridedSlice(kX, s));
  EXPECT_EQ(out[0].shape(), TensorShape({0, 2}));
  s = {{2, 1}, {0, 3}, {1, 1}};
  s.end_mask = 1;  // x[2:, 1:3]
  RILL_ASSERT_OK_AND_ASSIGN(out, StridedSlice(kX, s));
  ExpectTensorEqual(out[0], I(TensorShape({1, 2}), {9, 10}));
  s = {{0, 1}, {0, 2}, {1, 1}};
  s.ellipsis_mask = 1;  // x[..., 1:2]
  RILL_ASSERT_OK_AND_ASSIGN(out, StridedSlice(kX, s));
  ExpectTensorEqual(out[0], I(TensorShape({3, 1}), {1, 5, 9}));
  s = {{0, 1}, {0, 2}, {1, 1}};
  s.new_axis_mask = 1;  // x[newaxis, 1:2]
  RILL_ASSERT_OK_AND_ASSIGN(out, StridedSlice(kX, s));
  ExpectTensorEqual(out[0], I(TensorShape({1, 1, 4}), {4, 5, 6, 7}));
  s = {{-1, 0}, {0, 0}, {1, 1}};
  s.shrink_axis_mask = 1;
  s.end_mask = 2;  // x[-1, :]
  RILL_ASSERT_OK_AND_ASSIGN(out, StridedSlice(kX, s));
  ExpectTensorEqual(out[0], I(TensorShape({4}), {8, 9, 10, 11}));
  s = {{1, 2}, {2, 3}, {1, 1}};
  s.shrink_axis_mask = 3;  // x[1, 2]
  RILL_ASSERT_OK_AND_ASSIGN(out, StridedSlice(kX, s));
  ExpectTensorEqual(out[0], I(TensorShape({}), {6}));
  const Tensor r3 = I(TensorShape({2, 2, 2}), Iota(8));
  s = {{0, 0, 1}, {0, 0, 2}, {1, 1, 1}};
  s.ellipsis_mask = 1;
  s.new_axis_mask = 2;  // r3[..., newaxis, 1:2]
  RILL_ASSERT_OK_AND_ASSIGN(out, StridedSlice(r3, s));
  ExpectTensorEqual(out[0], I(TensorShape({2, 2, 1, 1}), {1, 3, 5, 7}));
}

TEST(StridedSliceOpTest, Strings) {
  const Tensor x = Tensor::FromVector<std::string>({"a", "b", "c", "d"}, TensorShape({4}));
  RILL_ASSERT_OK_AND_ASSIGN(auto out, StridedSlice(x, {{3}, {0}, {-2}}));
  ExpectTensorEqual(out[0], Tensor::FromVector<std::string>({"d", "b"}, TensorShape({2})));
}

TEST(StridedSliceOpTest, ErrorsAreTensorFlows) {
  EXPECT_THAT(StridedSlice(kX, {{0, 0}, {1, 1}, {1, 0}}),
              StatusIs(absl::StatusCode::kInvalidArgument, "strides[1] must be non-zero"));
  Spec s{{5}, {6}, {1}};
  s.shrink_axis_mask = 1;
  EXPECT_THAT(StridedSlice(kX, s), StatusIs(absl::StatusCode::kInvalidArgument,
                                            "slice index 5 of dimension 0 out of bounds."));
  s = {{1}, {0}, {-1}};
  s.shrink_axis_mask = 1;
  EXPECT_THAT(StridedSlice(kX, s), StatusIs(absl::StatusCode::kInvalidArgument,
                                            "only stride 1 allowed on non-range indexing."));
  s = {{0, 0}, {1, 1}, {1, 1}};
  s.ellipsis_mask = 3;
  EXPECT_THAT(StridedSlice(kX, s), StatusIs(absl::StatusCode::kInvalidArgument,
                                            "Multiple ellipses in slice spec not allowed"));
  EXPECT_THAT(StridedSlice(kX, {{0, 0, 0}, {1, 1, 1}, {1, 1, 1}}),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       "Index out of range using input dim 2; input has only 2 dims"));
  EXPECT_THAT(StridedSlice(kX, {{0, 0}, {1, 1, 1}, {1, 1}}),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       "Expected begin, end, and strides to be 1D equal size "
                       "tensors, but got "
                       "shapes [2], [3], and [2] instead."));
}

}  // namespace
}  // namespace rill
