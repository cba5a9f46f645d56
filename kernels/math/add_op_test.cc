#include "kernels/math/add_op.h"

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
using ::testing::HasSubstr;

absl::StatusOr<std::vector<Tensor>> RunAdd(const std::string& op, const Tensor& x,
                                           const Tensor& y) {
  OpTester t(op, "add");
  t.Attr("T", x.dtype()).Input(x).Input(y);
  return t.Run();
}

TEST(AddOpTest, LargeSameShapeAddIsSplitOverTheIntraOpThreads) {
  const int64_t n = 1 << 20;
  std::vector<float> x(n), y(n);
  for (int64_t i = 0; i < n; ++i) {
    x[i] = static_cast<float>(i);
    y[i] = static_cast<float>(2 * i);
  }
  OpTester t("AddV2");
  t.Attr("T", DT_FLOAT);
  t.SetIntraOpThreads(4);
  t.Input(Tensor::FromVector<float>(x, TensorShape({n})));
  t.Input(Tensor::FromVector<float>(y, TensorShape({n})));
  RILL_ASSERT_OK_AND_ASSIGN(std::vector<Tensor> out, t.Run());
  const float* z = out[0].flat<float>().data();
  for (int64_t i = 0; i < n; ++i) ASSERT_EQ(z[i], static_cast<float>(3 * i)) << i;
}

TEST(AddOpTest, BroadcastsAcrossRanks) {
  // [2,1,3] + [3] -> [2,1,3]
  for (const char* op : {"Add", "AddV2"}) {
    for (DataType dt :
         {DT_FLOAT, DT_DOUBLE, DT_HALF, DT_INT8, DT_INT16, DT_INT32, DT_INT64, DT_UINT8}) {
      SCOPED_TRACE(std::string(op) + " " + DataTypeString(dt));
      const Tensor x = MakeTensor(dt, TensorShape({2, 1, 3}), {1, 2, 3, 4, 5, 6});
      const Tensor y = MakeTensor(dt, TensorShape({3}), {10, 20, 30});
      RILL_ASSERT_OK_AND_ASSIGN(std::vector<Tensor> out, RunAdd(op, x, y));
      ExpectTensorEqual(out[0], MakeTensor(dt, TensorShape({2, 1, 3}), {11, 22, 33, 14, 25, 36}));
      // And the other way round.
      RILL_ASSERT_OK_AND_ASSIGN(out, RunAdd(op, y, x));
      ExpectTensorEqual(out[0], MakeTensor(dt, TensorShape({2, 1, 3}), {11, 22, 33, 14, 25, 36}));
    }
  }
}

TEST(AddOpTest, Bfloat16AddsInFloatAndRoundsOnceToNearestEven) {
  // 1 + 2^-8 and (1 + 2^-7) + 2^-8 lie halfway between two bfloat16 values: the even one wins.
  for (const char* op : {"Add", "AddV2"}) {
    SCOPED_TRACE(op);
    RILL_ASSERT_OK_AND_ASSIGN(
        std::vector<Tensor> out,
        RunAdd(op, MakeTensor(DT_BFLOAT16, TensorShape({3}), {1, 1 + 0.0078125, 3}),
               MakeTensor(DT_BFLOAT16, TensorShape({3}), {0.00390625, 0.00390625, 0.0078125})));
    ExpectTensorEqual(out[0], MakeTensor(DT_BFLOAT16, TensorShape({3}), {1, 1.015625, 3}));
  }
}

TEST(AddOpTest, OnlyTheConformanceCoveredDtypesHaveKernels) {
  // uint16+ and string are allowed by the OpDefs but not registered until the conformance
  // suites record them (tests/conformance). Complex operands have their kernels in
  // kernels/math/complex_ops.cc.
  for (DataType dt : {DT_UINT16, DT_UINT32}) {
    SCOPED_TRACE(DataTypeString(dt));
    EXPECT_THAT(RunAdd("AddV2", MakeTensor(dt, TensorShape({2}), {1, 2}),
                       MakeTensor(dt, TensorShape({2}), {10, 20})),
                StatusIs(absl::StatusCode::kInvalidArgument,
                         HasSubstr("No OpKernel was registered to support Op 'AddV2'")));
  }
}

