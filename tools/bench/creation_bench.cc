// Session creation time for large graphs: Session::Create (import, validation, function
// lowering, placement) and the first Run (run-graph rewrite and pruning, optimizer, partition,
// executors), for graphs of 10k, 100k and 1M nodes of four shapes:
//   chain    c0 -> Identity -> Identity -> ... (fetch the last)
//   fan_in   N Consts summed by one AddN with N inputs
//   fan_out  one Const read by N Identities that a NoOp waits on by N control edges (target)
//   devices  a chain whose blocks of 100 nodes alternate between /cpu:0 and /cpu:1
// Prints one line per graph: nodes, Create ms, first Run ms, total, the growth of the total per
// 10x nodes and the process's minor page faults per node during Create + Run (heap pages touched
// for the first time: the working set the session grew by). Each size is timed --reps times
// (default 3; 1 from 1M nodes), each in a new session, and the median total is reported; an
// untimed 1,000-node graph of the shape runs first, so the first row does not pay the process's
// one-time setup (registries, thread pools).
// --passes instead times the passes Session::Create and the first Run are made of, called one by
// one as session.cc calls them (import with validation, function lowering, placement, run-graph
// rewrite, optimizer, partition, executor creation), to see which one grows faster than the graph,
// and the heap in use after each (glibc's mallinfo2: what the graphs and the pass results hold).
// With --write_dir=DIR it also writes each GraphDef (binary, DIR/<shape>_<n>.pb) for
// tools/bench/creation_peers.py, which times TensorFlow on the same files.
//   bazel run -c opt //tools/bench:creation_bench -- [--min_nodes=10000] [--max_nodes=1000000]
//       [--shape=chain|fan_in|fan_out|devices] [--reps=3] [--passes] [--cpu_time]
//       [--write_dir=/tmp/g]
#include <malloc.h>
#include <sys/resource.h>
#include <time.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"
#include "core/status_macros.h"
#include "graph/function_lowering.h"
#include "graph/graph_def_import.h"
#include "graph/partition.h"
#include "kernels/framework/kernel_registry.h"
#include "ops/op_registry.h"
#include "session/device_mgr.h"
#include "session/executor.h"
#include "session/graph_optimizer.h"
#include "session/placer.h"
#include "session/run_graph.h"
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

// With --cpu_time the times are the calling thread's CPU time (user + system, page faults
// included), which a machine shared with other jobs disturbs less than wall time; Session::Create
// and the executors of these graphs (inter-op pool of 1, cheap nodes run inline) run on it.
bool g_cpu_time = false;

