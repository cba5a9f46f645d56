// Device: one place kernels run (a CPU device, a GPU device). It has a full TensorFlow name
// (/job:localhost/replica:0/task:0/device:CPU:0), a type ("CPU", "GPU"), DeviceAttributes as
// TensorFlow reports them, an allocator for its tensors, and a ResourceMgr for state that lives
// as long as the device (variables).
//
//   std::unique_ptr<Device> cpu = NewCpuDevice("/job:localhost/replica:0/task:0/device:CPU:0");
//   cpu->allocator()->AllocateRaw(64, 128);
//
// Devices are created and owned by a session's device manager; kernels borrow them. Thread-safe:
// kernels on several threads use one device at once.
#ifndef RILL_CORE_DEVICE_H_
#define RILL_CORE_DEVICE_H_

#include <cstdint>
#include <memory>
#include <string>

#include "absl/status/status.h"
#include "core/allocator.h"
#include "core/resource_mgr.h"
#include "proto/device_attributes.pb.h"

namespace rill {

inline constexpr char kDeviceCpu[] = "CPU";
inline constexpr char kDeviceGpu[] = "GPU";

class Device {
 public:
  // `allocator` is not owned and must outlive the device.
  Device(DeviceAttributes attributes, Allocator* allocator)
      : attributes_(std::move(attributes)), allocator_(allocator) {}
  virtual ~Device() = default;
  Device(const Device&) = delete;
  Device& operator=(const Device&) = delete;

  const std::string& name() const { return attributes_.name(); }
  const std::string& device_type() const { return attributes_.device_type(); }
  const DeviceAttributes& attributes() const { return attributes_; }
  Allocator* allocator() const { return allocator_; }
  ResourceMgr* resource_manager() { return &resource_manager_; }

  // Blocks until work queued on the device is done (a no-op for CPU). Returns the first
  // asynchronous error the device saw.
  virtual absl::Status Sync() { return absl::OkStatus(); }

 private:
  const DeviceAttributes attributes_;
  Allocator* const allocator_;  // Not owned.
  ResourceMgr resource_manager_;
};

// A fresh incarnation for a device: non-zero, different for every call and every process.
// Thread-safe.
uint64_t NewDeviceIncarnation();

// A host device named `full_name` ("/job:localhost/replica:0/task:0/device:CPU:N") using the
// process CPU allocator, with TensorFlow's attributes (device_type "CPU", memory_limit 256 MiB as
// TF reports for CPUs, a non-zero incarnation, physical_device_desc "").
std::unique_ptr<Device> NewCpuDevice(const std::string& full_name);

}  // namespace rill

#endif  // RILL_CORE_DEVICE_H_
