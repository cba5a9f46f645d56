#include <memory>
#include <string>
#include <vector>

#include "core/status_macros.h"
#include "core/status_matchers.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "kernels/framework/op_test_util.h"
#include "kernels/state/variable.h"

namespace rill {
namespace {

using ::testing::Eq;

class ScatterOpsTest : public ::testing::Test {
 protected:
  ScatterOpsTest() : device_(NewCpuDevice(kTestCpuDevice)) {}

  // A VariableV2 `name` (its ref input named "v" in the scatter's NodeDef) declared with the shape
  // of `value` (a validating Assign checks its first value against it), assigned `value` unless
  // it is uninitialized (DT_INVALID).
  TensorValue Variable(DataType dtype, const Tensor& value, const std::string& name = "v") {
    OpTester var("VariableV2", name, device_.get());
    const absl::Span<const int64_t> dims = value.shape().dims();
    var.Attr("dtype", dtype).ShapeAttr("shape", std::vector<int64_t>(dims.begin(), dims.end()));
    EXPECT_THAT(var.Init(), IsOk());
    absl::StatusOr<std::vector<TensorValue>> out = var.RunWith({});
    EXPECT_THAT(out, IsOk());
    const TensorValue ref = (*out)[0];
    if (value.dtype() != DT_INVALID) {
      OpTester assign("Assign", "v/Assign", device_.get());
      assign.Attr("T", dtype).InputValue(ref, "v").Input(value);
      EXPECT_THAT(assign.Run(), IsOk());
    }
    return ref;
  }

  // Runs `op` on the variable; its ref output's value.
  absl::StatusOr<Tensor> Scatter(const std::string& op, const TensorValue& ref,
                                 const Tensor& indices, const Tensor& updates,
                                 bool use_locking = false) {
    OpTester t(op, "scatter", device_.get());
    t.Attr("T", updates.dtype()).Attr("Tindices", indices.dtype()).Attr("use_locking", use_locking);
    t.InputValue(ref, "v").Input(indices).Input(updates);
    RILL_RETURN_IF_ERROR(t.Init());
    RILL_ASSIGN_OR_RETURN(std::vector<TensorValue> out, t.RunWith(t.inputs()));
    if (!out[0].is_ref() || out[0].ref != ref.ref) {
      return absl::InternalError("the output is not the variable's ref");
    }
    return out[0].Get();
  }

