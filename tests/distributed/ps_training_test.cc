// Between-graph parameter-server training, the TF1 pattern: the variable and its update on
// /job:ps/task:0, two worker tasks, each driven by its own Session (its own master, targeting
// its own task) computing the gradient of a linear model on its batch; steps alternate between
// the two. The variable must end exactly where one local Session doing the same updates ends.
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_replace.h"
#include "core/status_matchers.h"
#include "distributed/grpc_session.h"
#include "gmock/gmock.h"
#include "google/protobuf/text_format.h"
#include "gtest/gtest.h"
#include "session/session.h"
#include "tests/distributed/cluster_fixture.h"

namespace rill {
namespace {

// loss = mean((sum(x * w, 1) - y)^2) / 2 over a [4, 2] batch; grad = sum(x * err, 0) / 2.
constexpr char kGraph[] = R"pb(
  node {
    name: "w"
    op: "VariableV2"
    device: "{PS}"
    attr {
      key: "dtype"
      value { type: DT_FLOAT }
    }
    attr {
      key: "shape"
      value { shape { dim { size: 2 } } }
    }
  }
  node {
    name: "w0"
    op: "Const"
    device: "{PS}"
    attr {
      key: "dtype"
      value { type: DT_FLOAT }
    }
    attr {
      key: "value"
      value {
        tensor {
          dtype: DT_FLOAT
          tensor_shape { dim { size: 2 } }
          float_val: 0.5
          float_val: -0.25
        }
      }
    }
  }
  node {
    name: "init"
    op: "Assign"
    input: "w"
    input: "w0"
    device: "{PS}"
    attr {
      key: "T"
      value { type: DT_FLOAT }
    }
  }
  node {
    name: "x"
    op: "Placeholder"
    device: "{W}"
    attr {
      key: "dtype"
      value { type: DT_FLOAT }
    }
    attr {
      key: "shape"
      value {
        shape {
          dim { size: 4 }
          dim { size: 2 }
        }
      }
    }
  }
  node {
    name: "y"
    op: "Placeholder"
    device: "{W}"
    attr {
      key: "dtype"
      value { type: DT_FLOAT }
    }
    attr {
      key: "shape"
      value { shape { dim { size: 4 } } }
    }
  }
  node {
    name: "wx"
    op: "Mul"
    input: "x"
    input: "w"
    device: "{W}"
    attr {
      key: "T"
      value { type: DT_FLOAT }
    }
  }
  node {
    name: "one"
    op: "Const"
    device: "{W}"
    attr {
      key: "dtype"
      value { type: DT_INT32 }
    }
    attr {
      key: "value"
      value {
        tensor {
          dtype: DT_INT32
          tensor_shape {}
          int_val: 1
        }
      }
    }
  }
  node {
    name: "zero"
    op: "Const"
    device: "{W}"
    attr {
      key: "dtype"
      value { type: DT_INT32 }
    }
    attr {
      key: "value"
      value {
        tensor {
          dtype: DT_INT32
          tensor_shape {}
          int_val: 0
        }
      }
    }
  }
  node {
    name: "pred"
    op: "Sum"
    input: "wx"
    input: "one"
    device: "{W}"
    attr {
      key: "T"
      value { type: DT_FLOAT }
    }
    attr {
      key: "Tidx"
      value { type: DT_INT32 }
    }
  }
  node {
    name: "err"
    op: "Sub"
    input: "pred"
    input: "y"
    device: "{W}"
    attr {
      key: "T"
      value { type: DT_FLOAT }
    }
  }
  node {
    name: "err2"
    op: "ExpandDims"
    input: "err"
    input: "one"
    device: "{W}"
    attr {
      key: "T"
      value { type: DT_FLOAT }
    }
    attr {
      key: "Tdim"
      value { type: DT_INT32 }
    }
  }
  node {
    name: "xe"
    op: "Mul"
    input: "x"
    input: "err2"
    device: "{W}"
    attr {
      key: "T"
      value { type: DT_FLOAT }
    }
  }
  node {
    name: "gsum"
    op: "Sum"
    input: "xe"
    input: "zero"
    device: "{W}"
    attr {
      key: "T"
      value { type: DT_FLOAT }
    }
    attr {
      key: "Tidx"
      value { type: DT_INT32 }
    }
  }
  node {
    name: "half"
    op: "Const"
    device: "{W}"
    attr {
      key: "dtype"
      value { type: DT_FLOAT }
    }
    attr {
      key: "value"
      value {
        tensor {
          dtype: DT_FLOAT
          tensor_shape {}
          float_val: 0.5
        }
      }
    }
  }
  node {
    name: "grad"
    op: "Mul"
    input: "gsum"
    input: "half"
    device: "{W}"
    attr {
      key: "T"
      value { type: DT_FLOAT }
    }
  }
  node {
    name: "lr"
    op: "Const"
    device: "{PS}"
    attr {
      key: "dtype"
      value { type: DT_FLOAT }
    }
    attr {
      key: "value"
      value {
        tensor {
          dtype: DT_FLOAT
          tensor_shape {}
          float_val: 0.1
        }
      }
    }
  }
  node {
    name: "train"
    op: "ApplyGradientDescent"
    input: "w"
    input: "lr"
    input: "grad"
    device: "{PS}"
    attr {
      key: "T"
      value { type: DT_FLOAT }
    }
  }
  node {
    name: "read"
    op: "Identity"
    input: "w"
    device: "{PS}"
    attr {
      key: "T"
      value { type: DT_FLOAT }
    }
  }
)pb";

GraphDef Graph(const std::string& ps, const std::string& worker) {
  GraphDef g;
  EXPECT_TRUE(google::protobuf::TextFormat::ParseFromString(
      absl::StrReplaceAll(kGraph, {{"{PS}", ps}, {"{W}", worker}}), &g));
  return g;
}

std::vector<std::pair<std::string, Tensor>> Batch(int k) {
  Tensor x(DT_FLOAT, TensorShape({4, 2}));
  Tensor y(DT_FLOAT, TensorShape({4}));
  for (int i = 0; i < 4; ++i) {
    for (int j = 0; j < 2; ++j) x.flat<float>()[i * 2 + j] = (k + 1) * 0.1f * (i + 1) + j * 0.3f;
    y.flat<float>()[i] = i - k * 0.5f;
  }
  return {{"x", x}, {"y", y}};
}

constexpr int kSteps = 6;

std::vector<float> Read(Session& s) {
  std::vector<Tensor> out;
  EXPECT_THAT(s.Run({}, {"read"}, {}, &out), IsOk());
  return {out[0].flat<float>()[0], out[0].flat<float>()[1]};
}

TEST(PsTrainingTest, TwoWorkersUpdatingVariablesOnPsMatchOneProcess) {
  // The local reference: one session, no devices.
  SessionOptions local_options;
  RILL_ASSERT_OK_AND_ASSIGN(std::unique_ptr<Session> local, Session::New(local_options));
  RILL_ASSERT_OK(local->Create(Graph("", "")));
  std::vector<Tensor> out;
  RILL_ASSERT_OK(local->Run({}, {}, {"init"}, &out));
  for (int k = 0; k < kSteps; ++k) RILL_ASSERT_OK(local->Run(Batch(k), {}, {"train"}, &out));
  const std::vector<float> want = Read(*local);

  testing::ClusterFixture cluster;
  RILL_ASSERT_OK(cluster.Start({"ps", "worker", "worker"}));
  std::vector<std::unique_ptr<Session>> workers;
  for (int i = 0; i < 2; ++i) {
    SessionOptions options;
    *options.config.mutable_cluster_def() = cluster.cluster();
    options.config.set_operation_timeout_in_ms(20000);
    options.target = absl::StrCat("grpc://", cluster.address(1 + i));
    RILL_ASSERT_OK_AND_ASSIGN(std::unique_ptr<Session> s, Session::New(options));
    RILL_ASSERT_OK(s->Create(Graph("/job:ps/task:0", absl::StrCat("/job:worker/task:", i))));
    workers.push_back(std::move(s));
  }
  RILL_ASSERT_OK(workers[0]->Run({}, {}, {"init"}, &out));
  for (int k = 0; k < kSteps; ++k) {
    RILL_ASSERT_OK(workers[k % 2]->Run(Batch(k), {}, {"train"}, &out));
  }
  // Both masters see the one variable on the ps task.
  EXPECT_EQ(Read(*workers[0]), want);
  EXPECT_EQ(Read(*workers[1]), want);
  EXPECT_NE(want, (std::vector<float>{0.5f, -0.25f}));
}

}  // namespace
}  // namespace rill
