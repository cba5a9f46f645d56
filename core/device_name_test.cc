#include "core/device_name.h"

#include <algorithm>
#include <ostream>
#include <string>
#include <utility>
#include <vector>

#include "core/status_matchers.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace rill {

// Lets gtest print DeviceName values in failure messages (found by ADL).
void PrintTo(const DeviceName& n, std::ostream* os) {
  *os << "{job=" << (n.has_job ? n.job : "<unset>")
      << " replica=" << (n.has_replica ? std::to_string(n.replica) : "<unset>")
      << " task=" << (n.has_task ? std::to_string(n.task) : "<unset>")
      << " type=" << (n.has_type ? n.type : "<unset>")
      << " id=" << (n.has_id ? std::to_string(n.id) : "<unset>") << "}";
}

namespace {

using ::testing::HasSubstr;

constexpr int kUnset = -1;

// Builds a DeviceName; nullptr / kUnset leave a component unset.
DeviceName Make(const char* job, int replica, int task, const char* type, int id) {
  DeviceName n;
  if (job != nullptr) {
    n.has_job = true;
    n.job = job;
  }
  if (replica != kUnset) {
    n.has_replica = true;
    n.replica = replica;
  }
  if (task != kUnset) {
    n.has_task = true;
    n.task = task;
  }
  if (type != nullptr) {
    n.has_type = true;
    n.type = type;
  }
  if (id != kUnset) {
    n.has_id = true;
    n.id = id;
  }
  return n;
}

DeviceName Type(const char* type, int id = kUnset) {
  return Make(nullptr, kUnset, kUnset, type, id);
}

DeviceName MustParse(absl::string_view s) {
  absl::StatusOr<DeviceName> n = ParseDeviceName(s);
  EXPECT_THAT(n, IsOk()) << s;
  return n.ok() ? *n : DeviceName();
}

std::string Malformed(absl::string_view s) {
  return "Malformed device specification '" + std::string(s) + "'";
}

// ---- Spec §1.2 parser rules ------------------------------------------------

struct ParseCase {
  const char* input;
  DeviceName expected;
};

TEST(ParseDeviceNameTest, AcceptsEveryDocumentedForm) {
  const ParseCase kCases[] = {
      // Empty and "/" set nothing.
      {"", DeviceName()},
      {"/", DeviceName()},
      // Full, canonical.
      {"/job:localhost/replica:0/task:0/device:GPU:1", Make("localhost", 0, 0, "GPU", 1)},
      {"/job:localhost/replica:0/task:0/device:CPU:0", Make("localhost", 0, 0, "CPU", 0)},
      // Partial names, any subset.
      {"/device:GPU:1", Type("GPU", 1)},
      {"/job:worker/task:3", Make("worker", kUnset, 3, nullptr, kUnset)},
      {"/replica:0", Make(nullptr, 0, kUnset, nullptr, kUnset)},
      {"/task:12", Make(nullptr, kUnset, 12, nullptr, kUnset)},
      {"/job:ps", Make("ps", kUnset, kUnset, nullptr, kUnset)},
      // Any order.
      {"/device:GPU:1/task:2/job:w/replica:3", Make("w", 3, 2, "GPU", 1)},
      {"/task:0/job:localhost", Make("localhost", kUnset, 0, nullptr, kUnset)},
      {"/gpu:1/job:w", Make("w", kUnset, kUnset, "GPU", 1)},
      // Type without id; "*" means unset.
      {"/device:GPU", Type("GPU")},
      {"/device:GPU:*", Type("GPU")},
      {"/job:*/device:GPU:*", Type("GPU")},
      {"/job:*/replica:*/task:*/device:*", DeviceName()},
      {"/job:*/replica:*/task:*/device:*:*", DeviceName()},
      {"/job:w/replica:*/task:1", Make("w", kUnset, 1, nullptr, kUnset)},
      {"/device:GPU/job:w", Make("w", kUnset, kUnset, "GPU", kUnset)},
      // "/device:*:N": type unset but id set (TensorFlow quirk, kept).
      {"/device:*:3", Type(nullptr, 3)},
      // Legacy lower- and upper-case forms map to CPU / GPU.
      {"/cpu:0", Type("CPU", 0)},
      {"/CPU:0", Type("CPU", 0)},
      {"/gpu:1", Type("GPU", 1)},
      {"/GPU:1", Type("GPU", 1)},
      {"/cpu:*", Type("CPU")},
      {"/gpu:*", Type("GPU")},
      {"/job:localhost/replica:0/task:0/cpu:0", Make("localhost", 0, 0, "CPU", 0)},
      {"/job:localhost/replica:0/task:0/gpu:1", Make("localhost", 0, 0, "GPU", 1)},
      // After /device: the type is kept verbatim.
      {"/device:gpu:0", Type("gpu", 0)},
      {"/device:cpu:0", Type("cpu", 0)},
      {"/device:XLA_GPU:3", Type("XLA_GPU", 3)},
      {"/device:TPU_SYSTEM:0", Type("TPU_SYSTEM", 0)},
      {"/device:a1_:0", Type("a1_", 0)},
      // Job names: a letter, then letters, digits, '_'.
      {"/job:worker_1", Make("worker_1", kUnset, kUnset, nullptr, kUnset)},
      {"/job:W9", Make("W9", kUnset, kUnset, nullptr, kUnset)},
      {"/job:a", Make("a", kUnset, kUnset, nullptr, kUnset)},
      // Numbers: decimal digits, leading zeros allowed, up to INT_MAX.
      {"/replica:007/task:010/device:GPU:01", Make(nullptr, 7, 10, "GPU", 1)},
      {"/task:2147483647", Make(nullptr, kUnset, 2147483647, nullptr, kUnset)},
      // A repeated component: the later one wins.
      {"/job:a/job:b", Make("b", kUnset, kUnset, nullptr, kUnset)},
      {"/task:1/task:2", Make(nullptr, kUnset, 2, nullptr, kUnset)},
      {"/replica:1/replica:*", DeviceName()},
      {"/gpu:0/cpu:1", Type("CPU", 1)},
      {"/device:GPU:0/device:CPU", Type("CPU")},
      {"/device:CPU:0/gpu:*", Type("GPU")},
      {"/job:a/device:GPU:0/job:*", Type("GPU", 0)},
  };
  for (const ParseCase& c : kCases) {
    absl::StatusOr<DeviceName> got = ParseDeviceName(c.input);
    ASSERT_THAT(got, IsOk()) << c.input;
    EXPECT_EQ(*got, c.expected) << c.input;
  }
}

TEST(ParseDeviceNameTest, RejectsMalformedWithExactMessage) {
  const char* const kCases[] = {
      // Local / short names are Python-only.
      "GPU:0",
      "gpu:0",
      "CPU:0",
      // Missing leading slash, empty or stray components.
      "job:a",
      "//",
      "/job:a/",
      "/device:GPU:0/",
      "/job:a//task:1",
      " /cpu:0",
      "/cpu:0 ",
      // Unknown components or spellings.
      "/gpu",
      "/cpu",
      "/Gpu:0",
      "/xpu:0",
      "/device",
      "/job",
      "/job:a/extra",
      "/jobs:a",
      "/device:GPU:0x1",
      // Job name charset.
      "/job:",
      "/job:1a",
      "/job:_a",
      "/job:a-b",
      "/job:a:b",
      "/job:a.b",
      "/job:*x",
      // Numbers: digits only, no sign, no overflow.
      "/replica:",
      "/replica:-1",
      "/replica:+1",
      "/task:x",
      "/task:",
      "/replica:2147483648",
      "/task:99999999999999999999999",
      // Device type and id.
      "/device:",
      "/device:1GPU:0",
      "/device:_GPU:0",
      "/device:GPU-0",
      "/device:GP U:0",
      "/device:GPU:",
      "/device:GPU:-1",
      "/device:GPU:a",
      "/device:**",
      "/gpu:",
      "/gpu:-1",
      "/CPU:x",
      "/gpu:1:2",
  };
  for (const char* input : kCases) {
    EXPECT_THAT(ParseDeviceName(input),
                StatusIs(absl::StatusCode::kInvalidArgument, Malformed(input)))
        << input;
  }
  // The message quotes the device so callers can prepend or append the node.
  EXPECT_THAT(ParseDeviceName("/job:a-b"),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("'/job:a-b'")));
}

