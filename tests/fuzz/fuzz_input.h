// FuzzInput: reads typed values out of a fuzzer's byte string, for the structure-aware targets
// (the same role as LLVM's FuzzedDataProvider, which only clang ships; the smoke build uses GCC).
// Reading past the end yields zeros, so every byte string decodes to something.
//
// Not thread-safe; one per input.
#ifndef RILL_TESTS_FUZZ_FUZZ_INPUT_H_
#define RILL_TESTS_FUZZ_FUZZ_INPUT_H_

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>

namespace rill {
namespace fuzz {

class FuzzInput {
 public:
  FuzzInput(const uint8_t* data, size_t size) : data_(data), size_(size) {}

  size_t remaining() const { return size_ - pos_; }

  uint8_t Byte() { return pos_ < size_ ? data_[pos_++] : 0; }
  bool Bool() { return (Byte() & 1) != 0; }
  // A value in [lo, hi] (both inclusive); one byte when the range fits in one.
  int64_t IntInRange(int64_t lo, int64_t hi) {
    const uint64_t range = static_cast<uint64_t>(hi - lo);
    uint64_t v = 0;
    for (uint64_t covered = 0; covered < range; covered = (covered << 8) | 0xff) {
      v = (v << 8) | Byte();
      if (covered > (UINT64_MAX >> 8)) break;
    }
    return lo + static_cast<int64_t>(range == UINT64_MAX ? v : v % (range + 1));
  }
  // One of `n` choices, by index.
  size_t Pick(size_t n) { return static_cast<size_t>(IntInRange(0, static_cast<int64_t>(n) - 1)); }
  // A small float in [-8, 8) in steps of 1/16, occasionally inf or nan.
  float SmallFloat() {
    const uint8_t b = Byte();
    if (b == 0xff) return __builtin_inff();
    if (b == 0xfe) return __builtin_nanf("");
    return static_cast<float>(static_cast<int8_t>(b)) / 16.0f;
  }
  // Up to `max_len` raw bytes.
  std::string Bytes(size_t max_len) {
    const size_t n = static_cast<size_t>(IntInRange(0, static_cast<int64_t>(max_len)));
    const size_t take = n < remaining() ? n : remaining();
    std::string s(reinterpret_cast<const char*>(data_ + pos_), take);
    pos_ += take;
    return s;
  }
  // Everything not read yet.
  std::string Rest() {
    std::string s(reinterpret_cast<const char*>(data_ + pos_), remaining());
    pos_ = size_;
    return s;
  }

 private:
  const uint8_t* data_;
  size_t size_;
  size_t pos_ = 0;
};

}  // namespace fuzz
}  // namespace rill

#endif  // RILL_TESTS_FUZZ_FUZZ_INPUT_H_
