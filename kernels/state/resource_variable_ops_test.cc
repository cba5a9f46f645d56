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

class ResourceVariableOpsTest : public ::testing::Test {
 protected:
  ResourceVariableOpsTest() : device_(NewCpuDevice(kTestCpuDevice)) {}

  Tensor Handle(const std::string& name, const std::string& container = "",
                const std::string& shared_name = "") {
    OpTester t("VarHandleOp", name, device_.get());
    t.Attr("dtype", DT_FLOAT).ShapeAttr("shape", {2});
    if (!container.empty()) t.Attr("container", container);
    if (!shared_name.empty()) t.Attr("shared_name", shared_name);
    absl::StatusOr<std::vector<Tensor>> out = t.Run();
    EXPECT_THAT(out, IsOk());
    return out.ok() ? (*out)[0] : Tensor();
  }

  absl::StatusOr<std::vector<Tensor>> Run(const std::string& op, const Tensor& handle,
                                          DataType dtype, const Tensor* value = nullptr) {
    OpTester t(op, "v/" + op, device_.get());
    if (op != "VarIsInitializedOp") t.Attr("dtype", dtype);
    t.Input(handle, "v");
    if (value != nullptr) t.Input(*value);
    return t.Run();
  }
  absl::Status Assign(const Tensor& handle, const Tensor& value) {
    return Run("AssignVariableOp", handle, value.dtype(), &value).status();
  }
  absl::StatusOr<Tensor> Read(const Tensor& handle, DataType dtype) {
    absl::StatusOr<std::vector<Tensor>> out = Run("ReadVariableOp", handle, dtype);
    if (!out.ok()) return out.status();
    return (*out)[0];
  }
  bool IsInitialized(const Tensor& handle) {
    absl::StatusOr<std::vector<Tensor>> out = Run("VarIsInitializedOp", handle, DT_INVALID);
    EXPECT_THAT(out, IsOk());
    return out.ok() && (*out)[0].flat<bool>()[0];
  }

  std::unique_ptr<Device> device_;
};

TEST_F(ResourceVariableOpsTest, HandleIsAScalarStringContainerSlashName) {
  ExpectTensorEqual(Handle("v"), Tensor::Scalar<std::string>("localhost/v"));
  ExpectTensorEqual(Handle("w", "c", "dense/kernel"),
                    Tensor::Scalar<std::string>("c/dense/kernel"));
  RILL_ASSERT_OK_AND_ASSIGN(ResourceHandle h, ResourceHandleFromTensor(Handle("w", "c", "a/b")));
  EXPECT_EQ(h.container, "c");
  EXPECT_EQ(h.name, "a/b");
  // The handle op creates nothing.
  EXPECT_EQ(device_->resource_manager()->size(), 0);
}

TEST_F(ResourceVariableOpsTest, ContainerWithSlashIsRejected) {
  OpTester t("VarHandleOp", "v", device_.get());
  t.Attr("dtype", DT_FLOAT).ShapeAttr("shape", {}).Attr("container", "a/b");
  EXPECT_THAT(t.Init(), StatusIs(absl::StatusCode::kInvalidArgument,
                                 HasSubstr("container 'a/b' contains '/'")));
}

TEST_F(ResourceVariableOpsTest, ReadBeforeAssignIsTensorFlowsFailedPrecondition) {
  const Tensor h = Handle("v");
  EXPECT_FALSE(IsInitialized(h));
  EXPECT_THAT(Read(h, DT_FLOAT),
              StatusIs(absl::StatusCode::kFailedPrecondition,
                       Eq("Error while reading resource variable v from Container: localhost. "
                          "This could mean that the variable was uninitialized. Not found: "
                          "Resource localhost/v does not exist.")));
  for (const char* op : {"AssignAddVariableOp", "AssignSubVariableOp"}) {
    const Tensor one = Tensor::FromVector<float>({1, 1}, TensorShape({2}));
    EXPECT_THAT(Run(op, h, DT_FLOAT, &one),
                StatusIs(absl::StatusCode::kFailedPrecondition,
                         HasSubstr("Error while reading resource variable v from Container: "
                                   "localhost. This could mean that the variable was "
                                   "uninitialized.")));
  }
}

