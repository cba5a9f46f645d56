// RecvTensorResponse on the wire without the copies of the generic protobuf path, for 100 MB
// tensors. The bytes are exactly protobuf's encoding of TensorFlow's RecvTensorResponse
//   { tensor(1): TensorProto { dtype(1), tensor_shape(2), tensor_content(4) }, is_dead(2),
//     send_start_micros(3) }
// so TensorFlow's receivers parse it, and the decoder reads any valid encoding (TensorFlow's
// senders', or float_val-style fields, which take the generic path).
//  - Encode: numeric tensors go out as a header slice plus one slice over the tensor's own buffer
//    (kept alive by the slice: no copy); strings and other host objects through TensorToProto.
//  - Decode: tensor_content is copied once, from gRPC's slices straight into a new tensor.
// Pure functions; thread-safe.
#ifndef RILL_DISTRIBUTED_TENSOR_CODING_H_
#define RILL_DISTRIBUTED_TENSOR_CODING_H_

#include <cstdint>

#include "absl/status/status.h"
#include "core/tensor.h"
#include "grpcpp/support/byte_buffer.h"

namespace rill {
namespace distributed {

void EncodeRecvTensorResponse(const Tensor& value, bool is_dead, int64_t send_start_micros,
                              grpc::ByteBuffer* out);

// InvalidArgument "Malformed RecvTensorResponse: ..." for bytes that are not one; the errors of
// TensorFromProto for a tensor Rill cannot hold. An absent tensor gives an uninitialized `value`.
absl::Status DecodeRecvTensorResponse(const grpc::ByteBuffer& in, Tensor* value, bool* is_dead);

}  // namespace distributed
}  // namespace rill

#endif  // RILL_DISTRIBUTED_TENSOR_CODING_H_
