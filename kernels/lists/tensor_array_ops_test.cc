#include <unistd.h>

#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "core/resource_mgr.h"
#include "core/status_macros.h"
#include "core/status_matchers.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "kernels/framework/op_test_util.h"

namespace rill {
namespace {

using ::testing::HasSubstr;

class TensorArrayTest : public ::testing::Test {
 protected:
  // A float TensorArray of `size` in this test's step resources; returns its handle.
  Tensor NewArray(int size, bool clear_after_read = true) {
    OpTester t("TensorArrayV3", "ta");
    t.Attr("dtype", DT_FLOAT).Attr("clear_after_read", clear_after_read);
    t.Input(Tensor::Scalar<int32_t>(size));
    t.SetStepResources(&step_);
    absl::StatusOr<std::vector<Tensor>> out = t.Run();
    EXPECT_THAT(out.status(), IsOk());
    EXPECT_EQ((*out)[1].flat<float>()[0], 0.f);  // the flow
    return (*out)[0];
  }
  absl::Status Write(const Tensor& h, int index, const Tensor& value) {
    OpTester t("TensorArrayWriteV3");
    t.Attr("T", value.dtype()).Input(h).Input(Tensor::Scalar<int32_t>(index)).Input(value);
    t.Input(Tensor::Scalar<float>(0.f));
    t.SetStepResources(&step_);
    return t.Run().status();
  }
  absl::StatusOr<Tensor> Read(const Tensor& h, int index) {
    OpTester t("TensorArrayReadV3");
    t.Attr("dtype", DT_FLOAT).Input(h).Input(Tensor::Scalar<int32_t>(index));
    t.Input(Tensor::Scalar<float>(0.f));
    t.SetStepResources(&step_);
    RILL_ASSIGN_OR_RETURN(std::vector<Tensor> out, t.Run());
    return out[0];
  }
  // The n of a handle "_tensor_arrays/ta:<n>".
  static int CounterOf(const Tensor& h) {
    const std::string& s = h.flat<std::string>()[0];
    return std::stoi(s.substr(s.rfind(':') + 1));
  }
  ResourceMgr step_;
};

// The V2 names of older graphs run the same arrays through string-vector handles
// [container, name]; TensorArrayV2 and TensorArrayGradV2 output no flow.
TEST_F(TensorArrayTest, V2NamesUseStringVectorHandles) {
  OpTester make("TensorArrayV2", "old");
  make.Attr("dtype", DT_FLOAT).Attr("clear_after_read", false);
  make.Input(Tensor::Scalar<int32_t>(2));
  make.SetStepResources(&step_);
  RILL_ASSERT_OK_AND_ASSIGN(std::vector<Tensor> made, make.Run());
  ASSERT_EQ(made.size(), 1u);
  const Tensor h = made[0];
  ASSERT_EQ(h.dtype(), DT_STRING);
  ASSERT_EQ(h.shape(), TensorShape({2}));
  EXPECT_EQ(h.flat<std::string>()[0], "_tensor_arrays");

  OpTester write("TensorArrayWriteV2");
  write.Attr("T", DT_FLOAT).Input(h).Input(Tensor::Scalar<int32_t>(1));
  write.Input(Tensor::FromVector<float>({5, 6}, TensorShape({2}))).Input(Tensor::Scalar<float>(0));
  write.SetStepResources(&step_);
  RILL_ASSERT_OK(write.Run().status());

  OpTester read("TensorArrayReadV2");
  read.Attr("dtype", DT_FLOAT).Input(h).Input(Tensor::Scalar<int32_t>(1));
  read.Input(Tensor::Scalar<float>(0)).SetStepResources(&step_);
  RILL_ASSERT_OK_AND_ASSIGN(std::vector<Tensor> got, read.Run());
  ExpectTensorEqual(got[0], Tensor::FromVector<float>({5, 6}, TensorShape({2})));

  OpTester size("TensorArraySizeV2");
  size.Input(h).Input(Tensor::Scalar<float>(0)).SetStepResources(&step_);
  RILL_ASSERT_OK_AND_ASSIGN(std::vector<Tensor> n, size.Run());
  EXPECT_EQ(n[0].flat<int32_t>()[0], 2);

  OpTester grad("TensorArrayGradV2");
  grad.Attr("source", std::string("gradients")).Input(h).Input(Tensor::Scalar<float>(0));
  grad.SetStepResources(&step_);
  RILL_ASSERT_OK_AND_ASSIGN(std::vector<Tensor> g, grad.Run());
  ASSERT_EQ(g.size(), 1u);
  EXPECT_EQ(g[0].shape(), TensorShape({2}));

  OpTester close("TensorArrayCloseV2");
  close.Input(h).SetStepResources(&step_);
  RILL_ASSERT_OK(close.Run().status());
  OpTester again("TensorArraySizeV2");
  again.Input(h).Input(Tensor::Scalar<float>(0)).SetStepResources(&step_);
  EXPECT_THAT(again.Run().status(),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("has already been closed.")));
}

// The V1 names of TF 0.x graphs: TensorArray and TensorArrayGrad output a ref to the string
// vector handle (which the array holds), the other ops read it through a ref input; Pack and
// Unpack stack and unstack every element, Unpack needing one row per element.
TEST_F(TensorArrayTest, V1NamesUseRefHandles) {
  OpTester make("TensorArray", "oldest");
  make.Attr("dtype", DT_FLOAT).Input(Tensor::Scalar<int32_t>(2)).SetStepResources(&step_);
  RILL_ASSERT_OK(make.Init());
  RILL_ASSERT_OK_AND_ASSIGN(std::vector<TensorValue> made, make.RunWith(make.inputs()));
  ASSERT_EQ(made.size(), 1u);
  ASSERT_TRUE(made[0].is_ref());
  const Tensor h = made[0].Get();
  ASSERT_EQ(h.shape(), TensorShape({2}));
  EXPECT_EQ(h.flat<std::string>()[0], "_tensor_arrays");

  OpTester unpack("TensorArrayUnpack");
  unpack.Attr("T", DT_FLOAT).InputValue(made[0]);
  unpack.Input(Tensor::FromVector<float>({1, 2, 3, 4}, TensorShape({2, 2})));
  unpack.Input(Tensor::Scalar<float>(0)).SetStepResources(&step_);
  RILL_ASSERT_OK(unpack.Run().status());

  OpTester pack("TensorArrayPack");
  pack.Attr("dtype", DT_FLOAT).InputValue(made[0]).Input(Tensor::Scalar<float>(0));
  pack.SetStepResources(&step_);
  RILL_ASSERT_OK_AND_ASSIGN(std::vector<Tensor> got, pack.Run());
  ExpectTensorEqual(got[0], Tensor::FromVector<float>({1, 2, 3, 4}, TensorShape({2, 2})));

  OpTester grad("TensorArrayGrad");
  grad.Attr("source", std::string("gradients")).Input(h).Input(Tensor::Scalar<float>(0));
  grad.SetStepResources(&step_);
  RILL_ASSERT_OK(grad.Init());
  RILL_ASSERT_OK_AND_ASSIGN(std::vector<TensorValue> g, grad.RunWith(grad.inputs()));
  ASSERT_EQ(g.size(), 1u);
  ASSERT_TRUE(g[0].is_ref());
  EXPECT_EQ(g[0].Get().flat<std::string>()[1], h.flat<std::string>()[1] + "@gradients");

  OpTester too_few("TensorArrayUnpack");
  too_few.Attr("T", DT_FLOAT).InputValue(g[0]);
  too_few.Input(Tensor::FromVector<float>({1, 2}, TensorShape({1, 2})));
  too_few.Input(Tensor::Scalar<float>(0)).SetStepResources(&step_);
  EXPECT_THAT(too_few.Run().status(),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("Input value must have first dimension equal to the array size "
                                 "(1 vs. 2)")));
}

