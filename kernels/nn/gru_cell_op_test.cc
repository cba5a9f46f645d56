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

std::vector<float> Ramp(int64_t n, float start, float step) {
  std::vector<float> v(n);
  for (int64_t i = 0; i < n; ++i) v[i] = start + step * static_cast<float>(i);
  return v;
}

Tensor Unary(const char* op, const Tensor& x) {
  OpTester t(op);
  t.Attr("T", DT_FLOAT);
  t.Input(x);
  absl::StatusOr<std::vector<Tensor>> out = t.Run();
  EXPECT_THAT(out.status(), IsOk()) << op;
  return out.ok() ? (*out)[0] : Tensor();
}

Tensor Binary(const char* op, const Tensor& x, const Tensor& y) {
  OpTester t(op);
  t.Attr("T", DT_FLOAT);
  t.Input(x);
  t.Input(y);
  absl::StatusOr<std::vector<Tensor>> out = t.Run();
  EXPECT_THAT(out.status(), IsOk()) << op;
  return out.ok() ? (*out)[0] : Tensor();
}

// Column block k ([rows, units]) of m [rows, 3 * units].
Tensor Block(const std::vector<float>& m, int64_t rows, int64_t units, int64_t k) {
  std::vector<float> v;
  for (int64_t b = 0; b < rows; ++b) {
    for (int64_t u = 0; u < units; ++u) v.push_back(m[b * 3 * units + k * units + u]);
  }
  return Tensor::FromVector<float>(v, TensorShape({rows, units}));
}

// h_next as the unfused AddV2, Sigmoid, Mul, Sub and Tanh kernels compute it (Keras's GRUCell
// with reset_after), for x [bx, 3U] and hh [bh, 3U] with gates in `order`.
Tensor Expected(const std::vector<float>& x, int64_t bx, const std::vector<float>& hh, int64_t bh,
                const Tensor& h, int64_t units, const std::vector<int64_t>& order) {
  auto xg = [&](int k) { return Block(x, bx, units, order[k]); };
  auto hg = [&](int k) { return Block(hh, bh, units, order[k]); };
  const Tensor z = Unary("Sigmoid", Binary("AddV2", xg(0), hg(0)));
  const Tensor r = Unary("Sigmoid", Binary("AddV2", xg(1), hg(1)));
  const Tensor c = Unary("Tanh", Binary("AddV2", xg(2), Binary("Mul", r, hg(2))));
  const Tensor keep = Binary("Sub", Tensor::Scalar<float>(1.f), z);
  return Binary("AddV2", Binary("Mul", z, h), Binary("Mul", keep, c));
}

absl::StatusOr<std::vector<Tensor>> RunCell(const Tensor& x, const Tensor& hh, const Tensor& h,
                                            const std::vector<int64_t>& order, int64_t units = -1) {
  OpTester t("_RillGruCell");
  t.Attr("T", DT_FLOAT).Attr("gate_order", order).Attr("units", units);
  t.Input(x);
  t.Input(hh);
  t.Input(h);
  return t.Run();
}

TEST(GruCellOpTest, StateAsTheUnfusedOpsRoundIt) {
  // Rows longer than a vector and than a chunk, not a multiple of either; 3,112 and 111 outputs
  // whose candidate sums cover [-3, 3], where a Tanh built another way would differ in the last
  // bit for many of them.
  for (const int64_t units : {int64_t{389}, int64_t{37}}) {
    const int64_t batch = units == 389 ? 8 : 3;
    const std::vector<float> x = Ramp(batch * 3 * units, -3.f, 6.f / (batch * 3 * units));
    const std::vector<float> hh = Ramp(batch * 3 * units, 2.f, -4.1f / (batch * 3 * units));
    const Tensor h = Tensor::FromVector<float>(Ramp(batch * units, -1.f, 2.f / (batch * units)),
                                               TensorShape({batch, units}));
    for (const std::vector<int64_t>& order :
         {std::vector<int64_t>{0, 1, 2}, std::vector<int64_t>{2, 0, 1}}) {
      RILL_ASSERT_OK_AND_ASSIGN(
          std::vector<Tensor> out,
          RunCell(Tensor::FromVector<float>(x, TensorShape({batch, 3 * units})),
                  Tensor::FromVector<float>(hh, TensorShape({batch, 3 * units})), h, order));
      ExpectTensorEqual(out[0], Expected(x, batch, hh, batch, h, units, order));
    }
  }
}

