#include "core/device.h"

#include <atomic>
#include <random>

namespace rill {

uint64_t NewDeviceIncarnation() {
  static std::atomic<uint64_t> counter{0};
  std::random_device rd;
  return (static_cast<uint64_t>(rd()) << 32 ^ rd()) + (++counter) * 2654435761u | 1u;
}

std::unique_ptr<Device> NewCpuDevice(const std::string& full_name) {
  DeviceAttributes attrs;
  attrs.set_name(full_name);
  attrs.set_device_type(kDeviceCpu);
  attrs.set_memory_limit(int64_t{256} << 20);
  attrs.set_incarnation(NewDeviceIncarnation());
  return std::make_unique<Device>(std::move(attrs), CpuAllocator::Default());
}

}  // namespace rill
