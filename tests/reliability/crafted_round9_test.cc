// Crafted round 9 (issue 26): small graphs at the corners real graphs hit (broadcasting, dtype
// extremes and casts, axes, indices, slicing masks, padding modes, empty pieces, integer division
// and shifts, convolution and pooling windows), generated from a seed and run in TensorFlow 2.21
// by tests/reliability/crafted_round9.py, which records TensorFlow's outputs or error code in
// data/crafted_round9.pbtxt.gz. Each case becomes two tests replayed through a Rill Session, with
// the graph optimizer (constant folding, CSE, fusions) as sessions run by default
// ("Round9/<case name>") and with it off, opt_level L0 ("Round9Unoptimized/<case name>"): the same
// values as TensorFlow (exact for integers, bools and strings, 1e-5 relative for floats, NaN
// matching NaN) or the same error code.
#include <cstdio>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "gtest/gtest.h"
#include "kernels/framework/kernel_registry.h"
#include "tests/reliability/crafted_replay.h"

namespace rill {
namespace {

// Cases where Rill deliberately differs from TensorFlow 2.21, by case name (with "@L0" appended
// for the run without the graph optimizer).
const std::map<std::string, KeptDifference>& KeptDifferences() {
  static const auto* m = [] {
    auto* m = new std::map<std::string, KeptDifference>;
    const KeptDifference dilated_depthwise = {
        "TensorFlow's CPU DepthwiseConv2dNative refuses dilations (Unimplemented \"Current kernel "
        "implementation does not support dilations\"); Rill computes the dilated convolution, "
        "as tf.nn.depthwise_conv2d computes it through SpaceToBatchND",
        "Rill succeeded; TensorFlow failed with UNIMPLEMENTED"};
    const KeptDifference nan_filter_on_padding = {
        "A NaN or infinite filter tap that falls on SAME padding: TensorFlow's Eigen "
        "convolution (the recording's TF_ENABLE_ONEDNN_OPTS=0) multiplies the padded zeros by it, "
        "so every output whose window reaches the padding there is NaN; Rill's convolutions "
        "leave padding-only taps out, as oneDNN's and TensorFlow 2.21's default build do "
        "(kernels/math_lib/small_map_conv.h)",
        "got 2.00000004e+20, want nan"};
    for (const char* name :
         {"depthwise/1079_SAME_k3x2_s1_d3x2", "depthwise/1101_SAME_k2x3_s1_d3x1"}) {
      (*m)[name] = dilated_depthwise;
      (*m)[std::string(name) + "@L0"] = dilated_depthwise;
    }
    (*m)["fusion/1363_product_bias_act_Conv2D_AddV2_Relu"] = nan_filter_on_padding;
    (*m)["fusion/1363_product_bias_act_Conv2D_AddV2_Relu@L0"] = nan_filter_on_padding;
    return m;
  }();
  return *m;
}

// (op, dtype) pairs TensorFlow 2.21 has CPU kernels for and Rill does not register yet: a case
// of one must fail with exactly Rill's refusal, InvalidArgument "No OpKernel was registered to
// support Op '<op>' ... [..., T=DT_X]" (it refuses; no value is wrong), and
// UnregisteredKernelsHaveNoCpuKernel fails for a pair that has one. Remove a pair when its
// kernel is registered, and its cases then compare values.
const std::set<std::string>& UnregisteredKernels() {
  static const auto* s = new std::set<std::string>{};
  return *s;
}

// Every pair UnregisteredKernels() lists is one Rill has no CPU kernel for: a pair whose kernel
// is registered must leave the list, so that its cases compare values.
TEST(Round9Suite, UnregisteredKernelsHaveNoCpuKernel) {
  const std::vector<KernelDef> kernels = KernelRegistry::Global()->ListKernels();
  for (const std::string& pair : UnregisteredKernels()) {
    const std::string op = pair.substr(0, pair.find(' '));
    const std::string dtype = pair.substr(pair.find(' ') + 1);
    for (const KernelDef& k : kernels) {
      if (k.op != op || k.device_type != kDeviceCpu) continue;
      bool takes = k.type_constraints.empty();
      for (const auto& [attr, types] : k.type_constraints) {
        for (DataType t : types) {
          if (absl::StrCat("DT_", absl::AsciiStrToUpper(DataTypeString(t))) == dtype) takes = true;
        }
      }
      EXPECT_FALSE(takes) << pair << " has a CPU kernel (" << k.DebugString()
                          << "): remove it from UnregisteredKernels()";
    }
  }
}

TEST(Round9Suite, HasCases) {
  int n = 0;
  for (const ConformanceSuite& suite : CraftedSuites()) n += suite.case__size();
  EXPECT_GE(n, 500);
  std::printf("%d TensorFlow-recorded round 9 cases\n", n);
}

}  // namespace
}  // namespace rill

int main(int argc, char** argv) {
  ::testing::InitGoogleTest(&argc, argv);
  return rill::RunCraftedReplay(argc, argv,
                                {"Round9", &rill::KeptDifferences(), &rill::UnregisteredKernels()});
}
