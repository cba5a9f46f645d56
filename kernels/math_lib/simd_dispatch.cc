#include "kernels/math_lib/simd_dispatch.h"

#include <atomic>
#include <cstdlib>
#include <cstring>

namespace rill {
namespace {

SimdLevel DetectCpu() {
#if RILL_SIMD_CLONES
  __builtin_cpu_init();
  if (__builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
      __builtin_cpu_supports("avx512dq") && __builtin_cpu_supports("avx512vl") &&
      __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma")) {
    return SimdLevel::kAvx512;
  }
  if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma")) {
    return SimdLevel::kAvx2;
  }
#endif
  return SimdLevel::kBaseline;
}

// RILL_SIMD's cap; an unknown value caps nothing.
SimdLevel EnvironmentCap() {
  const char* v = std::getenv("RILL_SIMD");
  if (v == nullptr) return SimdLevel::kAvx512;
  if (std::strcmp(v, "baseline") == 0) return SimdLevel::kBaseline;
  if (std::strcmp(v, "avx2") == 0) return SimdLevel::kAvx2;
  return SimdLevel::kAvx512;
}

SimdLevel Min(SimdLevel a, SimdLevel b) {
  return static_cast<int>(a) < static_cast<int>(b) ? a : b;
}

// -1: no test override.
std::atomic<int> test_cap{-1};

}  // namespace

SimdLevel CpuSimdLevel() {
  static const SimdLevel level = DetectCpu();
  return level;
}

SimdLevel ActiveSimdLevel() {
  static const SimdLevel level = Min(CpuSimdLevel(), EnvironmentCap());
  const int cap = test_cap.load(std::memory_order_relaxed);
  return cap < 0 ? level : Min(CpuSimdLevel(), static_cast<SimdLevel>(cap));
}

const char* SimdLevelName(SimdLevel level) {
  switch (level) {
    case SimdLevel::kAvx512:
      return "avx512";
    case SimdLevel::kAvx2:
      return "avx2";
    case SimdLevel::kBaseline:
      break;
  }
  return "baseline";
}

ScopedSimdLevelForTesting::ScopedSimdLevelForTesting(SimdLevel level)
    : previous_(test_cap.exchange(static_cast<int>(level))) {}

ScopedSimdLevelForTesting::~ScopedSimdLevelForTesting() { test_cap.store(previous_); }

}  // namespace rill
