// Builder wrappers for the checkpoint and whole-file ops (ops/io_ops.cc). Included by
// graph/builder/ops.h.
//
//   Output prefix = ops::Placeholder(root.WithOpName("filename"), DT_STRING);
//   ops::SaveV2(root, prefix, names, slices, {w, b});
//   std::vector<Output> restored = ops::RestoreV2(root, prefix, names, slices,
//                                                 {DT_FLOAT, DT_FLOAT});
//
// Errors are recorded in the scope (see op_builder.h). Thread safety: as Scope.
#ifndef RILL_GRAPH_BUILDER_IO_OPS_H_
#define RILL_GRAPH_BUILDER_IO_OPS_H_

#include <vector>

#include "absl/types/span.h"
#include "graph/builder/input.h"
#include "graph/builder/scope.h"

namespace rill {
namespace ops {

// tensor_names and shape_and_slices are string vectors ("" slices: whole tensors).
std::vector<Output> RestoreV2(const Scope& scope, const Input& prefix, const Input& tensor_names,
                              const Input& shape_and_slices, const std::vector<DataType>& dtypes);
Operation SaveV2(const Scope& scope, const Input& prefix, const Input& tensor_names,
                 const Input& shape_and_slices, absl::Span<const Output> tensors);
Operation MergeV2Checkpoints(const Scope& scope, const Input& checkpoint_prefixes,
                             const Input& destination_prefix, bool delete_old_dirs = true);
Output ShardedFilename(const Scope& scope, const Input& basename, const Input& shard,
                       const Input& num_shards);
Output ShardedFilespec(const Scope& scope, const Input& basename, const Input& num_shards);
// A whole file as a scalar string, and a scalar string written as a file.
Output ReadFile(const Scope& scope, const Input& filename);
Operation WriteFile(const Scope& scope, const Input& filename, const Input& contents);

}  // namespace ops
}  // namespace rill

#endif  // RILL_GRAPH_BUILDER_IO_OPS_H_
