#include "tools/session_runner/memory_report.h"

#include <unistd.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"

namespace rill {
namespace {

std::string MiB(int64_t bytes) {
  return absl::StrFormat("%.1f MiB", static_cast<double>(bytes) / (1 << 20));
}

}  // namespace

std::string MemoryReport(const std::vector<DeviceMemoryStats>& devices) {
  size_t name_width = 6;
  size_t allocator_width = 9;
  for (const DeviceMemoryStats& d : devices) {
    name_width = std::max(name_width, d.device.size());
    allocator_width = std::max(allocator_width, d.allocator.size());
  }
  const auto line = [&](const std::string& device, const std::string& allocator,
                        const std::string& in_use, const std::string& peak,
                        const std::string& reserved, const std::string& limit,
                        const std::string& largest_free, const std::string& allocs) {
    return absl::StrFormat("%-*s  %-*s  %12s  %12s  %12s  %12s  %12s  %8s\n",
                           static_cast<int>(name_width), device, static_cast<int>(allocator_width),
                           allocator, in_use, peak, reserved, limit, largest_free, allocs);
  };
  std::string out =
      line("device", "allocator", "in use", "peak", "reserved", "limit", "largest free", "allocs");
  for (const DeviceMemoryStats& d : devices) {
    const AllocatorStats& s = d.stats;
    const bool pooled = s.bytes_reserved > 0 || s.largest_free_block > 0 || s.bytes_limit > 0;
    out += line(d.device, d.allocator, MiB(s.bytes_in_use), MiB(s.peak_bytes_in_use),
                pooled ? MiB(s.bytes_reserved) : "-", s.bytes_limit > 0 ? MiB(s.bytes_limit) : "-",
                pooled ? MiB(s.largest_free_block) : "-", absl::StrCat(s.num_allocs));
  }
  return out;
}

int64_t ProcessResidentBytes() {
  std::FILE* f = std::fopen("/proc/self/statm", "r");
  if (f == nullptr) return -1;
  long long size_pages = 0, resident_pages = 0;
  const int read = std::fscanf(f, "%lld %lld", &size_pages, &resident_pages);
  std::fclose(f);
  if (read != 2) return -1;
  return static_cast<int64_t>(resident_pages) * static_cast<int64_t>(sysconf(_SC_PAGESIZE));
}

std::string ResidentLine(int64_t bytes) {
  return absl::StrCat("process resident set: ", bytes < 0 ? "unknown" : MiB(bytes), "\n");
}

}  // namespace rill
