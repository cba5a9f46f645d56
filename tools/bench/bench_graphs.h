// Graphs the benchmarks share (session_bench, overhead_probe).
#ifndef RILL_TOOLS_BENCH_BENCH_GRAPHS_H_
#define RILL_TOOLS_BENCH_BENCH_GRAPHS_H_

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

}  // namespace rill

#endif  // RILL_TOOLS_BENCH_BENCH_GRAPHS_H_
