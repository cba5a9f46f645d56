#include "kernels/math_lib/onednn_conv.h"

#include <omp.h>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdlib>
#include <dnnl.hpp>
#include <memory>
#include <optional>
#include <tuple>
#include <unordered_map>
#include <utility>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/hash/hash.h"
#include "absl/strings/str_cat.h"
#include "core/mutex.h"
#include "core/openmp_parallel_for.h"
#include "kernels/math_lib/bounded_outputs.h"
#include "kernels/math_lib/onednn_common.h"
#include "kernels/math_lib/small_map_conv.h"
#include "kernels/math_lib/swish_inplace.h"

namespace rill {
namespace {

using dnnl::memory;

// How a call runs its convolution; each kind is a plan of its own.
enum class PlanKind {
  kPrimitive,        // oneDNN's convolution, any Relu / Relu6 applied after it
  kReluInPrimitive,  // Relu / Relu6 as oneDNN's post-op (ReluPostOpIsExact held)
  kSmallMap,         // SmallMapConv2D (small_map_conv.h): only the filter's packed layout
};

// oneDNN sizes a primitive's work split by the OpenMP thread count when it is created, so the
// thread count is part of the key.
auto Key(const OneDnnConvShape& s, int threads, PlanKind kind) {
  return std::make_tuple(threads, static_cast<int>(kind), s.batch, s.in_h, s.in_w, s.in_c, s.k_h,
                         s.k_w, s.out_c, s.out_h, s.out_w, s.stride_h, s.stride_w, s.dil_h, s.dil_w,
                         s.pad_top, s.pad_left, s.has_bias, static_cast<int>(s.activation), s.sum,
                         s.groups, s.spatial_dims, s.in_d, s.k_d, s.out_d, s.stride_d, s.dil_d,
                         s.pad_front);
}
using ConvKey = decltype(Key(OneDnnConvShape(), 1, PlanKind::kPrimitive));

// One shape's primitive and the memory descriptors its arguments use. Immutable once built. A
// kSmallMap plan has no primitive: only user_weights, weights (Ohwi16o) and their reorder.
struct ConvPlan {
  bool small_map = false;
  dnnl::convolution_forward::primitive_desc pd;
  dnnl::convolution_forward primitive;
  memory::desc src, dst, user_weights, bias;
  bool reorder_weights = false;
  memory::desc weights;           // pd.weights_desc(), queried once
  size_t weights_bytes = 0;       // pd.weights_desc()'s size, queried once
  size_t scratchpad_bytes = 0;    // pd.scratchpad_desc()'s size, queried once
  OneDnnReorder weights_reorder;  // HWIO (or hwigo) -> the primitive's layout, when it differs
};

// The padding after the last window: whatever makes oneDNN's output size formula give out;
// never negative (floor division absorbs input rows no window reaches, as in VALID).
int64_t PadAfter(int64_t in, int64_t out, int64_t k, int64_t stride, int64_t dil, int64_t before) {
  return std::max<int64_t>(0, (out - 1) * stride + (k - 1) * dil + 1 - in - before);
}

SmallMapConvGeometry SmallMapGeometry(const OneDnnConvShape& s) {
  SmallMapConvGeometry g;
  g.batch = s.batch;
  g.in_h = s.in_h;
  g.in_w = s.in_w;
  g.in_c = s.in_c;
  g.k_h = s.k_h;
  g.k_w = s.k_w;
  g.out_c = s.out_c;
  g.out_h = s.out_h;
  g.out_w = s.out_w;
  g.stride_h = s.stride_h;
  g.stride_w = s.stride_w;
  g.dil_h = s.dil_h;
  g.dil_w = s.dil_w;
  g.pad_top = s.pad_top;
  g.pad_left = s.pad_left;
  return g;
}

absl::StatusOr<std::shared_ptr<const ConvPlan>> BuildPlan(const OneDnnConvShape& s, PlanKind kind) {
  const bool relu_in_primitive = kind == PlanKind::kReluInPrimitive;
  using tag = memory::format_tag;
  const auto f32 = memory::data_type::f32;
  auto plan = std::make_shared<ConvPlan>();
  const bool three_d = s.spatial_dims == 3;
  if (three_d) {
    plan->src = memory::desc({s.batch, s.in_c, s.in_d, s.in_h, s.in_w}, f32, tag::ndhwc);
    plan->dst = memory::desc({s.batch, s.out_c, s.out_d, s.out_h, s.out_w}, f32, tag::ndhwc);
  } else {
    plan->src = memory::desc({s.batch, s.in_c, s.in_h, s.in_w}, f32, tag::nhwc);
    plan->dst = memory::desc({s.batch, s.out_c, s.out_h, s.out_w}, f32, tag::nhwc);
  }
  // Grouped weights are (groups, out per group, in per group, h, w); TensorFlow's depthwise
  // [h, w, in_c, multiplier] is that in hwigo order (in per group is 1).
  memory::dims weight_dims =
      s.groups > 1 ? memory::dims{s.groups, s.out_c / s.groups, s.in_c / s.groups, s.k_h, s.k_w}
                   : memory::dims{s.out_c, s.in_c, s.k_h, s.k_w};
  if (three_d) weight_dims = {s.out_c, s.in_c, s.k_d, s.k_h, s.k_w};
  plan->user_weights = memory::desc(weight_dims, f32,
                                    three_d ? tag::dhwio : (s.groups > 1 ? tag::hwigo : tag::hwio));
  plan->bias = memory::desc({s.out_c}, f32, tag::a);
  if (kind == PlanKind::kSmallMap) {
    try {
      plan->small_map = true;
      plan->reorder_weights = true;
      plan->weights = memory::desc(weight_dims, f32, tag::Ohwi16o);
      plan->weights_bytes = plan->weights.get_size();
      plan->weights_reorder = OneDnnReorder(plan->user_weights, plan->weights);
    } catch (const dnnl::error& e) {
      return absl::InternalError(absl::StrCat("oneDNN filter reorder failed: ", e.what()));
    }
    return std::shared_ptr<const ConvPlan>(std::move(plan));
  }
  const memory::desc any_weights(weight_dims, f32, tag::any);
  memory::dims strides = {s.stride_h, s.stride_w};
  memory::dims dilates = {s.dil_h - 1, s.dil_w - 1};  // oneDNN counts the gaps
  memory::dims pad_l = {s.pad_top, s.pad_left};
  memory::dims pad_r = {PadAfter(s.in_h, s.out_h, s.k_h, s.stride_h, s.dil_h, s.pad_top),
                        PadAfter(s.in_w, s.out_w, s.k_w, s.stride_w, s.dil_w, s.pad_left)};
  if (three_d) {
    strides.insert(strides.begin(), s.stride_d);
    dilates.insert(dilates.begin(), s.dil_d - 1);
    pad_l.insert(pad_l.begin(), s.pad_front);
    pad_r.insert(pad_r.begin(), PadAfter(s.in_d, s.out_d, s.k_d, s.stride_d, s.dil_d, s.pad_front));
  }
  if (s.sum && s.activation != FusedActivation::kNone && s.activation != FusedActivation::kRelu &&
      s.activation != FusedActivation::kRelu6) {
    return absl::InternalError("oneDNN convolution: a sum takes no activation but Relu or Relu6");
  }
  try {
    auto desc = s.has_bias
                    ? dnnl::convolution_forward::desc(dnnl::prop_kind::forward_inference,
                                                      dnnl::algorithm::convolution_direct,
                                                      plan->src, any_weights, plan->bias, plan->dst,
                                                      strides, dilates, pad_l, pad_r)
                    : dnnl::convolution_forward::desc(
                          dnnl::prop_kind::forward_inference, dnnl::algorithm::convolution_direct,
                          plan->src, any_weights, plan->dst, strides, dilates, pad_l, pad_r);
    dnnl::primitive_attr attr;
    // Each call brings its own scratchpad: the library-managed one is shared by the process, so
    // concurrent calls from two threads would overwrite each other's partial sums
    // (onednn_conv_test.cc runs concurrent callers).
    attr.set_scratchpad_mode(dnnl::scratchpad_mode::user);
    if (s.sum) {
      // dst = (conv + bias) + dst; a Relu or Relu6 after it is ClampInPlace's (onednn_common.h).
      dnnl::post_ops ops;
      ops.append_sum(1.f);
      attr.set_post_ops(ops);
    } else if (s.activation != FusedActivation::kNone) {
      attr.set_post_ops(OneDnnActivation(s.activation, relu_in_primitive));
    }
    plan->pd = dnnl::convolution_forward::primitive_desc(desc, attr, OneDnnEngine());
    plan->primitive = dnnl::convolution_forward(plan->pd);
    plan->reorder_weights = plan->pd.weights_desc() != plan->user_weights;
    plan->weights = plan->pd.weights_desc();
    plan->weights_bytes = plan->weights.get_size();
    plan->scratchpad_bytes = plan->pd.scratchpad_desc().get_size();
    if (plan->reorder_weights) {
      plan->weights_reorder = OneDnnReorder(plan->user_weights, plan->weights);
    }
  } catch (const dnnl::error& e) {
    return absl::InternalError(
        absl::StrCat("oneDNN convolution failed for input [", s.batch, ",", s.in_h, ",", s.in_w,
                     ",", s.in_c, "] and filter [", s.k_h, ",", s.k_w, ",", s.in_c, ",",
                     s.groups > 1 ? s.out_c / s.groups : s.out_c, "]: ", e.what()));
  }
  return std::shared_ptr<const ConvPlan>(std::move(plan));
}

// The process's plans by shape. Bounded: cleared when full (plans in use stay alive through
// their shared_ptr).
class PlanCache {
 public:
  // REQUIRES: the calling thread's OpenMP thread count is `threads`.
  absl::StatusOr<std::shared_ptr<const ConvPlan>> Get(const OneDnnConvShape& s, int threads,
                                                      PlanKind kind) {
    const ConvKey key = Key(s, threads, kind);
    {
      MutexLock lock(&mu_);
      auto it = plans_.find(key);
      if (it != plans_.end()) return it->second;
    }
    // Outside the lock.
    absl::StatusOr<std::shared_ptr<const ConvPlan>> plan = BuildPlan(s, kind);
    if (!plan.ok()) return plan.status();
    MutexLock lock(&mu_);
    if (plans_.size() >= kMaxPlans) plans_.clear();
    return plans_.emplace(key, *std::move(plan)).first->second;
  }

