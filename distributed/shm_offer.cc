#include "distributed/shm_offer.h"

#include <unistd.h>

#include <atomic>
#include <fstream>
#include <vector>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "absl/strings/strip.h"

namespace rill {
namespace distributed {
namespace {

std::string ReadHostId() {
  std::ifstream boot("/proc/sys/kernel/random/boot_id");
  std::string boot_id;
  if (!std::getline(boot, boot_id) || boot_id.empty()) return "";
  char ns[128];
  const ssize_t n = readlink("/proc/self/ns/pid", ns, sizeof(ns) - 1);
  if (n <= 0) return "";
  std::string id = absl::StrCat(boot_id, "/", std::string(ns, n));
  // Offers travel as one space-separated metadata value.
  for (char& c : id) {
    if (c == ' ' || c < 0x21 || c > 0x7e) c = '_';
  }
  return id;
}

std::atomic<bool> g_enabled{true};
std::atomic<int64_t> g_min_bytes{ShmSettings().min_bytes};

}  // namespace

std::string FormatShmOffer(const ShmOffer& offer) {
  return absl::StrCat("1 ", offer.host, " ", offer.pid, " ", offer.fd, " ", offer.inode, " ",
                      absl::Hex(offer.token, absl::kZeroPad16));
}

std::optional<ShmOffer> ParseShmOffer(const std::string& text) {
  std::vector<std::string> parts = absl::StrSplit(text, ' ');
  if (parts.size() != 6 || parts[0] != "1" || parts[1].empty()) return std::nullopt;
  ShmOffer offer;
  offer.host = parts[1];
  if (!absl::SimpleAtoi(parts[2], &offer.pid) || offer.pid <= 0 ||
      !absl::SimpleAtoi(parts[3], &offer.fd) || offer.fd < 0 ||
      !absl::SimpleAtoi(parts[4], &offer.inode) || parts[5].size() != 16 ||
      !absl::SimpleHexAtoi(parts[5], &offer.token)) {
    return std::nullopt;
  }
  return offer;
}

const std::string& ShmHostId() {
  static const std::string* id = new std::string(ReadHostId());
  return *id;
}

ShmSettings GetShmSettings() {
  ShmSettings s;
  s.enabled = g_enabled.load(std::memory_order_relaxed);
  s.min_bytes = g_min_bytes.load(std::memory_order_relaxed);
  return s;
}

void SetShmSettings(const ShmSettings& settings) {
  g_enabled.store(settings.enabled, std::memory_order_relaxed);
  g_min_bytes.store(settings.min_bytes, std::memory_order_relaxed);
}

bool ShmEligible(const Tensor& value) {
  if (!value.IsInitialized() || DataTypeSize(value.dtype()) <= 0 ||
      !IsSupportedDataType(value.dtype())) {
    return false;
  }
  return static_cast<int64_t>(value.TotalBytes()) >= g_min_bytes.load(std::memory_order_relaxed);
}

}  // namespace distributed
}  // namespace rill
