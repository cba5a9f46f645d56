// Float tensors known to hold only values in [0, bound], no NaN: the outputs of convolutions
// whose Relu6 ran inside oneDNN's primitive as its clip post-op, which OneDnnConv2D allows only
// when no NaN can arise (ReluPostOpIsExact, onednn_common.h). A convolution reading such a tensor
// with its own Relu / Relu6 then knows its input's bound without scanning it: MobileNetV2's
// depthwise convolutions read the Relu6 output of the 1x1 expansion before them, and the scan of
// that input was about 3% of the model's run at 1 thread.
//
//   RecordBoundedOutput(*out, 6.f, ctx.step_id());      // the producer, after computing `out`
//   std::optional<float> b = TakeBoundedInput(in, n, ctx.step_id());  // a consumer
//
// Why a kept tensor's contents are still the producer's when a consumer finds it: the registry
// holds a reference to the tensor's buffer, so the buffer cannot be freed (and `data` cannot be
// another tensor's), and no kernel writes into it in place (OpKernelContext forwards an input to
// an output only when its input slots are the buffer's only holders; variables own their
// buffers). A tensor is found only by a lookup of the step (Run) that recorded it: between
// steps a fetched output is the caller's, who may write into it before feeding it back. At most
// kKeptOutputs tensors are kept, the oldest dropped first, and a lookup drops the one it finds,
// so a kept buffer outlives its last reader by at most a few nodes. Thread-safe (one process-wide
// registry under a mutex: on 2 inter-op threads the producer and the consumer may run on different
// threads).
#ifndef RILL_KERNELS_MATH_LIB_BOUNDED_OUTPUTS_H_
#define RILL_KERNELS_MATH_LIB_BOUNDED_OUTPUTS_H_

#include <cstdint>
#include <optional>

#include "core/tensor.h"

namespace rill {

inline constexpr int kKeptOutputs = 2;

// Keeps `t`, made in step `step_id` (OpKernelContext::step_id), as holding only values in
// [0, bound] with no NaN. Only float tensors with at least one element are kept; others, and a
// step id of 0 or less (kernels run outside a Session's Run, whose steps count from 1), are
// ignored.
void RecordBoundedOutput(const Tensor& t, float bound, int64_t step_id);

// Drops the kept tensor whose data starts at `data` and has `n` elements, if any, and returns its
// bound when it was kept in step `step_id`; otherwise nullopt (the caller scans its input).
std::optional<float> TakeBoundedInput(const void* data, int64_t n, int64_t step_id);

// How many tensors are kept now (tests).
int BoundedOutputsKept();

}  // namespace rill

#endif  // RILL_KERNELS_MATH_LIB_BOUNDED_OUTPUTS_H_
