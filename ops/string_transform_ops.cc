// Op definitions of the string transformation ops: StringLength, StringLower, StringUpper, Substr,
// StringStrip, StringToNumber, StringToHashBucketFast, StaticRegexReplace, RegexReplace,
// RegexFullMatch, StringSplitV2, ReduceJoin, the hashes StringToHashBucket(Strong) and Fingerprint,
// and the byte encodings EncodeBase64, DecodeBase64, DecodeRaw. Signatures read from TensorFlow's
// registry (tests/tfgen/dump_op_specs.py). Shape functions never fail on values the kernels check.
#include <cstdint>
#include <vector>

#include "ops/op_registry.h"

namespace rill {
namespace {

REGISTER_OP("StringLength")
    .Input("input: string")
    .Output("output: int32")
    .Attr("unit: {'BYTE', 'UTF8_CHAR'} = \"BYTE\"")
    .SetShapeFn(shape_fns::Unchanged);

REGISTER_OP("StringLower")
    .Input("input: string")
    .Output("output: string")
    .Attr("encoding: string = \"\"")
    .SetShapeFn(shape_fns::Unchanged);

REGISTER_OP("StringUpper")
    .Input("input: string")
    .Output("output: string")
    .Attr("encoding: string = \"\"")
    .SetShapeFn(shape_fns::Unchanged);

// The broadcast of input and pos (the kernel checks that len matches pos).
REGISTER_OP("Substr")
    .Input("input: string")
    .Input("pos: T")
    .Input("len: T")
    .Output("output: string")
    .Attr("T: {int32, int64}")
    .Attr("unit: {'BYTE', 'UTF8_CHAR'} = \"BYTE\"")
    .SetShapeFn([](ShapeInferenceContext& c) {
      absl::StatusOr<PartialTensorShape> s = shape_fns::BroadcastPartial(c, c.input(0), c.input(1));
      if (s.ok()) c.set_output(0, *s);
      return absl::OkStatus();
    });

REGISTER_OP("StringStrip")
    .Input("input: string")
    .Output("output: string")
    .SetShapeFn(shape_fns::Unchanged);

REGISTER_OP("StringToNumber")
    .Input("string_tensor: string")
    .Output("output: out_type")
    .Attr("out_type: {float, double, int32, int64, uint32, uint64} = float")
    .SetShapeFn(shape_fns::Unchanged);

REGISTER_OP("StringToHashBucketFast")
    .Input("input: string")
    .Output("output: int64")
    .Attr("num_buckets: int >= 1")
    .SetShapeFn(shape_fns::Unchanged);

REGISTER_OP("StaticRegexReplace")
    .Input("input: string")
    .Output("output: string")
    .Attr("pattern: string")
    .Attr("rewrite: string")
    .Attr("replace_global: bool = true")
    .SetShapeFn(shape_fns::Unchanged);

REGISTER_OP("RegexReplace")
    .Input("input: string")
    .Input("pattern: string")
    .Input("rewrite: string")
    .Output("output: string")
    .Attr("replace_global: bool = true")
    .SetShapeFn(shape_fns::Unchanged);

REGISTER_OP("RegexFullMatch")
    .Input("input: string")
    .Input("pattern: string")
    .Output("output: bool")
    .SetShapeFn(shape_fns::Unchanged);

REGISTER_OP("StringSplitV2")
    .Input("input: string")
    .Input("sep: string")
    .Output("indices: int64")
    .Output("values: string")
    .Output("shape: int64")
    .Attr("maxsplit: int = -1")
    .SetShapeFn([](ShapeInferenceContext& c) {
      c.set_output(0, PartialTensorShape({-1, 2}));
      c.set_output(1, PartialTensorShape({-1}));
      c.set_output(2, PartialTensorShape({2}));
      return absl::OkStatus();
    });

// tf.compat.v1.string_split: every byte of delimiter splits.
REGISTER_OP("StringSplit")
    .Input("input: string")
    .Input("delimiter: string")
    .Output("indices: int64")
    .Output("values: string")
    .Output("shape: int64")
    .Attr("skip_empty: bool = true")
    .SetShapeFn([](ShapeInferenceContext& c) {
      c.set_output(0, PartialTensorShape({-1, 2}));
      c.set_output(1, PartialTensorShape({-1}));
      c.set_output(2, PartialTensorShape({2}));
      return absl::OkStatus();
    });

REGISTER_OP("ReduceJoin")
    .Input("inputs: string")
    .Input("reduction_indices: int32")
    .Output("output: string")
    .Attr("keep_dims: bool = false")
    .Attr("separator: string = \"\"")
    .SetShapeFn(shape_fns::Unknown);

// Hashes (kernels/strings/hash_ops.cc) and byte encodings (kernels/strings/encode_ops.cc).
REGISTER_OP("StringToHashBucket")
    .Input("string_tensor: string")
    .Output("output: int64")
    .Attr("num_buckets: int >= 1")
    .SetShapeFn(shape_fns::Unchanged);

REGISTER_OP("StringToHashBucketStrong")
    .Input("input: string")
    .Output("output: int64")
    .Attr("num_buckets: int >= 1")
    .Attr("key: list(int)")
    .SetShapeFn(shape_fns::Unchanged);

// [dim0, 8].
absl::Status FingerprintShape(ShapeInferenceContext& c) {
  const PartialTensorShape& data = c.input(0);
  c.set_output(0, PartialTensorShape({data.rank() >= 1 ? data.dims()[0] : -1, 8}));
  return absl::OkStatus();
}

REGISTER_OP("Fingerprint")
    .Input("data: T")
    .Input("method: string")
    .Output("fingerprint: uint8")
    .Attr("T: type")
    .SetShapeFn(FingerprintShape);

REGISTER_OP("EncodeBase64")
    .Input("input: string")
    .Output("output: string")
    .Attr("pad: bool = false")
    .SetShapeFn(shape_fns::Unchanged);

REGISTER_OP("DecodeBase64")
    .Input("input: string")
    .Output("output: string")
    .SetShapeFn(shape_fns::Unchanged);

// The input's shape plus one unknown dimension.
absl::Status DecodeRawShape(ShapeInferenceContext& c) {
  const PartialTensorShape& in = c.input(0);
  if (in.rank() >= 0) {
    std::vector<int64_t> dims(in.dims().begin(), in.dims().end());
    dims.push_back(-1);
    c.set_output(0, PartialTensorShape(std::move(dims)));
  }
  return absl::OkStatus();
}

REGISTER_OP("DecodeRaw")
    .Input("bytes: string")
    .Output("output: out_type")
    .Attr(
        "out_type: {half, float, double, int32, uint16, uint8, int16, int8, int64, complex64, "
        "complex128, bool, bfloat16}")
    .Attr("little_endian: bool = true")
    .SetShapeFn(DecodeRawShape);

}  // namespace
}  // namespace rill
