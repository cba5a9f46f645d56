#include "tools/summarize_graph/list_ops.h"

#include <algorithm>
#include <string>
#include <vector>

#include "absl/strings/str_split.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "ops/op_registry.h"

namespace rill {
namespace {

using ::testing::Contains;

TEST(ListOpsTest, OneLinePerPublicOpWithItsKernelsDeviceTypes) {
  std::vector<std::string> lines = absl::StrSplit(ListRegisteredOps(), '\n', absl::SkipEmpty());
  // Registered ops plus the eight functional ops the session lowers (If, Case, While, calls).
  EXPECT_EQ(lines.size(), OpRegistry::Global()->ListOps(/*include_internal=*/false).size() + 8);
  EXPECT_THAT(lines, Contains(::testing::StartsWith("StatelessCase CPU")));
  EXPECT_THAT(lines, Contains(::testing::StartsWith("StatelessWhile CPU")));
  EXPECT_THAT(lines, Contains(::testing::StartsWith("StatefulPartitionedCall CPU")));
  // "MatMul CPU" or, when built with the CUDA toolkit, "MatMul CPU,GPU".
  EXPECT_THAT(lines, Contains(::testing::StartsWith("MatMul CPU")));
  EXPECT_THAT(lines, Contains("DecodeBase64 CPU"));
  EXPECT_TRUE(std::is_sorted(lines.begin(), lines.end()));
  for (const std::string& line : lines) {
    EXPECT_NE(line[0], '_') << line;                        // internal ops stay hidden
    EXPECT_EQ(line.find(" -"), std::string::npos) << line;  // every op has a kernel
  }
}

}  // namespace
}  // namespace rill