TEST(GruCellOpTest, BatchesOfOneBroadcastAsAddAndMulBroadcastThem) {
  const int64_t units = 300, batch = 5;
  const std::vector<float> x = Ramp(3 * units, -2.f, 0.0041f);  // batch 1
  const std::vector<float> hh = Ramp(batch * 3 * units, 1.5f, -0.0007f);
  const Tensor h = Tensor::FromVector<float>(Ramp(units, 0.5f, -0.003f), TensorShape({1, units}));
  RILL_ASSERT_OK_AND_ASSIGN(
      std::vector<Tensor> out,
      RunCell(Tensor::FromVector<float>(x, TensorShape({1, 3 * units})),
              Tensor::FromVector<float>(hh, TensorShape({batch, 3 * units})), h, {0, 1, 2}));
  ExpectTensorEqual(out[0], Expected(x, 1, hh, batch, h, units, {0, 1, 2}));
  // The gates of batch 1 against a state of batch 5.
  const Tensor wide =
      Tensor::FromVector<float>(Ramp(batch * units, -0.9f, 0.0011f), TensorShape({batch, units}));
  RILL_ASSERT_OK_AND_ASSIGN(out, RunCell(Tensor::FromVector<float>(x, TensorShape({1, 3 * units})),
                                         Tensor::FromVector<float>(Ramp(3 * units, 0.1f, 0.002f),
                                                                   TensorShape({1, 3 * units})),
                                         wide, {1, 2, 0}));
  ExpectTensorEqual(out[0],
                    Expected(x, 1, Ramp(3 * units, 0.1f, 0.002f), 1, wide, units, {1, 2, 0}));
}

TEST(GruCellOpTest, ShapesTheUnfusedOpsRefuseGetTheirErrors) {
  auto t = [](const TensorShape& s) {
    return Tensor::FromVector<float>(Ramp(s.num_elements(), 0.f, 1.f), s);
  };
  EXPECT_THAT(
      RunCell(t(TensorShape({2, 7})), t(TensorShape({2, 7})), t(TensorShape({2, 2})), {0, 1, 2})
          .status(),
      StatusIs(absl::StatusCode::kInvalidArgument,
               HasSubstr("Number of ways to split should evenly divide the split "
                         "dimension, but got split_dim 1 (size = 7) and num_split 3")));
  EXPECT_THAT(
      RunCell(t(TensorShape({2, 6})), t(TensorShape({3, 6})), t(TensorShape({2, 2})), {0, 1, 2})
          .status(),
      StatusIs(absl::StatusCode::kInvalidArgument,
               HasSubstr("Incompatible shapes: [2,2] vs. [3,2]")));
  EXPECT_THAT(
      RunCell(t(TensorShape({2, 6})), t(TensorShape({2, 6})), t(TensorShape({3})), {0, 1, 2})
          .status(),
      StatusIs(absl::StatusCode::kInvalidArgument,
               HasSubstr("Incompatible shapes: [2,2] vs. [3]")));
  EXPECT_THAT(
      RunCell(t(TensorShape({2, 6})), t(TensorShape({2, 9})), t(TensorShape({2, 2})), {0, 1, 2})
          .status(),
      StatusIs(absl::StatusCode::kInvalidArgument,
               "The GRU step's state projection must have the input projection's width 6 (3 * "
               "units); got [2,9]"));
  EXPECT_THAT(
      RunCell(t(TensorShape({2, 6})), t(TensorShape({2, 6})), t(TensorShape({2, 2})), {0, 1, 1})
          .status(),
      StatusIs(absl::StatusCode::kInvalidArgument,
               HasSubstr("gate_order must be a permutation of 0, 1, 2")));
  // The pass proved U = 2; a variable reshaped since (validate_shape=false) makes x 9 wide, where
  // the unfused graph's Split block [2,3] meets hh's slice of fixed bounds [2,2].
  EXPECT_THAT(
      RunCell(t(TensorShape({2, 9})), t(TensorShape({2, 9})), t(TensorShape({2, 3})), {0, 1, 2}, 2)
          .status(),
      StatusIs(absl::StatusCode::kInvalidArgument,
               HasSubstr("Incompatible shapes: [2,3] vs. [2,2]")));
  RILL_ASSERT_OK_AND_ASSIGN(auto proven, RunCell(t(TensorShape({2, 6})), t(TensorShape({2, 6})),
                                                 t(TensorShape({2, 2})), {0, 1, 2}, 2));
  EXPECT_EQ(proven[0].shape(), TensorShape({2, 2}));
}

