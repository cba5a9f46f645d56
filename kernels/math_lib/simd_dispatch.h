// Runs a loop compiled for the widest x86 vector extension of the CPU it runs on. The project
// builds for the x86-64 baseline (SSE2) so one binary runs everywhere; the elementwise and
// reduction loops, instantiated inside RunSimd, are compiled twice more with GCC/Clang's target
// attribute (AVX2 + FMA, and AVX-512) and chosen at run time from cpuid:
//
//   RunSimd([&] { for (int64_t i = begin; i < end; ++i) z[i] = f(a[i]); });
//
// `flatten` inlines everything the body calls into the clone, so the functor's scalar code
// (Eigen's rational tanh, vector_math.h's exp) is vectorized at the clone's width. Only the clone
// matching the CPU ever runs; a call the compiler could not inline goes to the baseline copy,
// which runs anywhere.
//
// Thread-safe: the level is read once (cpuid) and only tests change it
// (ScopedSimdLevelForTesting, which is not thread-safe against running kernels).
#ifndef RILL_KERNELS_MATH_LIB_SIMD_DISPATCH_H_
#define RILL_KERNELS_MATH_LIB_SIMD_DISPATCH_H_

namespace rill {

enum class SimdLevel { kBaseline = 0, kAvx2 = 1, kAvx512 = 2 };

// The level RunSimd uses: the CPU's (AVX-512 needs F, BW, DQ and VL; AVX2 needs FMA), capped by
// the environment variable RILL_SIMD=baseline|avx2|avx512 (Rill-only; to compare paths or to rule
// one out) and by ScopedSimdLevelForTesting.
SimdLevel ActiveSimdLevel();
// The CPU's own level, ignoring RILL_SIMD and tests.
SimdLevel CpuSimdLevel();
const char* SimdLevelName(SimdLevel level);

// Caps ActiveSimdLevel for a test's scope (a level above the CPU's stays capped by the CPU).
class ScopedSimdLevelForTesting {
 public:
  explicit ScopedSimdLevelForTesting(SimdLevel level);
  ~ScopedSimdLevelForTesting();
  ScopedSimdLevelForTesting(const ScopedSimdLevelForTesting&) = delete;
  ScopedSimdLevelForTesting& operator=(const ScopedSimdLevelForTesting&) = delete;

 private:
  int previous_;
};

namespace simd_internal {

#if defined(__x86_64__) && defined(__GNUC__)
#define RILL_SIMD_CLONES 1
template <typename Body>
__attribute__((target("avx512f,avx512bw,avx512dq,avx512vl,avx2,fma"), flatten)) void RunAvx512(
    const Body& body) {
  body();
}
template <typename Body>
__attribute__((target("avx2,fma"), flatten)) void RunAvx2(const Body& body) {
  body();
}
#else
#define RILL_SIMD_CLONES 0
#endif

}  // namespace simd_internal

template <typename Body>
inline void RunSimd(const Body& body) {
#if RILL_SIMD_CLONES
  switch (ActiveSimdLevel()) {
    case SimdLevel::kAvx512:
      simd_internal::RunAvx512(body);
      return;
    case SimdLevel::kAvx2:
      simd_internal::RunAvx2(body);
      return;
    case SimdLevel::kBaseline:
      break;
  }
#endif
  body();
}

}  // namespace rill

#endif  // RILL_KERNELS_MATH_LIB_SIMD_DISPATCH_H_
