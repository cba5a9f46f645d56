#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "core/status_matchers.h"
#include "gtest/gtest.h"
#include "kernels/framework/op_test_util.h"

namespace rill {
namespace {

std::vector<double> Apply(const std::string& op, const std::vector<double>& x) {
  OpTester t(op);
  t.Attr("T", DT_DOUBLE)
      .Input(Tensor::FromVector<double>(x, TensorShape({static_cast<int64_t>(x.size())})));
  absl::StatusOr<std::vector<Tensor>> out = t.Run();
  EXPECT_TRUE(out.ok()) << out.status();
  if (!out.ok()) return {};
  return std::vector<double>((*out)[0].flat<double>().begin(), (*out)[0].flat<double>().end());
}

void ExpectClose(const std::string& op, const std::vector<double>& x,
                 const std::vector<double>& want) {
  const std::vector<double> got = Apply(op, x);
  ASSERT_EQ(got.size(), want.size());
  for (size_t i = 0; i < want.size(); ++i) {
    EXPECT_NEAR(got[i], want[i], 1e-14 * std::abs(want[i])) << op << "(" << x[i] << ")";
  }
}

// Reference values from mpmath at 40 digits, rounded to 20.
TEST(SpecialIntegralsTest, MatchHighPrecisionValues) {
  const std::vector<double> x = {0.5, 2, 10, 40.5};
  ExpectClose("Dawsn", x,
              {0.42443638350202229593, 0.30134038892379196603, 0.050253847187598528033,
               0.012349445812015100164});
  ExpectClose("Expint", x,
              {0.45421990486317357992, 4.9542343560018901634, 2492.2289762418777591,
               9831586535606509.8812});
  ExpectClose("FresnelCos", x,
              {0.49234422587144639288, 0.4882534060753407545, 0.49989869420551572361,
               0.50300629225617698031});
  ExpectClose("FresnelSin", x,
              {0.064732432859999277611, 0.3434156783636982422, 0.4681699785848822404,
               0.49273818284828258284});
  ExpectClose("Spence", x,
              {0.5822405264650125059, -0.82246703342411321824, -3.9506637782441577305,
               -8.3773693794041362639});
}

// TensorFlow's values at the edges of the domains.
TEST(SpecialIntegralsTest, EdgesAreTensorFlows) {
  const double inf = std::numeric_limits<double>::infinity();
  std::vector<double> e = Apply("Expint", {-1, 0, inf});
  EXPECT_TRUE(std::isnan(e[0]));
  EXPECT_EQ(e[1], -inf);
  EXPECT_TRUE(std::isnan(e[2]));
  std::vector<double> s = Apply("Spence", {-1, 0, 1, inf});
  EXPECT_TRUE(std::isnan(s[0]));
  EXPECT_NEAR(s[1], 1.6449340668482264, 1e-15);
  EXPECT_EQ(s[2], 0);
  EXPECT_TRUE(std::isnan(s[3]));
  EXPECT_EQ(Apply("Dawsn", {inf, -inf}), std::vector<double>({0, 0}));
  EXPECT_EQ(Apply("FresnelCos", {inf, -inf, 4e4}), std::vector<double>({0.5, -0.5, 0.5}));
  EXPECT_EQ(Apply("FresnelSin", {-0.0, 0}), std::vector<double>({0, 0}));
}

}  // namespace
}  // namespace rill
