// Two client sessions on one rill_server (tools/rill_server) share its device's ResourceMgr, as
// in TensorFlow (docs/distributed.md): a tf.data iterator, or a hash table without a shared_name
// or use_node_name_sharing, is each session's own (distributed/session_resources.h); a variable is
// shared by its node name (between-graph replication); an iterator or table with a shared_name is
// shared. Nothing here can wait without bound: every Run has the session's 20 s operation timeout,
// the other calls the master's control deadline, the fixture's start and stop their own.
#include <memory>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_replace.h"
#include "core/status_macros.h"
#include "core/status_matchers.h"
#include "distributed/grpc_session.h"
#include "gmock/gmock.h"
#include "google/protobuf/text_format.h"
#include "gtest/gtest.h"
#include "session/session.h"
#include "tests/distributed/cluster_fixture.h"

namespace rill {
namespace {

using ::testing::HasSubstr;

// value (fed) -> TensorDataset -> MakeIterator `init` on IteratorV2 `it` (shared_name {IT});
// IteratorGetNext `next`; the resource variable `v`: `assign` value, `read`; the MutableHashTableV2
// `table` (shared_name {TABLE}) from int64 to float: `insert` key 7 -> value, `find` key 7
// (default -1), `size`.
constexpr char kGraph[] = R"pb(
  node {
    name: "value"
    op: "Placeholder"
    attr {
      key: "dtype"
      value { type: DT_FLOAT }
    }
    attr {
      key: "shape"
      value { shape {} }
    }
  }
  node {
    name: "ds"
    op: "TensorDataset"
    input: "value"
    attr {
      key: "Toutput_types"
      value { list { type: DT_FLOAT } }
    }
    attr {
      key: "output_shapes"
      value { list { shape {} } }
    }
  }
  node {
    name: "it"
    op: "IteratorV2"
    attr {
      key: "shared_name"
      value { s: "{IT}" }
    }
    attr {
      key: "container"
      value { s: "" }
    }
    attr {
      key: "output_types"
      value { list { type: DT_FLOAT } }
    }
    attr {
      key: "output_shapes"
      value { list { shape {} } }
    }
  }
  node { name: "init" op: "MakeIterator" input: "ds" input: "it" }
  node {
    name: "next"
    op: "IteratorGetNext"
    input: "it"
    attr {
      key: "output_types"
      value { list { type: DT_FLOAT } }
    }
    attr {
      key: "output_shapes"
      value { list { shape {} } }
    }
  }
  node {
    name: "v"
    op: "VarHandleOp"
    attr {
      key: "dtype"
      value { type: DT_FLOAT }
    }
    attr {
      key: "shape"
      value { shape {} }
    }
  }
  node {
    name: "assign"
    op: "AssignVariableOp"
    input: "v"
    input: "value"
    attr {
      key: "dtype"
      value { type: DT_FLOAT }
    }
  }
  node {
    name: "read"
    op: "ReadVariableOp"
    input: "v"
    attr {
      key: "dtype"
      value { type: DT_FLOAT }
    }
  }
  node {
    name: "table"
    op: "MutableHashTableV2"
    attr {
      key: "shared_name"
      value { s: "{TABLE}" }
    }
    attr {
      key: "key_dtype"
      value { type: DT_INT64 }
    }
    attr {
      key: "value_dtype"
      value { type: DT_FLOAT }
    }
  }
  node {
    name: "key"
    op: "Const"
    attr {
      key: "dtype"
      value { type: DT_INT64 }
    }
    attr {
      key: "value"
      value {
        tensor {
          dtype: DT_INT64
          tensor_shape {}
          int64_val: 7
        }
      }
    }
  }
  node {
    name: "default"
    op: "Const"
    attr {
      key: "dtype"
      value { type: DT_FLOAT }
    }
    attr {
      key: "value"
      value {
        tensor {
          dtype: DT_FLOAT
          tensor_shape {}
          float_val: -1
        }
      }
    }
  }
  node {
    name: "insert"
    op: "LookupTableInsertV2"
    input: "table"
    input: "key"
    input: "value"
    attr {
      key: "Tin"
      value { type: DT_INT64 }
    }
    attr {
      key: "Tout"
      value { type: DT_FLOAT }
    }
  }
  node {
    name: "find"
    op: "LookupTableFindV2"
    input: "table"
    input: "key"
    input: "default"
    attr {
      key: "Tin"
      value { type: DT_INT64 }
    }
    attr {
      key: "Tout"
      value { type: DT_FLOAT }
    }
  }
  node { name: "size" op: "LookupTableSizeV2" input: "table" }
)pb";

class TwoSessionsTest : public ::testing::Test {
 protected:
  void SetUp() override { ASSERT_THAT(cluster_.Start({"worker"}), IsOk()); }

