#include <cstdint>
#include <string>
#include <vector>

#include "core/status_matchers.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "kernels/framework/op_test_util.h"

namespace rill {
namespace {

using ::testing::HasSubstr;

Tensor I64(std::vector<int64_t> v, TensorShape shape) {
  return Tensor::FromVector<int64_t>(v, std::move(shape));
}
Tensor Str(std::vector<std::string> v, TensorShape shape) {
  return Tensor::FromVector<std::string>(v, std::move(shape));
}

// One sparse input (a string column) and one dense input, crossed.
absl::StatusOr<std::vector<Tensor>> Cross(const Tensor& indices, const Tensor& values,
                                          const Tensor& shape, const Tensor& dense, bool hashed,
                                          int64_t buckets, int64_t key) {
  OpTester t("SparseCross");
  t.Attr("N", int64_t{1})
      .Attr("hashed_output", hashed)
      .Attr("num_buckets", buckets)
      .Attr("hash_key", key)
      .Attr("sparse_types", std::vector<DataType>{values.dtype()})
      .Attr("dense_types", std::vector<DataType>{dense.dtype()})
      .Attr("out_type", hashed ? DT_INT64 : DT_STRING)
      .Attr("internal_type", hashed ? DT_INT64 : DT_STRING);
  t.Input(indices).Input(values).Input(shape).Input(dense);
  return t.Run();
}

TEST(SparseCrossOpTest, StringsJoinEveryCombinationLastInputFastest) {
  // Row 0 has two features, row 1 none (so no cross), row 2 one.
  RILL_ASSERT_OK_AND_ASSIGN(
      auto out, Cross(I64({0, 0, 0, 1, 2, 0}, TensorShape({3, 2})),
                      Str({"a", "b", "c"}, TensorShape({3})), I64({3, 2}, TensorShape({2})),
                      Str({"x", "y", "p", "q", "z", "w"}, TensorShape({3, 2})), false, 0, 0));
  ExpectTensorEqual(out[0], I64({0, 0, 0, 1, 0, 2, 0, 3, 2, 0, 2, 1}, TensorShape({6, 2})));
  ExpectTensorEqual(out[1],
                    Str({"a_X_x", "a_X_y", "b_X_x", "b_X_y", "c_X_z", "c_X_w"}, TensorShape({6})));
  ExpectTensorEqual(out[2], I64({3, 4}, TensorShape({2})));
}

TEST(SparseCrossOpTest, HashesAreTensorFlows) {
  // TensorFlow 2.21: tf.raw_ops.SparseCross of the string values ["a", "b", "c"] and the int64
  // values [1, 2, 3], both at indices [[0, 0], [0, 1], [1, 0]] of shape [2, 2], hash_key 1,
  // num_buckets 0 (out_type int64).
  OpTester t("SparseCross");
  t.Attr("N", int64_t{2})
      .Attr("hashed_output", true)
      .Attr("num_buckets", int64_t{0})
      .Attr("hash_key", int64_t{1})
      .Attr("sparse_types", std::vector<DataType>{DT_STRING, DT_INT64})
      .Attr("dense_types", std::vector<DataType>{})
      .Attr("out_type", DT_INT64)
      .Attr("internal_type", DT_INT64);
  const Tensor idx = I64({0, 0, 0, 1, 1, 0}, TensorShape({3, 2}));
  t.Input(idx).Input(idx);
  t.Input(Str({"a", "b", "c"}, TensorShape({3}))).Input(I64({1, 2, 3}, TensorShape({3})));
  t.Input(I64({2, 2}, TensorShape({2}))).Input(I64({2, 2}, TensorShape({2})));
  RILL_ASSERT_OK_AND_ASSIGN(auto out, t.Run());
  ExpectTensorEqual(out[1], I64({5670664487903396753, 3174910926921190586, 4952013414910054883,
                                 7563415403054151545, 87258341229934662},
                                TensorShape({5})));
  ExpectTensorEqual(out[2], I64({2, 4}, TensorShape({2})));
}

TEST(SparseCrossOpTest, RowsOutOfOrderBelongToNoRow) {
  // The cursor stands at the entry of row 1 while row 0 is read: row 0 gets nothing.
  RILL_ASSERT_OK_AND_ASSIGN(
      auto out,
      Cross(I64({1, 0, 0, 0}, TensorShape({2, 2})), Str({"a", "b"}, TensorShape({2})),
            I64({2, 1}, TensorShape({2})), Str({"x", "y"}, TensorShape({2, 1})), false, 0, 0));
  ExpectTensorEqual(out[1], Str({"a_X_y"}, TensorShape({1})));
}

TEST(SparseCrossOpTest, BadInputsAreInvalidArgument) {
  EXPECT_THAT(Cross(I64({0, 0}, TensorShape({2})), Str({"a"}, TensorShape({1})),
                    I64({1, 1}, TensorShape({2})), Str({"x"}, TensorShape({1, 1})), true, 5, 0)
                  .status(),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("Input indices should be a matrix but received shape [2] at "
                                 "position 0")));
  EXPECT_THAT(Cross(I64({0, 0}, TensorShape({1, 2})), Str({"a"}, TensorShape({1})),
                    I64({1, 1}, TensorShape({2})), Str({"x", "y"}, TensorShape({2, 1})), true, 5, 0)
                  .status(),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("Expected batch size 1 got 2 at dense tensor 0")));
}

