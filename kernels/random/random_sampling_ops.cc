// RandomShuffle and Multinomial on the CPU, seeded as TensorFlow seeds them (a Philox generator
// keyed by the node's seed/seed2 attrs, random when both are 0; every run reserves its samples and
// moves the generator past them), so seeded graphs give TensorFlow's results:
//   RandomShuffle: the first dimension permuted by TensorFlow's Fisher-Yates (element i swapped
//     with i + u % (n - i), u the stream's next uint32); rows move whole. A tensor with at most one
//     row is forwarded.
//   Multinomial(logits [batch, classes], num_samples): per row, the unnormalized CDF of
//     exp(logit - max) over finite logits (in double); each sample is the first class whose CDF
//     exceeds u * total, u a double from two uint32s; rows draw one after another from the
//     reserved stream (TensorFlow's order when one shard covers the batch; TensorFlow splits
//     large batches over threads, each shard skipping ahead, which Rill does not reproduce).
// Errors are InvalidArgument with TensorFlow's texts: "logits should be a matrix, got shape [3]",
// "num_samples should be a scalar.", "num_samples should be nonnegative, got -1", "num_classes
// should be positive, got: 0".
//
// Thread safety: Compute may run concurrently; the generator is guarded by a mutex.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <random>
#include <vector>

#include "absl/strings/str_cat.h"
#include "core/mutex.h"
#include "core/random/distributions.h"
#include "core/random/philox.h"
#include "core/status_macros.h"
#include "kernels/framework/kernel_registry.h"
#include "kernels/framework/layout_util.h"
#include "kernels/framework/type_lists.h"
#include "kernels/math_lib/cwise_op.h"
#include "kernels/random/stateless_keys.h"

namespace rill {
namespace {

// The per-kernel generator (TensorFlow's GuardedPhiloxRandom).
class GuardedPhilox {
 public:
  explicit GuardedPhilox(OpKernelConstruction& ctx) {
    int64_t seed = 0, seed2 = 0;
    ctx.SetStatus(ctx.GetAttr("seed", &seed));
    ctx.SetStatus(ctx.GetAttr("seed2", &seed2));
    if (seed == 0 && seed2 == 0) {
      std::random_device rd;
      seed = (static_cast<int64_t>(rd()) << 32) | rd();
      seed2 = (static_cast<int64_t>(rd()) << 32) | rd();
    }
    gen_ = PhiloxRandom(static_cast<uint64_t>(seed), static_cast<uint64_t>(seed2));
  }
  // The stream for `blocks` 128-bit blocks; the generator moves past them.
  PhiloxRandom Reserve128(uint64_t blocks) const {
    rill::MutexLock lock(&mu_);
    PhiloxRandom base = gen_;
    gen_.Skip(blocks);
    return base;
  }

 private:
  mutable rill::Mutex mu_;
  mutable PhiloxRandom gen_ ABSL_GUARDED_BY(mu_);
};

// TensorFlow's RandomShuffle: the first dimension of `in` permuted by Fisher-Yates from `gen`
// (element i swapped with i + u % (n - i), u the stream's next uint32); rows move whole. A tensor
// with at most one row is forwarded.
absl::Status Shuffle(OpKernelContext& ctx, const Tensor& in, PhiloxRandom gen) {
  if (in.NumElements() <= 1 || in.shape().dim(0) <= 1) {
    ctx.set_output(0, in);
    return absl::OkStatus();
  }
  const int64_t n = in.shape().dim(0);
  SingleSampleAdapter single(&gen);
  std::vector<int64_t> perm(n);
  for (int64_t i = 0; i < n; ++i) perm[i] = i;
  for (int64_t i = 0; i + 1 < n; ++i) {
    std::swap(perm[i], perm[i + single() % static_cast<uint32_t>(n - i)]);
  }
  RILL_ASSIGN_OR_RETURN(Tensor * out, ctx.allocate_output(0, in.shape()));
  const int64_t row = in.NumElements() / n;
  return VisitElementType(in.dtype(), [&](auto tag) -> absl::Status {
    using T = typename decltype(tag)::type;
    const T* x = ElementsOf<T>(in);
    T* z = ElementsOf<T>(*out);
    for (int64_t i = 0; i < n; ++i)
      std::copy(x + perm[i] * row, x + (perm[i] + 1) * row, z + i * row);
    return absl::OkStatus();
  });
}

class RandomShuffleOp final : public OpKernel {
 public:
  explicit RandomShuffleOp(OpKernelConstruction& ctx) : OpKernel(ctx), gen_(ctx) {}

