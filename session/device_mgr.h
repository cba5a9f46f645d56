// DeviceMgr: the devices one session sees, built from its ConfigProto. `device_count {"CPU": N}`
// makes N CPU devices (default 1; 0 fails with TensorFlow's NotFound "No CPU devices are available
// in this process"). GPUs are plugged in by the GPU issues through `gpu_factory`; without one (or
// with no GPU present) the session simply has none, which is not an error.
//
//   RILL_ASSIGN_OR_RETURN(std::unique_ptr<DeviceMgr> mgr, DeviceMgr::Create(config));
//   mgr->client_device();   // CPU:0, where feeds and fetches live
//
// Owns its devices. Immutable after creation; thread-safe.
#ifndef RILL_SESSION_DEVICE_MGR_H_
#define RILL_SESSION_DEVICE_MGR_H_

#include <memory>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "core/device.h"
#include "proto/config.pb.h"

namespace rill {

class DeviceMgr {
 public:
  static absl::StatusOr<std::unique_ptr<DeviceMgr>> Create(const ConfigProto& config);

  // In TensorFlow's order: CPUs first (CPU:0 is the client device), then GPUs.
  const std::vector<std::unique_ptr<Device>>& devices() const { return devices_; }
  std::vector<std::string> DeviceNames() const;
  Device* client_device() const { return devices_.front().get(); }
  // nullptr when no device has that full name.
  Device* Find(const std::string& full_name) const;

 private:
  std::vector<std::unique_ptr<Device>> devices_;
};

}  // namespace rill

#endif  // RILL_SESSION_DEVICE_MGR_H_
