// Stateless random ops on the CPU, bit for bit TensorFlow's: the output is a pure function of the
// inputs, drawn from a Philox stream the same way as the stateful ops (philox_fill.h) but with no
// reservation and no state between runs.
//   V1 (StatelessRandomUniform, StatelessRandomNormal, StatelessTruncatedNormal,
//     StatelessRandomUniformInt): a `seed` [2] (int32 values sign-extended) is scrambled into a
//     Philox key and counter (TensorFlow's GenerateKey; StatelessRandomGetKeyCounter outputs them).
//   V2 (StatelessRandomUniformV2, StatelessRandomNormalV2, StatelessTruncatedNormalV2,
//     StatelessRandomUniformIntV2): explicit `key` [1] and `counter` [>= alg id] uint64s and `alg`
//     (1 Philox, 3 auto-select = Philox; 2 ThreeFry has no CPU kernel in TensorFlow either).
//   StatelessRandomGetAlg / the alg output of StatelessRandomGetKeyCounterAlg: 1 (Philox).
// Errors (InvalidArgument, TensorFlow's texts): "seed must have shape [2], not [3]", "key must have
// shape [1], not [2]. (Note that batched keys are not supported yet.)", "counter must be a vector
// with length at least 2; got shape: [1]. (...)" (ThreeFry), "input 3 (0-based) must have shape [],
// not [1]", "Unsupported algorithm id: 2" (only for a non-empty output), plus random_op_util.h's.
// Thread safety: kernels hold no mutable state.
#include <cstdint>
#include <vector>

#include "absl/strings/str_cat.h"
#include "core/random/philox.h"
#include "core/status_macros.h"
#include "kernels/framework/kernel_registry.h"
#include "kernels/random/philox_fill.h"
#include "kernels/random/random_op_util.h"
#include "kernels/random/stateless_keys.h"

namespace rill {
namespace {

using stateless::CheckAlgKeyCounter;
using stateless::CheckSeed;
using stateless::GeneratorFromKeyCounter;
using stateless::kAlgPhilox;
using stateless::KeyCounter;
using stateless::KeyCounterFromSeed;

enum class Kind { kUniform, kNormal, kTruncatedNormal, kUniformInt };

// Fills `out` (allocated, non-empty); for kUniformInt, from the bounds at inputs lo_index and
// lo_index + 1.
absl::Status Fill(OpKernelContext& ctx, const OpKernel& kernel, Kind kind, int lo_index,
                  const PhiloxRandom& gen, Tensor* out) {
  if (kind != Kind::kUniformInt) {
    const random::FloatKind dist = kind == Kind::kUniform  ? random::FloatKind::kUniform
                                   : kind == Kind::kNormal ? random::FloatKind::kNormal
                                                           : random::FloatKind::kTruncatedNormal;
    return random::FillFloatTensor(dist, gen, out,
                                   absl::StrCat(kernel.type_string(), " node ", kernel.name()));
  }
  RILL_ASSIGN_OR_RETURN(auto bounds,
                        random::RandomIntBounds(ctx.input(lo_index), ctx.input(lo_index + 1)));
  random::FillUniformIntTensor(gen, bounds.first, bounds.second, out);
  return absl::OkStatus();
}

// V1: inputs shape, seed (and minval, maxval for kUniformInt).
template <Kind kKind>
class StatelessRandomOp final : public OpKernel {
 public:
  using OpKernel::OpKernel;

  absl::Status Compute(OpKernelContext& ctx) const override {
    RILL_ASSIGN_OR_RETURN(TensorShape shape, random::RandomOutputShape(ctx.input(0)));
    RILL_RETURN_IF_ERROR(CheckSeed(ctx.input(1)));
    RILL_ASSIGN_OR_RETURN(Tensor * out, ctx.allocate_output(0, shape));
    if (out->NumElements() == 0) return absl::OkStatus();
    const KeyCounter kc = KeyCounterFromSeed(ctx.input(1));
    return Fill(ctx, *this, kKind, /*lo_index=*/2, PhiloxRandom(kc.counter, kc.key), out);
  }
};

// V2: inputs shape, key, counter, alg (and minval, maxval for kUniformInt).
template <Kind kKind>
class StatelessRandomV2Op final : public OpKernel {
 public:
  using OpKernel::OpKernel;

  absl::Status Compute(OpKernelContext& ctx) const override {
    const Tensor& key = ctx.input(1);
    const Tensor& counter = ctx.input(2);
    RILL_ASSIGN_OR_RETURN(const int32_t alg, CheckAlgKeyCounter(key, counter, ctx.input(3)));
    RILL_ASSIGN_OR_RETURN(TensorShape shape, random::RandomOutputShape(ctx.input(0)));
    RILL_ASSIGN_OR_RETURN(Tensor * out, ctx.allocate_output(0, shape));
    if (out->NumElements() == 0) return absl::OkStatus();
    if (kKind == Kind::kUniformInt) {
      RILL_RETURN_IF_ERROR(random::RandomIntBounds(ctx.input(4), ctx.input(5)).status());
    }
    if (alg != kAlgPhilox) {
      return absl::InvalidArgumentError(absl::StrCat("Unsupported algorithm id: ", alg));
    }
    return Fill(ctx, *this, kKind, /*lo_index=*/4, GeneratorFromKeyCounter(key, counter), out);
  }
};

// StatelessRandomGetKeyCounter (alg output too when kWithAlg).
template <bool kWithAlg>
class GetKeyCounterOp final : public OpKernel {
 public:
  using OpKernel::OpKernel;