TEST(ParseLocalDeviceNameTest, AcceptsTypeColonId) {
  const ParseCase kCases[] = {
      {"GPU:0", Type("GPU", 0)},
      {"CPU:12", Type("CPU", 12)},
      {"gpu:0", Type("gpu", 0)},  // Verbatim, unlike the legacy /gpu:0.
      {"XLA_CPU:1", Type("XLA_CPU", 1)},
  };
  for (const ParseCase& c : kCases) {
    absl::StatusOr<DeviceName> got = ParseLocalDeviceName(c.input);
    ASSERT_THAT(got, IsOk()) << c.input;
    EXPECT_EQ(*got, c.expected) << c.input;
  }
}

TEST(ParseLocalDeviceNameTest, RejectsEverythingElse) {
  const char* const kCases[] = {"",       "GPU",    "GPU:",   "GPU:*", "/device:GPU:0",
                                "/gpu:0", "GPU:0/", ":0",     "0:0",   "GPU:0:1",
                                "GPU:-1", "G-U:0",  "GPU :0", "GPU:0 "};
  for (const char* input : kCases) {
    EXPECT_THAT(ParseLocalDeviceName(input),
                StatusIs(absl::StatusCode::kInvalidArgument, Malformed(input)))
        << input;
  }
}

TEST(ParseFullOrLocalDeviceNameTest, TriesFullThenLocal) {
  EXPECT_EQ(MustParse("/gpu:1"), Type("GPU", 1));
  absl::StatusOr<DeviceName> local = ParseFullOrLocalDeviceName("GPU:1");
  ASSERT_THAT(local, IsOk());
  EXPECT_EQ(*local, Type("GPU", 1));
  absl::StatusOr<DeviceName> full = ParseFullOrLocalDeviceName("/job:a/device:CPU:0");
  ASSERT_THAT(full, IsOk());
  EXPECT_EQ(*full, Make("a", kUnset, kUnset, "CPU", 0));
  EXPECT_THAT(ParseFullOrLocalDeviceName("junk"),
              StatusIs(absl::StatusCode::kInvalidArgument, Malformed("junk")));
}