TEST_F(TensorArrayTest, ConcatJoinsElementsOfDifferentLengths) {
  OpTester make("TensorArrayV3", "ragged");
  make.Attr("dtype", DT_FLOAT).ShapeAttr("element_shape", {-1, 2});
  make.Input(Tensor::Scalar<int32_t>(3));
  make.SetStepResources(&step_);
  RILL_ASSERT_OK_AND_ASSIGN(std::vector<Tensor> made, make.Run());
  const Tensor h = made[0];
  ASSERT_THAT(Write(h, 0, Tensor::FromVector<float>({1, 2, 3, 4}, TensorShape({2, 2}))), IsOk());
  ASSERT_THAT(Write(h, 1, Tensor::FromVector<float>({}, TensorShape({0, 2}))), IsOk());
  ASSERT_THAT(Write(h, 2, Tensor::FromVector<float>({5, 6}, TensorShape({1, 2}))), IsOk());
  OpTester t("TensorArrayConcatV3");
  t.Attr("dtype", DT_FLOAT).Input(h).Input(Tensor::Scalar<float>(0.f));
  t.SetStepResources(&step_);
  RILL_ASSERT_OK_AND_ASSIGN(std::vector<Tensor> out, t.Run());
  ExpectTensorEqual(out[0], Tensor::FromVector<float>({1, 2, 3, 4, 5, 6}, TensorShape({3, 2})));
  ExpectTensorEqual(out[1], Tensor::FromVector<int64_t>({2, 0, 1}, TensorShape({3})));
}

