#include <string>
#include <vector>

#include "core/status_matchers.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "kernels/framework/op_test_util.h"
#include "proto/example.pb.h"

namespace rill {
namespace {

using ::testing::HasSubstr;

// A SequenceExample with context "c" (floats) and feature lists "f" (one float list per step)
// and "r" (int64 steps).
std::string Record(const std::vector<float>& c, const std::vector<std::vector<float>>& f,
                   const std::vector<std::vector<int64_t>>& r) {
  SequenceExample e;
  auto& context = *e.mutable_context()->mutable_feature();
  for (float v : c) context["c"].mutable_float_list()->add_value(v);
  auto& lists = *e.mutable_feature_lists()->mutable_feature_list();
  for (const auto& step : f) {
    Feature* s = lists["f"].add_feature();
    s->mutable_float_list();
    for (float v : step) s->mutable_float_list()->add_value(v);
  }
  for (const auto& step : r) {
    Feature* s = lists["r"].add_feature();
    s->mutable_int64_list();
    for (int64_t v : step) s->mutable_int64_list()->add_value(v);
  }
  return e.SerializeAsString();
}

AttrValue Shapes(const std::vector<std::vector<int64_t>>& shapes) {
  AttrValue v;
  auto* list = v.mutable_list();
  for (const auto& dims : shapes) {
    TensorShapeProto* s = list->add_shape();
    for (int64_t d : dims) s->add_dim()->set_size(d);
  }
  return v;
}

Tensor Strings(const std::vector<std::string>& v) {
  return Tensor::FromVector<std::string>(v, TensorShape({static_cast<int64_t>(v.size())}));
}

// ParseSequenceExampleV2 with context dense "c" ([2], default `c_default`), feature-list dense
// "f" ([2]; may be missing when `f_may_be_missing`) and feature-list ragged "r" (int64 splits).
absl::StatusOr<std::vector<Tensor>> ParseV2(const Tensor& serialized, const Tensor& c_default,
                                            bool f_may_be_missing) {
  OpTester t("ParseSequenceExampleV2");
  t.Attr("Ncontext_sparse", int64_t{0})
      .Attr("Tcontext_dense", std::vector<DataType>{DT_FLOAT})
      .Attr("context_sparse_types", std::vector<DataType>{})
      .Attr("context_ragged_value_types", std::vector<DataType>{})
      .Attr("context_ragged_split_types", std::vector<DataType>{})
      .Attr("context_dense_shapes", Shapes({{2}}))
      .Attr("Nfeature_list_sparse", int64_t{0})
      .Attr("Nfeature_list_dense", int64_t{1})
      .Attr("feature_list_dense_types", std::vector<DataType>{DT_FLOAT})
      .Attr("feature_list_sparse_types", std::vector<DataType>{})
      .Attr("feature_list_ragged_value_types", std::vector<DataType>{DT_INT64})
      .Attr("feature_list_ragged_split_types", std::vector<DataType>{DT_INT64})
      .Attr("feature_list_dense_shapes", Shapes({{2}}));
  t.Input(serialized)
      .Input(Strings({}))
      .Input(Strings({}))
      .Input(Strings({"c"}))
      .Input(Strings({}))
      .Input(Strings({}))
      .Input(Strings({"f"}))
      .Input(Strings({"r"}))
      .Input(Tensor::FromVector<bool>({f_may_be_missing}, TensorShape({1})))
      .Input(c_default);
  return t.Run();
}

TEST(ParseSequenceExampleV2Test, PadsFeatureListsAndSplitsRaggedOnes) {
  const Tensor defaults = Tensor::FromVector<float>({7, 8}, TensorShape({2}));
  RILL_ASSERT_OK_AND_ASSIGN(auto out,
                            ParseV2(Strings({Record({1, 2}, {{1, 2}, {3, 4}}, {{5}, {}, {6, 7}}),
                                             Record({}, {}, {{8}}), Record({}, {{9, 10}}, {})}),
                                    defaults, /*f_may_be_missing=*/true));
  ASSERT_EQ(out.size(), 6u);
  ExpectTensorEqual(out[0], Tensor::FromVector<float>({1, 2, 7, 8, 7, 8}, TensorShape({3, 2})));
  ExpectTensorEqual(out[1], Tensor::FromVector<float>({1, 2, 3, 4, 0, 0, 0, 0, 9, 10, 0, 0},
                                                      TensorShape({3, 2, 2})));
  ExpectTensorEqual(out[2], Tensor::FromVector<int64_t>({2, 0, 1}, TensorShape({3})));
  ExpectTensorEqual(out[3], Tensor::FromVector<int64_t>({5, 6, 7, 8}, TensorShape({4})));
  ExpectTensorEqual(out[4], Tensor::FromVector<int64_t>({0, 3, 4, 4}, TensorShape({4})));
  ExpectTensorEqual(out[5], Tensor::FromVector<int64_t>({0, 1, 1, 3, 4}, TensorShape({5})));
}

TEST(ParseSequenceExampleV2Test, TensorFlowsErrors) {
  const Tensor required(DT_FLOAT, TensorShape({0}));
  const Tensor defaults = Tensor::FromVector<float>({7, 8}, TensorShape({2}));
  // "f" is required: a record without it fails (the empty record is record 1).
  EXPECT_THAT(ParseV2(Strings({Record({1, 2}, {{1, 2}}, {}), ""}), defaults, false).status(),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("Name: <unknown>, Feature list 'f' is required but could not be "
                                 "found.")));
  EXPECT_THAT(ParseV2(Strings({Record({1, 2}, {{1, 2}, {3}}, {})}), required, false).status(),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("Name: <unknown>, Key: f, Index: 1.  Number of values != "
                                 "expected.  values size: 1 but output shape: [2]")));
  EXPECT_THAT(
      ParseV2(Strings({Record({1, 2}, {}, {}), Record({}, {}, {})}), required, true).status(),
      StatusIs(absl::StatusCode::kInvalidArgument,
               HasSubstr("Feature: c (data type: float) is required but could not be "
                         "found.")));
  EXPECT_THAT(ParseV2(Strings({std::string("\x0a\x05", 2)}), required, true).status(),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("Invalid protocol message input, example id: <unknown>")));
}

