#include "kernels/math_lib/onednn_common.h"

#include <algorithm>
#include <limits>
#include <unordered_map>

#include "core/openmp_parallel_for.h"
#include "kernels/math_lib/simd_dispatch.h"

namespace rill {

dnnl::engine& OneDnnEngine() {
  static auto* engine = new dnnl::engine(dnnl::engine::kind::cpu, 0);
  return *engine;
}

OneDnnReorder::OneDnnReorder(const dnnl::memory::desc& from, const dnnl::memory::desc& to) {
  dnnl::primitive_attr attr;
  attr.set_scratchpad_mode(dnnl::scratchpad_mode::user);
  dnnl::reorder::primitive_desc pd(OneDnnEngine(), from, OneDnnEngine(), to, attr);
  scratchpad_ = pd.scratchpad_desc();
  primitive_ = dnnl::reorder(pd);
}

void OneDnnReorder::Execute(dnnl::stream& stream, dnnl::memory& from, dnnl::memory& to) const {
  std::unordered_map<int, dnnl::memory> args = {{DNNL_ARG_FROM, from}, {DNNL_ARG_TO, to}};
  if (scratchpad_.get_size() > 0) {
    args.emplace(DNNL_ARG_SCRATCHPAD, dnnl::memory(scratchpad_, OneDnnEngine()));
  }
  primitive_.execute(stream, args);
}

void OneDnnPackedWeights::Hold(const Tensor& weights) {
  MutexLock lock(&mu_);
  if (held_.IsInitialized() && held_.SharesBufferWith(weights)) return;
  held_ = weights;
  copies_.clear();
}

dnnl::memory OneDnnPackedWeights::Get(const void* source, const dnnl::memory::desc& packed,
                                      dnnl::memory& user, const OneDnnReorder& reorder,
                                      dnnl::stream& stream) {
  auto make_copy = [&] {
    dnnl::memory copy(packed, OneDnnEngine());
    user.set_data_handle(const_cast<void*>(source));
    reorder.Execute(stream, user, copy);
    stream.wait();
    return copy;
  };
  MutexLock lock(&mu_);
  if (!held_.IsInitialized() || held_.raw_data() != source) return make_copy();
  for (const auto& [desc, mem] : copies_) {
    if (desc == packed) return mem;
  }
  if (copies_.size() >= 4) copies_.clear();
  copies_.emplace_back(packed, make_copy());
  return copies_.back().second;
}

bool HasConstantWeights(const OpKernelConstruction& ctx) {
  bool constant = false;
  return ctx.GetAttr("_rill_constant_weights", &constant).ok() && constant;
}

dnnl::post_ops OneDnnActivation(FusedActivation activation) {
  dnnl::post_ops ops;
  switch (activation) {
    case FusedActivation::kNone:
      break;
    case FusedActivation::kRelu:  // ClampInPlace's, after the primitive
    case FusedActivation::kRelu6:
      break;
    case FusedActivation::kSwish:
      ops.append_eltwise(1.f, dnnl::algorithm::eltwise_swish, 1.f, 0.f);
      break;
    case FusedActivation::kHardSwish:  // oneDNN 2.6's: x * Relu6(x + 3) / 6
      ops.append_eltwise(1.f, dnnl::algorithm::eltwise_hardswish, 0.f, 0.f);
      break;
  }
  return ops;
}

void ClampInPlace(int threads, float* data, int64_t n, FusedActivation act) {
  if (act != FusedActivation::kRelu && act != FusedActivation::kRelu6) return;
  constexpr int64_t kBlock = 16;  // units of one AVX-512 vector at a nominal cost of 1
  const float top = act == FusedActivation::kRelu6 ? 6.f : std::numeric_limits<float>::infinity();
  OpenMpParallelFor(std::max(1, threads), (n + kBlock - 1) / kBlock, /*cost_per_unit=*/1,
                    [&](int64_t begin, int64_t end) {
                      float* __restrict d = data + begin * kBlock;
                      const int64_t count = std::min(n, end * kBlock) - begin * kBlock;
                      RunSimd([&] {  // at the CPU's vector width
                        for (int64_t i = 0; i < count; ++i) {
                          // NaN fails both comparisons and passes through.
                          const float v = d[i] <= 0.f ? 0.f : d[i];
                          d[i] = v > top ? top : v;
                        }
                      });
                    });
}

}  // namespace rill
