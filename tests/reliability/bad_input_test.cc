// Bad input of every kind, each with the exact status code and a part of its message, and each
// followed by a successful run in the same session (issue 15's table): malformed and invalid
// graphs, unknown ops, missing inputs, cycles, wrong dtypes and shapes, missing devices, bad
// feeds and fetches, bad configs, kernels failing at run time, control flow, functions,
// checkpoints, and a run that never ends stopped by its timeout.
#include <limits>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "core/status_matchers.h"
#include "gmock/gmock.h"
#include "google/protobuf/text_format.h"
#include "graph/graph_file.h"
#include "gtest/gtest.h"
#include "session/session.h"

namespace rill {
namespace {

using ::testing::HasSubstr;

// x [?,2] -> y = x * w; a variable v with init; the good run feeds x and fetches y = [[4, 6]].
constexpr char kBase[] = R"pb(
  node {
    name: "x"
    op: "Placeholder"
    attr {
      key: "dtype"
      value { type: DT_FLOAT }
    }
    attr {
      key: "shape"
      value {
        shape {
          dim { size: -1 }
          dim { size: 2 }
        }
      }
    }
  }
  node {
    name: "w"
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
          tensor_shape {
            dim { size: 2 }
            dim { size: 2 }
          }
          float_val: 1
          float_val: 2
          float_val: 3
          float_val: 4
        }
      }
    }
  }
  node {
    name: "y"
    op: "MatMul"
    input: "x"
    input: "w"
    attr {
      key: "T"
      value { type: DT_FLOAT }
    }
  }
  node {
    name: "v"
    op: "VariableV2"
    attr {
      key: "dtype"
      value { type: DT_FLOAT }
    }
    attr {
      key: "shape"
      value { shape { dim { size: 2 } } }
    }
  }
  node {
    name: "z2"
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
          tensor_shape { dim { size: 2 } }
          float_val: 0
        }
      }
    }
  }
  node {
    name: "init"
    op: "Assign"
    input: "v"
    input: "z2"
    attr {
      key: "T"
      value { type: DT_FLOAT }
    }
  }
  node {
    name: "read"
    op: "Identity"
    input: "v"
    attr {
      key: "T"
      value { type: DT_FLOAT }
    }
  }
  node {
    name: "u"
    op: "Placeholder"
    attr {
      key: "dtype"
      value { type: DT_FLOAT }
    }
  }
  node {
    name: "i"
    op: "Placeholder"
    attr {
      key: "dtype"
      value { type: DT_INT32 }
    }
  }
)pb";

GraphDef Parse(const std::string& text) {
  GraphDef g;
  EXPECT_TRUE(google::protobuf::TextFormat::ParseFromString(text, &g)) << text;
  return g;
}

Tensor X() { return Tensor::FromVector<float>({1, 1}, TensorShape({1, 2})); }

// The good run: y for x = [[1, 1]] is [[4, 6]].
void ExpectGoodRun(Session& s) {
  std::vector<Tensor> out;
  ASSERT_THAT(s.Run({{"x:0", X()}}, {"y:0"}, {}, &out), IsOk());
  EXPECT_EQ(out[0].flat<float>()[0], 4.f);
  EXPECT_EQ(out[0].flat<float>()[1], 6.f);
}

struct Case {
  std::string name;
  std::string extra;  // nodes added to kBase
  bool create_fails;  // else Create succeeds and the run fails
  std::vector<std::pair<std::string, Tensor>> feeds;
  std::vector<std::string> fetches;
  std::vector<std::string> targets;
  absl::StatusCode code;
  std::string message;
};

std::string Node(const std::string& body) { return absl::StrCat("node { ", body, " }\n"); }
const std::string kF = "attr { key: 'T' value { type: DT_FLOAT } }";
const std::string kI = "attr { key: 'T' value { type: DT_INT32 } }";

std::string IntConst(const std::string& name, const std::string& values, const std::string& shape) {
  return Node(absl::StrCat("name: '", name,
                           "' op: 'Const' attr { key: 'dtype' value { type: "
                           "DT_INT32 } } attr { key: 'value' value { tensor { dtype: DT_INT32 "
                           "tensor_shape { ",
                           shape, " } ", values, " } } }"));
}

std::string FloatConst(const std::string& name, const std::string& value) {
  return Node(absl::StrCat("name: '", name,
                           "' op: 'Const' attr { key: 'dtype' value { type: DT_FLOAT } } attr { "
                           "key: 'value' value { tensor { dtype: DT_FLOAT tensor_shape { } "
                           "float_val: ",
                           value, " } } }"));
}

