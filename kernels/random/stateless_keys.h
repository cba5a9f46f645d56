// Seeds of the stateless random ops as TensorFlow reads them (stateless_random_ops.cc,
// random_sampling_ops.cc): a V1 `seed` [2] scrambled into a Philox key and counter (TensorFlow's
// GenerateKey), and a V2 op's `key` [1], `counter` and `alg` inputs checked and made a generator.
// Errors are TensorFlow's texts (InvalidArgument): "seed must have shape [2], not [3]", "key must
// have shape [1], not [2]. (Note that batched keys are not supported yet.)", "counter must be a
// vector with length at least 2; got shape: [1]. (...)", "input 3 (0-based) must have shape [],
// not [1]". Pure functions; thread-safe.
#ifndef RILL_KERNELS_RANDOM_STATELESS_KEYS_H_
#define RILL_KERNELS_RANDOM_STATELESS_KEYS_H_

#include <array>
#include <cstdint>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "core/random/philox.h"
#include "core/tensor.h"
#include "kernels/framework/index_values.h"

namespace rill {
namespace stateless {

using Key = std::array<uint32_t, 2>;

// TensorFlow's Algorithm enum (rng_alg.h).
constexpr int32_t kAlgPhilox = 1;
constexpr int32_t kAlgAutoSelect = 3;

struct KeyCounter {
  Key key;
  PhiloxRandom::ResultType counter;
};

inline absl::Status CheckSeed(const Tensor& seed) {
  if (seed.shape().rank() != 1 || seed.shape().dim(0) != 2) {
    return absl::InvalidArgumentError(
        absl::StrCat("seed must have shape [2], not ", seed.shape().DebugString()));
  }
  return absl::OkStatus();
}

// TensorFlow's GenerateKey: the seed pair becomes a counter, one Philox block under a fixed key
// mixes it, and the block's words become the key and the counter's upper half.
inline KeyCounter KeyCounterFromSeed(const Tensor& seed) {
  const std::vector<int64_t> s = IndexValues(seed);
  const uint64_t s0 = static_cast<uint64_t>(s[0]), s1 = static_cast<uint64_t>(s[1]);
  const PhiloxRandom::ResultType counter = {
      static_cast<uint32_t>(s0), static_cast<uint32_t>(s0 >> 32), static_cast<uint32_t>(s1),
      static_cast<uint32_t>(s1 >> 32)};
  const PhiloxRandom::ResultType mix = PhiloxRandom(counter, Key{0x3ec8f720, 0x02461e29})();
  return {Key{mix[0], mix[1]}, PhiloxRandom::ResultType{0, 0, mix[2], mix[3]}};
}

// The generator of a V2 op's key [1] and counter (uint64 words, low half first). A counter of one
// word, which TensorFlow accepts for Philox and then reads past, has its second word taken as 0.
inline PhiloxRandom GeneratorFromKeyCounter(const Tensor& key_t, const Tensor& counter_t) {
  const uint64_t key = key_t.flat<uint64_t>()[0];
  const auto words = counter_t.flat<uint64_t>();
  const uint64_t c[2] = {words[0], words.size() > 1 ? words[1] : 0};
  return PhiloxRandom({static_cast<uint32_t>(c[0]), static_cast<uint32_t>(c[0] >> 32),
                       static_cast<uint32_t>(c[1]), static_cast<uint32_t>(c[1] >> 32)},
                      Key{static_cast<uint32_t>(key), static_cast<uint32_t>(key >> 32)});
}

// A V2 op's algorithm (auto-select resolved to Philox), checked with its key and counter shapes
// as TensorFlow checks them: the counter's minimum length is the algorithm's id (1 for Philox).
inline absl::StatusOr<int32_t> CheckAlgKeyCounter(const Tensor& key_t, const Tensor& counter_t,
                                                  const Tensor& alg_t) {
  if (alg_t.shape().rank() != 0) {
    return absl::InvalidArgumentError(
        absl::StrCat("input 3 (0-based) must have shape [], not ", alg_t.shape().DebugString()));
  }
  int32_t alg = alg_t.flat<int32_t>()[0];
  if (alg == kAlgAutoSelect) alg = kAlgPhilox;
  if (key_t.shape().rank() != 1 || key_t.shape().dim(0) != 1) {
    return absl::InvalidArgumentError(absl::StrCat("key must have shape [1], not ",
                                                   key_t.shape().DebugString(),
                                                   ". (Note that batched keys are not supported "
                                                   "yet.)"));
  }
  if (counter_t.shape().rank() != 1 || counter_t.shape().dim(0) < alg) {
    return absl::InvalidArgumentError(absl::StrCat(
        "counter must be a vector with length at least ", alg, "; got shape: ",
        counter_t.shape().DebugString(), ". (Note that batched counters are not supported yet.)"));
  }
  return alg;
}

}  // namespace stateless
}  // namespace rill

#endif  // RILL_KERNELS_RANDOM_STATELESS_KEYS_H_
