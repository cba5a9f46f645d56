#include "session/device_mgr.h"

#include "absl/strings/str_cat.h"
#include "core/device_name.h"

namespace rill {

absl::StatusOr<std::unique_ptr<DeviceMgr>> DeviceMgr::Create(const ConfigProto& config) {
  int num_cpus = 1;
  auto it = config.device_count().find(kDeviceCpu);
  if (it != config.device_count().end()) num_cpus = it->second;
  if (num_cpus <= 0) {
    return absl::NotFoundError("No CPU devices are available in this process");
  }
  auto mgr = std::make_unique<DeviceMgr>();
  for (int i = 0; i < num_cpus; ++i) {
    mgr->devices_.push_back(NewCpuDevice(FullDeviceName(kDeviceCpu, i)));
  }
  return mgr;
}

std::vector<std::string> DeviceMgr::DeviceNames() const {
  std::vector<std::string> names;
  for (const auto& d : devices_) names.push_back(d->name());
  return names;
}

Device* DeviceMgr::Find(const std::string& full_name) const {
  for (const auto& d : devices_) {
    if (d->name() == full_name) return d.get();
  }
  return nullptr;
}

}  // namespace rill
