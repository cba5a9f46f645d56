// Recurrent loops end to end through a Session with the graph optimizer on, where each whole frame
// runs as one node, and off (opt_level L0: the loop's nodes one by one): outputs bit for bit
// equal, non-finite inputs included, and a step's error the same. A Keras-style LSTM loop (a step
// counter and bound, x_t read from a TensorList, the gate products, h' written into a list) runs
// as a _RillLstmSequence (graph/lstm_sequence_fusion.h); a masked one, and TF1 dynamic_rnn's loop
// over TensorArrays, as a _RillRecurrentSequence (graph/recurrent_sequence_fusion.h).
#include <cmath>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "core/status_matchers.h"
#include "gmock/gmock.h"
#include "graph/builder/ops.h"
#include "graph/recurrent_test_graphs.h"
#include "gtest/gtest.h"
#include "session/session.h"

namespace rill {
namespace {

using recurrent_test::Ramp;

GraphDef ToGraphDef(const Scope& root) {
  GraphDef g;
  EXPECT_THAT(root.ToGraphDef(&g), IsOk());
  return g;
}

struct Result {
  absl::Status status;
  std::vector<Tensor> out;
  int lstm_sequences = 0;       // _RillLstmSequence nodes in the partitions run
  int recurrent_sequences = 0;  // _RillRecurrentSequence nodes
};

Result RunLoop(const GraphDef& g, bool optimize,
               const std::vector<std::pair<std::string, Tensor>>& feeds,
               const std::vector<std::string>& fetches) {
  SessionOptions options;
  if (!optimize) {
    options.config.mutable_graph_options()->mutable_optimizer_options()->set_opt_level(
        OptimizerOptions::L0);
  }
  Result r;
  absl::StatusOr<std::unique_ptr<Session>> s = Session::New(options);
  EXPECT_THAT(s.status(), IsOk());
  EXPECT_THAT((*s)->Create(g), IsOk());
  RunOptions run_options;
  run_options.set_output_partition_graphs(true);
  RunMetadata metadata;
  r.status = (*s)->Run(run_options, feeds, fetches, {}, &r.out, &metadata);
  for (const GraphDef& part : metadata.partition_graphs()) {
    for (const NodeDef& n : part.node()) {
      r.lstm_sequences += n.op() == "_RillLstmSequence";
      r.recurrent_sequences += n.op() == "_RillRecurrentSequence";
    }
  }
  return r;
}

// The Keras-like LSTM's feeds: x, max 100, steps, and for a masked one a mask of 6 steps (longer
// than x, so that a read past x is the only error; step 1 of batch row 0 and steps 2 and 3 of
// row 1 masked out).
std::vector<std::pair<std::string, Tensor>> LstmFeeds(const Tensor& x, int32_t steps, bool masked) {
  std::vector<std::pair<std::string, Tensor>> feeds = {{"x:0", x},
                                                       {"max:0", Tensor::Scalar<int32_t>(100)},
                                                       {"steps:0", Tensor::Scalar<int32_t>(steps)}};
  if (masked) {
    Tensor mask(DT_BOOL, TensorShape({6, 2, 1}));
    for (int64_t i = 0; i < 12; ++i) mask.flat<bool>()[i] = i != 2 && i != 5 && i != 7;
    feeds.emplace_back("mask:0", mask);
  }
  return feeds;
}

void ExpectBitEqual(const Tensor& a, const Tensor& b) {
  ASSERT_EQ(a.shape().DebugString(), b.shape().DebugString());
  for (int64_t i = 0; i < a.NumElements(); ++i) {
    const float x = a.flat<float>()[i], y = b.flat<float>()[i];
    if (std::isnan(x) || std::isnan(y)) {
      EXPECT_TRUE(std::isnan(x) && std::isnan(y)) << i << ": " << x << " vs " << y;
    } else {
      EXPECT_EQ(x, y) << i;
    }
  }
}

// A plain LSTM (one _RillLstmSequence) and a masked one (the LSTM pass leaves it: one
// _RillRecurrentSequence with the fused cell as a step node).
TEST(RecurrentLoopTest, TheFusedLoopGivesTheLoopsOutputsBitForBit) {
  std::vector<float> v = Ramp(4 * 2 * 3, -1.7f, 0.173f);
  std::vector<float> poisoned = v;
  poisoned[7] = NAN;
  poisoned[14] = INFINITY;
  poisoned[20] = -INFINITY;
  for (bool masked : {false, true}) {
    SCOPED_TRACE(masked ? "masked" : "plain");
    recurrent_test::LstmOptions o;
    o.masked = masked;
    const GraphDef g = ToGraphDef(recurrent_test::KerasLstm(o));
    for (const std::vector<float>& values : {v, poisoned}) {
      const Tensor x = Tensor::FromVector<float>(values, TensorShape({4, 2, 3}));
      for (int32_t steps : {0, 1, 4}) {
        SCOPED_TRACE(steps);
        const auto feeds = LstmFeeds(x, steps, masked);
        const Result on = RunLoop(g, true, feeds, {"hs:0", "h:0", "c:0"});
        const Result off = RunLoop(g, false, feeds, {"hs:0", "h:0", "c:0"});
        ASSERT_THAT(on.status, IsOk());
        ASSERT_THAT(off.status, IsOk());
        EXPECT_EQ(on.lstm_sequences, masked ? 0 : 1);
        EXPECT_EQ(on.recurrent_sequences, masked ? 1 : 0);
        EXPECT_EQ(off.lstm_sequences + off.recurrent_sequences, 0);
        for (size_t k = 0; k < on.out.size(); ++k) {
          ExpectBitEqual(on.out[k], off.out[k]);
        }
      }
    }
  }
}

TEST(RecurrentLoopTest, AStepsErrorIsTheLoopsError) {
  const Tensor x = Tensor::FromVector<float>(Ramp(24, 0.f, 0.1f), TensorShape({4, 2, 3}));
  for (bool masked : {false, true}) {
    SCOPED_TRACE(masked ? "masked" : "plain");
    recurrent_test::LstmOptions o;
    o.masked = masked;
    const GraphDef g = ToGraphDef(recurrent_test::KerasLstm(o));
    // Step 4 reads past the 4 elements of the list.
    const auto feeds = LstmFeeds(x, 6, masked);
    const Result on = RunLoop(g, true, feeds, {"hs:0", "h:0", "c:0"});
    const Result off = RunLoop(g, false, feeds, {"hs:0", "h:0", "c:0"});
    ASSERT_FALSE(off.status.ok());
    // The same code and message, naming the loop's own TensorListGetItem.
    EXPECT_EQ(on.status, off.status);
    EXPECT_THAT(off.status.message(), ::testing::HasSubstr("Trying to access element 4"));
    EXPECT_THAT(std::string(off.status.message()),
                ::testing::EndsWith("[[{{node while/TensorListGetItem}}]]"));
  }
}

// TF1 dynamic_rnn over TensorArrays: one _RillRecurrentSequence, outputs bit for bit the
// loop's, and a read past the input array (step 4 of 5) the loop's error naming its
// TensorArrayReadV3.
TEST(RecurrentLoopTest, ATf1TensorArrayLoopGivesTheLoopsOutputsAndErrors) {
  const GraphDef g = ToGraphDef(recurrent_test::Tf1TensorArrayRnn());
  std::vector<float> v = Ramp(4 * 2 * 3, -1.7f, 0.173f);
  v[9] = NAN;
  v[16] = -INFINITY;
  const Tensor x = Tensor::FromVector<float>(v, TensorShape({4, 2, 3}));
  for (int32_t steps : {1, 3, 4}) {
    SCOPED_TRACE(steps);
    const std::vector<std::pair<std::string, Tensor>> feeds = {
        {"x:0", x}, {"steps:0", Tensor::Scalar<int32_t>(steps)}};
    const Result on = RunLoop(g, true, feeds, {"hs:0", "h:0"});
    const Result off = RunLoop(g, false, feeds, {"hs:0", "h:0"});
    ASSERT_THAT(on.status, IsOk());
    ASSERT_THAT(off.status, IsOk());
    EXPECT_EQ(on.recurrent_sequences, 1);
    EXPECT_EQ(off.recurrent_sequences, 0);
    ASSERT_EQ(on.out.size(), 2u);
    EXPECT_EQ(on.out[0].shape().DebugString(), absl::StrCat("[", steps, ",2,5]"));
    for (size_t k = 0; k < on.out.size(); ++k) ExpectBitEqual(on.out[k], off.out[k]);
  }
  const std::vector<std::pair<std::string, Tensor>> feeds = {
      {"x:0", x}, {"steps:0", Tensor::Scalar<int32_t>(5)}};
  const Result on = RunLoop(g, true, feeds, {"hs:0", "h:0"});
  const Result off = RunLoop(g, false, feeds, {"hs:0", "h:0"});
  ASSERT_FALSE(off.status.ok());
  EXPECT_EQ(on.status, off.status);
  EXPECT_THAT(std::string(off.status.message()),
              ::testing::EndsWith("[[{{node while/TensorArrayReadV3}}]]"));
}

}  // namespace
}  // namespace rill