TEST(ParseSequenceExampleTest, ScalarRecordHasNoBatchDimension) {
  OpTester t("ParseSequenceExample");
  t.Attr("feature_list_dense_missing_assumed_empty", std::vector<std::string>{})
      .Attr("context_sparse_keys", std::vector<std::string>{})
      .Attr("context_dense_keys", std::vector<std::string>{"c"})
      .Attr("feature_list_sparse_keys", std::vector<std::string>{"r"})
      .Attr("feature_list_dense_keys", std::vector<std::string>{"f"})
      .Attr("Ncontext_sparse", int64_t{0})
      .Attr("Ncontext_dense", int64_t{1})
      .Attr("Nfeature_list_sparse", int64_t{1})
      .Attr("Nfeature_list_dense", int64_t{1})
      .Attr("context_sparse_types", std::vector<DataType>{})
      .Attr("Tcontext_dense", std::vector<DataType>{DT_FLOAT})
      .Attr("feature_list_dense_types", std::vector<DataType>{DT_FLOAT})
      .Attr("context_dense_shapes", Shapes({{2}}))
      .Attr("feature_list_sparse_types", std::vector<DataType>{DT_INT64})
      .Attr("feature_list_dense_shapes", Shapes({{2}}));
  t.Input(Tensor::Scalar<std::string>(Record({1, 2}, {{3, 4}}, {{5}, {}, {6, 7}})))
      .Input(Strings({}))
      .Input(Tensor(DT_FLOAT, TensorShape({0})));
  RILL_ASSERT_OK_AND_ASSIGN(auto out, t.Run());
  ASSERT_EQ(out.size(), 6u);
  ExpectTensorEqual(out[0], Tensor::FromVector<float>({1, 2}, TensorShape({2})));
  // Feature-list sparse "r": indices (step, index), values, shape [steps, longest].
  ExpectTensorEqual(out[1], Tensor::FromVector<int64_t>({0, 0, 2, 0, 2, 1}, TensorShape({3, 2})));
  ExpectTensorEqual(out[2], Tensor::FromVector<int64_t>({5, 6, 7}, TensorShape({3})));
  ExpectTensorEqual(out[3], Tensor::FromVector<int64_t>({3, 2}, TensorShape({2})));
  ExpectTensorEqual(out[4], Tensor::FromVector<float>({3, 4}, TensorShape({1, 2})));
  ExpectTensorEqual(out[5], Tensor::FromVector<int64_t>({1}, TensorShape({})));
}

}  // namespace
}  // namespace rill
