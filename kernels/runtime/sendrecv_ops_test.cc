#include <map>
#include <memory>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "core/mutex.h"
#include "core/status_matchers.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "kernels/framework/op_test_util.h"

namespace rill {
namespace {

using ::testing::ElementsAre;
using ::testing::Eq;

constexpr char kCpu0[] = "/job:localhost/replica:0/task:0/device:CPU:0";
constexpr char kCpu1[] = "/job:localhost/replica:0/task:0/device:CPU:1";

// A rendezvous over a map and a mutex: values wait for receivers, receivers wait for values.
class MapRendezvous final : public Rendezvous {
 public:
  absl::Status Send(const std::string& key, const Tensor& value, bool is_dead) override {
    DoneCallback waiter;
    {
      rill::MutexLock lock(&mu_);
      if (!status_.ok()) return status_;
      sent_keys_.push_back(key);
      auto w = waiters_.find(key);
      if (w == waiters_.end()) {
        if (!values_.emplace(key, Item{value, is_dead}).second) {
          return absl::FailedPreconditionError(absl::StrCat("Duplicated send: ", key));
        }
        return absl::OkStatus();
      }
      waiter = std::move(w->second);
      waiters_.erase(w);
    }
    waiter(absl::OkStatus(), value, is_dead);
    return absl::OkStatus();
  }
  void RecvAsync(const std::string& key, DoneCallback done) override {
    Item item;
    absl::Status status;
    {
      rill::MutexLock lock(&mu_);
      status = status_;
      if (status.ok()) {
        auto v = values_.find(key);
        if (v == values_.end()) {
          waiters_.emplace(key, std::move(done));
          return;
        }
        item = std::move(v->second);
        values_.erase(v);
      }
    }
    done(status, item.value, item.is_dead);
  }
  void Abort(const absl::Status& status) override {
    std::map<std::string, DoneCallback> waiters;
    {
      rill::MutexLock lock(&mu_);
      status_ = status;
      waiters.swap(waiters_);
    }
    for (auto& [key, done] : waiters) done(status, Tensor(), false);
  }
  std::vector<std::string> sent_keys() {
    rill::MutexLock lock(&mu_);
    return sent_keys_;
  }
  bool has_waiter(const std::string& key) {
    rill::MutexLock lock(&mu_);
    return waiters_.count(key) > 0;
  }

