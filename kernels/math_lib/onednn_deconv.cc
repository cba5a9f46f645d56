#include "kernels/math_lib/onednn_deconv.h"

#include <omp.h>

#include <algorithm>
#include <array>
#include <dnnl.hpp>
#include <memory>
#include <string>
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

// A transposed convolution's geometry in 2 or 3 spatial dims (depth, height, width; depth 1 in
// 2-D), in the forward convolution's terms: `in` is the gradient's (the convolution's input)
// size, `out` the output gradient's.
struct DeconvDims {
  int spatial = 2;
  int64_t batch = 0, in_c = 0, out_c = 0;
  std::array<int64_t, 3> in{1, 1, 1}, out{1, 1, 1}, k{1, 1, 1};
  std::array<int64_t, 3> stride{1, 1, 1}, dil{1, 1, 1}, pad{0, 0, 0};
};

// oneDNN sizes a primitive's work split by the OpenMP thread count when it is created.
auto Key(const DeconvDims& d, int threads) {
  return std::make_tuple(threads, d.spatial, d.batch, d.in_c, d.out_c, d.in, d.out, d.k, d.stride,
                         d.dil, d.pad);
}
using DeconvKey = decltype(Key(DeconvDims(), 1));

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

absl::StatusOr<std::shared_ptr<const DeconvPlan>> BuildPlan(const DeconvDims& d) {
  using tag = memory::format_tag;
  const auto f32 = memory::data_type::f32;
  auto plan = std::make_shared<DeconvPlan>();
  const int first = 3 - d.spatial;  // the spatial dims in use: depth only in 3-D
  // The deconvolution reads the convolution's output gradient and writes its input gradient.
  memory::dims src_dims = {d.batch, d.out_c}, dst_dims = {d.batch, d.in_c};
  // Deconvolution weights are (its output channels = in_c, its input channels = out_c, spatial);
  // TensorFlow's [spatial..., in_c, out_c] is that with these strides.
  memory::dims dims = {d.in_c, d.out_c}, weight_strides = {d.out_c, 1};
  memory::dims strides, dilates, pad_l, pad_r;
  for (int i = first; i < 3; ++i) {
    src_dims.push_back(d.out[i]);
    dst_dims.push_back(d.in[i]);
    dims.push_back(d.k[i]);
    int64_t stride = d.in_c * d.out_c;
    for (int j = i + 1; j < 3; ++j) stride *= d.k[j];
    weight_strides.push_back(stride);
    strides.push_back(d.stride[i]);
    dilates.push_back(d.dil[i] - 1);  // oneDNN counts the gaps
    pad_l.push_back(d.pad[i]);
    pad_r.push_back(PadAfter(d.in[i], d.out[i], d.k[i], d.stride[i], d.dil[i], d.pad[i]));
  }
  const tag layout = d.spatial == 3 ? tag::ndhwc : tag::nhwc;
  plan->src = memory::desc(src_dims, f32, layout);
  plan->dst = memory::desc(dst_dims, f32, layout);
  plan->user_weights = memory::desc(dims, f32, weight_strides);
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
    std::string grad = absl::StrCat("[", d.batch), filter = "[";
    for (int i = first; i < 3; ++i) {
      absl::StrAppend(&grad, ",", d.in[i]);
      absl::StrAppend(&filter, d.k[i], ",");
    }
    return absl::InternalError(absl::StrCat("oneDNN deconvolution failed for gradient ", grad, ",",
                                            d.in_c, "] and filter ", filter, d.in_c, ",", d.out_c,
                                            "]: ", e.what()));
  }
  return std::shared_ptr<const DeconvPlan>(std::move(plan));
}

