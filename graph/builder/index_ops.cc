#include "graph/builder/index_ops.h"

#include <string>

#include "graph/builder/op_builder.h"

namespace rill {
namespace ops {

Output Gather(const Scope& scope, const Input& params, const Input& indices) {
  return OpBuilder(scope, "Gather").Input(params).Input(indices).Finalize().output(0);
}
Output GatherV2(const Scope& scope, const Input& params, const Input& indices, const Input& axis,
                int64_t batch_dims) {
  return OpBuilder(scope, "GatherV2")
      .Input(params)
      .Input(indices)
      .Input(axis)
      .Attr("batch_dims", batch_dims)
      .Finalize()
      .output(0);
}
Output GatherNd(const Scope& scope, const Input& params, const Input& indices) {
  return OpBuilder(scope, "GatherNd").Input(params).Input(indices).Finalize().output(0);
}
Output OneHot(const Scope& scope, const Input& indices, const Input& depth, const Input& on_value,
              const Input& off_value, int64_t axis) {
  return OpBuilder(scope, "OneHot")
      .Input(indices)
      .Input(depth)
      .Input(on_value)
      .Input(off_value)
      .Attr("axis", axis)
      .Finalize()
      .output(0);
}
Output Where(const Scope& scope, const Input& condition) {
  return OpBuilder(scope, "Where").Input(condition).Finalize().output(0);
}
TopKOutputs TopKV2(const Scope& scope, const Output& input, const Output& k) {
  Operation op = OpBuilder(scope, "TopKV2").Input(input).Input(k).Finalize();
  return {op.output(0), op.output(1)};
}
UniqueOutputs Unique(const Scope& scope, const Output& x, DataType out_idx) {
  Operation op = OpBuilder(scope, "Unique").Input(x).Attr("out_idx", out_idx).Finalize();
  return {op.output(0), op.output(1)};
}
UniqueWithCountsOutputs UniqueWithCounts(const Scope& scope, const Output& x, DataType out_idx) {
  Operation op = OpBuilder(scope, "UniqueWithCounts").Input(x).Attr("out_idx", out_idx).Finalize();
  return {op.output(0), op.output(1), op.output(2)};
}
UniqueOutputs UniqueV2(const Scope& scope, const Output& x, const Output& axis, DataType out_idx) {
  Operation op =
      OpBuilder(scope, "UniqueV2").Input(x).Input(axis).Attr("out_idx", out_idx).Finalize();
  return {op.output(0), op.output(1)};
}
Output Range(const Scope& scope, const Input& start, const Input& limit, const Input& delta) {
  return OpBuilder(scope, "Range").Input(start).Input(limit).Input(delta).Finalize().output(0);
}
Output NthElement(const Scope& scope, const Input& input, const Input& n, bool reverse) {
  return OpBuilder(scope, "NthElement")
      .Input(input)
      .Input(n)
      .Attr("reverse", reverse)
      .Finalize()
      .output(0);
}
Output UnravelIndex(const Scope& scope, const Input& indices, const Input& dims) {
  return OpBuilder(scope, "UnravelIndex").Input(indices).Input(dims).Finalize().output(0);
}
Output LinSpace(const Scope& scope, const Input& start, const Input& stop, const Input& num) {
  return OpBuilder(scope, "LinSpace").Input(start).Input(stop).Input(num).Finalize().output(0);
}
Output CheckNumerics(const Scope& scope, const Input& tensor, absl::string_view message) {
  return OpBuilder(scope, "CheckNumerics")
      .Input(tensor)
      .Attr("message", std::string(message))
      .Finalize()
      .output(0);
}
Output ReverseV2(const Scope& scope, const Input& tensor, const Input& axis) {
  return OpBuilder(scope, "ReverseV2").Input(tensor).Input(axis).Finalize().output(0);
}
Output Reverse(const Scope& scope, const Input& tensor, const Input& dims) {
  return OpBuilder(scope, "Reverse").Input(tensor).Input(dims).Finalize().output(0);
}

Output DynamicStitch(const Scope& scope, absl::Span<const Output> indices,
                     absl::Span<const Output> data) {
  return OpBuilder(scope, "DynamicStitch").InputList(indices).InputList(data).Finalize().output(0);
}
Output StringJoin(const Scope& scope, absl::Span<const Output> inputs,
                  absl::string_view separator) {
  return OpBuilder(scope, "StringJoin")
      .InputList(inputs)
      .Attr("separator", std::string(separator))
      .Finalize()
      .output(0);
}
Output AsString(const Scope& scope, const Input& input) {
  return OpBuilder(scope, "AsString").Input(input).Finalize().output(0);
}
Output StringFormat(const Scope& scope, absl::Span<const Output> inputs,
                    absl::string_view template_, int64_t summarize) {
  return OpBuilder(scope, "StringFormat")
      .InputList(inputs)
      .Attr("template", std::string(template_))
      .Attr("placeholder", "{}")
      .Attr("summarize", summarize)
      .Finalize()
      .output(0);
}
Operation PrintV2(const Scope& scope, const Input& input, absl::string_view output_stream) {
  return OpBuilder(scope, "PrintV2")
      .Input(input)
      .Attr("output_stream", std::string(output_stream))
      .Finalize();
}
Output Print(const Scope& scope, const Input& input, absl::Span<const Output> data,
             absl::string_view message) {
  return OpBuilder(scope, "Print")
      .Input(input)
      .InputList(data)
      .Attr("message", std::string(message))
      .Finalize()
      .output(0);
}
Operation Assert(const Scope& scope, const Input& condition, absl::Span<const Output> data,
                 int64_t summarize) {
  return OpBuilder(scope, "Assert")
      .Input(condition)
      .InputList(data)
      .Attr("summarize", summarize)
      .Finalize();
}

Output StaticRegexFullMatch(const Scope& scope, const Input& input, absl::string_view pattern) {
  return OpBuilder(scope, "StaticRegexFullMatch")
      .Input(input)
      .Attr("pattern", pattern)
      .Finalize()
      .output(0);
}

}  // namespace ops
}  // namespace rill
