#include "graph/graph_file.h"

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "absl/strings/str_cat.h"
#include "core/status_matchers.h"
#include "google/protobuf/text_format.h"
#include "google/protobuf/util/message_differencer.h"
#include "gtest/gtest.h"
#include "proto/meta_graph.pb.h"
#include "proto/saved_model.pb.h"

namespace rill {
namespace {

using ::testing::AllOf;
using ::testing::HasSubstr;
using ::testing::StartsWith;

std::string TestDataDir() {
  const char* srcdir = std::getenv("TEST_SRCDIR");
  const char* workspace = std::getenv("TEST_WORKSPACE");
  return std::string(srcdir ? srcdir : ".") + "/" + (workspace ? workspace : "rill") + "/" +
         TF_WRITTEN_DIR + "/";
}

std::string TempPath(const std::string& name) {
  const char* tmp = std::getenv("TEST_TMPDIR");
  return std::string(tmp ? tmp : "/tmp") + "/" + name;
}

std::string ReadBytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

void WriteBytes(const std::string& path, const std::string& bytes) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out << bytes;
}

template <typename T>
T ParseTextFile(const std::string& path) {
  T message;
  EXPECT_TRUE(google::protobuf::TextFormat::ParseFromString(ReadBytes(path), &message)) << path;
  return message;
}

bool Same(const google::protobuf::Message& a, const google::protobuf::Message& b) {
  return google::protobuf::util::MessageDifferencer::Equals(a, b);
}

TEST(ReadGraphDefFileTest, BinaryAndTextGraphDefs) {
  const GraphDef want = ParseTextFile<GraphDef>(TestDataDir() + "graph_matmul.pbtxt");
  ASSERT_GT(want.node_size(), 0);
  for (const char* file : {"graph_matmul.pb", "graph_matmul.pbtxt"}) {
    SCOPED_TRACE(file);
    RILL_ASSERT_OK_AND_ASSIGN(GraphDef got, ReadGraphDefFile(TestDataDir() + file));
    EXPECT_TRUE(Same(want, got));
  }
}

TEST(ReadGraphDefFileTest, DetectsByContentNotExtension) {
  const GraphDef want = ParseTextFile<GraphDef>(TestDataDir() + "graph_while_v1.pbtxt");
  // Binary content named .pbtxt, text content named .pb.
  const std::string binary_as_text = TempPath("binary.pbtxt");
  const std::string text_as_binary = TempPath("text.pb");
  WriteBytes(binary_as_text, ReadBytes(TestDataDir() + "graph_while_v1.pb"));
  WriteBytes(text_as_binary, ReadBytes(TestDataDir() + "graph_while_v1.pbtxt"));
  RILL_ASSERT_OK_AND_ASSIGN(GraphDef a, ReadGraphDefFile(binary_as_text));
  RILL_ASSERT_OK_AND_ASSIGN(GraphDef b, ReadGraphDefFile(text_as_binary));
  EXPECT_TRUE(Same(want, a));
  EXPECT_TRUE(Same(want, b));
}

TEST(ReadGraphDefFileTest, SavedModelChoosesTheServeMetaGraph) {
  for (const char* name : {"saved_model_v1", "saved_model_v2"}) {
    SCOPED_TRACE(name);
    // Rill's SavedObjectGraph is an empty shell: the text form does not parse into it.
    SavedModel saved;
    ASSERT_TRUE(saved.ParseFromString(ReadBytes(TestDataDir() + name + ".pb")));
    ASSERT_EQ(saved.meta_graphs_size(), 1);
    for (const char* ext : {".pb", ".pbtxt"}) {
      RILL_ASSERT_OK_AND_ASSIGN(GraphDef got,
                                ReadGraphDefFile(TestDataDir() + name + ext, "serve"));
      EXPECT_TRUE(Same(saved.meta_graphs(0).graph_def(), got));
    }
  }
}

TEST(ReadGraphDefFileTest, SavedModelDirectory) {
  const std::string dir = TempPath("saved_model_dir");
  std::filesystem::create_directories(dir);
  WriteBytes(dir + "/saved_model.pb", ReadBytes(TestDataDir() + "saved_model_v1.pb"));
  RILL_ASSERT_OK_AND_ASSIGN(GraphDef got, ReadGraphDefFile(dir));
  EXPECT_GT(got.node_size(), 0);
  const std::string empty_dir = TempPath("empty_dir");
  std::filesystem::create_directories(empty_dir);
  EXPECT_THAT(ReadGraphDefFile(empty_dir),
              StatusIs(absl::StatusCode::kNotFound, HasSubstr("no saved_model.pb")));
}

TEST(ReadGraphDefFileTest, SavedModelTagSets) {
  SavedModel saved;
  const GraphDef one = ParseTextFile<GraphDef>(TestDataDir() + "graph_matmul.pbtxt");
  const GraphDef two = ParseTextFile<GraphDef>(TestDataDir() + "graph_towers.pbtxt");
  MetaGraphDef* train = saved.add_meta_graphs();
  train->mutable_meta_info_def()->add_tags("train");
  *train->mutable_graph_def() = one;
  MetaGraphDef* serve_gpu = saved.add_meta_graphs();
  serve_gpu->mutable_meta_info_def()->add_tags("serve");
  serve_gpu->mutable_meta_info_def()->add_tags("gpu");
  *serve_gpu->mutable_graph_def() = two;
  const std::string path = TempPath("saved_model.pb");
  WriteBytes(path, saved.SerializeAsString());

  RILL_ASSERT_OK_AND_ASSIGN(GraphDef got, ReadGraphDefFile(path, "train"));
  EXPECT_TRUE(Same(one, got));
  RILL_ASSERT_OK_AND_ASSIGN(got, ReadGraphDefFile(path, "gpu,serve"));  // order does not matter
  EXPECT_TRUE(Same(two, got));
  EXPECT_THAT(ReadGraphDefFile(path, "serve"),
              StatusIs(absl::StatusCode::kNotFound,
                       AllOf(HasSubstr("MetaGraphDef associated with tags 'serve' could not be "
                                       "found in SavedModel"),
                             HasSubstr(path), HasSubstr("available tags '[train] [gpu,serve]'"))));
}

TEST(ReadGraphDefFileTest, MetaGraphDef) {
  const MetaGraphDef meta = ParseTextFile<MetaGraphDef>(TestDataDir() + "meta_graph_saver.pbtxt");
  for (const char* ext : {".pb", ".pbtxt"}) {
    RILL_ASSERT_OK_AND_ASSIGN(GraphDef got,
                              ReadGraphDefFile(TestDataDir() + "meta_graph_saver" + ext));
    EXPECT_TRUE(Same(meta.graph_def(), got));
  }
}

TEST(ReadGraphDefFileTest, NeitherBinaryNorText) {
  const std::string path = TempPath("junk.pb");
  WriteBytes(path, "node { name: 'a' op: 'Const' \n  this is not a graph }\n");
  EXPECT_THAT(ReadGraphDefFile(path),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       AllOf(StartsWith(path + " is neither a binary nor a text GraphDef ("),
                             HasSubstr("tried: binary SavedModel, MetaGraphDef and GraphDef"),
                             HasSubstr("line 2, column"))));
  // A ConfigProto is a valid proto, but not a graph.
  const std::string config = TempPath("config.pb");
  WriteBytes(config, ReadBytes(TestDataDir() + "config_full.pb"));
  EXPECT_THAT(ReadGraphDefFile(config),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("is neither")));
  for (const std::string& content : {std::string(""), std::string("  \n")}) {
    WriteBytes(path, content);
    EXPECT_THAT(ReadGraphDefFile(path),
                StatusIs(absl::StatusCode::kInvalidArgument,
                         AllOf(HasSubstr("is neither"),
                               HasSubstr(content.empty() ? "is empty" : "is blank"))));
  }
}