  // A session on the worker of the graph above with the iterator's and the table's shared_name.
  std::unique_ptr<Session> NewSession(const std::string& iterator_name,
                                      const std::string& table_name) {
    SessionOptions options;
    *options.config.mutable_cluster_def() = cluster_.cluster();
    options.config.set_operation_timeout_in_ms(20000);
    options.target = absl::StrCat("grpc://", cluster_.address(0));
    absl::StatusOr<std::unique_ptr<Session>> s = Session::New(options);
    EXPECT_THAT(s.status(), IsOk());
    if (!s.ok()) return nullptr;
    const std::string text =
        absl::StrReplaceAll(kGraph, {{"{IT}", iterator_name}, {"{TABLE}", table_name}});
    GraphDef g;
    EXPECT_TRUE(google::protobuf::TextFormat::ParseFromString(text, &g));
    for (NodeDef& n : *g.mutable_node()) n.set_device("/job:worker/task:0");
    absl::Status created = (*s)->Create(g);
    EXPECT_THAT(created, IsOk());
    return created.ok() ? std::move(*s) : nullptr;
  }

  static absl::Status Run(Session& s, const std::string& target, float value) {
    std::vector<Tensor> none;
    return s.Run({{"value:0", Tensor::Scalar<float>(value)}}, {}, {target}, &none);
  }
  // The float scalar `fetch` of `s`.
  static absl::StatusOr<float> Fetch(Session& s, const std::string& fetch) {
    std::vector<Tensor> out;
    RILL_RETURN_IF_ERROR(s.Run({}, {fetch}, {}, &out));
    return out.at(0).flat<float>()[0];
  }
  static absl::StatusOr<int64_t> Size(Session& s) {
    std::vector<Tensor> out;
    RILL_RETURN_IF_ERROR(s.Run({}, {"size:0"}, {}, &out));
    return out.at(0).flat<int64_t>()[0];
  }

  testing::ClusterFixture cluster_;
};

TEST_F(TwoSessionsTest, IteratorsAndTablesWithoutASharedNameAreEachSessionsOwn) {
  std::unique_ptr<Session> a = NewSession("", "");
  std::unique_ptr<Session> b = NewSession("", "");
  ASSERT_NE(a, nullptr);
  ASSERT_NE(b, nullptr);
  ASSERT_THAT(Run(*a, "init", 1), IsOk());
  ASSERT_THAT(Run(*b, "init", 2), IsOk());  // b's own iterator: a's stays on its dataset
  EXPECT_THAT(Fetch(*a, "next:0"), IsOkAndHolds(1.0f));
  EXPECT_THAT(Fetch(*b, "next:0"), IsOkAndHolds(2.0f));
  EXPECT_THAT(Fetch(*a, "next:0"),
              StatusIs(absl::StatusCode::kOutOfRange, HasSubstr("End of sequence")));
  // MakeIterator again restarts the session's own iterator, not b's.
  ASSERT_THAT(Run(*a, "init", 3), IsOk());
  EXPECT_THAT(Fetch(*a, "next:0"), IsOkAndHolds(3.0f));
  EXPECT_THAT(Fetch(*b, "next:0"),
              StatusIs(absl::StatusCode::kOutOfRange, HasSubstr("End of sequence")));

  // Each session's table holds its own insert.
  ASSERT_THAT(Run(*a, "insert", 10), IsOk());
  EXPECT_THAT(Size(*b), IsOkAndHolds(0));
  EXPECT_THAT(Fetch(*b, "find:0"), IsOkAndHolds(-1.0f));
  ASSERT_THAT(Run(*b, "insert", 20), IsOk());
  EXPECT_THAT(Fetch(*a, "find:0"), IsOkAndHolds(10.0f));
  EXPECT_THAT(Fetch(*b, "find:0"), IsOkAndHolds(20.0f));

  // The variable is the server's, shared by its node name as in TensorFlow.
  ASSERT_THAT(Run(*a, "assign", 5), IsOk());
  EXPECT_THAT(Fetch(*b, "read:0"), IsOkAndHolds(5.0f));

  // A session that closes takes its own resources with it; the other's stay.
  a.reset();
  EXPECT_THAT(Fetch(*b, "find:0"), IsOkAndHolds(20.0f));
  std::unique_ptr<Session> c = NewSession("", "");
  ASSERT_NE(c, nullptr);
  EXPECT_THAT(Size(*c), IsOkAndHolds(0));
  EXPECT_THAT(Fetch(*c, "read:0"), IsOkAndHolds(5.0f));
}

TEST_F(TwoSessionsTest, IteratorsAndTablesWithASharedNameAreShared) {
  std::unique_ptr<Session> a = NewSession("shared_it", "shared_table");
  std::unique_ptr<Session> b = NewSession("shared_it", "shared_table");
  ASSERT_NE(a, nullptr);
  ASSERT_NE(b, nullptr);
  ASSERT_THAT(Run(*a, "init", 1), IsOk());
  ASSERT_THAT(Run(*b, "init", 2), IsOk());  // restarts the one iterator on b's dataset
  EXPECT_THAT(Fetch(*a, "next:0"), IsOkAndHolds(2.0f));
  EXPECT_THAT(Fetch(*b, "next:0"),
              StatusIs(absl::StatusCode::kOutOfRange, HasSubstr("End of sequence")));
  ASSERT_THAT(Run(*a, "insert", 10), IsOk());
  EXPECT_THAT(Fetch(*b, "find:0"), IsOkAndHolds(10.0f));
  EXPECT_THAT(Size(*b), IsOkAndHolds(1));
}

}  // namespace
}  // namespace rill
