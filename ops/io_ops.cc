// Checkpoint ops (the graph ops tf.compat.v1.train.Saver and SavedModels use): RestoreV2,
// SaveV2, MergeV2Checkpoints, ShardedFilename, ShardedFilespec. TensorFlow's names, inputs and
// attrs; the kernels read and write TensorFlow's bundle format (core/io/tensor_bundle.h). And
// the whole-file ops ReadFile and WriteFile (tf.io.read_file, tf.io.write_file).
#include "core/status_macros.h"
#include "ops/op_registry.h"

namespace rill {
namespace {

absl::Status RestoreShape(ShapeInferenceContext& c) { return shape_fns::Unknown(c); }

REGISTER_OP("RestoreV2")
    .Input("prefix: string")
    .Input("tensor_names: string")
    .Input("shape_and_slices: string")
    .Output("tensors: dtypes")
    .Attr("dtypes: list(type) >= 1")
    .SetIsStateful()
    .SetShapeFn(RestoreShape);

REGISTER_OP("SaveV2")
    .Input("prefix: string")
    .Input("tensor_names: string")
    .Input("shape_and_slices: string")
    .Input("tensors: dtypes")
    .Attr("dtypes: list(type) >= 1")
    .SetIsStateful()
    .SetShapeFn(shape_fns::NoOutputs);

REGISTER_OP("MergeV2Checkpoints")
    .Input("checkpoint_prefixes: string")
    .Input("destination_prefix: string")
    .Attr("delete_old_dirs: bool = true")
    .Attr("allow_missing_files: bool = false")
    .SetIsStateful()
    .SetShapeFn(shape_fns::NoOutputs);

REGISTER_OP("ShardedFilename")
    .Input("basename: string")
    .Input("shard: int32")
    .Input("num_shards: int32")
    .Output("filename: string")
    .SetShapeFn(shape_fns::Scalar);

// The first `n` inputs are scalars (ReadFile's and WriteFile's shape functions).
absl::Status ScalarInputs(ShapeInferenceContext& c, int n) {
  for (int i = 0; i < n; ++i) RILL_RETURN_IF_ERROR(c.WithRank(i, 0));
  return absl::OkStatus();
}

REGISTER_OP("ReadFile")
    .Input("filename: string")
    .Output("contents: string")
    .SetShapeFn([](ShapeInferenceContext& c) {
      RILL_RETURN_IF_ERROR(ScalarInputs(c, 1));
      return shape_fns::Scalar(c);
    });

REGISTER_OP("WriteFile")
    .Input("filename: string")
    .Input("contents: string")
    .SetIsStateful()
    .SetShapeFn([](ShapeInferenceContext& c) { return ScalarInputs(c, 2); });

REGISTER_OP("ShardedFilespec")
    .Input("basename: string")
    .Input("num_shards: int32")
    .Output("filename: string")
    .SetShapeFn(shape_fns::Scalar);

}  // namespace
}  // namespace rill