std::vector<Case> Cases() {
  using C = absl::StatusCode;
  const Tensor i0 = Tensor::Scalar<int32_t>(0);
  std::vector<Case> c = {
      // --- invalid graphs (Create fails; Create again with the good graph works) ---
      {"duplicate_name",
       Node("name: 'y' op: 'NoOp'"),
       true,
       {},
       {},
       {},
       C::kInvalidArgument,
       "Node 'y' is not unique"},
      {"missing_input",
       Node("name: 'bad' op: 'Neg' input: 'nope' " + kF),
       true,
       {},
       {},
       {},
       C::kInvalidArgument,
       "Node 'bad': Unknown input node 'nope'"},
      {"bad_output_index",
       Node("name: 'bad' op: 'Neg' input: 'y:3' " + kF),
       true,
       {},
       {},
       {},
       C::kInvalidArgument,
       "Connecting to invalid output 3 of source node y which has 1 outputs"},
      {"cycle",
       Node("name: 'c1' op: 'Neg' input: 'c2' " + kF) +
           Node("name: 'c2' op: 'Neg' input: 'c1' " + kF),
       true,
       {},
       {},
       {},
       C::kInvalidArgument,
       "Graph has a cycle that does not pass through NextIteration: c1 -> c2 -> c1"},
      {"edge_dtype_mismatch",
       IntConst("ic", "int_val: 1", "dim { size: 2 } dim { size: 2 }") +
           Node("name: 'bad' op: 'MatMul' input: 'x' input: 'ic' " + kF),
       true,
       {},
       {},
       {},
       C::kInvalidArgument,
       "Input 1 of node bad was passed int32 from ic:0 incompatible with expected float"},
      {"attr_not_allowed",
       Node("name: 'bad' op: 'MatMul' input: 'x' input: 'w' attr { key: 'T' value { type: "
            "DT_STRING } }"),
       true,
       {},
       {},
       {},
       C::kInvalidArgument,
       "Value for attr 'T' of string is not in the list"},
      {"missing_attr",
       Node("name: 'bad' op: 'Const'"),
       true,
       {},
       {},
       {},
       C::kInvalidArgument,
       "missing attr"},
      {"wrong_input_count",
       Node("name: 'bad' op: 'MatMul' input: 'x' " + kF),
       true,
       {},
       {},
       {},
       C::kInvalidArgument,
       "bad"},
      {"invalid_node_name",
       Node("name: 'bad name!' op: 'NoOp'"),
       true,
       {},
       {},
       {},
       C::kInvalidArgument,
       "bad name!"},
      {"malformed_device",
       Node("name: 'bad' op: 'NoOp' device: '/device:XPU:one'"),
       true,
       {},
       {},
       {},
       C::kInvalidArgument,
       "Malformed device specification '/device:XPU:one'"},
      {"missing_device",
       Node("name: 'bad' op: 'Neg' input: 'y' device: '/device:CPU:7' " + kF),
       true,
       {},
       {},
       {},
       C::kInvalidArgument,
       "Cannot assign a device for operation bad"},
      {"missing_gpu",
       Node("name: 'bad' op: 'Neg' input: 'y' device: '/gpu:2' " + kF),
       true,
       {},
       {},
       {},
       C::kInvalidArgument,
       "Cannot assign a device for operation bad"},
      {"known_shapes_contradict",
       IntConst("s23", "int_val: 1", "dim { size: 2 } dim { size: 3 }") +
           Node("name: 'bad' op: 'MatMul' input: 's23' input: 's23' " + kI),
       true,
       {},
       {},
       {},
       C::kInvalidArgument,
       "bad"},
      {"unknown_function",
       Node("name: 'bad' op: 'PartitionedCall' attr { key: 'f' value { func { name: 'nope' } } } "
            "attr { key: 'Tin' value { list {} } } attr { key: 'Tout' value { list {} } }"),
       true,
       {},
       {},
       {},
       C::kInvalidArgument,
       "function 'nope' is not in the graph's function library"},
      {"if_without_branches",
       Node("name: 'bad' op: 'If' input: 'i' attr { key: 'Tcond' value { type: DT_INT32 } }"),
       true,
       {},
       {},
       {},
       C::kInvalidArgument,
       "has no function attr 'then_branch'"},
      {"control_input_first",
       Node("name: 'bad' op: 'Neg' input: '^w' input: 'y' " + kF),
       true,
       {},
       {},
       {},
       C::kInvalidArgument,
       "bad"},
      // --- bad runs (Create succeeds; the run fails; the next good run works) ---
      {"unknown_op",
       Node("name: 'bad' op: 'Bogus'"),
       false,
       {},
       {},
       {"bad"},
       C::kNotFound,
       "Op type not registered 'Bogus'"},
      {"fetch_unknown",
       "",
       false,
       {{"x:0", X()}},
       {"nope"},
       {},
       C::kNotFound,
       "FetchOutputs node nope:0: not found"},
      {"fetch_bad_index",
       "",
       false,
       {{"x:0", X()}},
       {"y:5"},
       {},
       C::kInvalidArgument,
       "FetchOutputs y:5: output index too large, must be < 1"},
      {"feed_unknown",
       "",
       false,
       {{"nope:0", X()}},
       {"y"},
       {},
       C::kNotFound,
       "FeedInputs: unable to find feed output nope:0"},
      {"feed_bad_index",
       "",
       false,
       {{"x:3", X()}},
       {"y"},
       {},
       C::kInvalidArgument,
       "FeedInputs: x:3 should have output index < 1"},
      {"fed_twice",
       "",
       false,
       {{"x:0", X()}, {"x", X()}},
       {"y"},
       {},
       C::kInvalidArgument,
       "Endpoint \"x:0\" fed more than once."},
      {"fed_and_fetched",
       "",
       false,
       {{"x:0", X()}},
       {"x:0"},
       {},
       C::kInvalidArgument,
       "x:0 is both fed and fetched."},
      {"nothing_to_run",
       "",
       false,
       {},
       {},
       {},
       C::kInvalidArgument,
       "Must specify at least one target to fetch or execute."},
      {"target_unknown",
       "",
       false,
       {},
       {},
       {"nope"},
       C::kNotFound,
       "PruneForTargets: Some target nodes not found: nope "},
      {"fetch_no_output",
       Node("name: 'noop' op: 'NoOp'"),
       false,
       {},
       {"noop"},
       {},
       C::kInvalidArgument,
       "Tried to fetch data for 'noop:0', which produces no output."},
      {"feed_dtype",
       "",
       false,
       {{"x:0", Tensor::FromVector<int32_t>({1, 1}, TensorShape({1, 2}))}},
       {"y"},
       {},
       C::kInvalidArgument,
       "Expects arg[0] to be float but int32 is provided"},
      {"feed_shape",
       "",
       false,
       {{"x:0", Tensor::FromVector<float>({1, 1, 1}, TensorShape({1, 3}))}},
       {"y"},
       {},
       C::kInvalidArgument,
       "which has shape [?,2]"},
      {"unfed_placeholder",
       "",
       false,
       {},
       {"y"},
       {},
       C::kInvalidArgument,
       "You must feed a value for placeholder tensor 'x' with dtype float and shape [?,2]"},
      {"runtime_shape",
       Node("name: 'bad' op: 'MatMul' input: 'u' input: 'w' " + kF),
       false,
       {{"u:0", Tensor::FromVector<float>({1, 2, 3}, TensorShape({1, 3}))}},
       {"bad"},
       {},
       C::kInvalidArgument,
       "Matrix size-incompatible: In[0]: [1,3], In[1]: [2,2]"},
      {"uninitialized_variable",
       "",
       false,
       {},
       {"read"},
       {},
       C::kFailedPrecondition,
       "Attempting to use uninitialized value v"},
      // A constant of another shape: Assign's shape function refuses the graph (TensorFlow's
      // MergeBothInputsShapeFn).
      {"assign_shape",
       Node("name: 'z3' op: 'Const' attr { key: 'dtype' value { type: DT_FLOAT } } attr { key: "
            "'value' value { tensor { dtype: DT_FLOAT tensor_shape { dim { size: 3 } } float_val: "
            "0 } } }") +
           Node("name: 'bad' op: 'Assign' input: 'v' input: 'z3' input: '^init' " + kF),
       true,
       {},
       {},
       {},
       C::kInvalidArgument,
       "Dimensions must be equal, but are 2 and 3 for node 'bad'"},
      // TensorFlow's AssignVariableOp shape function: the VarHandleOp's shape attr (through
      // Identity too) against the value's static shape, whatever validate_shape says.
      {"assign_variable_static_shape",
       Node("name: 'rv' op: 'VarHandleOp' attr { key: 'dtype' value { type: DT_FLOAT } } attr { "
            "key: 'shape' value { shape { dim { size: 2 } } } }") +
           Node("name: 'z3' op: 'Const' attr { key: 'dtype' value { type: DT_FLOAT } } attr { key: "
                "'value' value { tensor { dtype: DT_FLOAT tensor_shape { dim { size: 3 } } "
                "float_val: "
                "0 } } }") +
           Node("name: 'bad' op: 'AssignVariableOp' input: 'rv' input: 'z3' attr { key: 'dtype' "
                "value { type: DT_FLOAT } }"),
       true,
       {},
       {},
       {},
       C::kInvalidArgument,
       "Dimension 0 in both shapes must be equal, but are 2 and 3. Shapes are [2] and [3]. for "
       "node 'bad' (op AssignVariableOp)"},
      {"assign_variable_through_identity",
       Node("name: 'rv' op: 'VarHandleOp' attr { key: 'dtype' value { type: DT_FLOAT } } attr { "
            "key: 'shape' value { shape { dim { size: 2 } } } }") +
           Node("name: 'z3' op: 'Const' attr { key: 'dtype' value { type: DT_FLOAT } } attr { key: "
                "'value' value { tensor { dtype: DT_FLOAT tensor_shape { dim { size: 3 } } "
                "float_val: "
                "0 } } }") +
           Node("name: 'rvi' op: 'Identity' input: 'rv' attr { key: 'T' value { type: "
                "DT_RESOURCE } }") +
           Node("name: 'bad' op: 'AssignAddVariableOp' input: 'rvi' input: 'z3' attr { key: "
                "'dtype' value { type: DT_FLOAT } }"),
       true,
       {},
       {},
       {},
       C::kInvalidArgument,
       "Dimension 0 in both shapes must be equal, but are 2 and 3. Shapes are [2] and [3]. for "
       "node 'bad' (op AssignAddVariableOp)"},
      {"assign_variable_dtype",
       Node("name: 'rv' op: 'VarHandleOp' attr { key: 'dtype' value { type: DT_FLOAT } } attr { "
            "key: 'shape' value { shape { dim { size: 2 } } } }") +
           Node("name: 'bad' op: 'AssignVariableOp' input: 'rv' input: 'i' attr { key: 'dtype' "
                "value { type: DT_INT32 } }"),
       true,
       {},
       {},
       {},
       C::kInvalidArgument,
       "Trying to read variable with wrong dtype. Expected float got int32 for node 'bad'"},
      // A fed value of another shape: the kernel refuses the run.
      {"assign_fed_shape",
       Node("name: 'z' op: 'Placeholder' attr { key: 'dtype' value { type: DT_FLOAT } }") +
           Node("name: 'bad' op: 'Assign' input: 'v' input: 'z' input: '^init' " + kF),
       false,
       {{"z:0", Tensor::FromVector<float>({0, 0, 0}, TensorShape({3}))}},
       {},
       {"bad"},
       C::kInvalidArgument,
       "Assign requires shapes of both tensors to match. lhs shape= [2] rhs shape= [3]"},
      {"integer_division_by_zero",
       Node("name: 'bad' op: 'FloorDiv' input: 'i' input: 'i' " + kI),
       false,
       {{"i:0", i0}},
       {"bad"},
       {},
       C::kInvalidArgument,
       "Integer division by zero"},
      {"check_numerics",
       Node("name: 'bad' op: 'CheckNumerics' input: 'u' " + kF +
            " attr { key: 'message' value { s: 'nan found' } }"),
       false,
       {{"u:0", Tensor::Scalar<float>(std::nanf(""))}},
       {"bad"},
       {},
       C::kInvalidArgument,
       "nan found : Tensor had NaN values"},
      {"gather_out_of_range",
       IntConst("idx", "int_val: 5", "dim { size: 1 }") +
           Node("name: 'bad' op: 'Gather' input: 'w' input: 'idx' attr { key: 'Tparams' value { "
                "type: DT_FLOAT } } attr { key: 'Tindices' value { type: DT_INT32 } }"),
       false,
       {},
       {"bad"},
       {},
       C::kInvalidArgument,
       "indices[0] = 5 is not in [0, 2)"},
      {"reshape_size",
       IntConst("shp", "int_val: 3 int_val: 3", "dim { size: 2 }") +
           Node("name: 'bad' op: 'Reshape' input: 'w' input: 'shp' " + kF +
                " attr { key: 'Tshape' value { type: DT_INT32 } }"),
       true,  // both sizes known: TensorFlow's shape function refuses the graph
       {},
       {"bad"},
       {},
       C::kInvalidArgument,
       "node 'bad' (op Reshape): Cannot reshape a tensor with 4 elements to shape [3,3] (9 "
       "elements)"},
      {"const_bad_content",
       Node("name: 'bad' op: 'Const' attr { key: 'dtype' value { type: DT_FLOAT } } attr { key: "
            "'value' value { tensor { dtype: DT_FLOAT tensor_shape { dim { size: 2 } } "
            "tensor_content: 'abc' } } }"),
       false,
       {},
       {"bad"},
       {},
       C::kInvalidArgument,
       "tensor_content has 3 bytes"},
      {"restore_missing_checkpoint",
       Node("name: 'prefix' op: 'Const' attr { key: 'dtype' value { type: DT_STRING } } attr { "
            "key: 'value' value { tensor { dtype: DT_STRING tensor_shape {} string_val: "
            "'/nonexistent/ckpt' } } }") +
           Node("name: 'names' op: 'Const' attr { key: 'dtype' value { type: DT_STRING } } attr { "
                "key: 'value' value { tensor { dtype: DT_STRING tensor_shape { dim { size: 1 } } "
                "string_val: 'v' } } }") +
           Node("name: 'slices' op: 'Const' attr { key: 'dtype' value { type: DT_STRING } } attr "
                "{ key: 'value' value { tensor { dtype: DT_STRING tensor_shape { dim { size: 1 } } "
                "string_val: '' } } }") +
           Node("name: 'bad' op: 'RestoreV2' input: 'prefix' input: 'names' input: 'slices' attr "
                "{ key: 'dtypes' value { list { type: DT_FLOAT } } }"),
       false,
       {},
       {"bad"},
       {},
       C::kNotFound,
       "Failed to find any matching files for /nonexistent/ckpt"},
      {"exit_outside_loop",
       Node("name: 'bad' op: 'Exit' input: 'y' " + kF),
       false,
       {{"x:0", X()}},
       {"bad"},
       {},
       C::kInvalidArgument,
       "Exit node bad is not inside a while loop"},
      {"dead_fetch",
       Node("name: 'p' op: 'Const' attr { key: 'dtype' value { type: DT_BOOL } } attr { key: "
            "'value' value { tensor { dtype: DT_BOOL tensor_shape {} bool_val: false } } }") +
           Node("name: 'sw' op: 'Switch' input: 'y' input: 'p' " + kF),
       false,
       {{"x:0", X()}},
       {"sw:1"},
       {},
       C::kInvalidArgument,
       "Retval[0] does not have value"},
      {"switch_pred_not_scalar",
       Node("name: 'pv' op: 'Placeholder' attr { key: 'dtype' value { type: DT_BOOL } }") +
           Node("name: 'sw' op: 'Switch' input: 'y' input: 'pv' " + kF),
       false,
       {{"x:0", X()}, {"pv:0", Tensor::FromVector<bool>({true, false}, TensorShape({2}))}},
       {"sw:1"},
       {},
       C::kInvalidArgument,
       "The second input must be a scalar"},
      {"to_bool_half",
       Node("name: 'hp' op: 'Placeholder' attr { key: 'dtype' value { type: DT_HALF } }") +
           Node("name: 'bad' op: 'ToBool' input: 'hp' attr { key: 'T' value { type: DT_HALF } }"),
       false,
       {{"hp:0", Tensor(DT_HALF, TensorShape())}},
       {"bad"},
       {},
       C::kInvalidArgument,
       "half cannot be converted to a boolean"},
      {"list_index",
       IntConst("es", "int_val: 2", "dim { size: 1 }") + IntConst("n1", "int_val: 1", "") +
           Node("name: 'l' op: 'TensorListReserve' input: 'es' input: 'n1' attr { key: "
                "'element_dtype' value { type: DT_FLOAT } } attr { key: 'shape_type' value { "
                "type: DT_INT32 } }") +
           Node("name: 'bad' op: 'TensorListGetItem' input: 'l' input: 'i' input: 'es' attr { "
                "key: 'element_dtype' value { type: DT_FLOAT } }"),
       false,
       {{"i:0", Tensor::Scalar<int32_t>(4)}},
       {"bad"},
       {},
       C::kInvalidArgument,
       "Trying to access element 4 in a list with 1 elements."},
      {"assert_fails",
       Node("name: 'bp' op: 'Placeholder' attr { key: 'dtype' value { type: DT_BOOL } }") +
           Node("name: 'bad' op: 'Assert' input: 'bp' input: 'y' attr { key: 'T' value { list { "
                "type: DT_FLOAT } } }"),
       false,
       {{"x:0", X()}, {"bp:0", Tensor::Scalar<bool>(false)}},
       {},
       {"bad"},
       C::kInvalidArgument,
       "assertion failed"},
      {"stack_pop_empty",
       IntConst("m", "int_val: -1", "") +
           Node("name: 'st' op: 'StackV2' input: 'm' attr { key: 'elem_type' value { type: "
                "DT_FLOAT } } attr { key: 'stack_name' value { s: 's' } }") +
           Node("name: 'bad' op: 'StackPopV2' input: 'st' attr { key: 'elem_type' value { type: "
                "DT_FLOAT } }"),
       false,
       {},
       {"bad"},
       {},
       C::kInvalidArgument,
       "is empty when calling Pop()."},
      {"tensor_array_read_out_of_range",
       IntConst("one", "int_val: 1", "") + IntConst("three", "int_val: 3", "") +
           Node("name: 'ta' op: 'TensorArrayV3' input: 'one' attr { key: 'dtype' value { type: "
                "DT_FLOAT } }") +
           Node("name: 'bad' op: 'TensorArrayReadV3' input: 'ta' input: 'three' input: 'ta:1' "
                "attr { key: 'dtype' value { type: DT_FLOAT } }"),
       false,
       {},
       {"bad"},
       {},
       C::kInvalidArgument,
       "Tried to read from index 3 but array size is: 1"},
      {"recursive_function",
       "library { function { signature { name: 'again' input_arg { name: 'a' type: DT_FLOAT } "
       "output_arg { name: 'b' type: DT_FLOAT } } node_def { name: 'r' op: 'again' input: 'a' } "
       "ret { key: 'b' value: 'r:b:0' } } }\n" +
           Node("name: 'bad' op: 'again' input: 'y'"),
       true,
       {},
       {},
       {},
       C::kInvalidArgument,
       "function calls nest more than 64 deep"},
      {"select_batches",
       Node("name: 'cv' op: 'Placeholder' attr { key: 'dtype' value { type: DT_BOOL } }") +
           Node("name: 'bad' op: 'Select' input: 'cv' input: 'w' input: 'w' " + kF),
       false,
       {{"cv:0", Tensor::FromVector<bool>({true, false, true}, TensorShape({3}))}},
       {"bad"},
       {},
       C::kInvalidArgument,
       "Number of batches of 'then' must match size of 'cond', but saw: 2 vs. 3"},
      {"matmul_not_matrix",
       Node("name: 'bad' op: 'MatMul' input: 'u' input: 'w' " + kF),
       false,
       {{"u:0", Tensor::FromVector<float>({1, 2, 3}, TensorShape({3}))}},
       {"bad"},
       {},
       C::kInvalidArgument,
       "In[0] is not a matrix. Instead it has shape [3]"},
      // --- issue 26: attrs never reach a printf format; sizes from values are checked ---
      {"as_string_fill_is_not_a_format",
       Node("name: 'bad' op: 'AsString' input: 'x' " + kF +
            " attr { key: 'width' value { i: 5 } } attr { key: 'fill' value { s: 'n' } }"),
       false,
       {{"x:0", X()}},
       {"bad"},
       {},
       C::kInvalidArgument,
       "Fill argument not supported: \"n\""},
      {"range_infinite_limit",
       FloatConst("f0", "0") + FloatConst("f1", "1") +
           Node("name: 'bad' op: 'Range' input: 'f0' input: 'u' input: 'f1' attr { key: 'Tidx' "
                "value { type: DT_FLOAT } }"),
       false,
       {{"u:0", Tensor::Scalar<float>(std::numeric_limits<float>::infinity())}},
       {"bad"},
       {},
       C::kInvalidArgument,
       "Requires ((limit - start) / delta) <= 9223372036854775807"},
      {"range_nan_delta",
       FloatConst("f0", "0") + FloatConst("f1", "1") +
           Node("name: 'bad' op: 'Range' input: 'f0' input: 'f1' input: 'u' attr { key: 'Tidx' "
                "value { type: DT_FLOAT } }"),
       false,
       {{"u:0", Tensor::Scalar<float>(std::numeric_limits<float>::quiet_NaN())}},
       {"bad"},
       {},
       C::kInvalidArgument,
       "Requires start >= limit when delta < 0: 0/1"},
      // Constant multiples: the shape function refuses the graph, as TensorFlow's does.
      {"tile_multiples_overflow",
       Node("name: 'm' op: 'Const' attr { key: 'dtype' value { type: DT_INT64 } } attr { key: "
            "'value' value { tensor { dtype: DT_INT64 tensor_shape { dim { size: 2 } } "
            "int64_val: 1 int64_val: 4611686018427387904 } } }") +
           Node("name: 'bad' op: 'Tile' input: 'x' input: 'm' " + kF +
                " attr { key: 'Tmultiples' value { type: DT_INT64 } }"),
       true,
       {},
       {},
       {},
       C::kInvalidArgument,
       "Negative dimension size caused by overflow when multiplying 2 and 4611686018427387904"},
      // Fed multiples: the kernel refuses the run.
      {"tile_fed_multiples_overflow",
       Node("name: 'm' op: 'Placeholder' attr { key: 'dtype' value { type: DT_INT64 } }") +
           Node("name: 'bad' op: 'Tile' input: 'x' input: 'm' " + kF +
                " attr { key: 'Tmultiples' value { type: DT_INT64 } }"),
       false,
       {{"x:0", X()},
        {"m:0", Tensor::FromVector<int64_t>({1, 4611686018427387904}, TensorShape({2}))}},
       {"bad"},
       {},
       C::kInvalidArgument,
       "Encountered overflow when multiplying dimension 1 of size 2 by multiples[1] = "
       "4611686018427387904"},
      // A rank above TensorFlow's 254 (a Fill of 300 ones made a rank-300 tensor and exited 0).
      {"fill_rank_300",
       Node("name: 'd' op: 'Placeholder' attr { key: 'dtype' value { type: DT_INT32 } }") +
           FloatConst("fill_value", "1") +
           Node("name: 'bad' op: 'Fill' input: 'd' input: 'fill_value' " + kF +
                " attr { key: 'index_type' value { type: DT_INT32 } }"),
       false,
       {{"x:0", X()},
        {"d:0", Tensor::FromVector<int32_t>(std::vector<int32_t>(300, 1), TensorShape({300}))}},
       {"bad"},
       {},
       C::kInvalidArgument,
       "Too many dimensions: a shape of rank 300 is past TensorFlow's limit of 254"},
  };
  return c;
}

