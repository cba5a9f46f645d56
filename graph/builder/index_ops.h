// Builder wrappers for the indexing ops (TensorFlow's C++ API names). Included by
// graph/builder/ops.h.
//
//   Output rows = ops::GatherV2(root, params, ids, ops::Const(root, 0));
//   ops::TopKOutputs top = ops::TopKV2(root, logits, ops::Const(root, 5));
//
// Index operands are Outputs (int32 or int64). Errors are recorded in the scope (see
// op_builder.h). Thread safety: as Scope.
#ifndef RILL_GRAPH_BUILDER_INDEX_OPS_H_
#define RILL_GRAPH_BUILDER_INDEX_OPS_H_

#include <cstdint>

#include "absl/strings/string_view.h"
#include "absl/types/span.h"
#include "graph/builder/input.h"
#include "graph/builder/scope.h"

namespace rill {
namespace ops {

Output Gather(const Scope& scope, const Input& params, const Input& indices);
Output GatherV2(const Scope& scope, const Input& params, const Input& indices, const Input& axis,
                int64_t batch_dims = 0);
Output GatherNd(const Scope& scope, const Input& params, const Input& indices);
// depth: an int32 scalar Output; axis -1 puts the new dim last.
Output OneHot(const Scope& scope, const Input& indices, const Input& depth, const Input& on_value,
              const Input& off_value, int64_t axis = -1);
Output Where(const Scope& scope, const Input& condition);
struct TopKOutputs {
  Output values, indices;
};
TopKOutputs TopKV2(const Scope& scope, const Output& input, const Output& k);
struct UniqueOutputs {
  Output y, idx;
};
UniqueOutputs Unique(const Scope& scope, const Output& x, DataType out_idx = DT_INT32);
struct UniqueWithCountsOutputs {
  Output y, idx, count;
};
UniqueWithCountsOutputs UniqueWithCounts(const Scope& scope, const Output& x,
                                         DataType out_idx = DT_INT32);
// UniqueV2: `axis` empty (Unique's 1-D form) or [k], the distinct slices along dimension k.
UniqueOutputs UniqueV2(const Scope& scope, const Output& x, const Output& axis,
                       DataType out_idx = DT_INT32);
Output Range(const Scope& scope, const Input& start, const Input& limit, const Input& delta);
// NthElement: per row of the last dim, the n-th smallest value (largest with reverse).
Output NthElement(const Scope& scope, const Input& input, const Input& n, bool reverse = false);
// UnravelIndex: the coordinates of flat `indices` in an array of shape `dims`.
Output UnravelIndex(const Scope& scope, const Input& indices, const Input& dims);
// LinSpace: `num` values from start to stop inclusive.
Output LinSpace(const Scope& scope, const Input& start, const Input& stop, const Input& num);
Output CheckNumerics(const Scope& scope, const Input& tensor, absl::string_view message);
Output ReverseV2(const Scope& scope, const Input& tensor, const Input& axis);
// Reverse: `dims` a bool vector, one flag per dim of `tensor`.
Output Reverse(const Scope& scope, const Input& tensor, const Input& dims);
// merged[indices[m][i]] = data[m][i] (gradients' index merge).
Output DynamicStitch(const Scope& scope, absl::Span<const Output> indices,
                     absl::Span<const Output> data);

// Strings and checks.
Output StringJoin(const Scope& scope, absl::Span<const Output> inputs,
                  absl::string_view separator = "");
Output AsString(const Scope& scope, const Input& input);
// template with each "{}" replaced by the next input as tf.print renders it.
Output StringFormat(const Scope& scope, absl::Span<const Output> inputs,
                    absl::string_view template_, int64_t summarize = 3);
// Writes input (a string scalar) to "stderr", "stdout", "log(info|warning|error)" or
// "file://PATH"; use it as a control input.
Operation PrintV2(const Scope& scope, const Input& input,
                  absl::string_view output_stream = "stderr");
// Forwards input, printing message and data (TF1's tf.Print).
Output Print(const Scope& scope, const Input& input, absl::Span<const Output> data,
             absl::string_view message = "");
// Fails the run with "assertion failed: [data...]" when condition is false; use it as a control
// input of what it guards.
Operation Assert(const Scope& scope, const Input& condition, absl::Span<const Output> data,
                 int64_t summarize = 3);
// Whether each string of `input` matches `pattern` as a whole.
Output StaticRegexFullMatch(const Scope& scope, const Input& input, absl::string_view pattern);

}  // namespace ops
}  // namespace rill

#endif  // RILL_GRAPH_BUILDER_INDEX_OPS_H_
