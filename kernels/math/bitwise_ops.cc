// Bitwise elementwise kernels on the CPU for the integer types (all eight, as TensorFlow's):
// BitwiseAnd, BitwiseOr, BitwiseXor, LeftShift, RightShift (numpy broadcasting), Invert and
// PopulationCount (the set bits of each element, as uint8). A shift amount outside [0, bits - 1] is
// clamped to that range, as TensorFlow does; LeftShift wraps (two's complement), RightShift is
// arithmetic for signed types. No errors beyond "Incompatible shapes" and a missing dtype.
#include <bitset>
#include <cstdint>
#include <type_traits>

#include "core/status_macros.h"
#include "kernels/framework/kernel_registry.h"
#include "kernels/math_lib/cwise_op.h"

namespace rill {
namespace {

template <typename T>
int ClampedShift(T y) {
  constexpr int kMax = static_cast<int>(sizeof(T) * 8 - 1);
  if constexpr (std::is_signed_v<T>) {
    if (y < T(0)) return 0;
  }
  return y > static_cast<T>(kMax) ? kMax : static_cast<int>(y);
}

struct BitwiseAndFunctor : CwiseFunctorBase {
  template <typename T>
  T operator()(T x, T y) const {
    return static_cast<T>(x & y);
  }
};
struct BitwiseOrFunctor : CwiseFunctorBase {
  template <typename T>
  T operator()(T x, T y) const {
    return static_cast<T>(x | y);
  }
};
struct BitwiseXorFunctor : CwiseFunctorBase {
  template <typename T>
  T operator()(T x, T y) const {
    return static_cast<T>(x ^ y);
  }
};
struct LeftShiftFunctor : CwiseFunctorBase {
  template <typename T>
  T operator()(T x, T y) const {
    // Shifted as unsigned (at least unsigned int): a signed left shift that overflows is UB.
    using U = std::conditional_t<(sizeof(T) < sizeof(unsigned)), unsigned, std::make_unsigned_t<T>>;
    return static_cast<T>(static_cast<U>(static_cast<U>(x) << ClampedShift(y)));
  }
};
struct RightShiftFunctor : CwiseFunctorBase {
  template <typename T>
  T operator()(T x, T y) const {
    return static_cast<T>(x >> ClampedShift(y));  // arithmetic for signed T (C++20 defines it)
  }
};
struct InvertFunctor : CwiseFunctorBase {
  template <typename T>
  T operator()(T x) const {
    return static_cast<T>(~x);
  }
};

#define RILL_INTS int8_t, int16_t, int32_t, int64_t, uint8_t, uint16_t, uint32_t, uint64_t

REGISTER_CWISE_CPU("BitwiseAnd", BinaryOp, BitwiseAndFunctor, RILL_INTS);
REGISTER_CWISE_CPU("BitwiseOr", BinaryOp, BitwiseOrFunctor, RILL_INTS);
REGISTER_CWISE_CPU("BitwiseXor", BinaryOp, BitwiseXorFunctor, RILL_INTS);
REGISTER_CWISE_CPU("LeftShift", BinaryOp, LeftShiftFunctor, RILL_INTS);
REGISTER_CWISE_CPU("RightShift", BinaryOp, RightShiftFunctor, RILL_INTS);
REGISTER_CWISE_CPU("Invert", UnaryOp, InvertFunctor, RILL_INTS);

class PopulationCountOp final : public OpKernel {
 public:
  using OpKernel::OpKernel;

  absl::Status Compute(OpKernelContext& ctx) const override {
    const Tensor& x = ctx.input(0);
    RILL_ASSIGN_OR_RETURN(Tensor * out, ctx.allocate_output(0, x.shape()));
    return VisitKernelTypes<RILL_INTS>(*this, x.dtype(), [&](auto tag) {
      using T = typename decltype(tag)::type;
      using U = std::make_unsigned_t<T>;
      const T* in = x.flat<T>().data();
      uint8_t* z = out->flat<uint8_t>().data();
      for (int64_t i = 0; i < x.NumElements(); ++i) {
        z[i] = static_cast<uint8_t>(std::bitset<sizeof(U) * 8>(static_cast<U>(in[i])).count());
      }
      return absl::OkStatus();
    });
  }
};

REGISTER_KERNEL(KernelDefBuilder("PopulationCount")
                    .Device(kDeviceCpu)
                    .TypeConstraint("T", DataTypesOf<RILL_INTS>()),
                PopulationCountOp);

}  // namespace
}  // namespace rill
