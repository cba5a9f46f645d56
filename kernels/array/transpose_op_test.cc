#include <numeric>
#include <string>
#include <vector>

#include "core/status_matchers.h"
#include "gtest/gtest.h"
#include "kernels/framework/op_test_util.h"

namespace rill {
namespace {

absl::StatusOr<std::vector<Tensor>> Transpose(const Tensor& x, std::vector<int32_t> perm) {
  OpTester t("Transpose");
  const int64_t n = static_cast<int64_t>(perm.size());
  t.Attr("T", x.dtype()).Input(x).Input(Tensor::FromVector<int32_t>(perm, TensorShape({n})));
  return t.Run();
}

std::vector<double> Iota(int n) {
  std::vector<double> v(n);
  std::iota(v.begin(), v.end(), 0.0);
  return v;
}

TEST(TransposeOpTest, MatrixForEveryElementSize) {
  for (DataType dt : {DT_INT8, DT_HALF, DT_FLOAT, DT_DOUBLE, DT_COMPLEX128}) {
    SCOPED_TRACE(DataTypeString(dt));
    RILL_ASSERT_OK_AND_ASSIGN(auto out,
                              Transpose(MakeTensor(dt, TensorShape({2, 3}), Iota(6)), {1, 0}));
    ExpectTensorEqual(out[0], MakeTensor(dt, TensorShape({3, 2}), {0, 3, 1, 4, 2, 5}));
  }
}

TEST(TransposeOpTest, LargeMatrixCrossesTiles) {
  const int rows = 70, cols = 45;
  RILL_ASSERT_OK_AND_ASSIGN(
      auto out,
      Transpose(MakeTensor(DT_INT32, TensorShape({rows, cols}), Iota(rows * cols)), {1, 0}));
  std::vector<double> want;
  for (int c = 0; c < cols; ++c) {
    for (int r = 0; r < rows; ++r) want.push_back(r * cols + c);
  }
  ExpectTensorEqual(out[0], MakeTensor(DT_INT32, TensorShape({cols, rows}), want));
}

TEST(TransposeOpTest, Rank3PermutationsAgreeWithTheDefinition) {
  const Tensor x = MakeTensor(DT_INT64, TensorShape({2, 3, 4}), Iota(24));
  const int64_t dims[3] = {2, 3, 4};
  const std::vector<std::vector<int32_t>> perms = {
      {0, 2, 1}, {2, 0, 1}, {1, 0, 2}, {2, 1, 0}, {1, 2, 0}};
  for (const auto& perm : perms) {
    RILL_ASSERT_OK_AND_ASSIGN(auto out, Transpose(x, perm));
    std::vector<double> want;
    int64_t idx[3];
    for (idx[0] = 0; idx[0] < dims[perm[0]]; ++idx[0]) {
      for (idx[1] = 0; idx[1] < dims[perm[1]]; ++idx[1]) {
        for (idx[2] = 0; idx[2] < dims[perm[2]]; ++idx[2]) {
          int64_t in[3];
          for (int k = 0; k < 3; ++k) in[perm[k]] = idx[k];
          want.push_back(in[0] * 12 + in[1] * 4 + in[2]);
        }
      }
    }
    ExpectTensorEqual(
        out[0],
        MakeTensor(DT_INT64, TensorShape({dims[perm[0]], dims[perm[1]], dims[perm[2]]}), want));
  }
}

TEST(TransposeOpTest, SizeOneDimsAndIdentity) {
  const Tensor x = MakeTensor(DT_FLOAT, TensorShape({1, 3, 1, 2}), Iota(6));
  RILL_ASSERT_OK_AND_ASSIGN(auto out, Transpose(x, {2, 0, 1, 3}));
  ExpectTensorEqual(out[0], MakeTensor(DT_FLOAT, TensorShape({1, 1, 3, 2}), Iota(6)));
  RILL_ASSERT_OK_AND_ASSIGN(out, Transpose(x, {0, 1, 2, 3}));
  EXPECT_TRUE(out[0].SharesBufferWith(x));
  RILL_ASSERT_OK_AND_ASSIGN(out, Transpose(MakeTensor(DT_FLOAT, TensorShape({0, 3}), {}), {1, 0}));
  EXPECT_EQ(out[0].shape(), TensorShape({3, 0}));
}

TEST(TransposeOpTest, StringsAreCopiedAsStrings) {
  const Tensor x = Tensor::FromVector<std::string>({"a", "bb", "a long string, not inline", "d"},
                                                   TensorShape({2, 2}));
  RILL_ASSERT_OK_AND_ASSIGN(auto out, Transpose(x, {1, 0}));
  ExpectTensorEqual(out[0],
                    Tensor::FromVector<std::string>({"a", "a long string, not inline", "bb", "d"},
                                                    TensorShape({2, 2})));
}

TEST(TransposeOpTest, ErrorsAreTensorFlows) {
  const Tensor x = MakeTensor(DT_FLOAT, TensorShape({2, 3, 4}), Iota(24));
  EXPECT_THAT(Transpose(x, {0, 0, 1}),
              StatusIs(absl::StatusCode::kInvalidArgument, "2 is missing from {0,0,1}."));
  EXPECT_THAT(Transpose(x, {0, 1}),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       "transpose expects a vector of size 3. But input(1) is "
                       "a vector of size 2"));
  EXPECT_THAT(Transpose(x, {0, 3, 1}),
              StatusIs(absl::StatusCode::kInvalidArgument, "3 is out of range [0 .. 3)"));
  OpTester t("Transpose");
  t.Attr("T", DT_FLOAT)
      .Input(x)
      .Input(Tensor::FromVector<int32_t>({0, 1, 2, 0}, TensorShape({2, 2})));
  EXPECT_THAT(t.Run(),
              StatusIs(absl::StatusCode::kInvalidArgument, "perm must be rank 1, got shape [2,2]"));
}

TEST(TransposeOpTest, ConjugateTransposeConjugatesComplexEvenForTheIdentity) {
  using C = complex64;
  const Tensor x = Tensor::FromVector<C>({C(1, 2), C(3, -4), C(-5, 0), C(0, 6), C(7, 8), C(9, -1)},
                                         TensorShape({2, 3}));
  for (const std::vector<int32_t>& perm : {std::vector<int32_t>{1, 0}, {0, 1}}) {
    OpTester t("ConjugateTranspose");
    t.Attr("T", DT_COMPLEX64).Input(x).Input(Tensor::FromVector<int32_t>(perm, TensorShape({2})));
    RILL_ASSERT_OK_AND_ASSIGN(auto out, t.Run());
    const bool swapped = perm[0] == 1;
    EXPECT_FALSE(out[0].SharesBufferWith(x));
    EXPECT_EQ(out[0].shape(), swapped ? TensorShape({3, 2}) : TensorShape({2, 3}));
    const std::vector<C> want =
        swapped ? std::vector<C>{C(1, -2), C(0, -6), C(3, 4), C(7, -8), C(-5, 0), C(9, 1)}
                : std::vector<C>{C(1, -2), C(3, 4), C(-5, 0), C(0, -6), C(7, -8), C(9, 1)};
    for (int i = 0; i < 6; ++i) EXPECT_EQ(out[0].flat<C>()[i], want[i]) << i;
  }
  // Real elements are transposed as Transpose does (the identity forwards the input).
  OpTester t("ConjugateTranspose");
  const Tensor r = MakeTensor(DT_FLOAT, TensorShape({2, 2}), {1, 2, 3, 4});
  t.Attr("T", DT_FLOAT).Input(r).Input(Tensor::FromVector<int32_t>({0, 1}, TensorShape({2})));
  RILL_ASSERT_OK_AND_ASSIGN(auto out, t.Run());
  EXPECT_TRUE(out[0].SharesBufferWith(r));
}

}  // namespace
}  // namespace rill
