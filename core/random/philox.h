// Philox4x32-10, the counter-based generator TensorFlow's random ops use (Salmon et al., "Parallel
// random numbers: as easy as 1, 2, 3", SC 2011), with TensorFlow's seeding, so that ops seeded
// with the same (seed, seed2) attrs produce TensorFlow's streams bit for bit:
//
//   PhiloxRandom gen(seed, seed2);   // key = seed, counter high half = seed2
//   PhiloxRandom::ResultType r = gen();  // four uint32s; the counter then advances by one
//   gen.Skip(n);                     // as if gen() had been called n times
//
// Values, not shared state: copy a generator to branch a stream. Not thread-safe per object.
#ifndef RILL_CORE_RANDOM_PHILOX_H_
#define RILL_CORE_RANDOM_PHILOX_H_

#include <array>
#include <cstdint>

namespace rill {

class PhiloxRandom {
 public:
  using ResultType = std::array<uint32_t, 4>;
  static constexpr int kResultElementCount = 4;

  PhiloxRandom() = default;
  // TensorFlow's PhiloxRandom(seed_lo, seed_hi): the key is seed_lo's two halves, the counter's
  // upper 64 bits are seed_hi's.
  PhiloxRandom(uint64_t seed_lo, uint64_t seed_hi) {
    key_ = {static_cast<uint32_t>(seed_lo), static_cast<uint32_t>(seed_lo >> 32)};
    counter_[2] = static_cast<uint32_t>(seed_hi);
    counter_[3] = static_cast<uint32_t>(seed_hi >> 32);
  }

  // A generator at an explicit 128-bit counter (four uint32 words, low first) and 64-bit key (two
  // words, low first): TensorFlow's PhiloxRandom(counter, key), used by the stateless ops.
  PhiloxRandom(const ResultType& counter, const std::array<uint32_t, 2>& key)
      : counter_(counter), key_(key) {}

  // Advances the 128-bit counter by `count`.
  void Skip(uint64_t count) {
    const uint32_t lo = static_cast<uint32_t>(count);
    uint32_t hi = static_cast<uint32_t>(count >> 32);
    counter_[0] += lo;
    if (counter_[0] < lo) ++hi;
    counter_[1] += hi;
    if (counter_[1] < hi && ++counter_[2] == 0) ++counter_[3];
  }

  // The block for the current counter, then the counter advances by one.
  ResultType operator()() {
    ResultType counter = counter_;
    std::array<uint32_t, 2> key = key_;
    for (int round = 0; round < 10; ++round) {
      counter = Round(counter, key);
      key[0] += kWeyl0;
      key[1] += kWeyl1;
    }
    Skip(1);
    return counter;
  }

 private:
  static constexpr uint32_t kMultiplier0 = 0xD2511F53;
  static constexpr uint32_t kMultiplier1 = 0xCD9E8D57;
  static constexpr uint32_t kWeyl0 = 0x9E3779B9;
  static constexpr uint32_t kWeyl1 = 0xBB67AE85;

  static ResultType Round(const ResultType& c, const std::array<uint32_t, 2>& key) {
    const uint64_t p0 = static_cast<uint64_t>(kMultiplier0) * c[0];
    const uint64_t p1 = static_cast<uint64_t>(kMultiplier1) * c[2];
    return {static_cast<uint32_t>(p1 >> 32) ^ c[1] ^ key[0], static_cast<uint32_t>(p1),
            static_cast<uint32_t>(p0 >> 32) ^ c[3] ^ key[1], static_cast<uint32_t>(p0)};
  }

  ResultType counter_{};
  std::array<uint32_t, 2> key_{};
};

// Hands out a Philox stream's uint32s one at a time (TensorFlow's SingleSampleAdapter), for
// distributions that use a varying number of samples per output (truncated normal).
class SingleSampleAdapter {
 public:
  explicit SingleSampleAdapter(PhiloxRandom* gen) : gen_(gen) {}
  uint32_t operator()() {
    if (used_ == PhiloxRandom::kResultElementCount) {
      block_ = (*gen_)();
      used_ = 0;
    }
    return block_[used_++];
  }

 private:
  PhiloxRandom* gen_;  // Not owned.
  PhiloxRandom::ResultType block_{};
  int used_ = PhiloxRandom::kResultElementCount;
};

}  // namespace rill

#endif  // RILL_CORE_RANDOM_PHILOX_H_