// ---- Spec §1.3 printing ----------------------------------------------------

TEST(DeviceNameToStringTest, PrintsSetComponentsInCanonicalOrder) {
  struct Case {
    const char* input;
    const char* printed;
  };
  const Case kCases[] = {
      {"", ""},
      {"/", ""},
      {"/gpu:1", "/device:GPU:1"},
      {"/GPU:1", "/device:GPU:1"},
      {"/cpu:0", "/device:CPU:0"},
      {"/gpu:*", "/device:GPU:*"},
      {"/device:GPU", "/device:GPU:*"},
      {"/device:GPU:*", "/device:GPU:*"},
      {"/job:*/device:GPU:*", "/device:GPU:*"},
      {"/device:gpu:0", "/device:gpu:0"},
      {"/device:GPU:1/task:2/job:w/replica:3", "/job:w/replica:3/task:2/device:GPU:1"},
      {"/task:3/job:worker", "/job:worker/task:3"},
      {"/replica:0", "/replica:0"},
      {"/replica:007", "/replica:7"},
      {"/job:localhost/replica:0/task:0/gpu:1", "/job:localhost/replica:0/task:0/device:GPU:1"},
      {"/job:localhost/replica:0/task:0/device:CPU:0",
       "/job:localhost/replica:0/task:0/device:CPU:0"},
      {"/job:a/job:b/gpu:0/cpu:1", "/job:b/device:CPU:1"},
  };
  for (const Case& c : kCases) {
    const DeviceName parsed = MustParse(c.input);
    EXPECT_EQ(DeviceNameToString(parsed), c.printed) << c.input;
    // Printing is canonical: parsing the printed form gives the same name back.
    EXPECT_EQ(MustParse(c.printed), parsed) << c.input;
  }
  // An id without a type is not printed.
  EXPECT_EQ(DeviceNameToString(MustParse("/device:*:3")), "");
  EXPECT_EQ(DeviceNameToString(Make("j", 1, 2, nullptr, 3)), "/job:j/replica:1/task:2");
}

