#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "core/status_matchers.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "kernels/framework/op_test_util.h"
#include "kernels/state/variable.h"

namespace rill {
namespace {

using ::testing::Eq;
using ::testing::HasSubstr;

class VariableOpsTest : public ::testing::Test {
 protected:
  VariableOpsTest() : device_(NewCpuDevice(kTestCpuDevice)) {}

  // Runs a VariableV2 named `name` and returns its ref output.
  TensorValue Variable(const std::string& name, DataType dtype, std::vector<int64_t> shape,
                       const std::string& shared_name = "") {
    OpTester t("VariableV2", name, device_.get());
    t.Attr("dtype", dtype).ShapeAttr("shape", shape);
    if (!shared_name.empty()) t.Attr("shared_name", shared_name);
    EXPECT_THAT(t.Init(), IsOk());
    absl::StatusOr<std::vector<TensorValue>> out = t.RunWith({});
    EXPECT_THAT(out, IsOk());
    return (*out)[0];
  }

  // An Assign/AssignAdd/AssignSub tester on `ref` (named "v" in its NodeDef input).
  std::unique_ptr<OpTester> Update(const std::string& op, const TensorValue& ref,
                                   const Tensor& value, bool use_locking) {
    auto t = std::make_unique<OpTester>(op, "v/" + op, device_.get());
    t->Attr("T", value.dtype()).Attr("use_locking", use_locking);
    t->InputValue(ref, "v").Input(value);
    return t;
  }

  std::unique_ptr<Device> device_;
};

TEST_F(VariableOpsTest, VariableOutputsARefToAVarInTheResourceMgr) {
  const TensorValue ref = Variable("v", DT_FLOAT, {2});
  ASSERT_TRUE(ref.is_ref());
  RILL_ASSERT_OK_AND_ASSIGN(std::shared_ptr<Var> var,
                            device_->resource_manager()->Lookup<Var>("localhost", "v"));
  EXPECT_EQ(ref.ref, var->tensor());
  EXPECT_EQ(ref.ref_mu, var->mu());
  EXPECT_EQ(var->dtype(), DT_FLOAT);
  EXPECT_FALSE(ref.Get().IsInitialized());  // what the executor checks
  EXPECT_EQ(var->DebugString(), "Var<float uninitialized>");
  // A second run (the next step) finds the same Var.
  EXPECT_EQ(Variable("v", DT_FLOAT, {2}).ref, ref.ref);
}

TEST_F(VariableOpsTest, SharedNameAndContainer) {
  const TensorValue a = Variable("a", DT_INT32, {}, "shared");
  const TensorValue b = Variable("b", DT_INT32, {}, "shared");
  EXPECT_EQ(a.ref, b.ref);
  OpTester t("VariableV2", "c", device_.get());
  t.Attr("dtype", DT_INT32).ShapeAttr("shape", {}).Attr("container", "mine");
  RILL_ASSERT_OK_AND_ASSIGN(std::vector<Tensor> out, t.Run());
  EXPECT_THAT(device_->resource_manager()->Lookup<Var>("mine", "c"), IsOk());
}

TEST_F(VariableOpsTest, SameNameWithAnotherDtypeIsInvalidArgument) {
  Variable("v", DT_FLOAT, {2});
  OpTester t("VariableV2", "v", device_.get());
  t.Attr("dtype", DT_INT64).ShapeAttr("shape", {2});
  EXPECT_THAT(t.Run(), StatusIs(absl::StatusCode::kInvalidArgument,
                                Eq("Variable localhost/v was created with dtype float but node v "
                                   "asks for int64")));
}

TEST_F(VariableOpsTest, AssignCopiesTheValueAndForwardsTheRef) {
  const TensorValue ref = Variable("v", DT_FLOAT, {2});
  const Tensor value = Tensor::FromVector<float>({1, 2}, TensorShape({2}));
  auto assign = Update("Assign", ref, value, true);
  ASSERT_THAT(assign->Init(), IsOk());
  RILL_ASSERT_OK_AND_ASSIGN(std::vector<TensorValue> out, assign->RunWith(assign->inputs()));
  ASSERT_TRUE(out[0].is_ref());
  EXPECT_EQ(out[0].ref, ref.ref);
  ExpectTensorEqual(ref.Get(), value);
  EXPECT_FALSE(ref.Get().SharesBufferWith(value));  // the variable owns its buffer
  // An earlier read keeps its value when a later Assign replaces the buffer.
  const Tensor before = ref.Get();
  auto assign2 = Update("Assign", ref, Tensor::FromVector<float>({7, 8}, TensorShape({2})), false);
  ASSERT_THAT(assign2->Run(), IsOk());
  ExpectTensorEqual(before, value);
  ExpectTensorEqual(ref.Get(), Tensor::FromVector<float>({7, 8}, TensorShape({2})));
}

TEST_F(VariableOpsTest, AssignValidatesShapeUnlessToldNotTo) {
  const TensorValue ref = Variable("v", DT_FLOAT, {2});
  ASSERT_THAT(Update("Assign", ref, Tensor(DT_FLOAT, TensorShape({2})), true)->Run(), IsOk());
  EXPECT_THAT(Update("Assign", ref, Tensor(DT_FLOAT, TensorShape({3})), true)->Run(),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       Eq("Assign requires shapes of both tensors to match. lhs shape= [2] "
                          "rhs shape= [3]")));
  EXPECT_THAT(Update("Assign", ref, Tensor(DT_FLOAT, TensorShape({3})), false)->Run(),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("lhs shape= [2]")));
  auto reshape =
      Update("Assign", ref, Tensor::FromVector<float>({1, 2, 3}, TensorShape({3})), true);
  reshape->Attr("validate_shape", false);
  ASSERT_THAT(reshape->Run(), IsOk());
  ExpectTensorEqual(ref.Get(), Tensor::FromVector<float>({1, 2, 3}, TensorShape({3})));
}

