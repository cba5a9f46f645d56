#include <memory>

#include "absl/strings/str_cat.h"
#include "core/status_matchers.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "kernels/framework/op_test_util.h"

namespace rill {
namespace {

using ::testing::HasSubstr;

Tensor F(std::vector<float> v, TensorShape s) { return Tensor::FromVector<float>(v, s); }
Tensor I32(std::vector<int32_t> v, TensorShape s) { return Tensor::FromVector<int32_t>(v, s); }
Tensor I64(std::vector<int64_t> v, TensorShape s) { return Tensor::FromVector<int64_t>(v, s); }

const Tensor kParams = F({1, 2, 3, 4, 5, 6}, TensorShape({3, 2}));

TEST(GatherOpsTest, GatherV2AlongEachAxis) {
  OpTester rows("GatherV2");
  rows.Attr("Tparams", DT_FLOAT)
      .Attr("Tindices", DT_INT32)
      .Attr("Taxis", DT_INT32)
      .Input(kParams)
      .Input(I32({2, 0, 2}, TensorShape({3})));
  rows.Input(Tensor::Scalar<int32_t>(0));
  RILL_ASSERT_OK_AND_ASSIGN(auto out, rows.Run());
  ExpectTensorEqual(out[0], F({5, 6, 1, 2, 5, 6}, TensorShape({3, 2})));
  OpTester cols("GatherV2");
  cols.Attr("Tparams", DT_FLOAT)
      .Attr("Tindices", DT_INT64)
      .Attr("Taxis", DT_INT32)
      .Input(kParams)
      .Input(I64({1}, TensorShape({1, 1})));
  cols.Input(Tensor::Scalar<int32_t>(-1));
  RILL_ASSERT_OK_AND_ASSIGN(out, cols.Run());
  ExpectTensorEqual(out[0], F({2, 4, 6}, TensorShape({3, 1, 1})));
}

TEST(GatherOpsTest, GatherNdPicksElementsAndRows) {
  OpTester nd("GatherNd");
  nd.Attr("Tparams", DT_FLOAT)
      .Attr("Tindices", DT_INT32)
      .Input(kParams)
      .Input(I32({2, 1, 0, 0}, TensorShape({2, 2})));
  RILL_ASSERT_OK_AND_ASSIGN(auto out, nd.Run());
  ExpectTensorEqual(out[0], F({6, 1}, TensorShape({2})));
  OpTester rows("GatherNd");
  rows.Attr("Tparams", DT_FLOAT)
      .Attr("Tindices", DT_INT32)
      .Input(kParams)
      .Input(I32({1}, TensorShape({1, 1})));
  RILL_ASSERT_OK_AND_ASSIGN(out, rows.Run());
  ExpectTensorEqual(out[0], F({3, 4}, TensorShape({1, 2})));
}

TEST(GatherOpsTest, OutOfRangeIndicesAreTensorFlowsErrors) {
  OpTester g("Gather");
  g.Attr("Tparams", DT_FLOAT)
      .Attr("Tindices", DT_INT32)
      .Input(kParams)
      .Input(I32({0, 3}, TensorShape({2})));
  EXPECT_THAT(g.Run(), StatusIs(absl::StatusCode::kInvalidArgument,
                                HasSubstr("indices[1] = 3 is not in [0, 3)")));
  OpTester nd("GatherNd", "out");
  nd.Attr("Tparams", DT_FLOAT)
      .Attr("Tindices", DT_INT32)
      .Input(kParams)
      .Input(I32({0, 0, 3, 0}, TensorShape({2, 2})));
  EXPECT_THAT(nd.Run(), StatusIs(absl::StatusCode::kInvalidArgument,
                                 HasSubstr("indices[1] = [3, 0] does not index into param shape "
                                           "[3,2], node name: out")));
  OpTester axis("GatherV2");
  axis.Attr("Tparams", DT_FLOAT)
      .Attr("Tindices", DT_INT32)
      .Attr("Taxis", DT_INT32)
      .Input(kParams)
      .Input(I32({0}, TensorShape({1})));
  axis.Input(Tensor::Scalar<int32_t>(2));
  EXPECT_THAT(axis.Run(), StatusIs(absl::StatusCode::kInvalidArgument,
                                   HasSubstr("Expected axis in the range [-2, 2), but got 2")));
}

// As in TensorFlow 2.21: a gather whose output is empty checks no index ([3, 0] params at -1
// give [1, 0]; [0, 3] along axis 1 at 7 give [0, 1]); GatherNd of empty params refuses any slot,
// in range or not, and takes none.
TEST(GatherOpsTest, EmptyOutputsAndEmptyParamsAsTensorFlow) {
  const Tensor empty_rows = F({}, TensorShape({3, 0}));
  OpTester g("Gather");
  g.Attr("Tparams", DT_FLOAT)
      .Attr("Tindices", DT_INT32)
      .Input(empty_rows)
      .Input(I32({-1}, TensorShape({1})));
  RILL_ASSERT_OK_AND_ASSIGN(auto out, g.Run());
  EXPECT_EQ(out[0].shape(), TensorShape({1, 0}));
  OpTester v2("GatherV2");
  v2.Attr("Tparams", DT_FLOAT)
      .Attr("Tindices", DT_INT32)
      .Attr("Taxis", DT_INT32)
      .Input(F({}, TensorShape({0, 3})))
      .Input(I32({7}, TensorShape({1})));
  v2.Input(Tensor::Scalar<int32_t>(1));
  RILL_ASSERT_OK_AND_ASSIGN(out, v2.Run());
  EXPECT_EQ(out[0].shape(), TensorShape({0, 1}));
  for (const std::vector<int32_t>& index : {std::vector<int32_t>{1}, std::vector<int32_t>{-1}}) {
    OpTester nd("GatherNd");
    nd.Attr("Tparams", DT_FLOAT)
        .Attr("Tindices", DT_INT32)
        .Input(empty_rows)
        .Input(I32(index, TensorShape({1, 1})));
    EXPECT_THAT(nd.Run().status(),
                StatusIs(absl::StatusCode::kInvalidArgument,
                         "Requested more than 0 entries, but params is empty.  Params shape: "
                         "[3,0]"));
  }
  OpTester none("GatherNd");
  none.Attr("Tparams", DT_FLOAT)
      .Attr("Tindices", DT_INT32)
      .Input(empty_rows)
      .Input(I32({}, TensorShape({0, 1})));
  RILL_ASSERT_OK_AND_ASSIGN(out, none.Run());
  EXPECT_EQ(out[0].shape(), TensorShape({0, 0}));
}

// ResourceGather checks its indices even when the output is empty, as TensorFlow 2.21 does.
TEST(GatherOpsTest, ResourceGatherChecksIndicesOfAnEmptyOutput) {
  std::unique_ptr<Device> device = NewCpuDevice(kTestCpuDevice);
  OpTester handle_op("VarHandleOp", "v", device.get());
  handle_op.Attr("dtype", DT_FLOAT).ShapeAttr("shape", {3, 0});
  RILL_ASSERT_OK_AND_ASSIGN(auto handle, handle_op.Run());
  OpTester assign("AssignVariableOp", "v/Assign", device.get());
  assign.Attr("dtype", DT_FLOAT).Input(handle[0]).Input(F({}, TensorShape({3, 0})));
  ASSERT_THAT(assign.Run(), IsOk());
  for (int32_t index : {-1, 5}) {
    OpTester gather("ResourceGather", "v/Gather", device.get());
    gather.Attr("dtype", DT_FLOAT)
        .Attr("Tindices", DT_INT32)
        .Input(handle[0])
        .Input(I32({index}, TensorShape({1})));
    EXPECT_THAT(gather.Run().status(),
                StatusIs(absl::StatusCode::kInvalidArgument,
                         absl::StrCat("indices[0] = ", index, " is not in [0, 3)")));
  }
  OpTester gather("ResourceGather", "v/Gather", device.get());
  gather.Attr("dtype", DT_FLOAT)
      .Attr("Tindices", DT_INT32)
      .Input(handle[0])
      .Input(I32({2}, TensorShape({1})));
  RILL_ASSERT_OK_AND_ASSIGN(auto out, gather.Run());
  EXPECT_EQ(out[0].shape(), TensorShape({1, 0}));
}

}  // namespace
}  // namespace rill
