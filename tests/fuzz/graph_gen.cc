#include "tests/fuzz/graph_gen.h"

#include <limits>

#include "core/tensor_proto.h"

namespace rill {
namespace fuzz {

ConfigProto BaseConfig(FuzzInput* in, int cpus) {
  ConfigProto config;
  (*config.mutable_device_count())["CPU"] = cpus;
  config.set_allow_soft_placement(in->IntInRange(0, 3) != 0);
  config.set_inter_op_parallelism_threads(static_cast<int32_t>(in->IntInRange(1, 2)));
  config.set_intra_op_parallelism_threads(1);
  config.set_operation_timeout_in_ms(5000);
  return config;
}

NodeDef* AddNode(NodeList* nodes, const std::string& name, const std::string& op,
                 const std::vector<std::string>& inputs) {
  NodeDef* n = nodes->Add();
  n->set_name(name);
  n->set_op(op);
  for (const std::string& i : inputs) n->add_input(i);
  return n;
}

void SetType(NodeDef* n, const std::string& attr, DataType dtype) {
  (*n->mutable_attr())[attr].set_type(dtype);
}

void SetTypeList(NodeDef* n, const std::string& attr, const std::vector<DataType>& types) {
  AttrValue::ListValue* list = (*n->mutable_attr())[attr].mutable_list();
  for (DataType t : types) list->add_type(t);
}

void SetInt(NodeDef* n, const std::string& attr, int64_t v) { (*n->mutable_attr())[attr].set_i(v); }

void SetBool(NodeDef* n, const std::string& attr, bool v) { (*n->mutable_attr())[attr].set_b(v); }

void SetString(NodeDef* n, const std::string& attr, const std::string& v) {
  (*n->mutable_attr())[attr].set_s(v);
}

void SetFunc(NodeDef* n, const std::string& attr, const std::string& function) {
  (*n->mutable_attr())[attr].mutable_func()->set_name(function);
}

NodeDef* AddConst(NodeList* nodes, const std::string& name, const Tensor& t, bool content) {
  NodeDef* n = AddNode(nodes, name, "Const", {});
  SetType(n, "dtype", t.dtype());
  TensorToProto(t, (*n->mutable_attr())["value"].mutable_tensor(), content);
  return n;
}

int64_t PickSize(FuzzInput* in) {
  constexpr int64_t kMax = std::numeric_limits<int64_t>::max();
  constexpr int64_t kMin = std::numeric_limits<int64_t>::min();
  static const int64_t kSizes[] = {0,
                                   1,
                                   2,
                                   3,
                                   5,
                                   64,
                                   1000,
                                   int64_t{1} << 16,
                                   int64_t{1} << 20,
                                   1'000'000'000,
                                   (int64_t{1} << 31) - 1,
                                   int64_t{1} << 31,
                                   int64_t{1} << 32,
                                   int64_t{1} << 40,
                                   int64_t{1} << 62,
                                   kMax,
                                   -1,
                                   -2,
                                   -(int64_t{1} << 31),
                                   kMin};
  const uint8_t b = in->Byte();
  if (b < 0x80) return b & 7;  // mostly small sizes, so that huge ones meet working graphs
  return kSizes[in->Pick(sizeof(kSizes) / sizeof(kSizes[0]))];
}

}  // namespace fuzz
}  // namespace rill