// TensorFlow's uninitialized ref variable carries its `shape` attr, so the first validating
// Assign of another shape (a checkpoint's, through RestoreV2 of unknown shape) is refused too.
TEST_F(VariableOpsTest, FirstAssignIsCheckedAgainstTheDeclaredShape) {
  const TensorValue ref = Variable("v", DT_FLOAT, {2});
  EXPECT_THAT(Update("Assign", ref, Tensor(DT_FLOAT, TensorShape({3})), true)->Run(),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       Eq("Assign requires shapes of both tensors to match. lhs shape= [2] "
                          "rhs shape= [3]")));
  EXPECT_FALSE(ref.Get().IsInitialized());
  auto reshape =
      Update("Assign", ref, Tensor::FromVector<float>({1, 2, 3}, TensorShape({3})), true);
  reshape->Attr("validate_shape", false);
  ASSERT_THAT(reshape->Run(), IsOk());
  ExpectTensorEqual(ref.Get(), Tensor::FromVector<float>({1, 2, 3}, TensorShape({3})));
  // A scalar declared shape is checked too; a partial one ([?]) accepts any first value.
  const TensorValue scalar = Variable("s", DT_FLOAT, {});
  auto to_scalar = std::make_unique<OpTester>("Assign", "s/Assign", device_.get());
  to_scalar->Attr("T", DT_FLOAT).Attr("use_locking", true);
  to_scalar->InputValue(scalar, "s").Input(Tensor(DT_FLOAT, TensorShape({1})));
  EXPECT_THAT(to_scalar->Run(), StatusIs(absl::StatusCode::kInvalidArgument,
                                         HasSubstr("lhs shape= [] rhs shape= [1]")));
  const TensorValue partial = Variable("p", DT_FLOAT, {-1});
  auto to_partial = std::make_unique<OpTester>("Assign", "p/Assign", device_.get());
  to_partial->Attr("T", DT_FLOAT).Attr("use_locking", true);
  to_partial->InputValue(partial, "p").Input(Tensor(DT_FLOAT, TensorShape({5})));
  EXPECT_THAT(to_partial->Run(), IsOk());
}

TEST_F(VariableOpsTest, AssignAddAndAssignSubUpdateInPlace) {
  const TensorValue ref = Variable("v", DT_INT32, {3});
  ASSERT_THAT(
      Update("Assign", ref, Tensor::FromVector<int32_t>({1, 2, 3}, TensorShape({3})), true)->Run(),
      IsOk());
  auto add =
      Update("AssignAdd", ref, Tensor::FromVector<int32_t>({10, 20, 30}, TensorShape({3})), false);
  RILL_ASSERT_OK_AND_ASSIGN(std::vector<Tensor> out, add->Run());
  ExpectTensorEqual(out[0], Tensor::FromVector<int32_t>({11, 22, 33}, TensorShape({3})));
  auto sub =
      Update("AssignSub", ref, Tensor::FromVector<int32_t>({1, 1, 1}, TensorShape({3})), true);
  RILL_ASSERT_OK_AND_ASSIGN(out, sub->Run());
  ExpectTensorEqual(out[0], Tensor::FromVector<int32_t>({10, 21, 32}, TensorShape({3})));
  ExpectTensorEqual(ref.Get(), Tensor::FromVector<int32_t>({10, 21, 32}, TensorShape({3})));
}

