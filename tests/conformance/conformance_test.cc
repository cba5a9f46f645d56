// The kernel conformance harness: every case recorded from TensorFlow in the suites passed on the
// command line (tests/conformance/BUILD lists the enabled ops' files) becomes one test
// "Conformance/<case name>", and a coverage test fails when a registered CPU kernel (op, dtype)
// has no case in them.
#include <cstdio>
#include <map>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "core/types.h"
#include "gtest/gtest.h"
#include "kernels/framework/kernel_registry.h"
#include "tests/conformance/conformance_case.h"

namespace rill {
namespace {

std::vector<ConformanceSuite>* g_suites = nullptr;

// Ops whose kernels are registered but whose behaviour is state or plumbing, covered by session,
// executor and kernel tests instead of TensorFlow recordings.
const std::set<std::string>& ExemptOps() {
  static const auto* ops = new std::set<std::string>{
      // Runtime plumbing (kernels/runtime/sendrecv_ops_test.cc, function_ops_test.cc).
      "_Send",
      "_Recv",
      "_HostSend",
      "_HostRecv",
      "_Arg",
      "_Retval",
      // Graph inputs and constants (placeholder_op_test.cc, constant_op_test.cc, sessions).
      "Placeholder",
      "PlaceholderV2",
      "PlaceholderWithDefault",
      "Const",
      "NoOp",
      // Variables: state across runs (variable_ops_test.cc, resource_variable_ops_test.cc,
      // session_test.cc).
      "Variable",
      "VariableV2",
      "Assign",
      "AssignAdd",
      "AssignSub",
      "VarHandleOp",
      "ReadVariableOp",
      "AssignVariableOp",
      "AssignAddVariableOp",
      "AssignSubVariableOp",
      "VarIsInitializedOp",
      // Printing: side effects on streams (print_ops_test.cc); StringFormat, which renders what
      // they print, has recorded cases.
      "PrintV2",
      "Print",
      // TopK: TopKV2 with k as an attr; TensorFlow 2.21's TopK kernel carries a constraint on an
      // attr the op lacks, so it cannot run and nothing can be recorded (topk_op_test.cc).
      "TopK",
      // Identity passes its input through; identity_op_test.cc and every session test cover it.
      "Identity",
      // TF1 control flow: the recorded loops of the Enter suite run these too (a case names one
      // op); the Ref forms and ControlTrigger are covered by tests/control_flow and
      // kernels/control_flow/control_flow_ops_test.cc.
      "Exit",
      "NextIteration",
      "LoopCond",
      "RefSwitch",
      "RefMerge",
      "RefEnter",
      "RefExit",
      "RefNextIteration",
      "ControlTrigger",
      // _SwitchN is internal (TensorFlow's lowering of Case; tf.raw_ops cannot build it):
      // kernels/control_flow/control_flow_ops_test.cc and tests/models' control_case cover it.
      "_SwitchN",
      // TensorArrays: the creating op, Size and Close run in every recorded TensorArray case
      // (which names the op it checks); kernels/lists/tensor_array_ops_test.cc covers them too.
      "TensorArrayV3",
      "TensorArraySizeV3",
      "TensorArrayCloseV3",
      "TensorArrayV2",
      "TensorArraySizeV2",
      "TensorArray",
      "TensorArraySize",
      // A vector of lists, which no recordable graph makes (tf.stack of list handles needs Pack
      // of variants): kernels/lists/list_ops_test.cc covers it.
      "TensorListPushBackBatch",
      // Stacks: StackV2 and StackCloseV2 run in the recorded StackPushV2 cases.
      "StackV2",
      "StackCloseV2",
      // Checkpoint I/O (files, not values): core/io tests, tests/checkpoints (TensorFlow-written
      // checkpoints and SavedModels restored, saved, corrupted).
      "RestoreV2",
      "SaveV2",
      "MergeV2Checkpoints",
      "ShardedFilename",
      "ShardedFilespec",
      // Whole-file I/O (files, not values): kernels/io/file_ops_test.cc.
      "ReadFile",
      "WriteFile",
      // Fusions the graph optimizer makes: the recorded models run through them
      // (tests/models), and session/graph_optimizer_test compares them with the unfused graph.
      "_FusedMatMul",
      "_FusedConv2D",
      "_FusedDepthwiseConv2dNative",
      "_MklLayerNorm",
      "_RillGelu",
      "_RillGruCell",
      "_RillGruUpdate",
      "_RillLstmCell",
      "_RillLstmSequence",
      "_RillRecurrentSequence",
      "_RillScaleShift",
      // TridiagonalMatMul's and TridiagonalSolve's gradient ops: gradient_conformance_test
      // replays them (TensorFlow's gradients of the two, recorded).
      "_RillTridiagonalMatMulGrad",
      "_RillTridiagonalTranspose",
      "_RillTridiagonalOfProduct",
  };
  return *ops;
}

// Kernels whose dtype only selects how many bytes move (metadata or a buffer shared or copied
// whole): one recorded dtype covers the others (strings and resources included).
const std::set<std::string>& ValueAgnosticOps() {
  static const auto* ops = new std::set<std::string>{
      "Shape", "ShapeN", "Size", "Rank", "Reshape", "ExpandDims", "Squeeze", "StopGradient",
      "PreventGradient", "Snapshot", "IdentityN", "RefIdentity", "EnsureShape", "Bitcast",
      // Layout kernels: one code path per element size (strings copied as strings).
      "Transpose", "ConcatV2", "Pack", "Unpack", "Split", "SplitV", "Slice", "Pad", "PadV2",
      "MirrorPad", "StridedSlice", "ReverseV2", "DynamicStitch", "RandomShuffle",
      "StatelessShuffle", "Concat", "Reverse",
      // Writes each dtype's zero (empty strings, (0,0) complex): recorded for nine dtypes, the
      // rest checked in shape_ops_test.cc.
      "ZerosLike",
      // Control flow forwards tensors whole; the executor gives them meaning.
      "Switch", "Merge", "Enter"};
  return *ops;
}

// Where Rill deliberately differs from TensorFlow 2.21: the case name, why, and the words the
// disagreement must contain (so the divergence stays exactly the documented one).
struct Divergence {
  const char* reason;
  const char* mismatch;
};
const std::map<std::string, Divergence>& Divergences() {
  static const auto* d = [] {
    auto* m = new std::map<std::string, Divergence>;
    const Divergence round_int = {
        "TensorFlow's CPU Round returns 0 for every int32/int64 input; Rill has no integer Round",
        "No OpKernel was registered to support Op 'Round'"};
    for (const char* t : {"int32", "int64"}) {
      for (const char* c : {"basic", "edge_values", "scalar", "zero_size"}) {
        (*m)[absl::StrCat("Round/", t, "/", c)] = round_int;
      }
    }
    (*m)["Erf/float64/specials"] = {
        "TensorFlow's float64 Erf gives NaN at +-inf; Rill gives erf(+-inf) = +-1 (as float32 "
        "TensorFlow does)",
        "got 1, want -nan"};
    (*m)["Erfinv/float64/specials"] = {
        "TensorFlow's float64 Erfinv is off by 4e-11 (relative) at 0.9999999; Rill's is correctly "
        "rounded (3.7665625816384707)",
        "element 23: got 3.76656258, want 3.76656258"};
    (*m)["RequantizationRange/qint32/tiny"] = {
        "On the range [-1e-3, 2e-3] TensorFlow's RequantizationRange gives 0.00200000009 for "
        "INT32_MAX where QuantizedToFloat's double arithmetic (Rill's) gives 0.00199999986, one "
        "float ulp; the other ranges recorded match bit for bit",
        "output 1 element 0: got 0.00199999986, want 0.00200000009"};
    return m;
  }();
  return *d;
}

class ConformanceCaseTest : public ::testing::Test {
 public:
  explicit ConformanceCaseTest(const ConformanceCase* c) : case_(c) {}
  void TestBody() override {
    const std::string mismatch = RunConformanceCase(*case_);
    auto divergence = Divergences().find(case_->name());
    if (divergence != Divergences().end()) {
      EXPECT_TRUE(absl::StrContains(mismatch, divergence->second.mismatch))
          << "documented divergence (" << divergence->second.reason << ") changed: got \""
          << mismatch << "\"";
      return;
    }
    EXPECT_EQ(mismatch, "") << "case " << case_->name() << " (TensorFlow graph:\n"
                            << case_->graph().DebugString() << ")";
  }

