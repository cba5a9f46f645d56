#include <cstdint>
#include <vector>

#include "core/status_matchers.h"
#include "gtest/gtest.h"
#include "kernels/framework/op_test_util.h"

namespace rill {
namespace {

absl::StatusOr<std::vector<Tensor>> Binary(const std::string& op, const Tensor& x,
                                           const Tensor& y) {
  OpTester t(op);
  t.Attr("T", x.dtype()).Input(x).Input(y);
  return t.Run();
}

absl::StatusOr<std::vector<Tensor>> Unary(const std::string& op, const Tensor& x) {
  OpTester t(op);
  t.Attr("T", x.dtype()).Input(x);
  return t.Run();
}

// TensorFlow 2.21's results: shift amounts past the width are clamped to width - 1, unsigned
// right shifts are logical.
TEST(BitwiseOpsTest, UnsignedShiftsClampTheAmount) {
  const Tensor x = Tensor::FromVector<uint32_t>({1u, 4294967295u, 6u}, TensorShape({3}));
  const Tensor y = Tensor::FromVector<uint32_t>({31u, 40u, 1u}, TensorShape({3}));
  RILL_ASSERT_OK_AND_ASSIGN(auto out, Binary("LeftShift", x, y));
  ExpectTensorEqual(
      out[0], Tensor::FromVector<uint32_t>({2147483648u, 2147483648u, 12u}, TensorShape({3})));
  RILL_ASSERT_OK_AND_ASSIGN(out, Binary("RightShift", x, y));
  ExpectTensorEqual(out[0], Tensor::FromVector<uint32_t>({0u, 1u, 3u}, TensorShape({3})));
  RILL_ASSERT_OK_AND_ASSIGN(
      out, Binary("LeftShift", Tensor::FromVector<uint16_t>({65535, 3}, TensorShape({2})),
                  Tensor::FromVector<uint16_t>({4, 20}, TensorShape({2}))));
  ExpectTensorEqual(out[0], Tensor::FromVector<uint16_t>({65520, 32768}, TensorShape({2})));
}

TEST(BitwiseOpsTest, Uint64InvertAndPopulationCount) {
  const Tensor x =
      Tensor::FromVector<uint64_t>({0ull, 18446744073709551615ull, 255ull}, TensorShape({3}));
  RILL_ASSERT_OK_AND_ASSIGN(auto out, Unary("Invert", x));
  ExpectTensorEqual(
      out[0], Tensor::FromVector<uint64_t>({18446744073709551615ull, 0ull, 18446744073709551360ull},
                                           TensorShape({3})));
  RILL_ASSERT_OK_AND_ASSIGN(out, Unary("PopulationCount", x));
  ExpectTensorEqual(out[0], Tensor::FromVector<uint8_t>({0, 64, 8}, TensorShape({3})));
}

}  // namespace
}  // namespace rill