TEST(DeviceNameToStringTest, FullAndLegacyNames) {
  EXPECT_EQ(FullDeviceName("GPU", 1), "/job:localhost/replica:0/task:0/device:GPU:1");
  EXPECT_EQ(FullDeviceName("CPU", 0), "/job:localhost/replica:0/task:0/device:CPU:0");
  EXPECT_EQ(FullDeviceName("worker", 1, 2, "GPU", 3), "/job:worker/replica:1/task:2/device:GPU:3");
  EXPECT_EQ(LegacyDeviceName("GPU", 1), "/job:localhost/replica:0/task:0/gpu:1");
  EXPECT_EQ(LegacyDeviceName("CPU", 0), "/job:localhost/replica:0/task:0/cpu:0");
  EXPECT_EQ(LegacyDeviceName("ps", 0, 4, "XLA_GPU", 2), "/job:ps/replica:0/task:4/xla_gpu:2");
  // The full name and its legacy alias name the same device.
  EXPECT_EQ(MustParse(LegacyDeviceName("GPU", 1)), MustParse(FullDeviceName("GPU", 1)));
  EXPECT_EQ(MustParse(LegacyDeviceName("CPU", 7)), Make("localhost", 0, 0, "CPU", 7));
  EXPECT_TRUE(IsFullySpecified(MustParse(FullDeviceName("GPU", 10))));
}

TEST(DeviceNameTest, EqualityIgnoresValuesOfUnsetComponents) {
  EXPECT_EQ(MustParse("/gpu:1"), MustParse("/device:GPU:1"));
  EXPECT_EQ(MustParse("/job:*"), MustParse(""));
  EXPECT_NE(MustParse("/device:GPU"), MustParse("/device:GPU:0"));
  EXPECT_NE(MustParse("/device:GPU:0"), MustParse("/device:gpu:0"));
  EXPECT_NE(MustParse("/job:a"), MustParse("/job:b"));
  EXPECT_NE(MustParse("/replica:0"), MustParse(""));
  DeviceName a;
  DeviceName b;
  b.job = "ignored";
  b.id = 5;
  EXPECT_EQ(a, b);
  b.has_id = true;
  EXPECT_NE(a, b);
  b.Clear();
  EXPECT_EQ(a, b);
}

// ---- Spec §1.4 relations ---------------------------------------------------

struct RelationCase {
  const char* a;
  const char* b;
  bool expected;
};

TEST(DeviceNameRelationTest, IsFullySpecified) {
  EXPECT_TRUE(IsFullySpecified(MustParse("/job:a/replica:0/task:1/device:GPU:0")));
  EXPECT_TRUE(IsFullySpecified(MustParse("/job:a/replica:0/task:1/cpu:0")));
  EXPECT_FALSE(IsFullySpecified(MustParse("/job:a/replica:0/task:1/device:GPU")));
  EXPECT_FALSE(IsFullySpecified(MustParse("/replica:0/task:1/device:GPU:0")));
  EXPECT_FALSE(IsFullySpecified(MustParse("")));
}

TEST(DeviceNameRelationTest, MatchesConcreteDevice) {
  const std::string kDevice = "/job:localhost/replica:0/task:0/device:GPU:1";
  const RelationCase kCases[] = {
      {"", kDevice.c_str(), true},
      {"/", kDevice.c_str(), true},
      {"/device:GPU:1", kDevice.c_str(), true},
      {"/gpu:1", kDevice.c_str(), true},
      {"/GPU:1", kDevice.c_str(), true},
      {"/device:GPU", kDevice.c_str(), true},
      {"/job:*/device:GPU:*", kDevice.c_str(), true},
      {"/job:localhost/task:0", kDevice.c_str(), true},
      {kDevice.c_str(), kDevice.c_str(), true},
      {"/job:localhost/replica:0/task:0/gpu:1", kDevice.c_str(), true},
      {"/device:GPU:0", kDevice.c_str(), false},
      {"/device:CPU:1", kDevice.c_str(), false},
      {"/device:CPU", kDevice.c_str(), false},
      {"/device:gpu:1", kDevice.c_str(), false},  // Case-sensitive type.
      {"/job:worker", kDevice.c_str(), false},
      {"/replica:1", kDevice.c_str(), false},
      {"/task:1", kDevice.c_str(), false},
      // A component set in the pattern but unset in the device does not match.
      {"/device:GPU:1", "/device:GPU", false},
      {"/job:a", "/device:GPU:1", false},
  };
  for (const RelationCase& c : kCases) {
    EXPECT_EQ(Matches(MustParse(c.a), MustParse(c.b)), c.expected) << c.a << " vs " << c.b;
  }
}

