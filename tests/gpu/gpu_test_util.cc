#include "tests/gpu/gpu_test_util.h"

#include <algorithm>
#include <cmath>
#include <random>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_replace.h"
#include "core/status_macros.h"
#include "core/status_matchers.h"
#include "gmock/gmock.h"
#include "google/protobuf/text_format.h"

namespace rill {
namespace gpu_test {

Tensor Random(DataType dtype, const TensorShape& shape, int seed, double lo, double hi) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> dist(lo, hi);
  Tensor t = *Tensor::Allocate(CpuAllocator::Default(), dtype, shape);
  for (int64_t i = 0; i < shape.num_elements(); ++i) {
    if (dtype == DT_DOUBLE) {
      t.flat<double>()[i] = dist(rng);
    } else {
      t.flat<float>()[i] = static_cast<float>(dist(rng));
    }
  }
  return t;
}

std::string Placeholder(const std::string& name, DataType dtype) {
  return absl::StrCat("node { name: '", name, "' op: 'Placeholder' attr { key: 'dtype' value { ",
                      "type: ", DataType_Name(dtype), " } } }\n");
}

// GPU memory options are per process, so every session here asks for the same: the first
// physical GPU as two virtual devices (GPU:0 and GPU:1, 2 GiB each), which the copy test uses.
constexpr char kConfig[] =
    "gpu_options { experimental { virtual_devices { memory_limit_mb: 2048 "
    "memory_limit_mb: 2048 } } }";

// A session (kConfig) with the text GraphDef `graph` created.
absl::StatusOr<std::unique_ptr<Session>> SessionWith(const std::string& graph) {
  SessionOptions options;
  if (!google::protobuf::TextFormat::ParseFromString(kConfig, &options.config)) {
    return absl::InternalError("bad test config");
  }
  GraphDef g;
  if (!google::protobuf::TextFormat::ParseFromString(graph, &g)) {
    return absl::InvalidArgumentError("bad test graph");
  }
  RILL_ASSIGN_OR_RETURN(std::unique_ptr<Session> session, Session::New(options));
  RILL_RETURN_IF_ERROR(session->Create(g));
  return session;
}

// Runs `graph` (its "DEVICE" replaced by `device`) with `feeds` and returns the fetch.
absl::StatusOr<Tensor> RunOn(const std::string& graph, const std::string& device,
                             const std::vector<std::pair<std::string, Tensor>>& feeds,
                             const std::string& fetch) {
  RILL_ASSIGN_OR_RETURN(std::unique_ptr<Session> session,
                        SessionWith(absl::StrReplaceAll(graph, {{"DEVICE", device}})));
  std::vector<Tensor> out;
  RILL_RETURN_IF_ERROR(session->Run(feeds, {fetch}, {}, &out));
  return out[0];
}

// Relative to each element, with a floor of `floor` times the tensor's largest magnitude (sums that
// cancel differ by the summation order); tiny results (a product of 1050 values ~1e-20) are
// compared at their own scale.
void ExpectClose(const Tensor& gpu, const Tensor& cpu, double floor, double tol) {
  ASSERT_EQ(gpu.dtype(), cpu.dtype());
  ASSERT_EQ(gpu.shape(), cpu.shape());
  if (tol == 0) tol = cpu.dtype() == DT_DOUBLE ? 1e-12 : 1e-5;
  auto at = [](const Tensor& t, int64_t i) -> double {
    return t.dtype() == DT_DOUBLE ? t.flat<double>()[i] : t.flat<float>()[i];
  };
  double scale = 0;
  for (int64_t i = 0; i < cpu.NumElements(); ++i) {
    if (std::isfinite(at(cpu, i))) scale = std::max(scale, std::fabs(at(cpu, i)));
  }
  for (int64_t i = 0; i < cpu.NumElements(); ++i) {
    const double g = at(gpu, i), c = at(cpu, i);
    if (std::isnan(c)) {
      EXPECT_TRUE(std::isnan(g)) << "element " << i;
      continue;
    }
    if (std::isinf(c)) {
      EXPECT_EQ(g, c) << "element " << i;
      continue;
    }
    ASSERT_NEAR(g, c, tol * std::max(std::fabs(c), floor * scale)) << "element " << i;
  }
}

// The op on GPU:0 and on CPU:0 agree.
void ExpectGpuMatchesCpu(const std::string& graph,
                         const std::vector<std::pair<std::string, Tensor>>& feeds,
                         const std::string& fetch, double floor, double tol) {
  absl::StatusOr<Tensor> gpu = RunOn(graph, "/device:GPU:0", feeds, fetch);
  ASSERT_THAT(gpu.status(), IsOk());
  absl::StatusOr<Tensor> cpu = RunOn(graph, "/device:CPU:0", feeds, fetch);
  ASSERT_THAT(cpu.status(), IsOk());
  ExpectClose(*gpu, *cpu, floor, tol);
}

}  // namespace gpu_test
}  // namespace rill
