#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "core/status_matchers.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "kernels/framework/op_test_util.h"
#include "kernels/math_lib/simd_dispatch.h"
#include "kernels/math_lib/vector_math.h"

namespace rill {
namespace {

using ::testing::HasSubstr;

absl::StatusOr<std::vector<Tensor>> Gelu(const Tensor& x, const std::string& form,
                                         int threads = 1) {
  OpTester t("_RillGelu");
  t.Attr("T", DT_FLOAT).Attr("form", form).Input(x);
  t.SetIntraOpThreads(threads);
  return t.Run();
}

// The unfused graph's operations for one element, each rounded to float.
float Reference(float x, const std::string& form) {
  const volatile float half = 0.5f * x;
  volatile float g;
  if (form == "erf") {
    const volatile float s = x * 0.70710677f;
    const volatile float e = vector_math::ErfF(s);
    g = 1.f + e;
  } else if (form == "erfc") {
    const volatile float n = -x;
    const volatile float s = n * 0.70710677f;
    g = static_cast<float>(std::erfc(static_cast<double>(s)));  // the Erfc kernel's value
  } else {
    const volatile float cube = vector_math::CubeF(x);  // the Pow kernel's x^3
    const volatile float m1 = 0.044715f * cube;
    const volatile float inner = x + m1;
    const volatile float s = 0.7978846f * inner;
    const volatile float t = vector_math::TanhF(s);
    g = 1.f + t;
  }
  return half * g;
}

// At the baseline vector width the kernel and this file's reference run the same code (the AVX2
// and AVX-512 clones may round Eigen's erf and tanh polynomials with fused multiply-adds, as the
// unfused Erf and Tanh kernels' clones do; the optimizer's tests compare those two exactly).
TEST(GeluOpTest, EachFormComputesItsGraphsOperations) {
  ScopedSimdLevelForTesting baseline(SimdLevel::kBaseline);
  const float inf = std::numeric_limits<float>::infinity();
  std::vector<float> v = {-inf,  -1e30f, -8.f, -3.f, -1.f, -0.5f, -0.f, 0.f,
                          1e-3f, 0.5f,   1.f,  2.f,  5.f,  1e30f, inf};
  for (int i = 0; i < 600; ++i) v.push_back(-6.f + 0.02f * static_cast<float>(i));
  const Tensor x = Tensor::FromVector<float>(v, TensorShape({static_cast<int64_t>(v.size())}));
  for (const char* form : {"erf", "erfc", "tanh"}) {
    for (int threads : {1, 2}) {
      SCOPED_TRACE(form);
      RILL_ASSERT_OK_AND_ASSIGN(auto out, Gelu(x, form, threads));
      for (size_t i = 0; i < v.size(); ++i) {
        const float want = Reference(v[i], form);
        const float got = out[0].flat<float>()[i];
        if (std::isnan(want)) {
          EXPECT_TRUE(std::isnan(got)) << v[i];
        } else {
          EXPECT_EQ(got, want) << v[i];
        }
      }
    }
  }
  // GELU(1) = 0.5 * (1 + erf(1 / sqrt(2))) = 0.8413447.
  RILL_ASSERT_OK_AND_ASSIGN(auto out, Gelu(Tensor::Scalar<float>(1.f), "erfc"));
  EXPECT_NEAR(out[0].flat<float>()[0], 0.8413447, 1e-6);
  // -inf * 0 in the unfused graph's last product.
  RILL_ASSERT_OK_AND_ASSIGN(out, Gelu(Tensor::Scalar<float>(-inf), "erf"));
  EXPECT_TRUE(std::isnan(out[0].flat<float>()[0]));
}

TEST(GeluOpTest, UnknownFormIsAnError) {
  EXPECT_THAT(Gelu(Tensor::Scalar<float>(1.f), "sigmoid").status(),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("form")));
}

}  // namespace
}  // namespace rill