TEST_F(TensorArrayTest, SplitWritesRowsByLengthsAndChecksThem) {
  auto split = [&](const Tensor& h, const Tensor& value, std::vector<int64_t> lengths) {
    OpTester t("TensorArraySplitV3");
    t.Attr("T", DT_FLOAT).Input(h).Input(value);
    t.Input(
        Tensor::FromVector<int64_t>(lengths, TensorShape({static_cast<int64_t>(lengths.size())})));
    t.Input(Tensor::Scalar<float>(0.f));
    t.SetStepResources(&step_);
    return t.Run().status();
  };
  const Tensor value = Tensor::FromVector<float>({1, 2, 3, 4, 5, 6}, TensorShape({3, 2}));
  Tensor h = NewArray(3, /*clear_after_read=*/false);
  ASSERT_THAT(split(h, value, {2, 0, 1}), IsOk());
  RILL_ASSERT_OK_AND_ASSIGN(Tensor first, Read(h, 0));
  ExpectTensorEqual(first, Tensor::FromVector<float>({1, 2, 3, 4}, TensorShape({2, 2})));
  RILL_ASSERT_OK_AND_ASSIGN(Tensor empty, Read(h, 1));
  EXPECT_EQ(empty.shape(), TensorShape({0, 2}));
  RILL_ASSERT_OK_AND_ASSIGN(Tensor last, Read(h, 2));
  ExpectTensorEqual(last, Tensor::FromVector<float>({5, 6}, TensorShape({1, 2})));
  EXPECT_THAT(split(NewArray(2), value, {1, 1}),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       "Expected sum of lengths to be equal to values.shape[0], but sum of "
                       "lengths is 2 and value's shape is: [3,2]"));
  EXPECT_THAT(split(NewArray(2), value, {1, 1, 1}),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       "TensorArray's size is not equal to the size of lengths (2 vs. 3), and "
                       "the TensorArray is not marked as dynamically resizeable"));
  EXPECT_THAT(split(NewArray(1), Tensor::Scalar<float>(1.f), {1}),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       "Expected value to be at least a vector, but received shape: []"));
  // A negative length never reads past the value: the sum check reports it.
  EXPECT_THAT(split(NewArray(2), value, {4, -1}),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       testing::HasSubstr("Expected sum of lengths to be equal")));
}

TEST_F(TensorArrayTest, WriteReadSizeAndClose) {
  Tensor h = NewArray(2);
  const Tensor v = Tensor::FromVector<float>({1, 2}, TensorShape({2}));
  ASSERT_THAT(Write(h, 1, v), IsOk());
  RILL_ASSERT_OK_AND_ASSIGN(Tensor got, Read(h, 1));
  ExpectTensorEqual(got, v);
  OpTester size("TensorArraySizeV3");
  size.Input(h).Input(Tensor::Scalar<float>(0.f));
  size.SetStepResources(&step_);
  RILL_ASSERT_OK_AND_ASSIGN(std::vector<Tensor> n, size.Run());
  EXPECT_EQ(n[0].flat<int32_t>()[0], 2);
  OpTester close("TensorArrayCloseV3");
  close.Input(h);
  close.SetStepResources(&step_);
  EXPECT_THAT(close.Run().status(), IsOk());
  // A closed array refuses every use but another Close (TensorFlow's LockedReturnIfClosed).
  const std::string closed =
      "TensorArray ta:" + std::to_string(CounterOf(h)) + " has already been closed.";
  EXPECT_THAT(Write(h, 0, v), StatusIs(absl::StatusCode::kInvalidArgument, closed));
  EXPECT_THAT(Read(h, 1).status(), StatusIs(absl::StatusCode::kInvalidArgument, closed));
  EXPECT_THAT(size.Run().status(), StatusIs(absl::StatusCode::kInvalidArgument, closed));
  EXPECT_THAT(close.Run().status(), IsOk());
}