TEST_F(ResourceVariableOpsTest, AssignReadUpdate) {
  const Tensor h = Handle("v");
  const Tensor value = Tensor::FromVector<float>({1, 2}, TensorShape({2}));
  ASSERT_THAT(Assign(h, value), IsOk());
  EXPECT_TRUE(IsInitialized(h));
  RILL_ASSERT_OK_AND_ASSIGN(Tensor read, Read(h, DT_FLOAT));
  ExpectTensorEqual(read, value);
  EXPECT_FALSE(read.SharesBufferWith(value));  // assigned by copy
  const Tensor d = Tensor::FromVector<float>({10, 20}, TensorShape({2}));
  ASSERT_THAT(Run("AssignAddVariableOp", h, DT_FLOAT, &d), IsOk());
  RILL_ASSERT_OK_AND_ASSIGN(Tensor after_add, Read(h, DT_FLOAT));
  ExpectTensorEqual(after_add, Tensor::FromVector<float>({11, 22}, TensorShape({2})));
  // Copy-on-write: the earlier read is a stable snapshot.
  ExpectTensorEqual(read, value);
  const Tensor one = Tensor::FromVector<float>({1, 1}, TensorShape({2}));
  ASSERT_THAT(Run("AssignSubVariableOp", h, DT_FLOAT, &one), IsOk());
  RILL_ASSERT_OK_AND_ASSIGN(Tensor after_sub, Read(h, DT_FLOAT));
  ExpectTensorEqual(after_sub, Tensor::FromVector<float>({10, 21}, TensorShape({2})));
  ExpectTensorEqual(after_add, Tensor::FromVector<float>({11, 22}, TensorShape({2})));
}

TEST_F(ResourceVariableOpsTest, AssignChangesShapeUnlessValidateShape) {
  const Tensor h = Handle("v");
  ASSERT_THAT(Assign(h, Tensor(DT_INT32, TensorShape({2}))), IsOk());
  ASSERT_THAT(Assign(h, Tensor::FromVector<int32_t>({1, 2, 3}, TensorShape({3}))), IsOk());
  RILL_ASSERT_OK_AND_ASSIGN(Tensor read, Read(h, DT_INT32));
  ExpectTensorEqual(read, Tensor::FromVector<int32_t>({1, 2, 3}, TensorShape({3})));
  OpTester t("AssignVariableOp", "v/Assign", device_.get());
  t.Attr("dtype", DT_INT32)
      .Attr("validate_shape", true)
      .Input(h)
      .Input(Tensor(DT_INT32, TensorShape({4})));
  EXPECT_THAT(t.Run(), StatusIs(absl::StatusCode::kInvalidArgument,
                                Eq("Trying to assign to variable with tensor with wrong shape. "
                                   "Expected [3] got [4]")));
}

TEST_F(ResourceVariableOpsTest, DtypeMismatches) {
  const Tensor h = Handle("v");
  ASSERT_THAT(Assign(h, Tensor(DT_FLOAT, TensorShape({2}))), IsOk());
  EXPECT_THAT(Read(h, DT_INT32),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       Eq("Trying to read variable with wrong dtype. Expected int32 got float")));
  EXPECT_THAT(
      Assign(h, Tensor(DT_DOUBLE, TensorShape({2}))),
      StatusIs(absl::StatusCode::kInvalidArgument,
               Eq("Trying to assign variable with wrong dtype. Expected float got double")));
}

TEST_F(ResourceVariableOpsTest, UpdateWithAnotherShapeIsInvalidArgument) {
  const Tensor h = Handle("v");
  ASSERT_THAT(Assign(h, Tensor(DT_FLOAT, TensorShape({2}))), IsOk());
  const Tensor d(DT_FLOAT, TensorShape({3}));
  EXPECT_THAT(Run("AssignAddVariableOp", h, DT_FLOAT, &d),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       Eq("Cannot update variable with shape [2] using a Tensor with shape [3], "
                          "shapes must be equal.")));
}

