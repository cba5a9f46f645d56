// The epilogue of the fused kernels the graph optimizer makes (session/graph_optimizer.h):
// _FusedMatMul and _FusedConv2D compute their product into the output, then add the bias and
// apply the activation in one pass over it (one read and write per element, no intermediate
// tensors). fused_ops is TensorFlow's attr: ["BiasAdd"], ["BiasAdd", "Relu"],
// ["BiasAdd", "Relu6"], ["BiasAdd", "_MklSwish"] (TensorFlow's name for swish / SiLU,
// x * sigmoid(x)) or ["BiasAdd", "_FusedHardSwish"] (x * (Relu6(x + 3) / 6)); _FusedConv2D also
// takes ["BiasAdd", "Add"] and ["BiasAdd", "Add", "Relu" | "Relu6"] (TensorFlow's names for a
// residual sum: act((conv + bias) + addend), the addend its second arg); anything else is
// InvalidArgument "Fusion is not implemented: [...]".
// Thread-safe (the epilogue writes disjoint rows).
#ifndef RILL_KERNELS_MATH_LIB_FUSED_EPILOGUE_H_
#define RILL_KERNELS_MATH_LIB_FUSED_EPILOGUE_H_

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "kernels/framework/op_kernel.h"

namespace rill {

enum class FusedActivation { kNone, kRelu, kRelu6, kSwish, kHardSwish };

// x * sigmoid(x) in the order of the unfused Sigmoid and Mul kernels, so the fused result rounds
// as theirs does (inf -> inf, -inf -> NaN as -inf * 0, NaN -> NaN).
template <typename T>
inline T Swish(T x) {
  return x * (T(1) / (T(1) + std::exp(-x)));
}

// x * (Relu6(x + 3) / 6) in the order of the unfused Add, Relu6, RealDiv and Mul kernels (NaN
// stays NaN, -inf gives NaN as -inf * 0).
template <typename T>
inline T HardSwish(T x) {
  const T y = x + T(3);
  return x * ((std::isnan(y) ? y : (y > T(6) ? T(6) : (y > T(0) ? y : T(0)))) / T(6));
}

inline absl::StatusOr<FusedActivation> ParseFusedOps(OpKernelConstruction& ctx) {
  std::vector<std::string> ops;
  int64_t num_args = 0;
  absl::Status s = ctx.GetAttr("fused_ops", &ops);
  if (s.ok()) s = ctx.GetAttr("num_args", &num_args);
  if (!s.ok()) return s;
  auto unsupported = [&] {
    return absl::InvalidArgumentError(
        absl::StrCat("Fusion is not implemented: [", absl::StrJoin(ops, ","), "]"));
  };
  if (ops.empty() || ops[0] != "BiasAdd" || num_args != 1 || ops.size() > 2) return unsupported();
  if (ops.size() == 1) return FusedActivation::kNone;
  if (ops[1] == "Relu") return FusedActivation::kRelu;
  if (ops[1] == "Relu6") return FusedActivation::kRelu6;
  if (ops[1] == "_MklSwish") return FusedActivation::kSwish;
  if (ops[1] == "_FusedHardSwish") return FusedActivation::kHardSwish;
  return unsupported();
}

// What _FusedConv2D's fused_ops ask for: the activation, and whether a residual addend (args[1])
// is added before it.
struct FusedConvOps {
  FusedActivation activation = FusedActivation::kNone;
  bool add = false;
};

// ParseFusedOps's forms, and ["BiasAdd", "Add"] / ["BiasAdd", "Add", "Relu" | "Relu6"] with
// num_args 2.
inline absl::StatusOr<FusedConvOps> ParseFusedConvOps(OpKernelConstruction& ctx) {
  std::vector<std::string> ops;
  int64_t num_args = 0;
  absl::Status s = ctx.GetAttr("fused_ops", &ops);
  if (s.ok()) s = ctx.GetAttr("num_args", &num_args);
  if (!s.ok()) return s;
  if (ops.size() < 2 || ops[1] != "Add") {
    absl::StatusOr<FusedActivation> act = ParseFusedOps(ctx);
    if (!act.ok()) return act.status();
    return FusedConvOps{*act, false};
  }
  FusedConvOps out;
  out.add = true;
  if (ops[0] != "BiasAdd" || num_args != 2 || ops.size() > 3 ||
      (ops.size() == 3 && ops[2] != "Relu" && ops[2] != "Relu6")) {
    return absl::InvalidArgumentError(
        absl::StrCat("Fusion is not implemented: [", absl::StrJoin(ops, ","), "]"));
  }
  if (ops.size() == 3) {
    out.activation = ops[2] == "Relu" ? FusedActivation::kRelu : FusedActivation::kRelu6;
  }
  return out;
}

// act(x) for the activations a residual sum may take (kNone, kRelu, kRelu6), as the Relu and
// Relu6 kernels compute it (NaN stays NaN, -0 gives +0).
template <typename T>
inline T ApplyAddActivation(T x, FusedActivation act) {
  if (act == FusedActivation::kNone || std::isnan(x)) return x;
  if (act == FusedActivation::kRelu6 && x > T(6)) return T(6);
  return x > T(0) ? x : T(0);
}

// InvalidArgument unless `bias` is a vector of `channels` (BiasAdd's text).
inline absl::Status CheckBias(const Tensor& bias, int64_t channels) {
  if (bias.shape().rank() != 1 || bias.shape().dim(0) != channels) {
    return absl::InvalidArgumentError(
        absl::StrCat("Must provide as many biases as the last dimension of the input tensor: ",
                     bias.shape().DebugString(), " vs. [", channels, "]"));
  }
  return absl::OkStatus();
}

// out[r, c] = act(out[r, c] + bias[c]) for rows [row_begin, row_end) and columns
// [col_begin, col_end) of a matrix with `ld` elements per row (one block, on this thread).
template <typename T>
void BiasActivationBlock(T* out, int64_t ld, const T* bias, int64_t row_begin, int64_t row_end,
                         int64_t col_begin, int64_t col_end, FusedActivation act) {
  for (int64_t r = row_begin; r < row_end; ++r) {
    T* __restrict row = out + r * ld;
    switch (act) {
      case FusedActivation::kNone:
        for (int64_t c = col_begin; c < col_end; ++c) row[c] += bias[c];
        break;
      case FusedActivation::kRelu:
        for (int64_t c = col_begin; c < col_end; ++c) row[c] = std::max(row[c] + bias[c], T(0));
        break;
      case FusedActivation::kRelu6:
        for (int64_t c = col_begin; c < col_end; ++c) {
          row[c] = std::min(std::max(row[c] + bias[c], T(0)), T(6));
        }
        break;
      case FusedActivation::kSwish:
        for (int64_t c = col_begin; c < col_end; ++c) row[c] = Swish(row[c] + bias[c]);
        break;
      case FusedActivation::kHardSwish:
        for (int64_t c = col_begin; c < col_end; ++c) row[c] = HardSwish(row[c] + bias[c]);
        break;
    }
  }
}

// out[r, c] = act(out[r, c] + bias[c]) over `rows` rows of `channels`, rows split over the
// intra-op threads.
template <typename T>
void BiasActivation(OpKernelContext& ctx, T* out, const T* bias, int64_t rows, int64_t channels,
                    FusedActivation act) {
  ctx.ParallelFor(rows, channels * 2, [&](int64_t begin, int64_t end) {
    BiasActivationBlock(out, channels, bias, begin, end, 0, channels, act);
  });
}

}  // namespace rill

#endif  // RILL_KERNELS_MATH_LIB_FUSED_EPILOGUE_H_
