// Crafted round 10 (issue 26): compositions of the patterns the graph optimizer rewrites
// (products with biases, scales, batch norms and activations, residual adds, pads, swish and hard
// swish, layer norms, GELUs, LSTM steps in while loops, chains inside a cond branch) and random
// near misses of each rewrite's precondition, generated from a seed and run in TensorFlow 2.21 by
// tests/reliability/crafted_round10.py, which records TensorFlow's outputs or error code in
// data/crafted_round10.pbtxt.gz. Each case is replayed through a Rill Session with the graph
// optimizer on ("Round10/<case name>") and off ("Round10Unoptimized/<case name>"): TensorFlow's
// values within the case's tolerance (1e-5 relative plus 1e-5 of the case's largest finite
// output, 2e-3 for half: the rounding a fold or a fusion's other order of operations adds; NaN
// matching NaN, an infinity the same infinity) or TensorFlow's error code.
#include <cstdio>
#include <map>
#include <set>
#include <string>

#include "gtest/gtest.h"
#include "tests/reliability/crafted_replay.h"

namespace rill {
namespace {

// Cases where Rill deliberately differs from TensorFlow 2.21, by case name (with "@L0" appended
// for the run without the graph optimizer).
const std::map<std::string, KeptDifference>& KeptDifferences() {
  static const auto* m = [] {
    auto* m = new std::map<std::string, KeptDifference>;
    const KeptDifference fma_overflow = {
        "A product that overflows float (a 3e38 bias through a swish, times 3) summed beside an "
        "infinite one: Rill's depthwise convolution contracts it into a fused multiply-add and "
        "keeps the infinity, TensorFlow's Eigen kernel rounds the product to inf first (inf - inf "
        "= NaN); a kernel's rounding, with the optimizer on and off alike (round 9's 'seen and "
        "left')",
        "got inf, want"};
    for (const char* name : {"cond_chain/536_float32_r4"}) {
      (*m)[name] = fma_overflow;
      (*m)[std::string(name) + "@L0"] = fma_overflow;
    }
    return m;
  }();
  return *m;
}

const std::set<std::string>& UnregisteredKernels() {
  static const auto* s = new std::set<std::string>{};
  return *s;
}

TEST(Round10Suite, HasCases) {
  int n = 0;
  for (const ConformanceSuite& suite : CraftedSuites()) n += suite.case__size();
  EXPECT_GE(n, 500);
  std::printf("%d TensorFlow-recorded round 10 cases\n", n);
}

}  // namespace
}  // namespace rill

int main(int argc, char** argv) {
  ::testing::InitGoogleTest(&argc, argv);
  return rill::RunCraftedReplay(
      argc, argv, {"Round10", &rill::KeptDifferences(), &rill::UnregisteredKernels()});
}
