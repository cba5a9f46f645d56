#include "kernels/framework/error_nodes.h"

#include "core/status_matchers.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace rill {
namespace {

TEST(ErrorNodesTest, NamesTheListedNodeAsTheExecutorDoes) {
  const ErrorNodes nodes({"s2b", "", "b2s"});
  EXPECT_THAT(nodes.At(0, absl::InvalidArgumentError("bad")),
              StatusIs(absl::StatusCode::kInvalidArgument, "bad\n\t [[{{node s2b}}]]"));
  EXPECT_THAT(nodes.At(2, absl::OutOfRangeError("far")),
              StatusIs(absl::StatusCode::kOutOfRange, "far\n\t [[{{node b2s}}]]"));
  // An empty name or an index past the list leaves the error to the executor.
  EXPECT_THAT(nodes.At(1, absl::InvalidArgumentError("bad")),
              StatusIs(absl::StatusCode::kInvalidArgument, "bad"));
  EXPECT_THAT(nodes.At(3, absl::InvalidArgumentError("bad")),
              StatusIs(absl::StatusCode::kInvalidArgument, "bad"));
  EXPECT_TRUE(nodes.At(0, absl::OkStatus()).ok());
  // An error that names a node (a nested fused kernel's) keeps it.
  EXPECT_THAT(nodes.At(0, AtNode(absl::InvalidArgumentError("bad"), "inner")),
              StatusIs(absl::StatusCode::kInvalidArgument, "bad\n\t [[{{node inner}}]]"));
  EXPECT_THAT(nodes.At(2, absl::StatusOr<int>(absl::InvalidArgumentError("bad"))).status(),
              StatusIs(absl::StatusCode::kInvalidArgument, "bad\n\t [[{{node b2s}}]]"));
  EXPECT_THAT(nodes.At(2, absl::StatusOr<int>(3)), IsOkAndHolds(3));
  EXPECT_THAT(ErrorNodes().At(0, absl::InternalError("x")),
              StatusIs(absl::StatusCode::kInternal, "x"));
}

}  // namespace
}  // namespace rill