 private:
  static constexpr size_t kMaxPlans = 512;
  Mutex mu_;
  absl::flat_hash_map<ConvKey, std::shared_ptr<const ConvPlan>> plans_;  // guarded by mu_
};

}  // namespace

OneDnnConvShape MakeOneDnnConvShape(const ConvWindows& windows, int64_t batch, int64_t in_h,
                                    int64_t in_w, int64_t in_c, int64_t k_h, int64_t k_w,
                                    int64_t out_c, int64_t groups, bool has_bias,
                                    FusedActivation activation) {
  OneDnnConvShape s;
  s.batch = batch;
  s.in_h = in_h;
  s.in_w = in_w;
  s.in_c = in_c;
  s.k_h = k_h;
  s.k_w = k_w;
  s.out_c = out_c;
  s.out_h = windows.out_h;
  s.out_w = windows.out_w;
  s.stride_h = windows.stride_h;
  s.stride_w = windows.stride_w;
  s.dil_h = windows.dil_h;
  s.dil_w = windows.dil_w;
  s.pad_top = windows.pad_h;
  s.pad_left = windows.pad_w;
  s.has_bias = has_bias;
  s.activation = activation;
  s.groups = groups;
  return s;
}

int64_t OneDnnConvMacs(const OneDnnConvShape& s) {
  return s.batch * s.out_d * s.out_h * s.out_w * s.out_c * s.k_d * s.k_h * s.k_w *
         (s.in_c / std::max<int64_t>(s.groups, 1));
}

int OneDnnConvThreads(const OneDnnConvShape& s, int threads, int64_t dense_min,
                      int64_t grouped_min) {
  return OneDnnConvMacs(s) < (s.groups > 1 ? grouped_min : dense_min) ? 1 : std::max(1, threads);
}

namespace {

std::atomic<int64_t> g_dense_split_macs{kOneDnnConvSplitMacs};
std::atomic<int64_t> g_grouped_split_macs{kOneDnnGroupedConvSplitMacs};

}  // namespace

void SetOneDnnConvSplitMacsForTesting(int64_t dense_min, int64_t grouped_min) {
  g_dense_split_macs.store(dense_min, std::memory_order_relaxed);
  g_grouped_split_macs.store(grouped_min, std::memory_order_relaxed);
}

namespace {

// What one thread keeps for one plan: memory objects whose data handles are set per call and the
// argument map (building them per call cost a few microseconds a convolution, a MobileNetV2 has
// 52). Owned by its thread (thread_local below), so no locking.
struct ThreadConv {
  std::shared_ptr<const ConvPlan> plan;  // keeps the plan alive past a cache clear
  memory src, dst, user_weights, weights, bias, scratchpad;
  std::unordered_map<int, memory> args;
};

// The output of this thread's last OneDnnConv2D call when its Relu6 ran inside the primitive,
// for RecordOneDnnConvBound; null otherwise.
thread_local const float* t_clipped_output = nullptr;

}  // namespace

void RecordOneDnnConvBound(const Tensor& output, int64_t step_id) {
  const float* clipped = t_clipped_output;
  t_clipped_output = nullptr;
  if (clipped != nullptr && output.dtype() == DT_FLOAT && output.raw_data() == clipped) {
    RecordBoundedOutput(output, 6.f, step_id);
  }
}

absl::Status OneDnnConv2D(const OneDnnConvShape& shape, int threads, const float* input,
                          const float* filter, const float* bias, float* output,
                          OneDnnPackedWeights* packed, int64_t step_id) {
  static auto* cache = new PlanCache();
  // Swish as a pass over the output after the convolution where the AVX-512 loop runs: oneDNN's
  // swish post-op costs about twice as much per element (swish_inplace.h). The convolution is
  // then the same primitive as one with the bias alone.
  const bool swish_after =
      shape.activation == FusedActivation::kSwish && !shape.sum && SwishInPlaceVectorized();
  OneDnnConvShape s = shape;
  if (swish_after) s.activation = FusedActivation::kNone;
  // This thread's state; a call finishes with it before the thread can make another.
  thread_local absl::flat_hash_map<ConvKey, std::unique_ptr<ThreadConv>> convs;
  thread_local GrowingBuffer weights_buffer, scratchpad_buffer;
  thread_local std::unique_ptr<dnnl::stream> stream;
  const int64_t elements = s.batch * s.out_d * s.out_h * s.out_w * s.out_c;
  const int64_t input_n = s.batch * s.in_d * s.in_h * s.in_w * s.in_c;
  t_clipped_output = nullptr;
  // The input's bound when it is a kept Relu6 output (bounded_outputs.h); taken on every call, so
  // that the registry lets go of a buffer once a convolution has read it.
  const std::optional<float> input_bound = TakeBoundedInput(input, input_n, step_id);
  // Relu / Relu6 inside the primitive when no NaN can reach it (a constant filter's bound and the
  // input's known bound, or else a read-only scan of the input where that costs less than
  // ClampInPlace's pass over the output).
  // Few output pixels and a large constant filter: one streaming pass over the filter
  // (small_map_conv.h); its Relu / Relu6 is ClampInPlace's below, its swish SwishInPlace's.
  const bool small_map =
      packed != nullptr && s.spatial_dims == 2 && s.groups == 1 &&
      (s.activation == FusedActivation::kNone || s.activation == FusedActivation::kRelu ||
       s.activation == FusedActivation::kRelu6) &&
      SmallMapConvApplies(SmallMapGeometry(s));
  // OpenMP's thread count is per calling thread: this call's plan and team are `threads` wide,
  // one thread for a small primitive convolution (OneDnnConvThreads).
  threads = small_map
                ? std::max(1, threads)
                : OneDnnConvThreads(s, threads, g_dense_split_macs.load(std::memory_order_relaxed),
                                    g_grouped_split_macs.load(std::memory_order_relaxed));
  omp_set_num_threads(threads);
  OpenMpMatchTeamFloatMode(threads);  // the team flushes subnormals as this thread does
  bool relu_in_primitive = false;
  if (!small_map && !s.sum && packed != nullptr &&
      (s.activation == FusedActivation::kRelu || s.activation == FusedActivation::kRelu6) &&
      (input_bound.has_value() || ReluPostOpScanPays(input_n, elements))) {
    // The filter as [k_d * k_h * k_w * (in_c / groups), out_c]: HWIO, DHWIO and grouped HWIO
    // put an output's weights in one column; so does depthwise [k_h, k_w, in_c, multiplier],
    // whose output c * multiplier + m is column c * multiplier + m.
    const double abs_sum = packed->MaxOutputAbsSum(
        filter, s.k_d * s.k_h * s.k_w * (s.in_c / s.groups), s.out_c, false);
    const float* b = s.has_bias ? bias : nullptr;
    relu_in_primitive = input_bound.has_value()
                            ? ReluPostOpIsExactForBound(*input_bound, abs_sum, b, s.out_c)
                            : ReluPostOpIsExact(threads, input, input_n, abs_sum, b, s.out_c);
  }
  try {
    dnnl::engine& engine = OneDnnEngine();
    if (stream == nullptr) stream = std::make_unique<dnnl::stream>(engine);
    const PlanKind kind = small_map           ? PlanKind::kSmallMap
                          : relu_in_primitive ? PlanKind::kReluInPrimitive
                                              : PlanKind::kPrimitive;
    const ConvKey key = Key(s, threads, kind);
    auto it = convs.find(key);
    if (it == convs.end()) {
      absl::StatusOr<std::shared_ptr<const ConvPlan>> got = cache->Get(s, threads, kind);
      if (!got.ok()) return got.status();
      if (convs.size() >= 256) convs.clear();  // bounded, like the plans
      auto c = std::make_unique<ThreadConv>();
      c->plan = *std::move(got);
      const ConvPlan& plan = *c->plan;
      c->user_weights = memory(plan.user_weights, engine, DNNL_MEMORY_NONE);
      if (!plan.small_map) {
        c->src = memory(plan.src, engine, DNNL_MEMORY_NONE);
        c->dst = memory(plan.dst, engine, DNNL_MEMORY_NONE);
        c->weights = plan.reorder_weights ? memory(plan.pd.weights_desc(), engine, DNNL_MEMORY_NONE)
                                          : c->user_weights;
        c->args = {{DNNL_ARG_SRC, c->src}, {DNNL_ARG_WEIGHTS, c->weights}, {DNNL_ARG_DST, c->dst}};
        if (s.has_bias) {
          c->bias = memory(plan.bias, engine, DNNL_MEMORY_NONE);
          c->args.emplace(DNNL_ARG_BIAS, c->bias);
        }
        if (plan.scratchpad_bytes > 0) {
          c->scratchpad = memory(plan.pd.scratchpad_desc(), engine, DNNL_MEMORY_NONE);
          c->args.emplace(DNNL_ARG_SCRATCHPAD, c->scratchpad);
        }
      }
      it = convs.emplace(key, std::move(c)).first;
    }
    ThreadConv& c = *it->second;
    const ConvPlan& plan = *c.plan;
    if (plan.small_map) {
      const dnnl::memory w =
          packed->Get(filter, plan.weights, c.user_weights, plan.weights_reorder, *stream);
      // A pixel may leave out its taps that read only zeros when no weight is inf or NaN (whose
      // product with 0 is NaN); the bound is computed once per filter.
      const bool finite_filter =
          std::isfinite(packed->MaxOutputAbsSum(filter, s.k_h * s.k_w * s.in_c, s.out_c, false));
      SmallMapConv2D(SmallMapGeometry(s), threads, input,
                     static_cast<const float*>(w.get_data_handle()), s.has_bias ? bias : nullptr,
                     s.sum, output, /*skip_zero_taps=*/finite_filter);
      if (swish_after) SwishInPlace(threads, output, elements);
      ClampInPlace(threads, output, elements, s.activation);  // Relu, Relu6
      return absl::OkStatus();
    }
    c.src.set_data_handle(const_cast<float*>(input));
    c.dst.set_data_handle(output);
    c.user_weights.set_data_handle(const_cast<float*>(filter));
    if (plan.reorder_weights && packed != nullptr) {
      c.args[DNNL_ARG_WEIGHTS] =
          packed->Get(filter, plan.weights, c.user_weights, plan.weights_reorder, *stream);
    } else if (plan.reorder_weights) {
      void* w = weights_buffer.Get(plan.weights_bytes);
      if (w == nullptr) return absl::ResourceExhaustedError("no memory for a reordered filter");
      c.weights.set_data_handle(w);
      plan.weights_reorder.Execute(*stream, c.user_weights, c.weights);
      c.args[DNNL_ARG_WEIGHTS] = c.weights;
    }
    if (s.has_bias) c.bias.set_data_handle(const_cast<float*>(bias));
    if (plan.scratchpad_bytes > 0) {
      void* pad = scratchpad_buffer.Get(plan.scratchpad_bytes);
      if (pad == nullptr) return absl::ResourceExhaustedError("no memory for a scratchpad");
      c.scratchpad.set_data_handle(pad);
    }
    plan.primitive.execute(*stream, c.args);
    stream->wait();
    // The argument map outlives the call: it must not keep a kernel's packed filter alive.
    c.args[DNNL_ARG_WEIGHTS] = c.weights;
    if (swish_after) SwishInPlace(threads, output, elements);
    // Relu, Relu6 (onednn_common.h)
    if (!relu_in_primitive) ClampInPlace(threads, output, elements, s.activation);
    // oneDNN's clip post-op ran on sums that cannot be NaN: every output is in [0, 6].
    if (relu_in_primitive && s.activation == FusedActivation::kRelu6) t_clipped_output = output;
  } catch (const dnnl::error& e) {
    return absl::InternalError(absl::StrCat("oneDNN convolution failed: ", e.what()));
  }
  return absl::OkStatus();
}

}  // namespace rill
