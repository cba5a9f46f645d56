// RecvTensor alone: one worker (distributed/grpc_worker_service.h) serving a 100 MB float tensor
// that a step's _Send left in its rendezvous, fetched over loopback gRPC by a WorkerClient (as a
// receiving worker does), N times; prints min and median time and GB/s. The step itself runs
// in-process and is not timed. tools/bench/recv_tensor_bench.py compares whole steps with
// TensorFlow. Client and server share this process, which counts as one host: the same-host
// path (distributed/shm_offer.h) carries the bytes unless --same_host=false.
//
//   bazel run -c opt //tools/bench:recv_tensor_bench -- [--mb=100] [--reps=20] [--async]
//       [--same_host=false]
#include <malloc.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/synchronization/notification.h"
#include "core/rendezvous.h"
#include "distributed/cluster_spec.h"
#include "distributed/grpc_worker_service.h"
#include "distributed/shm_offer.h"
#include "distributed/shm_segments.h"
#include "distributed/worker_client.h"
#include "ops/attr_value_util.h"

namespace {

using rill::DT_FLOAT;
using rill::DT_INT32;

rill::NodeDef Const(const std::string& name, rill::DataType type, int64_t v,
                    const std::string& device) {
  rill::NodeDef n;
  n.set_name(name);
  n.set_op("Const");
  n.set_device(device);
  rill::SetAttr(&n, "dtype", type);
  rill::TensorProto* t = (*n.mutable_attr())["value"].mutable_tensor();
  t->set_dtype(type);
  if (type == DT_INT32) {
    t->mutable_tensor_shape()->add_dim()->set_size(1);
    t->add_int_val(static_cast<int>(v));
  } else {
    t->add_float_val(static_cast<float>(v));
  }
  return n;
}

}  // namespace

int main(int argc, char** argv) {
  int mb = 100, reps = 20;
  bool async = false;  // --async: the callback call the workers use
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    if (absl::StartsWith(a, "--mb=")) (void)absl::SimpleAtoi(a.substr(5), &mb);
    if (absl::StartsWith(a, "--reps=")) (void)absl::SimpleAtoi(a.substr(7), &reps);
    if (a == "--async") async = true;
    if (a == "--same_host=false") rill::distributed::SetShmSettings({false, 0});
  }
  mallopt(M_ARENA_MAX, 1);  // as rill_server
  mallopt(M_MMAP_MAX, 0);
  mallopt(M_TRIM_THRESHOLD, 1 << 30);
  const std::string address = "127.0.0.1:24999";
  rill::distributed::WorkerOptions options;
  options.cluster = *rill::distributed::ParseClusterSpec("worker|" + address + ";127.0.0.1:1");
  auto server = rill::distributed::WorkerServer::Start(options, address);
  if (!server.ok()) {
    std::fprintf(stderr, "%s\n", std::string(server.status().message()).c_str());
    return 1;
  }
  rill::distributed::Worker* w = (*server)->worker();
  const std::string src = w->device_name();
  const std::string dst = "/job:worker/replica:0/task:1/device:CPU:0";
  const int64_t n = static_cast<int64_t>(mb) * 1000 * 1000 / 4;
  tensorflow::RegisterGraphRequest reg;
  rill::GraphDef* g = reg.mutable_graph_def();
  *g->add_node() = Const("dims", DT_INT32, n, src);
  *g->add_node() = Const("one", DT_FLOAT, 1, src);
  rill::NodeDef* fill = g->add_node();
  fill->set_name("big");
  fill->set_op("Fill");
  fill->add_input("dims");
  fill->add_input("one");
  fill->set_device(src);
  rill::SetAttr(fill, "T", DT_FLOAT);
  rill::SetAttr(fill, "index_type", DT_INT32);
  rill::NodeDef* send = g->add_node();
  send->set_name("send");
  send->set_op("_Send");
  send->add_input("big");
  send->set_device(src);
  rill::SetAttr(send, "T", DT_FLOAT);
  rill::SetAttr(send, "tensor_name", "big:0");
  rill::SetAttr(send, "send_device", src);
  rill::SetAttr(send, "send_device_incarnation", static_cast<int64_t>(w->incarnation()));
  rill::SetAttr(send, "recv_device", dst);
  rill::SetAttr(send, "client_terminated", false);
  tensorflow::RegisterGraphResponse handle;
  absl::Status s = w->RegisterGraph(reg, &handle);
  if (!s.ok()) {
    std::fprintf(stderr, "%s\n", std::string(s.message()).c_str());
    return 1;
  }
  rill::distributed::WorkerClient client("worker", 0, address);
  std::vector<double> ms;
  for (int r = 0; r < reps + 2; ++r) {
    tensorflow::RunGraphRequest run;
    run.set_graph_handle(handle.graph_handle());
    run.set_step_id(r + 1);
    tensorflow::RunGraphResponse ran;
    s = w->RunGraph(run, &ran, absl::InfiniteFuture(), nullptr);
    if (!s.ok()) break;
    tensorflow::RecvTensorRequest req;
    req.set_step_id(r + 1);
    req.set_rendezvous_key(rill::CreateRendezvousKey(src, w->incarnation(), dst, "big:0"));
    rill::Tensor value;
    bool dead = false;
    const auto t0 = std::chrono::steady_clock::now();
    if (async) {
      absl::Notification got;
      client.RecvTensorAsync(req, absl::Seconds(60), nullptr,
                             [&](const absl::Status& st, const rill::Tensor& v, bool d) {
                               s = st;
                               value = v;
                               dead = d;
                               got.Notify();
                             });
      got.WaitForNotification();
    } else {
      s = client.RecvTensor(req, &value, &dead, absl::Seconds(60), nullptr);
    }
    const auto t1 = std::chrono::steady_clock::now();
    if (!s.ok() || value.NumElements() != n) break;
    if (r >= 2) ms.push_back(std::chrono::duration<double, std::milli>(t1 - t0).count());
    tensorflow::CleanupGraphRequest cleanup;
    cleanup.set_step_id(r + 1);
    tensorflow::CleanupGraphResponse cleaned;
    (void)w->CleanupGraph(cleanup, &cleaned);
  }
  if (!s.ok()) {
    std::fprintf(stderr, "%s\n", std::string(s.message()).c_str());
    return 1;
  }
  std::sort(ms.begin(), ms.end());
  const double median = ms[ms.size() / 2];
  std::printf(
      "RecvTensor of %d MB over loopback: min %.1f ms, median %.1f ms, %.2f GB/s (median); %lld "
      "through shared memory\n",
      mb, ms.front(), median, mb / 1e3 / (median / 1e3),
      static_cast<long long>(rill::distributed::ShmSegments::Default()->taken()));
  (*server)->Shutdown();
  return 0;
}
