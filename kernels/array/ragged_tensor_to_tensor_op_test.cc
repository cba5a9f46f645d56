#include <string>
#include <vector>

#include "core/status_matchers.h"
#include "gtest/gtest.h"
#include "kernels/framework/op_test_util.h"

namespace rill {
namespace {

absl::StatusOr<std::vector<Tensor>> ToTensor(const Tensor& shape, const Tensor& values,
                                             const Tensor& fill,
                                             const std::vector<Tensor>& partitions,
                                             const std::vector<std::string>& types) {
  OpTester t("RaggedTensorToTensor");
  AttrValue type_list;
  for (const std::string& s : types) type_list.mutable_list()->add_s(s);
  t.Attr("T", values.dtype())
      .Attr("Tindex", DT_INT64)
      .Attr("Tshape", DT_INT64)
      .Attr("num_row_partition_tensors", static_cast<int64_t>(partitions.size()))
      .Attr("row_partition_types", type_list)
      .Input(shape)
      .Input(values)
      .Input(fill);
  for (const Tensor& p : partitions) t.Input(p);
  return t.Run();
}

Tensor I64(std::vector<int64_t> v) {
  const int64_t n = v.size();
  return Tensor::FromVector<int64_t>(std::move(v), TensorShape({n}));
}

const Tensor kValues = Tensor::FromVector<int32_t>({1, 2, 3, 4, 5, 6, 7}, TensorShape({7}));

TEST(RaggedTensorToTensorOpTest, RowSplitsPadToTheLongestRow) {
  RILL_ASSERT_OK_AND_ASSIGN(
      auto out, ToTensor(Tensor::Scalar<int64_t>(-1), kValues, Tensor::Scalar<int32_t>(0),
                         {I64({0, 3, 3, 7})}, {"ROW_SPLITS"}));
  ExpectTensorEqual(out[0], Tensor::FromVector<int32_t>({1, 2, 3, 0, 0, 0, 0, 0, 4, 5, 6, 7},
                                                        TensorShape({3, 4})));
}

TEST(RaggedTensorToTensorOpTest, ValueRowIdsTruncatedAndPaddedToTheShape) {
  // Rows [1 2], [3 4 5], [], [6 7] into a [3, 2] tensor: row 3 is cut off, row 1 truncated.
  RILL_ASSERT_OK_AND_ASSIGN(auto out,
                            ToTensor(I64({3, 2}), kValues, Tensor::Scalar<int32_t>(-1),
                                     {Tensor::Scalar<int64_t>(4), I64({0, 0, 1, 1, 1, 3, 3})},
                                     {"FIRST_DIM_SIZE", "VALUE_ROWIDS"}));
  ExpectTensorEqual(out[0], Tensor::FromVector<int32_t>({1, 2, 3, 4, -1, -1}, TensorShape({3, 2})));
}

TEST(RaggedTensorToTensorOpTest, StringsWithInnerDimsAndTwoRaggedLevels) {
  RILL_ASSERT_OK_AND_ASSIGN(
      auto out,
      ToTensor(I64({-1, 3}), Tensor::FromVector<std::string>({"the", "fox", "a"}, TensorShape({3})),
               Tensor::Scalar<std::string>("<pad>"), {I64({0, 2, 2, 3})}, {"ROW_SPLITS"}));
  ExpectTensorEqual(out[0],
                    Tensor::FromVector<std::string>(
                        {"the", "fox", "<pad>", "<pad>", "<pad>", "<pad>", "a", "<pad>", "<pad>"},
                        TensorShape({3, 3})));
  // [[[1], [2, 3]], [[4, 5, 6, 7]]] -> [2, 2, 4].
  RILL_ASSERT_OK_AND_ASSIGN(
      out, ToTensor(Tensor::Scalar<int64_t>(-1), kValues, Tensor::Scalar<int32_t>(0),
                    {I64({0, 2, 3}), I64({0, 1, 3, 7})}, {"ROW_SPLITS", "ROW_SPLITS"}));
  ExpectTensorEqual(out[0],
                    Tensor::FromVector<int32_t>({1, 0, 0, 0, 2, 3, 0, 0, 4, 5, 6, 7, 0, 0, 0, 0},
                                                TensorShape({2, 2, 4})));
}

TEST(RaggedTensorToTensorOpTest, ErrorsAreTensorFlows) {
  EXPECT_THAT(ToTensor(I64({2, 3, 4}), kValues, Tensor::Scalar<int32_t>(0), {I64({0, 3, 3, 7})},
                       {"ROW_SPLITS"})
                  .status(),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       "rt_input.shape and shape=[2,3,4] are incompatible: rt_input.rank = 2 but "
                       "shape.rank = 3"));
  EXPECT_THAT(ToTensor(Tensor::Scalar<int64_t>(-1), kValues, Tensor::Scalar<int32_t>(0),
                       {I64({0, 2, 3}), I64({0, 1, 1, 4, 7})}, {"ROW_SPLITS", "ROW_SPLITS"})
                  .status(),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       "Row partition size is greater than output size: 4 > 3"));
  // -1 computes a dim; -2 is no dim at all.
  EXPECT_THAT(
      ToTensor(I64({-2, 2}), kValues, Tensor::Scalar<int32_t>(0), {I64({0, 3, 7})}, {"ROW_SPLITS"})
          .status(),
      StatusIs(absl::StatusCode::kInvalidArgument, "Invalid value in tensor used for shape: -2"));
}

}  // namespace
}  // namespace rill