  std::unique_ptr<Device> device_;
};

Tensor F(std::vector<float> v, TensorShape s) { return Tensor::FromVector<float>(v, s); }
Tensor I32(std::vector<int32_t> v, TensorShape s) { return Tensor::FromVector<int32_t>(v, s); }
Tensor I64(std::vector<int64_t> v, TensorShape s) { return Tensor::FromVector<int64_t>(v, s); }

TEST_F(ScatterOpsTest, RowOpsCombineInPlaceInIndexOrder) {
  const TensorValue v = Variable(DT_FLOAT, F({1, 2, 3, 4, 5, 6}, TensorShape({3, 2})));
  const Tensor idx = I32({2, 0, 2}, TensorShape({3}));
  const Tensor upd = F({10, 20, 30, 40, 50, 60}, TensorShape({3, 2}));
  RILL_ASSERT_OK_AND_ASSIGN(Tensor out, Scatter("ScatterAdd", v, idx, upd));
  ExpectTensorEqual(out, F({31, 42, 3, 4, 65, 86}, TensorShape({3, 2})));
  RILL_ASSERT_OK_AND_ASSIGN(out, Scatter("ScatterUpdate", v, idx, upd, true));
  ExpectTensorEqual(out, F({30, 40, 3, 4, 50, 60}, TensorShape({3, 2})));
  RILL_ASSERT_OK_AND_ASSIGN(
      out, Scatter("ScatterMul", v, I64({1}, TensorShape({1})), F({2, -1}, TensorShape({1, 2}))));
  ExpectTensorEqual(out, F({30, 40, 6, -4, 50, 60}, TensorShape({3, 2})));
  RILL_ASSERT_OK_AND_ASSIGN(out, Scatter("ScatterMax", v, I32({1, 0}, TensorShape({2})),
                                         F({0, 0, 35, 35}, TensorShape({2, 2}))));
  ExpectTensorEqual(out, F({35, 40, 6, 0, 50, 60}, TensorShape({3, 2})));
  // A scalar update applies to every element of the picked rows.
  RILL_ASSERT_OK_AND_ASSIGN(
      out, Scatter("ScatterDiv", v, I32({2}, TensorShape({1})), Tensor::Scalar<float>(10)));
  ExpectTensorEqual(out, F({35, 40, 6, 0, 5, 6}, TensorShape({3, 2})));
}

TEST_F(ScatterOpsTest, IntegerDivisionTruncatesWrapsAndRefusesZero) {
  const TensorValue v = Variable(DT_INT32, I32({-7, INT32_MIN, 9}, TensorShape({3})));
  RILL_ASSERT_OK_AND_ASSIGN(
      Tensor out, Scatter("ScatterDiv", v, I32({0, 1}, TensorShape({2})), I32({2, -1}, {2})));
  ExpectTensorEqual(out, I32({-3, INT32_MIN, 9}, TensorShape({3})));
  EXPECT_THAT(Scatter("ScatterDiv", v, I32({2}, TensorShape({1})), I32({0}, {1})),
              StatusIs(absl::StatusCode::kInvalidArgument, Eq("Integer division by zero")));
  ExpectTensorEqual(v.Get(), I32({-3, INT32_MIN, 9}, TensorShape({3})));
}

TEST_F(ScatterOpsTest, SmallIntegerProductsWrap) {
  const TensorValue v = Variable(DT_INT16, Tensor::FromVector<int16_t>({-32768, 300}, {2}));
  RILL_ASSERT_OK_AND_ASSIGN(Tensor out, Scatter("ScatterMul", v, I32({0, 1}, TensorShape({2})),
                                                Tensor::FromVector<int16_t>({-32768, 300}, {2})));
  // 2^30 and 90000 modulo 2^16.
  ExpectTensorEqual(out, Tensor::FromVector<int16_t>({0, 24464}, TensorShape({2})));
}

TEST_F(ScatterOpsTest, RowErrorsAreTensorFlows) {
  const TensorValue v = Variable(DT_FLOAT, F({1, 2, 3}, TensorShape({3})));
  EXPECT_THAT(
      Scatter("ScatterSub", v, I64({0, -1}, TensorShape({2, 1})), F({1, 1}, {2, 1})),
      StatusIs(absl::StatusCode::kInvalidArgument, Eq("indices[1,0] = -1 is not in [0, 3)")));
  ExpectTensorEqual(v.Get(), F({0, 2, 3}, TensorShape({3})));  // rows before the bad one
  EXPECT_THAT(Scatter("ScatterAdd", v, I32({0}, TensorShape({1})), F({1, 2}, {2})),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       Eq("Must have updates.shape = indices.shape + params.shape[1:] or "
                          "updates.shape = [], got updates.shape [2], indices.shape [1], "
                          "params.shape [3]")));
  const TensorValue s = Variable(DT_FLOAT, Tensor::Scalar<float>(1), "s");
  EXPECT_THAT(Scatter("ScatterAdd", s, I32({0}, TensorShape({1})), F({1}, {1})),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       Eq("params must be at least 1-D, got shape []")));
}

TEST_F(ScatterOpsTest, UninitializedVariableIsFailedPrecondition) {
  const TensorValue v = Variable(DT_FLOAT, Tensor());
  EXPECT_THAT(Scatter("ScatterNdAdd", v, I32({0}, TensorShape({1, 1})), F({1}, {1})),
              StatusIs(absl::StatusCode::kFailedPrecondition,
                       Eq("Attempting to use uninitialized value v")));
}

