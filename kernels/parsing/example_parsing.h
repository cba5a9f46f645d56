// The tf.train.Example parser behind ParseExampleV2, ParseExample and ParseSingleExample (and the
// feature readers sequence_example_parsing.cc shares): each
// serialized record is decoded as proto/example.proto's Example (TensorFlow's field
// numbers) and its features are gathered into dense, sparse and ragged outputs, with
// TensorFlow's fast-parser semantics and error texts:
//   - a key present twice in one record takes its last value (protobuf map semantics);
//   - a feature with no list set counts as missing; an empty list as zero values;
//   - a dense feature whose shape starts with an unknown dimension is variable length: each
//     record gives a whole number of rows, padded to the longest with the default's one element.
// Pure functions; thread-safe.
#ifndef RILL_KERNELS_PARSING_EXAMPLE_PARSING_H_
#define RILL_KERNELS_PARSING_EXAMPLE_PARSING_H_

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/types/span.h"
#include "core/partial_tensor_shape.h"
#include "core/tensor.h"
#include "core/types.h"
#include "kernels/framework/op_kernel.h"

namespace rill {

struct DenseFeatureSpec {
  std::string key;
  DataType dtype = DT_INVALID;
  PartialTensorShape shape;  // known rank; only dim 0 may be unknown (variable length)
  bool variable_length = false;
  int64_t stride = 1;  // elements per record (fixed) or per row (variable length)
};

struct SparseFeatureSpec {
  std::string key;
  DataType dtype = DT_INVALID;
};

struct RaggedFeatureSpec {
  std::string key;
  DataType dtype = DT_INVALID;
  DataType splits_dtype = DT_INT64;
};

struct ExampleParserSpec {
  std::vector<DenseFeatureSpec> dense;
  std::vector<SparseFeatureSpec> sparse;
  std::vector<RaggedFeatureSpec> ragged;
};

// Fills `dense`'s dtypes and shapes from the Tdense and dense_shapes attrs (or the attrs
// named `types_attr` and `shapes_attr`; keys are left for the caller). InvalidArgument for a
// count mismatch or a shape of unknown rank or with an unknown dimension past the first, as
// TensorFlow refuses them.
absl::Status DenseSpecsFromAttrs(const OpKernelConstruction& ctx,
                                 std::vector<DenseFeatureSpec>* dense,
                                 const char* types_attr = "Tdense",
                                 const char* shapes_attr = "dense_shapes");

class Feature;

// The dtype of the list `f` holds (DT_STRING, DT_FLOAT or DT_INT64); DT_INVALID when none is set
// (a missing feature).
DataType FeatureKindType(const Feature& f);
// The number of values in f's list (0 when none is set).
int64_t FeatureValueCount(const Feature& f);
// Writes f's values to out's flat elements from `offset`; f holds out's dtype.
void CopyFeatureValues(const Feature& f, Tensor* out, int64_t offset);

// Which op's error texts to use: the batch parsers name the record ("Name: n, Key: k, Index:
// i.") and ParseSingleExample only the key.
enum class ExampleErrorStyle { kBatch, kSingle };

struct ExampleBatch {
  absl::Span<const std::string> serialized;
  absl::Span<const std::string> names;  // one per record, or empty ("<unknown>")
  bool scalar = false;                  // one record and no batch dimension in the outputs
};

// Parses `batch` and sets ctx's outputs in TensorFlow's order: sparse indices, values and
// shapes (spec.sparse.size() each), dense values, ragged values, ragged row splits.
// `dense_defaults[d]` is the d-th dense default (empty: the feature is required).
absl::Status ParseExamples(OpKernelContext& ctx, const ExampleParserSpec& spec,
                           const ExampleBatch& batch,
                           absl::Span<const Tensor* const> dense_defaults, ExampleErrorStyle style);

}  // namespace rill

#endif  // RILL_KERNELS_PARSING_EXAMPLE_PARSING_H_