TEST(DeviceNameRelationTest, IsSpecification) {
  const RelationCase kCases[] = {
      {"", "/job:a", true},
      {"", "", true},
      {"/job:a", "", false},
      {"/device:GPU", "/device:GPU:0", true},
      {"/device:GPU:0", "/device:GPU", false},
      {"/job:a/task:1", "/job:a/replica:0/task:1/device:CPU:0", true},
      {"/job:a/replica:0/task:1/device:CPU:0", "/job:a/task:1", false},
      {"/job:a", "/job:b", false},
      {"/replica:0", "/replica:1", false},
      {"/task:0", "/task:1", false},
      {"/device:CPU", "/device:GPU", false},
      {"/device:GPU:0", "/device:GPU:1", false},
      {"/gpu:0", "/device:GPU:0", true},
      {"/job:a/device:GPU:0", "/job:a/device:GPU:0", true},
  };
  for (const RelationCase& c : kCases) {
    EXPECT_EQ(IsSpecification(MustParse(c.a), MustParse(c.b)), c.expected) << c.a << " vs " << c.b;
  }
}

TEST(DeviceNameRelationTest, AreCompatibleIsSymmetric) {
  const RelationCase kCases[] = {
      {"", "/job:a/replica:0/task:0/device:GPU:0", true},
      {"/job:a", "/device:GPU:0", true},
      {"/device:GPU", "/device:GPU:1", true},
      {"/job:a/device:GPU", "/job:a/task:1", true},
      {"/job:a", "/job:b", false},
      {"/replica:0", "/replica:1", false},
      {"/task:0", "/task:1", false},
      {"/device:CPU", "/device:GPU", false},
      {"/device:GPU:0", "/device:GPU:1", false},
      {"/device:gpu:0", "/gpu:0", false},
      {"/device:*:0", "/device:CPU:1", false},
  };
  for (const RelationCase& c : kCases) {
    EXPECT_EQ(AreCompatible(MustParse(c.a), MustParse(c.b)), c.expected) << c.a << " vs " << c.b;
    EXPECT_EQ(AreCompatible(MustParse(c.b), MustParse(c.a)), c.expected) << c.b << " vs " << c.a;
  }
}

TEST(DeviceNameRelationTest, IsSameAddressSpace) {
  const RelationCase kCases[] = {
      {"/job:a/replica:0/task:1/device:GPU:0", "/job:a/replica:0/task:1/device:CPU:0", true},
      {"/job:a/replica:0/task:1", "/job:a/replica:0/task:1", true},
      {"/job:a/replica:0/task:1", "/job:a/replica:0/task:2", false},
      {"/job:a/replica:0/task:1", "/job:b/replica:0/task:1", false},
      {"/job:a/replica:0/task:1", "/job:a/replica:1/task:1", false},
      {"/job:a/task:1", "/job:a/task:1", false},  // Replica unset.
      {"", "", false},
  };
  for (const RelationCase& c : kCases) {
    EXPECT_EQ(IsSameAddressSpace(MustParse(c.a), MustParse(c.b)), c.expected)
        << c.a << " vs " << c.b;
  }
}

// ---- Spec §1.4 merge -------------------------------------------------------

struct MergeCase {
  const char* target;
  const char* other;
  bool allow_soft_placement;
  // On success: the merged target, printed. On failure: the exact error
  // message.
  const char* result;
  bool ok;
};

