#include "core/logging.h"

#include <sys/syscall.h>
#include <unistd.h>

#include <cstdlib>
#include <regex>
#include <string>
#include <thread>
#include <vector>

#include "absl/strings/str_cat.h"
#include "core/mutex.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace rill {
namespace {

using ::testing::ElementsAre;
using ::testing::EndsWith;
using ::testing::IsEmpty;
using ::testing::StartsWith;

// Captures emitted lines through SetLogSinkForTesting and resets the level variables.
class LoggingTest : public ::testing::Test {
 protected:
  void SetUp() override {
    unsetenv("RILL_CPP_MIN_LOG_LEVEL");
    unsetenv("RILL_CPP_MIN_VLOG_LEVEL");
    ReloadLogLevelsFromEnv();
    SetLogSinkForTesting([this](absl::string_view line) { lines_.emplace_back(line); });
  }
  void TearDown() override {
    SetLogSinkForTesting(nullptr);
    unsetenv("RILL_CPP_MIN_LOG_LEVEL");
    unsetenv("RILL_CPP_MIN_VLOG_LEVEL");
    ReloadLogLevelsFromEnv();
  }

  void SetEnvAndReload(const char* name, const char* value) {
    ASSERT_EQ(setenv(name, value, 1), 0);
    ReloadLogLevelsFromEnv();
  }

  void LogAllSeverities() {
    RILL_LOG(INFO) << "info";
    RILL_LOG(WARNING) << "warning";
    RILL_LOG(ERROR) << "error";
  }

  // Just the severity letter and the text of each line.
  std::vector<std::string> Summaries() const {
    std::vector<std::string> out;
    for (const std::string& line : lines_) {
      out.push_back(absl::StrCat(line.substr(0, 1), ":", line.substr(line.find("] ") + 2)));
    }
    return out;
  }

