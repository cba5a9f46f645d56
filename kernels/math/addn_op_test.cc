#include <cstdint>
#include <limits>
#include <vector>

#include "core/status_matchers.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "kernels/framework/op_test_util.h"

namespace rill {
namespace {

using ::testing::Eq;

absl::StatusOr<std::vector<Tensor>> RunAddN(const std::vector<Tensor>& inputs) {
  OpTester t("AddN", "sum");
  t.Attr("T", inputs[0].dtype()).Attr("N", static_cast<int64_t>(inputs.size()));
  for (const Tensor& x : inputs) t.Input(x);
  return t.Run();
}

TEST(AddNOpTest, SumsEveryDtype) {
  for (DataType dt :
       {DT_FLOAT, DT_DOUBLE, DT_HALF, DT_INT8, DT_INT16, DT_INT32, DT_INT64, DT_UINT8}) {
    SCOPED_TRACE(DataTypeString(dt));
    RILL_ASSERT_OK_AND_ASSIGN(std::vector<Tensor> out,
                              RunAddN({MakeTensor(dt, TensorShape({2, 2}), {1, 2, 3, 4}),
                                       MakeTensor(dt, TensorShape({2, 2}), {10, 20, 30, 40}),
                                       MakeTensor(dt, TensorShape({2, 2}), {5, 5, 5, 5})}));
    ExpectTensorEqual(out[0], MakeTensor(dt, TensorShape({2, 2}), {16, 27, 38, 49}));
  }
}

TEST(AddNOpTest, OneInputIsACopy) {
  const Tensor x = Tensor::FromVector<float>({1, 2}, TensorShape({2}));
  RILL_ASSERT_OK_AND_ASSIGN(std::vector<Tensor> out, RunAddN({x}));
  ExpectTensorEqual(out[0], x);
  EXPECT_FALSE(out[0].SharesBufferWith(x));
}

TEST(AddNOpTest, ScalarsAndEmptyTensors) {
  RILL_ASSERT_OK_AND_ASSIGN(std::vector<Tensor> out,
                            RunAddN({Tensor::Scalar<double>(0.25), Tensor::Scalar<double>(0.5)}));
  ExpectTensorEqual(out[0], Tensor::Scalar<double>(0.75));
  RILL_ASSERT_OK_AND_ASSIGN(
      out, RunAddN({Tensor(DT_INT32, TensorShape({0, 4})), Tensor(DT_INT32, TensorShape({0, 4}))}));
  ExpectTensorEqual(out[0], Tensor(DT_INT32, TensorShape({0, 4})));
}

TEST(AddNOpTest, ManyLargeInputsAddLeftToRightLikeOneAtATime) {
  // 11 inputs (two passes of four and three single ones) of 5000 elements (three tiles), values
  // whose float sum depends on the order: the result must be bit-identical to ((x0 + x1) + x2)...
  std::vector<Tensor> inputs;
  std::vector<float> expected(5000, 0.0f);
  for (int i = 0; i < 11; ++i) {
    std::vector<float> v(5000);
    for (int j = 0; j < 5000; ++j)
      v[j] = (i % 2 == 0 ? 1e7f : 1.0f) * ((j * 7 + i * 13) % 17 - 8) / 3.0f;
    for (int j = 0; j < 5000; ++j) expected[j] = i == 0 ? v[j] : expected[j] + v[j];
    inputs.push_back(Tensor::FromVector<float>(v, TensorShape({50, 100})));
  }
  RILL_ASSERT_OK_AND_ASSIGN(std::vector<Tensor> out, RunAddN(inputs));
  ExpectTensorEqual(out[0], Tensor::FromVector<float>(expected, TensorShape({50, 100})));
}

TEST(AddNOpTest, IntegerOverflowWraps) {
  const int32_t max32 = std::numeric_limits<int32_t>::max();
  RILL_ASSERT_OK_AND_ASSIGN(std::vector<Tensor> out,
                            RunAddN({Tensor::Scalar<int32_t>(max32), Tensor::Scalar<int32_t>(max32),
                                     Tensor::Scalar<int32_t>(2)}));
  ExpectTensorEqual(out[0], Tensor::Scalar<int32_t>(0));
}

TEST(AddNOpTest, DifferentShapesUseTensorFlowsText) {
  EXPECT_THAT(RunAddN({Tensor(DT_FLOAT, TensorShape({2})), Tensor(DT_FLOAT, TensorShape({2})),
                       Tensor(DT_FLOAT, TensorShape({3}))}),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       Eq("Inputs to operation sum of type AddN must have the same size and "
                          "shape.  Input 0: [2] != input 2: [3]")));
  // No broadcasting, even from a scalar.
  EXPECT_THAT(RunAddN({Tensor(DT_INT64, TensorShape({2, 2})), Tensor(DT_INT64, TensorShape())}),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       Eq("Inputs to operation sum of type AddN must have the same size and "
                          "shape.  Input 0: [2,2] != input 1: []")));
}

}  // namespace
}  // namespace rill