class BadInputTest : public ::testing::TestWithParam<Case> {};

TEST_P(BadInputTest, ExactErrorThenTheSessionStillRuns) {
  const Case& c = GetParam();
  auto s = Session::New(SessionOptions());
  ASSERT_THAT(s.status(), IsOk());
  Session& session = **s;
  const GraphDef bad = Parse(std::string(kBase) + c.extra);
  std::vector<Tensor> out;
  if (c.create_fails) {
    EXPECT_THAT(session.Create(bad), StatusIs(c.code, HasSubstr(c.message)));
    ASSERT_THAT(session.Create(Parse(kBase)), IsOk());
  } else {
    ASSERT_THAT(session.Create(bad), IsOk());
    EXPECT_THAT(session.Run(c.feeds, c.fetches, c.targets, &out),
                StatusIs(c.code, HasSubstr(c.message)));
  }
  ExpectGoodRun(session);
}

TEST(BadInputTableTest, CoversAtLeastFiftyCases) {
  // The table plus the config, proto and timeout tests below.
  EXPECT_GE(Cases().size() + 4, 50u);
}

INSTANTIATE_TEST_SUITE_P(Table, BadInputTest, ::testing::ValuesIn(Cases()),
                         [](const ::testing::TestParamInfo<Case>& info) {
                           return info.param.name;
                         });

