#include "distributed/partial_run.h"

#include "core/status_matchers.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "ops/attr_value_util.h"

namespace rill {
namespace distributed {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;

NodeDef Node(const std::string& name, const std::string& op,
             const std::vector<std::string>& inputs) {
  NodeDef n;
  n.set_name(name);
  n.set_op(op);
  for (const std::string& i : inputs) n.add_input(i);
  SetAttr(&n, op == "Placeholder" ? "dtype" : "T", DT_FLOAT);
  return n;
}

// a, b, c fed; r1 = a + b; r2 = r1 * c; noise = RandomStandardNormal; n1 = noise + a;
// n2 = noise * b.
GraphDef TestGraph() {
  GraphDef g;
  for (const char* p : {"a", "b", "c"}) *g.add_node() = Node(p, "Placeholder", {});
  *g.add_node() = Node("r1", "AddV2", {"a", "b"});
  *g.add_node() = Node("r2", "Mul", {"r1", "c:0"});
  *g.add_node() = Node("shape", "Const", {});
  *g.add_node() = Node("noise", "RandomStandardNormal", {"shape"});
  *g.add_node() = Node("n1", "AddV2", {"noise", "a"});
  *g.add_node() = Node("n2", "Mul", {"noise", "b"});
  return g;
}

std::vector<std::string> Names(const std::vector<std::pair<std::string, Tensor>>& feeds) {
  std::vector<std::string> out;
  for (const auto& f : feeds) out.push_back(f.first);
  return out;
}

TEST(PartialRunTest, LaterStepsAreFedWithEarlierFeedsAndFetches) {
  PartialRun run(TestGraph(), {"a", "b", "c:0"}, {"r1:0", "r2"}, {});
  RILL_ASSERT_OK_AND_ASSIGN(
      PartialRun::Step first,
      run.Plan({{"a", Tensor::Scalar<float>(1)}, {"b:0", Tensor::Scalar<float>(2)}}, {"r1"}));
  EXPECT_THAT(Names(first.feeds), ElementsAre("a:0", "b:0"));
  EXPECT_THAT(first.fetches, ElementsAre("r1"));
  EXPECT_TRUE(first.targets.empty());
  run.Ran(first, {Tensor::Scalar<float>(3)});
  EXPECT_FALSE(run.complete());
  RILL_ASSERT_OK_AND_ASSIGN(PartialRun::Step second,
                            run.Plan({{"c", Tensor::Scalar<float>(10)}}, {"r2:0"}));
  // r1's value comes back as a feed: the second step runs r2 alone.
  EXPECT_THAT(Names(second.feeds), ElementsAre("a:0", "b:0", "r1:0", "c:0"));
  EXPECT_EQ(second.feeds[2].second.flat<float>()[0], 3.0f);
  run.Ran(second, {Tensor::Scalar<float>(30)});
  EXPECT_TRUE(run.complete());
}

TEST(PartialRunTest, FeedsAndFetchesOutsideTheSetupOrTwiceAreTensorFlowsErrors) {
  PartialRun run(TestGraph(), {"a", "b"}, {"r1"}, {});
  EXPECT_THAT(run.Plan({{"c", Tensor::Scalar<float>(1)}}, {}),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       "The feed c was not specified in partial_run_setup."));
  EXPECT_THAT(run.Plan({}, {"r2:0"}),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       "Fetch r2:0 was not specified in partial_run_setup."));
  EXPECT_THAT(run.Plan({}, {"r1", "r1:0"}), StatusIs(absl::StatusCode::kInvalidArgument,
                                                     "The tensor r1:0 has already been fetched."));
  RILL_ASSERT_OK_AND_ASSIGN(PartialRun::Step step, run.Plan({{"a", Tensor::Scalar<float>(1)}}, {}));
  run.Ran(step, {});
  EXPECT_THAT(run.Plan({{"a:0", Tensor::Scalar<float>(1)}}, {}),
              StatusIs(absl::StatusCode::kInvalidArgument, "The feed a:0 has already been fed."));
  RILL_ASSERT_OK_AND_ASSIGN(step, run.Plan({{"b", Tensor::Scalar<float>(2)}}, {"r1"}));
  run.Ran(step, {Tensor::Scalar<float>(3)});
  EXPECT_THAT(run.Plan({}, {"r1"}), StatusIs(absl::StatusCode::kInvalidArgument,
                                             "The tensor r1 has already been fetched."));
}

TEST(PartialRunTest, AStatefulNodeIsNeverRunTwice) {
  PartialRun run(TestGraph(), {"a", "b"}, {"n1", "n2"}, {});
  RILL_ASSERT_OK_AND_ASSIGN(PartialRun::Step step,
                            run.Plan({{"a", Tensor::Scalar<float>(1)}}, {"n1"}));
  run.Ran(step, {Tensor::Scalar<float>(0.5f)});
  EXPECT_THAT(run.Plan({{"b", Tensor::Scalar<float>(2)}}, {"n2"}),
              StatusIs(absl::StatusCode::kFailedPrecondition,
                       HasSubstr("This partial_run call needs node 'noise' "
                                 "(RandomStandardNormal), which an earlier call of the same "
                                 "partial run already ran")));
  // Fetching noise where it first runs feeds it to the later call instead.
  PartialRun fed(TestGraph(), {"a", "b"}, {"noise", "n1", "n2"}, {});
  RILL_ASSERT_OK_AND_ASSIGN(step, fed.Plan({{"a", Tensor::Scalar<float>(1)}}, {"noise", "n1"}));
  fed.Ran(step, {Tensor::Scalar<float>(-0.5f), Tensor::Scalar<float>(0.5f)});
  RILL_ASSERT_OK_AND_ASSIGN(step, fed.Plan({{"b", Tensor::Scalar<float>(2)}}, {"n2"}));
  EXPECT_THAT(Names(step.feeds), ElementsAre("a:0", "n1:0", "noise:0", "b:0"));
}

TEST(PartialRunTest, TargetsRunWithTheLastFetch) {
  PartialRun run(TestGraph(), {"a", "b", "c"}, {"r1", "r2"}, {"n1"});
  RILL_ASSERT_OK_AND_ASSIGN(
      PartialRun::Step step,
      run.Plan({{"a", Tensor::Scalar<float>(1)}, {"b", Tensor::Scalar<float>(2)}}, {"r1"}));
  EXPECT_TRUE(step.targets.empty());
  run.Ran(step, {Tensor::Scalar<float>(3)});
  RILL_ASSERT_OK_AND_ASSIGN(step, run.Plan({{"c", Tensor::Scalar<float>(4)}}, {"r2"}));
  EXPECT_THAT(step.targets, ElementsAre("n1"));
  run.Ran(step, {Tensor::Scalar<float>(12)});
  EXPECT_TRUE(run.complete());

  PartialRun targets_only(TestGraph(), {"a"}, {}, {"n1"});
  EXPECT_FALSE(targets_only.complete());
  RILL_ASSERT_OK_AND_ASSIGN(step, targets_only.Plan({{"a", Tensor::Scalar<float>(1)}}, {}));
  EXPECT_THAT(step.targets, ElementsAre("n1"));
  targets_only.Ran(step, {});
  EXPECT_TRUE(targets_only.complete());
}

}  // namespace
}  // namespace distributed
}  // namespace rill