TEST(MergeDeviceNamesTest, MergesAndReportsConflicts) {
  const MergeCase kCases[] = {
      // No conflict: every component set in `other` is copied.
      {"", "/job:a/replica:1/task:2/device:GPU:3", false, "/job:a/replica:1/task:2/device:GPU:3",
       true},
      {"/job:a", "/device:GPU:0", false, "/job:a/device:GPU:0", true},
      {"/device:GPU", "/device:GPU:1", false, "/device:GPU:1", true},
      {"/device:GPU:1", "/device:GPU", false, "/device:GPU:1", true},
      {"/device:GPU:1", "", false, "/device:GPU:1", true},
      {"/gpu:0", "/device:GPU:0", false, "/device:GPU:0", true},
      {"/job:a/task:1", "/job:a/replica:0", true, "/job:a/replica:0/task:1", true},
      // job / replica / task conflicts fail even with soft placement.
      {"/job:a", "/job:b", false,
       "Cannot merge devices with incompatible jobs: '/job:a' and '/job:b'", false},
      {"/job:a", "/job:b", true,
       "Cannot merge devices with incompatible jobs: '/job:a' and '/job:b'", false},
      {"/replica:0", "/replica:1", false,
       "Cannot merge devices with incompatible replicas: '/replica:0' and "
       "'/replica:1'",
       false},
      {"/replica:0", "/replica:1", true,
       "Cannot merge devices with incompatible replicas: '/replica:0' and "
       "'/replica:1'",
       false},
      {"/task:0/gpu:0", "/task:1", false,
       "Cannot merge devices with incompatible tasks: '/task:0/device:GPU:0' "
       "and '/task:1'",
       false},
      {"/task:0", "/task:1/device:CPU:0", true,
       "Cannot merge devices with incompatible tasks: '/task:0' and "
       "'/task:1/device:CPU:0'",
       false},
      // Type conflict: error, or with soft placement clear type and id and
      // stop.
      {"/job:a/device:GPU:0", "/device:CPU:0", false,
       "Cannot merge devices with incompatible types: '/job:a/device:GPU:0' "
       "and '/device:CPU:0'",
       false},
      {"/job:a/device:GPU:0", "/device:CPU:0", true, "/job:a", true},
      {"/device:GPU:0", "/device:CPU", true, "", true},
      {"/device:GPU", "/device:CPU:1", true, "", true},  // The id is not merged either.
      {"/device:GPU:0", "/device:gpu:0", false,
       "Cannot merge devices with incompatible types: '/device:GPU:0' and "
       "'/device:gpu:0'",
       false},
      // Id conflict: error, or with soft placement clear the id.
      {"/device:GPU:0", "/device:GPU:1", false,
       "Cannot merge devices with incompatible ids: '/device:GPU:0' and "
       "'/device:GPU:1'",
       false},
      {"/device:GPU:0", "/device:GPU:1", true, "/device:GPU:*", true},
      {"/job:a/gpu:0", "/task:2/gpu:1", true, "/job:a/task:2/device:GPU:*", true},
      // The message shows the target as merged so far (job/replica/task already
      // copied).
      {"/job:a/device:GPU:0", "/task:3/device:GPU:1", false,
       "Cannot merge devices with incompatible ids: "
       "'/job:a/task:3/device:GPU:0' and "
       "'/task:3/device:GPU:1'",
       false},
  };
  for (const MergeCase& c : kCases) {
    DeviceName target = MustParse(c.target);
    const absl::Status s = MergeDeviceNames(&target, MustParse(c.other), c.allow_soft_placement);
    const std::string label =
        std::string(c.target) + " + " + c.other + (c.allow_soft_placement ? " (soft)" : "");
    if (c.ok) {
      EXPECT_THAT(s, IsOk()) << label;
      EXPECT_EQ(DeviceNameToString(target), c.result) << label;
    } else {
      EXPECT_THAT(s, StatusIs(absl::StatusCode::kInvalidArgument, c.result)) << label;
    }
  }
}

TEST(MergeDeviceNamesTest, SoftTypeConflictClearsTypeAndId) {
  DeviceName target = MustParse("/job:a/device:GPU:0");
  RILL_ASSERT_OK(MergeDeviceNames(&target, MustParse("/device:CPU:1"), true));
  EXPECT_EQ(target, Make("a", kUnset, kUnset, nullptr, kUnset));
  EXPECT_FALSE(target.has_id);
}

TEST(MergeDeviceNamesTest, ErrorLeavesEarlierComponentsMerged) {
  DeviceName target = MustParse("/job:a/device:GPU:0");
  EXPECT_THAT(MergeDeviceNames(&target, MustParse("/task:3/device:CPU:0"), false),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("incompatible types")));
  EXPECT_EQ(target, Make("a", kUnset, 3, "GPU", 0));
}

