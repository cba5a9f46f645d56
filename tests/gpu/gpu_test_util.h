// Helpers of the GPU kernel tests (tests/gpu/*_test.cc): each case builds a text GraphDef whose
// inputs are fed Placeholders (so nothing is constant-folded), pins the op under test to
// "DEVICE", runs it there with /device:GPU:0 and again with /device:CPU:0, and compares (float:
// 1e-5 relative, double: 1e-12). An op without a GPU kernel fails placement (no soft placement),
// so a missing registration cannot pass by running on the CPU. Every session of a test process
// asks for the same GPU options (GPU options are per process): the first physical GPU as two
// virtual devices GPU:0 and GPU:1 of 2 GiB each.
#ifndef RILL_TESTS_GPU_GPU_TEST_UTIL_H_
#define RILL_TESTS_GPU_GPU_TEST_UTIL_H_

#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/statusor.h"
#include "core/gpu/cuda_probe.h"
#include "core/tensor.h"
#include "gtest/gtest.h"
#include "session/session.h"

namespace rill {
namespace gpu_test {

// Skips the test, saying why, when no CUDA GPU is usable.
#define RILL_REQUIRE_GPU()                                                                   \
  do {                                                                                       \
    std::string why;                                                                         \
    if (CudaDeviceCount(&why) == 0) GTEST_SKIP() << "skipped: no GPU found (" << why << ")"; \
  } while (0)

// A float or double tensor of `shape` with values uniform in [lo, hi) from `seed`.
Tensor Random(DataType dtype, const TensorShape& shape, int seed, double lo = -1, double hi = 1);

// A Placeholder node `name` of `dtype`, as GraphDef text.
std::string Placeholder(const std::string& name, DataType dtype);

// A session with the test GPU options and the text GraphDef `graph` created.
absl::StatusOr<std::unique_ptr<Session>> SessionWith(const std::string& graph);

// Runs `graph` (its "DEVICE" replaced by `device`) with `feeds` and returns the fetch.
absl::StatusOr<Tensor> RunOn(const std::string& graph, const std::string& device,
                             const std::vector<std::pair<std::string, Tensor>>& feeds,
                             const std::string& fetch);

// Relative to each element (`tol`, or 1e-5 for float and 1e-12 for double when 0), with a floor
// of `floor` times the tensor's largest magnitude (sums that cancel differ by the summation
// order); NaN and inf must match exactly.
void ExpectClose(const Tensor& gpu, const Tensor& cpu, double floor = 1e-3, double tol = 0);

// The op on GPU:0 and on CPU:0 agree.
void ExpectGpuMatchesCpu(const std::string& graph,
                         const std::vector<std::pair<std::string, Tensor>>& feeds,
                         const std::string& fetch, double floor = 1e-3, double tol = 0);

}  // namespace gpu_test
}  // namespace rill

#endif  // RILL_TESTS_GPU_GPU_TEST_UTIL_H_
