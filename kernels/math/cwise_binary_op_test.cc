// Mod on the CPU (C's truncating % and fmod), half SquaredDifference and FloorDiv, Equal / NotEqual
// on strings, the tiled loop for a short row broadcast against a full operand (an image's
// per-channel mean), and how the elementwise loops (kernels/math_lib/cwise_op.h) split over the
// intra-op threads; the other binary kernels are covered by tests/conformance.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "core/status_matchers.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "kernels/framework/op_kernel.h"
#include "kernels/framework/op_test_util.h"
#include "kernels/math_lib/cwise_op.h"
#include "kernels/math_lib/simd_dispatch.h"
#include "kernels/math_lib/vector_math.h"

namespace rill {
namespace {

template <typename T>
absl::StatusOr<std::vector<Tensor>> RunMod(DataType dtype, const std::vector<T>& x,
                                           const std::vector<T>& y) {
  OpTester t("Mod", "m");
  const TensorShape shape({static_cast<int64_t>(x.size())});
  t.Attr("T", dtype)
      .Input(Tensor::FromVector<T>(x, shape))
      .Input(Tensor::FromVector<T>(y, TensorShape({static_cast<int64_t>(y.size())})));
  return t.Run();
}

TEST(ModTest, IntegersTruncateTowardZero) {
  RILL_ASSERT_OK_AND_ASSIGN(
      std::vector<Tensor> out,
      RunMod<int32_t>(DT_INT32, {7, -7, 7, -7, std::numeric_limits<int32_t>::min()},
                      {2, 2, -2, -2, -1}));
  ExpectTensorEqual(out[0], Tensor::FromVector<int32_t>({1, -1, 1, -1, 0}, TensorShape({5})));
}

TEST(ModTest, FloatsAreFmod) {
  RILL_ASSERT_OK_AND_ASSIGN(std::vector<Tensor> out,
                            RunMod<double>(DT_DOUBLE, {5.5, -5.5, 5.5}, {2.0, 2.0, -2.0}));
  ExpectTensorEqual(out[0], Tensor::FromVector<double>({1.5, -1.5, 1.5}, TensorShape({3})));
}

TEST(ModTest, BroadcastsScalarDivisor) {
  RILL_ASSERT_OK_AND_ASSIGN(std::vector<Tensor> out, RunMod<int64_t>(DT_INT64, {10, -10, 3}, {4}));
  ExpectTensorEqual(out[0], Tensor::FromVector<int64_t>({2, -2, 3}, TensorShape({3})));
}

TEST(ModTest, IntegerZeroDivisorIsInvalidArgument) {
  EXPECT_THAT(
      RunMod<int32_t>(DT_INT32, {1, 2}, {1, 0}),
      StatusIs(absl::StatusCode::kInvalidArgument, testing::HasSubstr("Integer division by zero")));
}

// half SquaredDifference squares x - y rounded to half, and FloorDiv floors x / y rounded to
// half, as TensorFlow 2.21's Eigen kernels do; the values are TensorFlow's (a float computation
// rounded once gives 83.9375, 711, 37.0625 and -186, -6, -50).
TEST(HalfBinaryTest, SquaredDifferenceAndFloorDivRoundEachStepAsTensorFlow) {
  auto run = [](const std::string& op, std::vector<float> x, std::vector<float> y) {
    OpTester t(op, "h");
    const TensorShape shape({static_cast<int64_t>(x.size())});
    t.Attr("T", DT_HALF)
        .Input(Tensor::FromVector<half>(std::vector<half>(x.begin(), x.end()), shape))
        .Input(Tensor::FromVector<half>(std::vector<half>(y.begin(), y.end()), shape));
    return t.Run();
  };
  auto floats = [](const Tensor& t) {
    std::vector<float> v;
    for (half h : t.flat<half>()) v.push_back(static_cast<float>(h));
    return v;
  };
  RILL_ASSERT_OK_AND_ASSIGN(std::vector<Tensor> sq,
                            run("SquaredDifference", {-1.513671875f, 4.10546875f, 7.609375f},
                                {7.6484375f, -22.5625f, 1.521484375f}));
  EXPECT_EQ(floats(sq[0]), (std::vector<float>{84.0f, 711.5f, 37.03125f}));
  RILL_ASSERT_OK_AND_ASSIGN(std::vector<Tensor> fd,
                            run("FloorDiv", {24.125f, -11.4765625f, 10.390625f},
                                {-0.13037109375f, 2.294921875f, -0.2120361328125f}));
  EXPECT_EQ(floats(fd[0]), (std::vector<float>{-185.0f, -5.0f, -49.0f}));
}

// Equal bits, or both NaN (which operand's NaN an operation on two NaNs keeps is the compiler's
// choice).
bool SameHalf(half a, half b) {
  auto nan = [](half h) { return (h.bits & 0x7c00) == 0x7c00 && (h.bits & 0x3ff) != 0; };
  return a.bits == b.bits || (nan(a) && nan(b));
}

// half runs in chunks widened and rounded by F16C (kernels/math_lib/cwise_op.h): each element is
// the float result rounded once to half (a comparison's bool unrounded), as core/half.h's scalar
// conversions give it, with F16C and without (baseline). x holds all 65,536 half bit patterns
// (NaNs, +-inf, -0, subnormals) against y of the same shape (the patterns permuted), a scalar y,
// and a y row broadcast along x's rows of 256 (the row-by-row loop) and of 3 (the tiled loop).
TEST(HalfBinaryTest, EveryElementIsTheFloatResultRoundedOnce) {
  std::vector<half> xv(65536), yv(65536);
  for (int i = 0; i < 65536; ++i) {
    xv[i] = half::FromBits(static_cast<uint16_t>(i));
    yv[i] = half::FromBits(static_cast<uint16_t>((i * 40503 + 12345) & 0xffff));
  }
  struct Case {
    std::string op;
    float (*f)(float, float);
  };
  const Case cases[] = {
      {"RealDiv", [](float a, float b) { return a / b; }},
      {"Mul", [](float a, float b) { return a * b; }},
      {"Sub", [](float a, float b) { return a - b; }},
      {"Less", [](float a, float b) { return a < b ? 1.f : 0.f; }},
  };
  struct Shapes {
    TensorShape x, y;
    int64_t y_size;
  };
  const Shapes shapes[] = {{TensorShape({65536}), TensorShape({65536}), 65536},
                           {TensorShape({65536}), TensorShape({}), 1},
                           {TensorShape({256, 256}), TensorShape({256}), 256},
                           {TensorShape({2, 32, 2, 3}), TensorShape({1, 3}), 3}};
  for (SimdLevel level : {SimdLevel::kBaseline, SimdLevel::kAvx512}) {
    ScopedSimdLevelForTesting cap(level);
    for (const Case& c : cases) {
      for (const Shapes& sh : shapes) {
        SCOPED_TRACE(absl::StrCat(c.op, " ", sh.x.DebugString(), " ", sh.y.DebugString(), " ",
                                  SimdLevelName(level)));
        const int64_t n = sh.x.num_elements();
        const Tensor x =
            Tensor::FromVector<half>(std::vector<half>(xv.begin(), xv.begin() + n), sh.x);
        const Tensor y =
            Tensor::FromVector<half>(std::vector<half>(yv.begin(), yv.begin() + sh.y_size), sh.y);
        OpTester t(c.op, "h");
        t.Attr("T", DT_HALF).Input(x).Input(y);
        RILL_ASSERT_OK_AND_ASSIGN(std::vector<Tensor> out, t.Run());
        ASSERT_EQ(out[0].NumElements(), n);
        int mismatches = 0;
        for (int64_t i = 0; i < n; ++i) {
          const float r = c.f(static_cast<float>(xv[i]), static_cast<float>(yv[i % sh.y_size]));
          const bool ok = c.op == "Less" ? out[0].flat<bool>()[i] == (r != 0.f)
                                         : SameHalf(out[0].flat<half>()[i], half(r));
          if (!ok && ++mismatches <= 3) {
            ADD_FAILURE() << "element " << i << ": " << xv[i].bits << ", "
                          << yv[i % sh.y_size].bits;
          }
        }
        EXPECT_EQ(mismatches, 0);
      }
    }
  }
}

// Pow by 2 and by 3 skips powf's call: x * x (TensorFlow's value) and vector_math's CubeF (the
// correctly rounded cube), other exponents powf; a scalar exponent and an exponent tensor mixing
// 2, 3 and 2.5, over finite values, +-inf, NaN, -0 and cubes that overflow; float and half.
TEST(PowTest, SquaresAndCubesAreThePowersValues) {
  const float inf = std::numeric_limits<float>::infinity();
  std::vector<float> x = {-inf, -1e20f, -257.f, -3.5f, -1.f,
                          -0.f, 0.f,    1e-3f,  0.3f,  1.f,
                          1.7f, 257.f,  1e13f,  inf,   std::numeric_limits<float>::quiet_NaN()};
  for (int i = 0; i < 500; ++i) x.push_back(-20.f + 0.0813f * static_cast<float>(i));
  const int64_t n = static_cast<int64_t>(x.size());
  std::vector<float> mixed(n);
  for (int64_t i = 0; i < n; ++i) mixed[i] = i % 3 == 0 ? 2.f : i % 3 == 1 ? 3.f : 2.5f;
  for (const float y : {2.f, 3.f, -1.f}) {
    for (const bool tensor_y : {false, true}) {
      SCOPED_TRACE(absl::StrCat("y ", y, tensor_y ? " mixed" : ""));
      OpTester t("Pow", "p");
      t.Attr("T", DT_FLOAT).Input(Tensor::FromVector<float>(x, TensorShape({n})));
      if (tensor_y) {
        t.Input(Tensor::FromVector<float>(mixed, TensorShape({n})));
      } else {
        t.Input(Tensor::Scalar<float>(y));
      }
      RILL_ASSERT_OK_AND_ASSIGN(std::vector<Tensor> out, t.Run());
      for (int64_t i = 0; i < n; ++i) {
        const float e = tensor_y ? mixed[i] : y;
        const float want = e == 2.f   ? x[i] * x[i]
                           : e == 3.f ? vector_math::CubeF(x[i])
                                      : std::pow(x[i], e);
        const float got = out[0].flat<float>()[i];
        if (std::isnan(want)) {
          EXPECT_TRUE(std::isnan(got)) << x[i];
        } else {
          EXPECT_EQ(std::memcmp(&got, &want, 4), 0) << x[i] << ": " << got << " vs " << want;
        }
      }
      if (tensor_y) break;
    }
  }
  OpTester h("Pow", "p");
  const std::vector<half> hx = {half(-3.5f), half(0.3f), half(60000.f), half(-0.f)};
  h.Attr("T", DT_HALF)
      .Input(Tensor::FromVector<half>(hx, TensorShape({4})))
      .Input(Tensor::Scalar<half>(half(3.f)));
  RILL_ASSERT_OK_AND_ASSIGN(std::vector<Tensor> hout, h.Run());
  for (int i = 0; i < 4; ++i) {
    const half want(vector_math::CubeF(static_cast<float>(hx[i])));
    EXPECT_EQ(hout[0].flat<half>()[i].bits, want.bits) << i;
  }
}

// A subnormal operand reads as a zero of its sign, as TensorFlow's pow reads it (denormals are
// zero): Pow(-1e-40, 0.5) is 0, not NaN; Pow(1e-40, 0.5) 0, not 1e-20; Pow(2, 1e-40) 1; but
// Pow(x, 1) is x.
TEST(PowTest, SubnormalOperandsReadAsZero) {
  const float sub = std::numeric_limits<float>::denorm_min() * 1000;
  for (const float e : {0.5f, 2.f, 3.f, 2.5f}) {
    SCOPED_TRACE(e);
    OpTester t("Pow", "p");
    t.Attr("T", DT_FLOAT)
        .Input(Tensor::FromVector<float>({-sub, sub, 4.f}, TensorShape({3})))
        .Input(Tensor::Scalar<float>(e));
    RILL_ASSERT_OK_AND_ASSIGN(std::vector<Tensor> out, t.Run());
    EXPECT_EQ(out[0].flat<float>()[0], 0.f);
    EXPECT_EQ(out[0].flat<float>()[1], 0.f);
    EXPECT_FALSE(std::signbit(out[0].flat<float>()[1]));
    EXPECT_EQ(out[0].flat<float>()[2], std::pow(4.f, e));
  }
  // An exponent of 1 returns x itself, a subnormal included (TensorFlow's pow does).
  OpTester one("Pow", "p");
  one.Attr("T", DT_FLOAT)
      .Input(Tensor::FromVector<float>({-sub, sub}, TensorShape({2})))
      .Input(Tensor::Scalar<float>(1.f));
  RILL_ASSERT_OK_AND_ASSIGN(std::vector<Tensor> same, one.Run());
  EXPECT_EQ(same[0].flat<float>()[0], -sub);
  EXPECT_EQ(same[0].flat<float>()[1], sub);
  OpTester d("Pow", "p");
  const double dsub = std::numeric_limits<double>::denorm_min() * 1000;
  d.Attr("T", DT_DOUBLE)
      .Input(Tensor::FromVector<double>({-dsub, dsub, 2.0}, TensorShape({3})))
      .Input(Tensor::FromVector<double>({0.5, 0.5, dsub}, TensorShape({3})));
  RILL_ASSERT_OK_AND_ASSIGN(std::vector<Tensor> dout, d.Run());
  EXPECT_EQ(dout[0].flat<double>()[0], 0.0);
  EXPECT_EQ(dout[0].flat<double>()[1], 0.0);
  EXPECT_EQ(dout[0].flat<double>()[2], 1.0);
}

TEST(EqualTest, StringsCompareByValueWithBroadcasting) {
  for (const char* op : {"Equal", "NotEqual"}) {
    OpTester t(op, "eq");
    t.Attr("T", DT_STRING)
        .Input(Tensor::FromVector<std::string>({"x", "", "xy"}, TensorShape({3})))
        .Input(Tensor::Scalar<std::string>("x"));
    RILL_ASSERT_OK_AND_ASSIGN(std::vector<Tensor> out, t.Run());
    const bool eq = std::string(op) == "Equal";
    ExpectTensorEqual(out[0], Tensor::FromVector<bool>({eq, !eq, !eq}, TensorShape({3})));
  }
}

// x [2, 9, 7, C] op y [C] (and y op x), against the per-element result, for rows shorter than
// the tile (C = 3, 5, 63: one tile is several rows, and the last stretch is shorter) and one as
// long (64, the row-by-row loop), on 1 and 2 intra-op threads, for float, int32 and half.
template <typename T>
void ExpectShortRowBroadcast(DataType dtype) {
  for (int64_t c : {3, 5, 63, 64}) {
    for (int threads : {1, 2}) {
      for (bool row_first : {false, true}) {
        SCOPED_TRACE(absl::StrCat("C ", c, ", threads ", threads, row_first ? ", row first" : ""));
        const TensorShape full_shape({2, 9, 7, c});
        std::vector<T> full(full_shape.num_elements()), row(c);
        for (size_t i = 0; i < full.size(); ++i)
          full[i] = static_cast<T>(static_cast<int>(i % 23) - 11);
        for (int64_t j = 0; j < c; ++j) row[j] = static_cast<T>(static_cast<int>(j % 7) * 3 - 8);
        std::vector<T> want(full.size());
        for (size_t i = 0; i < full.size(); ++i) {
          const float a = static_cast<float>(full[i]), b = static_cast<float>(row[i % c]);
          want[i] = static_cast<T>(row_first ? b - a : a - b);
        }
        OpTester t("Sub", "sub");
        t.SetIntraOpThreads(threads);
        const Tensor x = Tensor::FromVector<T>(full, full_shape);
        const Tensor y = Tensor::FromVector<T>(row, TensorShape({1, 1, c}));
        t.Attr("T", dtype).Input(row_first ? y : x).Input(row_first ? x : y);
        RILL_ASSERT_OK_AND_ASSIGN(std::vector<Tensor> out, t.Run());
        ExpectTensorEqual(out[0], Tensor::FromVector<T>(want, full_shape));
      }
    }
  }
}

TEST(SubTest, ShortRowsBroadcastAgainstAFullOperand) {
  ExpectShortRowBroadcast<float>(DT_FLOAT);
  ExpectShortRowBroadcast<int32_t>(DT_INT32);
  ExpectShortRowBroadcast<half>(DT_HALF);
}

// The [begin, end) blocks ParallelForElements<T> hands out for n elements at `cost` cycles each
// on 2 intra-op threads, in order.
template <typename T>
std::vector<std::pair<int64_t, int64_t>> SplitBlocks(int64_t n, int64_t cost) {
  OpKernelContext::Params p;
  p.intra_op_threads = 2;
  OpKernelContext ctx(&p, 0);
  std::mutex mu;
  std::vector<std::pair<int64_t, int64_t>> blocks;
  cwise_internal::ParallelForElements<T>(ctx, n, cost, [&](int64_t begin, int64_t end) {
    std::lock_guard<std::mutex> lock(mu);
    blocks.emplace_back(begin, end);
  });
  std::sort(blocks.begin(), blocks.end());
  return blocks;
}

// Blocks that cover [0, n) once, in order, each starting on a whole unit of `unit` elements.
void ExpectCover(const std::vector<std::pair<int64_t, int64_t>>& blocks, int64_t n, int64_t unit) {
  int64_t next = 0;
  for (const auto& [begin, end] : blocks) {
    EXPECT_EQ(begin, next);
    EXPECT_EQ(begin % unit, 0);
    EXPECT_LT(begin, end);
    next = end;
  }
  EXPECT_EQ(next, n);
}

// Functors of each cost class: cheap arithmetic, a library call per element, and one whose float
// loop vectorizes although its scalar code is costly (vector_math's sigmoid).
struct Cheap : CwiseFunctorBase {};
struct LibraryCall : CwiseFunctorBase {
  static constexpr int64_t kCost = 20;
};
struct VectorMath : CwiseFunctorBase {
  static constexpr int64_t kCost = 20;
  static constexpr int64_t kVectorCost = 60;
};

// Cycles per ParallelFor unit: 64 elements of the types the loops vectorize (their measured
// vector cost for float and the types computed in float, the cheap loops' cost scaled by element
// size, a library call's kCost per element), one element of the others.
TEST(CwiseParallelTest, CostPerUnitFollowsTheLoopsCost) {
  using cwise_internal::CostPerUnit;
  using cwise_internal::kCheapVectorCost;
  EXPECT_EQ((CostPerUnit<Cheap, float>()), kCheapVectorCost);
  EXPECT_EQ((CostPerUnit<Cheap, half>()), kCheapVectorCost);
  EXPECT_EQ((CostPerUnit<Cheap, int8_t>()), kCheapVectorCost);
  EXPECT_EQ((CostPerUnit<Cheap, double>()), 2 * kCheapVectorCost);
  EXPECT_EQ((CostPerUnit<Cheap, bool>()), 1);
  EXPECT_EQ((CostPerUnit<LibraryCall, float>()), 20 * 64);
  EXPECT_EQ((CostPerUnit<LibraryCall, bool>()), 20);
  EXPECT_EQ((CostPerUnit<VectorMath, float>()), 60);
  EXPECT_EQ((CostPerUnit<VectorMath, bfloat16>()), 60);
  EXPECT_EQ((CostPerUnit<VectorMath, double>()), 20 * 64);
}

// Below OpKernelContext::kMinOpenMpSplitCost (100,000 cycles) the work runs as one block on the
// calling thread: an Add or Relu over a [1, 40, 40, 256] activation (409,600 floats), anything
// cheap up to about 711k floats, a vector_math sigmoid up to about 107k, a library call up to
// 4,992 (78 units).
TEST(CwiseParallelTest, CheapWorkRunsAsOneBlock) {
  using cwise_internal::CostPerUnit;
  using ::testing::ElementsAre;
  using ::testing::Pair;
  EXPECT_THAT(SplitBlocks<float>(409600, CostPerUnit<Cheap, float>()),
              ElementsAre(Pair(0, 409600)));
  EXPECT_THAT(SplitBlocks<float>(711040, CostPerUnit<Cheap, float>()),
              ElementsAre(Pair(0, 711040)));
  EXPECT_THAT(SplitBlocks<half>(711040, CostPerUnit<Cheap, half>()), ElementsAre(Pair(0, 711040)));
  EXPECT_THAT(SplitBlocks<float>(106624, CostPerUnit<VectorMath, float>()),
              ElementsAre(Pair(0, 106624)));
  EXPECT_THAT(SplitBlocks<float>(4992, CostPerUnit<LibraryCall, float>()),
              ElementsAre(Pair(0, 4992)));
  // Types the loops do not vectorize count every element.
  EXPECT_THAT(SplitBlocks<bool>(100000, CostPerUnit<Cheap, bool>()), ElementsAre(Pair(0, 100000)));
}

TEST(CwiseParallelTest, LargerWorkSplitsIntoWholeUnitsCoveringEverythingOnce) {
  using cwise_internal::CostPerUnit;
  for (const auto& [n, cost] :
       std::vector<std::pair<int64_t, int64_t>>{{711105, CostPerUnit<Cheap, float>()},
                                                {1 << 22, CostPerUnit<Cheap, float>()},
                                                {106689, CostPerUnit<VectorMath, float>()},
                                                {5000, CostPerUnit<LibraryCall, float>()},
                                                {1000003, CostPerUnit<LibraryCall, float>()}}) {
    SCOPED_TRACE(absl::StrCat("n ", n, ", cost ", cost));
    const std::vector<std::pair<int64_t, int64_t>> blocks = SplitBlocks<float>(n, cost);
    EXPECT_GT(blocks.size(), 1u);
    ExpectCover(blocks, n, 64);
  }
  const std::vector<std::pair<int64_t, int64_t>> blocks = SplitBlocks<bool>(100001, 1);
  EXPECT_GT(blocks.size(), 1u);
  ExpectCover(blocks, 100001, 1);
}

}  // namespace
}  // namespace rill
