// The rendezvous key of a _Send/_Recv (or _HostSend/_HostRecv) node, from its attrs
// send_device, send_device_incarnation, recv_device and tensor_name (TensorFlow's key format,
// core/rendezvous.h). The attrs' errors name the missing attr. Shared by the CPU and GPU kernels.
#ifndef RILL_KERNELS_RUNTIME_SENDRECV_KEY_H_
#define RILL_KERNELS_RUNTIME_SENDRECV_KEY_H_

#include <cstdint>
#include <string>

#include "absl/status/statusor.h"
#include "core/rendezvous.h"
#include "kernels/framework/op_kernel.h"

namespace rill {

inline absl::StatusOr<std::string> RendezvousKeyFromAttrs(OpKernelConstruction& ctx) {
  std::string send_device, recv_device, tensor_name;
  int64_t incarnation = 0;
  absl::Status s = ctx.GetAttr("send_device", &send_device);
  if (s.ok()) s = ctx.GetAttr("recv_device", &recv_device);
  if (s.ok()) s = ctx.GetAttr("tensor_name", &tensor_name);
  if (s.ok()) s = ctx.GetAttr("send_device_incarnation", &incarnation);
  if (!s.ok()) return s;
  return CreateRendezvousKey(send_device, static_cast<uint64_t>(incarnation), recv_device,
                             tensor_name);
}

}  // namespace rill

#endif  // RILL_KERNELS_RUNTIME_SENDRECV_KEY_H_
