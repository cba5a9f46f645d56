// GoogleTest matchers for absl::Status / absl::StatusOr (Abseil 20220623 ships none). Test-only.
//
//   EXPECT_THAT(Parse("x"), StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("node 'x'")));
//   EXPECT_THAT(MakeTensor(p), IsOk());
//   RILL_ASSERT_OK_AND_ASSIGN(Tensor t, MakeTensor(p));
#ifndef RILL_CORE_STATUS_MATCHERS_H_
#define RILL_CORE_STATUS_MATCHERS_H_

#include <ostream>
#include <string>
#include <utility>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace rill {
namespace testing_internal {

inline const absl::Status& GetStatus(const absl::Status& s) { return s; }
template <typename T>
const absl::Status& GetStatus(const absl::StatusOr<T>& s) {
  return s.status();
}

}  // namespace testing_internal

// Matches a Status or StatusOr whose code equals `code` and whose message matches `message`.
MATCHER_P2(StatusIs, code, message_matcher,
           std::string("has code ") + absl::StatusCodeToString(code)) {
  const absl::Status& s = testing_internal::GetStatus(arg);
  if (s.code() != code) {
    *result_listener << "whose status is " << s;
    return false;
  }
  return ::testing::ExplainMatchResult(message_matcher, std::string(s.message()), result_listener);
}

// Matches an OK Status or StatusOr.
MATCHER(IsOk, "is OK") {
  const absl::Status& s = testing_internal::GetStatus(arg);
  if (!s.ok()) *result_listener << "whose status is " << s;
  return s.ok();
}

// Matches an OK StatusOr whose value matches `value_matcher`.
MATCHER_P(IsOkAndHolds, value_matcher, "is OK and holds a matching value") {
  if (!arg.ok()) {
    *result_listener << "whose status is " << arg.status();
    return false;
  }
  return ::testing::ExplainMatchResult(value_matcher, *arg, result_listener);
}

}  // namespace rill

#define RILL_ASSERT_OK(expr) ASSERT_THAT((expr), ::rill::IsOk())
#define RILL_EXPECT_OK(expr) EXPECT_THAT((expr), ::rill::IsOk())

#define RILL_ASSERT_OK_AND_ASSIGN(lhs, rexpr) \
  RILL_ASSERT_OK_AND_ASSIGN_IMPL_(RILL_MATCHERS_CONCAT_(rill_sor_, __LINE__), lhs, rexpr)
#define RILL_MATCHERS_CONCAT_INNER_(a, b) a##b
#define RILL_MATCHERS_CONCAT_(a, b) RILL_MATCHERS_CONCAT_INNER_(a, b)
#define RILL_ASSERT_OK_AND_ASSIGN_IMPL_(statusor, lhs, rexpr) \
  auto statusor = (rexpr);                                    \
  ASSERT_THAT(statusor.status(), ::rill::IsOk());             \
  lhs = std::move(statusor).value()

#endif  // RILL_CORE_STATUS_MATCHERS_H_
