// Session creation time for large graphs: Session::Create (import, validation, function
// lowering, placement) and the first Run (run-graph rewrite and pruning, optimizer, partition,
// executors), for graphs of 10k, 100k and 1M nodes of four shapes:
//   chain    c0 -> Identity -> Identity -> ... (fetch the last)
//   fan_in   N Consts summed by one AddN with N inputs
//   fan_out  one Const read by N Identities that a NoOp waits on by N control edges (target)
//   devices  a chain whose blocks of 100 nodes alternate between /cpu:0 and /cpu:1
// Prints one line per graph: nodes, Create ms, first Run ms, total, and the growth of the total
// per 10x nodes. With --write_dir=DIR it also writes each GraphDef (binary, DIR/<shape>_<n>.pb)
// for tools/bench/creation_peers.py, which times TensorFlow on the same files.
//   bazel run -c opt //tools/bench:creation_bench -- [--min_nodes=10000] [--max_nodes=1000000]
//       [--shape=chain|fan_in|fan_out|devices] [--write_dir=/tmp/g]
#include <chrono>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "session/session.h"

namespace rill {
namespace {

AttrValue TypeAttr(DataType t) {
  AttrValue v;
  v.set_type(t);
  return v;
}

NodeDef* AddConst(GraphDef& g, const std::string& name) {
  NodeDef* c = g.add_node();
  c->set_name(name);
  c->set_op("Const");
  (*c->mutable_attr())["dtype"] = TypeAttr(DT_FLOAT);
  AttrValue value;
  value.mutable_tensor()->set_dtype(DT_FLOAT);
  value.mutable_tensor()->add_float_val(1);
  (*c->mutable_attr())["value"] = value;
  return c;
}

NodeDef* AddIdentity(GraphDef& g, const std::string& name, const std::string& input) {
  NodeDef* n = g.add_node();
  n->set_name(name);
  n->set_op("Identity");
  n->add_input(input);
  (*n->mutable_attr())["T"] = TypeAttr(DT_FLOAT);
  return n;
}

struct Case {
  GraphDef graph;
  std::string fetch;  // empty: run `target` instead
  std::string target;
  int cpus = 1;
};

Case Chain(int n, bool two_devices) {
  Case c;
  AddConst(c.graph, "n0");
  for (int i = 1; i < n; ++i) {
    NodeDef* node = AddIdentity(c.graph, absl::StrCat("n", i), absl::StrCat("n", i - 1));
    if (two_devices) node->set_device((i / 100) % 2 == 0 ? "/cpu:0" : "/cpu:1");
  }
  c.fetch = absl::StrCat("n", n - 1);
  c.cpus = two_devices ? 2 : 1;
  return c;
}

Case FanIn(int n) {
  Case c;
  NodeDef* sum = nullptr;
  for (int i = 0; i < n - 1; ++i) AddConst(c.graph, absl::StrCat("c", i));
  sum = c.graph.add_node();
  sum->set_name("sum");
  sum->set_op("AddN");
  for (int i = 0; i < n - 1; ++i) sum->add_input(absl::StrCat("c", i));
  (*sum->mutable_attr())["T"] = TypeAttr(DT_FLOAT);
  AttrValue count;
  count.set_i(n - 1);
  (*sum->mutable_attr())["N"] = count;
  c.fetch = "sum";
  return c;
}

Case FanOut(int n) {
  Case c;
  AddConst(c.graph, "root");
  NodeDef done;
  done.set_name("done");
  done.set_op("NoOp");
  for (int i = 0; i < n - 2; ++i) {
    AddIdentity(c.graph, absl::StrCat("i", i), "root");
    done.add_input(absl::StrCat("^i", i));
  }
  *c.graph.add_node() = std::move(done);
  c.target = "done";
  return c;
}

double MsSince(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start)
      .count();
}

int Main(int argc, char** argv) {
  int max_nodes = 1000000;
  int min_nodes = 10000;
  std::string write_dir;
  std::string only;  // one shape, for profiling
  for (int i = 1; i < argc; ++i) {
    if (std::strncmp(argv[i], "--max_nodes=", 12) == 0) max_nodes = std::atoi(argv[i] + 12);
    if (std::strncmp(argv[i], "--min_nodes=", 12) == 0) min_nodes = std::atoi(argv[i] + 12);
    if (std::strncmp(argv[i], "--write_dir=", 12) == 0) write_dir = argv[i] + 12;
    if (std::strncmp(argv[i], "--shape=", 8) == 0) only = argv[i] + 8;
  }
  const std::vector<std::pair<std::string, std::function<Case(int)>>> shapes = {
      {"chain", [](int n) { return Chain(n, false); }},
      {"fan_in", FanIn},
      {"fan_out", FanOut},
      {"devices", [](int n) { return Chain(n, true); }},
  };
  std::printf("%-8s %9s %10s %12s %10s %8s\n", "shape", "nodes", "Create ms", "first Run ms",
              "total ms", "x per 10x");
  for (const auto& [name, make] : shapes) {
    if (!only.empty() && name != only) continue;
    double previous = 0;
    for (int n = min_nodes; n <= max_nodes; n *= 10) {
      Case c = make(n);
      if (!write_dir.empty()) {
        std::ofstream out(absl::StrCat(write_dir, "/", name, "_", n, ".pb"), std::ios::binary);
        c.graph.SerializeToOstream(&out);
      }
      SessionOptions options;
      (*options.config.mutable_device_count())["CPU"] = c.cpus;
      options.config.set_inter_op_parallelism_threads(1);
      options.config.set_intra_op_parallelism_threads(1);
      absl::StatusOr<std::unique_ptr<Session>> session = Session::New(options);
      if (!session.ok()) {
        std::fprintf(stderr, "%s\n", std::string(session.status().message()).c_str());
        return 1;
      }
      auto start = std::chrono::steady_clock::now();
      absl::Status s = (*session)->Create(c.graph);
      const double create_ms = MsSince(start);
      start = std::chrono::steady_clock::now();
      std::vector<Tensor> out;
      if (s.ok()) {
        s = c.fetch.empty() ? (*session)->Run({}, {}, {c.target}, &out)
                            : (*session)->Run({}, {c.fetch}, {}, &out);
      }
      const double run_ms = MsSince(start);
      if (!s.ok()) {
        std::fprintf(stderr, "%s %d: %s\n", name.c_str(), n, std::string(s.message()).c_str());
        return 1;
      }
      const double total = create_ms + run_ms;
      std::printf("%-8s %9d %10.1f %12.1f %10.1f %8s\n", name.c_str(), n, create_ms, run_ms, total,
                  previous > 0 ? absl::StrCat(total / previous).substr(0, 5).c_str() : "-");
      std::fflush(stdout);
      previous = total;
    }
  }
  return 0;
}

}  // namespace
}  // namespace rill

int main(int argc, char** argv) { return rill::Main(argc, argv); }
