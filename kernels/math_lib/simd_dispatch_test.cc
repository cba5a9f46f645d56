#include "kernels/math_lib/simd_dispatch.h"

#include <cmath>
#include <cstdint>
#include <vector>

#include "gtest/gtest.h"

namespace rill {
namespace {

TEST(SimdDispatchTest, ScopedCapLowersTheActiveLevelAndRestoresIt) {
  const SimdLevel before = ActiveSimdLevel();
  {
    ScopedSimdLevelForTesting cap(SimdLevel::kBaseline);
    EXPECT_EQ(ActiveSimdLevel(), SimdLevel::kBaseline);
  }
  EXPECT_EQ(ActiveSimdLevel(), before);
}

TEST(SimdDispatchTest, ACapAboveTheCpuStaysAtTheCpu) {
  ScopedSimdLevelForTesting cap(SimdLevel::kAvx512);
  EXPECT_EQ(ActiveSimdLevel(), CpuSimdLevel());
}

TEST(SimdDispatchTest, LevelNames) {
  EXPECT_STREQ(SimdLevelName(SimdLevel::kBaseline), "baseline");
  EXPECT_STREQ(SimdLevelName(SimdLevel::kAvx2), "avx2");
  EXPECT_STREQ(SimdLevelName(SimdLevel::kAvx512), "avx512");
}

// Every level runs the body once and computes the same integer results (integer arithmetic does
// not depend on the vector width).
TEST(SimdDispatchTest, EveryLevelRunsTheLoop) {
  for (SimdLevel level : {SimdLevel::kBaseline, SimdLevel::kAvx2, SimdLevel::kAvx512}) {
    ScopedSimdLevelForTesting cap(level);
    std::vector<int32_t> a(1003), z(1003, 0);
    for (int i = 0; i < 1003; ++i) a[i] = i * 7 - 500;
    int calls = 0;
    RunSimd([&] {
      ++calls;
      for (int i = 0; i < 1003; ++i) z[i] = a[i] * 3 + (a[i] >> 2);
    });
    EXPECT_EQ(calls, 1) << SimdLevelName(level);
    for (int i = 0; i < 1003; ++i) {
      ASSERT_EQ(z[i], a[i] * 3 + (a[i] >> 2)) << SimdLevelName(level) << " at " << i;
    }
  }
}

}  // namespace
}  // namespace rill
