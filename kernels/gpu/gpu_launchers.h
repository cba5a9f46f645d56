// The CUDA kernels of Rill's GPU ops, as plain launch functions (implemented by the .cu files of
// kernels/gpu/, compiled by nvcc) so that the OpKernel classes need no CUDA headers. Every
// launcher enqueues on `stream` (the device's compute stream, a cudaStream_t) and returns at
// once; the caller checks the launch with GpuDevice::LaunchStatus. Pointers are device memory of
// the stream's GPU, except where a parameter says otherwise. T is float or double.
// Thread-safe (launches on one stream are ordered by the stream).
#ifndef RILL_KERNELS_GPU_GPU_LAUNCHERS_H_
#define RILL_KERNELS_GPU_GPU_LAUNCHERS_H_

#include <cstdint>

namespace rill {
namespace gpu_kernels {

enum class BinaryFn {
  kAdd,
  kSub,
  kMul,
  kDiv,
  kMaximum,
  kMinimum,
  kSquaredDifference,
  kPow,
  kFloorDiv,  // floor(a / b)
  kFloorMod   // a - floor(a / b) * b with the sign of b, as fmod then corrected
};
enum class UnaryFn {
  kRelu,
  kRelu6,
  kSigmoid,
  kTanh,
  kNeg,
  kAbs,
  kExp,
  kLog,
  kSqrt,
  kRsqrt,
  kSquare,
  kReciprocal,
  kSin,
  kCos,
  kErf,
  kErfc,
  kSoftplus,  // TensorFlow's thresholds: x when large, exp(x) when very negative
  kSoftsign,
  kElu,
  kSelu,
  kFloor,
  kCeil,
  kRound,  // half to even
  kSign,   // NaN stays NaN
  kLog1p,
  kExpm1
};
enum class CompareFn { kLess, kLessEqual, kGreater, kGreaterEqual, kEqual, kNotEqual };
enum class ReduceFn { kSum, kMean, kMax, kMin, kProd };

constexpr int kMaxRank = 8;

// Where output element i of a broadcasting binary op reads its operands: i is split into
// coordinates over `out_dims`; an operand's offset is the sum of coordinate * its stride (0 for
// a dimension it broadcasts).
struct BroadcastIndex {
  int rank = 0;
  int64_t out_dims[kMaxRank] = {};
  int64_t a_strides[kMaxRank] = {};
  int64_t b_strides[kMaxRank] = {};
};

// out[i] = fn(a[i], b[i]) over n elements; `index` null means both operands have n elements
// (no broadcasting).
template <typename T>
void LaunchBinary(BinaryFn fn, const T* a, const T* b, T* out, int64_t n,
                  const BroadcastIndex* index, void* stream);
// out[i] = fn(x[i]); out may be x.
template <typename T>
void LaunchUnary(UnaryFn fn, const T* x, T* out, int64_t n, void* stream);
// out[i] = x[i] < 0 ? alpha * x[i] : x[i] (LeakyRelu).
template <typename T>
void LaunchLeakyRelu(const T* x, T* out, int64_t n, T alpha, void* stream);
// out[i] = fn(a[i], b[i]) as bool, broadcasting as LaunchBinary.
template <typename T>
void LaunchCompare(CompareFn fn, const T* a, const T* b, bool* out, int64_t n,
                   const BroadcastIndex* index, void* stream);
// out[i] = x[i] is NaN (T float or double).
template <typename T>
void LaunchIsNan(const T* x, bool* out, int64_t n, void* stream);
// out = x + bias broadcast along the channel dimension: element i has channel
// (i / inner) % channels (inner 1 for NHWC, H*W for NCHW).
template <typename T>
void LaunchBiasAdd(const T* x, const T* bias, T* out, int64_t n, int64_t channels, int64_t inner,
                   void* stream);
// out[i] = value (value passed by host).
template <typename T>
void LaunchFill(T* out, T value, int64_t n, void* stream);
// out[i] = Dst(x[i]); Src and Dst are float, double, int32_t, int64_t or bool, converted as the
// CPU kernel (kernels/math/cast_op.cc): float -> integer truncates and a NaN or out-of-range value
// becomes the integer's minimum; anything -> bool is `!= 0`.
template <typename Src, typename Dst>
void LaunchCast(const Src* x, Dst* out, int64_t n, void* stream);
// The same for float16 tensors (IEEE half as its 16 bits), computed in float32 and rounded to
// nearest even, as the CPU kernels compute half.
void LaunchBinaryHalf(BinaryFn fn, const uint16_t* a, const uint16_t* b, uint16_t* out, int64_t n,
                      const BroadcastIndex* index, void* stream);
void LaunchUnaryHalf(UnaryFn fn, const uint16_t* x, uint16_t* out, int64_t n, void* stream);
void LaunchBiasAddHalf(const uint16_t* x, const uint16_t* bias, uint16_t* out, int64_t n,
                       int64_t channels, int64_t inner, void* stream);
void LaunchFillHalf(uint16_t* out, uint16_t value, int64_t n, void* stream);
// float32 <-> float16 (IEEE half as its 16 bits), rounding to nearest even.
void LaunchCastFloatToHalf(const float* x, uint16_t* out, int64_t n, void* stream);
void LaunchCastHalfToFloat(const uint16_t* x, float* out, int64_t n, void* stream);
// Cast with its `Truncate` attr set: the mantissa bits the result cannot hold are cleared first
// (a NaN is kept as it is), then the value is rounded as above, as the CPU kernel
// (kernels/math/cast_op.cc) and TensorFlow do for double -> float and float -> float16.
void LaunchTruncatingCastDoubleToFloat(const double* x, float* out, int64_t n, void* stream);
void LaunchTruncatingCastFloatToHalf(const float* x, uint16_t* out, int64_t n, void* stream);
// Row-wise softmax (or log-softmax) of a [rows, cols] matrix, max-subtracted as TensorFlow's.
template <typename T>
void LaunchSoftmax(const T* logits, T* out, int64_t rows, int64_t cols, bool log, void* stream);

// A reduction's index arithmetic: output element o has coordinates over `kept_dims` (input
// strides `kept_strides`); it reduces `reduced_count` elements whose coordinates over
// `reduced_dims` have input strides `reduced_strides`.
struct ReduceIndex {
  int kept_rank = 0, reduced_rank = 0;
  int64_t kept_dims[kMaxRank] = {}, kept_strides[kMaxRank] = {};
  int64_t reduced_dims[kMaxRank] = {}, reduced_strides[kMaxRank] = {};
  int64_t outputs = 1, reduced_count = 1;
};
// One block per output element, its threads striding over the reduced elements; when the
// outputs are too few to fill the GPU, ReduceParts(index) blocks per output write partial results
// to `scratch` (outputs * ReduceParts elements of device memory, unused when that is 1) and a
// second launch combines them. Mean divides by reduced_count; an empty reduction gives the
// identity (0, 1, -inf / +inf for Max / Min, NaN for Mean as 0/0).
int64_t ReduceParts(const ReduceIndex& index);
template <typename T>
void LaunchReduce(ReduceFn fn, const T* in, T* out, const ReduceIndex& index, T* scratch,
                  void* stream);

}  // namespace gpu_kernels
}  // namespace rill

#endif  // RILL_KERNELS_GPU_GPU_LAUNCHERS_H_
