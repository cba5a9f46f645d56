// Placement conformance with real TensorFlow: every case recorded by
// tests/tfgen/make_placement_conformance.py (tf.compat.v1.Session, device_count {"CPU": 3}) is
// placed by a Rill Session with the same config, and Rill's placement lines are compared with
// TensorFlow's node by node (device and log order), or Rill's error with TensorFlow's text.
#include <cstdio>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "absl/strings/strip.h"
#include "google/protobuf/text_format.h"
#include "gtest/gtest.h"
#include "session/session.h"

namespace rill {
namespace {

// Tests run in the workspace's runfiles directory.
constexpr char kDataDir[] = "tests/placement_conformance/data";

std::string ReadFile(const std::string& path) {
  std::ifstream in(path);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

struct RecordedCase {
  std::string name;
  GraphDef graph;
  bool allow_soft_placement = false;
  std::vector<std::string> run;
  std::string status;              // "OK" or TensorFlow's code name
  std::vector<std::string> lines;  // TensorFlow's placement lines, in order
  std::string error;               // TensorFlow's message when status != OK
};

RecordedCase Load(const std::string& name) {
  RecordedCase c;
  c.name = name;
  const std::string base = absl::StrCat(kDataDir, "/", name);
  EXPECT_TRUE(
      google::protobuf::TextFormat::ParseFromString(ReadFile(base + ".graph.pbtxt"), &c.graph))
      << name;
  for (absl::string_view line : absl::StrSplit(ReadFile(base + ".case.txt"), '\n')) {
    std::pair<std::string, std::string> kv = absl::StrSplit(line, absl::MaxSplits(": ", 1));
    if (kv.first == "allow_soft_placement") c.allow_soft_placement = kv.second == "true";
    if (kv.first == "run") c.run = absl::StrSplit(kv.second, ',', absl::SkipEmpty());
    if (kv.first == "status") c.status = kv.second;
  }
  c.lines = absl::StrSplit(ReadFile(base + ".placement.txt"), '\n', absl::SkipEmpty());
  if (c.status != "OK") c.error = ReadFile(base + ".error.txt");
  return c;
}

// The part of TensorFlow's message Rill must reproduce: its first line, cut before the parts
// that print TensorFlow-internal state (node ids, colocation debug dumps).
std::string KeyText(const std::string& tf_message) {
  std::string first(tf_message.substr(0, tf_message.find('\n')));
  for (const char* cut : {" in node: {", " All available devices ["}) {
    const size_t at = first.find(cut);
    if (at != std::string::npos) first = first.substr(0, at);
  }
  return first;
}

class PlacementConformanceTest : public ::testing::TestWithParam<std::string> {};

TEST_P(PlacementConformanceTest, MatchesTensorFlow) {
  const RecordedCase c = Load(GetParam());
  SessionOptions options;
  options.config.mutable_device_count()->insert({"CPU", 3});
  options.config.set_allow_soft_placement(c.allow_soft_placement);
  absl::StatusOr<std::unique_ptr<Session>> session = Session::New(options);
  ASSERT_TRUE(session.ok()) << session.status();
  absl::Status status = (*session)->Create(c.graph);
  if (c.status == "OK") {
    ASSERT_TRUE(status.ok()) << "TensorFlow placed " << c.name << "; Rill: " << status;
    std::vector<std::string> rill_lines =
        absl::StrSplit((*session)->PlacementLog(), '\n', absl::SkipEmpty());
    // Node by node: same device for each node TensorFlow placed...
    std::map<std::string, std::string> rill_device;
    for (const std::string& line : rill_lines) {
      rill_device[line.substr(0, line.find(": ("))] = line;
    }
    for (const std::string& tf_line : c.lines) {
      const std::string node = tf_line.substr(0, tf_line.find(": ("));
      EXPECT_EQ(rill_device[node], tf_line) << "node " << node;
    }
    // ... and the same lines in TensorFlow's order.
    EXPECT_EQ(rill_lines, c.lines);
    return;
  }
  ASSERT_FALSE(status.ok()) << "TensorFlow failed with " << c.status << ": " << c.error
                            << "\nRill placed:\n"
                            << (*session)->PlacementLog();
  EXPECT_EQ(absl::StatusCodeToString(status.code()), c.status) << status;
  EXPECT_TRUE(absl::StrContains(status.message(), KeyText(c.error)))
      << "TensorFlow: " << c.error << "\nRill:       " << status.message();
}

std::vector<std::string> CaseNames() {
  std::vector<std::string> names;
  for (absl::string_view line :
       absl::StrSplit(ReadFile(absl::StrCat(kDataDir, "/MANIFEST.txt")), '\n', absl::SkipEmpty())) {
    names.emplace_back(absl::StripAsciiWhitespace(line));
  }
  return names;
}

INSTANTIATE_TEST_SUITE_P(TensorFlowRecorded, PlacementConformanceTest,
                         ::testing::ValuesIn(CaseNames()),
                         [](const ::testing::TestParamInfo<std::string>& info) {
                           return info.param;
                         });

TEST(PlacementConformanceDataTest, AtLeastThirtyCases) { EXPECT_GE(CaseNames().size(), 30u); }

}  // namespace
}  // namespace rill
