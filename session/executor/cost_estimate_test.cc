#include "session/executor/cost_estimate.h"

#include "gtest/gtest.h"

namespace rill {
namespace executor_internal {
namespace {

TEST(CostEstimateTest, UnmeasuredNodesAreWorthHandingOff) {
  CostEstimate cost;
  EXPECT_EQ(cost.nanos(), -1);
  EXPECT_TRUE(cost.WorthHandingOff());
}

TEST(CostEstimateTest, TheFirstMeasurementIsTheEstimate) {
  CostEstimate cheap, dear;
  cheap.Record(3000);
  dear.Record(CostEstimate::kHandOffMinNs);
  EXPECT_EQ(cheap.nanos(), 3000);
  EXPECT_FALSE(cheap.WorthHandingOff());
  EXPECT_TRUE(dear.WorthHandingOff());
}

TEST(CostEstimateTest, LaterMeasurementsMoveItAnEighthOfTheWay) {
  CostEstimate cost;
  cost.Record(8000);
  cost.Record(16000);
  EXPECT_EQ(cost.nanos(), 9000);
  // A kernel that became slow (a bigger batch) crosses the threshold after a few runs.
  for (int i = 0; i < 20; ++i) cost.Record(100000);
  EXPECT_TRUE(cost.WorthHandingOff());
  cost.Record(-5);  // a clock step backwards counts as zero
  EXPECT_GE(cost.nanos(), 0);
}

TEST(CostEstimateTest, CopiesCarryTheValue) {
  CostEstimate a;
  a.Record(1234);
  CostEstimate b(a);
  CostEstimate c;
  c = a;
  EXPECT_EQ(b.nanos(), 1234);
  EXPECT_EQ(c.nanos(), 1234);
}

}  // namespace
}  // namespace executor_internal
}  // namespace rill