  absl::Status Compute(OpKernelContext& ctx) const override {
    RILL_RETURN_IF_ERROR(CheckSeed(ctx.input(0)));
    const KeyCounter kc = KeyCounterFromSeed(ctx.input(0));
    RILL_ASSIGN_OR_RETURN(Tensor * key, ctx.allocate_output(0, TensorShape({1})));
    key->flat<uint64_t>()[0] = kc.key[0] | (static_cast<uint64_t>(kc.key[1]) << 32);
    RILL_ASSIGN_OR_RETURN(Tensor * counter, ctx.allocate_output(1, TensorShape({2})));
    for (int i = 0; i < 2; ++i) {
      counter->flat<uint64_t>()[i] =
          kc.counter[2 * i] | (static_cast<uint64_t>(kc.counter[2 * i + 1]) << 32);
    }
    if constexpr (kWithAlg) {
      RILL_ASSIGN_OR_RETURN(Tensor * alg, ctx.allocate_output(2, TensorShape({})));
      alg->flat<int32_t>()[0] = kAlgPhilox;
    }
    return absl::OkStatus();
  }
};

class GetAlgOp final : public OpKernel {
 public:
  using OpKernel::OpKernel;

  absl::Status Compute(OpKernelContext& ctx) const override {
    RILL_ASSIGN_OR_RETURN(Tensor * alg, ctx.allocate_output(0, TensorShape({})));
    alg->flat<int32_t>()[0] = kAlgPhilox;
    return absl::OkStatus();
  }
};

const std::vector<DataType> kFloatTypes = {DT_HALF, DT_FLOAT, DT_DOUBLE};
const std::vector<DataType> kIndexTypes = {DT_INT32, DT_INT64};

#define RILL_STATELESS_V1(name, kind, out_attr, out_types)  \
  REGISTER_KERNEL(KernelDefBuilder(name)                    \
                      .Device(kDeviceCpu)                   \
                      .TypeConstraint(out_attr, out_types)  \
                      .TypeConstraint("T", kIndexTypes)     \
                      .TypeConstraint("Tseed", kIndexTypes) \
                      .HostMemory("shape")                  \
                      .HostMemory("seed"),                  \
                  StatelessRandomOp<kind>)
#define RILL_STATELESS_V2(name, kind, out_types)             \
  REGISTER_KERNEL(KernelDefBuilder(name)                     \
                      .Device(kDeviceCpu)                    \
                      .TypeConstraint("dtype", out_types)    \
                      .TypeConstraint("Tshape", kIndexTypes) \
                      .HostMemory("shape")                   \
                      .HostMemory("alg"),                    \
                  StatelessRandomV2Op<kind>)

RILL_STATELESS_V1("StatelessRandomUniform", Kind::kUniform, "dtype", kFloatTypes);
RILL_STATELESS_V1("StatelessRandomNormal", Kind::kNormal, "dtype", kFloatTypes);
RILL_STATELESS_V1("StatelessTruncatedNormal", Kind::kTruncatedNormal, "dtype", kFloatTypes);
RILL_STATELESS_V1("StatelessRandomUniformInt", Kind::kUniformInt, "dtype", kIndexTypes);
RILL_STATELESS_V2("StatelessRandomUniformV2", Kind::kUniform, kFloatTypes);
RILL_STATELESS_V2("StatelessRandomNormalV2", Kind::kNormal, kFloatTypes);
RILL_STATELESS_V2("StatelessTruncatedNormalV2", Kind::kTruncatedNormal, kFloatTypes);
RILL_STATELESS_V2("StatelessRandomUniformIntV2", Kind::kUniformInt, kIndexTypes);

REGISTER_KERNEL(KernelDefBuilder("StatelessRandomGetKeyCounter")
                    .Device(kDeviceCpu)
                    .TypeConstraint("Tseed", kIndexTypes)
                    .HostMemory("seed"),
                GetKeyCounterOp<false>);
REGISTER_KERNEL(KernelDefBuilder("StatelessRandomGetKeyCounterAlg")
                    .Device(kDeviceCpu)
                    .TypeConstraint("Tseed", kIndexTypes)
                    .HostMemory("seed"),
                GetKeyCounterOp<true>);
REGISTER_KERNEL(KernelDefBuilder("StatelessRandomGetAlg").Device(kDeviceCpu), GetAlgOp);

}  // namespace
}  // namespace rill
