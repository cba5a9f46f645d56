// Shared piece of the CPU Add/AddV2 and AddN kernels: the element addition every dtype uses
// (broadcasting lives in kernels/math_lib/broadcast.h).
//
//   RILL_ASSIGN_OR_RETURN(TensorShape out, BroadcastShapes(x.shape(), y.shape()));
//   z[i] = AddValues(x[i], y[i]);
//
// Pure functions; thread-safe.
#ifndef RILL_KERNELS_MATH_ADD_OP_H_
#define RILL_KERNELS_MATH_ADD_OP_H_

#include <string>
#include <type_traits>

#include "core/types.h"
#include "kernels/math_lib/broadcast.h"
#include "kernels/math_lib/cwise_math.h"

namespace rill {

// a + b as TensorFlow's CPU kernels compute it: integers wrap on overflow (two's complement, never
// UB), half and bfloat16 add in float and round once, strings concatenate.
template <typename T>
T AddValues(const T& a, const T& b) {
  if constexpr (std::is_same_v<T, half> || std::is_same_v<T, bfloat16>) {
    return T(static_cast<float>(a) + static_cast<float>(b));
  } else {
    return cwise_math::WrapAdd(a, b);
  }
}

}  // namespace rill

#endif  // RILL_KERNELS_MATH_ADD_OP_H_
