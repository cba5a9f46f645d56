// Which dimensions a reduction (Sum, Mean, Prod, Max, Min, All, Any) reduces, and its output
// shape, from the input shape, the reduction_indices tensor and keep_dims; shared by the CPU and
// GPU kernels. Errors: InvalidArgument "Invalid reduction dimension (5 for input with 2
// dimension(s)" (TensorFlow's text) for an axis out of range, "Invalid reduction arguments: Axes
// contains duplicate dimension: 0" for an axis given twice (1 and -1 of a rank-2 input included).
// Pure; thread-safe.
#ifndef RILL_KERNELS_MATH_REDUCTION_PLAN_H_
#define RILL_KERNELS_MATH_REDUCTION_PLAN_H_

#include <cstdint>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "core/status_macros.h"
#include "core/tensor.h"
#include "kernels/framework/index_values.h"

namespace rill {

struct ReductionPlan {
  std::vector<bool> reduced;  // per input dimension
  TensorShape output;
  int64_t count = 1;  // input elements per output element
};

inline absl::StatusOr<ReductionPlan> PlanReduction(const TensorShape& in, const Tensor& axes,
                                                   bool keep_dims) {
  const int rank = in.rank();
  ReductionPlan plan;
  plan.reduced.assign(rank, false);
  for (int64_t a : IndexValues(axes)) {
    if (a < -rank || a >= rank) {
      return absl::InvalidArgumentError(absl::StrCat("Invalid reduction dimension (", a,
                                                     " for input with ", rank, " dimension(s)"));
    }
    const int64_t d = a < 0 ? a + rank : a;
    if (plan.reduced[d]) {
      return absl::InvalidArgumentError(
          absl::StrCat("Invalid reduction arguments: Axes contains duplicate dimension: ", d));
    }
    plan.reduced[d] = true;
  }
  std::vector<int64_t> dims;
  for (int d = 0; d < rank; ++d) {
    if (plan.reduced[d]) {
      plan.count *= in.dim(d);
      if (keep_dims) dims.push_back(1);
    } else {
      dims.push_back(in.dim(d));
    }
  }
  RILL_ASSIGN_OR_RETURN(plan.output, TensorShape::FromDims(dims));
  return plan;
}

}  // namespace rill

#endif  // RILL_KERNELS_MATH_REDUCTION_PLAN_H_
