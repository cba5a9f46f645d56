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
#include <utility>
#include <vector>

#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "gtest/gtest.h"
#include "kernels/framework/kernel_registry.h"
#include "session/session.h"
#include "tests/conformance/conformance_case.h"

namespace rill {
namespace {

std::vector<ConformanceSuite>* g_suites = nullptr;

struct Kept {
  const char* reason;    // why Rill's outcome is kept where it differs from TensorFlow's
  const char* mismatch;  // part of RunConformanceCase's description of the difference
};

// Cases where Rill deliberately differs from TensorFlow 2.21, by case name (with "@L0" appended
// for the run without the graph optimizer).
const std::map<std::string, Kept>& KeptDifferences() {
  static const auto* m = [] {
    auto* m = new std::map<std::string, Kept>;
    const Kept dilated_depthwise = {
        "TensorFlow's CPU DepthwiseConv2dNative refuses dilations (Unimplemented \"Current kernel "
        "implementation does not support dilations\"); Rill computes the dilated convolution, "
        "as tf.nn.depthwise_conv2d computes it through SpaceToBatchND",
        "Rill succeeded; TensorFlow failed with UNIMPLEMENTED"};
    const Kept nan_filter_on_padding = {
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

// "Op DT_X" when `mismatch` is Rill's refusal for want of a kernel, from its text "No OpKernel
// was registered to support Op 'Sub' used by {{node out}} with these attrs: [T=DT_BFLOAT16]".
std::string MissingKernel(const std::string& mismatch) {
  const std::string op_mark = "No OpKernel was registered to support Op '";
  const size_t op = mismatch.find(op_mark);
  if (op == std::string::npos) return "";
  const size_t op_end = mismatch.find('\'', op + op_mark.size());
  const size_t attrs = mismatch.find("with these attrs: [", op);
  if (op_end == std::string::npos || attrs == std::string::npos) return "";
  const size_t type = mismatch.find("=DT_", attrs);
  if (type == std::string::npos) return "";
  const size_t type_end = mismatch.find_first_of(",]", type);
  return absl::StrCat(mismatch.substr(op + op_mark.size(), op_end - op - op_mark.size()), " ",
                      mismatch.substr(type + 1, type_end - type - 1));
}

// RunConformanceCase's replay, with the graph optimizer on or off: "" when Rill agrees with
// TensorFlow's recorded outcome, else what differs.
std::string RunCase(const ConformanceCase& c, bool optimize) {
  SessionOptions options;
  if (!optimize) {
    options.config.mutable_graph_options()->mutable_optimizer_options()->set_opt_level(
        OptimizerOptions::L0);
  }
  // Round 9 compares an error's code only.
  ConformanceCase code_only = c;
  code_only.clear_error_key_phrase();
  return RunConformanceCase(code_only, options);
}

class Round9CaseTest : public ::testing::Test {
 public:
  Round9CaseTest(const ConformanceCase* c, bool optimize) : case_(c), optimize_(optimize) {}
  void TestBody() override {
    const std::string mismatch = RunCase(*case_, optimize_);
    auto kept = KeptDifferences().find(optimize_ ? case_->name() : case_->name() + "@L0");
    if (kept != KeptDifferences().end()) {
      EXPECT_TRUE(absl::StrContains(mismatch, kept->second.mismatch))
          << "kept difference (" << kept->second.reason << ") changed: got \"" << mismatch << "\"";
      return;
    }
    const std::string missing = MissingKernel(mismatch);
    if (!missing.empty() && UnregisteredKernels().count(missing) > 0) {
      // Rill's refusal, whole: the code and the text naming the op and the dtype. A case
      // TensorFlow recorded as an error shows Rill's status as `got CODE "message"`.
      const std::string op = missing.substr(0, missing.find(' '));
      const std::string dtype = missing.substr(missing.find(' ') + 1);
      const std::string text =
          absl::StrCat("No OpKernel was registered to support Op '", op, "' used by {{node ");
      EXPECT_TRUE(
          absl::StartsWith(mismatch, absl::StrCat("Rill failed: INVALID_ARGUMENT: ", text)) ||
          absl::StartsWith(mismatch, absl::StrCat("got INVALID_ARGUMENT \"", text)))
          << mismatch;
      EXPECT_TRUE(absl::StrContains(mismatch, absl::StrCat("=", dtype, "]")) ||
                  absl::StrContains(mismatch, absl::StrCat("=", dtype, ",")))
          << mismatch;
      return;
    }
    EXPECT_EQ(mismatch, "") << "case " << case_->name() << " (TensorFlow graph:\n"
                            << case_->graph().DebugString() << ")";
  }

 private:
  const ConformanceCase* case_;
  const bool optimize_;
};

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
  for (const ConformanceSuite& suite : *g_suites) n += suite.case__size();
  EXPECT_GE(n, 500);
  std::printf("%d TensorFlow-recorded round 9 cases\n", n);
}

}  // namespace
}  // namespace rill

int main(int argc, char** argv) {
  ::testing::InitGoogleTest(&argc, argv);
  std::vector<std::string> paths(argv + 1, argv + argc);
  absl::StatusOr<std::vector<rill::ConformanceSuite>> suites = rill::LoadSuites(paths);
  if (!suites.ok()) {
    std::fprintf(stderr, "%s\n", suites.status().ToString().c_str());
    return 1;
  }
  rill::g_suites = new std::vector<rill::ConformanceSuite>(*std::move(suites));
  for (const rill::ConformanceSuite& suite : *rill::g_suites) {
    for (const rill::ConformanceCase& c : suite.case_()) {
      for (bool optimize : {true, false}) {
        ::testing::RegisterTest(optimize ? "Round9" : "Round9Unoptimized", c.name().c_str(),
                                nullptr, nullptr, __FILE__, __LINE__,
                                [&c, optimize]() -> ::testing::Test* {
                                  return new rill::Round9CaseTest(&c, optimize);
                                });
      }
    }
  }
  return RUN_ALL_TESTS();
}