TEST_F(ResourceVariableOpsTest, ConcurrentAssignAddIsExact) {
  const Tensor h = Handle("v");
  ASSERT_THAT(Assign(h, Tensor::FromVector<int32_t>({0, 100}, TensorShape({2}))), IsOk());
  OpTester add("AssignAddVariableOp", "v/add", device_.get());
  add.Attr("dtype", DT_INT32).Input(h).Input(Tensor::FromVector<int32_t>({1, 2}, TensorShape({2})));
  ASSERT_THAT(add.Init(), IsOk());
  std::vector<std::thread> threads;
  for (int i = 0; i < 4; ++i) {
    threads.emplace_back([&] {
      for (int j = 0; j < 1000; ++j) ASSERT_THAT(add.RunWith(add.inputs()), IsOk());
    });
  }
  for (std::thread& t : threads) t.join();
  RILL_ASSERT_OK_AND_ASSIGN(Tensor read, Read(h, DT_INT32));
  ExpectTensorEqual(read, Tensor::FromVector<int32_t>({4000, 8100}, TensorShape({2})));
}

TEST_F(ResourceVariableOpsTest, MalformedHandleIsInvalidArgument) {
  EXPECT_THAT(Read(Tensor::Scalar<std::string>("no-slash"), DT_FLOAT),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("Malformed resource handle \"no-slash\"")));
  EXPECT_THAT(
      Read(Tensor(DT_STRING, TensorShape({2})), DT_FLOAT),
      StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("Expected a resource handle")));
}

TEST_F(ResourceVariableOpsTest, VariableShapeGivesTheValuesShape) {
  const Tensor h = Handle("v");
  OpTester shape("VariableShape", "shape", device_.get());
  shape.Attr("out_type", DT_INT64).Input(h, "v");
  EXPECT_THAT(shape.Run(),
              StatusIs(absl::StatusCode::kNotFound, Eq("Resource localhost/v does not exist.")));
  ASSERT_THAT(Assign(h, Tensor(DT_FLOAT, TensorShape({2, 0, 3}))), IsOk());
  RILL_ASSERT_OK_AND_ASSIGN(std::vector<Tensor> out, shape.Run());
  ExpectTensorEqual(out[0], Tensor::FromVector<int64_t>({2, 0, 3}, TensorShape({3})));
  OpTester shape32("VariableShape", "shape32", device_.get());
  shape32.Attr("out_type", DT_INT32).Input(h, "v");
  RILL_ASSERT_OK_AND_ASSIGN(out, shape32.Run());
  ExpectTensorEqual(out[0], Tensor::FromVector<int32_t>({2, 0, 3}, TensorShape({3})));
}

TEST_F(ResourceVariableOpsTest, DestroyResourceOpDropsTheVariable) {
  const Tensor h = Handle("v");
  ASSERT_THAT(Assign(h, Tensor::FromVector<float>({1, 2}, TensorShape({2}))), IsOk());
  RILL_ASSERT_OK_AND_ASSIGN(Tensor before, Read(h, DT_FLOAT));
  OpTester destroy("DestroyResourceOp", "destroy", device_.get());
  destroy.Input(h, "v");
  ASSERT_THAT(destroy.Run(), IsOk());
  EXPECT_FALSE(IsInitialized(h));
  ExpectTensorEqual(before, Tensor::FromVector<float>({1, 2}, TensorShape({2})));
  ASSERT_THAT(destroy.Run(), IsOk());  // ignore_lookup_error defaults to true
  OpTester strict("DestroyResourceOp", "strict", device_.get());
  strict.Attr("ignore_lookup_error", false).Input(h, "v");
  EXPECT_THAT(strict.Run(),
              StatusIs(absl::StatusCode::kNotFound, Eq("Resource localhost/v does not exist.")));
}

}  // namespace
}  // namespace rill
