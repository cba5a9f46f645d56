// Builder wrappers of the tf.data ops Rill runs (ops/dataset_ops.cc): a one-element dataset fed
// through an iterator, as TF1 graphs and TensorFlow's Go binding build it; and TensorSummary
// (ops/summary_ops.cc). The iterator's `output_types` / `output_shapes` must match the dataset's
// components; IteratorGetNext gives one output per component.
#ifndef RILL_GRAPH_BUILDER_DATASET_OPS_H_
#define RILL_GRAPH_BUILDER_DATASET_OPS_H_

#include <string>
#include <vector>

#include "absl/strings/string_view.h"
#include "absl/types/span.h"
#include "core/partial_tensor_shape.h"
#include "graph/builder/input.h"
#include "graph/builder/scope.h"

namespace rill {
namespace ops {

// A variant scalar: the dataset of one element made of `components`.
Output TensorDataset(const Scope& scope, absl::Span<const Output> components,
                     const std::vector<PartialTensorShape>& output_shapes);
// A resource scalar: an iterator not yet bound to a dataset (V2: the same, TensorFlow's newer
// name).
Output Iterator(const Scope& scope, absl::string_view shared_name, absl::string_view container,
                const std::vector<DataType>& output_types,
                const std::vector<PartialTensorShape>& output_shapes);
Output IteratorV2(const Scope& scope, absl::string_view shared_name, absl::string_view container,
                  const std::vector<DataType>& output_types,
                  const std::vector<PartialTensorShape>& output_shapes);
// Binds `iterator` to the start of `dataset`.
Operation MakeIterator(const Scope& scope, const Input& dataset, const Input& iterator);
// The next element's components; OutOfRange "End of sequence" after the last.
std::vector<Output> IteratorGetNext(const Scope& scope, const Input& iterator,
                                    const std::vector<DataType>& output_types,
                                    const std::vector<PartialTensorShape>& output_shapes);
// A serialized Summary proto holding `tensor`.
Output TensorSummary(const Scope& scope, const Input& tensor, absl::string_view description = "",
                     const std::vector<std::string>& labels = {},
                     absl::string_view display_name = "");

}  // namespace ops
}  // namespace rill

#endif  // RILL_GRAPH_BUILDER_DATASET_OPS_H_
