#include <numeric>
#include <string>
#include <vector>

#include "core/status_matchers.h"
#include "gtest/gtest.h"
#include "kernels/framework/op_test_util.h"

namespace rill {
namespace {

absl::StatusOr<std::vector<Tensor>> Slice(const Tensor& x, std::vector<int64_t> begin,
                                          std::vector<int64_t> size) {
  OpTester t("Slice");
  const int64_t n = static_cast<int64_t>(begin.size());
  const int64_t m = static_cast<int64_t>(size.size());
  t.Attr("T", x.dtype()).Attr("Index", DT_INT64).Input(x);
  t.Input(Tensor::FromVector<int64_t>(begin, TensorShape({n})));
  t.Input(Tensor::FromVector<int64_t>(size, TensorShape({m})));
  return t.Run();
}

std::vector<double> Iota(int n) {
  std::vector<double> v(n);
  std::iota(v.begin(), v.end(), 0.0);
  return v;
}

TEST(SliceOpTest, SlicesMatrixAndRank3) {
  const Tensor m = MakeTensor(DT_INT16, TensorShape({3, 4}), Iota(12));
  RILL_ASSERT_OK_AND_ASSIGN(auto out, Slice(m, {1, 1}, {2, -1}));
  ExpectTensorEqual(out[0], MakeTensor(DT_INT16, TensorShape({2, 3}), {5, 6, 7, 9, 10, 11}));
  const Tensor r3 = MakeTensor(DT_DOUBLE, TensorShape({2, 3, 2}), Iota(12));
  RILL_ASSERT_OK_AND_ASSIGN(out, Slice(r3, {0, 1, 0}, {2, 2, 2}));  // whole last dim merges
  ExpectTensorEqual(out[0],
                    MakeTensor(DT_DOUBLE, TensorShape({2, 2, 2}), {2, 3, 4, 5, 8, 9, 10, 11}));
  RILL_ASSERT_OK_AND_ASSIGN(out, Slice(r3, {1, 0, 1}, {1, 3, 1}));
  ExpectTensorEqual(out[0], MakeTensor(DT_DOUBLE, TensorShape({1, 3, 1}), {7, 9, 11}));
}

TEST(SliceOpTest, WholeEmptyAndStrings) {
  const Tensor m = MakeTensor(DT_FLOAT, TensorShape({2, 2}), Iota(4));
  RILL_ASSERT_OK_AND_ASSIGN(auto out, Slice(m, {0, 0}, {-1, 2}));
  EXPECT_TRUE(out[0].SharesBufferWith(m));
  RILL_ASSERT_OK_AND_ASSIGN(out, Slice(m, {2, 0}, {0, 2}));
  EXPECT_EQ(out[0].shape(), TensorShape({0, 2}));
  const Tensor s = Tensor::FromVector<std::string>({"a", "b", "c"}, TensorShape({3}));
  RILL_ASSERT_OK_AND_ASSIGN(out, Slice(s, {1}, {2}));
  ExpectTensorEqual(out[0], Tensor::FromVector<std::string>({"b", "c"}, TensorShape({2})));
}

TEST(SliceOpTest, ErrorsAreTensorFlows) {
  const Tensor m = MakeTensor(DT_FLOAT, TensorShape({2, 2}), Iota(4));
  EXPECT_THAT(Slice(m, {0, 0}, {3, 1}), StatusIs(absl::StatusCode::kInvalidArgument,
                                                 "Expected size[0] in [0, 2], but got 3"));
  EXPECT_THAT(Slice(m, {0, 3}, {1, 0}), StatusIs(absl::StatusCode::kInvalidArgument,
                                                 "Expected begin[1] in [0, 2], but got 3"));
  EXPECT_THAT(Slice(m, {0}, {1, 1}),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       "Expected begin and size arguments to be 1-D tensors of "
                       "size 2, but got "
                       "shapes [1] and [2] instead."));
  EXPECT_THAT(Slice(MakeTensor(DT_FLOAT, TensorShape({0}), {}), {1}, {0}),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       "Expected begin[0] == 0 (got 1) and size[0] == 0 (got 0) when "
                       "input.dim_size(0) == 0"));
}

}  // namespace
}  // namespace rill
