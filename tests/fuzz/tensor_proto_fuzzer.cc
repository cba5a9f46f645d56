// Fuzz target: TensorProto -> Tensor -> TensorProto (core/tensor_proto.h). Any bytes either fail
// to parse, fail to decode with InvalidArgument and a message, or decode to a tensor that encodes
// to a proto decoding to the same bytes (both through tensor_content and the typed fields).
#include <cstddef>
#include <cstdint>
#include <string>

#include "core/tensor.h"
#include "core/tensor_proto.h"
#include "proto/tensor.pb.h"
#include "tests/fuzz/fuzz_check.h"

namespace {

// The tensor's bytes as a TensorProto's serialized content: equal tensors, equal strings.
std::string Canonical(const rill::Tensor& t) {
  rill::TensorProto p;
  rill::TensorToProto(t, &p, /*use_tensor_content=*/true);
  return p.SerializeAsString();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  rill::TensorProto proto;
  if (!proto.ParseFromArray(data, static_cast<int>(size))) return 0;
  absl::StatusOr<rill::Tensor> t = rill::TensorFromProto(proto);
  if (!t.ok()) {
    FUZZ_CHECK(t.status().code() == absl::StatusCode::kInvalidArgument ||
               t.status().code() == absl::StatusCode::kResourceExhausted ||
               t.status().code() == absl::StatusCode::kUnimplemented);
    FUZZ_CHECK(!t.status().message().empty());
    return 0;
  }
  const std::string canonical = Canonical(*t);
  for (bool use_content : {true, false}) {
    rill::TensorProto out;
    rill::TensorToProto(*t, &out, use_content);
    absl::StatusOr<rill::Tensor> back = rill::TensorFromProto(out);
    FUZZ_CHECK(back.ok());
    FUZZ_CHECK(back->dtype() == t->dtype());
    FUZZ_CHECK(back->shape() == t->shape());
    FUZZ_CHECK(Canonical(*back) == canonical);
  }
  return 0;
}
