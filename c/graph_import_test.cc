// TF_GraphImportGraphDef with its options (prefix, uniquified names, input mappings, control
// dependencies, default device) and results.
#include <string>

#include "c/c_test_util.h"
#include "gtest/gtest.h"
#include "tensorflow/c/c_api.h"

namespace {

using rill_c_test::Status;

constexpr char kGraph[] = R"pb(
  node {
    name: "x"
    op: "Placeholder"
    attr {
      key: "dtype"
      value { type: DT_FLOAT }
    }
  }
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
          tensor_shape {}
          float_val: 3
        }
      }
    }
  }
  node {
    name: "sum"
    op: "Add"
    input: "x"
    input: "c"
    attr {
      key: "T"
      value { type: DT_FLOAT }
    }
  }
)pb";

TEST(Import, PlainImportAddsTheOperations) {
  TF_Graph* g = TF_NewGraph();
  TF_Buffer* def = rill_c_test::GraphDefBuffer(kGraph);
  Status s;
  TF_GraphImportGraphDef(g, def, nullptr, s);
  ASSERT_EQ(s.code(), TF_OK) << s.message();
  TF_Operation* sum = TF_GraphOperationByName(g, "sum");
  ASSERT_NE(sum, nullptr);
  EXPECT_STREQ(TF_OperationOpType(sum), "Add");
  TF_Output in = TF_OperationInput({sum, 1});
  EXPECT_STREQ(TF_OperationName(in.oper), "c");
  EXPECT_EQ(TF_GraphGetTensorNumDims(g, {sum, 0}, s), -1);  // x has no shape

  // The same names again: refused, graph unchanged.
  TF_GraphImportGraphDef(g, def, nullptr, s);
  EXPECT_EQ(s.code(), TF_INVALID_ARGUMENT);
  EXPECT_EQ(s.message(), "Node name 'x' already exists in the Graph");
  size_t pos = 0;
  int count = 0;
  while (TF_GraphNextOperation(g, &pos) != nullptr) ++count;
  EXPECT_EQ(count, 3);
  TF_DeleteBuffer(def);
  TF_DeleteGraph(g);
}

// An existing operation with a name the importer refuses (TF_FinishOperation takes any name, as
// TensorFlow's) does not fail a later import: only the imported names are checked, as TensorFlow
// does. An imported node may read it through an input mapping.
TEST(Import, ExistingNamesTheImporterRefusesDoNotFailAnImport) {
  TF_Graph* g = TF_NewGraph();
  TF_Tensor* two = rill_c_test::FloatTensor({}, {2});
  TF_Operation* odd = rill_c_test::Const(g, "const/0/[1 2]", two);
  TF_DeleteTensor(two);
  ASSERT_NE(odd, nullptr);
  TF_Buffer* def = rill_c_test::GraphDefBuffer(kGraph);
  TF_ImportGraphDefOptions* opts = TF_NewImportGraphDefOptions();
  TF_ImportGraphDefOptionsAddInputMapping(opts, "x", 0, {odd, 0});
  Status s;
  TF_GraphImportGraphDef(g, def, opts, s);
  ASSERT_EQ(s.code(), TF_OK) << s.message();
  TF_Operation* sum = TF_GraphOperationByName(g, "sum");
  ASSERT_NE(sum, nullptr);
  EXPECT_EQ(TF_OperationInput({sum, 0}).oper, odd);
  EXPECT_EQ(TF_GraphOperationByName(g, "const/0/[1 2]"), odd);
  TF_DeleteImportGraphDefOptions(opts);
  TF_DeleteBuffer(def);
  TF_DeleteGraph(g);
}

// A buffer that claims bytes it does not have (null data with a length, a length past int) is
// "Invalid GraphDef", not protobuf's CHECK failure.
TEST(Import, BufferWithNullDataOrHugeLengthIsInvalid) {
  TF_Graph* g = TF_NewGraph();
  TF_Buffer* def = TF_NewBuffer();
  def->data = nullptr;
  def->length = 100;
  Status s;
  TF_GraphImportGraphDef(g, def, nullptr, s);
  EXPECT_EQ(s.code(), TF_INVALID_ARGUMENT);
  EXPECT_EQ(s.message(), "Invalid GraphDef");
  static const char kByte[] = "";
  def->data = kByte;
  def->length = size_t{1} << 40;
  TF_GraphImportGraphDef(g, def, nullptr, s);
  EXPECT_EQ(s.code(), TF_INVALID_ARGUMENT);
  def->data = nullptr;
  def->length = 0;  // no bytes: an empty GraphDef
  TF_GraphImportGraphDef(g, def, nullptr, s);
  EXPECT_EQ(s.code(), TF_OK) << s.message();
  TF_DeleteBuffer(def);
  TF_DeleteGraph(g);
}

