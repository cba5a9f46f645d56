// Ops the runtime inserts (names start with '_', hidden from user listings): the cross-device
// _Send/_Recv pairs (with TensorFlow's attrs; the _Host* forms move host-memory tensors) and the
// _Arg/_Retval nodes feeds and fetches become.
#include "ops/op_registry.h"

namespace rill {
namespace {

// The attrs every send and receive carries (TensorFlow's names), on top of `builder`.
OpDefBuilder WithRendezvousAttrs(OpDefBuilder builder) {
  return builder.Attr("tensor_name: string")
      .Attr("send_device: string")
      .Attr("send_device_incarnation: int")
      .Attr("recv_device: string")
      .Attr("client_terminated: bool = false")
      .SetIsStateful();
}

OpDefBuilder SendOp(const char* name) {
  return WithRendezvousAttrs(OpDefBuilder(name).Input("tensor: T").Attr("T: type"))
      .SetShapeFn(shape_fns::NoOutputs);
}

OpDefBuilder RecvOp(const char* name) {
  return WithRendezvousAttrs(
             OpDefBuilder(name).Output("tensor: tensor_type").Attr("tensor_type: type"))
      .SetShapeFn(shape_fns::Unknown);
}

const op_registry_internal::OpRegistrar kSend = SendOp("_Send");
const op_registry_internal::OpRegistrar kRecv = RecvOp("_Recv");
const op_registry_internal::OpRegistrar kHostSend = SendOp("_HostSend");
const op_registry_internal::OpRegistrar kHostRecv = RecvOp("_HostRecv");

REGISTER_OP("_Arg")
    .Output("output: T")
    .Attr("T: type")
    .Attr("index: int >= 0")
    .SetIsStateful()
    .SetShapeFn(shape_fns::Unknown);  // the caller's value, known only at call time

REGISTER_OP("_Retval")
    .Input("input: T")
    .Attr("T: type")
    .Attr("index: int >= 0")
    .SetIsStateful()
    .SetShapeFn(shape_fns::NoOutputs);

}  // namespace
}  // namespace rill
