#include <numeric>
#include <string>
#include <vector>

#include "core/status_matchers.h"
#include "gtest/gtest.h"
#include "kernels/framework/op_test_util.h"

namespace rill {
namespace {

absl::StatusOr<std::vector<Tensor>> Update(const Tensor& x, const Tensor& update,
                                           std::vector<int32_t> indices) {
  OpTester t("XlaDynamicUpdateSlice");
  const int64_t n = static_cast<int64_t>(indices.size());
  t.Attr("T", x.dtype()).Attr("Tindices", DT_INT32).Input(x).Input(update);
  t.Input(Tensor::FromVector<int32_t>(indices, TensorShape({n})));
  return t.Run();
}

std::vector<double> Iota(int n) {
  std::vector<double> v(n);
  std::iota(v.begin(), v.end(), 0.0);
  return v;
}

// Values from TensorFlow 2.21 (xla.dynamic_update_slice in a tf.compat.v1.Session).
TEST(XlaDynamicUpdateSliceOpTest, WritesAndClampsAsXla) {
  const Tensor x = MakeTensor(DT_FLOAT, TensorShape({3, 4}), Iota(12));
  const Tensor u = MakeTensor(DT_FLOAT, TensorShape({2, 2}), {-1, -1, -1, -1});
  RILL_ASSERT_OK_AND_ASSIGN(auto out, Update(x, u, {1, 1}));
  ExpectTensorEqual(
      out[0], MakeTensor(DT_FLOAT, TensorShape({3, 4}), {0, 1, 2, 3, 4, -1, -1, 7, 8, -1, -1, 11}));
  RILL_ASSERT_OK_AND_ASSIGN(out, Update(x, u, {2, 3}));  // clamped to [1, 2]
  ExpectTensorEqual(
      out[0], MakeTensor(DT_FLOAT, TensorShape({3, 4}), {0, 1, 2, 3, 4, 5, -1, -1, 8, 9, -1, -1}));
  RILL_ASSERT_OK_AND_ASSIGN(out, Update(x, u, {-1, 5}));  // clamped to [0, 2]
  ExpectTensorEqual(out[0], MakeTensor(DT_FLOAT, TensorShape({3, 4}),
                                       {0, 1, -1, -1, 4, 5, -1, -1, 8, 9, 10, 11}));
  const Tensor x3 = MakeTensor(DT_INT64, TensorShape({2, 2, 3}), Iota(12));
  const Tensor u3 = MakeTensor(DT_INT64, TensorShape({1, 2, 2}), {-1, -2, -3, -4});
  RILL_ASSERT_OK_AND_ASSIGN(out, Update(x3, u3, {1, 0, 1}));
  ExpectTensorEqual(out[0], MakeTensor(DT_INT64, TensorShape({2, 2, 3}),
                                       {0, 1, 2, 3, 4, 5, 6, -1, -2, 9, -3, -4}));
}

TEST(XlaDynamicUpdateSliceOpTest, ScalarAndEmptyUpdate) {
  RILL_ASSERT_OK_AND_ASSIGN(auto out, Update(MakeTensor(DT_DOUBLE, TensorShape({}), {2.5}),
                                             MakeTensor(DT_DOUBLE, TensorShape({}), {-1}), {}));
  ExpectTensorEqual(out[0], MakeTensor(DT_DOUBLE, TensorShape({}), {-1}));
  const Tensor x = MakeTensor(DT_INT32, TensorShape({2, 2}), Iota(4));
  RILL_ASSERT_OK_AND_ASSIGN(out, Update(x, MakeTensor(DT_INT32, TensorShape({0, 2}), {}), {7, 9}));
  ExpectTensorEqual(out[0], x);
}

TEST(XlaDynamicUpdateSliceOpTest, ErrorsAreTensorFlows) {
  const Tensor x = MakeTensor(DT_FLOAT, TensorShape({3, 4}), Iota(12));
  EXPECT_THAT(Update(x, MakeTensor(DT_FLOAT, TensorShape({2, 2}), Iota(4)), {1}),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       "index must be a vector with length equal to the number of input "
                       "dimensions"));
  EXPECT_THAT(Update(x, MakeTensor(DT_FLOAT, TensorShape({2}), Iota(2)), {0, 0}),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       "input and update must have the same rank, input shape is [3,4]; "
                       "update shape is [2]"));
  EXPECT_THAT(Update(x, MakeTensor(DT_FLOAT, TensorShape({4, 1}), Iota(4)), {0, 0}),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       "Update dim size 4 greater than dynamic slice dimension: 3."));
}

}  // namespace
}  // namespace rill
