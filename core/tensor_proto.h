// Tensor <-> TensorProto, both ways, with TensorFlow's decoding rules:
//   - non-empty `tensor_content` holds the raw little-endian row-major bytes (non-string dtypes);
//   - otherwise the typed field (float_val, int_val, half_val, ...) holds the values; a list
//     shorter than the element count is padded with its last value (a one-value Const of shape
//     [1000] is common), and an empty list means zeros.
// Malformed protos are InvalidArgument, never a crash: unsupported dtype, unknown rank, negative
// dims, element-count overflow, tensor_content whose size does not match, more values than
// elements.
//
//   RILL_ASSIGN_OR_RETURN(Tensor t, TensorFromProto(node.attr().at("value").tensor()));
//   TensorProto p; TensorToProto(t, &p);
//
// Pure functions; thread-safe.
#ifndef RILL_CORE_TENSOR_PROTO_H_
#define RILL_CORE_TENSOR_PROTO_H_

#include "absl/status/statusor.h"
#include "core/allocator.h"
#include "core/tensor.h"
#include "proto/tensor.pb.h"

namespace rill {

// Decodes `proto` into a tensor allocated from `allocator` (not owned; default the host).
absl::StatusOr<Tensor> TensorFromProto(const TensorProto& proto,
                                       Allocator* allocator = CpuAllocator::Default());

// Whether TensorFromProto could decode `proto` as far as its values go, without allocating: a
// supported dtype, a valid shape, tensor_content of exactly the shape's bytes, and no more typed
// values than elements. Shape functions use it so that no rewrite folds the shape of a Const whose
// kernel will refuse its value.
bool TensorProtoValuesFit(const TensorProto& proto);

// Encodes `tensor` into `proto` (cleared first). Numeric tensors use tensor_content when
// `use_tensor_content` (TensorFlow's AsProtoTensorContent), else the typed field (AsProtoField);
// strings always use string_val.
void TensorToProto(const Tensor& tensor, TensorProto* proto, bool use_tensor_content = true);

}  // namespace rill

#endif  // RILL_CORE_TENSOR_PROTO_H_
