// Cast on the CPU between every pair of numeric dtypes and bool. Conversions as TensorFlow's CPU
// kernel gives them on x86: float -> integer truncates toward zero, and a NaN or out-of-range
// value becomes the integer type's minimum (what the hardware conversion returns; C++ leaves it
// undefined, so it is spelled out); narrower integers wrap; anything -> bool is `!= 0`;
// half/bfloat16 go through float (half <-> float eight elements at a time with F16C,
// kernels/math_lib/half_convert.h, the same values); complex -> real or bool keeps the real part.
// A quantized dtype (qint8, quint8, qint16, quint16, qint32) casts as the integer it holds, both
// ways, as TensorFlow's does: float 300.7 -> qint8 is 44, quint8 200 -> float is 200. With
// `Truncate` set, a float or double cast to a narrower floating type (but double -> bfloat16) has
// the mantissa bits that type cannot hold cleared first (NaN kept), so it rounds toward zero:
// TensorFlow's float 1.00415 -> bfloat16 is 1.0 rather than 1.0078125.
#include <cmath>
#include <complex>
#include <cstdint>
#include <cstring>
#include <limits>
#include <type_traits>

#include "absl/strings/str_cat.h"
#include "core/quantized_types.h"
#include "core/status_macros.h"
#include "kernels/framework/kernel_registry.h"
#include "kernels/math_lib/half_convert.h"

