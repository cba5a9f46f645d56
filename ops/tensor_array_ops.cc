// TF1 TensorArrays (tf.TensorArray in graph mode with control flow v1; dynamic_rnn): a
// per-step resource holding a vector of tensors, threaded through loops by a float "flow"
// tensor that orders reads after writes. TensorFlow's names, inputs and attrs.
#include "ops/op_registry.h"

namespace rill {
namespace {

absl::Status HandleAndFlow(ShapeInferenceContext& c) {
  c.set_output(0, PartialTensorShape(std::vector<int64_t>{2}));
  c.set_output(1, PartialTensorShape(std::vector<int64_t>{}));
  return absl::OkStatus();
}

// TensorArrayConcatV2/V3: the value's shape is unknown, the lengths a vector of unknown size.
absl::Status TensorArrayConcatShape(ShapeInferenceContext& c) {
  c.set_output(0, PartialTensorShape());
  c.set_output(1, PartialTensorShape(std::vector<int64_t>{-1}));
  return absl::OkStatus();
}

REGISTER_OP("TensorArrayV3")
    .Input("size: int32")
    .Output("handle: resource")
    .Output("flow: float")
    .Attr("dtype: type")
    .Attr("element_shape: shape = { unknown_rank: true }")
    .Attr("dynamic_size: bool = false")
    .Attr("clear_after_read: bool = true")
    .Attr("identical_element_shapes: bool = false")
    .Attr("tensor_array_name: string = \"\"")
    .SetIsStateful()
    .SetShapeFn(HandleAndFlow);

// The gradient TensorArray of `handle` for gradient source `source` (one per source, made on
// first use with the forward array's size and element shape; writes to one index add up).
REGISTER_OP("TensorArrayGradV3")
    .Input("handle: resource")
    .Input("flow_in: float")
    .Output("grad_handle: resource")
    .Output("flow_out: float")
    .Attr("source: string")
    .SetIsStateful()
    .SetShapeFn(HandleAndFlow);

REGISTER_OP("TensorArrayWriteV3")
    .Input("handle: resource")
    .Input("index: int32")
    .Input("value: T")
    .Input("flow_in: float")
    .Output("flow_out: float")
    .Attr("T: type")
    .SetIsStateful()
    .SetShapeFn(shape_fns::Scalar);

REGISTER_OP("TensorArrayReadV3")
    .Input("handle: resource")
    .Input("index: int32")
    .Input("flow_in: float")
    .Output("value: dtype")
    .Attr("dtype: type")
    .SetIsStateful()
    .SetShapeFn(shape_fns::Unknown);

REGISTER_OP("TensorArrayGatherV3")
    .Input("handle: resource")
    .Input("indices: int32")
    .Input("flow_in: float")
    .Output("value: dtype")
    .Attr("dtype: type")
    .Attr("element_shape: shape = { unknown_rank: true }")
    .SetIsStateful()
    .SetShapeFn(shape_fns::Unknown);

REGISTER_OP("TensorArrayConcatV3")
    .Input("handle: resource")
    .Input("flow_in: float")
    .Output("value: dtype")
    .Output("lengths: int64")
    .Attr("dtype: type")
    .Attr("element_shape_except0: shape = { unknown_rank: true }")
    .SetIsStateful()
    .SetShapeFn(TensorArrayConcatShape);

REGISTER_OP("TensorArrayScatterV3")
    .Input("handle: resource")
    .Input("indices: int32")
    .Input("value: T")
    .Input("flow_in: float")
    .Output("flow_out: float")
    .Attr("T: type")
    .SetIsStateful()
    .SetShapeFn(shape_fns::Scalar);

REGISTER_OP("TensorArraySplitV3")
    .Input("handle: resource")
    .Input("value: T")
    .Input("lengths: int64")
    .Input("flow_in: float")
    .Output("flow_out: float")
    .Attr("T: type")
    .SetIsStateful()
    .SetShapeFn(shape_fns::Scalar);

REGISTER_OP("TensorArraySizeV3")
    .Input("handle: resource")
    .Input("flow_in: float")
    .Output("size: int32")
    .SetIsStateful()
    .SetShapeFn(shape_fns::Scalar);

REGISTER_OP("TensorArrayCloseV3")
    .Input("handle: resource")
    .SetIsStateful()
    .SetShapeFn(shape_fns::NoOutputs);

// The V2 names of TensorFlow 0.12-1.0 graphs (GraphDef versions below 26): the same arrays, but
// the handle is a string vector [container, name] instead of a resource, TensorArrayV2 and
// TensorArrayGradV2 output no flow, and TensorArrayV2 has no identical_element_shapes. They run on
// the V3 kernels (kernels/lists/tensor_array_ops.cc).
absl::Status StringHandle(ShapeInferenceContext& c) {
  c.set_output(0, PartialTensorShape(std::vector<int64_t>{2}));
  return absl::OkStatus();
}

REGISTER_OP("TensorArrayV2")
    .Input("size: int32")
    .Output("handle: string")
    .Attr("dtype: type")
    .Attr("element_shape: shape = { unknown_rank: true }")
    .Attr("dynamic_size: bool = false")
    .Attr("clear_after_read: bool = true")
    .Attr("tensor_array_name: string = \"\"")
    .SetIsStateful()
    .SetShapeFn(StringHandle);

REGISTER_OP("TensorArrayGradV2")
    .Input("handle: string")
    .Input("flow_in: float")
    .Output("grad_handle: string")
    .Attr("source: string")
    .SetIsStateful()
    .SetShapeFn(StringHandle);

REGISTER_OP("TensorArrayWriteV2")
    .Input("handle: string")
    .Input("index: int32")
    .Input("value: T")
    .Input("flow_in: float")
    .Output("flow_out: float")
    .Attr("T: type")
    .SetIsStateful()
    .SetShapeFn(shape_fns::Scalar);

REGISTER_OP("TensorArrayReadV2")
    .Input("handle: string")
    .Input("index: int32")
    .Input("flow_in: float")
    .Output("value: dtype")
    .Attr("dtype: type")
    .SetIsStateful()
    .SetShapeFn(shape_fns::Unknown);

REGISTER_OP("TensorArrayGatherV2")
    .Input("handle: string")
    .Input("indices: int32")
    .Input("flow_in: float")
    .Output("value: dtype")
    .Attr("dtype: type")
    .Attr("element_shape: shape = { unknown_rank: true }")
    .SetIsStateful()
    .SetShapeFn(shape_fns::Unknown);

REGISTER_OP("TensorArrayConcatV2")
    .Input("handle: string")
    .Input("flow_in: float")
    .Output("value: dtype")
    .Output("lengths: int64")
    .Attr("dtype: type")
    .Attr("element_shape_except0: shape = { unknown_rank: true }")
    .SetIsStateful()
    .SetShapeFn(TensorArrayConcatShape);

REGISTER_OP("TensorArrayScatterV2")
    .Input("handle: string")
    .Input("indices: int32")
    .Input("value: T")
    .Input("flow_in: float")
    .Output("flow_out: float")
    .Attr("T: type")
    .SetIsStateful()
    .SetShapeFn(shape_fns::Scalar);

REGISTER_OP("TensorArraySplitV2")
    .Input("handle: string")
    .Input("value: T")
    .Input("lengths: int64")
    .Input("flow_in: float")
    .Output("flow_out: float")
    .Attr("T: type")
    .SetIsStateful()
    .SetShapeFn(shape_fns::Scalar);

REGISTER_OP("TensorArraySizeV2")
    .Input("handle: string")
    .Input("flow_in: float")
    .Output("size: int32")
    .SetIsStateful()
    .SetShapeFn(shape_fns::Scalar);

REGISTER_OP("TensorArrayCloseV2")
    .Input("handle: string")
    .SetIsStateful()
    .SetShapeFn(shape_fns::NoOutputs);

// The V1 names of TensorFlow 0.x graphs (GraphDef versions below 16; TensorArrayScatter and
// TensorArrayUnpack below 19 and 20): the V2 ops with the handle a ref to the string vector
// [container, name] (so Enter / Switch / Identity nodes carrying it are their Ref forms), and
// TensorArrayPack / TensorArrayUnpack for Gather / Scatter over every index. They run on the V3
// kernels (kernels/lists/tensor_array_ops.cc). Stateful here (TensorFlow marks only the two
// creation ops), as the V2 names are: the graph optimizer must not merge two reads of one array,
// which TensorFlow's leaves alone for their ref input.
REGISTER_OP("TensorArray")
    .Input("size: int32")
    .Output("handle: Ref(string)")
    .Attr("dtype: type")
    .Attr("dynamic_size: bool = false")
    .Attr("clear_after_read: bool = true")
    .Attr("tensor_array_name: string = \"\"")
    .Attr("element_shape: shape = { unknown_rank: true }")
    .SetIsStateful()
    .SetShapeFn(StringHandle);

REGISTER_OP("TensorArrayGrad")
    .Input("handle: string")
    .Input("flow_in: float")
    .Output("grad_handle: Ref(string)")
    .Attr("source: string")
    .SetIsStateful()
    .SetShapeFn(StringHandle);

REGISTER_OP("TensorArrayWrite")
    .Input("handle: Ref(string)")
    .Input("index: int32")
    .Input("value: T")
    .Input("flow_in: float")
    .Output("flow_out: float")
    .Attr("T: type")
    .SetIsStateful()
    .SetShapeFn(shape_fns::Scalar);

REGISTER_OP("TensorArrayRead")
    .Input("handle: Ref(string)")
    .Input("index: int32")
    .Input("flow_in: float")
    .Output("value: dtype")
    .Attr("dtype: type")
    .SetIsStateful()
    .SetShapeFn(shape_fns::Unknown);

REGISTER_OP("TensorArrayPack")
    .Input("handle: Ref(string)")
    .Input("flow_in: float")
    .Output("value: dtype")
    .Attr("dtype: type")
    .Attr("element_shape: shape = { unknown_rank: true }")
    .SetIsStateful()
    .SetShapeFn(shape_fns::Unknown);

REGISTER_OP("TensorArrayUnpack")
    .Input("handle: Ref(string)")
    .Input("value: T")
    .Input("flow_in: float")
    .Output("flow_out: float")
    .Attr("T: type")
    .SetIsStateful()
    .SetShapeFn(shape_fns::Scalar);

REGISTER_OP("TensorArrayGather")
    .Input("handle: Ref(string)")
    .Input("indices: int32")
    .Input("flow_in: float")
    .Output("value: dtype")
    .Attr("dtype: type")
    .Attr("element_shape: shape = { unknown_rank: true }")
    .SetIsStateful()
    .SetShapeFn(shape_fns::Unknown);

REGISTER_OP("TensorArrayScatter")
    .Input("handle: Ref(string)")
    .Input("indices: int32")
    .Input("value: T")
    .Input("flow_in: float")
    .Output("flow_out: float")
    .Attr("T: type")
    .SetIsStateful()
    .SetShapeFn(shape_fns::Scalar);

REGISTER_OP("TensorArrayConcat")
    .Input("handle: Ref(string)")
    .Input("flow_in: float")
    .Output("value: dtype")
    .Output("lengths: int64")
    .Attr("dtype: type")
    .Attr("element_shape_except0: shape = { unknown_rank: true }")
    .SetIsStateful()
    .SetShapeFn(TensorArrayConcatShape);

REGISTER_OP("TensorArraySplit")
    .Input("handle: Ref(string)")
    .Input("value: T")
    .Input("lengths: int64")
    .Input("flow_in: float")
    .Output("flow_out: float")
    .Attr("T: type")
    .SetIsStateful()
    .SetShapeFn(shape_fns::Scalar);

REGISTER_OP("TensorArraySize")
    .Input("handle: Ref(string)")
    .Input("flow_in: float")
    .Output("size: int32")
    .SetIsStateful()
    .SetShapeFn(shape_fns::Scalar);

REGISTER_OP("TensorArrayClose")
    .Input("handle: Ref(string)")
    .SetIsStateful()
    .SetShapeFn(shape_fns::NoOutputs);

}  // namespace
}  // namespace rill