double NowMs() {
  if (g_cpu_time) {
    timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec * 1e-6;
  }
  return std::chrono::duration<double, std::milli>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

int64_t MinorFaults() {
  rusage usage;
  getrusage(RUSAGE_SELF, &usage);
  return usage.ru_minflt;
}

double Median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

SessionOptions OptionsFor(const Case& c) {
  SessionOptions options;
  (*options.config.mutable_device_count())["CPU"] = c.cpus;
  options.config.set_inter_op_parallelism_threads(1);
  options.config.set_intra_op_parallelism_threads(1);
  return options;
}

struct Timing {
  double create_ms = 0;
  double run_ms = 0;
  int64_t faults = 0;
};

// One Session::Create + first Run of `c` in a new session.
absl::StatusOr<Timing> TimeSession(const Case& c) {
  RILL_ASSIGN_OR_RETURN(std::unique_ptr<Session> session, Session::New(OptionsFor(c)));
  Timing t;
  const int64_t faults = MinorFaults();
  double start = NowMs();
  RILL_RETURN_IF_ERROR(session->Create(c.graph));
  t.create_ms = NowMs() - start;
  start = NowMs();
  std::vector<Tensor> out;
  RILL_RETURN_IF_ERROR(c.fetch.empty() ? session->Run({}, {}, {c.target}, &out)
                                       : session->Run({}, {c.fetch}, {}, &out));
  t.run_ms = NowMs() - start;
  t.faults = MinorFaults() - faults;
  return t;
}

// The passes of Session::Create and of the first Run's run-state, called as session.cc calls
// them (CPU devices only, no CUDA kernels), and the nodes the executors got (what the optimizer
// left); milliseconds per pass in kPassNames order
// ("destroy": freeing the graphs and executors).
const std::vector<std::string> kPassNames = {"import",   "lower",     "place",     "run_graph",
                                             "optimize", "partition", "executors", "destroy"};

// Bytes the heap holds in use (glibc: small blocks and mmapped ones).
double HeapMb() {
  const struct mallinfo2 info = mallinfo2();
  return static_cast<double>(info.uordblks + info.hblkhd) / (1 << 20);
}

absl::StatusOr<std::vector<double>> TimePasses(const Case& c, int* executor_nodes,
                                               std::vector<double>* heap_mb) {
  const SessionOptions options = OptionsFor(c);
  RILL_ASSIGN_OR_RETURN(std::unique_ptr<DeviceMgr> devices, DeviceMgr::Create(options.config));
  std::vector<double> ms;
  heap_mb->clear();
  const double heap_before = HeapMb();
  double start = NowMs();
  auto lap = [&] {
    const double now = NowMs();
    ms.push_back(now - start);
    heap_mb->push_back(HeapMb() - heap_before);
    start = NowMs();
  };
  {
    RILL_ASSIGN_OR_RETURN(std::unique_ptr<Graph> graph, ImportGraphDef(c.graph));
    lap();
    RILL_RETURN_IF_ERROR(LowerFunctionalOps(graph.get()));
    lap();
    PlacerOptions placer_options;
    placer_options.cuda_enabled = false;
    RILL_ASSIGN_OR_RETURN(Placement placement,
                          Place(*graph, devices->DeviceNames(),
                                KernelRegistry::Global()->WithoutCudaKernels(), placer_options));
    ApplyPlacement(placement, graph.get());
    lap();
    std::vector<std::string> fetches, targets;
    if (c.fetch.empty()) targets.push_back(c.target);
    if (!c.fetch.empty()) fetches.push_back(c.fetch);
    RILL_ASSIGN_OR_RETURN(RunGraph run, BuildRunGraph(*graph, {}, fetches, targets,
                                                      devices->client_device()->name()));
    std::vector<PartialTensorShape> feed_shapes = DeclaredFeedShapes(*graph, run);
    RILL_RETURN_IF_ERROR(CheckEveryNodePlaced(run));
    lap();
    GraphOptimizerOptions gopts = GraphOptimizerOptions::FromConfig(options.config);
    gopts.cpu = devices->client_device();
    RILL_RETURN_IF_ERROR(OptimizeGraph(gopts, &run.graph));
    lap();
    PartitionOptions popts;
    int64_t counter = 0;
    popts.name_counter = &counter;
    RILL_ASSIGN_OR_RETURN(auto parts, Partition(run.graph, popts));
    lap();
    std::vector<std::unique_ptr<Executor>> executors;
    *executor_nodes = 0;
    for (auto& [device_name, part] : parts) {
      RILL_ASSIGN_OR_RETURN(
          std::unique_ptr<Executor> ex,
          Executor::Create(part, devices->Find(device_name), *KernelRegistry::Global()));
      *executor_nodes += ex->num_nodes();
      executors.push_back(std::move(ex));
    }
    lap();
  }
  lap();  // destroy: everything above going out of scope
  return ms;
}

int Main(int argc, char** argv) {
  int max_nodes = 1000000;
  int min_nodes = 10000;
  int reps = 0;  // 0: 3 below 1M nodes, else 1
  bool passes = false;
  std::string write_dir;
  std::string only;  // one shape, for profiling
  constexpr char kUsage[] =
      "usage: creation_bench [--cpu_time] [--passes] [--reps=N] [--min_nodes=N] [--max_nodes=N]\n"
      "                      [--shape=chain|fan_in|fan_out|devices] [--write_dir=DIR]\n";
  for (int i = 1; i < argc; ++i) {
    const absl::string_view arg = argv[i];
    auto value = [&](absl::string_view flag) -> const char* {
      return absl::StartsWith(arg, flag) ? argv[i] + flag.size() : nullptr;
    };
    if (const char* v = value("--max_nodes=")) {
      max_nodes = std::atoi(v);
    } else if (const char* v = value("--min_nodes=")) {
      min_nodes = std::atoi(v);
    } else if (const char* v = value("--reps=")) {
      reps = std::atoi(v);
    } else if (arg == "--passes") {
      passes = true;
    } else if (arg == "--cpu_time") {
      g_cpu_time = true;
    } else if (const char* v = value("--write_dir=")) {
      write_dir = v;
    } else if (const char* v = value("--shape=")) {
      only = v;
    } else {
      // Unknown flags (--help included) print the usage instead of starting a long run.
      std::fprintf(arg == "--help" ? stdout : stderr, "%s", kUsage);
      return arg == "--help" ? 0 : 2;
    }
  }
  if (min_nodes <= 0 || max_nodes < min_nodes || reps < 0) {
    std::fprintf(stderr, "creation_bench: need 0 < --min_nodes <= --max_nodes and --reps >= 0\n%s",
                 kUsage);
    return 2;
  }
  const std::vector<std::pair<std::string, std::function<Case(int)>>> shapes = {
      {"chain", [](int n) { return Chain(n, false); }},
      {"fan_in", FanIn},
      {"fan_out", FanOut},
      {"devices", [](int n) { return Chain(n, true); }},
  };
  if (!only.empty() &&
      std::none_of(shapes.begin(), shapes.end(), [&](const auto& s) { return s.first == only; })) {
    std::fprintf(stderr, "creation_bench: unknown --shape=%s\n%s", only.c_str(), kUsage);
    return 2;
  }
  if (passes) {
    std::printf("%-8s %9s", "shape", "nodes");
    for (const std::string& p : kPassNames) std::printf(" %9s", p.c_str());
    std::printf(" %9s %10s  (%s ms, median)\n", "total", "exec nodes", g_cpu_time ? "CPU" : "wall");
  } else {
    std::printf("%-8s %9s %10s %12s %10s %9s %12s  (%s ms, median)\n", "shape", "nodes",
                "Create ms", "first Run ms", "total ms", "x per 10x", "faults/node",
                g_cpu_time ? "CPU" : "wall");
  }
  for (const auto& [name, make] : shapes) {
    if (!only.empty() && name != only) continue;
    // Untimed: the process's one-time setup (registries, pools, first heap growth).
    if (absl::StatusOr<Timing> warm = TimeSession(make(1000)); !warm.ok()) {
      std::fprintf(stderr, "%s: %s\n", name.c_str(), std::string(warm.status().message()).c_str());
      return 1;
    }
    double previous = 0;
    for (int n = min_nodes; n <= max_nodes; n *= 10) {
      const Case c = make(n);
      if (!write_dir.empty()) {
        std::ofstream out(absl::StrCat(write_dir, "/", name, "_", n, ".pb"), std::ios::binary);
        c.graph.SerializeToOstream(&out);
      }
      const int r = reps > 0 ? reps : (n >= 1000000 ? 1 : 3);
      if (passes) {
        std::vector<std::vector<double>> per_pass(kPassNames.size() + 1);
        int executor_nodes = 0;
        std::vector<double> heap_mb;
        for (int k = 0; k < r; ++k) {
          absl::StatusOr<std::vector<double>> ms = TimePasses(c, &executor_nodes, &heap_mb);
          if (!ms.ok()) {
            std::fprintf(stderr, "%s %d: %s\n", name.c_str(), n,
                         std::string(ms.status().message()).c_str());
            return 1;
          }
          double total = 0;
          for (size_t p = 0; p < ms->size(); ++p) {
            per_pass[p].push_back((*ms)[p]);
            total += (*ms)[p];
          }
          per_pass.back().push_back(total);
        }
        std::printf("%-8s %9d", name.c_str(), n);
        for (const auto& v : per_pass) std::printf(" %9.1f", Median(v));
        std::printf(" %10d\n", executor_nodes);
        std::printf("%-8s %9s", "heap MB", "");
        for (double mb : heap_mb) std::printf(" %9.1f", mb);
        std::printf("\n");
        std::fflush(stdout);
        continue;
      }
      std::vector<double> creates, runs, totals, faults;
      for (int k = 0; k < r; ++k) {
        absl::StatusOr<Timing> t = TimeSession(c);
        if (!t.ok()) {
          std::fprintf(stderr, "%s %d: %s\n", name.c_str(), n,
                       std::string(t.status().message()).c_str());
          return 1;
        }
        creates.push_back(t->create_ms);
        runs.push_back(t->run_ms);
        totals.push_back(t->create_ms + t->run_ms);
        faults.push_back(static_cast<double>(t->faults) / n);
      }
      const double total = Median(totals);
      std::printf("%-8s %9d %10.1f %12.1f %10.1f %9s %12.2f\n", name.c_str(), n, Median(creates),
                  Median(runs), total,
                  previous > 0 ? absl::StrCat(total / previous).substr(0, 5).c_str() : "-",
                  Median(faults));
      std::fflush(stdout);
      previous = total;
    }
  }
  return 0;
}

}  // namespace
}  // namespace rill

int main(int argc, char** argv) { return rill::Main(argc, argv); }
