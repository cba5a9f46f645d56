#include "kernels/math_lib/onednn_matmul.h"

#include <omp.h>

#include <algorithm>
#include <dnnl.hpp>
#include <tuple>
#include <unordered_map>
#include <utility>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/strings/str_cat.h"
#include "core/mutex.h"
#include "core/openmp_parallel_for.h"
#include "kernels/math_lib/onednn_common.h"

namespace rill {
namespace {

using dnnl::memory;

// oneDNN sizes a primitive's work split by the OpenMP thread count when it is created, so the
// thread count is part of the key.
// relu_in_primitive: Relu / Relu6 as oneDNN's post-op (ReluPostOpIsExact held), a plan of its
// own.
auto Key(const OneDnnMatMulShape& s, int threads, bool relu_in_primitive) {
  return std::make_tuple(threads, relu_in_primitive, s.m, s.n, s.k, s.transpose_a, s.transpose_b,
                         s.has_bias, static_cast<int>(s.activation));
}
using MatMulKey = decltype(Key(OneDnnMatMulShape(), 1, false));

// One shape's primitive and descriptors. Immutable once built.
struct MatMulPlan {
  dnnl::matmul::primitive_desc pd;
  dnnl::matmul primitive;
  memory::desc src, dst, user_weights, bias;
  memory::desc weights;           // pd.weights_desc(), queried once
  size_t scratchpad_bytes = 0;    // pd.scratchpad_desc()'s size, queried once
  OneDnnReorder weights_reorder;  // user layout -> weights
};

absl::StatusOr<std::shared_ptr<const MatMulPlan>> BuildPlan(const OneDnnMatMulShape& s,
                                                            bool relu_in_primitive) {
  using tag = memory::format_tag;
  const auto f32 = memory::data_type::f32;
  auto plan = std::make_shared<MatMulPlan>();
  plan->src = memory::desc({s.m, s.k}, f32, s.transpose_a ? tag::ba : tag::ab);
  plan->user_weights = memory::desc({s.k, s.n}, f32, s.transpose_b ? tag::ba : tag::ab);
  plan->dst = memory::desc({s.m, s.n}, f32, tag::ab);
  plan->bias = memory::desc({1, s.n}, f32, tag::ab);
  const memory::desc any_weights({s.k, s.n}, f32, tag::any);
  try {
    auto desc = s.has_bias ? dnnl::matmul::desc(plan->src, any_weights, plan->bias, plan->dst)
                           : dnnl::matmul::desc(plan->src, any_weights, plan->dst);
    dnnl::primitive_attr attr;
    attr.set_scratchpad_mode(dnnl::scratchpad_mode::user);  // per call: concurrent callers
    if (s.activation != FusedActivation::kNone) {
      attr.set_post_ops(OneDnnActivation(s.activation, relu_in_primitive));
    }
    plan->pd = dnnl::matmul::primitive_desc(desc, attr, OneDnnEngine());
    plan->primitive = dnnl::matmul(plan->pd);
    plan->weights = plan->pd.weights_desc();
    plan->scratchpad_bytes = plan->pd.scratchpad_desc().get_size();
    plan->weights_reorder = OneDnnReorder(plan->user_weights, plan->weights);
  } catch (const dnnl::error& e) {
    return absl::InternalError(absl::StrCat("oneDNN matmul failed for [", s.m, ",", s.k, "] x [",
                                            s.k, ",", s.n, "]: ", e.what()));
  }
  return std::shared_ptr<const MatMulPlan>(std::move(plan));
}

// The process's plans by shape and thread count; bounded (cleared when full).
class PlanCache {
 public:
  absl::StatusOr<std::shared_ptr<const MatMulPlan>> Get(const OneDnnMatMulShape& s, int threads,
                                                        bool relu_in_primitive) {
    const MatMulKey key = Key(s, threads, relu_in_primitive);
    {
      MutexLock lock(&mu_);
      auto it = plans_.find(key);
      if (it != plans_.end()) return it->second;
    }
    // Outside the lock.
    absl::StatusOr<std::shared_ptr<const MatMulPlan>> plan = BuildPlan(s, relu_in_primitive);
    if (!plan.ok()) return plan.status();
    MutexLock lock(&mu_);
    if (plans_.size() >= 512) plans_.clear();
    return plans_.emplace(key, *std::move(plan)).first->second;
  }