  absl::Status Compute(OpKernelContext& ctx) const override {
    const Tensor& in = ctx.input(0);
    if (in.NumElements() <= 1 || in.shape().dim(0) <= 1) return Shuffle(ctx, in, PhiloxRandom());
    const int64_t n = in.shape().dim(0);
    return Shuffle(ctx, in, gen_.Reserve128((static_cast<uint64_t>(n - 1) + 3) / 4));
  }

 private:
  GuardedPhilox gen_;
};

// StatelessShuffle(value, key, counter, alg): RandomShuffle's permutation from the V2 generator.
class StatelessShuffleOp final : public OpKernel {
 public:
  using OpKernel::OpKernel;

  absl::Status Compute(OpKernelContext& ctx) const override {
    const Tensor& key = ctx.input(1);
    const Tensor& counter = ctx.input(2);
    RILL_ASSIGN_OR_RETURN(const int32_t alg,
                          stateless::CheckAlgKeyCounter(key, counter, ctx.input(3)));
    if (alg != stateless::kAlgPhilox) {
      return absl::InvalidArgumentError(absl::StrCat("Unsupported algorithm id: ", alg));
    }
    return Shuffle(ctx, ctx.input(0), stateless::GeneratorFromKeyCounter(key, counter));
  }
};

// Multinomial's samples of logits (input 0) and num_samples (input 1) from `base`, the stream the
// op reserved (two uint32s per sample, rows one after another).
absl::Status SampleMultinomial(OpKernelContext& ctx, const OpKernel& kernel,
                               const PhiloxRandom& base) {
  const Tensor& logits = ctx.input(0);
  const Tensor& num_samples_t = ctx.input(1);
  if (logits.shape().rank() != 2) {
    return absl::InvalidArgumentError(
        absl::StrCat("logits should be a matrix, got shape ", logits.shape().DebugString()));
  }
  if (num_samples_t.shape().rank() != 0) {
    return absl::InvalidArgumentError("num_samples should be a scalar.");
  }
  const int64_t num_samples = num_samples_t.flat<int32_t>()[0];
  if (num_samples < 0) {
    return absl::InvalidArgumentError(
        absl::StrCat("num_samples should be nonnegative, got ", num_samples));
  }
  const int64_t batch = logits.shape().dim(0), classes = logits.shape().dim(1);
  if (classes <= 0 && batch > 0) {
    return absl::InvalidArgumentError(
        absl::StrCat("num_classes should be positive, got: ", classes));
  }
  RILL_ASSIGN_OR_RETURN(const TensorShape out_shape, TensorShape::FromDims({batch, num_samples}));
  RILL_ASSIGN_OR_RETURN(Tensor * out, ctx.allocate_output(0, out_shape));
  if (out->NumElements() == 0) return absl::OkStatus();
  return VisitKernelTypes<half, float, double>(kernel, logits.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    const T* l = logits.flat<T>().data();
    PhiloxRandom gen = base;
    SingleSampleAdapter single(&gen);
    std::vector<double> cdf(classes);
    for (int64_t b = 0; b < batch; ++b) {
      const T* row = l + b * classes;
      double max = -std::numeric_limits<double>::infinity();
      bool any = false;
      for (int64_t j = 0; j < classes; ++j) {
        const double v = static_cast<double>(cwise_internal::Load(row[j]));
        if (std::isfinite(v)) {
          max = any ? std::max(max, v) : v;
          any = true;
        }
      }
      if (!any) max = static_cast<double>(cwise_internal::Load(std::numeric_limits<T>::lowest()));
      double total = 0;
      for (int64_t j = 0; j < classes; ++j) {
        const double v = static_cast<double>(cwise_internal::Load(row[j]));
        if (std::isfinite(v)) total += std::exp(v - max);
        cdf[j] = total;
      }
      for (int64_t s = 0; s < num_samples; ++s) {
        const uint32_t x0 = single(), x1 = single();
        const double to_find = random::Uint64ToDouble(x0, x1) * total;
        const int64_t k = std::upper_bound(cdf.begin(), cdf.end(), to_find) - cdf.begin();
        if (out->dtype() == DT_INT32) {
          out->flat<int32_t>()[b * num_samples + s] = static_cast<int32_t>(k);
        } else {
          out->flat<int64_t>()[b * num_samples + s] = k;
        }
      }
    }
    return absl::OkStatus();
  });
}

class MultinomialOp final : public OpKernel {
 public:
  explicit MultinomialOp(OpKernelConstruction& ctx) : OpKernel(ctx), gen_(ctx) {}