TEST(GruCellOpTest, ErrorsNameTheNodesOfTheUnfusedCell) {
  // _rill_error_nodes: the Split of x, the Add of z's blocks, z * h, hh's slice of z's block.
  const std::vector<std::string> nodes = {"gru/split", "gru/add", "gru/mul", "gru/strided_slice"};
  auto run = [&](const TensorShape& x, const TensorShape& hh, const TensorShape& h) {
    OpTester t("_RillGruCell");
    t.Attr("T", DT_FLOAT)
        .Attr("gate_order", std::vector<int64_t>{0, 1, 2})
        .Attr("units", int64_t{2})
        .Attr("_rill_error_nodes", nodes);
    for (const TensorShape& s : {x, hh, h}) {
      t.Input(Tensor::FromVector<float>(Ramp(s.num_elements(), 0.f, 0.1f), s));
    }
    return t.Run().status();
  };
  const TensorShape two({2, 6}), state({2, 2});
  EXPECT_THAT(run(TensorShape({2, 7}), two, state),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       "Number of ways to split should evenly divide the split dimension, but got "
                       "split_dim 1 (size = 7) and num_split 3\n\t [[{{node gru/split}}]]"));
  EXPECT_THAT(run(TensorShape({6}), two, state),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       "The GRU step's input projection must be a matrix [batch, 3 * units]; got "
                       "[6]\n\t [[{{node gru/split}}]]"));
  EXPECT_THAT(run(two, TensorShape({6}), state),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       "The GRU step's state projection must be a matrix [batch, 3 * units]; got "
                       "[6]\n\t [[{{node gru/strided_slice}}]]"));
  EXPECT_THAT(run(two, TensorShape({3, 6}), state),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       "Incompatible shapes: [2,2] vs. [3,2]\n\t [[{{node gru/add}}]]"));
  EXPECT_THAT(run(TensorShape({2, 9}), TensorShape({2, 9}), state),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       "Incompatible shapes: [2,3] vs. [2,2]\n\t [[{{node gru/add}}]]"));
  EXPECT_THAT(run(two, two, TensorShape({3})),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       "Incompatible shapes: [2,2] vs. [3]\n\t [[{{node gru/mul}}]]"));
  EXPECT_THAT(run(two, two, TensorShape({1, 2, 2})),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       "The GRU step's state must be a matrix [batch, units] of 2 units; got "
                       "[1,2,2]\n\t [[{{node gru/mul}}]]"));
}

