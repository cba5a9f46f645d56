// Checkpoint ops (the graph ops tf.compat.v1.train.Saver and SavedModels use): RestoreV2,
// SaveV2, MergeV2Checkpoints, ShardedFilename, ShardedFilespec. TensorFlow's names, inputs and
// attrs; the kernels read and write TensorFlow's bundle format (core/io/tensor_bundle.h).
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

REGISTER_OP("ShardedFilespec")
    .Input("basename: string")
    .Input("num_shards: int32")
    .Output("filename: string")
    .SetShapeFn(shape_fns::Scalar);

}  // namespace
}  // namespace rill
