// Round-trips files real TensorFlow wrote (proto/testdata/tf_written/, from
// tests/tfgen/make_wire_testdata.py) through Rill's protos. For every case NAME in MANIFEST.txt:
//   * NAME.pb (TF's SerializeToString()) parses, and Rill's deterministic serialization of it is
//     byte-identical to NAME.det.pb (TF's SerializeToString(deterministic=True)): no field lost,
//     renumbered or retyped, and the content of Rill's empty shell messages (proto/opaque.proto)
//     kept verbatim as unknown fields;
//   * unknown fields appear only inside those shells (a field TF wrote that a non-shell Rill
//   message
//     lacks would otherwise pass the byte comparison silently);
//   * non-deterministic serialize + re-parse gives an equal message;
//   * NAME.pbtxt (text_format.MessageToString) parses to the same message as the binary.
// Plus hand-made unknown-field round trips and field-by-field checks of what the files hold.
#include <cstring>
#include <fstream>
#include <functional>
#include <memory>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "gmock/gmock.h"
#include "google/protobuf/descriptor.h"
#include "google/protobuf/io/coded_stream.h"
#include "google/protobuf/io/tokenizer.h"
#include "google/protobuf/io/zero_copy_stream_impl_lite.h"
#include "google/protobuf/message.h"
#include "google/protobuf/text_format.h"
#include "google/protobuf/unknown_field_set.h"
#include "google/protobuf/util/message_differencer.h"
#include "gtest/gtest.h"
#include "proto/config.pb.h"
#include "proto/graph.pb.h"
#include "proto/meta_graph.pb.h"
#include "proto/opaque.pb.h"
#include "proto/saved_model.pb.h"