 private:
  Mutex mu_;
  absl::flat_hash_map<MatMulKey, std::shared_ptr<const MatMulPlan>> plans_;  // guarded by mu_
};

// What one thread keeps for one plan: memory objects whose data handles are set per call, and
// the argument map. Owned by its thread.
struct ThreadMatMul {
  std::shared_ptr<const MatMulPlan> plan;
  memory src, dst, user_weights, bias, scratchpad;
  std::unordered_map<int, memory> args;
};

}  // namespace

absl::Status OneDnnMatMul(const OneDnnMatMulShape& s, int threads, const float* a, const float* b,
                          const float* bias, float* c, OneDnnPackedWeights* packed) {
  static auto* cache = new PlanCache();
  // A product under ~4M multiply-adds runs on the calling thread: a recurrent step's [16,128] x
  // [128,384] took longer split over a team than alone.
  threads = s.m * s.n * s.k < kOneDnnMatMulSplitMacs ? 1 : std::max(1, threads);
  omp_set_num_threads(threads);       // this call's plan and OpenMP team
  OpenMpMatchTeamFloatMode(threads);  // the team flushes subnormals as this thread does
  thread_local absl::flat_hash_map<MatMulKey, std::unique_ptr<ThreadMatMul>> mats;
  thread_local GrowingBuffer scratchpad_buffer;
  thread_local std::unique_ptr<dnnl::stream> stream;
  // Relu / Relu6 inside the primitive when no NaN can reach it (the weights' bound and a
  // read-only scan of A, where that costs less than ClampInPlace's pass over C).
  bool relu_in_primitive = false;
  if ((s.activation == FusedActivation::kRelu || s.activation == FusedActivation::kRelu6) &&
      ReluPostOpScanPays(s.m * s.k, s.m * s.n)) {
    // B is [k, n]: output column j sums column j of B, or row j of the stored [n, k].
    const double abs_sum = s.transpose_b ? packed->MaxOutputAbsSum(b, s.n, s.k, true)
                                         : packed->MaxOutputAbsSum(b, s.k, s.n, false);
    relu_in_primitive =
        ReluPostOpIsExact(threads, a, s.m * s.k, abs_sum, s.has_bias ? bias : nullptr, s.n);
  }
  try {
    dnnl::engine& engine = OneDnnEngine();
    if (stream == nullptr) stream = std::make_unique<dnnl::stream>(engine);
    const MatMulKey key = Key(s, threads, relu_in_primitive);
    auto it = mats.find(key);
    if (it == mats.end()) {
      absl::StatusOr<std::shared_ptr<const MatMulPlan>> got =
          cache->Get(s, threads, relu_in_primitive);
      if (!got.ok()) return got.status();
      if (mats.size() >= 256) mats.clear();
      auto t = std::make_unique<ThreadMatMul>();
      t->plan = *std::move(got);
      const MatMulPlan& plan = *t->plan;
      t->src = memory(plan.src, engine, DNNL_MEMORY_NONE);
      t->dst = memory(plan.dst, engine, DNNL_MEMORY_NONE);
      t->user_weights = memory(plan.user_weights, engine, DNNL_MEMORY_NONE);
      t->args = {{DNNL_ARG_SRC, t->src}, {DNNL_ARG_DST, t->dst}};
      if (s.has_bias) {
        t->bias = memory(plan.bias, engine, DNNL_MEMORY_NONE);
        t->args.emplace(DNNL_ARG_BIAS, t->bias);
      }
      if (plan.scratchpad_bytes > 0) {
        t->scratchpad = memory(plan.pd.scratchpad_desc(), engine, DNNL_MEMORY_NONE);
        t->args.emplace(DNNL_ARG_SCRATCHPAD, t->scratchpad);
      }
      it = mats.emplace(key, std::move(t)).first;
    }
    ThreadMatMul& t = *it->second;
    const MatMulPlan& plan = *t.plan;
    // The packed weights for this plan's layout, made once per weights address.
    const memory weights =
        packed->Get(b, plan.weights, t.user_weights, plan.weights_reorder, *stream);
    t.src.set_data_handle(const_cast<float*>(a));
    t.dst.set_data_handle(c);
    if (s.has_bias) t.bias.set_data_handle(const_cast<float*>(bias));
    if (plan.scratchpad_bytes > 0) {
      void* pad = scratchpad_buffer.Get(plan.scratchpad_bytes);
      if (pad == nullptr) return absl::ResourceExhaustedError("no memory for a scratchpad");
      t.scratchpad.set_data_handle(pad);
    }
    t.args[DNNL_ARG_WEIGHTS] = weights;
    plan.primitive.execute(*stream, t.args);
    stream->wait();
    // The argument map outlives the call: it must not keep a kernel's packed weights alive.
    t.args.erase(DNNL_ARG_WEIGHTS);
    // Relu, Relu6 (onednn_common.h)
    if (!relu_in_primitive) ClampInPlace(threads, c, s.m * s.n, s.activation);
  } catch (const dnnl::error& e) {
    return absl::InternalError(absl::StrCat("oneDNN matmul failed: ", e.what()));
  }
  return absl::OkStatus();
}

}  // namespace rill