  absl::Status Compute(OpKernelContext& ctx) const override {
    const Tensor& logits = ctx.input(0);
    const Tensor& num_samples_t = ctx.input(1);
    if (logits.shape().rank() != 2 || num_samples_t.shape().rank() != 0) {
      return SampleMultinomial(ctx, *this, PhiloxRandom());  // the shape errors
    }
    const int64_t num_samples = std::max<int64_t>(num_samples_t.flat<int32_t>()[0], 0);
    // TensorFlow reserves two uint32s per double sample, in groups of four per row, only for a
    // non-empty output.
    const int64_t batch = logits.shape().dim(0);
    if (batch == 0 || num_samples == 0 || logits.shape().dim(1) <= 0) {
      return SampleMultinomial(ctx, *this, PhiloxRandom());
    }
    const uint64_t ceil4 = static_cast<uint64_t>((num_samples + 3) / 4 * 4) * 2;
    return SampleMultinomial(ctx, *this,
                             gen_.Reserve128(static_cast<uint64_t>(batch) * ceil4 * 256));
  }

 private:
  GuardedPhilox gen_;
};

// StatelessMultinomial(logits, num_samples, seed): Multinomial's samples from the generator the
// seed names (no reservation, no state).
class StatelessMultinomialOp final : public OpKernel {
 public:
  using OpKernel::OpKernel;

  absl::Status Compute(OpKernelContext& ctx) const override {
    RILL_RETURN_IF_ERROR(stateless::CheckSeed(ctx.input(2)));
    const stateless::KeyCounter kc = stateless::KeyCounterFromSeed(ctx.input(2));
    return SampleMultinomial(ctx, *this, PhiloxRandom(kc.counter, kc.key));
  }
};

REGISTER_KERNEL(
    KernelDefBuilder("RandomShuffle").Device(kDeviceCpu).TypeConstraint("T", StorableTypes()),
    RandomShuffleOp);
REGISTER_KERNEL(KernelDefBuilder("Multinomial")
                    .Device(kDeviceCpu)
                    .TypeConstraint("T", DataTypesOf<half, float, double>())
                    .TypeConstraint("output_dtype", {DT_INT32, DT_INT64})
                    .HostMemory("num_samples"),
                MultinomialOp);
REGISTER_KERNEL(KernelDefBuilder("StatelessMultinomial")
                    .Device(kDeviceCpu)
                    .TypeConstraint("T", DataTypesOf<half, float, double>())
                    .TypeConstraint("output_dtype", {DT_INT32, DT_INT64})
                    .TypeConstraint("Tseed", {DT_INT32, DT_INT64})
                    .HostMemory("num_samples")
                    .HostMemory("seed"),
                StatelessMultinomialOp);
REGISTER_KERNEL(
    KernelDefBuilder("StatelessShuffle").Device(kDeviceCpu).TypeConstraint("T", StorableTypes()),
    StatelessShuffleOp);

}  // namespace
}  // namespace rill