namespace rill {
namespace {

template <typename T>
struct IsComplexType : std::false_type {};
template <typename T>
struct IsComplexType<std::complex<T>> : std::true_type {};

template <typename T>
constexpr bool kIsLowPrecision = std::is_same_v<T, half> || std::is_same_v<T, bfloat16>;

// A floating value converted to integer type I as x86's truncating conversion does.
template <typename I>
I FloatToInt(double x) {
  if constexpr (sizeof(I) >= 4 && std::is_signed_v<I>) {
    if (!(x >= static_cast<double>(std::numeric_limits<I>::min()) &&
          x < -static_cast<double>(std::numeric_limits<I>::min()))) {
      return std::numeric_limits<I>::min();
    }
    return static_cast<I>(x);
  } else if constexpr (sizeof(I) == 8) {  // uint64 through int64, wrapping
    return static_cast<I>(FloatToInt<int64_t>(x));
  } else if constexpr (sizeof(I) == 4) {  // uint32 through int64, wrapping
    return static_cast<I>(FloatToInt<int64_t>(x));
  } else {  // 8- and 16-bit through int32, wrapping: 3e9 gives 0, 70000 gives 4464 (TensorFlow's)
    return static_cast<I>(FloatToInt<int32_t>(x));
  }
}

template <typename T>
constexpr int kMantissaBits = std::is_same_v<T, double>  ? 52
                              : std::is_same_v<T, float> ? 23
                              : std::is_same_v<T, half>  ? 10
                                                         : 7;  // bfloat16

template <typename T>
constexpr bool kIsFloating = std::is_floating_point_v<T> || kIsLowPrecision<T>;

// `v` with the mantissa bits Dst cannot hold cleared, for a cast with Truncate set: TensorFlow
// does so for float -> half and bfloat16, double -> half and float, complex128 -> complex64 (each
// part), and not for double -> bfloat16. Other values (integers, NaN, other pairs) unchanged.
template <typename Dst, typename Src>
Src ClearUnheldBits(Src v) {
  if constexpr (std::is_same_v<Src, std::complex<double>> &&
                std::is_same_v<Dst, std::complex<float>>) {
    return Src(ClearUnheldBits<float>(v.real()), ClearUnheldBits<float>(v.imag()));
  } else if constexpr (std::is_floating_point_v<Src> && kIsFloating<Dst> &&
                       kMantissaBits<Dst> < kMantissaBits<Src> &&
                       !(std::is_same_v<Src, double> && std::is_same_v<Dst, bfloat16>)) {
    if (std::isnan(v)) return v;
    using Bits = std::conditional_t<sizeof(Src) == 8, uint64_t, uint32_t>;
    Bits bits;
    std::memcpy(&bits, &v, sizeof(bits));
    bits &= ~((Bits{1} << (kMantissaBits<Src> - kMantissaBits<Dst>)) - 1);
    std::memcpy(&v, &bits, sizeof(bits));
  }
  return v;
}

template <typename Dst, typename Src>
Dst CastValue(const Src& v) {
  if constexpr (std::is_same_v<Dst, Src>) {
    return v;
  } else if constexpr (std::is_same_v<Src, bfloat16> && std::is_same_v<Dst, bool>) {
    // TensorFlow tests the bits: a subnormal is true, though it reads as 0 as a float (DAZ).
    return (v.bits & 0x7fff) != 0;
  } else if constexpr (kIsLowPrecision<Src>) {
    return CastValue<Dst, float>(static_cast<float>(v));
  } else if constexpr (IsComplexType<Src>::value) {
    if constexpr (IsComplexType<Dst>::value) {
      return Dst(static_cast<typename Dst::value_type>(v.real()),
                 static_cast<typename Dst::value_type>(v.imag()));
    } else if constexpr (std::is_same_v<Dst, bool>) {
      return v.real() != 0;  // TensorFlow's complex -> bool looks at the real part only
    } else {
      return CastValue<Dst>(v.real());
    }
  } else if constexpr (std::is_same_v<Dst, bool>) {
    return v != Src(0);
  } else if constexpr (kIsLowPrecision<Dst>) {
    return Dst(static_cast<float>(v));
  } else if constexpr (IsComplexType<Dst>::value) {
    return Dst(static_cast<typename Dst::value_type>(v), 0);
  } else if constexpr (std::is_integral_v<Dst> && std::is_floating_point_v<Src>) {
    return FloatToInt<Dst>(static_cast<double>(v));
  } else {
    return static_cast<Dst>(v);
  }
}

class CastOp final : public OpKernel {
 public:
  explicit CastOp(OpKernelConstruction& ctx) : OpKernel(ctx) {
    if (ctx.def().attr().count("Truncate") > 0) ctx.SetStatus(ctx.GetAttr("Truncate", &truncate_));
  }
  absl::Status Compute(OpKernelContext& ctx) const override {
    const Tensor& x = ctx.input(0);
    if (x.dtype() == output_type(0)) {
      ctx.set_output(0, x);
      return absl::OkStatus();
    }
    RILL_ASSIGN_OR_RETURN(Tensor * y, ctx.allocate_output(0, x.shape()));
    return VisitDataType(QuantizedStorageType(x.dtype()), [&](auto src_tag) -> absl::Status {
      using Src = typename decltype(src_tag)::type;
      return VisitDataType(QuantizedStorageType(y->dtype()), [&](auto dst_tag) -> absl::Status {
        using Dst = typename decltype(dst_tag)::type;
        if constexpr (std::is_same_v<Src, std::string> || std::is_same_v<Dst, std::string>) {
          return absl::UnimplementedError(absl::StrCat("Cast ", DataTypeString(x.dtype()), " to ",
                                                       DataTypeString(y->dtype()),
                                                       " is not supported"));
        } else {
          const Src* in = static_cast<const Src*>(x.raw_data());
          Dst* out = static_cast<Dst*>(y->raw_data());
          ctx.ParallelFor(x.NumElements(), 2, [&](int64_t begin, int64_t end) {
            if (truncate_) {
              for (int64_t i = begin; i < end; ++i) {
                out[i] = CastValue<Dst, Src>(ClearUnheldBits<Dst>(in[i]));
              }
            } else if constexpr (std::is_same_v<Src, half> && std::is_same_v<Dst, float>) {
              HalfToFloat(in + begin, end - begin, out + begin);
            } else if constexpr (std::is_same_v<Src, float> && std::is_same_v<Dst, half>) {
              FloatToHalf(in + begin, end - begin, out + begin);
            } else {
              for (int64_t i = begin; i < end; ++i) out[i] = CastValue<Dst, Src>(in[i]);
            }
          });
          return absl::OkStatus();
        }
      });
    });
  }
  bool IsExpensive() const override { return false; }

 private:
  bool truncate_ = false;
};

const std::vector<DataType>& CastTypes() {
  static const auto* types = new std::vector<DataType>(WithQuantizedTypes(
      {DT_HALF, DT_BFLOAT16, DT_FLOAT, DT_DOUBLE, DT_INT8, DT_INT16, DT_INT32, DT_INT64, DT_UINT8,
       DT_UINT16, DT_UINT32, DT_UINT64, DT_BOOL, DT_COMPLEX64, DT_COMPLEX128}));
  return *types;
}

REGISTER_KERNEL(KernelDefBuilder("Cast")
                    .Device(kDeviceCpu)
                    .TypeConstraint("SrcT", CastTypes())
                    .TypeConstraint("DstT", CastTypes()),
                CastOp);

}  // namespace
}  // namespace rill
