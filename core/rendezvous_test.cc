#include "core/rendezvous.h"

#include "gtest/gtest.h"

namespace rill {
namespace {

TEST(RendezvousKeyTest, UsesTensorFlowsFormat) {
  EXPECT_EQ(CreateRendezvousKey("/job:localhost/replica:0/task:0/device:CPU:0", 0x1f,
                                "/job:localhost/replica:0/task:0/device:CPU:1", "edge_5_a"),
            "/job:localhost/replica:0/task:0/device:CPU:0;000000000000001f;"
            "/job:localhost/replica:0/task:0/device:CPU:1;edge_5_a;0:0");
}

}  // namespace
}  // namespace rill
