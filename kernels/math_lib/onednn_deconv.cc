#include "kernels/math_lib/onednn_deconv.h"

#include <omp.h>

#include <algorithm>
#include <dnnl.hpp>
#include <memory>
#include <tuple>
#include <unordered_map>
#include <utility>

#include "absl/container/flat_hash_map.h"
#include "absl/strings/str_cat.h"
#include "core/mutex.h"
#include "core/openmp_parallel_for.h"
#include "kernels/math_lib/onednn_common.h"
#include "kernels/math_lib/onednn_conv.h"

namespace rill {
namespace {

using dnnl::memory;

// oneDNN sizes a primitive's work split by the OpenMP thread count when it is created.
auto Key(const ConvGeometry& g, int threads) {
  return std::make_tuple(threads, g.batch, g.in_h, g.in_w, g.in_c, g.k_h, g.k_w, g.out_c, g.out_h,
                         g.out_w, g.stride_h, g.stride_w, g.dil_h, g.dil_w, g.pad_h, g.pad_w);
}
using DeconvKey = decltype(Key(ConvGeometry(), 1));

// One geometry's primitive and descriptors. Immutable once built.
struct DeconvPlan {
  dnnl::deconvolution_forward::primitive_desc pd;
  dnnl::deconvolution_forward primitive;
  memory::desc src, dst, user_weights, weights;
  bool reorder_weights = false;
  OneDnnReorder weights_reorder;
  size_t weights_bytes = 0;
  size_t scratchpad_bytes = 0;
};

// The padding after the last window that makes oneDNN's size formula, (out - 1) * stride +
// (k - 1) * dil + 1 = in + before + after, hold: negative when the last input rows lie past every
// window (VALID with a stride that does not divide), whose gradient is zero.
int64_t PadAfter(int64_t in, int64_t out, int64_t k, int64_t stride, int64_t dil, int64_t before) {
  return (out - 1) * stride + (k - 1) * dil + 1 - in - before;
}

absl::StatusOr<std::shared_ptr<const DeconvPlan>> BuildPlan(const ConvGeometry& g) {
  using tag = memory::format_tag;
  const auto f32 = memory::data_type::f32;
  auto plan = std::make_shared<DeconvPlan>();
  // The deconvolution reads the convolution's output gradient and writes its input gradient.
  plan->src = memory::desc({g.batch, g.out_c, g.out_h, g.out_w}, f32, tag::nhwc);
  plan->dst = memory::desc({g.batch, g.in_c, g.in_h, g.in_w}, f32, tag::nhwc);
  // Deconvolution weights are (its output channels = in_c, its input channels = out_c, h, w);
  // TensorFlow's HWIO [k_h, k_w, in_c, out_c] is that with these strides.
  const memory::dims dims = {g.in_c, g.out_c, g.k_h, g.k_w};
  plan->user_weights =
      memory::desc(dims, f32, memory::dims{g.out_c, 1, g.k_w * g.in_c * g.out_c, g.in_c * g.out_c});
  const memory::dims strides = {g.stride_h, g.stride_w};
  const memory::dims dilates = {g.dil_h - 1, g.dil_w - 1};  // oneDNN counts the gaps
  const memory::dims pad_l = {g.pad_h, g.pad_w};
  const memory::dims pad_r = {PadAfter(g.in_h, g.out_h, g.k_h, g.stride_h, g.dil_h, g.pad_h),
                              PadAfter(g.in_w, g.out_w, g.k_w, g.stride_w, g.dil_w, g.pad_w)};
  try {
    dnnl::deconvolution_forward::desc desc(
        dnnl::prop_kind::forward_inference, dnnl::algorithm::deconvolution_direct, plan->src,
        memory::desc(dims, f32, tag::any), plan->dst, strides, dilates, pad_l, pad_r);
    dnnl::primitive_attr attr;
    // Each call brings its own scratchpad (the library-managed one is shared by the process).
    attr.set_scratchpad_mode(dnnl::scratchpad_mode::user);
    plan->pd = dnnl::deconvolution_forward::primitive_desc(desc, attr, OneDnnEngine());
    plan->primitive = dnnl::deconvolution_forward(plan->pd);
    plan->weights = plan->pd.weights_desc();
    plan->reorder_weights = plan->weights != plan->user_weights;
    plan->weights_bytes = plan->weights.get_size();
    plan->scratchpad_bytes = plan->pd.scratchpad_desc().get_size();
    if (plan->reorder_weights) {
      plan->weights_reorder = OneDnnReorder(plan->user_weights, plan->weights);
    }
  } catch (const dnnl::error& e) {
    return absl::InternalError(absl::StrCat(
        "oneDNN deconvolution failed for gradient [", g.batch, ",", g.in_h, ",", g.in_w, ",",
        g.in_c, "] and filter [", g.k_h, ",", g.k_w, ",", g.in_c, ",", g.out_c, "]: ", e.what()));
  }
  return std::shared_ptr<const DeconvPlan>(std::move(plan));
}

// The process's plans by geometry and thread count. Bounded: cleared when full (plans in use stay
// alive through their shared_ptr).
class PlanCache {
 public:
  absl::StatusOr<std::shared_ptr<const DeconvPlan>> Get(const ConvGeometry& g, int threads) {
    const DeconvKey key = Key(g, threads);
    {
      MutexLock lock(&mu_);
      auto it = plans_.find(key);
      if (it != plans_.end()) return it->second;
    }
    absl::StatusOr<std::shared_ptr<const DeconvPlan>> plan = BuildPlan(g);  // outside the lock
    if (!plan.ok()) return plan.status();
    MutexLock lock(&mu_);
    if (plans_.size() >= kMaxPlans) plans_.clear();
    return plans_.emplace(key, *std::move(plan)).first->second;
  }

