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

AttrValue Shapes(const std::vector<std::vector<int64_t>>& shapes) {
  AttrValue v;
  auto* list = v.mutable_list();
  for (const auto& dims : shapes) {
    TensorShapeProto* s = list->add_shape();
    for (int64_t d : dims) s->add_dim()->set_size(d);
  }
  return v;
}

// A record with context "c" (two floats) and feature list "f" of `steps` (strings).
std::string Record(const std::vector<std::vector<std::string>>& steps) {
  SequenceExample e;
  auto& c = (*e.mutable_context()->mutable_feature())["c"];
  c.mutable_float_list()->add_value(1.5f);
  c.mutable_float_list()->add_value(-2.0f);
  auto& f = (*e.mutable_feature_lists()->mutable_feature_list())["f"];
  for (const auto& step : steps) {
    Feature* s = f.add_feature();
    s->mutable_bytes_list();
    for (const std::string& v : step) s->mutable_bytes_list()->add_value(v);
  }
  return e.SerializeAsString();
}

// Context dense "c" ([2], required) and feature-list dense `list_key` ([1] strings), which may
// be missing when listed in `may_be_missing`.
absl::StatusOr<std::vector<Tensor>> Parse(const std::string& record, const std::string& list_key,
                                          const std::vector<std::string>& may_be_missing) {
  OpTester t("ParseSingleSequenceExample");
  t.Attr("Ncontext_sparse", int64_t{0})
      .Attr("Ncontext_dense", int64_t{1})
      .Attr("Nfeature_list_sparse", int64_t{0})
      .Attr("Nfeature_list_dense", int64_t{1})
      .Attr("context_sparse_types", std::vector<DataType>{})
      .Attr("Tcontext_dense", std::vector<DataType>{DT_FLOAT})
      .Attr("feature_list_dense_types", std::vector<DataType>{DT_STRING})
      .Attr("context_dense_shapes", Shapes({{2}}))
      .Attr("feature_list_sparse_types", std::vector<DataType>{})
      .Attr("feature_list_dense_shapes", Shapes({{1}}));
  t.Input(Tensor::Scalar<std::string>(record))
      .Input(Tensor::FromVector<std::string>(
          may_be_missing, TensorShape({static_cast<int64_t>(may_be_missing.size())})))
      .Input(Tensor::Scalar<std::string>("c"))
      .Input(Tensor::Scalar<std::string>(list_key))
      .Input(Tensor(DT_FLOAT, TensorShape({0})))
      .Input(Tensor::Scalar<std::string>("rec7"));
  return t.Run();
}

TEST(ParseSingleSequenceExampleTest, StepsAndMissingLists) {
  RILL_ASSERT_OK_AND_ASSIGN(auto out, Parse(Record({{"a"}, {"b"}}), "f", {}));
  ExpectTensorEqual(out[0], Tensor::FromVector<float>({1.5f, -2.0f}, TensorShape({2})));
  ExpectTensorEqual(out[1], Tensor::FromVector<std::string>({"a", "b"}, TensorShape({2, 1})));
  RILL_ASSERT_OK_AND_ASSIGN(out, Parse(Record({}), "g", {"g"}));
  EXPECT_EQ(out[1].shape().DebugString(), "[0,1]");
}

TEST(ParseSingleSequenceExampleTest, TensorFlowsErrors) {
  EXPECT_THAT(Parse(Record({}), "g", {}).status(),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("Name: rec7, Feature list 'g' is required but could not be "
                                 "found.")));
  // The bytes text has "Key f" and "Values size", as TensorFlow's.
  EXPECT_THAT(Parse(Record({{"a"}, {"b", "c"}}), "f", {}).status(),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("Name: rec7, Key f, Index: 1.  Number of bytes values != "
                                 "expected.  Values size: 2 but output shape: [1]")));
  EXPECT_THAT(Parse("", "f", {"f"}).status(),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("Name: rec7, Context feature 'c' is required but could not be "
                                 "found.")));
}

}  // namespace
}  // namespace rill