// SparseCrossV2 / SparseCrossHashed over a string sparse input a (rows 0: "a"; 1: "b", "c"), an
// int64 sparse input b (rows 0: 3; 1: 4) and a string dense input d ([["x"], ["y"]]).
absl::StatusOr<std::vector<Tensor>> CrossV2OrHashed(const std::string& op, const Tensor& dense,
                                                    const std::vector<Tensor>& tail) {
  OpTester t(op);
  t.Attr("N", int64_t{2})
      .Attr("sparse_types", std::vector<DataType>{DT_STRING, DT_INT64})
      .Attr("dense_types", std::vector<DataType>{dense.dtype()});
  t.Input(I64({0, 0, 1, 0, 1, 1}, TensorShape({3, 2})))
      .Input(I64({0, 0, 1, 0}, TensorShape({2, 2})));
  t.Input(Str({"a", "b", "c"}, TensorShape({3}))).Input(I64({3, 4}, TensorShape({2})));
  t.Input(I64({2, 2}, TensorShape({2}))).Input(I64({2, 1}, TensorShape({2})));
  t.Input(dense);
  for (const Tensor& x : tail) t.Input(x);
  return t.Run();
}

TEST(SparseCrossV2OpTest, JoinsMixedInputsWithTheSeparator) {
  RILL_ASSERT_OK_AND_ASSIGN(
      auto out, CrossV2OrHashed("SparseCrossV2", Str({"x", "y"}, TensorShape({2, 1})),
                                {Tensor::FromVector<std::string>({"--"}, TensorShape({}))}));
  ExpectTensorEqual(out[1], Str({"a--3--x", "b--4--y", "c--4--y"}, TensorShape({3})));
  ExpectTensorEqual(out[2], I64({2, 2}, TensorShape({2})));
  EXPECT_THAT(CrossV2OrHashed("SparseCrossV2", Str({"x", "y"}, TensorShape({2, 1})),
                              {Str({"a", "b"}, TensorShape({2}))})
                  .status(),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("Input separator should be a scalar. Received: Tensor<type: "
                                 "string shape: [2] values: a b>")));
}

TEST(SparseCrossHashedOpTest, HashesAreTensorFlows) {
  // TensorFlow 2.21's tf.raw_ops.SparseCrossHashed of these inputs, num_buckets 0: plain and
  // with strong_hash and salt [5, 7].
  const Tensor dense = Str({"x", "y"}, TensorShape({2, 1}));
  const Tensor zero = Tensor::Scalar<int64_t>(0);
  RILL_ASSERT_OK_AND_ASSIGN(auto plain, CrossV2OrHashed("SparseCrossHashed", dense,
                                                        {zero, Tensor::Scalar<bool>(false),
                                                         I64({1, 2}, TensorShape({2}))}));
  ExpectTensorEqual(plain[1], I64({7407606516400961117, 2062352918470442436, 1608731407962427153},
                                  TensorShape({3})));
  RILL_ASSERT_OK_AND_ASSIGN(auto strong, CrossV2OrHashed("SparseCrossHashed", dense,
                                                         {zero, Tensor::Scalar<bool>(true),
                                                          I64({5, 7}, TensorShape({2}))}));
  ExpectTensorEqual(strong[1], I64({2801082069480212803, 4304760412397603681, 606838751412649090},
                                   TensorShape({3})));
}

// TensorFlow reads a dense int64 value as an address under strong_hash (its process dies); Rill
// refuses the input. A salt of another length is TensorFlow's error.
TEST(SparseCrossHashedOpTest, BadInputsAreInvalidArgument) {
  EXPECT_THAT(CrossV2OrHashed("SparseCrossHashed", I64({1, 2}, TensorShape({2, 1})),
                              {Tensor::Scalar<int64_t>(10), Tensor::Scalar<bool>(true),
                               I64({1, 2}, TensorShape({2}))})
                  .status(),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("cannot hash the int64 dense input 0")));
  EXPECT_THAT(CrossV2OrHashed("SparseCrossHashed", Str({"x", "y"}, TensorShape({2, 1})),
                              {Tensor::Scalar<int64_t>(10), Tensor::Scalar<bool>(false),
                               I64({1}, TensorShape({1}))})
                  .status(),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("Input \"salt\" must have length 2 but has length 1")));
}

}  // namespace
}  // namespace rill
