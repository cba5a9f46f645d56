#include "core/device.h"

#include <atomic>
#include <random>

namespace rill {

std::unique_ptr<Device> NewCpuDevice(const std::string& full_name) {
  static std::atomic<uint64_t> counter{0};
  DeviceAttributes attrs;
  attrs.set_name(full_name);
  attrs.set_device_type(kDeviceCpu);
  attrs.set_memory_limit(int64_t{256} << 20);
  // Incarnations must be non-zero and differ between devices and processes.
  std::random_device rd;
  attrs.set_incarnation((static_cast<uint64_t>(rd()) << 32 ^ rd()) + (++counter) * 2654435761u |
                        1u);
  return std::make_unique<Device>(std::move(attrs), CpuAllocator::Default());
}

}  // namespace rill