TEST(Import, PrefixAndUniquifiedPrefix) {
  TF_Graph* g = TF_NewGraph();
  TF_Buffer* def = rill_c_test::GraphDefBuffer(kGraph);
  TF_ImportGraphDefOptions* opts = TF_NewImportGraphDefOptions();
  TF_ImportGraphDefOptionsSetPrefix(opts, "imported");
  Status s;
  TF_GraphImportGraphDef(g, def, opts, s);
  ASSERT_EQ(s.code(), TF_OK) << s.message();
  TF_Operation* sum = TF_GraphOperationByName(g, "imported/sum");
  ASSERT_NE(sum, nullptr);
  EXPECT_STREQ(TF_OperationName(TF_OperationInput({sum, 0}).oper), "imported/x");

  TF_GraphImportGraphDef(g, def, opts, s);
  EXPECT_EQ(s.code(), TF_INVALID_ARGUMENT);
  EXPECT_EQ(s.message(), "Node name 'imported/x' already exists in the Graph");
  // A prefix naming an existing node imports when no imported name is taken (TensorFlow 2.21).
  TF_ImportGraphDefOptions* under = TF_NewImportGraphDefOptions();
  TF_ImportGraphDefOptionsSetPrefix(under, "imported/sum");
  TF_GraphImportGraphDef(g, def, under, s);
  ASSERT_EQ(s.code(), TF_OK) << s.message();
  EXPECT_NE(TF_GraphOperationByName(g, "imported/sum/sum"), nullptr);
  TF_DeleteImportGraphDefOptions(under);
  TF_ImportGraphDefOptionsSetUniquifyPrefix(opts, 1);
  TF_GraphImportGraphDef(g, def, opts, s);
  ASSERT_EQ(s.code(), TF_OK) << s.message();
  EXPECT_NE(TF_GraphOperationByName(g, "imported_1/sum"), nullptr);
  TF_DeleteImportGraphDefOptions(opts);
  TF_DeleteBuffer(def);
  TF_DeleteGraph(g);
}

TEST(Import, UniquifyNames) {
  TF_Graph* g = TF_NewGraph();
  TF_Buffer* def = rill_c_test::GraphDefBuffer(kGraph);
  TF_ImportGraphDefOptions* opts = TF_NewImportGraphDefOptions();
  TF_ImportGraphDefOptionsSetUniquifyNames(opts, 1);
  TF_ImportGraphDefOptionsAddReturnOperation(opts, "sum");
  Status s;
  TF_GraphImportGraphDef(g, def, opts, s);
  ASSERT_EQ(s.code(), TF_OK) << s.message();
  TF_ImportGraphDefResults* results = TF_GraphImportGraphDefWithResults(g, def, opts, s);
  ASSERT_EQ(s.code(), TF_OK) << s.message();
  int n = 0;
  TF_Operation** opers = nullptr;
  TF_ImportGraphDefResultsReturnOperations(results, &n, &opers);
  ASSERT_EQ(n, 1);
  EXPECT_STREQ(TF_OperationName(opers[0]), "sum_1");
  EXPECT_STREQ(TF_OperationName(TF_OperationInput({opers[0], 0}).oper), "x_1");
  TF_DeleteImportGraphDefResults(results);
  TF_DeleteImportGraphDefOptions(opts);
  TF_DeleteBuffer(def);
  TF_DeleteGraph(g);
}

