#include "core/gpu/physical_gpu.h"

#include <set>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "absl/strings/strip.h"

namespace rill {

std::string GpuShortDescription(const PhysicalGpu& gpu) {
  return absl::StrCat("device: ", gpu.platform_id, ", name: ", gpu.name,
                      ", pci bus id: ", gpu.pci_bus_id, ", compute capability: ", gpu.compute_major,
                      ".", gpu.compute_minor);
}

std::vector<PhysicalGpu> ApplyCudaVisibleDevices(const std::vector<PhysicalGpu>& all,
                                                 const char* value) {
  if (value == nullptr) return all;
  std::vector<PhysicalGpu> visible;
  std::set<int> listed;
  for (absl::string_view entry : absl::StrSplit(value, ',')) {
    int ordinal = -1;
    if (!absl::SimpleAtoi(absl::StripAsciiWhitespace(entry), &ordinal) || ordinal < 0 ||
        ordinal >= static_cast<int>(all.size()) || !listed.insert(ordinal).second) {
      break;
    }
    PhysicalGpu gpu = all[ordinal];
    gpu.platform_id = static_cast<int>(visible.size());
    visible.push_back(std::move(gpu));
  }
  return visible;
}

}  // namespace rill
