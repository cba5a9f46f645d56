#include "core/device.h"

#include "core/status_matchers.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace rill {
namespace {

class Counter : public ResourceBase {
 public:
  std::string DebugString() const override { return "Counter"; }
  int value = 0;
};

class Other : public ResourceBase {
 public:
  std::string DebugString() const override { return "Other"; }
};

TEST(DeviceTest, CpuDeviceHasTensorFlowAttributes) {
  std::unique_ptr<Device> d = NewCpuDevice("/job:localhost/replica:0/task:0/device:CPU:0");
  EXPECT_EQ(d->name(), "/job:localhost/replica:0/task:0/device:CPU:0");
  EXPECT_EQ(d->device_type(), "CPU");
  EXPECT_EQ(d->attributes().memory_limit(), 268435456);
  EXPECT_NE(d->attributes().incarnation(), 0u);
  std::unique_ptr<Device> e = NewCpuDevice("/job:localhost/replica:0/task:0/device:CPU:1");
  EXPECT_NE(d->attributes().incarnation(), e->attributes().incarnation());
  EXPECT_EQ(d->allocator(), CpuAllocator::Default());
  RILL_EXPECT_OK(d->Sync());
}

TEST(ResourceMgrTest, LookupOrCreateCreatesOnceAndChecksType) {
  ResourceMgr rm;
  int created = 0;
  auto make = [&] {
    ++created;
    return std::make_shared<Counter>();
  };
  RILL_ASSERT_OK_AND_ASSIGN(std::shared_ptr<Counter> a, rm.LookupOrCreate<Counter>("", "c", make));
  a->value = 5;
  RILL_ASSERT_OK_AND_ASSIGN(std::shared_ptr<Counter> b, rm.LookupOrCreate<Counter>("", "c", make));
  EXPECT_EQ(b->value, 5);
  EXPECT_EQ(created, 1);
  EXPECT_THAT(rm.LookupOrCreate<Other>("", "c", [] { return std::make_shared<Other>(); }),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       ::testing::HasSubstr("exists with a different type")));
  EXPECT_THAT(rm.Lookup<Counter>("x", "c"),
              StatusIs(absl::StatusCode::kNotFound, "Resource x/c does not exist."));
  rm.Clear();
  EXPECT_EQ(rm.size(), 0);
  EXPECT_EQ(a->value, 5);  // still alive through the shared_ptr
}

}  // namespace
}  // namespace rill
