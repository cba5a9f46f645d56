#include "tests/reliability/crafted_replay.h"

#include <cstdio>
#include <utility>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "gtest/gtest.h"
#include "session/session.h"
#include "tests/conformance/conformance_case.h"

namespace rill {
namespace {

std::vector<ConformanceSuite>* g_suites = nullptr;

class CraftedCaseTest : public ::testing::Test {
 public:
  CraftedCaseTest(const ConformanceCase* c, bool optimize, const CraftedReplay& replay)
      : case_(c), optimize_(optimize), replay_(replay) {}
  void TestBody() override {
    const std::string mismatch = RunCraftedCase(*case_, optimize_);
    auto kept = replay_.kept->find(optimize_ ? case_->name() : case_->name() + "@L0");
    if (kept != replay_.kept->end()) {
      EXPECT_TRUE(absl::StrContains(mismatch, kept->second.mismatch))
          << "kept difference (" << kept->second.reason << ") changed: got \"" << mismatch << "\"";
      return;
    }
    const std::string missing = MissingKernel(mismatch);
    if (!missing.empty() && replay_.unregistered->count(missing) > 0) {
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
  const CraftedReplay replay_;
};

}  // namespace

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

std::string RunCraftedCase(const ConformanceCase& c, bool optimize) {
  SessionOptions options;
  if (!optimize) {
    options.config.mutable_graph_options()->mutable_optimizer_options()->set_opt_level(
        OptimizerOptions::L0);
  }
  ConformanceCase code_only = c;
  code_only.clear_error_key_phrase();
  return RunConformanceCase(code_only, options);
}

const std::vector<ConformanceSuite>& CraftedSuites() {
  static const std::vector<ConformanceSuite> empty;
  return g_suites != nullptr ? *g_suites : empty;
}

int RunCraftedReplay(int argc, char** argv, const CraftedReplay& replay) {
  std::vector<std::string> paths(argv + 1, argv + argc);
  absl::StatusOr<std::vector<ConformanceSuite>> suites = LoadSuites(paths);
  if (!suites.ok()) {
    std::fprintf(stderr, "%s\n", suites.status().ToString().c_str());
    return 1;
  }
  g_suites = new std::vector<ConformanceSuite>(*std::move(suites));
  const std::string unoptimized = absl::StrCat(replay.prefix, "Unoptimized");
  for (const ConformanceSuite& suite : *g_suites) {
    for (const ConformanceCase& c : suite.case_()) {
      for (bool optimize : {true, false}) {
        ::testing::RegisterTest(optimize ? replay.prefix : unoptimized.c_str(), c.name().c_str(),
                                nullptr, nullptr, __FILE__, __LINE__,
                                [&c, optimize, replay]() -> ::testing::Test* {
                                  return new CraftedCaseTest(&c, optimize, replay);
                                });
      }
    }
  }
  return RUN_ALL_TESTS();
}

}  // namespace rill
