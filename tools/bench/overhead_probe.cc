// Instruction counts of Session::Run for issue 14's workloads 1 and 2, under callgrind (stable on
// noisy machines, unlike times): tools/bench/callgrind_counts.sh runs this binary under
// `valgrind --tool=callgrind --separate-threads=yes` and divides the calling thread's counts by
// the iterations. Each workload is warmed up, then its timed loop is bracketed by
// CALLGRIND_ZERO_STATS / CALLGRIND_DUMP_STATS_AT(name), so each dump holds that loop alone.
//   run overhead: one Add on [2,2], fed and fetched, 2000 runs
//   per node: a chain of 1000 Adds on [2,2], 20 runs (per node = (chain - overhead) / 999)
//   per loop node: a TF1 while loop of scalar Adds (WhileLoopOfAdds, 21 nodes an iteration) of
//     100 and of 200 iterations, 20 runs each (per loop node = their difference / 20 / 2100);
//     the loop runs on the inter-op pool's thread: `overhead_probe --loop` runs these alone, for
//     callgrind without --separate-threads
// Outside valgrind the macros do nothing and the binary just runs.
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "google/protobuf/text_format.h"
#include "session/session.h"
#include "tools/bench/bench_graphs.h"
#include "valgrind/callgrind.h"

namespace rill {
namespace {

int Measure(const char* name, const GraphDef& graph, const Tensor& x, const std::string& fetch,
            int runs) {
  SessionOptions options;
  options.config.set_inter_op_parallelism_threads(1);
  options.config.set_intra_op_parallelism_threads(1);
  auto session = Session::New(options);
  if (!session.ok() || !(*session)->Create(graph).ok()) return 1;
  std::vector<Tensor> out;
  for (int i = 0; i < 20; ++i) {
    if (!(*session)->Run({{"x", x}}, {fetch}, {}, &out).ok()) return 1;
  }
  CALLGRIND_ZERO_STATS;
  for (int i = 0; i < runs; ++i) (*session)->Run({{"x", x}}, {fetch}, {}, &out).IgnoreError();
  CALLGRIND_DUMP_STATS_AT(name);
  return 0;
}

}  // namespace
}  // namespace rill

// No argument: workloads 1 and 2. --loop: the while loops (callgrind_counts.sh runs these
// without --separate-threads, so each dump holds every thread).
int main(int argc, char** argv) {
  using rill::Tensor;
  if (argc > 1 && std::string(argv[1]) == "--loop") {
    const Tensor s = Tensor::Scalar<float>(0.5f);
    for (int iterations : {100, 200}) {
      const std::string name = absl::StrCat("while_loop_", iterations, "_iterations_20_runs");
      if (rill::Measure(name.c_str(), rill::WhileLoopOfAdds(iterations, 8), s, "loop/exit_acc",
                        20) != 0) {
        return 1;
      }
    }
    return 0;
  }
  const Tensor x = Tensor::FromVector<float>({1, 2, 3, 4}, rill::TensorShape({2, 2}));
  if (rill::Measure("run_overhead_2000_runs", rill::AddChain(1), x, "add_0", 2000) != 0) return 1;
  return rill::Measure("add_chain_1000_20_runs", rill::AddChain(1000), x, "add_999", 20);
}
