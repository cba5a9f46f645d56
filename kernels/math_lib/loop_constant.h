// LoopConstant: a float attr value that elementwise functors read once per element (LeakyRelu's
// alpha), stored as the bits of the float in an integer.
//
// The elementwise loops (cwise_op.h) store each result through a float / double / half pointer
// and call the functor through a reference, so a float member of the functor may, for all the
// compiler knows, be the very float just stored: it reloads the member after every store, which
// keeps the loop scalar (with a data-dependent branch per element, about 10 cycles each for
// LeakyRelu on mixed signs). No float store can change an integer object, so the value read back
// from the bits stays in a register and the loop vectorizes; the value is the same float bit for
// bit. Immutable after Set; reading is thread-safe.
#ifndef RILL_KERNELS_MATH_LIB_LOOP_CONSTANT_H_
#define RILL_KERNELS_MATH_LIB_LOOP_CONSTANT_H_

#include <cstdint>
#include <cstring>

namespace rill {

class LoopConstant {
 public:
  explicit LoopConstant(float v) { Set(v); }
  void Set(float v) { std::memcpy(&bits_, &v, sizeof(v)); }
  float get() const {
    const uint32_t bits = bits_;  // an integer load: no float store can change it
    float v;
    std::memcpy(&v, &bits, sizeof(v));
    return v;
  }

 private:
  uint32_t bits_;
};

}  // namespace rill

#endif  // RILL_KERNELS_MATH_LIB_LOOP_CONSTANT_H_