TEST(GruCellOpTest, ErrorsNameTheOperandsInTheUnfusedNodesOrder) {
  // _rill_error_operands_swapped [1, 2]: z's Add takes hh's block first and z * h takes h first,
  // so their errors name those shapes first, as the unfused AddV2 and Mul do.
  auto run = [](const TensorShape& x, const TensorShape& hh, const TensorShape& h) {
    OpTester t("_RillGruCell");
    t.Attr("T", DT_FLOAT)
        .Attr("gate_order", std::vector<int64_t>{0, 1, 2})
        .Attr("units", int64_t{2})
        .Attr("_rill_error_nodes",
              std::vector<std::string>{"gru/split", "gru/add", "gru/mul", "gru/strided_slice"})
        .Attr("_rill_error_operands_swapped", std::vector<int64_t>{1, 2});
    for (const TensorShape& s : {x, hh, h}) {
      t.Input(Tensor::FromVector<float>(Ramp(s.num_elements(), 0.f, 0.1f), s));
    }
    return t.Run().status();
  };
  const TensorShape two({2, 6}), state({2, 2});
  EXPECT_THAT(run(two, TensorShape({3, 6}), state),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       "Incompatible shapes: [3,2] vs. [2,2]\n\t [[{{node gru/add}}]]"));
  EXPECT_THAT(run(TensorShape({2, 9}), TensorShape({2, 9}), state),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       "Incompatible shapes: [2,2] vs. [2,3]\n\t [[{{node gru/add}}]]"));
  EXPECT_THAT(run(two, two, TensorShape({3})),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       "Incompatible shapes: [3] vs. [2,2]\n\t [[{{node gru/mul}}]]"));
}

// z * h + (1 - z) * Tanh(c) as the unfused Tanh, Sub, Mul and AddV2 kernels compute it.
Tensor ExpectedUpdate(const Tensor& z, const Tensor& c, const Tensor& h) {
  const Tensor keep = Binary("Sub", Tensor::Scalar<float>(1.f), z);
  return Binary("AddV2", Binary("Mul", z, h), Binary("Mul", keep, Unary("Tanh", c)));
}

absl::StatusOr<std::vector<Tensor>> RunUpdate(const Tensor& z, const Tensor& c, const Tensor& h) {
  OpTester t("_RillGruUpdate");
  t.Attr("T", DT_FLOAT);
  t.Input(z);
  t.Input(c);
  t.Input(h);
  return t.Run();
}

TEST(GruUpdateOpTest, StateAsTheUnfusedOpsRoundIt) {
  // 3,112 candidates in [-3, 3]; then h of one row, a scalar z and a c broadcast along the rows.
  const int64_t batch = 8, units = 389, n = batch * units;
  const TensorShape shape({batch, units});
  const Tensor z = Tensor::FromVector<float>(Ramp(n, 0.001f, 0.998f / n), shape);
  const Tensor c = Tensor::FromVector<float>(Ramp(n, -3.f, 6.f / n), shape);
  const Tensor h = Tensor::FromVector<float>(Ramp(n, 1.f, -2.f / n), shape);
  RILL_ASSERT_OK_AND_ASSIGN(std::vector<Tensor> out, RunUpdate(z, c, h));
  ExpectTensorEqual(out[0], ExpectedUpdate(z, c, h));
  const Tensor row = Tensor::FromVector<float>(Ramp(units, -0.7f, 0.003f), TensorShape({units}));
  RILL_ASSERT_OK_AND_ASSIGN(out, RunUpdate(z, c, row));
  ExpectTensorEqual(out[0], ExpectedUpdate(z, c, row));
  const Tensor col = Tensor::FromVector<float>(Ramp(batch, -2.f, 0.5f), TensorShape({batch, 1}));
  RILL_ASSERT_OK_AND_ASSIGN(out, RunUpdate(Tensor::Scalar<float>(0.25f), col, h));
  ExpectTensorEqual(out[0], ExpectedUpdate(Tensor::Scalar<float>(0.25f), col, h));
  RILL_ASSERT_OK_AND_ASSIGN(out,
                            RunUpdate(Tensor::Scalar<float>(0.5f), Tensor::Scalar<float>(-1.5f),
                                      Tensor::Scalar<float>(2.f)));
  ExpectTensorEqual(out[0],
                    ExpectedUpdate(Tensor::Scalar<float>(0.5f), Tensor::Scalar<float>(-1.5f),
                                   Tensor::Scalar<float>(2.f)));
}

