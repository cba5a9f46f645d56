#include "kernels/math_lib/onednn_common.h"

#include <unordered_map>

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
    case FusedActivation::kRelu:
      ops.append_eltwise(1.f, dnnl::algorithm::eltwise_relu, 0.f, 0.f);
      break;
    case FusedActivation::kRelu6:
      ops.append_eltwise(1.f, dnnl::algorithm::eltwise_clip, 0.f, 6.f);
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

}  // namespace rill
