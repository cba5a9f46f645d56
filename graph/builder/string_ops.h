// Builder wrappers for the string transformation ops (TensorFlow's C++ API names): lengths, case,
// substrings, stripping, number parsing, hashing, regular expressions, splitting and joining.
// Included by graph/builder/ops.h.
//
//   Output n = ops::StringToNumber(root, strings, DT_INT32);
//
// Errors are recorded in the scope (see op_builder.h). Thread safety: as Scope.
#ifndef RILL_GRAPH_BUILDER_STRING_OPS_H_
#define RILL_GRAPH_BUILDER_STRING_OPS_H_

#include <cstdint>
#include <vector>

#include "absl/strings/string_view.h"
#include "core/types.h"
#include "graph/builder/input.h"
#include "graph/builder/scope.h"

namespace rill {
namespace ops {

// unit: "BYTE" or "UTF8_CHAR".
Output StringLength(const Scope& scope, const Input& input, absl::string_view unit = "BYTE");
Output StringLower(const Scope& scope, const Input& input, absl::string_view encoding = "");
Output StringUpper(const Scope& scope, const Input& input, absl::string_view encoding = "");
Output Substr(const Scope& scope, const Input& input, const Input& pos, const Input& len,
              absl::string_view unit = "BYTE");
Output StringStrip(const Scope& scope, const Input& input);
Output StringToNumber(const Scope& scope, const Input& string_tensor, DataType out_type = DT_FLOAT);
Output StringToHashBucketFast(const Scope& scope, const Input& input, int64_t num_buckets);
Output StaticRegexReplace(const Scope& scope, const Input& input, absl::string_view pattern,
                          absl::string_view rewrite, bool replace_global = true);
Output RegexReplace(const Scope& scope, const Input& input, const Input& pattern,
                    const Input& rewrite, bool replace_global = true);
Output RegexFullMatch(const Scope& scope, const Input& input, const Input& pattern);
// indices, values, shape (a sparse [rows, max pieces] matrix).
std::vector<Output> StringSplitV2(const Scope& scope, const Input& input, const Input& sep,
                                  int64_t maxsplit = -1);
Output ReduceJoin(const Scope& scope, const Input& inputs, const Input& reduction_indices,
                  bool keep_dims = false, absl::string_view separator = "");

// Hashes: TensorFlow's Hash64 and keyed SipHash-2-4 (key: two ints) modulo num_buckets, and the
// [rows, 8] uint8 FarmHash fingerprints of data's rows (method "farmhash64").
Output StringToHashBucket(const Scope& scope, const Input& input, int64_t num_buckets);
Output StringToHashBucketStrong(const Scope& scope, const Input& input, int64_t num_buckets,
                                const std::vector<int64_t>& key);
Output Fingerprint(const Scope& scope, const Input& data, const Input& method);
// Web-safe base64, and strings' bytes as out_type values (input shape + [bytes / size]).
Output EncodeBase64(const Scope& scope, const Input& input, bool pad = false);
Output DecodeBase64(const Scope& scope, const Input& input);
Output DecodeRaw(const Scope& scope, const Input& bytes, DataType out_type,
                 bool little_endian = true);

// Word n-grams of ragged rows (data, data_splits): outputs ngrams and their row splits
// (tf.strings.ngrams).
std::vector<Output> StringNGrams(const Scope& scope, const Input& data, const Input& data_splits,
                                 absl::string_view separator,
                                 const std::vector<int64_t>& ngram_widths,
                                 absl::string_view left_pad, absl::string_view right_pad,
                                 int64_t pad_width, bool preserve_short_sequences);
// The strings of each segment joined with `separator` (num_segments rows).
Output UnsortedSegmentJoin(const Scope& scope, const Input& inputs, const Input& segment_ids,
                           const Input& num_segments, absl::string_view separator = "");

}  // namespace ops
}  // namespace rill

#endif  // RILL_GRAPH_BUILDER_STRING_OPS_H_
