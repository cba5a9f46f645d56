#include "kernels/onednn_common.h"

namespace rill {

dnnl::engine& OneDnnEngine() {
  static auto* engine = new dnnl::engine(dnnl::engine::kind::cpu, 0);
  return *engine;
}

}  // namespace rill
