// One session, 8 threads x 10,000 runs: a use_locking AssignAdd counter, a fed MatMul, and runs
// that fail on purpose, interleaved (mixed signatures). No deadlock, no lost update (the counter
// ends at exactly the number of increments), every failure is the expected one, and the bytes
// in use on the CPU allocator are the same after the storm as after a warm-up.
// Sessions created, run and closed in a loop leave no thread, no allocator byte and (under
// --config=asan, LeakSanitizer) no heap block behind.
#include <atomic>
#include <filesystem>
#include <iterator>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "core/allocator.h"
#include "core/status_matchers.h"
#include "gmock/gmock.h"
#include "google/protobuf/text_format.h"
#include "gtest/gtest.h"
#include "session/session.h"

namespace rill {
namespace {

constexpr char kGraph[] = R"pb(
  node {
    name: "v"
    op: "VariableV2"
    attr {
      key: "dtype"
      value { type: DT_FLOAT }
    }
    attr {
      key: "shape"
      value { shape {} }
    }
  }
  node {
    name: "zero"
    op: "Const"
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
          float_val: 0
        }
      }
    }
  }
  node {
    name: "one"
    op: "Const"
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
          float_val: 1
        }
      }
    }
  }
  node {
    name: "init"
    op: "Assign"
    input: "v"
    input: "zero"
    attr {
      key: "T"
      value { type: DT_FLOAT }
    }
  }
  node {
    name: "inc"
    op: "AssignAdd"
    input: "v"
    input: "one"
    attr {
      key: "T"
      value { type: DT_FLOAT }
    }
    attr {
      key: "use_locking"
      value { b: true }
    }
  }
  node {
    name: "read"
    op: "Identity"
    input: "v"
    attr {
      key: "T"
      value { type: DT_FLOAT }
    }
  }
  node {
    name: "x"
    op: "Placeholder"
    attr {
      key: "dtype"
      value { type: DT_FLOAT }
    }
  }
  node {
    name: "w"
    op: "Const"
    attr {
      key: "dtype"
      value { type: DT_FLOAT }
    }
    attr {
      key: "value"
      value {
        tensor {
          dtype: DT_FLOAT
          tensor_shape {
            dim { size: 2 }
            dim { size: 2 }
          }
          float_val: 1
          float_val: 2
          float_val: 3
          float_val: 4
        }
      }
    }
  }
  node {
    name: "y"
    op: "MatMul"
    input: "x"
    input: "w"
    attr {
      key: "T"
      value { type: DT_FLOAT }
    }
  }
  node {
    name: "ok"
    op: "Placeholder"
    attr {
      key: "dtype"
      value { type: DT_BOOL }
    }
  }
  node {
    name: "check"
    op: "Assert"
    input: "ok"
    input: "x"
    attr {
      key: "T"
      value { list { type: DT_FLOAT } }
    }
  }
)pb";

