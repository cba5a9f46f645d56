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

std::string Record(const std::vector<float>& a, const std::vector<int64_t>& b) {
  Example e;
  auto& map = *e.mutable_features()->mutable_feature();
  for (float v : a) map["a"].mutable_float_list()->add_value(v);
  for (int64_t v : b) map["b"].mutable_int64_list()->add_value(v);
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

// ParseExampleV2 with dense "a" (shape [2], default `a_default`) and sparse "b" (int64).
absl::StatusOr<std::vector<Tensor>> ParseV2(const Tensor& serialized, const Tensor& a_default) {
  OpTester t("ParseExampleV2");
  t.Attr("Tdense", std::vector<DataType>{DT_FLOAT})
      .Attr("num_sparse", int64_t{1})
      .Attr("sparse_types", std::vector<DataType>{DT_INT64})
      .Attr("ragged_value_types", std::vector<DataType>{})
      .Attr("ragged_split_types", std::vector<DataType>{})
      .Attr("dense_shapes", Shapes({{2}}));
  t.Input(serialized)
      .Input(Strings({}))
      .Input(Strings({"b"}))
      .Input(Strings({"a"}))
      .Input(Strings({}))
      .Input(a_default);
  return t.Run();
}

TEST(ParseExampleV2Test, DenseAndSparseFromTwoRecords) {
  Tensor defaults = Tensor::FromVector<float>({7, 8}, TensorShape({2}));
  RILL_ASSERT_OK_AND_ASSIGN(
      auto out, ParseV2(Strings({Record({1, 2}, {5, 6, 7}), Record({}, {})}), defaults));
  ExpectTensorEqual(out[0], Tensor::FromVector<int64_t>({0, 0, 0, 1, 0, 2}, TensorShape({3, 2})));
  ExpectTensorEqual(out[1], Tensor::FromVector<int64_t>({5, 6, 7}, TensorShape({3})));
  ExpectTensorEqual(out[2], Tensor::FromVector<int64_t>({2, 3}, TensorShape({2})));
  // The second record has three values of "a" where two were expected.
  EXPECT_THAT(ParseV2(Strings({Record({1, 2}, {}), Record({1, 2, 3}, {})}), defaults).status(),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("Key: a, Index: 1.  Number of float values != expected.  "
                                 "Values size: 3 but output shape: [2]")));
}

TEST(ParseExampleV2Test, MissingFeatureTakesDefaultAndUnknownFieldsAreSkipped) {
  Example e;
  (*e.mutable_features()->mutable_feature())["zz"].mutable_bytes_list()->add_value("x");
  // Field 7 of Example is unknown to TensorFlow too: skipped.
  const std::string record = e.SerializeAsString() + std::string("\x38\x01", 2);
  RILL_ASSERT_OK_AND_ASSIGN(
      auto out, ParseV2(Strings({record}), Tensor::FromVector<float>({7, 8}, TensorShape({2}))));
  ExpectTensorEqual(out[3], Tensor::FromVector<float>({7, 8}, TensorShape({1, 2})));
  ExpectTensorEqual(out[2], Tensor::FromVector<int64_t>({1, 0}, TensorShape({2})));
}

TEST(ParseExampleV2Test, RequiredFeatureAndGarbage) {
  Tensor required(DT_FLOAT, TensorShape({0}));
  EXPECT_THAT(ParseV2(Strings({Record({}, {1})}), required).status(),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("Name: <unknown>, Feature: a (data type: float) is required but "
                                 "could not be found.")));
  EXPECT_THAT(ParseV2(Strings({std::string("\x0a\x05", 2)}), required).status(),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("Could not parse example input, value: '")));
}

TEST(ParseExampleV2Test, UnknownInnerDimensionIsRefused) {
  OpTester t("ParseExampleV2");
  t.Attr("Tdense", std::vector<DataType>{DT_FLOAT})
      .Attr("num_sparse", int64_t{0})
      .Attr("sparse_types", std::vector<DataType>{})
      .Attr("ragged_value_types", std::vector<DataType>{})
      .Attr("ragged_split_types", std::vector<DataType>{})
      .Attr("dense_shapes", Shapes({{-1, -1}}));
  t.Input(Strings({}))
      .Input(Strings({}))
      .Input(Strings({}))
      .Input(Strings({"a"}))
      .Input(Strings({}))
      .Input(Tensor(DT_FLOAT, TensorShape({})));
  EXPECT_THAT(t.Init(), StatusIs(absl::StatusCode::kInvalidArgument,
                                 HasSubstr("dense_shapes[0] has unknown rank or unknown inner "
                                           "dimensions: [?,?]")));
}

}  // namespace
}  // namespace rill