TEST(GruUpdateOpTest, ShapesTheUnfusedOpsRefuseGetTheirErrors) {
  auto t = [](const TensorShape& s) {
    return Tensor::FromVector<float>(Ramp(s.num_elements(), 0.f, 0.1f), s);
  };
  EXPECT_THAT(
      RunUpdate(t(TensorShape({2, 3})), t(TensorShape({2, 3})), t(TensorShape({4}))).status(),
      StatusIs(absl::StatusCode::kInvalidArgument,
               HasSubstr("Incompatible shapes: [2,3] vs. [4]")));
  EXPECT_THAT(
      RunUpdate(t(TensorShape({2, 3})), t(TensorShape({5, 3})), t(TensorShape({2, 3}))).status(),
      StatusIs(absl::StatusCode::kInvalidArgument,
               HasSubstr("Incompatible shapes: [2,3] vs. [5,3]")));
}

TEST(GruUpdateOpTest, ErrorsNameTheNodesOfTheUnfusedUpdate) {
  // _rill_error_nodes: z * h, (1 - z) * Tanh(c), the sum.
  auto run = [](const TensorShape& z, const TensorShape& c, const TensorShape& h) {
    OpTester t("_RillGruUpdate");
    t.Attr("T", DT_FLOAT)
        .Attr("_rill_error_nodes", std::vector<std::string>{"gru/mul_2", "gru/mul_3", "gru/add"});
    for (const TensorShape& s : {z, c, h}) {
      t.Input(Tensor::FromVector<float>(Ramp(s.num_elements(), 0.f, 0.1f), s));
    }
    return t.Run().status();
  };
  EXPECT_THAT(run(TensorShape({2, 3}), TensorShape({2, 3}), TensorShape({4})),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       "Incompatible shapes: [2,3] vs. [4]\n\t [[{{node gru/mul_2}}]]"));
  EXPECT_THAT(run(TensorShape({2, 3}), TensorShape({5, 3}), TensorShape({2, 3})),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       "Incompatible shapes: [2,3] vs. [5,3]\n\t [[{{node gru/mul_3}}]]"));
  // z * h is [2,3] and (1 - z) * Tanh(c) [4,3]: they meet only in the sum.
  EXPECT_THAT(run(TensorShape({1, 3}), TensorShape({4, 1}), TensorShape({2, 3})),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       "Incompatible shapes: [2,3] vs. [4,3]\n\t [[{{node gru/add}}]]"));
}

TEST(GruUpdateOpTest, ErrorsNameTheOperandsInTheUnfusedNodesOrder) {
  // _rill_error_operands_swapped [0, 1, 2]: h * z, Tanh(c) * (1 - z) and the second product
  // plus the first, each error naming the shapes in that order.
  auto run = [](const TensorShape& z, const TensorShape& c, const TensorShape& h) {
    OpTester t("_RillGruUpdate");
    t.Attr("T", DT_FLOAT)
        .Attr("_rill_error_nodes", std::vector<std::string>{"gru/mul_2", "gru/mul_3", "gru/add"})
        .Attr("_rill_error_operands_swapped", std::vector<int64_t>{0, 1, 2});
    for (const TensorShape& s : {z, c, h}) {
      t.Input(Tensor::FromVector<float>(Ramp(s.num_elements(), 0.f, 0.1f), s));
    }
    return t.Run().status();
  };
  EXPECT_THAT(run(TensorShape({2, 3}), TensorShape({2, 3}), TensorShape({4})),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       "Incompatible shapes: [4] vs. [2,3]\n\t [[{{node gru/mul_2}}]]"));
  EXPECT_THAT(run(TensorShape({2, 3}), TensorShape({5, 3}), TensorShape({2, 3})),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       "Incompatible shapes: [5,3] vs. [2,3]\n\t [[{{node gru/mul_3}}]]"));
  EXPECT_THAT(run(TensorShape({1, 3}), TensorShape({4, 1}), TensorShape({2, 3})),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       "Incompatible shapes: [4,3] vs. [2,3]\n\t [[{{node gru/add}}]]"));
}

}  // namespace
}  // namespace rill
