// Fills an output from a Philox stream the way TensorFlow's FillPhiloxRandom does, shared by the
// stateful random ops (random_ops.cc) and the stateless ones (stateless_random_ops.cc):
//   FillGroups(base, UniformDist<float>(), n, out);   // group g from block g of `base`
//   FillTruncatedNormal(base, n, out);                 // group g from its own sub-stream
// A group is the outputs one Philox block gives: 4 for 32-bit and 16-bit types, 2 for 64-bit ones
// (a partial last group uses a prefix). Pure functions over a copied generator; thread-safe.
#ifndef RILL_KERNELS_RANDOM_PHILOX_FILL_H_
#define RILL_KERNELS_RANDOM_PHILOX_FILL_H_

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <type_traits>

#include "core/half.h"
#include "core/random/distributions.h"
#include "core/random/philox.h"

namespace rill {
namespace random {

// TensorFlow's reservation multiplier: blocks set aside per output element.
constexpr uint64_t kBlocksPerOutput = 256;

// [0, 1) floats, doubles or halves.
template <typename T>
struct UniformDist {
  static constexpr int kGroup = std::is_same_v<T, double> ? 2 : 4;
  void operator()(const PhiloxRandom::ResultType& s, T* out) const {
    if constexpr (std::is_same_v<T, float>) {
      for (int i = 0; i < 4; ++i) out[i] = Uint32ToFloat(s[i]);
    } else if constexpr (std::is_same_v<T, double>) {
      for (int i = 0; i < 2; ++i) out[i] = Uint64ToDouble(s[2 * i], s[2 * i + 1]);
    } else {
      for (int i = 0; i < 4; ++i) out[i] = Uint16ToHalf(static_cast<uint16_t>(s[i]));
    }
  }
};

// Standard normals by Box-Muller (halves computed in float).
template <typename T>
struct NormalDist {
  static constexpr int kGroup = std::is_same_v<T, double> ? 2 : 4;
  void operator()(const PhiloxRandom::ResultType& s, T* out) const {
    if constexpr (std::is_same_v<T, double>) {
      BoxMullerDouble(s[0], s[1], s[2], s[3], &out[0], &out[1]);
    } else {
      for (int i = 0; i < 4; i += 2) {
        float f0, f1;
        BoxMullerFloat(s[i], s[i + 1], &f0, &f1);
        out[i] = T(f0);
        out[i + 1] = T(f1);
      }
    }
  }
};

// Integers in [lo, lo + range): lo + bits % range, wrapping (int32, int64, uint32, uint64).
template <typename T>
struct UniformIntDist {
  static constexpr int kGroup = sizeof(T) == 8 ? 2 : 4;
  T lo;
  std::make_unsigned_t<T> range;
  void operator()(const PhiloxRandom::ResultType& s, T* out) const {
    using U = std::make_unsigned_t<T>;
    for (int i = 0; i < kGroup; ++i) {
      U bits = sizeof(T) == 8
                   ? static_cast<U>(s[2 * i] | (static_cast<uint64_t>(s[2 * i + 1]) << 32))
                   : static_cast<U>(s[i]);
      out[i] = static_cast<T>(static_cast<U>(lo) + bits % range);
    }
  }
};

// Fills n outputs, group g from block g of `base`.
template <typename T, typename Dist>
void FillGroups(PhiloxRandom base, const Dist& dist, int64_t n, T* out) {
  T group[4];
  for (int64_t offset = 0; offset < n; offset += Dist::kGroup) {
    dist(base(), group);
    const int64_t take = std::min<int64_t>(Dist::kGroup, n - offset);
    std::copy(group, group + take, out + offset);
  }
}

// Truncated normal: each group draws from its own sub-stream (kBlocksPerOutput blocks per output
// further on), one uint32 at a time, keeping values with |v| < 2.
template <typename T>
void FillTruncatedNormal(const PhiloxRandom& base, int64_t n, T* out) {
  constexpr int kGroup = std::is_same_v<T, double> ? 2 : 4;
  constexpr uint64_t kSkipPerGroup = kGroup * kBlocksPerOutput / PhiloxRandom::kResultElementCount;
  for (int64_t g = 0; g * kGroup < n; ++g) {
    PhiloxRandom gen = base;
    gen.Skip(static_cast<uint64_t>(g) * kSkipPerGroup);
    SingleSampleAdapter samples(&gen);
    T group[kGroup];
    int filled = 0;
    while (filled < kGroup) {
      if constexpr (std::is_same_v<T, double>) {
        const uint32_t x0 = samples(), x1 = samples(), x2 = samples(), x3 = samples();
        double d[2];
        BoxMullerDouble(x0, x1, x2, x3, &d[0], &d[1]);
        for (int i = 0; i < 2 && filled < kGroup; ++i) {
          if (std::abs(d[i]) < 2.0) group[filled++] = d[i];
        }
      } else {
        const uint32_t x0 = samples(), x1 = samples();
        float f[2];
        BoxMullerFloat(x0, x1, &f[0], &f[1]);
        for (int i = 0; i < 2 && filled < kGroup; ++i) {
          if (std::abs(f[i]) < 2.0f) group[filled++] = T(f[i]);
        }
      }
    }
    const int64_t take = std::min<int64_t>(kGroup, n - g * kGroup);
    std::copy(group, group + take, out + g * kGroup);
  }
}

// The floating-point distributions of the random ops.
enum class FloatKind { kUniform, kNormal, kTruncatedNormal };

template <typename T>
void FillFloat(FloatKind kind, const PhiloxRandom& base, int64_t n, T* out) {
  switch (kind) {
    case FloatKind::kUniform:
      FillGroups(base, UniformDist<T>(), n, out);
      break;
    case FloatKind::kNormal:
      FillGroups(base, NormalDist<T>(), n, out);
      break;
    default:
      FillTruncatedNormal(base, n, out);
  }
}

}  // namespace random
}  // namespace rill

#endif  // RILL_KERNELS_RANDOM_PHILOX_FILL_H_