// The process's plans by geometry and thread count. Bounded: cleared when full (plans in use stay
// alive through their shared_ptr).
class PlanCache {
 public:
  absl::StatusOr<std::shared_ptr<const DeconvPlan>> Get(const DeconvDims& d, int threads) {
    const DeconvKey key = Key(d, threads);
    {
      MutexLock lock(&mu_);
      auto it = plans_.find(key);
      if (it != plans_.end()) return it->second;
    }
    absl::StatusOr<std::shared_ptr<const DeconvPlan>> plan = BuildPlan(d);  // outside the lock
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

// Runs the transposed convolution `d` (macs: its multiply-adds).
absl::Status RunDeconv(const DeconvDims& d, int64_t macs, int threads, const float* filter,
                       const float* out_backprop, float* in_grad, OneDnnPackedWeights* packed) {
  static auto* cache = new PlanCache();
  thread_local GrowingBuffer weights_buffer, scratchpad_buffer;
  thread_local std::unique_ptr<dnnl::stream> stream;
  threads = macs < kOneDnnConvSplitMacs ? 1 : std::max(1, threads);
  // OpenMP's thread count is per calling thread: this call's plan and team are `threads` wide.
  omp_set_num_threads(threads);
  OpenMpMatchTeamFloatMode(threads);  // the team flushes subnormals as this thread does
  absl::StatusOr<std::shared_ptr<const DeconvPlan>> got = cache->Get(d, threads);
  if (!got.ok()) return got.status();
  const DeconvPlan& plan = **got;
  try {
    dnnl::engine& engine = OneDnnEngine();
    if (stream == nullptr) stream = std::make_unique<dnnl::stream>(engine);
    memory src(plan.src, engine, const_cast<float*>(out_backprop));
    memory dst(plan.dst, engine, in_grad);
    memory user_weights(plan.user_weights, engine, const_cast<float*>(filter));
    memory weights = user_weights;
    if (plan.reorder_weights && packed != nullptr) {
      weights = packed->Get(filter, plan.weights, user_weights, plan.weights_reorder, *stream);
    } else if (plan.reorder_weights) {
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

}  // namespace

absl::Status OneDnnConv2DBackpropInput(const ConvGeometry& g, int threads, const float* filter,
                                       const float* out_backprop, float* in_grad,
                                       OneDnnPackedWeights* packed) {
  if (g.groups != 1) {
    return absl::InvalidArgumentError("oneDNN deconvolution: grouped filters are not supported");
  }
  DeconvDims d;
  d.batch = g.batch;
  d.in_c = g.in_c;
  d.out_c = g.out_c;
  d.in = {1, g.in_h, g.in_w};
  d.out = {1, g.out_h, g.out_w};
  d.k = {1, g.k_h, g.k_w};
  d.stride = {1, g.stride_h, g.stride_w};
  d.dil = {1, g.dil_h, g.dil_w};
  d.pad = {0, g.pad_h, g.pad_w};
  const int64_t macs = g.batch * g.out_h * g.out_w * g.out_c * g.k_h * g.k_w * g.in_c;
  return RunDeconv(d, macs, threads, filter, out_backprop, in_grad, packed);
}

absl::Status OneDnnConv3DBackpropInput(const OneDnnConvShape& s, int threads, const float* filter,
                                       const float* out_backprop, float* in_grad) {
  if (s.spatial_dims != 3 || s.groups != 1) {
    return absl::InvalidArgumentError(
        "oneDNN 3-D deconvolution: the shape must be 3-D and ungrouped");
  }
  DeconvDims d;
  d.spatial = 3;
  d.batch = s.batch;
  d.in_c = s.in_c;
  d.out_c = s.out_c;
  d.in = {s.in_d, s.in_h, s.in_w};
  d.out = {s.out_d, s.out_h, s.out_w};
  d.k = {s.k_d, s.k_h, s.k_w};
  d.stride = {s.stride_d, s.stride_h, s.stride_w};
  d.dil = {s.dil_d, s.dil_h, s.dil_w};
  d.pad = {s.pad_front, s.pad_top, s.pad_left};
  return RunDeconv(d, OneDnnConvMacs(s), threads, filter, out_backprop, in_grad, nullptr);
}

}  // namespace rill
