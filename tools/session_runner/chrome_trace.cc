#include "tools/session_runner/chrome_trace.h"

#include <algorithm>
#include <limits>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_replace.h"

namespace rill {
namespace {

std::string JsonString(const std::string& s) {
  return absl::StrCat("\"", absl::StrReplaceAll(s, {{"\\", "\\\\"}, {"\"", "\\\""}, {"\n", "\\n"}}),
                      "\"");
}

}  // namespace

std::string StepStatsToChromeTrace(const StepStats& stats) {
  int64_t t0 = std::numeric_limits<int64_t>::max();
  for (const auto& dev : stats.dev_stats()) {
    for (const auto& ns : dev.node_stats()) t0 = std::min(t0, ns.all_start_micros());
  }
  if (t0 == std::numeric_limits<int64_t>::max()) t0 = 0;
  std::string out = "{\"displayTimeUnit\":\"ns\",\"traceEvents\":[";
  bool first = true;
  auto add = [&](const std::string& event) {
    if (!first) out += ",";
    out += "\n" + event;
    first = false;
  };
  for (int pid = 0; pid < stats.dev_stats_size(); ++pid) {
    const DeviceStepStats& dev = stats.dev_stats(pid);
    add(absl::StrCat("{\"ph\":\"M\",\"name\":\"process_name\",\"pid\":", pid,
                     ",\"args\":{\"name\":", JsonString(dev.device()), "}}"));
    for (const auto& ns : dev.node_stats()) {
      std::string op = ns.timeline_label();
      size_t eq = op.find(" = ");
      op = eq == std::string::npos ? op : op.substr(eq + 3, op.find('(', eq) - eq - 3);
      add(absl::StrCat(
          "{\"ph\":\"X\",\"cat\":\"Op\",\"name\":", JsonString(ns.node_name()), ",\"pid\":", pid,
          ",\"tid\":", ns.thread_id(), ",\"ts\":", ns.all_start_micros() - t0,
          ",\"dur\":", std::max<int64_t>(ns.all_end_rel_micros(), 0),
          ",\"args\":{\"name\":", JsonString(ns.node_name()), ",\"op\":", JsonString(op), "}}"));
    }
  }
  out += "\n]}\n";
  return out;
}

}  // namespace rill
