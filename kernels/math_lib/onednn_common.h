// What Rill's oneDNN kernels (onednn_conv, onednn_matmul) share: the process's CPU engine, a
// per-thread growing buffer for reordered filters and scratchpads, and packed constant weights.
#ifndef RILL_KERNELS_MATH_LIB_ONEDNN_COMMON_H_
#define RILL_KERNELS_MATH_LIB_ONEDNN_COMMON_H_

#include <cstddef>
#include <cstdlib>
#include <dnnl.hpp>
#include <memory>
#include <utility>
#include <vector>

#include "core/mutex.h"
#include "kernels/framework/op_kernel.h"
#include "kernels/math_lib/fused_epilogue.h"

namespace rill {

// The oneDNN engine of the process (the CPU). Thread-safe; never destroyed.
dnnl::engine& OneDnnEngine();

// A 64-byte aligned buffer that only grows (malloc'ing reordered filters and scratchpads per
// call would cost page faults on every run: glibc serves blocks that large by mmap, and the
// kernel zeroes fresh pages each time). Not thread-safe: one per thread.
class GrowingBuffer {
 public:
  // nullptr when the memory cannot be had.
  void* Get(size_t bytes) {
    if (bytes > size_) {
      data_.reset(static_cast<char*>(std::aligned_alloc(64, (bytes + 63) / 64 * 64)));
      size_ = data_ != nullptr ? bytes : 0;
    }
    return data_.get();
  }

 private:
  struct Free {
    void operator()(char* p) const { std::free(p); }
  };
  std::unique_ptr<char, Free> data_;
  size_t size_ = 0;
};

// A reorder (layout conversion) safe to run from any thread at once: Debian's oneDNN is built
// without concurrent execution, so a primitive with a library-managed scratchpad may only run
// on one thread; this one brings its own scratchpad on each call when it needs one.
class OneDnnReorder {
 public:
  OneDnnReorder() = default;
  // Throws dnnl::error when oneDNN has no such reorder.
  OneDnnReorder(const dnnl::memory::desc& from, const dnnl::memory::desc& to);
  void Execute(dnnl::stream& stream, dnnl::memory& from, dnnl::memory& to) const;

 private:
  dnnl::reorder primitive_;
  dnnl::memory::desc scratchpad_;
};

// The packed copies of one constant weight tensor (a frozen model's filter or matrix), one per
// layout a primitive asks for; kept by the kernel of the node that reads it. Thread-safe.
class OneDnnPackedWeights {
 public:
  // Makes `weights` (the kernel's constant input, a float tensor) the one the copies are of: it
  // is kept alive here, so while it is held no other buffer can take its address. A different
  // tensor drops the copies of the previous one. Call before each use.
  void Hold(const Tensor& weights);

  // The copy of the held weights in layout `packed`, made the first time it is asked for by
  // `reorder` from `user` (this thread's memory object for the user layout; its handle is set
  // here). `source` must be the held tensor's data; anything else gets a fresh, unkept copy. At
  // most four layouts are kept (batch sizes may ask for different ones).
  dnnl::memory Get(const void* source, const dnnl::memory::desc& packed, dnnl::memory& user,
                   const OneDnnReorder& reorder, dnnl::stream& stream);

  // The largest sum of |w| over the weights of one output, the held weights read as a row-major
  // [rows, cols] float matrix whose columns are the outputs (its rows when `outputs_are_rows`):
  // the bound ReluPostOpIsExact needs. +inf when a weight is NaN or infinite, when `source` is
  // not the held tensor's data, when the view does not fit it, or when an output sums 2^23 terms
  // or more. Computed once per held tensor
  // and view (a kernel asks with the same view every time).
  double MaxOutputAbsSum(const void* source, int64_t rows, int64_t cols, bool outputs_are_rows);

