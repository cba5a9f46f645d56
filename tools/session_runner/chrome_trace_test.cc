#include "tools/session_runner/chrome_trace.h"

#include "gtest/gtest.h"

namespace rill {
namespace {

TEST(ChromeTraceTest, OneProcessPerDeviceAndCompleteEventsRelativeToStart) {
  StepStats stats;
  DeviceStepStats* cpu0 = stats.add_dev_stats();
  cpu0->set_device("/job:localhost/replica:0/task:0/device:CPU:0");
  NodeExecStats* a = cpu0->add_node_stats();
  a->set_node_name("MatMul");
  a->set_all_start_micros(1000);
  a->set_all_end_rel_micros(25);
  a->set_timeline_label("MatMul = MatMul()");
  DeviceStepStats* cpu1 = stats.add_dev_stats();
  cpu1->set_device("/job:localhost/replica:0/task:0/device:CPU:1");
  NodeExecStats* b = cpu1->add_node_stats();
  b->set_node_name("a/_1");
  b->set_all_start_micros(1010);
  b->set_all_end_rel_micros(2);
  b->set_timeline_label("a/_1 = _Send()");
  EXPECT_EQ(StepStatsToChromeTrace(stats),
            "{\"displayTimeUnit\":\"ns\",\"traceEvents\":[\n"
            "{\"ph\":\"M\",\"name\":\"process_name\",\"pid\":0,\"args\":{\"name\":"
            "\"/job:localhost/replica:0/task:0/device:CPU:0\"}},\n"
            "{\"ph\":\"X\",\"cat\":\"Op\",\"name\":\"MatMul\",\"pid\":0,\"tid\":0,\"ts\":0,"
            "\"dur\":25,\"args\":{\"name\":\"MatMul\",\"op\":\"MatMul\"}},\n"
            "{\"ph\":\"M\",\"name\":\"process_name\",\"pid\":1,\"args\":{\"name\":"
            "\"/job:localhost/replica:0/task:0/device:CPU:1\"}},\n"
            "{\"ph\":\"X\",\"cat\":\"Op\",\"name\":\"a/_1\",\"pid\":1,\"tid\":0,\"ts\":10,"
            "\"dur\":2,\"args\":{\"name\":\"a/_1\",\"op\":\"_Send\"}}\n]}\n");
}

}  // namespace
}  // namespace rill
