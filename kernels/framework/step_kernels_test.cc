#include "kernels/framework/step_kernels.h"

#include <memory>
#include <vector>

#include "core/cancellation.h"
#include "core/resource_mgr.h"
#include "core/status_matchers.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "kernels/framework/op_test_util.h"
#include "ops/attr_value_util.h"

namespace rill {
namespace {

using ::testing::HasSubstr;

NodeDef Def(const char* name, const char* op, std::vector<std::string> inputs) {
  NodeDef def;
  def.set_name(name);
  def.set_op(op);
  for (const std::string& in : inputs) def.add_input(in);
  return def;
}

TensorValueVector Values(std::vector<Tensor> tensors) {
  TensorValueVector v;
  for (Tensor& t : tensors) v.emplace_back(std::move(t), nullptr, nullptr);
  return v;
}

// An outer kernel's context (the fused node's) on `device`.
struct Outer {
  explicit Outer(Device* device) {
    params.device = device;
    params.step_id = 7;
    params.cancellation = &cancellation;
    params.step_resources = &resources;
  }
  CancellationManager cancellation;
  ResourceMgr resources;
  OpKernelContext::Params params;
};

TEST(StepKernelsTest, CreatesAndRunsAStepKernel) {
  OpTester device_holder("NoOp");
  Outer outer(device_holder.device());
  OpKernelContext ctx(&outer.params, 0);
  NodeDef def = Def("loop/add", "AddV2", {"a", "b"});
  SetAttr(&def, "T", DT_FLOAT);
  RILL_ASSERT_OK_AND_ASSIGN(std::unique_ptr<OpKernel> add, CreateStepKernel(def, ctx.device()));
  EXPECT_EQ(add->name(), "loop/add");
  StepKernelRunner runner(ctx);
  RILL_ASSERT_OK_AND_ASSIGN(
      TensorValueVector out,
      runner.Run(*add,
                 Values({Tensor::FromVector<float>({1, -2.5f}, TensorShape({2})),
                         Tensor::FromVector<float>({0.5f, 2.5f}, TensorShape({2}))}),
                 1));
  ASSERT_EQ(out.size(), 1u);
  ExpectTensorEqual(out[0].tensor, Tensor::FromVector<float>({1.5f, 0}, TensorShape({2})));
  // The step kernel's error, unchanged (no node named: the caller names it).
  absl::StatusOr<TensorValueVector> bad =
      runner.Run(*add,
                 Values({Tensor::FromVector<float>({1, 2}, TensorShape({2})),
                         Tensor::FromVector<float>({1, 2, 3}, TensorShape({3}))}),
                 1);
  EXPECT_THAT(bad.status(), StatusIs(absl::StatusCode::kInvalidArgument,
                                     HasSubstr("Incompatible shapes: [2] vs. [3]")));
  EXPECT_THAT(bad.status().message(), ::testing::Not(HasSubstr("{{node")));
}

TEST(StepKernelsTest, RunIntoLeavesTheOutputsInTheCallersVector) {
  OpTester device_holder("NoOp");
  Outer outer(device_holder.device());
  OpKernelContext ctx(&outer.params, 0);
  NodeDef def = Def("loop/add", "AddV2", {"a", "b"});
  SetAttr(&def, "T", DT_FLOAT);
  RILL_ASSERT_OK_AND_ASSIGN(std::unique_ptr<OpKernel> add, CreateStepKernel(def, ctx.device()));
  StepKernelRunner runner(ctx);
  TensorValueVector out = Values({Tensor::Scalar<float>(7), Tensor::Scalar<float>(8)});
  const TensorValueVector in = Values({Tensor::FromVector<float>({1, -2.5f}, TensorShape({2})),
                                       Tensor::FromVector<float>({0.5f, 2.5f}, TensorShape({2}))});
  RILL_ASSERT_OK(runner.RunInto(*add, in, 1, &out));
  ASSERT_EQ(out.size(), 1u);  // the old contents dropped
  ExpectTensorEqual(out[0].tensor, Tensor::FromVector<float>({1.5f, 0}, TensorShape({2})));
  // The inputs are read in place: AddV2 reuses the buffer of `in[0]`, which only `in` holds.
  EXPECT_EQ(out[0].tensor.raw_data(), in[0].tensor.raw_data());
  // An error leaves the vector as it was.
  const TensorValueVector bad = Values({Tensor::FromVector<float>({1, 2}, TensorShape({2})),
                                        Tensor::FromVector<float>({1, 2, 3}, TensorShape({3}))});
  EXPECT_THAT(
      runner.RunInto(*add, bad, 1, &out),
      StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("Incompatible shapes: [2] vs. [3]")));
  ASSERT_EQ(out.size(), 1u);
  ExpectTensorEqual(out[0].tensor, Tensor::FromVector<float>({1.5f, 0}, TensorShape({2})));
}

TEST(StepKernelsTest, StepKernelsSeeTheOuterStepsResources) {
  OpTester device_holder("NoOp");
  Outer outer(device_holder.device());
  OpKernelContext ctx(&outer.params, 0);
  NodeDef make = Def("ta", "TensorArrayV3", {"size"});
  SetAttr(&make, "dtype", DT_FLOAT);
  NodeDef size = Def("loop/size", "TensorArraySizeV3", {"handle", "flow"});
  RILL_ASSERT_OK_AND_ASSIGN(std::unique_ptr<OpKernel> make_k, CreateStepKernel(make, ctx.device()));
  RILL_ASSERT_OK_AND_ASSIGN(std::unique_ptr<OpKernel> size_k, CreateStepKernel(size, ctx.device()));
  StepKernelRunner runner(ctx);
  RILL_ASSERT_OK_AND_ASSIGN(TensorValueVector array,
                            runner.Run(*make_k, Values({Tensor::Scalar<int32_t>(3)}), 2));
  RILL_ASSERT_OK_AND_ASSIGN(
      TensorValueVector n,
      runner.Run(*size_k, Values({array[0].tensor, Tensor::Scalar<float>(0)}), 1));
  ExpectTensorEqual(n[0].tensor, Tensor::Scalar<int32_t>(3));
  // Without the step's resources the TensorArray kernels refuse to run.
  outer.params.step_resources = nullptr;
  OpKernelContext bare(&outer.params, 0);
  StepKernelRunner bare_runner(bare);
  EXPECT_THAT(
      bare_runner.Run(*size_k, Values({array[0].tensor, Tensor::Scalar<float>(0)}), 1).status(),
      StatusIs(absl::StatusCode::kInternal,
               HasSubstr("TensorArraySizeV3 node loop/size run without step resources")));
}

TEST(StepKernelsTest, CreateStepKernelGivesTheRegistrysAndValidationsErrors) {
  OpTester device_holder("NoOp");
  EXPECT_THAT(
      CreateStepKernel(Def("n", "NoSuchOp", {}), device_holder.device()).status(),
      StatusIs(absl::StatusCode::kNotFound, HasSubstr("Op type not registered 'NoSuchOp'")));
  EXPECT_THAT(CreateStepKernel(Def("n", "AddV2", {"a", "b"}), device_holder.device()).status(),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("NodeDef missing attr 'T'")));
}

TEST(StepKernelsTest, CancelledGivesTheCancellationsStatus) {
  OpTester device_holder("NoOp");
  Outer outer(device_holder.device());
  OpKernelContext ctx(&outer.params, 0);
  StepKernelRunner runner(ctx);
  RILL_EXPECT_OK(runner.Cancelled());
  outer.cancellation.StartCancel(absl::DeadlineExceededError("Timed out waiting"));
  EXPECT_THAT(runner.Cancelled(),
              StatusIs(absl::StatusCode::kDeadlineExceeded, "Timed out waiting"));

  Outer ok_reason(device_holder.device());
  OpKernelContext ctx2(&ok_reason.params, 0);
  StepKernelRunner runner2(ctx2);
  ok_reason.cancellation.StartCancel(absl::OkStatus());
  EXPECT_THAT(runner2.Cancelled(), StatusIs(absl::StatusCode::kCancelled, "Step was cancelled"));

  outer.params.cancellation = nullptr;
  OpKernelContext none(&outer.params, 0);
  RILL_EXPECT_OK(StepKernelRunner(none).Cancelled());
}

}  // namespace
}  // namespace rill
