#include <cstdint>

#include "core/random/distributions.h"
#include "core/random/philox.h"
#include "core/status_matchers.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "kernels/framework/op_test_util.h"

namespace rill {
namespace {

using ::testing::HasSubstr;

Tensor Vec32(std::vector<int32_t> v) {
  const int64_t n = static_cast<int64_t>(v.size());
  return Tensor::FromVector<int32_t>(v, TensorShape({n}));
}
Tensor Vec64(std::vector<int64_t> v) {
  const int64_t n = static_cast<int64_t>(v.size());
  return Tensor::FromVector<int64_t>(v, TensorShape({n}));
}
Tensor U64(std::vector<uint64_t> v) {
  const int64_t n = static_cast<int64_t>(v.size());
  return Tensor::FromVector<uint64_t>(v, TensorShape({n}));
}
Tensor Alg(int32_t alg) { return Tensor::FromVector<int32_t>({alg}, TensorShape({})); }

void V2Inputs(OpTester& t, std::vector<int32_t> shape, std::vector<uint64_t> key,
              std::vector<uint64_t> counter, int32_t alg) {
  t.Input(Vec32(shape)).Input(U64(key)).Input(U64(counter)).Input(Alg(alg));
}

TEST(StatelessRandomOpsTest, GetKeyCounterIsTensorFlowsScrambling) {
  OpTester t("StatelessRandomGetKeyCounterAlg");
  t.Attr("Tseed", DT_INT64).Input(Vec64({1, 2}));
  RILL_ASSERT_OK_AND_ASSIGN(auto out, t.Run());
  // TensorFlow 2.21: tf.raw_ops.StatelessRandomGetKeyCounterAlg(seed=[1, 2]).
  EXPECT_EQ(out[0].flat<uint64_t>()[0], uint64_t{10413732777507651514u});
  EXPECT_EQ(out[1].flat<uint64_t>()[0], 0u);
  EXPECT_EQ(out[1].flat<uint64_t>()[1], uint64_t{17830669156045600267u});
  EXPECT_EQ(out[2].flat<int32_t>()[0], 1);
}

TEST(StatelessRandomOpsTest, V2UniformIsPhiloxAtTheCounterAndKey) {
  OpTester t("StatelessRandomUniformV2");
  t.Attr("dtype", DT_FLOAT).Attr("Tshape", DT_INT32);
  V2Inputs(t, {6}, {1}, {1, 2}, /*alg=auto-select*/ 3);
  RILL_ASSERT_OK_AND_ASSIGN(auto out, t.Run());
  PhiloxRandom gen({1, 0, 2, 0}, {1, 0});
  const PhiloxRandom::ResultType b0 = gen(), b1 = gen();
  for (int i = 0; i < 6; ++i) {
    EXPECT_EQ(out[0].flat<float>()[i], random::Uint32ToFloat(i < 4 ? b0[i] : b1[i - 4])) << i;
  }
  // TensorFlow 2.21 prints [0.4121536, 0.03663087, ...] for these inputs.
  EXPECT_NEAR(out[0].flat<float>()[0], 0.4121536f, 1e-7);
  EXPECT_NEAR(out[0].flat<float>()[1], 0.03663087f, 1e-8);
}

TEST(StatelessRandomOpsTest, V1EqualsV2AtTheSeedsKeyCounterAndInt32SeedsSignExtend) {
  OpTester key_counter("StatelessRandomGetKeyCounter");
  key_counter.Attr("Tseed", DT_INT32).Input(Vec32({-1, 2}));
  RILL_ASSERT_OK_AND_ASSIGN(auto kc, key_counter.Run());
  for (const char* op : {"StatelessRandomNormal", "StatelessTruncatedNormal"}) {
    OpTester v1(op);
    v1.Attr("dtype", DT_DOUBLE).Attr("T", DT_INT32).Attr("Tseed", DT_INT64);
    v1.Input(Vec32({5})).Input(Vec64({-1, 2}));
    RILL_ASSERT_OK_AND_ASSIGN(auto a, v1.Run());
    OpTester v2(std::string(op) + "V2");
    v2.Attr("dtype", DT_DOUBLE).Attr("Tshape", DT_INT32);
    v2.Input(Vec32({5})).Input(kc[0]).Input(kc[1]).Input(Alg(1));
    RILL_ASSERT_OK_AND_ASSIGN(auto b, v2.Run());
    ExpectTensorEqual(a[0], b[0]);
  }
  OpTester uniform("StatelessRandomUniform");
  uniform.Attr("dtype", DT_FLOAT).Attr("T", DT_INT32).Attr("Tseed", DT_INT32);
  uniform.Input(Vec32({3})).Input(Vec32({-1, 2}));
  RILL_ASSERT_OK_AND_ASSIGN(auto u, uniform.Run());
  // TensorFlow 2.21 prints [0.4135995, 0.6200979, 0.1530968].
  EXPECT_NEAR(u[0].flat<float>()[0], 0.4135995f, 1e-7);
  EXPECT_NEAR(u[0].flat<float>()[2], 0.1530968f, 1e-7);
}

TEST(StatelessRandomOpsTest, UniformIntStaysInRange) {
  OpTester t("StatelessRandomUniformIntV2");
  t.Attr("dtype", DT_INT64).Attr("Tshape", DT_INT32);
  V2Inputs(t, {100}, {7}, {0, 0}, 1);
  t.Input(Tensor::FromVector<int64_t>({-3}, TensorShape({})));
  t.Input(Tensor::FromVector<int64_t>({4}, TensorShape({})));
  RILL_ASSERT_OK_AND_ASSIGN(auto out, t.Run());
  for (int i = 0; i < 100; ++i) {
    EXPECT_GE(out[0].flat<int64_t>()[i], -3);
    EXPECT_LT(out[0].flat<int64_t>()[i], 4);
  }
}

TEST(StatelessRandomOpsTest, ErrorsAreTensorFlows) {
  OpTester seed("StatelessRandomUniform");
  seed.Attr("dtype", DT_FLOAT).Attr("T", DT_INT32).Attr("Tseed", DT_INT64);
  seed.Input(Vec32({2})).Input(Vec64({1, 2, 3}));
  EXPECT_THAT(seed.Run(), StatusIs(absl::StatusCode::kInvalidArgument,
                                   HasSubstr("seed must have shape [2], not [3]")));

  OpTester threefry("StatelessRandomUniformV2");
  threefry.Attr("dtype", DT_FLOAT).Attr("Tshape", DT_INT32);
  V2Inputs(threefry, {2}, {1}, {1, 2}, 2);
  EXPECT_THAT(threefry.Run(), StatusIs(absl::StatusCode::kInvalidArgument,
                                       HasSubstr("Unsupported algorithm id: 2")));

  OpTester empty("StatelessRandomUniformV2");
  empty.Attr("dtype", DT_FLOAT).Attr("Tshape", DT_INT32);
  V2Inputs(empty, {0}, {1}, {1, 2}, 2);
  RILL_EXPECT_OK(empty.Run().status());

  OpTester key("StatelessRandomNormalV2");
  key.Attr("dtype", DT_FLOAT).Attr("Tshape", DT_INT32);
  V2Inputs(key, {2}, {1, 2}, {1, 2}, 1);
  EXPECT_THAT(key.Run(), StatusIs(absl::StatusCode::kInvalidArgument,
                                  HasSubstr("key must have shape [1], not [2]. (Note")));

  OpTester counter("StatelessRandomNormalV2");
  counter.Attr("dtype", DT_FLOAT).Attr("Tshape", DT_INT32);
  V2Inputs(counter, {2}, {1}, {1}, /*alg=ThreeFry*/ 2);
  EXPECT_THAT(
      counter.Run(),
      StatusIs(absl::StatusCode::kInvalidArgument,
               HasSubstr("counter must be a vector with length at least 2; got shape: [1]")));

  OpTester bounds("StatelessRandomUniformInt");
  bounds.Attr("dtype", DT_INT32).Attr("T", DT_INT32).Attr("Tseed", DT_INT64);
  bounds.Input(Vec32({2})).Input(Vec64({1, 2}));
  bounds.Input(Tensor::FromVector<int32_t>({5}, TensorShape({})));
  bounds.Input(Tensor::FromVector<int32_t>({5}, TensorShape({})));
  EXPECT_THAT(bounds.Run(), StatusIs(absl::StatusCode::kInvalidArgument,
                                     HasSubstr("Need minval < maxval, got 5 >= 5")));
}

}  // namespace
}  // namespace rill
