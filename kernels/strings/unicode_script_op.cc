// UnicodeScript on the CPU: the script of each int32 code point as ICU's UScriptCode number, as
// TensorFlow's kernel returns it (0 Common, 1 Inherited, 25 Latin, 103 Unknown for unassigned code
// points, ...), and -1 for values that are not code points (below 0 or above 0x10FFFF). The
// scripts come from unicode_script_table.inc, recorded from TensorFlow 2.21 for every code point
// by tests/tfgen/make_unicode_script_table.py, and are found by binary search over its runs.
// Kernels are immutable after construction; Compute is thread-safe.
#include <algorithm>
#include <cstdint>
#include <iterator>

#include "core/status_macros.h"
#include "kernels/framework/kernel_registry.h"

namespace rill {
namespace {

struct ScriptRun {
  int32_t first;  // the run's first code point
  int32_t script;
};

constexpr ScriptRun kRuns[] = {
#include "kernels/strings/unicode_script_table.inc"
};

int32_t ScriptOf(int32_t cp) {
  if (cp < 0 || cp > 0x10FFFF) return -1;
  const ScriptRun* run =
      std::upper_bound(std::begin(kRuns), std::end(kRuns), cp,
                       [](int32_t v, const ScriptRun& r) { return v < r.first; });
  return std::prev(run)->script;
}

class UnicodeScriptOp final : public OpKernel {
 public:
  explicit UnicodeScriptOp(OpKernelConstruction& ctx) : OpKernel(ctx) {}
  absl::Status Compute(OpKernelContext& ctx) const override {
    const Tensor& in = ctx.input(0);
    RILL_ASSIGN_OR_RETURN(Tensor * out, ctx.allocate_output(0, in.shape()));
    const int32_t* x = in.flat<int32_t>().data();
    int32_t* y = out->flat<int32_t>().data();
    for (int64_t i = 0; i < in.NumElements(); ++i) y[i] = ScriptOf(x[i]);
    return absl::OkStatus();
  }
  bool IsExpensive() const override { return false; }
};

REGISTER_KERNEL(KernelDefBuilder("UnicodeScript").Device(kDeviceCpu), UnicodeScriptOp);

}  // namespace
}  // namespace rill