 private:
  struct Item {
    Tensor value;
    bool is_dead = false;
  };
  rill::Mutex mu_;
  absl::Status status_;
  std::map<std::string, Item> values_;
  std::map<std::string, DoneCallback> waiters_;
  std::vector<std::string> sent_keys_;
};

void SetSendRecvAttrs(OpTester& t, const std::string& tensor_name, int64_t incarnation) {
  t.Attr("tensor_name", tensor_name)
      .Attr("send_device", kCpu0)
      .Attr("recv_device", kCpu1)
      .Attr("send_device_incarnation", incarnation);
}

std::unique_ptr<OpTester> MakeSend(const std::string& op, MapRendezvous* r, const Tensor& value,
                                   int64_t incarnation = 1) {
  auto t = std::make_unique<OpTester>(op, "send");
  t->Attr("T", value.dtype()).Input(value);
  SetSendRecvAttrs(*t, "edge_5_a", incarnation);
  t->SetRendezvous(r);
  return t;
}

std::unique_ptr<OpTester> MakeRecv(const std::string& op, MapRendezvous* r, DataType dtype,
                                   int64_t incarnation = 1) {
  auto t = std::make_unique<OpTester>(op, "recv");
  t->Attr("tensor_type", dtype);
  SetSendRecvAttrs(*t, "edge_5_a", incarnation);
  t->SetRendezvous(r);
  return t;
}

TEST(SendRecvOpTest, SendThenRecvUsesTensorFlowsKey) {
  MapRendezvous r;
  const Tensor x = Tensor::FromVector<float>({1, 2, 3}, TensorShape({3}));
  auto send = MakeSend("_Send", &r, x);
  RILL_ASSERT_OK_AND_ASSIGN(std::vector<Tensor> sent, send->Run());
  EXPECT_TRUE(sent.empty());
  EXPECT_THAT(r.sent_keys(),
              ElementsAre(absl::StrCat(kCpu0, ";0000000000000001;", kCpu1, ";edge_5_a;0:0")));
  auto recv = MakeRecv("_Recv", &r, DT_FLOAT);
  RILL_ASSERT_OK_AND_ASSIGN(std::vector<Tensor> out, recv->Run());
  ExpectTensorEqual(out[0], x);
  EXPECT_TRUE(out[0].SharesBufferWith(x));
  EXPECT_FALSE(send->kernel().IsExpensive());
  EXPECT_FALSE(recv->kernel().IsExpensive());
  EXPECT_TRUE(recv->kernel().IsAsync());
}

TEST(SendRecvOpTest, RecvBeforeSendCompletesWhenTheValueArrives) {
  MapRendezvous r;
  auto recv = MakeRecv("_Recv", &r, DT_INT64);
  ASSERT_THAT(recv->Init(), IsOk());
  rill::Notification done;
  absl::StatusOr<std::vector<TensorValue>> result;
  recv->RunAsync({}, [&](absl::StatusOr<std::vector<TensorValue>> out) {
    result = std::move(out);
    done.Notify();
  });
  EXPECT_FALSE(done.HasBeenNotified());
  EXPECT_TRUE(r.has_waiter(absl::StrCat(kCpu0, ";0000000000000001;", kCpu1, ";edge_5_a;0:0")));
  const Tensor x = Tensor::FromVector<int64_t>({-7, 8}, TensorShape({2}));
  auto send = MakeSend("_Send", &r, x);
  ASSERT_THAT(send->Run(), IsOk());
  ASSERT_TRUE(done.HasBeenNotified());  // the send ran the waiting callback inline
  ASSERT_THAT(result, IsOk());
  ExpectTensorEqual((*result)[0].tensor, x);
}

TEST(SendRecvOpTest, RecvFromAnotherThread) {
  MapRendezvous r;
  auto recv = MakeRecv("_HostRecv", &r, DT_STRING);
  const Tensor x = Tensor::Scalar<std::string>("hello");
  auto send = MakeSend("_HostSend", &r, x);
  ASSERT_THAT(send->Init(), IsOk());
  std::thread sender([&] { EXPECT_THAT(send->Run(), IsOk()); });
  RILL_ASSERT_OK_AND_ASSIGN(std::vector<Tensor> out, recv->Run());
  sender.join();
  ExpectTensorEqual(out[0], x);
}

TEST(SendRecvOpTest, IncarnationIsSixteenLowercaseHexDigitsOfTheUnsignedValue) {
  MapRendezvous r;
  auto send = MakeSend("_Send", &r, Tensor::Scalar<float>(1), /*incarnation=*/-1);
  ASSERT_THAT(send->Run(), IsOk());
  auto send2 = MakeSend("_HostSend", &r, Tensor::Scalar<float>(1), /*incarnation=*/0xabc);
  ASSERT_THAT(send2->Run(), IsOk());
  EXPECT_THAT(r.sent_keys(),
              ElementsAre(absl::StrCat(kCpu0, ";ffffffffffffffff;", kCpu1, ";edge_5_a;0:0"),
                          absl::StrCat(kCpu0, ";0000000000000abc;", kCpu1, ";edge_5_a;0:0")));
}

TEST(SendRecvOpTest, SendPassesDeadness) {
  MapRendezvous r;
  auto send = MakeSend("_Send", &r, Tensor::Scalar<float>(1));
  send->SetInputDead(true);
  ASSERT_THAT(send->Run(), IsOk());
  rill::Notification got;
  r.RecvAsync(r.sent_keys()[0], [&](const absl::Status& s, const Tensor&, bool is_dead) {
    EXPECT_TRUE(s.ok());
    EXPECT_TRUE(is_dead);
    got.Notify();
  });
  EXPECT_TRUE(got.HasBeenNotified());
}

TEST(SendRecvOpTest, AbortFailsAPendingRecvWithTheAbortStatus) {
  MapRendezvous r;
  auto recv = MakeRecv("_Recv", &r, DT_FLOAT);
  ASSERT_THAT(recv->Init(), IsOk());
  rill::Notification done;
  absl::StatusOr<std::vector<TensorValue>> result;
  recv->RunAsync({}, [&](absl::StatusOr<std::vector<TensorValue>> out) {
    result = std::move(out);
    done.Notify();
  });
  r.Abort(absl::CancelledError("Step was cancelled"));
  ASSERT_TRUE(done.HasBeenNotified());
  EXPECT_THAT(result, StatusIs(absl::StatusCode::kCancelled, Eq("Step was cancelled")));
  // After the abort, a later Recv fails at once and a Send returns the abort status.
  EXPECT_THAT(recv->Run(), StatusIs(absl::StatusCode::kCancelled, Eq("Step was cancelled")));
  auto send = MakeSend("_Send", &r, Tensor::Scalar<float>(1));
  EXPECT_THAT(send->Run(), StatusIs(absl::StatusCode::kCancelled, Eq("Step was cancelled")));
}

TEST(SendRecvOpTest, DuplicateSendFailsTheNode) {
  MapRendezvous r;
  auto send = MakeSend("_Send", &r, Tensor::Scalar<int32_t>(1));
  ASSERT_THAT(send->Run(), IsOk());
  EXPECT_THAT(send->Run(), StatusIs(absl::StatusCode::kFailedPrecondition,
                                    ::testing::HasSubstr("Duplicated send")));
}

TEST(SendRecvOpTest, NoRendezvousIsInternal) {
  OpTester send("_Send", "s");
  send.Attr("T", DT_FLOAT).Input(Tensor::Scalar<float>(1));
  SetSendRecvAttrs(send, "t", 1);
  EXPECT_THAT(send.Run(),
              StatusIs(absl::StatusCode::kInternal, Eq("_Send node s run without a rendezvous")));
  OpTester recv("_Recv", "r");
  recv.Attr("tensor_type", DT_FLOAT);
  SetSendRecvAttrs(recv, "t", 1);
  EXPECT_THAT(recv.Run(),
              StatusIs(absl::StatusCode::kInternal, Eq("_Recv node r run without a rendezvous")));
}

}  // namespace
}  // namespace rill
