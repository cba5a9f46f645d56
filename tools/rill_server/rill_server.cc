// rill_server: one task of a cluster, serving TensorFlow's WorkerService (and its MasterService,
// for TensorFlow clients) over gRPC, started with
// the flags of TensorFlow's grpc_tensorflow_server:
//   rill_server --cluster_spec=worker|127.0.0.1:2222;127.0.0.1:2223 --job_name=worker --task_id=0
// It listens on the port its task has in the cluster spec (all interfaces), prints one line
// "rill_server: serving /job:worker/replica:0/task:0 on 0.0.0.0:2222" once it serves, and shuts
// down gracefully on SIGTERM or SIGINT (steps in flight are aborted; exit status 0), printing how
// many tensors went to and came from Rill tasks on this host through shared memory.
// Exit status 1 with a message on stderr for bad flags or a port it cannot bind.
#include <malloc.h>

#include <csignal>
#include <cstdio>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "distributed/cluster_spec.h"
#include "distributed/grpc_status.h"
#include "distributed/grpc_worker_service.h"
#include "distributed/master_service.h"
#include "distributed/shm_offer.h"
#include "distributed/shm_segments.h"
#include "distributed/shm_writer.h"
#include "tools/rill_server/server_flags.h"

namespace {

int Fail(const std::string& message) {
  std::fprintf(stderr, "rill_server: %s\n%s", message.c_str(), rill::kRillServerUsage);
  return 1;
}

}  // namespace

int main(int argc, char** argv) {
  absl::StatusOr<rill::ServerFlags> flags =
      rill::ParseServerFlags(std::vector<std::string>(argv + 1, argv + argc));
  if (!flags.ok()) return Fail(std::string(flags.status().message()));
  if (flags->help) {
    std::fputs(rill::kRillServerUsage, stdout);
    return 0;
  }
  const std::string& cluster_spec = flags->cluster_spec;
  const std::string& job_name = flags->job_name;
  const int task_id = flags->task_id;
  absl::Status tls = rill::distributed::SetProcessTls(flags->tls_ca_file, flags->tls_cert_file,
                                                      flags->tls_key_file);
  if (!tls.ok()) return Fail(std::string(tls.message()));
  absl::StatusOr<rill::ClusterDef> cluster = rill::distributed::ParseClusterSpec(cluster_spec);
  if (!cluster.ok()) return Fail(std::string(cluster.status().message()));
  absl::StatusOr<std::string> address = rill::distributed::TaskAddress(*cluster, job_name, task_id);
  if (!address.ok()) return Fail(std::string(address.status().message()));
  const std::string port = address->substr(address->rfind(':') + 1);
  const std::string listen = absl::StrCat("0.0.0.0:", port);

  // Signals are taken by sigwait below, on this thread, never by a handler.
  sigset_t signals;
  sigemptyset(&signals);
  sigaddset(&signals, SIGTERM);
  sigaddset(&signals, SIGINT);
  pthread_sigmask(SIG_BLOCK, &signals, nullptr);
  // Large buffers (tensors crossing to and from other tasks) come from the heap and stay there
  // when freed, so the next step reuses them instead of mapping and page-faulting fresh memory:
  // glibc otherwise maps every buffer above 32 MiB anew (a 100 MB tensor is ~25,000 page
  // faults per copy). One arena: a thread's own arena maps such a buffer whatever M_MMAP_MAX
  // says (it cannot grow past 64 MiB); Rill's small buffers come from per-thread lists anyway.
  mallopt(M_ARENA_MAX, 1);
  mallopt(M_MMAP_MAX, 0);
  mallopt(M_TRIM_THRESHOLD, 1 << 30);
  // A closed stdout (the parent went away) must not kill a serving worker.
  std::signal(SIGPIPE, SIG_IGN);

  rill::distributed::SetShmSettings(flags->shm);
  rill::distributed::WorkerOptions options;
  options.job = job_name;
  options.task = task_id;
  options.cluster = *cluster;
  options.inter_op_threads = flags->inter_op_threads;
  options.intra_op_threads = flags->intra_op_threads;
  // TensorFlow's MasterService too: a TensorFlow client (tf.compat.v1.Session on grpc://this
  // task) runs its graphs here, with this task as the master.
  auto server = rill::distributed::WorkerServer::Start(
      options, listen, rill::distributed::NewMasterService(*cluster, *address));
  if (!server.ok()) return Fail(std::string(server.status().message()));
  std::printf("rill_server: serving %s on %s\n",
              rill::distributed::TaskName(job_name, task_id).c_str(), listen.c_str());
  std::fflush(stdout);
  int sig = 0;
  sigwait(&signals, &sig);
  std::printf("rill_server: %s, shutting down\n", sig == SIGTERM ? "SIGTERM" : "SIGINT");
  std::fflush(stdout);
  (*server)->Shutdown();
  std::printf(
      "rill_server: same-host RecvTensor: sent %lld tensors through shared memory, received %lld "
      "(%lld read without mapping)\n",
      static_cast<long long>(rill::distributed::ShmWriter::Default()->written()),
      static_cast<long long>(rill::distributed::ShmSegments::Default()->taken()),
      static_cast<long long>(rill::distributed::ShmSegments::Default()->read_without_map()));
  std::fflush(stdout);
  return 0;
}
