#include "kernels/math_lib/onednn_common.h"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <limits>
#include <optional>
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
  abs_sum_rows_ = -1;
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

double OneDnnPackedWeights::MaxOutputAbsSum(const void* source, int64_t rows, int64_t cols,
                                            bool outputs_are_rows) {
  constexpr double kInf = std::numeric_limits<double>::infinity();
  MutexLock lock(&mu_);
  if (!held_.IsInitialized() || held_.raw_data() != source || held_.dtype() != DT_FLOAT ||
      rows <= 0 || cols <= 0 || held_.NumElements() != rows * cols ||
      (outputs_are_rows ? cols : rows) >= (int64_t{1} << 23)) {  // ReluPostOpIsExact's bound
    return kInf;
  }
  if (abs_sum_rows_ == rows && abs_sum_cols_ == cols &&
      abs_sum_outputs_are_rows_ == outputs_are_rows) {
    return abs_sum_;
  }
  const float* w = static_cast<const float*>(source);
  std::vector<double> sums(outputs_are_rows ? rows : cols, 0.0);
  bool finite = true;
  for (int64_t r = 0; r < rows; ++r) {
    for (int64_t c = 0; c < cols; ++c) {
      const float v = w[r * cols + c];
      finite &= std::isfinite(v);
      sums[outputs_are_rows ? r : c] += std::fabs(static_cast<double>(v));
    }
  }
  abs_sum_ = finite ? *std::max_element(sums.begin(), sums.end()) : kInf;
  abs_sum_rows_ = rows;
  abs_sum_cols_ = cols;
  abs_sum_outputs_are_rows_ = outputs_are_rows;
  return abs_sum_;
}

bool HasConstantWeights(const OpKernelConstruction& ctx) {
  bool constant = false;
  return ctx.GetAttr("_rill_constant_weights", &constant).ok() && constant;
}

dnnl::post_ops OneDnnActivation(FusedActivation activation, bool relu_in_primitive) {
  dnnl::post_ops ops;
  switch (activation) {
    case FusedActivation::kNone:
      break;
    case FusedActivation::kRelu:  // otherwise ClampInPlace's, after the primitive
      if (relu_in_primitive) ops.append_eltwise(1.f, dnnl::algorithm::eltwise_relu, 0.f, 0.f);
      break;
    case FusedActivation::kRelu6:
      if (relu_in_primitive) ops.append_eltwise(1.f, dnnl::algorithm::eltwise_clip, 0.f, 6.f);
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

namespace {

// The largest |x| an input may hold for ReluPostOpIsExact's bound to hold with these weights
// and bias; nullopt when they rule the post-op out themselves.
std::optional<float> ReluPostOpInputLimit(double weight_abs_sum, const float* bias,
                                          int64_t bias_n) {
  // A quarter of FLT_MAX: a sum of K terms in float, in any order, stays within (1 + 2^-24)^K of
  // the sum of their magnitudes, under 2 for K < 2^23 terms.
  constexpr double kBound = std::numeric_limits<float>::max() / 4.0;
  if (!(weight_abs_sum < kBound)) return std::nullopt;  // also +inf and NaN
  double max_bias = 0;
  for (int64_t i = 0; bias != nullptr && i < bias_n; ++i) {
    if (!std::isfinite(bias[i])) return std::nullopt;
    max_bias = std::max(max_bias, std::fabs(static_cast<double>(bias[i])));
  }
  if (max_bias >= kBound) return std::nullopt;
  // Every |x| <= limit keeps max|x| * weight_abs_sum + max|bias| under kBound.
  const double room = (kBound - max_bias) / std::max(weight_abs_sum, 1e-30);
  return static_cast<float>(std::min<double>(room, std::numeric_limits<float>::max()));
}

}  // namespace

bool ReluPostOpIsExactForBound(float max_abs_input, double weight_abs_sum, const float* bias,
                               int64_t bias_n) {
  const std::optional<float> limit = ReluPostOpInputLimit(weight_abs_sum, bias, bias_n);
  return limit.has_value() && max_abs_input <= *limit;  // a NaN bound fails
}

bool ReluPostOpIsExact(int threads, const float* input, int64_t n, double weight_abs_sum,
                       const float* bias, int64_t bias_n) {
  const std::optional<float> limit_or = ReluPostOpInputLimit(weight_abs_sum, bias, bias_n);
  if (!limit_or.has_value()) return false;
  // A NaN fails the comparison.
  const float limit = *limit_or;
  constexpr int64_t kBlock = 4096;
  std::atomic<bool> past{false};
  OpenMpParallelFor(std::max(1, threads), (n + kBlock - 1) / kBlock, /*cost_per_unit=*/kBlock / 32,
                    [&](int64_t begin, int64_t end) {
                      for (int64_t b = begin; b < end; ++b) {
                        if (past.load(std::memory_order_relaxed)) return;
                        const float* __restrict d = input + b * kBlock;
                        const int64_t count = std::min(n, (b + 1) * kBlock) - b * kBlock;
                        unsigned out = 0;
                        RunSimd([&] {  // at the CPU's vector width
                          for (int64_t i = 0; i < count; ++i) out |= !(std::fabs(d[i]) <= limit);
                        });
                        if (out != 0) past.store(true, std::memory_order_relaxed);
                      }
                    });
  return !past.load();
}

}  // namespace rill
