#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "core/status_macros.h"
#include "core/status_matchers.h"
#include "core/variant.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "kernels/framework/op_test_util.h"

namespace rill {
namespace {

// A list(shape) attr of known-rank shapes (-1: an unknown dim).
AttrValue Shapes(const std::vector<std::vector<int64_t>>& shapes) {
  AttrValue v;
  for (const std::vector<int64_t>& dims : shapes) {
    TensorShapeProto* s = v.mutable_list()->add_shape();
    for (int64_t d : dims) s->add_dim()->set_size(d);
  }
  return v;
}

// Runs each op of a TensorDataset -> Iterator -> MakeIterator -> IteratorGetNext graph on one
// device, as a session's steps do.
class DatasetOpsTest : public ::testing::Test {
 protected:
  DatasetOpsTest() : device_(NewCpuDevice(kTestCpuDevice)) {}

  absl::StatusOr<Tensor> Dataset(const std::vector<Tensor>& components,
                                 const std::vector<std::vector<int64_t>>& shapes) {
    OpTester t("TensorDataset", "ds", device_.get());
    std::vector<DataType> types;
    for (const Tensor& c : components) {
      types.push_back(c.dtype());
      t.Input(c);
    }
    t.Attr("Toutput_types", types).Attr("output_shapes", Shapes(shapes));
    RILL_ASSIGN_OR_RETURN(std::vector<Tensor> out, t.Run());
    return out[0];
  }
  absl::StatusOr<Tensor> Iterator(const std::string& node, const std::string& shared_name,
                                  const std::vector<DataType>& types,
                                  const std::vector<std::vector<int64_t>>& shapes) {
    OpTester t("Iterator", node, device_.get());
    t.Attr("shared_name", shared_name).Attr("container", "");
    t.Attr("output_types", types).Attr("output_shapes", Shapes(shapes));
    RILL_ASSIGN_OR_RETURN(std::vector<Tensor> out, t.Run());
    return out[0];
  }
  absl::Status Make(const Tensor& dataset, const Tensor& iterator) {
    OpTester t("MakeIterator", "init", device_.get());
    t.Input(dataset).Input(iterator);
    return t.Run().status();
  }
  absl::StatusOr<std::vector<Tensor>> GetNext(const Tensor& iterator,
                                              const std::vector<DataType>& types,
                                              const std::vector<std::vector<int64_t>>& shapes) {
    OpTester t("IteratorGetNext", "next", device_.get());
    t.Input(iterator).Attr("output_types", types).Attr("output_shapes", Shapes(shapes));
    return t.Run();
  }

  std::unique_ptr<Device> device_;
};

const Tensor kPair = Tensor::FromVector<int32_t>({21718, 31415}, TensorShape({2}));

TEST_F(DatasetOpsTest, OneElementThenEndOfSequenceUntilMadeAgain) {
  // TensorFlow's Go binding's TestDataset, and TensorFlow 2.21's errors around it.
  RILL_ASSERT_OK_AND_ASSIGN(Tensor ds, Dataset({kPair}, {{2}}));
  RILL_ASSERT_OK_AND_ASSIGN(Tensor it, Iterator("it", "", {DT_INT32}, {{2}}));
  EXPECT_EQ(it.flat<std::string>()[0], "localhost/_it");
  EXPECT_THAT(GetNext(it, {DT_INT32}, {{2}}),
              StatusIs(absl::StatusCode::kFailedPrecondition,
                       "GetNext() failed because the iterator has not been initialized. Ensure "
                       "that you have run the initializer operation for this iterator before "
                       "getting the next element."));
  RILL_ASSERT_OK(Make(ds, it));
  RILL_ASSERT_OK_AND_ASSIGN(std::vector<Tensor> next, GetNext(it, {DT_INT32}, {{2}}));
  ASSERT_EQ(next.size(), 1u);
  ExpectTensorEqual(next[0], kPair);
  EXPECT_THAT(GetNext(it, {DT_INT32}, {{2}}),
              StatusIs(absl::StatusCode::kOutOfRange, "End of sequence"));
  EXPECT_THAT(GetNext(it, {DT_INT32}, {{2}}),
              StatusIs(absl::StatusCode::kOutOfRange, "End of sequence"));
  RILL_ASSERT_OK(Make(ds, it));
  RILL_ASSERT_OK_AND_ASSIGN(next, GetNext(it, {DT_INT32}, {{-1}}));
  ExpectTensorEqual(next[0], kPair);
}

TEST_F(DatasetOpsTest, TensorDatasetChecksTheShapesAttr) {
  const Tensor v = Tensor::FromVector<float>({1, 2, 3}, TensorShape({3}));
  EXPECT_THAT(Dataset({v}, {{3}, {2}}),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       "Number of components does not match: expected 1 shapes but got 2."));
  EXPECT_THAT(Dataset({v}, {{3, 1}}),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       "Incompatible shapes at component 0: expected [3] but got [3,1]."));
  RILL_ASSERT_OK_AND_ASSIGN(Tensor ds, Dataset({v}, {{-1}}));
  EXPECT_EQ(ds.flat<Variant>()[0].DebugString(), "TensorDatasetOp::Dataset<float [?]>");
}

