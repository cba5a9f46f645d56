// Fuzz target: device-name parsing (core/device_name.h). Any string either fails with
// InvalidArgument and a message, or parses to a name whose canonical string parses back to the
// same name; merging two parsed names never crashes.
#include <cstddef>
#include <cstdint>
#include <string>

#include "absl/strings/string_view.h"
#include "core/device_name.h"
#include "tests/fuzz/fuzz_check.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string input(reinterpret_cast<const char*>(data), size);
  // The input is two names separated by the first '\n' (the second may be empty).
  const size_t nl = input.find('\n');
  const std::string first = input.substr(0, nl);
  const std::string second = nl == std::string::npos ? "" : input.substr(nl + 1);

  absl::StatusOr<rill::DeviceName> a = rill::ParseDeviceName(first);
  if (!a.ok()) {
    FUZZ_CHECK(a.status().code() == absl::StatusCode::kInvalidArgument);
    FUZZ_CHECK(!a.status().message().empty());
  } else {
    const std::string canonical = rill::DeviceNameToString(*a);
    absl::StatusOr<rill::DeviceName> again = rill::ParseDeviceName(canonical);
    FUZZ_CHECK(again.ok());
    if (a->has_type || !a->has_id) FUZZ_CHECK(*again == *a);
    FUZZ_CHECK(rill::DeviceNameToString(*again) == canonical);
    FUZZ_CHECK(rill::IsSpecification(*a, *a));
  }
  absl::StatusOr<rill::DeviceName> local = rill::ParseFullOrLocalDeviceName(first);
  absl::StatusOr<rill::DeviceName> b = rill::ParseFullOrLocalDeviceName(second);
  if (local.ok() && b.ok()) {
    (void)rill::AreCompatible(*local, *b);
    (void)rill::Matches(*local, *b);
    (void)rill::IsSameAddressSpace(*local, *b);
    for (bool soft : {false, true}) {
      rill::DeviceName m = *local;
      absl::Status s = rill::MergeDeviceNames(&m, *b, soft);
      if (!s.ok()) FUZZ_CHECK(s.code() == absl::StatusCode::kInvalidArgument);
    }
  }
  return 0;
}
