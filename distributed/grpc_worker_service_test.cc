// WorkerServer's start: a port another server holds is refused (no SO_REUSEPORT sharing).
#include "distributed/grpc_worker_service.h"

#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include "absl/strings/str_cat.h"
#include "core/status_matchers.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace rill {
namespace distributed {
namespace {

// A loopback port free at the time of the call.
int FreePort() {
  int fd = socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in addr = {};
  addr.sin_family = AF_INET;
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  bind(fd, reinterpret_cast<sockaddr*>(&addr), sizeof(addr));
  socklen_t len = sizeof(addr);
  getsockname(fd, reinterpret_cast<sockaddr*>(&addr), &len);
  close(fd);
  return ntohs(addr.sin_port);
}

TEST(WorkerServerTest, SecondServerOnAPortInUseFailsToStart) {
  const std::string address = absl::StrCat("127.0.0.1:", FreePort());
  WorkerOptions options;
  (*options.cluster.add_job()->mutable_tasks())[0] = address;
  options.cluster.mutable_job(0)->set_name("worker");
  RILL_ASSERT_OK_AND_ASSIGN(std::unique_ptr<WorkerServer> first,
                            WorkerServer::Start(options, address));
  EXPECT_THAT(WorkerServer::Start(options, address).status(),
              StatusIs(absl::StatusCode::kUnavailable,
                       absl::StrCat("Could not start the gRPC server on ", address,
                                    " (is the port in use by another process?); pick a free port "
                                    "in the cluster spec")));
  first->Shutdown();
  // Once the first is gone the port serves again.
  RILL_EXPECT_OK(WorkerServer::Start(options, address).status());
}

}  // namespace
}  // namespace distributed
}  // namespace rill
