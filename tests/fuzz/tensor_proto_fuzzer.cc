// Fuzz target: TensorProto -> Tensor -> TensorProto (core/tensor_proto.h). Any bytes either fail
// to parse, fail to decode with InvalidArgument and a message, or decode to a tensor that encodes
// to a proto decoding to the same bytes (both through tensor_content and the typed fields).
#include <cstddef>
#include <cstdint>
#include <string>

#include "core/tensor.h"
#include "core/tensor_proto.h"
#include "google/protobuf/stubs/logging.h"
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
  google::protobuf::LogSilencer quiet;  // protobuf's parse-error log lines are expected here
  if (!proto.ParseFromArray(data, static_cast<int>(size))) return 0;
  // A valid proto may describe terabytes of zeros (a splat); allocating them only trips the
  // fuzzer's malloc limit. Above 64 Mi elements the input is skipped (the clean failure of a shape
  // no host can hold is tested in core/tensor_proto_test).
  int64_t elements = 1;
  for (const auto& dim : proto.tensor_shape().dim()) {
    if (dim.size() > 0 && elements > (int64_t{64} << 20) / dim.size()) return 0;
    if (dim.size() > 0) elements *= dim.size();
  }
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