 private:
  const ConformanceCase* case_;
};

TEST(ConformanceCoverageTest, EveryRegisteredCpuKernelDtypeHasACase) {
  std::map<std::string, std::set<DataType>> covered;
  for (const ConformanceSuite& suite : *g_suites) {
    for (const ConformanceCase& c : suite.case_()) covered[c.op()].insert(c.dtype());
  }
  std::vector<std::string> missing;
  for (const KernelDef& def : KernelRegistry::Global()->ListKernels()) {
    if (def.device_type != "CPU" || ExemptOps().count(def.op) > 0) continue;
    auto it = covered.find(def.op);
    if (it == covered.end()) {
      missing.push_back(absl::StrCat(def.op, " (no case at all)"));
      continue;
    }
    if (ValueAgnosticOps().count(def.op) > 0) continue;
    // The dtype under test: the constraint the suites record (the random ops' "dtype" and "Tout",
    // where their "T" is the shape's index type; Cast's "SrcT"; "T" otherwise); ops with only
    // index-type attrs (All, Any) are covered by any case.
    const std::vector<DataType>* types = nullptr;
    for (const char* attr : {"dtype", "Tout", "SrcT", "T"}) {
      auto c = def.type_constraints.find(attr);
      if (c != def.type_constraints.end()) {
        types = &c->second;
        break;
      }
    }
    if (types == nullptr) continue;
    for (DataType t : *types) {
      if (it->second.count(t) == 0) missing.push_back(absl::StrCat(def.op, " ", DataTypeString(t)));
    }
  }
  EXPECT_TRUE(missing.empty()) << missing.size() << " registered (op, dtype) without a "
                               << "TensorFlow-recorded case:\n  " << absl::StrJoin(missing, "\n  ");
}

TEST(ConformanceCoverageTest, SuitesHaveCases) {
  int n = 0;
  for (const ConformanceSuite& suite : *g_suites) n += suite.case__size();
  EXPECT_GT(n, 0);
  std::printf("%d TensorFlow-recorded cases in %zu suites\n", n, g_suites->size());
}

}  // namespace
}  // namespace rill

int main(int argc, char** argv) {
  ::testing::InitGoogleTest(&argc, argv);
  std::vector<std::string> paths(argv + 1, argv + argc);
  absl::StatusOr<std::vector<rill::ConformanceSuite>> suites = rill::LoadSuites(paths);
  if (!suites.ok()) {
    std::fprintf(stderr, "%s\n", suites.status().ToString().c_str());
    return 1;
  }
  rill::g_suites = new std::vector<rill::ConformanceSuite>(*std::move(suites));
  for (const rill::ConformanceSuite& suite : *rill::g_suites) {
    for (const rill::ConformanceCase& c : suite.case_()) {
      ::testing::RegisterTest(
          "Conformance", c.name().c_str(), nullptr, nullptr, __FILE__, __LINE__,
          [&c]() -> ::testing::Test* { return new rill::ConformanceCaseTest(&c); });
    }
  }
  return RUN_ALL_TESTS();
}