TEST(AddOpTest, BothOperandsBroadcast) {
  // [2,1] + [1,3] -> [2,3]
  RILL_ASSERT_OK_AND_ASSIGN(
      std::vector<Tensor> out,
      RunAdd("AddV2", Tensor::FromVector<int32_t>({1, 2}, TensorShape({2, 1})),
             Tensor::FromVector<int32_t>({10, 20, 30}, TensorShape({1, 3}))));
  ExpectTensorEqual(out[0],
                    Tensor::FromVector<int32_t>({11, 21, 31, 12, 22, 32}, TensorShape({2, 3})));
}

TEST(AddOpTest, HigherRankBroadcastMatchesAReference) {
  // [2,1,4,1] + [3,1,5] -> [2,3,4,5]
  const TensorShape xs({2, 1, 4, 1}), ys({3, 1, 5}), zs({2, 3, 4, 5});
  std::vector<double> xv(8), yv(15), zv(120);
  for (int i = 0; i < 8; ++i) xv[i] = i * 100;
  for (int i = 0; i < 15; ++i) yv[i] = i;
  for (int a = 0; a < 2; ++a) {
    for (int b = 0; b < 3; ++b) {
      for (int c = 0; c < 4; ++c) {
        for (int d = 0; d < 5; ++d)
          zv[((a * 3 + b) * 4 + c) * 5 + d] = xv[a * 4 + c] + yv[b * 5 + d];
      }
    }
  }
  RILL_ASSERT_OK_AND_ASSIGN(std::vector<Tensor> out, RunAdd("AddV2", MakeTensor(DT_FLOAT, xs, xv),
                                                            MakeTensor(DT_FLOAT, ys, yv)));
  ExpectTensorEqual(out[0], MakeTensor(DT_FLOAT, zs, zv));
}

TEST(AddOpTest, ScalarAndMatrixInBothOrders) {
  const Tensor s = Tensor::Scalar<double>(0.5);
  const Tensor m = Tensor::FromVector<double>({1, 2, 3, 4, 5, 6}, TensorShape({2, 3}));
  const Tensor want =
      Tensor::FromVector<double>({1.5, 2.5, 3.5, 4.5, 5.5, 6.5}, TensorShape({2, 3}));
  RILL_ASSERT_OK_AND_ASSIGN(std::vector<Tensor> out, RunAdd("Add", s, m));
  ExpectTensorEqual(out[0], want);
  RILL_ASSERT_OK_AND_ASSIGN(out, RunAdd("AddV2", m, s));
  ExpectTensorEqual(out[0], want);
  // A one-element tensor of higher rank broadcasts the output up to its rank.
  RILL_ASSERT_OK_AND_ASSIGN(
      out, RunAdd("AddV2", m, Tensor::FromVector<double>({0.5}, TensorShape({1, 1, 1}))));
  ExpectTensorEqual(
      out[0], Tensor::FromVector<double>({1.5, 2.5, 3.5, 4.5, 5.5, 6.5}, TensorShape({1, 2, 3})));
}

TEST(AddOpTest, SameElementCountDifferentRank) {
  RILL_ASSERT_OK_AND_ASSIGN(std::vector<Tensor> out,
                            RunAdd("Add", Tensor::FromVector<int64_t>({1, 2, 3}, TensorShape({3})),
                                   Tensor::FromVector<int64_t>({10, 20, 30}, TensorShape({1, 3}))));
  ExpectTensorEqual(out[0], Tensor::FromVector<int64_t>({11, 22, 33}, TensorShape({1, 3})));
}

TEST(AddOpTest, ZeroSizeShapes) {
  RILL_ASSERT_OK_AND_ASSIGN(std::vector<Tensor> out,
                            RunAdd("AddV2", Tensor(DT_FLOAT, TensorShape({0, 3})),
                                   Tensor::FromVector<float>({1, 2, 3}, TensorShape({3}))));
  ExpectTensorEqual(out[0], Tensor(DT_FLOAT, TensorShape({0, 3})));
  RILL_ASSERT_OK_AND_ASSIGN(out, RunAdd("Add", Tensor(DT_INT32, TensorShape({2, 0})),
                                        Tensor::FromVector<int32_t>({1}, TensorShape({1}))));
  ExpectTensorEqual(out[0], Tensor(DT_INT32, TensorShape({2, 0})));
  // 0 against 3 does not broadcast.
  EXPECT_THAT(RunAdd("Add", Tensor(DT_INT32, TensorShape({0})), Tensor(DT_INT32, TensorShape({3}))),
              StatusIs(absl::StatusCode::kInvalidArgument, Eq("Incompatible shapes: [0] vs. [3]")));
}

