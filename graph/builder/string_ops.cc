#include "graph/builder/string_ops.h"

#include <string>

#include "graph/builder/op_builder.h"

namespace rill {
namespace ops {

Output StringLength(const Scope& scope, const Input& input, absl::string_view unit) {
  return OpBuilder(scope, "StringLength").Input(input).Attr("unit", unit).Finalize().output(0);
}
Output StringLower(const Scope& scope, const Input& input, absl::string_view encoding) {
  return OpBuilder(scope, "StringLower")
      .Input(input)
      .Attr("encoding", encoding)
      .Finalize()
      .output(0);
}
Output StringUpper(const Scope& scope, const Input& input, absl::string_view encoding) {
  return OpBuilder(scope, "StringUpper")
      .Input(input)
      .Attr("encoding", encoding)
      .Finalize()
      .output(0);
}
Output Substr(const Scope& scope, const Input& input, const Input& pos, const Input& len,
              absl::string_view unit) {
  return OpBuilder(scope, "Substr")
      .Input(input)
      .Input(pos)
      .Input(len)
      .Attr("unit", unit)
      .Finalize()
      .output(0);
}
Output StringStrip(const Scope& scope, const Input& input) {
  return OpBuilder(scope, "StringStrip").Input(input).Finalize().output(0);
}
Output StringToNumber(const Scope& scope, const Input& string_tensor, DataType out_type) {
  return OpBuilder(scope, "StringToNumber")
      .Input(string_tensor)
      .Attr("out_type", out_type)
      .Finalize()
      .output(0);
}
Output StringToHashBucketFast(const Scope& scope, const Input& input, int64_t num_buckets) {
  return OpBuilder(scope, "StringToHashBucketFast")
      .Input(input)
      .Attr("num_buckets", num_buckets)
      .Finalize()
      .output(0);
}
Output StaticRegexReplace(const Scope& scope, const Input& input, absl::string_view pattern,
                          absl::string_view rewrite, bool replace_global) {
  return OpBuilder(scope, "StaticRegexReplace")
      .Input(input)
      .Attr("pattern", pattern)
      .Attr("rewrite", rewrite)
      .Attr("replace_global", replace_global)
      .Finalize()
      .output(0);
}
Output RegexReplace(const Scope& scope, const Input& input, const Input& pattern,
                    const Input& rewrite, bool replace_global) {
  return OpBuilder(scope, "RegexReplace")
      .Input(input)
      .Input(pattern)
      .Input(rewrite)
      .Attr("replace_global", replace_global)
      .Finalize()
      .output(0);
}
Output RegexFullMatch(const Scope& scope, const Input& input, const Input& pattern) {
  return OpBuilder(scope, "RegexFullMatch").Input(input).Input(pattern).Finalize().output(0);
}
std::vector<Output> StringSplitV2(const Scope& scope, const Input& input, const Input& sep,
                                  int64_t maxsplit) {
  Operation node = OpBuilder(scope, "StringSplitV2")
                       .Input(input)
                       .Input(sep)
                       .Attr("maxsplit", maxsplit)
                       .Finalize();
  std::vector<Output> out;
  for (int i = 0; i < node.num_outputs(); ++i) out.push_back(node.output(i));
  return out;
}
Output ReduceJoin(const Scope& scope, const Input& inputs, const Input& reduction_indices,
                  bool keep_dims, absl::string_view separator) {
  return OpBuilder(scope, "ReduceJoin")
      .Input(inputs)
      .Input(reduction_indices)
      .Attr("keep_dims", keep_dims)
      .Attr("separator", separator)
      .Finalize()
      .output(0);
}

Output StringToHashBucket(const Scope& scope, const Input& input, int64_t num_buckets) {
  return OpBuilder(scope, "StringToHashBucket")
      .Input(input)
      .Attr("num_buckets", num_buckets)
      .Finalize()
      .output(0);
}
Output StringToHashBucketStrong(const Scope& scope, const Input& input, int64_t num_buckets,
                                const std::vector<int64_t>& key) {
  return OpBuilder(scope, "StringToHashBucketStrong")
      .Input(input)
      .Attr("num_buckets", num_buckets)
      .Attr("key", key)
      .Finalize()
      .output(0);
}
Output Fingerprint(const Scope& scope, const Input& data, const Input& method) {
  return OpBuilder(scope, "Fingerprint").Input(data).Input(method).Finalize().output(0);
}
Output EncodeBase64(const Scope& scope, const Input& input, bool pad) {
  return OpBuilder(scope, "EncodeBase64").Input(input).Attr("pad", pad).Finalize().output(0);
}
Output DecodeBase64(const Scope& scope, const Input& input) {
  return OpBuilder(scope, "DecodeBase64").Input(input).Finalize().output(0);
}
Output DecodeRaw(const Scope& scope, const Input& bytes, DataType out_type, bool little_endian) {
  return OpBuilder(scope, "DecodeRaw")
      .Input(bytes)
      .Attr("out_type", out_type)
      .Attr("little_endian", little_endian)
      .Finalize()
      .output(0);
}

std::vector<Output> StringNGrams(const Scope& scope, const Input& data, const Input& data_splits,
                                 absl::string_view separator,
                                 const std::vector<int64_t>& ngram_widths,
                                 absl::string_view left_pad, absl::string_view right_pad,
                                 int64_t pad_width, bool preserve_short_sequences) {
  Operation node = OpBuilder(scope, "StringNGrams")
                       .Input(data)
                       .Input(data_splits)
                       .Attr("separator", separator)
                       .Attr("ngram_widths", ngram_widths)
                       .Attr("left_pad", left_pad)
                       .Attr("right_pad", right_pad)
                       .Attr("pad_width", pad_width)
                       .Attr("preserve_short_sequences", preserve_short_sequences)
                       .Finalize();
  return {node.output(0), node.output(1)};
}
Output UnsortedSegmentJoin(const Scope& scope, const Input& inputs, const Input& segment_ids,
                           const Input& num_segments, absl::string_view separator) {
  return OpBuilder(scope, "UnsortedSegmentJoin")
      .Input(inputs)
      .Input(segment_ids)
      .Input(num_segments)
      .Attr("separator", separator)
      .Finalize()
      .output(0);
}

}  // namespace ops
}  // namespace rill
