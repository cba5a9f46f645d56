// Hashing kernels on the CPU, TensorFlow's hashes bit for bit (kernels/strings/hash.h):
//   StringToHashBucketFast: FarmHash Fingerprint64 of each string modulo num_buckets.
//   StringToHashBucket: Hash64 of each string modulo num_buckets (int64, the input's shape).
//   StringToHashBucketStrong: SipHash-2-4 keyed by the `key` attr's two ints, modulo num_buckets.
//   Fingerprint: [dim0, 8] uint8, the little-endian FarmHash Fingerprint64 of each row of `data`
//     (method "farmhash64"): of a row's bytes for numbers and bools; for strings, of each string
//     when a row holds one, else of the row's concatenated 8-byte string fingerprints.
// Errors (InvalidArgument, TensorFlow's texts): "Key must have 2 elements", "`method` should be a
// scalar string: [1]", "Unsupported fingerprint method: md5", "`data` should have at least one
// dimension: []"; num_buckets < 1 fails when the kernel is made.
// Kernels are immutable after construction; Compute is thread-safe.
#include <cstdint>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "core/status_macros.h"
#include "kernels/framework/kernel_registry.h"
#include "kernels/strings/hash.h"

namespace rill {
namespace {

absl::Status NumBuckets(OpKernelConstruction& ctx, int64_t* num_buckets) {
  RILL_RETURN_IF_ERROR(ctx.GetAttr("num_buckets", num_buckets));
  if (*num_buckets < 1) {
    return absl::InvalidArgumentError(absl::StrCat("Value for attr 'num_buckets' of ", *num_buckets,
                                                   " must be at least minimum 1"));
  }
  return absl::OkStatus();
}

enum class Bucketing { kFast, kPlain, kStrong };

// StringToHashBucketFast, StringToHashBucket and StringToHashBucketStrong.
template <Bucketing kHash>
class StringToHashBucketOp final : public OpKernel {
 public:
  explicit StringToHashBucketOp(OpKernelConstruction& ctx) : OpKernel(ctx) {
    ctx.SetStatus(NumBuckets(ctx, &num_buckets_));
    if constexpr (kHash == Bucketing::kStrong) {
      ctx.SetStatus(ctx.GetAttr("key", &key_));
      if (key_.size() != 2) ctx.SetStatus(absl::InvalidArgumentError("Key must have 2 elements"));
    }
  }
  absl::Status Compute(OpKernelContext& ctx) const override {
    const Tensor& in = ctx.input(0);
    RILL_ASSIGN_OR_RETURN(Tensor * out, ctx.allocate_output(0, in.shape()));
    auto s = in.flat<std::string>();
    auto z = out->flat<int64_t>();
    for (size_t i = 0; i < s.size(); ++i) {
      uint64_t h;
      if constexpr (kHash == Bucketing::kFast) {
        h = strings_hash::Fingerprint64(s[i].data(), s[i].size());
      } else if constexpr (kHash == Bucketing::kPlain) {
        h = strings_hash::Hash64(s[i].data(), s[i].size());
      } else {
        h = strings_hash::SipHash24(static_cast<uint64_t>(key_[0]), static_cast<uint64_t>(key_[1]),
                                    s[i].data(), s[i].size());
      }
      z[i] = static_cast<int64_t>(h % static_cast<uint64_t>(num_buckets_));
    }
    return absl::OkStatus();
  }
  bool IsExpensive() const override { return false; }

 private:
  int64_t num_buckets_ = 1;
  std::vector<int64_t> key_;
};

// Writes fingerprints of the [rows, row_bytes] bytes at `data` to `out` (rows x 8, little-endian).
void FingerprintRows(const char* data, int64_t rows, int64_t row_bytes, uint8_t* out) {
  for (int64_t r = 0; r < rows; ++r) {
    const uint64_t fp = strings_hash::Fingerprint64(data + r * row_bytes, row_bytes);
    for (int j = 0; j < 8; ++j) out[r * 8 + j] = static_cast<uint8_t>(fp >> (8 * j));
  }
}

class FingerprintOp final : public OpKernel {
 public:
  using OpKernel::OpKernel;
  absl::Status Compute(OpKernelContext& ctx) const override {
    const Tensor& method = ctx.input(1);
    if (method.shape().rank() != 0) {
      return absl::InvalidArgumentError(
          absl::StrCat("`method` should be a scalar string: ", method.shape().DebugString()));
    }
    if (method.flat<std::string>()[0] != "farmhash64") {
      return absl::InvalidArgumentError(
          absl::StrCat("Unsupported fingerprint method: ", method.flat<std::string>()[0]));
    }
    const Tensor& in = ctx.input(0);
    if (in.shape().rank() < 1) {
      return absl::InvalidArgumentError(
          absl::StrCat("`data` should have at least one dimension: ", in.shape().DebugString()));
    }
    const int64_t rows = in.shape().dim(0);
    const int64_t per_row = rows == 0 ? 0 : in.NumElements() / rows;
    RILL_ASSIGN_OR_RETURN(Tensor * out, ctx.allocate_output(0, TensorShape({rows, 8})));
    uint8_t* z = out->flat<uint8_t>().data();
    if (in.dtype() != DT_STRING) {
      FingerprintRows(static_cast<const char*>(in.raw_data()), rows,
                      per_row * DataTypeSize(in.dtype()), z);
      return absl::OkStatus();
    }
    auto s = in.flat<std::string>();
    if (per_row == 1) {
      for (int64_t r = 0; r < rows; ++r) FingerprintRows(s[r].data(), 1, s[r].size(), z + r * 8);
      return absl::OkStatus();
    }
    std::vector<uint8_t> each(s.size() * 8);
    for (size_t i = 0; i < s.size(); ++i)
      FingerprintRows(s[i].data(), 1, s[i].size(), &each[i * 8]);
    FingerprintRows(reinterpret_cast<const char*>(each.data()), rows, per_row * 8, z);
    return absl::OkStatus();
  }
  bool IsExpensive() const override { return false; }
};

REGISTER_KERNEL(KernelDefBuilder("StringToHashBucketFast").Device(kDeviceCpu),
                StringToHashBucketOp<Bucketing::kFast>);
REGISTER_KERNEL(KernelDefBuilder("StringToHashBucket").Device(kDeviceCpu),
                StringToHashBucketOp<Bucketing::kPlain>);
REGISTER_KERNEL(KernelDefBuilder("StringToHashBucketStrong").Device(kDeviceCpu),
                StringToHashBucketOp<Bucketing::kStrong>);
REGISTER_KERNEL(KernelDefBuilder("Fingerprint")
                    .Device(kDeviceCpu)
                    .TypeConstraint("T", {DT_FLOAT, DT_DOUBLE, DT_HALF, DT_INT32, DT_INT64,
                                          DT_UINT8, DT_INT8, DT_INT16, DT_BOOL, DT_STRING})
                    .HostMemory("method"),
                FingerprintOp);

}  // namespace
}  // namespace rill
