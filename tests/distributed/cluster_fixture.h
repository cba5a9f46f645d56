// ClusterFixture: worker processes (tools/rill_server) on loopback for tests. Ports are picked
// free by the kernel (bind to 127.0.0.1:0) so parallel tests never collide; every wait has a
// timeout, and the destructor kills what is left.
//
//   ClusterFixture cluster;
//   ASSERT_TRUE(cluster.Start({"worker", "worker"}).ok());   // tasks 0 and 1 of job worker
//   config.mutable_cluster_def() = cluster.cluster();
//   cluster.Kill(1); cluster.Restart(1);
#ifndef RILL_TESTS_DISTRIBUTED_CLUSTER_FIXTURE_H_
#define RILL_TESTS_DISTRIBUTED_CLUSTER_FIXTURE_H_

#include <sys/types.h>

#include <string>
#include <vector>

#include "absl/status/status.h"
#include "proto/cluster.pb.h"

namespace rill {
namespace testing {

class ClusterFixture {
 public:
  ~ClusterFixture();

  // One job per distinct name, tasks in order: {"worker", "worker"} is worker tasks 0 and 1.
  // Waits (up to 20 s each) until every server prints that it serves.
  // `extra_flags` go to every server (e.g. --tls_cert_file=...).
  absl::Status Start(const std::vector<std::string>& task_jobs,
                     const std::vector<std::string>& extra_flags = {});
  const ClusterDef& cluster() const { return cluster_; }
  std::string address(int i) const { return addresses_[i]; }
  std::string spec() const { return spec_; }

  pid_t pid(int i) const { return pids_[i]; }  // -1 once killed or stopped
  // What task i's server printed so far (its stdout, kept in a file under TEST_TMPDIR).
  std::string Output(int i) const;

  void Kill(int i);             // SIGKILL, reaped
  absl::Status Stop(int i);     // SIGTERM; Internal unless it exits 0 within 10 s
  absl::Status Restart(int i);  // starts task i again on its port

 private:
  absl::Status Launch(int i);

  ClusterDef cluster_;
  std::string spec_;
  std::vector<std::string> jobs_;
  std::vector<int> task_index_;
  std::vector<std::string> addresses_;
  std::vector<pid_t> pids_;
  std::vector<std::string> extra_flags_;
  std::vector<std::string> outputs_;
};

}  // namespace testing
}  // namespace rill

#endif  // RILL_TESTS_DISTRIBUTED_CLUSTER_FIXTURE_H_