TEST_F(DatasetOpsTest, MakeIteratorChecksTheDatasetAgainstTheIterator) {
  RILL_ASSERT_OK_AND_ASSIGN(
      Tensor ds, Dataset({Tensor::FromVector<float>({1, 2, 3}, TensorShape({3}))}, {{3}}));
  RILL_ASSERT_OK_AND_ASSIGN(Tensor ints, Iterator("a", "", {DT_INT32}, {{2}}));
  EXPECT_THAT(Make(ds, ints), StatusIs(absl::StatusCode::kInvalidArgument,
                                       "Data type mismatch at component 0: expected int32 but "
                                       "got float."));
  RILL_ASSERT_OK_AND_ASSIGN(Tensor pairs, Iterator("b", "", {DT_FLOAT}, {{2}}));
  EXPECT_THAT(Make(ds, pairs), StatusIs(absl::StatusCode::kInvalidArgument,
                                        "Incompatible shapes at component 0: expected [2] but "
                                        "got [3]."));
  RILL_ASSERT_OK_AND_ASSIGN(Tensor two, Iterator("c", "", {DT_FLOAT, DT_FLOAT}, {{3}, {3}}));
  EXPECT_THAT(Make(ds, two), StatusIs(absl::StatusCode::kInvalidArgument,
                                      "Number of components does not match: expected 2 types "
                                      "but got 1."));
  Tensor not_a_dataset(DT_VARIANT, TensorShape());
  EXPECT_THAT(Make(not_a_dataset, two),
              StatusIs(absl::StatusCode::kInvalidArgument, "Tensor must be a Dataset object."));
  EXPECT_THAT(Make(Tensor(DT_VARIANT, TensorShape({2})), two),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       "Dataset tensor must be a scalar of dtype DT_VARIANT."));
  EXPECT_THAT(Make(ds, Tensor::FromVector<std::string>({"localhost/none"}, TensorShape({}))),
              StatusIs(absl::StatusCode::kNotFound, "Resource localhost/none does not exist."));
}

TEST_F(DatasetOpsTest, GetNextChecksItsAttrsAgainstTheElementItTook) {
  const Tensor v = Tensor::FromVector<float>({1, 2, 3}, TensorShape({3}));
  const Tensor five = Tensor::FromVector<int32_t>({5}, TensorShape({}));
  RILL_ASSERT_OK_AND_ASSIGN(Tensor ds, Dataset({v, five}, {{3}, {}}));
  RILL_ASSERT_OK_AND_ASSIGN(Tensor it, Iterator("it", "s", {DT_FLOAT, DT_INT32}, {{3}, {}}));
  EXPECT_EQ(it.flat<std::string>()[0], "localhost/s");
  RILL_ASSERT_OK(Make(ds, it));
  EXPECT_THAT(GetNext(it, {DT_FLOAT}, {{3}}),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       "Number of components does not match: expected 1 types but got 2."));
  // The element was taken.
  EXPECT_THAT(GetNext(it, {DT_FLOAT, DT_INT32}, {{3}, {}}),
              StatusIs(absl::StatusCode::kOutOfRange, "End of sequence"));
  RILL_ASSERT_OK(Make(ds, it));
  EXPECT_THAT(GetNext(it, {DT_FLOAT, DT_INT32}, {{2}, {}}),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       "Incompatible shapes at component 0: expected [2] but got [3]."));
  RILL_ASSERT_OK(Make(ds, it));
  EXPECT_THAT(GetNext(it, {DT_INT32, DT_INT32}, {{3}, {}}),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       "Data type mismatch at component 0: expected int32 but got float."));
}

TEST_F(DatasetOpsTest, ASharedNameHoldsOneIteratorOfItsTypes) {
  RILL_ASSERT_OK(Iterator("a", "x", {DT_INT32}, {{3}}).status());
  RILL_ASSERT_OK(Iterator("b", "x", {DT_INT32}, {{-1}}).status());
  EXPECT_THAT(Iterator("c", "x", {DT_FLOAT}, {{3}}),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       "Data type mismatch at component 0: expected float but got int32."));
}

}  // namespace
}  // namespace rill
