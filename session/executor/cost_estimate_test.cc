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

TEST(CostEstimateTest, TheSecondMeasurementReplacesTheFirst) {
  // A kernel's first run pays its one-time costs (JIT, page faults): its second run's time is
  // the estimate, so a cheap node stops being handed off after two runs.
  CostEstimate cost;
  cost.Record(500000);
  EXPECT_TRUE(cost.WorthHandingOff());
  cost.Record(13000);
  EXPECT_EQ(cost.nanos(), 13000);
  EXPECT_FALSE(cost.WorthHandingOff());
}

TEST(CostEstimateTest, LaterMeasurementsMoveItHalfWayDownAndAnEighthUp) {
  CostEstimate cost;
  cost.Record(8000);
  cost.Record(8000);
  cost.Record(16000);
  EXPECT_EQ(cost.nanos(), 9000);  // an eighth of the way up
  cost.Record(5000);
  EXPECT_EQ(cost.nanos(), 7000);  // half of the way down
  // A kernel that became slow (a bigger batch) crosses the threshold after a few runs.
  int runs = 0;
  while (!cost.WorthHandingOff() && runs < 100) {
    cost.Record(100000);
    ++runs;
  }
  EXPECT_EQ(runs, 2);  // 7000 -> 18625 -> 28796
  // A second run that was slow (a preemption) falls below the threshold again within a few.
  CostEstimate warm;
  warm.Record(900000);
  warm.Record(700000);
  runs = 0;
  while (warm.WorthHandingOff() && runs < 100) {
    warm.Record(10000);
    ++runs;
  }
  EXPECT_EQ(runs, 7);  // 10000 + 690000 / 2^7 = 15390
  warm.Record(-5);     // a clock step backwards counts as zero
  EXPECT_GE(warm.nanos(), 0);
}

TEST(CostEstimateTest, OnlyOneRunInSixteenIsTimedOnceWellBelowTheThreshold) {
  CostEstimate cost;
  // Learning: the first two runs are timed, whatever they take.
  EXPECT_TRUE(cost.ShouldMeasure());
  cost.Record(2000);
  EXPECT_TRUE(cost.ShouldMeasure());
  cost.Record(2000);
  // Learned, under a quarter of the threshold: one run in kSampleEvery.
  int timed = 0;
  for (int run = 0; run < 4 * CostEstimate::kSampleEvery; ++run) timed += cost.ShouldMeasure();
  EXPECT_EQ(timed, 4);
  // A kernel that became slow: seen at the next timed run, then timed on every run until the
  // estimate crosses the threshold.
  int runs = 0;
  while (!cost.WorthHandingOff() && runs < 1000) {
    ++runs;
    if (cost.ShouldMeasure()) cost.Record(100000);
  }
  EXPECT_EQ(runs, CostEstimate::kSampleEvery + 1);  // 2000 -> 14250 -> 24968
  // Near or above the threshold every run is timed.
  EXPECT_TRUE(cost.ShouldMeasure());
  EXPECT_TRUE(cost.ShouldMeasure());
  CostEstimate near;
  near.Record(CostEstimate::kSampleBelowNs);
  near.Record(CostEstimate::kSampleBelowNs);
  for (int run = 0; run < CostEstimate::kSampleEvery; ++run) EXPECT_TRUE(near.ShouldMeasure());
}

TEST(CostEstimateTest, CopiesCarryTheValue) {
  CostEstimate a;
  a.Record(1234);
  CostEstimate b(a);
  CostEstimate c;
  c = a;
  EXPECT_EQ(b.nanos(), 1234);
  EXPECT_EQ(c.nanos(), 1234);
  // They carry the count too: their next measurement replaces the first.
  b.Record(100);
  c.Record(100);
  EXPECT_EQ(b.nanos(), 100);
  EXPECT_EQ(c.nanos(), 100);
  a.Record(100);
  a.Record(900);      // 100 + 800 / 8
  CostEstimate d(a);  // past two measurements: the next one moves it an eighth of the way up
  d.Record(1800);
  EXPECT_EQ(d.nanos(), 400);
}

}  // namespace
}  // namespace executor_internal
}  // namespace rill
