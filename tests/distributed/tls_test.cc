// TLS between the master and rill_server workers, and between the workers (gRPC SSL credentials
// from PEM files: tests/distributed/testdata/tls, a test CA and a certificate for 127.0.0.1).
// A plaintext master cannot talk to TLS workers.
#include <fstream>
#include <sstream>
#include <string>

#include "absl/strings/str_cat.h"
#include "core/status_matchers.h"
#include "distributed/grpc_status.h"
#include "gmock/gmock.h"
#include "google/protobuf/text_format.h"
#include "gtest/gtest.h"
#include "session/session.h"
#include "tests/distributed/cluster_fixture.h"

namespace rill {
namespace {

constexpr char kDir[] = "tests/distributed/testdata/tls/";

TEST(TlsTest, SeedTowersOverTlsAndPlaintextIsRefused) {
  testing::ClusterFixture cluster;
  RILL_ASSERT_OK(
      cluster.Start({"worker", "worker"}, {absl::StrCat("--tls_cert_file=", kDir, "server.pem"),
                                           absl::StrCat("--tls_key_file=", kDir, "server.key"),
                                           absl::StrCat("--tls_ca_file=", kDir, "ca.pem")}));
  std::ifstream in("tests/distributed/testdata/multi_tower_workers.pbtxt");
  std::stringstream text;
  text << in.rdbuf();
  GraphDef graph;
  ASSERT_TRUE(google::protobuf::TextFormat::ParseFromString(text.str(), &graph));
  SessionOptions options;
  *options.config.mutable_cluster_def() = cluster.cluster();
  options.target = absl::StrCat("grpc://", cluster.address(0));

  // Plaintext: the TLS servers do not answer it.
  EXPECT_THAT(Session::New(options).status(),
              StatusIs(absl::StatusCode::kUnavailable, ::testing::HasSubstr("is unavailable")));

  RILL_ASSERT_OK(distributed::SetProcessTls(absl::StrCat(kDir, "ca.pem"), "", ""));
  RILL_ASSERT_OK_AND_ASSIGN(std::unique_ptr<Session> session, Session::New(options));
  RILL_ASSERT_OK(session->Create(graph));
  std::vector<Tensor> out;
  RILL_ASSERT_OK(session->Run({}, {"AddN"}, {}, &out));
  auto f = out[0].flat<float>();
  EXPECT_EQ(std::vector<float>(f.begin(), f.end()), (std::vector<float>{44, 56, 98, 128}));

  EXPECT_THAT(distributed::SetProcessTls("", "a.pem", ""),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       "A TLS certificate needs its key and a key its certificate; give both or "
                       "neither"));
  EXPECT_THAT(distributed::SetProcessTls("/nonexistent.pem", "", ""),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       "Cannot read the CA certificate file /nonexistent.pem; give a readable PEM "
                       "file"));
}

TEST(TlsTest, PemFilesAreReadWithABound) {
  EXPECT_THAT(distributed::SetProcessTls("/dev/zero", "", ""),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       "The CA certificate file /dev/zero: is a device, not a file; give a "
                       "readable PEM file"));
  EXPECT_THAT(distributed::SetProcessTls("", "/dev/zero", absl::StrCat(kDir, "server.key")),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       "The certificate file /dev/zero: is a device, not a file; give a readable "
                       "PEM file"));
  EXPECT_THAT(distributed::SetProcessTls(kDir, "", ""),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       absl::StrCat("The CA certificate file ", kDir,
                                    ": is a directory, not a file; give a readable PEM file")));
}

TEST(TlsTest, AFileWithoutAPemBlockIsRefusedWhenNamed) {
  const std::string garbage = ::testing::TempDir() + "/not_a_pem.txt";
  std::ofstream(garbage) << "certainly not a certificate\n";
  EXPECT_THAT(distributed::SetProcessTls(garbage, "", ""),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       absl::StrCat("The CA certificate file ", garbage,
                                    " holds no PEM block ('-----BEGIN ...'); give a PEM file")));
}

}  // namespace
}  // namespace rill
