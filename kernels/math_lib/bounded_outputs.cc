#include "kernels/math_lib/bounded_outputs.h"

#include <utility>

#include "core/mutex.h"

namespace rill {
namespace {

struct Kept {
  Tensor tensor;  // empty: a free slot
  float bound = 0;
  int64_t step_id = -1;
};

class Registry {
 public:
  void Record(const Tensor& t, float bound, int64_t step_id) {
    MutexLock lock(&mu_);
    for (Kept& k : kept_) {  // the same buffer again (a rerun): its new bound replaces the old
      if (k.tensor.IsInitialized() && k.tensor.SharesBufferWith(t)) k.tensor = Tensor();
    }
    Kept& slot = kept_[next_];
    next_ = (next_ + 1) % kKeptOutputs;
    slot.tensor = t;  // the oldest, when every slot is taken
    slot.bound = bound;
    slot.step_id = step_id;
  }

  std::optional<float> Take(const void* data, int64_t n, int64_t step_id) {
    Tensor dropped;  // released after the lock: its buffer may be freed here
    MutexLock lock(&mu_);
    for (Kept& k : kept_) {
      if (k.tensor.IsInitialized() && k.tensor.raw_data() == data && k.tensor.NumElements() == n) {
        dropped = std::move(k.tensor);
        k.tensor = Tensor();
        if (k.step_id != step_id || step_id <= 0) return std::nullopt;  // another Run's
        return k.bound;
      }
    }
    return std::nullopt;
  }

  int Count() {
    MutexLock lock(&mu_);
    int count = 0;
    for (const struct Kept& k : kept_) count += k.tensor.IsInitialized() ? 1 : 0;
    return count;
  }

 private:
  Mutex mu_;
  struct Kept kept_[kKeptOutputs] ABSL_GUARDED_BY(mu_);
  int next_ ABSL_GUARDED_BY(mu_) = 0;
};

Registry& TheRegistry() {
  static Registry* const registry = new Registry();  // never destroyed
  return *registry;
}

}  // namespace

void RecordBoundedOutput(const Tensor& t, float bound, int64_t step_id) {
  if (t.dtype() != DT_FLOAT || t.NumElements() == 0 || !(bound >= 0) || step_id <= 0) return;
  TheRegistry().Record(t, bound, step_id);
}

std::optional<float> TakeBoundedInput(const void* data, int64_t n, int64_t step_id) {
  if (data == nullptr || n <= 0) return std::nullopt;
  return TheRegistry().Take(data, n, step_id);
}

int BoundedOutputsKept() { return TheRegistry().Count(); }

}  // namespace rill