TEST(AddOpTest, IntegerOverflowWraps) {
  const int32_t max32 = std::numeric_limits<int32_t>::max();
  RILL_ASSERT_OK_AND_ASSIGN(
      std::vector<Tensor> out,
      RunAdd("AddV2", Tensor::FromVector<int32_t>({max32, -5}, TensorShape({2})),
             Tensor::Scalar<int32_t>(1)));
  ExpectTensorEqual(out[0], Tensor::FromVector<int32_t>({std::numeric_limits<int32_t>::min(), -4},
                                                        TensorShape({2})));
  RILL_ASSERT_OK_AND_ASSIGN(out,
                            RunAdd("Add", Tensor::Scalar<int8_t>(127), Tensor::Scalar<int8_t>(1)));
  ExpectTensorEqual(out[0], Tensor::Scalar<int8_t>(-128));
  RILL_ASSERT_OK_AND_ASSIGN(
      out, RunAdd("Add", Tensor::Scalar<uint8_t>(255), Tensor::Scalar<uint8_t>(2)));
  ExpectTensorEqual(out[0], Tensor::Scalar<uint8_t>(1));
  RILL_ASSERT_OK_AND_ASSIGN(
      out, RunAdd("AddV2", Tensor::Scalar<int64_t>(std::numeric_limits<int64_t>::min()),
                  Tensor::Scalar<int64_t>(-1)));
  ExpectTensorEqual(out[0], Tensor::Scalar<int64_t>(std::numeric_limits<int64_t>::max()));
}

TEST(AddOpTest, HalfRoundsOnce) {
  // 2048 + 1 is not representable in half (11-bit significand): rounds to even, 2048.
  RILL_ASSERT_OK_AND_ASSIGN(std::vector<Tensor> out,
                            RunAdd("AddV2", MakeTensor(DT_HALF, TensorShape({2}), {2048, 0.5}),
                                   MakeTensor(DT_HALF, TensorShape({2}), {1, 0.25})));
  ExpectTensorEqual(out[0], MakeTensor(DT_HALF, TensorShape({2}), {2048, 0.75}));
}

TEST(AddOpTest, StringAddHasNoCpuKernelYet) {
  EXPECT_THAT(RunAdd("Add", Tensor::Scalar<std::string>("a"), Tensor::Scalar<std::string>("b")),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("No OpKernel was registered to support Op 'Add'")));
}

TEST(AddOpTest, AddV2HasNoStringKernel) {
  EXPECT_THAT(
      RunAdd("AddV2", Tensor::Scalar<std::string>("a"), Tensor::Scalar<std::string>("b")),
      StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("not in the list of allowed values")));
}

TEST(AddOpTest, IncompatibleShapesUseTensorFlowsText) {
  EXPECT_THAT(RunAdd("Add", Tensor(DT_FLOAT, TensorShape({2})), Tensor(DT_FLOAT, TensorShape({3}))),
              StatusIs(absl::StatusCode::kInvalidArgument, Eq("Incompatible shapes: [2] vs. [3]")));
  EXPECT_THAT(
      RunAdd("AddV2", Tensor(DT_FLOAT, TensorShape({4, 2, 3})),
             Tensor(DT_FLOAT, TensorShape({4, 3}))),
      StatusIs(absl::StatusCode::kInvalidArgument, Eq("Incompatible shapes: [4,2,3] vs. [4,3]")));
}

TEST(BroadcastShapesTest, NumpyRules) {
  RILL_ASSERT_OK_AND_ASSIGN(TensorShape s,
                            BroadcastShapes(TensorShape({5, 1, 3}), TensorShape({4, 1})));
  EXPECT_EQ(s.DebugString(), "[5,4,3]");
  RILL_ASSERT_OK_AND_ASSIGN(s, BroadcastShapes(TensorShape(), TensorShape()));
  EXPECT_EQ(s.DebugString(), "[]");
  RILL_ASSERT_OK_AND_ASSIGN(s, BroadcastShapes(TensorShape({1}), TensorShape({0})));
  EXPECT_EQ(s.DebugString(), "[0]");
}

}  // namespace
}  // namespace rill