TEST(Import, InputMappingReturnOutputsAndMissingMappings) {
  TF_Graph* g = TF_NewGraph();
  TF_Operation* feed = rill_c_test::Placeholder(g, "feed", TF_FLOAT, {2}, true);
  TF_Buffer* def = rill_c_test::GraphDefBuffer(kGraph);
  TF_ImportGraphDefOptions* opts = TF_NewImportGraphDefOptions();
  TF_ImportGraphDefOptionsSetPrefix(opts, "p");
  TF_ImportGraphDefOptionsAddInputMapping(opts, "x", 0, {feed, 0});
  TF_ImportGraphDefOptionsAddInputMapping(opts, "nothere", 2, {feed, 0});
  TF_ImportGraphDefOptionsAddReturnOutput(opts, "sum", 0);
  TF_ImportGraphDefOptionsAddReturnOutput(opts, "x", 0);
  EXPECT_EQ(TF_ImportGraphDefOptionsNumReturnOutputs(opts), 2);
  Status s;
  TF_ImportGraphDefResults* results = TF_GraphImportGraphDefWithResults(g, def, opts, s);
  ASSERT_EQ(s.code(), TF_OK) << s.message();
  int n = 0;
  TF_Output* outs = nullptr;
  TF_ImportGraphDefResultsReturnOutputs(results, &n, &outs);
  ASSERT_EQ(n, 2);
  EXPECT_STREQ(TF_OperationName(outs[0].oper), "p/sum");
  EXPECT_EQ(outs[1].oper, feed);  // remapped: the existing tensor
  TF_Operation* sum = outs[0].oper;
  EXPECT_EQ(TF_OperationInput({sum, 0}).oper, feed);
  EXPECT_EQ(TF_GraphGetTensorNumDims(g, {sum, 0}, s), 1);  // the feed's shape [2] flows in
  const char** names = nullptr;
  int* indexes = nullptr;
  TF_ImportGraphDefResultsMissingUnusedInputMappings(results, &n, &names, &indexes);
  ASSERT_EQ(n, 1);
  EXPECT_STREQ(names[0], "nothere");
  EXPECT_EQ(indexes[0], 2);
  TF_DeleteImportGraphDefResults(results);

  // WithReturnOutputs needs the right count.
  TF_ImportGraphDefOptionsSetPrefix(opts, "q");
  TF_Output two[2];
  TF_GraphImportGraphDefWithReturnOutputs(g, def, opts, two, 1, s);
  EXPECT_EQ(s.code(), TF_INVALID_ARGUMENT);
  EXPECT_EQ(s.message(), "Expected 'num_return_outputs' to be 2, got 1");
  TF_GraphImportGraphDefWithReturnOutputs(g, def, opts, two, 2, s);
  ASSERT_EQ(s.code(), TF_OK) << s.message();
  EXPECT_STREQ(TF_OperationName(two[0].oper), "q/sum");

  TF_ImportGraphDefOptionsAddReturnOutput(opts, "nope", 0);
  TF_ImportGraphDefOptionsSetPrefix(opts, "r");
  TF_DeleteImportGraphDefResults(TF_GraphImportGraphDefWithResults(g, def, opts, s));
  EXPECT_EQ(s.code(), TF_INVALID_ARGUMENT);
  EXPECT_EQ(s.message(), "Requested return tensor 'nope:0' not found in graph def");
  EXPECT_EQ(TF_GraphOperationByName(g, "r/sum"), nullptr);  // nothing was added
  TF_DeleteImportGraphDefOptions(opts);
  TF_DeleteBuffer(def);
  TF_DeleteGraph(g);
}

TEST(Import, ControlDependenciesAndDefaultDevice) {
  TF_Graph* g = TF_NewGraph();
  TF_Operation* init = rill_c_test::Placeholder(g, "init");
  TF_Buffer* def = rill_c_test::GraphDefBuffer(kGraph);
  TF_ImportGraphDefOptions* opts = TF_NewImportGraphDefOptions();
  TF_ImportGraphDefOptionsSetPrefix(opts, "p");
  TF_ImportGraphDefOptionsAddControlDependency(opts, init);
  TF_ImportGraphDefOptionsSetDefaultDevice(opts, "/device:CPU:0");
  Status s;
  TF_GraphImportGraphDef(g, def, opts, s);
  ASSERT_EQ(s.code(), TF_OK) << s.message();
  // Nodes reading no imported node get the dependency; `sum` inherits it through its inputs.
  TF_Operation* x = TF_GraphOperationByName(g, "p/x");
  TF_Operation* sum = TF_GraphOperationByName(g, "p/sum");
  ASSERT_EQ(TF_OperationNumControlInputs(x), 1);
  TF_Operation* control = nullptr;
  TF_OperationGetControlInputs(x, &control, 1);
  EXPECT_EQ(control, init);
  EXPECT_EQ(TF_OperationNumControlInputs(sum), 0);
  EXPECT_EQ(TF_OperationNumControlOutputs(init), 2);
  EXPECT_STREQ(TF_OperationDevice(sum), "/device:CPU:0");
  TF_DeleteImportGraphDefOptions(opts);
  TF_DeleteBuffer(def);
  TF_DeleteGraph(g);
}

TEST(Import, InvalidGraphDefsAreRefusedWithTheImportersText) {
  TF_Graph* g = TF_NewGraph();
  Status s;
  TF_Buffer* junk = TF_NewBufferFromString("\xff\xff\xff", 3);
  TF_GraphImportGraphDef(g, junk, nullptr, s);
  EXPECT_EQ(s.code(), TF_INVALID_ARGUMENT);
  EXPECT_EQ(s.message(), "Invalid GraphDef");
  TF_DeleteBuffer(junk);

  TF_Buffer* bad = rill_c_test::GraphDefBuffer(R"pb(
    node {
      name: "a"
      op: "Identity"
      input: "missing"
      attr {
        key: "T"
        value { type: DT_FLOAT }
      }
    }
  )pb");
  TF_GraphImportGraphDef(g, bad, nullptr, s);
  EXPECT_EQ(s.code(), TF_INVALID_ARGUMENT);
  EXPECT_EQ(s.message(), "Node 'a': Unknown input node 'missing'");
  TF_DeleteBuffer(bad);
  TF_GraphImportGraphDef(g, nullptr, nullptr, s);
  EXPECT_EQ(s.code(), TF_INVALID_ARGUMENT);
  TF_DeleteGraph(g);
}

}  // namespace