TEST(BadConfigTest, NoCpuIsTensorFlowsError) {
  SessionOptions options;
  options.config.mutable_device_count()->insert({"CPU", 0});
  EXPECT_THAT(
      Session::New(options).status(),
      StatusIs(absl::StatusCode::kNotFound, "No CPU devices are available in this process"));
}

// Absurd thread and device counts are refused up front: Session::New would otherwise spend many
// seconds creating and joining threads (tests/fuzz:config_proto_fuzzer generates such configs).
TEST(BadConfigTest, AbsurdThreadAndDeviceCountsAreRefused) {
  SessionOptions options;
  options.config.set_inter_op_parallelism_threads(1000000);
  EXPECT_THAT(Session::New(options).status(),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("ConfigProto.inter_op_parallelism_threads is 1000000; Rill "
                                 "allows at most 1024 threads per pool")));
  options.config.set_inter_op_parallelism_threads(0);
  options.config.set_intra_op_parallelism_threads(5000);
  EXPECT_THAT(Session::New(options).status(),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("ConfigProto.intra_op_parallelism_threads is 5000")));
  options.config.set_intra_op_parallelism_threads(2);
  (*options.config.mutable_device_count())["CPU"] = 2000000000;
  EXPECT_THAT(Session::New(options).status(),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       "ConfigProto.device_count[\"CPU\"] is 2000000000; Rill allows at most "
                       "1024 CPU devices per session"));
  (*options.config.mutable_device_count())["CPU"] = 3;
  RILL_ASSERT_OK_AND_ASSIGN(std::unique_ptr<Session> session, Session::New(options));
  EXPECT_EQ(session->ListDevices().size(), 3u);
}

