// Checks every field of Rill's wire formats against TensorFlow's (name, number, type, label, and
// the message or enum it holds), from the table tests/tfgen/dump_proto_fields.py wrote from
// tensorflow-cpu's descriptors. One wrong, missing or extra field fails the test.
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "gmock/gmock.h"
#include "google/protobuf/descriptor.h"
#include "gtest/gtest.h"
#include "proto/config.pb.h"
#include "proto/cost_graph.pb.h"
#include "proto/device_attributes.pb.h"
#include "proto/example.pb.h"
#include "proto/graph.pb.h"
#include "proto/meta_graph.pb.h"
#include "proto/saved_model.pb.h"
#include "proto/step_stats.pb.h"

namespace rill {
namespace {

using google::protobuf::Descriptor;
using google::protobuf::DescriptorPool;
using google::protobuf::FieldDescriptor;

constexpr char kTablePath[] = "proto/testdata/tf_proto_fields.txt";

std::string ShortName(const std::string& full) {
  return absl::StartsWith(full, "rill.") ? full.substr(5) : full;
}

// The same words the table uses, computed from one of Rill's field descriptors.
std::string DescribeField(const FieldDescriptor& f) {
  static const char* kTypes[] = {"",         "double",   "float",   "int64",  "uint64",
                                 "int32",    "fixed64",  "fixed32", "bool",   "string",
                                 "group",    "message",  "bytes",   "uint32", "enum",
                                 "sfixed32", "sfixed64", "sint32",  "sint64"};
  std::string label = f.is_repeated() ? "repeated" : f.is_required() ? "required" : "optional";
  std::string out = absl::StrCat(ShortName(f.containing_type()->full_name()), " ", f.name(), " ",
                                 f.number(), " ", kTypes[f.type()], " ", label);
  if (f.is_map()) {
    const FieldDescriptor* key = f.message_type()->FindFieldByName("key");
    const FieldDescriptor* value = f.message_type()->FindFieldByName("value");
    std::string value_name = value->message_type() ? ShortName(value->message_type()->full_name())
                                                   : kTypes[value->type()];
    absl::StrAppend(&out, " map<", kTypes[key->type()], ",", value_name, ">");
  } else if (f.message_type() != nullptr) {
    absl::StrAppend(&out, " ", ShortName(f.message_type()->full_name()));
  } else if (f.enum_type() != nullptr) {
    absl::StrAppend(&out, " ", ShortName(f.enum_type()->full_name()));
  }
  return out;
}

std::vector<std::string> ReadTable() {
  std::ifstream in(kTablePath);
  std::vector<std::string> lines;
  for (std::string line; std::getline(in, line);) {
    if (!line.empty()) lines.push_back(line);
  }
  return lines;
}

// Forces every generated file into the pool before lookups by name.
void TouchGeneratedFiles() {
  GraphDef g;
  ConfigProto c;
  SavedModel s;
  StepStats st;
  DeviceAttributes d;
  CostGraphDef cg;
  SequenceExample e;
  (void)g, (void)c, (void)s, (void)st, (void)d, (void)cg, (void)e;
}

TEST(ProtoFieldsTest, EveryTensorFlowFieldMatchesRills) {
  TouchGeneratedFiles();
  const std::vector<std::string> table = ReadTable();
  ASSERT_GT(table.size(), 400u) << "missing or short table at " << kTablePath;
  const DescriptorPool* pool = DescriptorPool::generated_pool();
  std::set<std::string> messages;
  int checked = 0;
  for (const std::string& line : table) {
    std::vector<std::string> parts = absl::StrSplit(line, ' ');
    if (parts[0] == "enum") {
      ASSERT_EQ(parts.size(), 4u) << line;
      const auto* e = pool->FindEnumTypeByName("rill." + parts[1]);
      ASSERT_NE(e, nullptr) << "Rill lacks enum " << parts[1];
      const auto* v = e->FindValueByName(parts[2]);
      ASSERT_NE(v, nullptr) << "Rill's " << parts[1] << " lacks " << parts[2];
      EXPECT_EQ(absl::StrCat(v->number()), parts[3]) << line;
      ++checked;
      continue;
    }
    const Descriptor* m = pool->FindMessageTypeByName("rill." + parts[0]);
    ASSERT_NE(m, nullptr) << "Rill lacks message " << parts[0];
    messages.insert(parts[0]);
    const FieldDescriptor* f = m->FindFieldByName(parts[1]);
    ASSERT_NE(f, nullptr) << "Rill's " << parts[0] << " lacks field " << parts[1];
    EXPECT_EQ(DescribeField(*f), line);
    ++checked;
  }
  EXPECT_EQ(checked, static_cast<int>(table.size()));
  // No extra fields: every field Rill declares on these messages is in TensorFlow's table.
  std::set<std::string> rows(table.begin(), table.end());
  for (const std::string& name : messages) {
    const Descriptor* m = pool->FindMessageTypeByName("rill." + name);
    for (int i = 0; i < m->field_count(); ++i) {
      EXPECT_TRUE(rows.count(DescribeField(*m->field(i))))
          << "field not in TensorFlow's table: " << DescribeField(*m->field(i));
    }
  }
}

TEST(ProtoFieldsTest, ChangedNumberWouldBeCaught) {
  // The comparison is by full row, so a row with one number changed must not be present.
  const std::vector<std::string> table = ReadTable();
  std::set<std::string> rows(table.begin(), table.end());
  EXPECT_TRUE(rows.count("NodeDef device 4 string optional"));
  EXPECT_FALSE(rows.count("NodeDef device 5 string optional"));
  EXPECT_TRUE(rows.count("TensorProto half_val 13 int32 repeated"));
  EXPECT_TRUE(rows.count("ConfigProto log_device_placement 8 bool optional"));
}

}  // namespace
}  // namespace rill
