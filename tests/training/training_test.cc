// TF1 training runs recorded from TensorFlow (tests/tfgen/make_training_cases.py), replayed in one
// Rill Session: run the initializer, then every recorded step with its batch fed, fetching the
// loss and running the train op; the loss must match TensorFlow's at every step (so the seeded
// initial weights, the forward pass, the gradient graph and the optimizer all agree).
// Arguments: the <name>.pbtxt TrainingCase files.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "core/tensor_proto.h"
#include "google/protobuf/text_format.h"
#include "gtest/gtest.h"
#include "session/session.h"
#include "tests/training/training_case.pb.h"
#include "tests/training/training_steps.h"

namespace rill {
namespace {

std::string ReadFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

class TrainingTest : public ::testing::Test {
 public:
  explicit TrainingTest(std::string file) : file_(std::move(file)) {}

  void TestBody() override {
    TrainingCase c;
    ASSERT_TRUE(google::protobuf::TextFormat::ParseFromString(ReadFile(file_), &c))
        << file_ << " does not parse";
    ASSERT_GT(c.step_size(), 0) << file_;
    SessionOptions options;
    auto session = std::move(Session::New(options)).value();
    ASSERT_TRUE(session->Create(c.graph()).ok());
    std::vector<Tensor> out;
    const absl::Status init = session->Run({}, {}, {c.init_target()}, &out);
    ASSERT_TRUE(init.ok()) << init;
    RunTrainingSteps(*session, c.name(), c.step(), c.loss_fetch(), c.train_target(), c.rtol(),
                     c.atol());
  }

 private:
  std::string file_;
};

}  // namespace
}  // namespace rill

int main(int argc, char** argv) {
  ::testing::InitGoogleTest(&argc, argv);
  for (int i = 1; i < argc; ++i) {
    const std::string file = argv[i];
    const std::string base = file.substr(file.find_last_of('/') + 1);
    const std::string name = base.substr(0, base.find('.'));
    ::testing::RegisterTest("Training", name.c_str(), nullptr, nullptr, __FILE__, __LINE__,
                            [file]() -> ::testing::Test* { return new rill::TrainingTest(file); });
  }
  return RUN_ALL_TESTS();
}
