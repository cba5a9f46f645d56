// ScopedFlushDenormal turns FTZ and DAZ on inside its scope and gives the thread its previous
// control word back after; FlushDenormalsOnThisThread sets them for good on its thread only;
// RILL_KEEP_DENORMALS turns both off. The same tests run as denormal_keep_test with
// RILL_KEEP_DENORMALS=1 (see BUILD), where FlushDenormals() is false.
#include "core/denormal.h"

#include <cstdlib>
#include <thread>

#include "gtest/gtest.h"

namespace rill {
namespace {

#if defined(__x86_64__) || defined(__i386__)
constexpr bool kHasFlushBits = true;
#else
constexpr bool kHasFlushBits = false;
#endif

// Arithmetic the compiler cannot fold: the product is done at run time, in the thread's mode.
float Times(float a, float b) {
  volatile float x = a;
  volatile float y = b;
  return x * y;
}
double Times(double a, double b) {
  volatile double x = a;
  volatile double y = b;
  return x * y;
}

constexpr float kSubnormal = 1e-39f;  // below FLT_MIN (1.18e-38)
constexpr double kSubnormalDouble = 1e-310;

// The control word without its exception flags (arithmetic on subnormals raises them).
FloatMode Mode() { return ReadFloatMode() & ~kFloatStatusBits; }

// Whether this process flushes: the environment the test target sets must agree.
bool ExpectFlush() { return !KeepDenormalsFromEnv(std::getenv("RILL_KEEP_DENORMALS")); }

class DenormalTest : public testing::Test {
 protected:
  void SetUp() override {
    if (!kHasFlushBits) GTEST_SKIP() << "no MXCSR on this CPU; the tests read it";
    ASSERT_EQ(FlushDenormals(), ExpectFlush());
    // Every test starts from IEEE 754's mode (what a new thread has).
    outer_ = ReadFloatMode();
    WriteFloatMode(outer_ & ~kFlushDenormalBits);
  }
  void TearDown() override {
    if (kHasFlushBits) WriteFloatMode(outer_);
  }
  FloatMode outer_ = 0;
};

TEST(KeepDenormalsFromEnvTest, OnlyOneTrueOrYesKeep) {
  EXPECT_FALSE(KeepDenormalsFromEnv(nullptr));
  EXPECT_FALSE(KeepDenormalsFromEnv(""));
  EXPECT_FALSE(KeepDenormalsFromEnv("0"));
  EXPECT_FALSE(KeepDenormalsFromEnv("false"));
  EXPECT_FALSE(KeepDenormalsFromEnv("2"));
  EXPECT_TRUE(KeepDenormalsFromEnv("1"));
  EXPECT_TRUE(KeepDenormalsFromEnv("true"));
  EXPECT_TRUE(KeepDenormalsFromEnv("yes"));
}

TEST_F(DenormalTest, GuardFlushesInsideAndRestoresTheWholeControlWordAfter) {
  // A caller's own settings (here: rounding toward zero, bits 13-14) must survive.
  const FloatMode caller = (Mode() & ~kFlushDenormalBits) | 0x6000;
  WriteFloatMode(caller);
  EXPECT_EQ(Times(kSubnormal, 1.0f), kSubnormal);
  {
    ScopedFlushDenormal flush;
    if (ExpectFlush()) {
      EXPECT_EQ(Mode(), caller | kFlushDenormalBits);
      EXPECT_EQ(Times(kSubnormal, 1.0f), 0.0f);      // DAZ: the input reads as 0
      EXPECT_EQ(Times(1e-20f, 1e-20f), 0.0f);        // FTZ: a subnormal product is 0
      EXPECT_EQ(Times(kSubnormalDouble, 1.0), 0.0);  // double too
      EXPECT_EQ(Times(2e-38f, 1.0f), 2e-38f);        // normal values are untouched
    } else {
      EXPECT_EQ(Mode(), caller);
      EXPECT_EQ(Times(kSubnormal, 1.0f), kSubnormal);
      EXPECT_EQ(Times(kSubnormalDouble, 1.0), kSubnormalDouble);
    }
  }
  EXPECT_EQ(Mode(), caller);
  EXPECT_EQ(Times(kSubnormal, 1.0f), kSubnormal);
  EXPECT_EQ(Times(kSubnormalDouble, 1.0), kSubnormalDouble);
}

TEST_F(DenormalTest, ExceptionFlagsRaisedInsideTheGuardSurviveIt) {
  WriteFloatMode(ReadFloatMode() & ~kFloatStatusBits);
  {
    ScopedFlushDenormal flush;
    EXPECT_EQ(Times(1e-20f, 1e-20f), ExpectFlush() ? 0.0f : 1e-40f);
  }
  EXPECT_NE(ReadFloatMode() & 0x10, 0u);  // MXCSR UE: the product underflowed
}

TEST_F(DenormalTest, GuardsNestAndAnInnerChangeIsUndoneAtTheOuterEnd) {
  const FloatMode caller = Mode();
  {
    ScopedFlushDenormal outer;
    const FloatMode inside = Mode();
    {
      ScopedFlushDenormal inner;
      EXPECT_EQ(Mode(), inside);
    }
    EXPECT_EQ(Mode(), inside);
    WriteFloatMode(inside ^ 0x2000);  // a kernel that changed the rounding mode
  }
  EXPECT_EQ(Mode(), caller);
}

TEST_F(DenormalTest, GuardOnAThreadAlreadyFlushingKeepsItFlushing) {
  SetFlushDenormalBits(kFlushDenormalBits);
  const FloatMode before = Mode();
  { ScopedFlushDenormal flush; }
  EXPECT_EQ(Mode(), before);
  EXPECT_EQ(Times(kSubnormal, 1.0f), 0.0f);
}

TEST_F(DenormalTest, SetFlushDenormalBitsChangesOnlyThoseBits) {
  const FloatMode before = Mode();
  SetFlushDenormalBits(kFlushDenormalBits);
  EXPECT_EQ(Mode(), before | kFlushDenormalBits);
  SetFlushDenormalBits(0);
  EXPECT_EQ(Mode(), before);
}

TEST_F(DenormalTest, ThreadSettingStaysOnThatThread) {
  FloatMode in_thread = 0;
  float product = -1.0f;
  std::thread([&] {
    FlushDenormalsOnThisThread();
    in_thread = Mode();
    product = Times(kSubnormal, 1.0f);
  }).join();
  EXPECT_EQ((in_thread & kFlushDenormalBits) != 0, ExpectFlush());
  EXPECT_EQ(product, ExpectFlush() ? 0.0f : kSubnormal);
  EXPECT_EQ(Mode() & kFlushDenormalBits, 0u);
  EXPECT_EQ(Times(kSubnormal, 1.0f), kSubnormal);
}

}  // namespace
}  // namespace rill