TEST_F(ScatterOpsTest, NdOpsUpdateSlicesAndCheckEveryIndexFirst) {
  const TensorValue v = Variable(DT_INT64, I64({1, 2, 3, 4, 5, 6}, TensorShape({3, 2})));
  RILL_ASSERT_OK_AND_ASSIGN(Tensor out,
                            Scatter("ScatterNdAdd", v, I32({0, 1, 2, 0, 0, 1}, TensorShape({3, 2})),
                                    I64({10, 20, 30}, TensorShape({3}))));
  ExpectTensorEqual(out, I64({1, 42, 3, 4, 25, 6}, TensorShape({3, 2})));
  // Rank-1 indices: one index tuple, here of one element.
  RILL_ASSERT_OK_AND_ASSIGN(out, Scatter("ScatterNdUpdate", v, I32({2, 1}, TensorShape({2})),
                                         Tensor::Scalar<int64_t>(9)));
  ExpectTensorEqual(out, I64({1, 42, 3, 4, 25, 9}, TensorShape({3, 2})));
  EXPECT_THAT(
      Scatter("ScatterNdSub", v, I32({0, 3}, TensorShape({2, 1})), I64({1, 1, 1, 1}, {2, 2})),
      StatusIs(absl::StatusCode::kInvalidArgument,
               Eq("indices[1] = [3] does not index into shape [3,2]")));
  ExpectTensorEqual(v.Get(), I64({1, 42, 3, 4, 25, 9}, TensorShape({3, 2})));  // untouched
  EXPECT_THAT(Scatter("ScatterNdSub", v, I32({0, 1}, TensorShape({2, 1})), I64({1, 1}, {2})),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       Eq("Dimensions [1,2) of input[shape=[3,2]] must match dimensions [1,1) of "
                          "updates[shape=[2]]")));
}

TEST_F(ScatterOpsTest, ResourceFormsSwapInAnUpdatedCopy) {
  const Tensor h = MakeResourceHandleTensor("localhost", "r");
  auto run = [&](const std::string& op, const Tensor& indices, const Tensor& updates) {
    OpTester t(op, "r/" + op, device_.get());
    const bool nd = op == "ResourceScatterNdAdd";
    t.Attr(nd ? "T" : "dtype", updates.dtype()).Attr("Tindices", indices.dtype());
    t.Input(h, "r").Input(indices).Input(updates);
    return t.Run().status();
  };
  EXPECT_THAT(run("ResourceScatterAdd", I32({0}, TensorShape({1})), F({1}, {1})),
              StatusIs(absl::StatusCode::kNotFound, Eq("Resource localhost/r does not exist.")));
  OpTester assign("AssignVariableOp", "r/Assign", device_.get());
  assign.Attr("dtype", DT_FLOAT).Input(h, "r").Input(F({1, 2, 3, 4}, TensorShape({2, 2})));
  ASSERT_THAT(assign.Run(), IsOk());
  RILL_ASSERT_OK_AND_ASSIGN(std::shared_ptr<Var> var,
                            device_->resource_manager()->Lookup<Var>("localhost", "r"));
  const Tensor before = *var->tensor();
  ASSERT_THAT(run("ResourceScatterMin", I32({1}, TensorShape({1})), F({0, 9}, {1, 2})), IsOk());
  ExpectTensorEqual(*var->tensor(), F({1, 2, 0, 4}, TensorShape({2, 2})));
  ExpectTensorEqual(before, F({1, 2, 3, 4}, TensorShape({2, 2})));  // a snapshot stays as it was
  ASSERT_THAT(run("ResourceScatterNdAdd", I32({0, 1}, TensorShape({1, 2})), F({5}, {1})), IsOk());
  ExpectTensorEqual(*var->tensor(), F({1, 7, 0, 4}, TensorShape({2, 2})));
  // Nothing changes on error, even for the rows before the bad index.
  EXPECT_THAT(run("ResourceScatterUpdate", I32({0, 2}, TensorShape({2})), Tensor::Scalar<float>(8)),
              StatusIs(absl::StatusCode::kInvalidArgument, Eq("indices[1] = 2 is not in [0, 2)")));
  ExpectTensorEqual(*var->tensor(), F({1, 7, 0, 4}, TensorShape({2, 2})));
  EXPECT_THAT(run("ResourceScatterSub", I32({0}, TensorShape({1})), I32({1, 1}, {1, 2})),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       Eq("Trying to update variable with wrong dtype. Expected float got int32")));
}

}  // namespace
}  // namespace rill
