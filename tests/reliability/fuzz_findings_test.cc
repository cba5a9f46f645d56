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

using ::testing::AllOf;
using ::testing::HasSubstr;
using ::testing::Not;

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

// Fill of `dims` (int64) with 0.0f, named "fill", then the nodes of `rest`.
GraphDef FillThen(const std::string& dims, const std::string& rest) {
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
  )pb" + rest);
}

// Fill of `dims`, then `op` (Shape or Size) with `out_type`, named "meta".
GraphDef FillThen(const std::string& dims, const std::string& op, const std::string& out_type) {
  return FillThen(dims, R"pb(
                              node { name: "meta" op: ")pb" +
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

// Reshape's shape function multiplied the input's inferred dims without an overflow check (UBSan:
// signed overflow; a plain build compared the wrapped count with the target's and refused the
// graph with a garbage count). The shape is left to the kernels: Fill fails at run time.
TEST(FuzzFindingsTest, ReshapeOfAShapeOverflowingInt64IsLeftToTheKernels) {
  for (const char* target : {"int_val: 2", "int_val: -1"}) {
    EXPECT_THAT(
        CreateAndRun(FillThen("int64_val: 4611686018427387904 int64_val: 2147483647",
                              std::string(R"pb(
                                node { name: "target" op: "Const"
                                       attr {
                                         key: "dtype"
                                         value { type: DT_INT32 }
                                       }
                                       attr { key: "value"
                                              value { tensor { dtype: DT_INT32
                                                               tensor_shape { dim { size: 1 } }
                              )pb") +
                                  target + R"pb(
                       }
                       }
                                          }
                                        }
                                        node {
                                          name: "reshape"
                                          op: "Reshape"
                                          input: "fill"
                                          input: "target"
                                          attr {
                                            key: "T"
                                            value { type: DT_FLOAT }
                                          }
                                        }
                                      )pb"),
                     "reshape"),
        StatusIs(absl::StatusCode::kInvalidArgument,
                 AllOf(HasSubstr("fill"), Not(HasSubstr("Cannot reshape")))))
        << target;
  }
}

// A Const with more values than its shape holds is refused by its kernel; the optimizer folded
// Shape of it from the declared shape, so the optimized graph returned [0] where the plain one
// failed. Const's shape function now leaves such a shape unknown.
TEST(FuzzFindingsTest, ShapeOfAConstItsKernelRefusesIsNotFolded) {
  EXPECT_THAT(CreateAndRun(Parse(R"pb(
                             node {
                               name: "c"
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
                                     tensor_shape { dim { size: 0 } }
                                     float_val: -3
                                   }
                                 }
                               }
                             }
                             node {
                               name: "shape"
                               op: "Shape"
                               input: "c"
                               attr {
                                 key: "T"
                                 value { type: DT_FLOAT }
                               }
                             }
                           )pb"),
                           "shape"),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("TensorProto has 1 values in float_val but its shape holds only 0 "
                                 "elements")));
}

// The every-op sweep (op_sweep.h): SparseFillEmptyRows sized per-row vectors by dense_shape's
// value with std::vector, so a row count of 2^40 aborted in std::bad_alloc.
TEST(FuzzFindingsTest, SparseFillEmptyRowsWithAHugeRowCountIsResourceExhausted) {
  const GraphDef g = Parse(R"pb(
    node {
      name: "i"
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
            tensor_shape {
              dim { size: 1 }
              dim { size: 2 }
            }
            int64_val: 0
            int64_val: 0
          }
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
        value {
          tensor {
            dtype: DT_FLOAT
            tensor_shape { dim { size: 1 } }
            float_val: 1
          }
        }
      }
    }
    node {
      name: "shape"
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
            tensor_shape { dim { size: 2 } }
            int64_val: 1099511627776
            int64_val: 2
          }
        }
      }
    }
    node {
      name: "d"
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
            float_val: 0
          }
        }
      }
    }
    node {
      name: "x"
      op: "SparseFillEmptyRows"
      input: "i"
      input: "v"
      input: "shape"
      input: "d"
      attr {
        key: "T"
        value { type: DT_FLOAT }
      }
    }
  )pb");
  EXPECT_THAT(CreateAndRun(g, "x:2"),
              StatusIs(absl::StatusCode::kResourceExhausted,
                       HasSubstr("OOM when allocating tensor with shape[1099511627776] and type "
                                 "int64")));
}

}  // namespace
}  // namespace rill