 private:
  static constexpr size_t kMaxPlans = 256;
  Mutex mu_;
  absl::flat_hash_map<DeconvKey, std::shared_ptr<const DeconvPlan>> plans_;  // guarded by mu_
};

}  // namespace

absl::Status OneDnnConv2DBackpropInput(const ConvGeometry& g, int threads, const float* filter,
                                       const float* out_backprop, float* in_grad) {
  if (g.groups != 1) {
    return absl::InvalidArgumentError("oneDNN deconvolution: grouped filters are not supported");
  }
  static auto* cache = new PlanCache();
  thread_local GrowingBuffer weights_buffer, scratchpad_buffer;
  thread_local std::unique_ptr<dnnl::stream> stream;
  const int64_t macs = g.batch * g.out_h * g.out_w * g.out_c * g.k_h * g.k_w * g.in_c;
  threads = macs < kOneDnnConvSplitMacs ? 1 : std::max(1, threads);
  // OpenMP's thread count is per calling thread: this call's plan and team are `threads` wide.
  omp_set_num_threads(threads);
  OpenMpMatchTeamFloatMode(threads);  // the team flushes subnormals as this thread does
  absl::StatusOr<std::shared_ptr<const DeconvPlan>> got = cache->Get(g, threads);
  if (!got.ok()) return got.status();
  const DeconvPlan& plan = **got;
  try {
    dnnl::engine& engine = OneDnnEngine();
    if (stream == nullptr) stream = std::make_unique<dnnl::stream>(engine);
    memory src(plan.src, engine, const_cast<float*>(out_backprop));
    memory dst(plan.dst, engine, in_grad);
    memory user_weights(plan.user_weights, engine, const_cast<float*>(filter));
    memory weights = user_weights;
    if (plan.reorder_weights) {
      void* w = weights_buffer.Get(plan.weights_bytes);
      if (w == nullptr) return absl::ResourceExhaustedError("no memory for a reordered filter");
      weights = memory(plan.weights, engine, w);
      plan.weights_reorder.Execute(*stream, user_weights, weights);
    }
    std::unordered_map<int, memory> args = {
        {DNNL_ARG_SRC, src}, {DNNL_ARG_WEIGHTS, weights}, {DNNL_ARG_DST, dst}};
    if (plan.scratchpad_bytes > 0) {
      void* pad = scratchpad_buffer.Get(plan.scratchpad_bytes);
      if (pad == nullptr) return absl::ResourceExhaustedError("no memory for a scratchpad");
      args.emplace(DNNL_ARG_SCRATCHPAD, memory(plan.pd.scratchpad_desc(), engine, pad));
    }
    plan.primitive.execute(*stream, args);
    stream->wait();
  } catch (const dnnl::error& e) {
    return absl::InternalError(absl::StrCat("oneDNN deconvolution failed: ", e.what()));
  }
  return absl::OkStatus();
}

}  // namespace rill