TEST(StressTest, EightThreadsTenThousandRunsEachOnOneSession) {
  GraphDef graph;
  ASSERT_TRUE(google::protobuf::TextFormat::ParseFromString(kGraph, &graph));
  SessionOptions options;
  options.config.set_inter_op_parallelism_threads(4);
  auto s = Session::New(options);
  ASSERT_THAT(s.status(), IsOk());
  Session& session = **s;
  ASSERT_THAT(session.Create(graph), IsOk());
  std::vector<Tensor> out;
  ASSERT_THAT(session.Run({}, {}, {"init"}, &out), IsOk());
  const Tensor x = Tensor::FromVector<float>({1, 1}, TensorShape({1, 2}));
  // Warm every signature once, then take the allocator's baseline.
  ASSERT_THAT(session.Run({{"x:0", x}}, {"y:0"}, {}, &out), IsOk());
  EXPECT_THAT(
      session.Run({{"x:0", x}, {"ok:0", Tensor::Scalar<bool>(false)}}, {}, {"check"}, &out),
      StatusIs(absl::StatusCode::kInvalidArgument, ::testing::HasSubstr("assertion failed")));
  ASSERT_THAT(session.Run({}, {}, {"inc"}, &out), IsOk());
  out.clear();
  const int64_t baseline = CpuAllocator::Default()->GetStats().bytes_in_use;

  constexpr int kThreads = 8, kRuns = 10000;
  std::atomic<int> increments{1};  // the warm-up's
  std::atomic<int> wrong{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      std::vector<Tensor> result;
      for (int r = 0; r < kRuns; ++r) {
        if ((r + t) % 10 == 0) {
          // Fails on purpose: Assert(false).
          absl::Status st = session.Run({{"x:0", x}, {"ok:0", Tensor::Scalar<bool>(false)}}, {},
                                        {"check"}, &result);
          if (st.code() != absl::StatusCode::kInvalidArgument ||
              st.message().find("assertion failed") == absl::string_view::npos) {
            ++wrong;
          }
        } else if (r % 3 == 0) {
          if (session.Run({}, {}, {"inc"}, &result).ok()) {
            ++increments;
          } else {
            ++wrong;
          }
        } else {
          absl::Status st = session.Run({{"x:0", x}}, {"y:0"}, {}, &result);
          if (!st.ok() || result[0].flat<float>()[0] != 4.f || result[0].flat<float>()[1] != 6.f) {
            ++wrong;
          }
        }
      }
    });
  }
  for (std::thread& th : threads) th.join();
  EXPECT_EQ(wrong.load(), 0);
  ASSERT_THAT(session.Run({}, {"read:0"}, {}, &out), IsOk());
  EXPECT_EQ(out[0].flat<float>()[0], static_cast<float>(increments.load()));
  out.clear();
  EXPECT_EQ(CpuAllocator::Default()->GetStats().bytes_in_use, baseline)
      << "memory grew over " << kThreads * kRuns << " runs";
}

// Threads of this process (Linux: one entry per thread in /proc/self/task).
int ThreadCount() {
  return static_cast<int>(std::distance(std::filesystem::directory_iterator("/proc/self/task"),
                                        std::filesystem::directory_iterator()));
}

// One session's life: create, initialize, count, read, close.
void SessionLife(const GraphDef& graph, bool per_session_threads) {
  SessionOptions options;
  options.config.set_inter_op_parallelism_threads(2);
  options.config.set_use_per_session_threads(per_session_threads);
  auto s = Session::New(options);
  ASSERT_THAT(s.status(), IsOk());
  ASSERT_THAT((*s)->Create(graph), IsOk());
  std::vector<Tensor> out;
  ASSERT_THAT((*s)->Run({}, {}, {"init"}, &out), IsOk());
  ASSERT_THAT((*s)->Run({}, {}, {"inc"}, &out), IsOk());
  ASSERT_THAT((*s)->Run({}, {"read:0"}, {}, &out), IsOk());
  ASSERT_EQ(out[0].flat<float>()[0], 1.0f);
  ASSERT_THAT((*s)->Close(), IsOk());
}

TEST(StressTest, SessionsCreatedAndClosedInALoopLeaveNothingBehind) {
  GraphDef graph;
  ASSERT_TRUE(google::protobuf::TextFormat::ParseFromString(kGraph, &graph));
  // The first sessions make the process-wide pools (SharedThreadPool in session.cc); after that
  // the counts must stay flat.
  SessionLife(graph, false);
  const int threads = ThreadCount();
  const int64_t bytes = CpuAllocator::Default()->GetStats().bytes_in_use;
  for (int i = 0; i < 500; ++i) SessionLife(graph, false);
  // Sessions with their own pools start and join their threads.
  for (int i = 0; i < 50; ++i) SessionLife(graph, true);
  EXPECT_EQ(ThreadCount(), threads);
  EXPECT_EQ(CpuAllocator::Default()->GetStats().bytes_in_use, bytes);
}

}  // namespace
}  // namespace rill
