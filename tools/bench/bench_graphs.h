// Graphs the benchmarks share (session_bench, overhead_probe).
#ifndef RILL_TOOLS_BENCH_BENCH_GRAPHS_H_
#define RILL_TOOLS_BENCH_BENCH_GRAPHS_H_

#include <initializer_list>
#include <string>

#include "absl/strings/str_cat.h"
#include "google/protobuf/text_format.h"
#include "proto/graph.pb.h"

namespace rill {

// A float Placeholder 'x' and a chain of `n` Adds: add_0 = x + x, add_i = add_{i-1} + add_{i-1}.
inline GraphDef AddChain(int n) {
  std::string text =
      "node { name: 'x' op: 'Placeholder' attr { key: 'dtype' value { type: DT_FLOAT } } }\n";
  std::string prev = "x";
  for (int i = 0; i < n; ++i) {
    const std::string name = absl::StrCat("add_", i);
    absl::StrAppend(&text, "node { name: '", name, "' op: 'Add' input: '", prev, "' input: '",
                    i == 0 ? "x" : prev, "' attr { key: 'T' value { type: DT_FLOAT } } }\n");
    prev = name;
  }
  GraphDef g;
  google::protobuf::TextFormat::ParseFromString(text, &g);
  return g;
}

// A TF1 while loop of scalar float Adds, as tf.compat.v1's while_loop freezes one: Placeholder
// 'x' (a float scalar) and `iterations` iterations in frame 'loop', each adding x to the
// accumulator `adds` times in a chain, beside the counter's Less, LoopCond, Switches, Identities,
// Add, NextIterations and the two Exits (dead until the last iteration): 13 + `adds` nodes an
// iteration. Fetch 'loop/exit_acc' (x * (1 + iterations * adds)).
inline GraphDef WhileLoopOfAdds(int iterations, int adds) {
  auto node = [](const std::string& name, const std::string& op,
                 std::initializer_list<std::string> inputs, const std::string& attrs) {
    std::string text = absl::StrCat("node { name: '", name, "' op: '", op, "'");
    for (const std::string& in : inputs) absl::StrAppend(&text, " input: '", in, "'");
    return absl::StrCat(text, " ", attrs, " }\n");
  };
  const std::string f = "attr { key: 'T' value { type: DT_FLOAT } }";
  const std::string i32 = "attr { key: 'T' value { type: DT_INT32 } }";
  auto enter = [](const std::string& type, bool constant) {
    return absl::StrCat("attr { key: 'T' value { type: ", type,
                        " } } attr { key: 'frame_name' value { s: 'loop' } } "
                        "attr { key: 'is_constant' value { b: ",
                        constant ? "true" : "false",
                        " } } attr { key: 'parallel_iterations' value { i: 10 } }");
  };
  auto int_const = [](int v) {
    return absl::StrCat(
        "attr { key: 'dtype' value { type: DT_INT32 } } attr { key: 'value' value { tensor { "
        "dtype: DT_INT32 tensor_shape {} int_val: ",
        v, " } } }");
  };
  std::string text = node("x", "Placeholder", {}, "attr { key: 'dtype' value { type: DT_FLOAT } }");
  text += node("n", "Const", {}, int_const(iterations));
  text += node("zero", "Const", {}, int_const(0));
  text += node("one", "Const", {}, int_const(1));
  text += node("loop/enter_i", "Enter", {"zero"}, enter("DT_INT32", false));
  text += node("loop/enter_acc", "Enter", {"x"}, enter("DT_FLOAT", false));
  text += node("loop/enter_n", "Enter", {"n"}, enter("DT_INT32", true));
  text += node("loop/enter_one", "Enter", {"one"}, enter("DT_INT32", true));
  text += node("loop/enter_x", "Enter", {"x"}, enter("DT_FLOAT", true));
  text += node("loop/merge_i", "Merge", {"loop/enter_i", "loop/next_i"},
               i32 + " attr { key: 'N' value { i: 2 } }");
  text += node("loop/merge_acc", "Merge", {"loop/enter_acc", "loop/next_acc"},
               f + " attr { key: 'N' value { i: 2 } }");
  text += node("loop/less", "Less", {"loop/merge_i", "loop/enter_n"}, i32);
  text += node("loop/cond", "LoopCond", {"loop/less"}, "");
  text += node("loop/switch_i", "Switch", {"loop/merge_i", "loop/cond"}, i32);
  text += node("loop/switch_acc", "Switch", {"loop/merge_acc", "loop/cond"}, f);
  text += node("loop/body_i", "Identity", {"loop/switch_i:1"}, i32);
  text += node("loop/body_acc", "Identity", {"loop/switch_acc:1"}, f);
  text += node("loop/add_i", "Add", {"loop/body_i", "loop/enter_one"}, i32);
  std::string acc = "loop/body_acc";
  for (int k = 0; k < adds; ++k) {
    const std::string name = absl::StrCat("loop/add_", k);
    text += node(name, "Add", {acc, "loop/enter_x"}, f);
    acc = name;
  }
  text += node("loop/next_i", "NextIteration", {"loop/add_i"}, i32);
  text += node("loop/next_acc", "NextIteration", {acc}, f);
  text += node("loop/exit_i", "Exit", {"loop/switch_i:0"}, i32);
  text += node("loop/exit_acc", "Exit", {"loop/switch_acc:0"}, f);
  GraphDef g;
  google::protobuf::TextFormat::ParseFromString(text, &g);
  return g;
}

}  // namespace rill

#endif  // RILL_TOOLS_BENCH_BENCH_GRAPHS_H_
