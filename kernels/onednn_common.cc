#include "kernels/onednn_common.h"

namespace rill {

dnnl::engine& OneDnnEngine() {
  static auto* engine = new dnnl::engine(dnnl::engine::kind::cpu, 0);
  return *engine;
}

void OneDnnPackedWeights::Hold(const Tensor& weights) {
  MutexLock lock(&mu_);
  if (held_.IsInitialized() && held_.SharesBufferWith(weights)) return;
  held_ = weights;
  copies_.clear();
}

dnnl::memory OneDnnPackedWeights::Get(const void* source, const dnnl::memory::desc& packed,
                                      dnnl::memory& user, const dnnl::reorder& reorder,
                                      dnnl::stream& stream) {
  auto make_copy = [&] {
    dnnl::memory copy(packed, OneDnnEngine());
    user.set_data_handle(const_cast<void*>(source));
    reorder.execute(stream, user, copy);
    stream.wait();
    return copy;
  };
  MutexLock lock(&mu_);
  if (!held_.IsInitialized() || held_.raw_data() != source) return make_copy();
  for (const auto& [desc, mem] : copies_) {
    if (desc == packed) return mem;
  }
  copies_.emplace_back(packed, make_copy());
  return copies_.back().second;
}

bool HasConstantWeights(const OpKernelConstruction& ctx) {
  bool constant = false;
  return ctx.GetAttr("_rill_constant_weights", &constant).ok() && constant;
}

}  // namespace rill