// A binary GraphDef comes back holding its Const values once: the strict check reads the attr map
// itself, not reflection's repeated copy of it (which SpaceUsedLong counts).
TEST(ReadGraphDefFileTest, BinaryGraphDefKeepsItsConstValuesOnce) {
  GraphDef graph;
  NodeDef* c = graph.add_node();
  c->set_name("c");
  c->set_op("Const");
  (*c->mutable_attr())["dtype"].set_type(DT_FLOAT);
  TensorProto* value = (*c->mutable_attr())["value"].mutable_tensor();
  value->set_dtype(DT_FLOAT);
  value->mutable_tensor_shape()->add_dim()->set_size(1 << 18);
  value->set_tensor_content(std::string(4 << 18, '\1'));
  const std::string path = TempPath("big_const.pb");
  WriteBytes(path, graph.SerializeAsString());
  RILL_ASSERT_OK_AND_ASSIGN(GraphDef got, ReadGraphDefFile(path));
  // Before comparing: MessageDifferencer reads maps through reflection too.
  EXPECT_LT(got.SpaceUsedLong(), (4 << 18) + (64 << 10));
  EXPECT_TRUE(Same(graph, got));
}

TEST(ReadGraphDefFileTest, MissingFile) {
  const std::string path = TempPath("no/such/graph.pb");
  EXPECT_THAT(ReadGraphDefFile(path),
              StatusIs(absl::StatusCode::kNotFound, HasSubstr("'" + path + "' not found")));
}

TEST(WriteGraphDefFileTest, WritesBinaryAndText) {
  const GraphDef want = ParseTextFile<GraphDef>(TestDataDir() + "graph_towers.pbtxt");
  for (bool as_text : {false, true}) {
    SCOPED_TRACE(as_text);
    const std::string path = TempPath(as_text ? "out.pbtxt" : "out.pb");
    RILL_ASSERT_OK(WriteGraphDefFile(path, want, as_text));
    const std::string bytes = ReadBytes(path);
    GraphDef parsed;
    if (as_text) {
      EXPECT_TRUE(google::protobuf::TextFormat::ParseFromString(bytes, &parsed));
    } else {
      EXPECT_TRUE(parsed.ParseFromString(bytes));
    }
    EXPECT_TRUE(Same(want, parsed));
    RILL_ASSERT_OK_AND_ASSIGN(GraphDef read, ReadGraphDefFile(path));
    EXPECT_TRUE(Same(want, read));
  }
  EXPECT_THAT(WriteGraphDefFile(TempPath("no/such/dir/out.pb"), want, false),
              StatusIs(absl::StatusCode::kNotFound, HasSubstr("no/such/dir/out.pb")));
  // TensorFlow's code for EISDIR (core/errno_status.h).
  const std::string dir = ::testing::TempDir();
  EXPECT_THAT(WriteGraphDefFile(dir, want, false),
              StatusIs(absl::StatusCode::kFailedPrecondition,
                       absl::StrCat("Cannot write graph file '", dir, "': Is a directory")));
}

}  // namespace
}  // namespace rill
