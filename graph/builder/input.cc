#include "graph/builder/input.h"

#include "core/tensor_proto.h"
#include "graph/builder/op_builder.h"
#include "proto/tensor.pb.h"

namespace rill {

Output Input::ToOutput(const Scope& scope) const {
  if (!literal_) return output_;
  TensorProto proto;
  if (literal_->status().ok()) {
    TensorToProto(literal_->tensor(), &proto, /*use_tensor_content=*/false);
  }
  return OpBuilder(scope.NewSubScope(""), "Const")
      .Attr("value", proto)
      .Attr("dtype", literal_->tensor().dtype())
      .Fail(literal_->status())
      .Finalize()
      .output(0);
}

}  // namespace rill
