// Regression tests for what tests/fuzz/graph_modes_fuzzer found (issue 26), each run the user's
// way through a Session with the exact status or result; the crashing inputs are kept as
// tests/fuzz/corpus/graph_modes/regression_* seeds.
#include <memory>
#include <string>
#include <vector>

#include "core/status_macros.h"
#include "core/status_matchers.h"
#include "gmock/gmock.h"
#include "google/protobuf/text_format.h"
#include "gtest/gtest.h"
#include "session/session.h"

namespace rill {
namespace {

using ::testing::HasSubstr;

GraphDef Parse(const std::string& text) {
  GraphDef g;
  EXPECT_TRUE(google::protobuf::TextFormat::ParseFromString(text, &g)) << text;
  return g;
}

absl::StatusOr<std::vector<Tensor>> CreateAndRun(const GraphDef& g, const std::string& fetch) {
  RILL_ASSIGN_OR_RETURN(std::unique_ptr<Session> session, Session::New(SessionOptions()));
  RILL_RETURN_IF_ERROR(session->Create(g));
  std::vector<Tensor> out;
  RILL_RETURN_IF_ERROR(session->Run({}, {fetch}, {}, &out));
  return out;
}

// Fill of `dims` (int64) with 0.0f, then `op` (Shape or Size) with `out_type`.
GraphDef FillThen(const std::string& dims, const std::string& op, const std::string& out_type) {
  return Parse(R"pb(
                 node { name: "dims" op: "Const"
                        attr {
                          key: "dtype"
                          value { type: DT_INT64 }
                        }
                        attr { key: "value"
                               value { tensor { dtype: DT_INT64
                                                tensor_shape { dim { size: 2 } })pb" +
               dims + R"pb(}
                           }
      }
    }
    node {
      name: "v"
      op: "Const"
      attr {
        key: "dtype"
        value { type: DT_FLOAT }
      }
      attr {
        key: "value"
        value { tensor { dtype: DT_FLOAT tensor_shape {} float_val: 0 } }
      }
    }
    node {
      name: "fill"
      op: "Fill"
      input: "dims"
      input: "v"
      attr {
        key: "T"
        value { type: DT_FLOAT }
      }
      attr {
        key: "index_type"
        value { type: DT_INT64 }
      }
    }
    node {
      name: "meta"
      op: ")pb" +
               op + R"pb("
                         input: "fill"
                         attr {
                           key: "T"
                           value { type: DT_FLOAT }
                         }
                         attr { key: "out_type"
                                value { type:)pb" +
               out_type + R"pb(}
                               }
    }
  )pb");
}

// The optimizer folded Size of an inferred shape by multiplying its dims without an overflow
// check (UBSan: signed overflow; 4 * 2^62 wrapped to 0). A shape with more than 2^63 - 1
// elements cannot exist, so Fill fails at run time and Size must report that, not a number.
TEST(FuzzFindingsTest, SizeOfAShapeOverflowingInt64IsNotFolded) {
  EXPECT_THAT(
      CreateAndRun(FillThen("int64_val: 4 int64_val: 4611686018427387904", "Size", "DT_INT64"),
                   "meta"),
      StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("fill")));
}

// Folding Shape / Size with out_type int32 truncated values past 2^31 - 1 (the kernel refuses
// them); here Fill fails first, as it does without the optimizer.
TEST(FuzzFindingsTest, Int32ShapeAndSizeOfHugeShapesAreNotTruncated) {
  for (const char* op : {"Shape", "Size"}) {
    EXPECT_THAT(
        CreateAndRun(FillThen("int64_val: 4294967296 int64_val: 4294967296", op, "DT_INT32"),
                     "meta"),
        StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("fill")))
        << op;
  }
}

}  // namespace
}  // namespace rill