TEST(MergeOverrideDeviceNamesTest, OtherWinsTypeAndIdConflicts) {
  const MergeCase kCases[] = {
      {"/device:GPU:0", "/device:CPU:1", true, "/device:CPU:1", true},
      {"/device:GPU:0", "/device:CPU", true, "/device:CPU:0", true},  // Keeps target's id.
      {"/device:GPU:0", "/device:GPU:1", true, "/device:GPU:1", true},
      {"/job:a/device:GPU", "/replica:0/device:GPU:2", true, "/job:a/replica:0/device:GPU:2", true},
      {"", "/job:localhost/replica:0/task:0/device:CPU:0", true,
       "/job:localhost/replica:0/task:0/device:CPU:0", true},
      {"/job:a", "/job:b", true,
       "Cannot merge devices with incompatible jobs: '/job:a' and '/job:b'", false},
      {"/replica:0", "/replica:2", true,
       "Cannot merge devices with incompatible replicas: '/replica:0' and "
       "'/replica:2'",
       false},
      {"/task:0", "/task:2", true,
       "Cannot merge devices with incompatible tasks: '/task:0' and '/task:2'", false},
  };
  for (const MergeCase& c : kCases) {
    DeviceName target = MustParse(c.target);
    const absl::Status s = MergeOverrideDeviceNames(&target, MustParse(c.other));
    const std::string label = std::string(c.target) + " + " + c.other;
    if (c.ok) {
      EXPECT_THAT(s, IsOk()) << label;
      EXPECT_EQ(DeviceNameToString(target), c.result) << label;
    } else {
      EXPECT_THAT(s, StatusIs(absl::StatusCode::kInvalidArgument, c.result)) << label;
    }
  }
}

// ---- Spec §1.5 ordering ----------------------------------------------------

TEST(DeviceOrderTest, TypePriorities) {
  EXPECT_EQ(DeviceTypePriority("GPU"), 210);
  EXPECT_EQ(DeviceTypePriority("CPU"), 60);
  EXPECT_EQ(DeviceTypePriority("gpu"), -1);
  EXPECT_EQ(DeviceTypePriority("TPU"), -1);
  EXPECT_EQ(DeviceTypePriority(""), -1);
}

TEST(DeviceOrderTest, PriorityThenNameAsString) {
  std::vector<DeviceName> devices;
  for (const auto& [type, id] : std::vector<std::pair<const char*, int>>{
           {"CPU", 1}, {"GPU", 2}, {"XLA_CPU", 0}, {"GPU", 10}, {"CPU", 0}, {"GPU", 1}}) {
    devices.push_back(MustParse(FullDeviceName(type, id)));
  }
  std::sort(devices.begin(), devices.end(),
            [](const DeviceName& a, const DeviceName& b) { return DeviceOrderLess(a, b); });
  std::vector<std::string> names;
  for (const DeviceName& d : devices) names.push_back(DeviceNameToString(d));
  EXPECT_THAT(names,
              ::testing::ElementsAre(FullDeviceName("GPU", 1), FullDeviceName("GPU", 10),
                                     FullDeviceName("GPU", 2), FullDeviceName("CPU", 0),
                                     FullDeviceName("CPU", 1), FullDeviceName("XLA_CPU", 0)));
}

TEST(DeviceOrderTest, GpuTenSortsBeforeGpuTwo) {
  const std::string gpu10 = FullDeviceName("GPU", 10);
  const std::string gpu2 = FullDeviceName("GPU", 2);
  EXPECT_TRUE(DeviceOrderLess(210, gpu10, 210, gpu2));
  EXPECT_FALSE(DeviceOrderLess(210, gpu2, 210, gpu10));
  EXPECT_TRUE(DeviceOrderLess(MustParse(gpu10), MustParse(gpu2)));
  // Priority first: a CPU never precedes a GPU, whatever the names.
  EXPECT_TRUE(DeviceOrderLess(210, "z", 60, "a"));
  EXPECT_FALSE(DeviceOrderLess(60, "a", 210, "z"));
  // Irreflexive.
  EXPECT_FALSE(DeviceOrderLess(210, gpu2, 210, gpu2));
  EXPECT_FALSE(DeviceOrderLess(MustParse(gpu2), MustParse(gpu2)));
}

}  // namespace
}  // namespace rill
