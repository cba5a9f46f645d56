// Fuzz target: ConfigProto handling. The input is a ConfigProto in the binary wire format or,
// failing that, the text format; the input's length modulo 3 is how many fake GPUs the process
// "sees". A config that parses goes to Session::New, which either fails with a status naming the
// option or makes a session whose devices are listed and which closes cleanly.
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "core/gpu/physical_gpu.h"
#include "google/protobuf/stubs/logging.h"
#include "google/protobuf/text_format.h"
#include "proto/config.pb.h"
#include "session/session.h"
#include "tests/fuzz/fuzz_check.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string bytes(reinterpret_cast<const char*>(data), size);
  google::protobuf::LogSilencer quiet;  // protobuf's parse-error log lines are expected here
  rill::SessionOptions options;
  if (!options.config.ParseFromString(bytes)) {
    options.config.Clear();
    if (!google::protobuf::TextFormat::ParseFromString(bytes, &options.config)) return 0;
  }
  // Thread pools of up to 1024 threads are valid but cost seconds to start under ASan; the target
  // is about config handling, so it keeps them small (the limit itself is tested in
  // tests/reliability/bad_input_test).
  for (int threads : {options.config.inter_op_parallelism_threads(),
                      options.config.intra_op_parallelism_threads()}) {
    if (threads > 8 && threads <= 1024) return 0;
  }
  const int num_gpus = static_cast<int>(size % 3);
  options.gpus.emplace();
  for (int i = 0; i < num_gpus; ++i) {
    rill::PhysicalGpu gpu;
    gpu.platform_id = i;
    gpu.name = "Fuzzed GPU";
    gpu.pci_bus_id = "0000:0" + std::to_string(i) + ":00.0";
    gpu.compute_major = 9;
    gpu.total_memory_bytes = int64_t{16} << 30;
    gpu.free_memory_bytes = int64_t{15} << 30;
    options.gpus->push_back(gpu);
  }
  absl::StatusOr<std::unique_ptr<rill::Session>> session = rill::Session::New(options);
  if (!session.ok()) {
    FUZZ_CHECK(!session.status().message().empty());
    return 0;
  }
  const std::vector<rill::DeviceAttributes> devices = (*session)->ListDevices();
  FUZZ_CHECK(!devices.empty());
  FUZZ_CHECK((*session)->Close().ok());
  return 0;
}