TEST_F(VariableOpsTest, AssignAddHalfAndWrap) {
  const TensorValue h = Variable("h", DT_HALF, {2});
  ASSERT_THAT(Update("Assign", h, MakeTensor(DT_HALF, TensorShape({2}), {1.5, -2}), true)->Run(),
              IsOk());
  ASSERT_THAT(Update("AssignAdd", h, MakeTensor(DT_HALF, TensorShape({2}), {0.25, 4}), true)->Run(),
              IsOk());
  ExpectTensorEqual(h.Get(), MakeTensor(DT_HALF, TensorShape({2}), {1.75, 2}));
  const TensorValue i = Variable("i", DT_INT8, {});
  ASSERT_THAT(Update("Assign", i, Tensor::Scalar<int8_t>(-128), true)->Run(), IsOk());
  ASSERT_THAT(Update("AssignSub", i, Tensor::Scalar<int8_t>(1), true)->Run(), IsOk());
  ExpectTensorEqual(i.Get(), Tensor::Scalar<int8_t>(127));
}

TEST_F(VariableOpsTest, ConcurrentLockedAssignAddIsExact) {
  for (DataType dt : {DT_FLOAT, DT_INT64}) {
    SCOPED_TRACE(DataTypeString(dt));
    const std::string name = "counter_" + DataTypeString(dt);
    const TensorValue ref = Variable(name, dt, {4});
    ASSERT_THAT(Update("Assign", ref, MakeTensor(dt, TensorShape({4}), {0, 1, 2, 3}), true)->Run(),
                IsOk());
    auto add = Update("AssignAdd", ref, MakeTensor(dt, TensorShape({4}), {1, 1, 1, 1}),
                      /*use_locking=*/true);
    ASSERT_THAT(add->Init(), IsOk());
    std::vector<std::thread> threads;
    for (int i = 0; i < 4; ++i) {
      threads.emplace_back([&] {
        for (int j = 0; j < 1000; ++j) ASSERT_THAT(add->RunWith(add->inputs()), IsOk());
      });
    }
    for (std::thread& t : threads) t.join();
    ExpectTensorEqual(ref.Get(), MakeTensor(dt, TensorShape({4}), {4000, 4001, 4002, 4003}));
  }
}

TEST_F(VariableOpsTest, UpdateOfUninitializedVariableIsFailedPrecondition) {
  const TensorValue ref = Variable("v", DT_FLOAT, {2});
  for (const char* op : {"AssignAdd", "AssignSub"}) {
    for (bool locking : {false, true}) {
      EXPECT_THAT(Update(op, ref, Tensor(DT_FLOAT, TensorShape({2})), locking)->Run(),
                  StatusIs(absl::StatusCode::kFailedPrecondition,
                           Eq("Attempting to use uninitialized value v")));
    }
  }
}

TEST_F(VariableOpsTest, UpdateWithAnotherShapeIsInvalidArgument) {
  const TensorValue ref = Variable("v", DT_DOUBLE, {2});
  ASSERT_THAT(Update("Assign", ref, Tensor(DT_DOUBLE, TensorShape({2})), true)->Run(), IsOk());
  EXPECT_THAT(Update("AssignAdd", ref, Tensor(DT_DOUBLE, TensorShape({2, 1})), true)->Run(),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       Eq("Parameters and update must be the same size. lhs shape= [2] rhs "
                          "shape= [2,1]")));
}

TEST_F(VariableOpsTest, StringVariablesAssignButDoNotAdd) {
  const TensorValue ref = Variable("s", DT_STRING, {2});
  const Tensor value = Tensor::FromVector<std::string>({"a", "b"}, TensorShape({2}));
  ASSERT_THAT(Update("Assign", ref, value, true)->Run(), IsOk());
  ExpectTensorEqual(ref.Get(), value);
  // AssignAdd's OpDef takes numbertype only.
  EXPECT_THAT(
      Update("AssignAdd", ref, value, true)->Init(),
      StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("not in the list of allowed values")));
}

}  // namespace
}  // namespace rill