namespace rill {
namespace {

using google::protobuf::FieldDescriptor;
using google::protobuf::Message;
using google::protobuf::Reflection;
using google::protobuf::TextFormat;
using google::protobuf::UnknownField;
using google::protobuf::UnknownFieldSet;
using google::protobuf::util::MessageDifferencer;
using ::testing::ElementsAre;
using ::testing::IsEmpty;
using ::testing::IsSupersetOf;
using ::testing::Not;
using ::testing::UnorderedElementsAre;

constexpr char kDir[] = "proto/testdata/tf_written/";

// Rill's empty shells (proto/opaque.proto): the only messages allowed to hold unknown fields.
const std::set<std::string>& ShellTypes() {
  static const auto* shells =
      new std::set<std::string>{"rill.ClusterDef",     "rill.CoordinationServiceConfig",
                                "rill.DebugOptions",   "rill.RPCOptions",
                                "rill.RewriterConfig", "rill.SavedObjectGraph",
                                "rill.TypeSpecProto"};
  return *shells;
}

// The cases whose text files name fields inside a shell (Rill's text parser cannot know them).
const std::set<std::string>& CasesWithShellContent() {
  static const auto* cases =
      new std::set<std::string>{"config_full", "run_options", "saved_model_v2"};
  return *cases;
}

struct Case {
  std::string name;
  std::string type;
};

std::string ReadFileOrDie(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  EXPECT_TRUE(in.good()) << "cannot open " << path;
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

std::vector<Case> ReadManifest() {
  std::ifstream in(absl::StrCat(kDir, "MANIFEST.txt"));
  std::vector<Case> cases;
  for (std::string line; std::getline(in, line);) {
    if (line.empty()) continue;
    std::istringstream words(line);
    Case c;
    words >> c.name >> c.type;
    cases.push_back(c);
  }
  return cases;
}

std::unique_ptr<Message> NewMessage(const std::string& type) {
  if (type == "GraphDef") return std::make_unique<GraphDef>();
  if (type == "ConfigProto") return std::make_unique<ConfigProto>();
  if (type == "RunOptions") return std::make_unique<RunOptions>();
  if (type == "MetaGraphDef") return std::make_unique<MetaGraphDef>();
  if (type == "SavedModel") return std::make_unique<SavedModel>();
  return nullptr;
}

std::string SerializeDeterministic(const Message& m) {
  std::string out;
  {
    google::protobuf::io::StringOutputStream stream(&out);
    google::protobuf::io::CodedOutputStream coded(&stream);
    coded.SetSerializationDeterministic(true);
    EXPECT_TRUE(m.SerializeToCodedStream(&coded));
  }
  return out;
}

// Empty if equal, else where the two byte strings first differ.
std::string ByteMismatch(const std::string& got, const std::string& want) {
  if (got == want) return "";
  size_t i = 0;
  while (i < got.size() && i < want.size() && got[i] == want[i]) ++i;
  return absl::StrCat("got ", got.size(), " bytes, want ", want.size(),
                      "; first difference at offset ", i);
}

// Empty if equal, else MessageDifferencer's report (unknown fields are compared too).
std::string Diff(const Message& a, const Message& b) {
  std::string report;
  MessageDifferencer d;
  d.ReportDifferencesToString(&report);
  if (d.Compare(a, b)) return "";
  return report.empty() ? "differ" : report;
}

// Calls fn on m and on every message below it (map entries included).
void VisitMessages(const Message& m, const std::function<void(const Message&)>& fn) {
  fn(m);
  const Reflection* r = m.GetReflection();
  std::vector<const FieldDescriptor*> fields;
  r->ListFields(m, &fields);
  for (const FieldDescriptor* f : fields) {
    if (f->cpp_type() != FieldDescriptor::CPPTYPE_MESSAGE) continue;
    if (f->is_repeated()) {
      for (int i = 0; i < r->FieldSize(m, f); ++i)
        VisitMessages(r->GetRepeatedMessage(m, f, i), fn);
    } else {
      VisitMessages(r->GetMessage(m, f), fn);
    }
  }
}

// Full names of the message types in m that hold unknown fields.
std::set<std::string> TypesWithUnknownFields(const Message& m) {
  std::set<std::string> types;
  VisitMessages(m, [&](const Message& sub) {
    if (!sub.GetReflection()->GetUnknownFields(sub).empty()) {
      types.insert(sub.GetDescriptor()->full_name());
    }
  });
  return types;
}

class CollectingErrors : public google::protobuf::io::ErrorCollector {
 public:
  void AddError(int line, google::protobuf::io::ColumnNumber column,
                const std::string& message) override {
    errors.push_back(absl::StrCat(line + 1, ":", column + 1, ": ", message));
  }
  void AddWarning(int line, google::protobuf::io::ColumnNumber column,
                  const std::string& message) override {
    warnings.push_back(absl::StrCat(line + 1, ":", column + 1, ": ", message));
  }
  std::vector<std::string> errors;
  std::vector<std::string> warnings;
};

// Unknown fields through reflection: protoc 3.21 generates no unknown_fields() for proto3 messages.
const UnknownFieldSet& Unknown(const Message& m) { return m.GetReflection()->GetUnknownFields(m); }
UnknownFieldSet* MutableUnknown(Message* m) { return m->GetReflection()->MutableUnknownFields(m); }

template <typename T>
T ParseBinary(const std::string& name) {
  T m;
  EXPECT_TRUE(m.ParseFromString(ReadFileOrDie(absl::StrCat(kDir, name, ".pb")))) << name;
  return m;
}

const NodeDef* FindNode(const GraphDef& g, const std::string& name) {
  for (const NodeDef& n : g.node()) {
    if (n.name() == name) return &n;
  }
  return nullptr;
}

std::multiset<std::string> Ops(const GraphDef& g) {
  std::multiset<std::string> ops;
  for (const NodeDef& n : g.node()) ops.insert(n.op());
  return ops;
}

std::vector<float> FloatContent(const TensorProto& t) {
  std::vector<float> v(t.tensor_content().size() / sizeof(float));
  memcpy(v.data(), t.tensor_content().data(), v.size() * sizeof(float));
  for (float f : t.float_val()) v.push_back(f);
  return v;
}

std::vector<int64_t> Dims(const TensorShapeProto& s) {
  std::vector<int64_t> dims;
  for (const auto& d : s.dim()) dims.push_back(d.size());
  return dims;
}

// ------------------------------------------------------------------------------------------------
// Every case in the manifest.

TEST(ProtoRoundTripTest, ManifestListsTheCases) {
  std::vector<Case> cases = ReadManifest();
  ASSERT_GE(cases.size(), 20u);
  std::set<std::string> names, types;
  for (const Case& c : cases) {
    names.insert(c.name);
    types.insert(c.type);
    EXPECT_NE(NewMessage(c.type), nullptr) << c.name << " has unknown type " << c.type;
  }
  EXPECT_THAT(types, UnorderedElementsAre("GraphDef", "ConfigProto", "RunOptions", "MetaGraphDef",
                                          "SavedModel"));
  EXPECT_THAT(names, IsSupersetOf({"graph_matmul", "graph_function_library", "config_full",
                                   "run_options", "meta_graph_saver", "saved_model_v2"}));
  for (const std::string& name : CasesWithShellContent()) EXPECT_TRUE(names.count(name)) << name;
}

TEST(ProtoRoundTripTest, BinaryReserializesToTheExactDeterministicBytes) {
  for (const Case& c : ReadManifest()) {
    SCOPED_TRACE(c.name);
    const std::string pb = ReadFileOrDie(absl::StrCat(kDir, c.name, ".pb"));
    const std::string det = ReadFileOrDie(absl::StrCat(kDir, c.name, ".det.pb"));
    std::unique_ptr<Message> m = NewMessage(c.type);
    ASSERT_NE(m, nullptr);
    ASSERT_TRUE(m->ParseFromString(pb));
    EXPECT_EQ(ByteMismatch(SerializeDeterministic(*m), det), "");

    // The deterministic file itself is a fixed point, and both files hold the same message.
    std::unique_ptr<Message> from_det = NewMessage(c.type);
    ASSERT_TRUE(from_det->ParseFromString(det));
    EXPECT_EQ(ByteMismatch(SerializeDeterministic(*from_det), det), "");
    EXPECT_EQ(Diff(*m, *from_det), "");
  }
}

TEST(ProtoRoundTripTest, UnknownFieldsOnlyInsideShellMessages) {
  for (const Case& c : ReadManifest()) {
    SCOPED_TRACE(c.name);
    std::unique_ptr<Message> m = NewMessage(c.type);
    ASSERT_TRUE(m->ParseFromString(ReadFileOrDie(absl::StrCat(kDir, c.name, ".pb"))));
    std::set<std::string> types = TypesWithUnknownFields(*m);
    for (const std::string& t : types) {
      EXPECT_TRUE(ShellTypes().count(t)) << "TF wrote a field that Rill's " << t << " lacks";
    }
    // The cases whose shells have content really do carry it (as unknown fields).
    EXPECT_EQ(!types.empty(), CasesWithShellContent().count(c.name) > 0);
  }
}

TEST(ProtoRoundTripTest, NonDeterministicSerializeReparsesEqual) {
  for (const Case& c : ReadManifest()) {
    SCOPED_TRACE(c.name);
    std::unique_ptr<Message> m = NewMessage(c.type);
    ASSERT_TRUE(m->ParseFromString(ReadFileOrDie(absl::StrCat(kDir, c.name, ".pb"))));
    std::string bytes;
    ASSERT_TRUE(m->SerializeToString(&bytes));
    std::unique_ptr<Message> again = NewMessage(c.type);
    ASSERT_TRUE(again->ParseFromString(bytes));
    EXPECT_EQ(Diff(*m, *again), "");
    EXPECT_EQ(bytes.size(), m->ByteSizeLong());
  }
}

// Text format cannot carry unknown fields: TF's text_format prints a shell's content by field name
// (e.g. `rewrite_options { constant_folding: OFF ... }`), names Rill's empty RewriterConfig,
// DebugOptions and SavedObjectGraph do not have, so a strict TextFormat parse of those files fails
// with "Message type "rill.RewriterConfig" has no field named ...". For those cases (exactly
// CasesWithShellContent()) the test re-parses with AllowUnknownField(true), which skips the unknown
// names and their values; it then checks that every skipped name sat in a shell message, and
// compares with the binary parse after DiscardUnknownFields (recursive), i.e. everything except the
// shells' content, the shells' presence included. Every other case must parse strictly and equal
// the binary parse exactly.
TEST(ProtoRoundTripTest, TextFormatParsesToTheBinaryMessage) {
  for (const Case& c : ReadManifest()) {
    SCOPED_TRACE(c.name);
    const std::string text = ReadFileOrDie(absl::StrCat(kDir, c.name, ".pbtxt"));
    std::unique_ptr<Message> binary = NewMessage(c.type);
    ASSERT_TRUE(binary->ParseFromString(ReadFileOrDie(absl::StrCat(kDir, c.name, ".pb"))));

    std::unique_ptr<Message> strict = NewMessage(c.type);
    CollectingErrors strict_errors;
    TextFormat::Parser strict_parser;
    strict_parser.RecordErrorsTo(&strict_errors);
    const bool strict_ok = strict_parser.ParseFromString(text, strict.get());
    if (!CasesWithShellContent().count(c.name)) {
      EXPECT_TRUE(strict_ok) << absl::StrJoin(strict_errors.errors, "\n");
      EXPECT_EQ(Diff(*strict, *binary), "");
      continue;
    }
    EXPECT_FALSE(strict_ok) << "expected shell content in the text";
    ASSERT_THAT(strict_errors.errors, Not(IsEmpty()));
    EXPECT_THAT(strict_errors.errors[0], ::testing::HasSubstr("has no field named"));

    std::unique_ptr<Message> lenient = NewMessage(c.type);
    CollectingErrors lenient_errors;
    TextFormat::Parser lenient_parser;
    lenient_parser.AllowUnknownField(true);
    lenient_parser.RecordErrorsTo(&lenient_errors);
    ASSERT_TRUE(lenient_parser.ParseFromString(text, lenient.get()))
        << absl::StrJoin(lenient_errors.errors, "\n");
    ASSERT_THAT(lenient_errors.warnings, Not(IsEmpty()));
    for (const std::string& w : lenient_errors.warnings) {
      bool in_shell = false;
      for (const std::string& shell : ShellTypes()) {
        in_shell |= absl::StrContains(w, absl::StrCat("\"", shell, "\""));
      }
      EXPECT_TRUE(in_shell) << "skipped a field outside a shell: " << w;
    }
    binary->DiscardUnknownFields();  // recursive
    EXPECT_THAT(TypesWithUnknownFields(*binary), IsEmpty());
    EXPECT_EQ(Diff(*lenient, *binary), "");
  }
}

// ------------------------------------------------------------------------------------------------
// Hand-made unknown fields.

GraphDef SmallGraph() {
  GraphDef g;
  NodeDef* n = g.add_node();
  n->set_name("a");
  n->set_op("Const");
  (*n->mutable_attr())["dtype"].set_type(DT_FLOAT);
  g.mutable_versions()->set_producer(1087);
  return g;
}

// Appends a varint to bytes.
void AppendVarint(uint64_t v, std::string* bytes) {
  while (v >= 0x80) {
    bytes->push_back(static_cast<char>((v & 0x7f) | 0x80));
    v >>= 7;
  }
  bytes->push_back(static_cast<char>(v));
}

TEST(ProtoRoundTripTest, UnknownFieldsOnGraphDefAndNodeDefSurvive) {
  GraphDef g = SmallGraph();
  MutableUnknown(&g)->AddVarint(999, 123456789);
  MutableUnknown(&g)->AddLengthDelimited(1000, "opaque payload");
  MutableUnknown(g.mutable_node(0))->AddVarint(999, 7);
  MutableUnknown(g.mutable_node(0))->AddFixed64(1001, 0x0123456789abcdefULL);

  std::string bytes;
  ASSERT_TRUE(g.SerializeToString(&bytes));
  GraphDef back;
  ASSERT_TRUE(back.ParseFromString(bytes));
  EXPECT_EQ(Diff(back, g), "");
  EXPECT_EQ(SerializeDeterministic(back), SerializeDeterministic(g));

  const UnknownFieldSet& gu = Unknown(back);
  ASSERT_EQ(gu.field_count(), 2);
  EXPECT_EQ(gu.field(0).number(), 999);
  EXPECT_EQ(gu.field(0).type(), UnknownField::TYPE_VARINT);
  EXPECT_EQ(gu.field(0).varint(), 123456789u);
  EXPECT_EQ(gu.field(1).number(), 1000);
  EXPECT_EQ(gu.field(1).length_delimited(), "opaque payload");
  const UnknownFieldSet& nu = Unknown(back.node(0));
  ASSERT_EQ(nu.field_count(), 2);
  EXPECT_EQ(nu.field(0).number(), 999);
  EXPECT_EQ(nu.field(0).varint(), 7u);
  EXPECT_EQ(nu.field(1).number(), 1001);
  EXPECT_EQ(nu.field(1).fixed64(), 0x0123456789abcdefULL);
  EXPECT_EQ(back.node(0).name(), "a");
  EXPECT_EQ(back.versions().producer(), 1087);

  // The walker the file tests rely on finds unknown fields at any depth, map values included.
  MutableUnknown(&(*g.mutable_node(0)->mutable_attr())["dtype"])->AddVarint(77, 1);
  ASSERT_TRUE(back.ParseFromString(SerializeDeterministic(g)));
  EXPECT_THAT(TypesWithUnknownFields(back),
              UnorderedElementsAre("rill.GraphDef", "rill.NodeDef", "rill.AttrValue"));
  EXPECT_EQ(SerializeDeterministic(back), SerializeDeterministic(g));
}

// The same at the wire level, without the UnknownFieldSet API: bytes in, the same bytes out.
TEST(ProtoRoundTripTest, RawUnknownVarintBytesSurvive) {
  std::string node_bytes;
  ASSERT_TRUE(SmallGraph().node(0).SerializeToString(&node_bytes));
  AppendVarint((999 << 3) | 0, &node_bytes);  // field 999, wire type varint
  AppendVarint(42, &node_bytes);

  std::string graph_bytes;
  AppendVarint((1 << 3) | 2, &graph_bytes);  // GraphDef.node, length-delimited
  AppendVarint(node_bytes.size(), &graph_bytes);
  graph_bytes += node_bytes;
  AppendVarint((999 << 3) | 0, &graph_bytes);  // GraphDef field 999, varint
  AppendVarint(300, &graph_bytes);

  GraphDef g;
  ASSERT_TRUE(g.ParseFromString(graph_bytes));
  ASSERT_EQ(g.node_size(), 1);
  EXPECT_EQ(g.node(0).name(), "a");
  ASSERT_EQ(Unknown(g).field_count(), 1);
  EXPECT_EQ(Unknown(g).field(0).varint(), 300u);
  ASSERT_EQ(Unknown(g.node(0)).field_count(), 1);
  EXPECT_EQ(Unknown(g.node(0)).field(0).number(), 999);
  EXPECT_EQ(Unknown(g.node(0)).field(0).varint(), 42u);
  EXPECT_EQ(SerializeDeterministic(g), graph_bytes);
  std::string again;
  ASSERT_TRUE(g.SerializeToString(&again));
  EXPECT_EQ(again, graph_bytes);
}

TEST(ProtoRoundTripTest, ShellContentSurvivesInsideConfig) {
  ConfigProto c;
  c.set_intra_op_parallelism_threads(2);
  // RewriterConfig.constant_folding = OFF (field 3, enum value 2) and min_graph_nodes = -1
  // (field 17, int32 written as a 10-byte varint).
  UnknownFieldSet* ro = MutableUnknown(c.mutable_graph_options()->mutable_rewrite_options());
  ro->AddVarint(3, 2);
  ro->AddVarint(17, static_cast<uint64_t>(int64_t{-1}));
  std::string bytes = SerializeDeterministic(c);
  ConfigProto back;
  ASSERT_TRUE(back.ParseFromString(bytes));
  EXPECT_EQ(SerializeDeterministic(back), bytes);
  ASSERT_EQ(Unknown(back.graph_options().rewrite_options()).field_count(), 2);
  EXPECT_EQ(Unknown(back.graph_options().rewrite_options()).field(1).varint(),
            static_cast<uint64_t>(int64_t{-1}));
}

// ------------------------------------------------------------------------------------------------
// What the files hold, field by field (a field read from the wrong number would show here).

TEST(ProtoRoundTripTest, MatMulGraph) {
  GraphDef g = ParseBinary<GraphDef>("graph_matmul");
  std::vector<std::string> names;
  for (const NodeDef& n : g.node()) names.push_back(n.name());
  EXPECT_THAT(names, ElementsAre("a", "b", "MatMul"));
  const NodeDef* a = FindNode(g, "a");
  ASSERT_NE(a, nullptr);
  EXPECT_EQ(a->op(), "Const");
  EXPECT_EQ(a->device(), "");
  EXPECT_EQ(a->attr().at("dtype").type(), DT_FLOAT);
  const TensorProto& t = a->attr().at("value").tensor();
  EXPECT_EQ(t.dtype(), DT_FLOAT);
  EXPECT_THAT(Dims(t.tensor_shape()), ElementsAre(2, 3));
  EXPECT_THAT(FloatContent(t), ElementsAre(1, 2, 3, 4, 5, 6));
  EXPECT_THAT(Dims(FindNode(g, "b")->attr().at("value").tensor().tensor_shape()),
              ElementsAre(3, 2));
  const NodeDef* mm = FindNode(g, "MatMul");
  ASSERT_NE(mm, nullptr);
  EXPECT_EQ(mm->op(), "MatMul");
  EXPECT_THAT(mm->input(), ElementsAre("a", "b"));
  EXPECT_EQ(mm->attr().at("T").type(), DT_FLOAT);
  EXPECT_FALSE(mm->attr().at("transpose_a").b());
  EXPECT_GT(g.versions().producer(), 1000);
}

TEST(ProtoRoundTripTest, DevicePlacementGraphs) {
  GraphDef cpu = ParseBinary<GraphDef>("graph_matmul_cpu");
  EXPECT_EQ(FindNode(cpu, "a")->device(), "/device:CPU:0");
  EXPECT_EQ(FindNode(cpu, "b")->device(), "/device:CPU:0");
  EXPECT_EQ(FindNode(cpu, "MatMul")->device(), "");

  GraphDef towers = ParseBinary<GraphDef>("graph_towers");
  std::multiset<std::string> matmul_devices;
  for (const NodeDef& n : towers.node()) {
    if (n.op() == "MatMul") matmul_devices.insert(n.device());
  }
  EXPECT_THAT(matmul_devices, UnorderedElementsAre("/device:GPU:2", "/device:GPU:3"));
  const NodeDef* sum = FindNode(towers, "sum");
  ASSERT_NE(sum, nullptr);
  EXPECT_EQ(sum->op(), "AddN");
  EXPECT_EQ(sum->device(), "/device:CPU:0");
  EXPECT_EQ(sum->input_size(), 2);
  EXPECT_EQ(sum->attr().at("N").i(), 2);
}

TEST(ProtoRoundTripTest, VariableGraphs) {
  GraphDef ref = ParseBinary<GraphDef>("graph_ref_variable");
  EXPECT_EQ(FindNode(ref, "ref_var")->op(), "VariableV2");
  EXPECT_THAT(Dims(FindNode(ref, "ref_var")->attr().at("shape").shape()), ElementsAre(2, 2));
  EXPECT_EQ(FindNode(ref, "ref_var/read")->op(), "Identity");
  EXPECT_EQ(FindNode(ref, "ref_var/Assign")->op(), "Assign");
  EXPECT_EQ(FindNode(ref, "bump")->op(), "AssignAdd");

  GraphDef res = ParseBinary<GraphDef>("graph_resource_variable");
  EXPECT_EQ(FindNode(res, "res_var")->op(), "VarHandleOp");
  EXPECT_EQ(FindNode(res, "res_var")->attr().at("shared_name").s(), "res_var");
  std::multiset<std::string> ops = Ops(res);
  EXPECT_GE(ops.count("ReadVariableOp"), 1u);
  EXPECT_GE(ops.count("AssignVariableOp"), 1u);
  EXPECT_GE(ops.count("AssignAddVariableOp"), 1u);

  GraphDef ph = ParseBinary<GraphDef>("graph_placeholder");
  const NodeDef* x = FindNode(ph, "x");
  ASSERT_NE(x, nullptr);
  EXPECT_EQ(x->op(), "Placeholder");
  EXPECT_EQ(x->attr().at("dtype").type(), DT_FLOAT);
  EXPECT_THAT(Dims(x->attr().at("shape").shape()), ElementsAre(-1, 3));
  EXPECT_EQ(FindNode(ph, "k")->op(), "PlaceholderWithDefault");
}

TEST(ProtoRoundTripTest, ControlFlowGraphs) {
  std::multiset<std::string> cond = Ops(ParseBinary<GraphDef>("graph_cond_v1"));
  EXPECT_GE(cond.count("Switch"), 1u);
  EXPECT_GE(cond.count("Merge"), 1u);

  std::multiset<std::string> loop = Ops(ParseBinary<GraphDef>("graph_while_v1"));
  for (const char* op : {"Enter", "Merge", "Switch", "Exit", "NextIteration", "LoopCond"}) {
    EXPECT_GE(loop.count(op), 1u) << op;
  }
  GraphDef wl = ParseBinary<GraphDef>("graph_while_v1");
  for (const NodeDef& n : wl.node()) {
    if (n.op() == "Enter") {
      EXPECT_EQ(n.attr().at("frame_name").s(), "loop/while_context");
    }
  }

  GraphDef v2 = ParseBinary<GraphDef>("graph_control_flow_v2");
  EXPECT_EQ(FindNode(v2, "cond")->op(), "StatelessIf");
  EXPECT_EQ(FindNode(v2, "loop")->op(), "StatelessWhile");
  std::set<std::string> functions;
  for (const FunctionDef& f : v2.library().function()) functions.insert(f.signature().name());
  EXPECT_TRUE(functions.count(FindNode(v2, "cond")->attr().at("then_branch").func().name()));
  EXPECT_TRUE(functions.count(FindNode(v2, "cond")->attr().at("else_branch").func().name()));
  EXPECT_TRUE(functions.count(FindNode(v2, "loop")->attr().at("body").func().name()));
  EXPECT_EQ(functions.size(), 4u);
}

TEST(ProtoRoundTripTest, FrozenKerasGraph) {
  GraphDef g = ParseBinary<GraphDef>("graph_frozen_keras");
  std::multiset<std::string> ops = Ops(g);
  EXPECT_EQ(ops.count("VarHandleOp"), 0u);
  EXPECT_EQ(ops.count("MatMul"), 1u);
  EXPECT_EQ(ops.count("BiasAdd"), 1u);
  EXPECT_EQ(ops.count("Relu"), 1u);
  bool saw_kernel = false;
  for (const NodeDef& n : g.node()) {
    if (n.op() != "Const") continue;
    const TensorProto& t = n.attr().at("value").tensor();
    if (Dims(t.tensor_shape()) == std::vector<int64_t>{3, 2}) {
      saw_kernel = true;
      EXPECT_THAT(FloatContent(t), ElementsAre(0.5, 0.5, 0.5, 0.5, 0.5, 0.5));
    }
  }
  EXPECT_TRUE(saw_kernel);
}

TEST(ProtoRoundTripTest, FunctionLibraryGraph) {
  GraphDef g = ParseBinary<GraphDef>("graph_function_library");
  ASSERT_EQ(g.library().function_size(), 1);
  const FunctionDef& f = g.library().function(0);
  EXPECT_TRUE(absl::StartsWith(f.signature().name(), "__inference_inner_")) << f.signature().name();
  EXPECT_EQ(f.signature().input_arg_size(), 2);
  EXPECT_EQ(f.signature().input_arg(1).type(), DT_RESOURCE);
  EXPECT_FALSE(f.node_def().empty());
  EXPECT_FALSE(f.ret().empty());
  EXPECT_FALSE(f.arg_attr().empty());
  const NodeDef* call = FindNode(g, "StatefulPartitionedCall");
  ASSERT_NE(call, nullptr);
  EXPECT_EQ(call->attr().at("f").func().name(), f.signature().name());
}

TEST(ProtoRoundTripTest, OutputShapesAndDebugInfo) {
  GraphDef g = ParseBinary<GraphDef>("graph_output_shapes");
  for (const NodeDef& n : g.node()) EXPECT_TRUE(n.attr().count("_output_shapes")) << n.name();
  const AttrValue& y = FindNode(g, "y")->attr().at("_output_shapes");
  ASSERT_EQ(y.list().shape_size(), 1);
  EXPECT_THAT(Dims(y.list().shape(0)), ElementsAre(-1, 2));
  EXPECT_EQ(FindNode(g, "halves")->attr().at("_output_shapes").list().shape_size(), 2);

  GraphDef d = ParseBinary<GraphDef>("graph_debug_info");
  ASSERT_TRUE(d.has_debug_info());
  const GraphDebugInfo& info = d.debug_info();
  EXPECT_THAT(info.files(), Not(IsEmpty()));
  EXPECT_THAT(info.files(), ::testing::Contains("tools/tfgen/make_wire_testdata.py"));
  EXPECT_TRUE(info.name_to_trace_id().count("x@"));
  EXPECT_TRUE(info.name_to_trace_id().count("out@"));
  for (const auto& [name, id] : info.name_to_trace_id()) {
    ASSERT_TRUE(info.traces_by_id().count(id)) << name;
    for (uint64_t frame : info.traces_by_id().at(id).frame_id()) {
      ASSERT_TRUE(info.frames_by_id().count(frame)) << name;
      EXPECT_LT(info.frames_by_id().at(frame).file_index(), info.files_size());
      EXPECT_GT(info.frames_by_id().at(frame).line(), 0);
    }
  }
  EXPECT_THAT(FindNode(d, "y")->experimental_debug_info().original_node_names(),
              ElementsAre("inner/add", "add"));
  EXPECT_THAT(FindNode(d, "y")->experimental_debug_info().original_func_names(),
              ElementsAre("inner_fn"));
}

TEST(ProtoRoundTripTest, ConfigProtos) {
  EXPECT_EQ(ParseBinary<ConfigProto>("config_default").ByteSizeLong(), 0u);

  ConfigProto dev = ParseBinary<ConfigProto>("config_devices");
  EXPECT_EQ(dev.device_count().size(), 2u);
  EXPECT_EQ(dev.device_count().at("CPU"), 3);
  EXPECT_EQ(dev.device_count().at("GPU"), 2);
  EXPECT_TRUE(dev.allow_soft_placement());
  EXPECT_TRUE(dev.log_device_placement());

  ConfigProto gpu = ParseBinary<ConfigProto>("config_gpu_options");
  EXPECT_TRUE(gpu.gpu_options().allow_growth());
  EXPECT_EQ(gpu.gpu_options().per_process_gpu_memory_fraction(), 0.4);
  EXPECT_EQ(gpu.gpu_options().visible_device_list(), "0,1");
  ASSERT_EQ(gpu.gpu_options().experimental().virtual_devices_size(), 1);
  EXPECT_THAT(gpu.gpu_options().experimental().virtual_devices(0).memory_limit_mb(),
              ElementsAre(1024.0f, 1024.0f));

  ConfigProto full = ParseBinary<ConfigProto>("config_full");
  EXPECT_EQ(full.intra_op_parallelism_threads(), 4);
  EXPECT_EQ(full.inter_op_parallelism_threads(), 2);
  EXPECT_TRUE(full.use_per_session_threads());
  EXPECT_EQ(full.operation_timeout_in_ms(), 60000);
  EXPECT_TRUE(full.isolate_session_state());
  EXPECT_THAT(full.device_filters(), ElementsAre("/job:localhost", "/device:CPU:0"));
  ASSERT_EQ(full.session_inter_op_thread_pool_size(), 2);
  EXPECT_EQ(full.session_inter_op_thread_pool(0).num_threads(), 3);
  EXPECT_EQ(full.session_inter_op_thread_pool(0).global_name(), "shared_pool");
  EXPECT_EQ(full.session_inter_op_thread_pool(1).num_threads(), 1);
  const OptimizerOptions& oo = full.graph_options().optimizer_options();
  EXPECT_TRUE(oo.do_common_subexpression_elimination());
  EXPECT_TRUE(oo.do_constant_folding());
  EXPECT_EQ(oo.opt_level(), OptimizerOptions::L0);
  EXPECT_EQ(oo.global_jit_level(), OptimizerOptions::OFF);
  EXPECT_EQ(oo.max_folded_constant_in_bytes(), 1 << 20);
  EXPECT_TRUE(full.graph_options().infer_shapes());
  EXPECT_TRUE(full.graph_options().place_pruned_graph());
  EXPECT_EQ(full.graph_options().build_cost_model(), 10);
  ASSERT_TRUE(full.graph_options().has_rewrite_options());
  // RewriterConfig.layout_optimizer = OFF is field 1, varint 2 (TF's rewriter_config.proto).
  const UnknownFieldSet& ro = Unknown(full.graph_options().rewrite_options());
  ASSERT_GT(ro.field_count(), 0);
  EXPECT_EQ(ro.field(0).number(), 1);
  EXPECT_EQ(ro.field(0).varint(), 2u);
  EXPECT_EQ(full.experimental().executor_type(), "SINGLE_THREADED_EXECUTOR");
  EXPECT_EQ(full.experimental().collective_group_leader(), "/job:worker/replica:0/task:0");
  EXPECT_EQ(full.experimental().session_metadata().name(), "tiny");
  EXPECT_EQ(full.experimental().session_metadata().version(), 7);
  EXPECT_EQ(full.experimental().mlir_bridge_rollout(),
            ConfigProto::Experimental::MLIR_BRIDGE_ROLLOUT_DISABLED);
}

TEST(ProtoRoundTripTest, RunOptionsFile) {
  RunOptions r = ParseBinary<RunOptions>("run_options");
  EXPECT_EQ(r.trace_level(), RunOptions::FULL_TRACE);
  EXPECT_EQ(r.timeout_in_ms(), 5000);
  EXPECT_EQ(r.inter_op_thread_pool(), 1);
  EXPECT_TRUE(r.output_partition_graphs());
  EXPECT_TRUE(r.report_tensor_allocations_upon_oom());
  EXPECT_EQ(r.experimental().collective_graph_key(), 12);
  EXPECT_TRUE(r.experimental().use_run_handler_pool());
  EXPECT_EQ(r.experimental().run_handler_pool_options().priority(), 2);
  ASSERT_TRUE(r.has_debug_options());
  // DebugOptions: debug_tensor_watch_opts = 4 (message), global_step = 10, reset_disk_byte_usage
  // = 11.
  std::set<int> numbers;
  const UnknownFieldSet& dbg = Unknown(r.debug_options());
  for (int i = 0; i < dbg.field_count(); ++i) numbers.insert(dbg.field(i).number());
  EXPECT_THAT(numbers, UnorderedElementsAre(4, 10, 11));
}

TEST(ProtoRoundTripTest, MetaGraphFile) {
  MetaGraphDef mg = ParseBinary<MetaGraphDef>("meta_graph_saver");
  EXPECT_EQ(mg.meta_info_def().tensorflow_version(), "2.21.0");
  EXPECT_TRUE(mg.meta_info_def().stripped_default_attrs());
  EXPECT_GT(mg.meta_info_def().stripped_op_list().op_size(), 5);
  EXPECT_EQ(mg.saver_def().filename_tensor_name(), "saver/Const:0");
  EXPECT_EQ(mg.saver_def().restore_op_name(), "saver/restore_all");
  EXPECT_EQ(mg.saver_def().max_to_keep(), 5);
  EXPECT_EQ(mg.saver_def().version(), SaverDef::V2);
  EXPECT_TRUE(mg.collection_def().count("train_op"));
  EXPECT_TRUE(mg.collection_def().at("variables").has_bytes_list());
  EXPECT_THAT(mg.collection_def().at("train_op").node_list().value(), ElementsAre("train"));
  EXPECT_EQ(FindNode(mg.graph_def(), "w")->op(), "VariableV2");
  EXPECT_FALSE(mg.has_object_graph_def());
}

TEST(ProtoRoundTripTest, SavedModelFiles) {
  SavedModel v1 = ParseBinary<SavedModel>("saved_model_v1");
  EXPECT_EQ(v1.saved_model_schema_version(), 1);
  ASSERT_EQ(v1.meta_graphs_size(), 1);
  const MetaGraphDef& m1 = v1.meta_graphs(0);
  EXPECT_THAT(m1.meta_info_def().tags(), ElementsAre("serve"));
  const SignatureDef& s1 = m1.signature_def().at("serving_default");
  EXPECT_EQ(s1.method_name(), "tensorflow/serving/predict");
  EXPECT_EQ(s1.inputs().at("x").name(), "x:0");
  EXPECT_EQ(s1.inputs().at("x").dtype(), DT_FLOAT);
  EXPECT_THAT(Dims(s1.inputs().at("x").tensor_shape()), ElementsAre(-1, 2));
  EXPECT_EQ(s1.outputs().at("y").name(), "y:0");
  EXPECT_EQ(FindNode(m1.graph_def(), "w")->op(), "VarHandleOp");
  EXPECT_FALSE(m1.has_object_graph_def());

  SavedModel v2 = ParseBinary<SavedModel>("saved_model_v2");
  ASSERT_EQ(v2.meta_graphs_size(), 1);
  const MetaGraphDef& m2 = v2.meta_graphs(0);
  EXPECT_THAT(m2.meta_info_def().tags(), ElementsAre("serve"));
  EXPECT_THAT(m2.signature_def().at("serving_default").outputs().at("y").tensor_shape().dim(),
              ::testing::SizeIs(2));
  EXPECT_GT(m2.graph_def().library().function_size(), 0);
  ASSERT_TRUE(m2.has_object_graph_def());
  // SavedObjectGraph.nodes is field 1 (repeated message): the root, the variable, the function.
  int nodes = 0;
  const UnknownFieldSet& og = Unknown(m2.object_graph_def());
  for (int i = 0; i < og.field_count(); ++i) nodes += og.field(i).number() == 1;
  EXPECT_GE(nodes, 3);
}

}  // namespace
}  // namespace rill
