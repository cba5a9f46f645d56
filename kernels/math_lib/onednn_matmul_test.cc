// OneDnnMatMul against a triple loop: transposes, bias and activations, batch sizes sharing one
// packed copy, a new weights address remaking it, threads, and concurrent callers.
#include "kernels/math_lib/onednn_matmul.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <thread>
#include <vector>

#include "core/status_matchers.h"
#include "gtest/gtest.h"

namespace rill {
namespace {

std::vector<float> Values(int64_t n, int seed) {
  std::vector<float> v(n);
  for (int64_t i = 0; i < n; ++i) v[i] = static_cast<float>((i * 7 + seed * 13) % 17) / 8.f - 1.f;
  return v;
}

Tensor Weights(int64_t n, int seed) {
  return Tensor::FromVector<float>(Values(n, seed), TensorShape({n}));
}

// `weights` is held by `packed` as a kernel holds its Const input: calls with the same tensor
// share the packed copies.
void ExpectLikeALoop(const OneDnnMatMulShape& s, int threads, const Tensor& weights,
                     OneDnnPackedWeights* packed, const std::string& what) {
  const float* b = weights.flat<float>().data();
  const std::vector<float> a = Values(s.m * s.k, 1), bias = Values(s.n, 3);
  std::vector<float> c(s.m * s.n, -99.f);
  ASSERT_THAT(OneDnnMatMul(s, threads, a.data(), b, bias.data(), c.data(),
                           HoldConstantWeights(packed, weights)),
              IsOk())
      << what;
  for (int64_t i = 0; i < s.m; ++i) {
    for (int64_t j = 0; j < s.n; ++j) {
      double want = s.has_bias ? bias[j] : 0;
      for (int64_t p = 0; p < s.k; ++p) {
        want += double{s.transpose_a ? a[p * s.m + i] : a[i * s.k + p]} *
                (s.transpose_b ? b[j * s.k + p] : b[p * s.n + j]);
      }
      if (s.activation == FusedActivation::kSwish) {
        want = want / (1 + std::exp(-want));
      } else if (s.activation == FusedActivation::kHardSwish) {
        want = want * std::min(std::max(want + 3, 0.0), 6.0) / 6;
      } else if (s.activation != FusedActivation::kNone) {
        want = std::max(want, 0.0);
        if (s.activation == FusedActivation::kRelu6) want = std::min(want, 6.0);
      }
      ASSERT_NEAR(c[i * s.n + j], want, 1e-4 * (1 + std::fabs(want)) * std::sqrt(double(s.k)))
          << what << " at " << i << "," << j;
    }
  }
}

TEST(OneDnnMatMulTest, MatchesATripleLoop) {
  for (bool ta : {false, true}) {
    for (bool tb : {false, true}) {
      for (FusedActivation act :
           {FusedActivation::kNone, FusedActivation::kRelu, FusedActivation::kRelu6,
            FusedActivation::kSwish, FusedActivation::kHardSwish}) {
        OneDnnPackedWeights packed;
        const Tensor b = Weights(300 * 260, 2);
        for (int64_t m : {1, 7, 64}) {  // one weights matrix, several batch sizes
          OneDnnMatMulShape s;
          s.m = m;
          s.n = 260;
          s.k = 300;
          s.transpose_a = ta;
          s.transpose_b = tb;
          s.has_bias = act != FusedActivation::kNone || m == 7;
          s.activation = act;
          ExpectLikeALoop(s, 1 + static_cast<int>(m % 2), b, &packed,
                          "m=" + std::to_string(m) + (ta ? " ta" : "") + (tb ? " tb" : ""));
        }
      }
    }
  }
}

// TensorFlow's Relu and Relu6 keep NaN; oneDNN's relu and clip post-ops would give 0.
TEST(OneDnnMatMulTest, ReluAndRelu6KeepANaNFromTheInput) {
  for (FusedActivation act : {FusedActivation::kRelu, FusedActivation::kRelu6}) {
    OneDnnMatMulShape s;
    s.m = 4;
    s.n = 256;
    s.k = 256;
    s.has_bias = true;
    s.activation = act;
    const Tensor weights = Weights(256 * 256, 2);
    std::vector<float> a = Values(4 * 256, 1), bias = Values(256, 3), c(4 * 256, -99.f);
    a[256] = std::nanf("");  // row 1
    OneDnnPackedWeights packed;
    ASSERT_THAT(OneDnnMatMul(s, 1, a.data(), weights.flat<float>().data(), bias.data(), c.data(),
                             HoldConstantWeights(&packed, weights)),
                IsOk());
    for (int64_t i = 0; i < 4; ++i) {
      for (int64_t j = 0; j < 256; ++j) {
        const float v = c[i * 256 + j];
        EXPECT_EQ(std::isnan(v), i == 1)
            << "act " << static_cast<int>(act) << " [" << i << "," << j << "] = " << v;
        if (i != 1) EXPECT_GE(v, 0.f);
      }
    }
  }
}

// Relu / Relu6 run as oneDNN's post-op only where no NaN can reach it (onednn_common.h's
// ReluPostOpIsExact); for every input, finite or not, and both layouts of B, the fused output is
// the product without activation clamped as TensorFlow clamps, NaN for NaN.
TEST(OneDnnMatMulTest, ReluPostOpOnlyWhereNoNaNCanReachIt) {
  const float inf = std::numeric_limits<float>::infinity();
  const std::vector<float> poisons = {0.f, std::nanf(""), inf, -inf, 3e38f, -3e38f};
  for (bool transpose_b : {false, true}) {
    for (FusedActivation act : {FusedActivation::kRelu, FusedActivation::kRelu6}) {
      for (size_t p = 0; p < poisons.size(); ++p) {
        SCOPED_TRACE(::testing::Message() << "transpose_b " << transpose_b << " act "
                                          << static_cast<int>(act) << " poison " << poisons[p]);
        OneDnnMatMulShape s;
        s.m = 4;
        s.n = 128;
        s.k = 96;
        s.transpose_b = transpose_b;
        s.has_bias = true;
        const Tensor weights = Weights(s.k * s.n, 2);
        std::vector<float> a = Values(s.m * s.k, 1), bias = Values(s.n, 3);
        if (p > 0) {
          a[s.k + 5] = poisons[p];  // row 1
          a[s.k + 6] = -poisons[p];
        }
        std::vector<float> plain(s.m * s.n, -99.f), fused(s.m * s.n, -99.f);
        OneDnnPackedWeights packed, packed_plain;
        ASSERT_THAT(OneDnnMatMul(s, 1, a.data(), weights.flat<float>().data(), bias.data(),
                                 plain.data(), HoldConstantWeights(&packed_plain, weights)),
                    IsOk());
        s.activation = act;
        ASSERT_THAT(OneDnnMatMul(s, 1, a.data(), weights.flat<float>().data(), bias.data(),
                                 fused.data(), HoldConstantWeights(&packed, weights)),
                    IsOk());
        int nans = 0;
        for (size_t i = 0; i < plain.size(); ++i) {
          if (std::isnan(plain[i])) {
            ++nans;
            EXPECT_TRUE(std::isnan(fused[i])) << "at " << i;
            continue;
          }
          float want = plain[i] <= 0.f ? 0.f : plain[i];
          if (act == FusedActivation::kRelu6 && want > 6.f) want = 6.f;
          EXPECT_EQ(fused[i], want) << "at " << i;
          EXPECT_FALSE(std::signbit(fused[i])) << "at " << i;
        }
        if (p == 0) EXPECT_EQ(nans, 0);
        if (p > 0 && p < 4) EXPECT_GT(nans, 0);  // NaN, and inf - inf
      }
    }
  }
}

TEST(OneDnnMatMulTest, NewWeightsAtANewAddressAreRepacked) {
  OneDnnMatMulShape s;
  s.m = 4;
  s.n = 256;
  s.k = 256;
  OneDnnPackedWeights packed;
  const Tensor first = Weights(256 * 256, 2), second = Weights(256 * 256, 5);
  ExpectLikeALoop(s, 1, first, &packed, "first");
  ExpectLikeALoop(s, 1, second, &packed, "second");
  ExpectLikeALoop(s, 1, first, &packed, "first again");
}

TEST(OneDnnMatMulTest, ConcurrentCallersShareThePackedWeights) {
  OneDnnMatMulShape s;
  s.m = 16;
  s.n = 300;
  s.k = 400;
  s.has_bias = true;
  s.activation = FusedActivation::kRelu;
  OneDnnPackedWeights packed;
  const Tensor b = Weights(300 * 400, 2);
  std::vector<std::thread> callers;
  for (int t = 0; t < 4; ++t) {
    callers.emplace_back([&, t] { ExpectLikeALoop(s, 1 + t % 2, b, &packed, "concurrent"); });
  }
  for (std::thread& t : callers) t.join();
}

TEST(OneDnnMatMulTest, OnlyLargeWeightsTakeThisPath) {
  EXPECT_FALSE(OneDnnMatMulPays(10, 512));  // an MLP's last layer
  EXPECT_FALSE(OneDnnMatMulPays(32, 32));   // the wide graph's products
  EXPECT_TRUE(OneDnnMatMulPays(512, 784));  // an MLP's first layer
}

}  // namespace
}  // namespace rill