TEST_F(TensorArrayTest, ErrorsAreTensorFlows) {
  Tensor h = NewArray(2);
  const Tensor v = Tensor::FromVector<float>({1, 2}, TensorShape({2}));
  EXPECT_THAT(Write(h, 2, v), StatusIs(absl::StatusCode::kInvalidArgument,
                                       "Tried to write to index 2 but array is not resizeable "
                                       "and size is: 2"));
  EXPECT_THAT(Write(h, 0, Tensor::Scalar<int32_t>(1)),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       "TensorArray dtype is float but Op is trying to write dtype int32."));
  ASSERT_THAT(Write(h, 0, v), IsOk());
  EXPECT_THAT(Write(h, 0, v), StatusIs(absl::StatusCode::kInvalidArgument,
                                       "Could not write to TensorArray index 0 because it has "
                                       "already been written to."));
  ASSERT_THAT(Read(h, 0).status(), IsOk());
  EXPECT_THAT(Read(h, 0).status(),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("Could not read index 0 twice because it was cleared")));
  // Without identical_element_shapes a write does not fix the element shape (TensorFlow 2.21
  // answers the same): the unwritten element's shape is unknown, and reading it is an error.
  EXPECT_THAT(Read(h, 1).status(),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("Could not read from TensorArray index 1.  Furthermore, the "
                                 "element shape is not fully defined")));
  // With it (tf.TensorArray's infer_shape), the first write fixes [2]: zeros.
  OpTester make("TensorArrayV3", "identical");
  make.Attr("dtype", DT_FLOAT).Attr("identical_element_shapes", true);
  make.Input(Tensor::Scalar<int32_t>(2));
  make.SetStepResources(&step_);
  RILL_ASSERT_OK_AND_ASSIGN(std::vector<Tensor> made, make.Run());
  ASSERT_THAT(Write(made[0], 0, v), IsOk());
  RILL_ASSERT_OK_AND_ASSIGN(Tensor zeros, Read(made[0], 1));
  ExpectTensorEqual(zeros, Tensor::FromVector<float>({0, 0}, TensorShape({2})));
}

TEST_F(TensorArrayTest, HandleFromAnotherStepIsNotFound) {
  Tensor h = NewArray(1);
  ResourceMgr other_step;
  OpTester t("TensorArraySizeV3");
  t.Input(h).Input(Tensor::Scalar<float>(0.f));
  t.SetStepResources(&other_step);
  EXPECT_THAT(t.Run().status(),
              StatusIs(absl::StatusCode::kNotFound, HasSubstr("does not exist in this step")));
}

// Issue 26: a size or write index read from a value that the host cannot hold is
// ResourceExhausted, not std::bad_alloc (or the OOM killer) ending the process.
TEST_F(TensorArrayTest, SizeOrWritePastMemoryIsResourceExhausted) {
  constexpr int32_t kMax = std::numeric_limits<int32_t>::max();
  const uint64_t physical =
      static_cast<uint64_t>(sysconf(_SC_PHYS_PAGES)) * static_cast<uint64_t>(sysconf(_SC_PAGESIZE));
  if (uint64_t{kMax} * sizeof(Tensor) <= physical) GTEST_SKIP() << "this host could hold them";
  OpTester t("TensorArrayV3", "ta");
  t.Attr("dtype", DT_FLOAT).Input(Tensor::Scalar<int32_t>(kMax));
  t.SetStepResources(&step_);
  EXPECT_THAT(t.Run(), StatusIs(absl::StatusCode::kResourceExhausted,
                                HasSubstr("OOM when allocating a TensorArray of 2147483647")));
  OpTester d("TensorArrayV3", "dynamic");
  d.Attr("dtype", DT_FLOAT).Attr("dynamic_size", true).Input(Tensor::Scalar<int32_t>(0));
  d.SetStepResources(&step_);
  RILL_ASSERT_OK_AND_ASSIGN(std::vector<Tensor> h, d.Run());
  EXPECT_THAT(Write(h[0], kMax - 1, Tensor::FromVector<float>({1}, TensorShape({1}))),
              StatusIs(absl::StatusCode::kResourceExhausted,
                       HasSubstr("OOM when allocating a TensorArray of 2147483647")));
}

}  // namespace
}  // namespace rill
