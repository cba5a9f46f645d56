#include "distributed/session_resources.h"

#include "google/protobuf/text_format.h"
#include "gtest/gtest.h"

namespace rill {
namespace distributed {
namespace {

using Named = std::vector<std::pair<std::string, std::string>>;

GraphDef Parse(const char* text) {
  GraphDef g;
  EXPECT_TRUE(google::protobuf::TextFormat::ParseFromString(text, &g));
  return g;
}

std::string SharedName(const GraphDef& g, int i) {
  auto it = g.node(i).attr().find("shared_name");
  return it == g.node(i).attr().end() ? "<none>" : it->second.s();
}

constexpr char kGraph[] = R"(
  node { name: 'it' op: 'IteratorV2' attr { key: 'shared_name' value { s: '' } }
         attr { key: 'container' value { s: '' } } }
  node { name: 'it1' op: 'Iterator' attr { key: 'shared_name' value { s: '' } }
         attr { key: 'container' value { s: 'c' } } }
  node { name: 'named' op: 'IteratorV2' attr { key: 'shared_name' value { s: 'shared' } } }
  node { name: 'table' op: 'HashTableV2' }
  node { name: 'by_node' op: 'MutableHashTableV2'
         attr { key: 'use_node_name_sharing' value { b: true } } }
  node { name: 'v' op: 'VarHandleOp' attr { key: 'shared_name' value { s: '' } } }
  node { name: 'w' op: 'VariableV2' attr { key: 'shared_name' value { s: '' } } }
)";

TEST(SessionResourcesTest, IteratorsAndUnsharedTablesGetTheSessionsName) {
  GraphDef g;
  const Named named = PrivatizeResourceNames("rill_session_7", Parse(kGraph), &g);
  EXPECT_EQ(named, (Named{{"localhost", "_rill_session_7_it"},
                          {"c", "_rill_session_7_it1"},
                          {"localhost", "_rill_session_7_table"}}));
  EXPECT_EQ(SharedName(g, 0), "_rill_session_7_it");
  EXPECT_EQ(SharedName(g, 1), "_rill_session_7_it1");
  EXPECT_EQ(SharedName(g, 2), "shared");  // a shared_name is the user's: shared
  EXPECT_EQ(SharedName(g, 3), "_rill_session_7_table");
  EXPECT_EQ(SharedName(g, 4), "<none>");  // use_node_name_sharing: shared by node name
  EXPECT_EQ(SharedName(g, 5), "");        // variables are shared by node name
  EXPECT_EQ(SharedName(g, 6), "");
}

TEST(SessionResourcesTest, NoSessionHandleOrNoPrivateResourceCopiesNothing) {
  GraphDef out;
  out.add_node()->set_name("untouched");
  EXPECT_TRUE(PrivatizeResourceNames("", Parse(kGraph), &out).empty());
  EXPECT_TRUE(PrivatizeResourceNames("rill_session_7",
                                     Parse(R"(node { name: 'v' op: 'VarHandleOp' })"), &out)
                  .empty());
  ASSERT_EQ(out.node_size(), 1);  // not copied
  EXPECT_EQ(out.node(0).name(), "untouched");
}

}  // namespace
}  // namespace distributed
}  // namespace rill
