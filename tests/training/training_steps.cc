#include "tests/training/training_steps.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <utility>
#include <vector>

#include "core/tensor_proto.h"
#include "gtest/gtest.h"

namespace rill {

void RunTrainingSteps(Session& session, const std::string& name,
                      const google::protobuf::RepeatedPtrField<TrainingStep>& steps,
                      const std::string& loss_fetch, const std::string& train_target, double rtol,
                      double atol) {
  double max_rel = 0;  // reported, so the note can give the real margin
  std::vector<Tensor> out;
  for (int i = 0; i < steps.size(); ++i) {
    std::vector<std::pair<std::string, Tensor>> feeds;
    for (const ConformanceFeed& f : steps[i].feed()) {
      absl::StatusOr<Tensor> t = TensorFromProto(f.value());
      ASSERT_TRUE(t.ok()) << t.status();
      feeds.emplace_back(f.name(), *std::move(t));
    }
    const absl::Status s = session.Run(feeds, {loss_fetch}, {train_target}, &out);
    ASSERT_TRUE(s.ok()) << name << " step " << i << ": " << s;
    const double got = out[0].flat<float>()[0];
    const double want = steps[i].loss();
    EXPECT_LE(std::abs(got - want), atol + rtol * std::abs(want))
        << name << " step " << i << ": loss " << got << ", TensorFlow " << want;
    max_rel = std::max(max_rel, std::abs(got - want) / std::max(std::abs(want), 1e-30));
  }
  std::printf("%s: %d steps, largest relative loss difference from TensorFlow %.3g\n", name.c_str(),
              steps.size(), max_rel);
}

}  // namespace rill
