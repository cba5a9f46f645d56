#include "kernels/state/variable.h"

#include <cstdint>
#include <limits>
#include <string>

#include "core/status_matchers.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "kernels/framework/op_test_util.h"

namespace rill {
namespace {

using ::testing::HasSubstr;

TEST(VarTest, InitializedIsTheTensorHavingADtype) {
  Var v(DT_INT32);
  rill::WriterMutexLock lock(v.mu());
  EXPECT_FALSE(v.is_initialized());
  *v.tensor() = Tensor::FromVector<int32_t>({1, 2}, TensorShape({2}));
  EXPECT_TRUE(v.is_initialized());
}

TEST(VarTest, DebugString) {
  Var v(DT_FLOAT);
  EXPECT_EQ(v.DebugString(), "Var<float uninitialized>");
  {
    rill::WriterMutexLock lock(v.mu());
    *v.tensor() = Tensor(DT_FLOAT, TensorShape({2, 3}));
  }
  EXPECT_EQ(v.DebugString(), "Var<float [2,3]>");
}

TEST(ResourceHandleTest, RoundTrips) {
  RILL_ASSERT_OK_AND_ASSIGN(ResourceHandle h,
                            ResourceHandleFromTensor(MakeResourceHandleTensor("localhost", "a/b")));
  EXPECT_EQ(h.container, "localhost");
  EXPECT_EQ(h.name, "a/b");
  RILL_ASSERT_OK_AND_ASSIGN(h, ResourceHandleFromTensor(MakeResourceHandleTensor("", "x")));
  EXPECT_EQ(h.container, "");
  EXPECT_EQ(h.name, "x");
  EXPECT_THAT(
      ResourceHandleFromTensor(Tensor::Scalar<float>(1)),
      StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("got float tensor of shape []")));
}

TEST(DenseUpdateTest, InPlaceAndIntoAnotherTensor) {
  Tensor a =
      Tensor::FromVector<int16_t>({std::numeric_limits<int16_t>::max(), 5}, TensorShape({2}));
  const Tensor b = Tensor::FromVector<int16_t>({1, 7}, TensorShape({2}));
  Tensor out(DT_INT16, TensorShape({2}));
  ASSERT_THAT(ApplyDenseUpdate(DenseUpdate::kSub, a, b, &out), IsOk());
  ExpectTensorEqual(out, Tensor::FromVector<int16_t>({32766, -2}, TensorShape({2})));
  ASSERT_THAT(ApplyDenseUpdate(DenseUpdate::kAdd, a, b, &a), IsOk());
  ExpectTensorEqual(
      a, Tensor::FromVector<int16_t>({std::numeric_limits<int16_t>::min(), 12}, TensorShape({2})));
  Tensor s = Tensor::Scalar<std::string>("x");
  EXPECT_THAT(ApplyDenseUpdate(DenseUpdate::kAdd, s, s, &s),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("string")));
}

TEST(CopyTensorElementsTest, NumbersAndStrings) {
  const Tensor f = Tensor::FromVector<double>({1.5, 2.5}, TensorShape({2}));
  Tensor g(DT_DOUBLE, TensorShape({2}));
  CopyTensorElements(f, &g);
  ExpectTensorEqual(g, f);
  const Tensor s =
      Tensor::FromVector<std::string>({"long string beyond SSO size....", ""}, TensorShape({2}));
  Tensor t(DT_STRING, TensorShape({2}));
  CopyTensorElements(s, &t);
  ExpectTensorEqual(t, s);
}

}  // namespace
}  // namespace rill