 private:
  Mutex mu_;
  Tensor held_ ABSL_GUARDED_BY(mu_);
  std::vector<std::pair<dnnl::memory::desc, dnnl::memory>> copies_ ABSL_GUARDED_BY(mu_);
  // MaxOutputAbsSum's last view (rows, cols, outputs_are_rows; rows < 0: none) and its value.
  int64_t abs_sum_rows_ ABSL_GUARDED_BY(mu_) = -1;
  int64_t abs_sum_cols_ ABSL_GUARDED_BY(mu_) = 0;
  bool abs_sum_outputs_are_rows_ ABSL_GUARDED_BY(mu_) = false;
  double abs_sum_ ABSL_GUARDED_BY(mu_) = 0;
};

// `packed` after holding `weights` in it (float weights only); null stays null. For call sites:
// OneDnnConv2D(..., HoldConstantWeights(packed_.get(), filter)).
inline OneDnnPackedWeights* HoldConstantWeights(OneDnnPackedWeights* packed,
                                                const Tensor& weights) {
  if (packed != nullptr && weights.dtype() == DT_FLOAT) packed->Hold(weights);
  return packed;
}

// Whether the graph optimizer marked the node's weights (input 1) as coming straight from a
// Const (attr `_rill_constant_weights`, session/graph_optimizer.h): only then may a kernel keep
// packed copies of them.
bool HasConstantWeights(const OpKernelConstruction& ctx);

// The post-ops that apply `activation` inside a oneDNN primitive: swish as eltwise_swish with
// alpha 1 (x * sigmoid(x)), hard swish as eltwise_hardswish; none for kNone. kRelu and kRelu6
// become eltwise_relu and eltwise_clip(0, 6) only with `relu_in_primitive` (a call for which
// ReluPostOpIsExact holds); otherwise ClampInPlace applies them after the primitive.
dnnl::post_ops OneDnnActivation(FusedActivation activation, bool relu_in_primitive = false);

// Relu or Relu6 over `n` floats in place as TensorFlow's kernels compute them (NaN stays NaN, -0
// gives +0), on up to `threads` OpenMP threads; nothing for other activations. OneDnnConv2D and
// OneDnnMatMul apply these two with it after the primitive: oneDNN's relu and clip post-ops take
// the maximum with 0 as vmaxps does, which turns a NaN (from a NaN input) into 0.
void ClampInPlace(int threads, float* data, int64_t n, FusedActivation act);

// Whether oneDNN's relu / clip post-op gives TensorFlow's Relu / Relu6 in a primitive computing
// act(x . w + bias), a convolution or a matmul, for this call's operands. The post-op differs
// from TensorFlow only on a NaN before the activation, and with finite operands a NaN there needs
// an infinity, which needs a partial sum past FLT_MAX. True when every element of `input` (n
// floats) and of `bias` (bias_n floats; none when null) is finite and
// max|x| * weight_abs_sum + max|bias| is below a quarter of FLT_MAX, which bounds every partial
// sum in any order of addition with room for rounding (weight_abs_sum: the largest sum of |w| over
// one output's weights, OneDnnPackedWeights::MaxOutputAbsSum; +inf makes this false). Reads the
// input once on up to `threads` OpenMP threads and stops early at an element past the bound: a
// read-only pass, where ClampInPlace reads and writes the output. Thread-safe.
bool ReluPostOpIsExact(int threads, const float* input, int64_t n, double weight_abs_sum,
                       const float* bias, int64_t bias_n);

// ReluPostOpIsExact for an input known to hold only values with |x| <= max_abs_input and no NaN
// (kernels/math_lib/bounded_outputs.h): the same bound, without reading the input.
bool ReluPostOpIsExactForBound(float max_abs_input, double weight_abs_sum, const float* bias,
                               int64_t bias_n);

// Whether ReluPostOpIsExact's scan of an input of `input_n` elements costs less than
// ClampInPlace over an output of `output_n`: reading an element is about half of reading and
// writing one.
inline bool ReluPostOpScanPays(int64_t input_n, int64_t output_n) {
  return input_n <= 2 * output_n;
}

}  // namespace rill

#endif  // RILL_KERNELS_MATH_LIB_ONEDNN_COMMON_H_
