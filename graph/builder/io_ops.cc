#include "graph/builder/io_ops.h"

#include "graph/builder/op_builder.h"

namespace rill {
namespace ops {

std::vector<Output> RestoreV2(const Scope& scope, const Input& prefix, const Input& tensor_names,
                              const Input& shape_and_slices, const std::vector<DataType>& dtypes) {
  AttrValue types;
  for (DataType t : dtypes) types.mutable_list()->add_type(t);
  Operation op = OpBuilder(scope, "RestoreV2")
                     .Input(prefix)
                     .Input(tensor_names)
                     .Input(shape_and_slices)
                     .Attr("dtypes", types)
                     .Finalize();
  std::vector<Output> out;
  for (int i = 0; i < op.num_outputs(); ++i) out.push_back(op.output(i));
  return out;
}

Operation SaveV2(const Scope& scope, const Input& prefix, const Input& tensor_names,
                 const Input& shape_and_slices, absl::Span<const Output> tensors) {
  return OpBuilder(scope, "SaveV2")
      .Input(prefix)
      .Input(tensor_names)
      .Input(shape_and_slices)
      .InputList(tensors)
      .Finalize();
}

Operation MergeV2Checkpoints(const Scope& scope, const Input& checkpoint_prefixes,
                             const Input& destination_prefix, bool delete_old_dirs) {
  return OpBuilder(scope, "MergeV2Checkpoints")
      .Input(checkpoint_prefixes)
      .Input(destination_prefix)
      .Attr("delete_old_dirs", delete_old_dirs)
      .Finalize();
}

Output ShardedFilename(const Scope& scope, const Input& basename, const Input& shard,
                       const Input& num_shards) {
  return OpBuilder(scope, "ShardedFilename")
      .Input(basename)
      .Input(shard)
      .Input(num_shards)
      .Finalize()
      .output(0);
}

Output ShardedFilespec(const Scope& scope, const Input& basename, const Input& num_shards) {
  return OpBuilder(scope, "ShardedFilespec").Input(basename).Input(num_shards).Finalize().output(0);
}

Output ReadFile(const Scope& scope, const Input& filename) {
  return OpBuilder(scope, "ReadFile").Input(filename).Finalize().output(0);
}

Operation WriteFile(const Scope& scope, const Input& filename, const Input& contents) {
  return OpBuilder(scope, "WriteFile").Input(filename).Input(contents).Finalize();
}

}  // namespace ops
}  // namespace rill