TEST(BadProtoTest, GarbageBytesAreNotAGraph) {
  EXPECT_THAT(ParseGraphDefBytes(std::string("\x0a\xff\xff\xff\x0f junk", 10), "junk.pb"),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("junk.pb is neither a binary nor a text GraphDef")));
  EXPECT_THAT(ParseGraphDefBytes("node { name: 'a' op: ", "cut.pbtxt"),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("cut.pbtxt is neither a binary nor a text GraphDef")));
}

TEST(TimeoutTest, ALoopThatNeverEndsStopsAtTheTimeoutAndTheSessionStaysUsable) {
  // while true: i = i + 1 (the condition is a constant true).
  const std::string loop = std::string(kBase) + R"pb(
    node {
      name: "zero"
      op: "Const"
      attr {
        key: "dtype"
        value { type: DT_INT32 }
      }
      attr {
        key: "value"
        value {
          tensor {
            dtype: DT_INT32
            tensor_shape {}
            int_val: 0
          }
        }
      }
    }
    node {
      name: "enter"
      op: "Enter"
      input: "zero"
      attr {
        key: "T"
        value { type: DT_INT32 }
      }
      attr {
        key: "frame_name"
        value { s: "forever" }
      }
    }
    node {
      name: "merge"
      op: "Merge"
      input: "enter"
      input: "next"
      attr {
        key: "T"
        value { type: DT_INT32 }
      }
      attr {
        key: "N"
        value { i: 2 }
      }
    }
    node {
      name: "yes"
      op: "Const"
      input: "^merge"
      attr {
        key: "dtype"
        value { type: DT_BOOL }
      }
      attr {
        key: "value"
        value {
          tensor {
            dtype: DT_BOOL
            tensor_shape {}
            bool_val: true
          }
        }
      }
    }
    node { name: "cond" op: "LoopCond" input: "yes" }
    node {
      name: "switch"
      op: "Switch"
      input: "merge"
      input: "cond"
      attr {
        key: "T"
        value { type: DT_INT32 }
      }
    }
    node {
      name: "body"
      op: "Identity"
      input: "switch:1"
      attr {
        key: "T"
        value { type: DT_INT32 }
      }
    }
    node {
      name: "next"
      op: "NextIteration"
      input: "body"
      attr {
        key: "T"
        value { type: DT_INT32 }
      }
    }
    node {
      name: "exit"
      op: "Exit"
      input: "switch"
      attr {
        key: "T"
        value { type: DT_INT32 }
      }
    }
  )pb";
  SessionOptions options;
  options.config.set_operation_timeout_in_ms(200);
  auto s = Session::New(options);
  ASSERT_THAT(s.status(), IsOk());
  ASSERT_THAT((*s)->Create(Parse(loop)), IsOk());
  std::vector<Tensor> out;
  EXPECT_THAT((*s)->Run({}, {"exit:0"}, {}, &out),
              StatusIs(absl::StatusCode::kDeadlineExceeded, "Timed out waiting for notification"));
  ExpectGoodRun(**s);
}

}  // namespace
}  // namespace rill