  std::vector<std::string> lines_;  // Only touched under the logging mutex or on this thread.
};

TEST_F(LoggingTest, LineHasGlogPrefixAndMessage) {
  const int line = __LINE__ + 1;
  RILL_LOG(INFO) << "hello " << 42 << ' ' << absl::string_view("world");
  ASSERT_EQ(lines_.size(), 1u);
  const std::regex format(R"(I\d{4} \d{2}:\d{2}:\d{2}\.\d{6} (\d+) logging_test\.cc:(\d+)\] (.*))");
  std::smatch m;
  ASSERT_TRUE(std::regex_match(lines_[0], m, format)) << lines_[0];
  EXPECT_EQ(m[1].str(), std::to_string(syscall(SYS_gettid)));
  EXPECT_EQ(m[2].str(), std::to_string(line));
  EXPECT_EQ(m[3].str(), "hello 42 world");
}

TEST_F(LoggingTest, SeverityLetters) {
  LogAllSeverities();
  EXPECT_THAT(Summaries(), ElementsAre("I:info", "W:warning", "E:error"));
}

TEST_F(LoggingTest, MinLogLevelOneDropsInfo) {
  SetEnvAndReload("RILL_CPP_MIN_LOG_LEVEL", "1");
  EXPECT_EQ(MinLogLevel(), 1);
  LogAllSeverities();
  EXPECT_THAT(Summaries(), ElementsAre("W:warning", "E:error"));
}

TEST_F(LoggingTest, MinLogLevelTwoDropsWarning) {
  SetEnvAndReload("RILL_CPP_MIN_LOG_LEVEL", "2");
  LogAllSeverities();
  EXPECT_THAT(Summaries(), ElementsAre("E:error"));
}

TEST_F(LoggingTest, MinLogLevelThreeDropsError) {
  SetEnvAndReload("RILL_CPP_MIN_LOG_LEVEL", "3");
  LogAllSeverities();
  EXPECT_THAT(lines_, IsEmpty());
}

TEST_F(LoggingTest, MalformedLevelCountsAsZero) {
  SetEnvAndReload("RILL_CPP_MIN_LOG_LEVEL", "lots");
  EXPECT_EQ(MinLogLevel(), 0);
  LogAllSeverities();
  EXPECT_EQ(lines_.size(), 3u);
}

TEST_F(LoggingTest, DisabledMessageDoesNotEvaluateOperands) {
  SetEnvAndReload("RILL_CPP_MIN_LOG_LEVEL", "1");
  int evaluations = 0;
  auto count = [&evaluations] { return ++evaluations; };
  RILL_LOG(INFO) << count();
  RILL_VLOG(5) << count();
  EXPECT_EQ(evaluations, 0);
  RILL_LOG(WARNING) << count();
  EXPECT_EQ(evaluations, 1);
}

TEST_F(LoggingTest, VlogFollowsMinVlogLevel) {
  RILL_VLOG(1) << "v1 hidden by default";
  EXPECT_THAT(lines_, IsEmpty());
  EXPECT_FALSE(VlogIsOn(1));

  SetEnvAndReload("RILL_CPP_MIN_VLOG_LEVEL", "2");
  EXPECT_TRUE(VlogIsOn(2));
  EXPECT_FALSE(VlogIsOn(3));
  RILL_VLOG(1) << "v1";
  RILL_VLOG(2) << "v2";
  RILL_VLOG(3) << "v3";
  EXPECT_THAT(Summaries(), ElementsAre("I:v1", "I:v2"));
}

TEST_F(LoggingTest, VlogIsDroppedWithInfo) {
  SetEnvAndReload("RILL_CPP_MIN_VLOG_LEVEL", "5");
  SetEnvAndReload("RILL_CPP_MIN_LOG_LEVEL", "1");
  RILL_VLOG(1) << "v1";
  EXPECT_THAT(lines_, IsEmpty());
}

TEST_F(LoggingTest, MacrosAreSafeInUnbracedIfElse) {
  bool flag = false;
  if (flag)
    RILL_LOG(INFO) << "then";
  else
    RILL_LOG(INFO) << "else";
  EXPECT_THAT(Summaries(), ElementsAre("I:else"));
}

TEST_F(LoggingTest, PassingCheckLogsNothingAndSkipsMessage) {
  int evaluations = 0;
  RILL_CHECK(1 + 1 == 2) << ++evaluations;
  EXPECT_EQ(evaluations, 0);
  EXPECT_THAT(lines_, IsEmpty());
}

TEST_F(LoggingTest, ConcurrentLinesDoNotInterleave) {
  constexpr int kThreads = 8;
  constexpr int kPerThread = 200;
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([t] {
      for (int i = 0; i < kPerThread; ++i) RILL_LOG(INFO) << "thread " << t << " message " << i;
    });
  }
  for (std::thread& th : threads) th.join();
  ASSERT_EQ(lines_.size(), static_cast<size_t>(kThreads * kPerThread));
  const std::regex format(R"(I\d{4} [0-9:.]+ \d+ logging_test\.cc:\d+\] thread \d message \d+)");
  for (const std::string& line : lines_) EXPECT_TRUE(std::regex_match(line, format)) << line;
}

using LoggingDeathTest = LoggingTest;

TEST_F(LoggingDeathTest, FailedCheckAbortsWithMessage) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  SetLogSinkForTesting(nullptr);
  EXPECT_DEATH(RILL_CHECK(1 + 1 == 3) << "math is "
                                      << "broken",
               R"(F[0-9]{4} [0-9:.]+ [0-9]+ logging_test\.cc:[0-9]+\] )"
               R"(Check failed: 1 \+ 1 == 3 math is broken)");
}

TEST_F(LoggingDeathTest, FatalIsNotFilteredAndReachesStderrWithSink) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  SetEnvAndReload("RILL_CPP_MIN_LOG_LEVEL", "3");
  // The fixture's sink is installed; FATAL still goes to stderr.
  EXPECT_DEATH(RILL_LOG(FATAL) << "fatal " << 7, R"(F[0-9]{4} .*\] fatal 7)");
}

TEST_F(LoggingTest, RestoringStderrStopsSink) {
  SetLogSinkForTesting(nullptr);
  testing::internal::CaptureStderr();
  RILL_LOG(WARNING) << "to stderr";
  const std::string err = testing::internal::GetCapturedStderr();
  EXPECT_THAT(lines_, IsEmpty());
  EXPECT_THAT(err, StartsWith("W"));
  EXPECT_THAT(err, EndsWith("] to stderr\n"));
}

// A function that ends in RILL_LOG(FATAL) needs no return statement (the destructor is
// [[noreturn]]); this must compile without -Wreturn-type warnings.
int Unreachable(bool die) {
  if (!die) return 1;
  RILL_LOG(FATAL) << "unreachable";
}

TEST(LoggingCompileTest, FatalIsNoReturn) { EXPECT_EQ(Unreachable(false), 1); }

}  // namespace
}  // namespace rill
