// Multi-device graphs: 2-3 CPU devices, every node pinned to one of them (rarely to one that does
// not exist), so partitioning puts _Send/_Recv pairs on the edges between devices: float, int32
// and string tensors crossing devices, control edges across devices, a Switch on one device with
// its Merge on another (dead tensors crossing), shape metadata read across devices, and long
// chains that cross devices at every step (up to 4,096 nodes: no path may recurse per edge).
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "tests/fuzz/graph_gen.h"

namespace rill {
namespace fuzz {
namespace {

struct Value {
  std::string name;
  DataType dtype;
};

class MultiDeviceProgram {
 public:
  MultiDeviceProgram(FuzzInput* in, Generated* out) : in_(in), out_(out) {}

  void Build() {
    cpus_ = static_cast<int>(in_->IntInRange(2, 3));
    out_->config = BaseConfig(in_, cpus_);
    out_->single_device_twin = true;
    const int num_nodes = static_cast<int>(in_->IntInRange(1, 32));
    for (int i = 0; i < num_nodes && (i == 0 || in_->remaining() > 0); ++i) AddOne(i);
    out_->fetches.push_back(values_.back().name);
    if (values_.size() > 1 && in_->Bool())
      out_->fetches.push_back(values_[in_->Pick(values_.size())].name);
  }

 private:
  NodeList* nodes() { return out_->graph.mutable_node(); }

  std::string Device() {
    int k = static_cast<int>(in_->Pick(cpus_));
    if (in_->Byte() == 0xff) {  // a CPU that does not exist: an error, or soft placement
      k = cpus_;
      out_->single_device_twin = false;
    }
    return absl::StrCat(in_->Bool() ? "/device:CPU:" : "/job:localhost/replica:0/task:0/cpu:", k);
  }

  NodeDef* Node(const std::string& name, const std::string& op,
                const std::vector<std::string>& inputs) {
    NodeDef* n = AddNode(nodes(), name, op, inputs);
    n->set_device(Device());
    return n;
  }

  std::string Const(const std::string& name, DataType dtype) {
    const int count = static_cast<int>(in_->IntInRange(0, 3)) == 0 ? 1 : 3;
    const TensorShape shape =
        count == 1 && in_->Bool() ? TensorShape() : *TensorShape::FromDims({count});
    Tensor t(dtype, shape);
    for (int k = 0; k < count; ++k) {
      if (dtype == DT_FLOAT) t.flat<float>()[k] = in_->SmallFloat();
      if (dtype == DT_INT32) t.flat<int32_t>()[k] = static_cast<int8_t>(in_->Byte());
      if (dtype == DT_STRING) t.flat<std::string>()[k] = in_->Bytes(6);
      if (dtype == DT_BOOL) t.flat<bool>()[k] = in_->Bool();
    }
    AddConst(nodes(), name, t, in_->Bool())->set_device(Device());
    values_.push_back({name, dtype});
    return name;
  }

  // An earlier value of `dtype`, made now as a Const when there is none.
  std::string Input(int i, DataType dtype) {
    std::vector<const Value*> matching;
    for (const Value& v : values_) {
      if (v.dtype == dtype) matching.push_back(&v);
    }
    if (matching.empty()) return Const(absl::StrCat("n", i, "/c", aux_++), dtype);
    return matching[in_->Pick(matching.size())]->name;
  }

  DataType DtypeOf(const std::string& name) const {
    for (const Value& v : values_) {
      if (v.name == name) return v.dtype;
    }
    return DT_FLOAT;
  }

  // A control input from an earlier node (on whatever device it is).
  void MaybeControl(NodeDef* n) {
    if (values_.empty() || in_->IntInRange(0, 3) != 0) return;
    std::string src = values_[in_->Pick(values_.size())].name;
    src = src.substr(0, src.find(':'));
    n->add_input("^" + src);
  }

  void AddOne(int i) {
    static const char* const kUnary[] = {"Neg", "Identity", "Tanh", "Square", "Relu", "Abs"};
    static const char* const kBinary[] = {"AddV2", "Mul", "Maximum", "Sub"};
    const std::string name = absl::StrCat("n", i);
    switch (in_->Pick(11)) {
      case 0: {
        static const DataType kTypes[] = {DT_FLOAT, DT_INT32, DT_STRING, DT_BOOL};
        Const(name, kTypes[in_->Pick(4)]);
        return;
      }
      case 1: {  // a fed placeholder
        NodeDef* n = Node(name, "Placeholder", {});
        SetType(n, "dtype", DT_FLOAT);
        Tensor t(DT_FLOAT, *TensorShape::FromDims({2}));
        t.flat<float>()[0] = in_->SmallFloat();
        t.flat<float>()[1] = in_->SmallFloat();
        out_->feeds.emplace_back(name, t);
        values_.push_back({name, DT_FLOAT});
        return;
      }
      case 2: {
        NodeDef* n = Node(name, kUnary[in_->Pick(6)], {Input(i, DT_FLOAT)});
        SetType(n, "T", DT_FLOAT);
        MaybeControl(n);
        values_.push_back({name, DT_FLOAT});
        return;
      }
      case 3:
      case 4: {
        const DataType dtype = in_->IntInRange(0, 3) == 0 ? DT_INT32 : DT_FLOAT;
        NodeDef* n = Node(name, kBinary[in_->Pick(4)], {Input(i, dtype), Input(i, dtype)});
        SetType(n, "T", dtype);
        MaybeControl(n);
        values_.push_back({name, dtype});
        return;
      }
      case 5: {  // AddN over values from several devices
        const int count = static_cast<int>(in_->IntInRange(2, 4));
        std::vector<std::string> inputs;
        for (int k = 0; k < count; ++k) inputs.push_back(Input(i, DT_FLOAT));
        NodeDef* n = Node(name, "AddN", inputs);
        SetType(n, "T", DT_FLOAT);
        SetInt(n, "N", count);
        values_.push_back({name, DT_FLOAT});
        return;
      }
      case 6: {  // strings across devices
        NodeDef* n;
        if (in_->Bool()) {
          n = Node(name, "AsString", {Input(i, in_->Bool() ? DT_FLOAT : DT_INT32)});
          SetType(n, "T", DtypeOf(n->input(0)));
        } else {
          n = Node(name, "StringJoin", {Input(i, DT_STRING), Input(i, DT_STRING)});
          SetInt(n, "N", 2);
          SetString(n, "separator", in_->Bytes(2));
        }
        MaybeControl(n);
        values_.push_back({name, DT_STRING});
        return;
      }
      case 7: {  // a chain crossing devices at every step
        static const int kLengths[] = {4, 16, 128};
        const uint8_t b = in_->Byte();
        const int length = b == 0xff ? 4096 : (b >= 0xf0 ? 1024 : kLengths[b % 3]);
        const std::string one = Const(name + "/one", DT_FLOAT);
        std::string prev = Input(i, DT_FLOAT);
        const bool alternate = in_->Bool();
        for (int k = 0; k < length; ++k) {
          NodeDef* n = AddNode(
              nodes(), k + 1 == length ? name : absl::StrCat(name, "/", k),
              k % 3 == 2 ? "Neg" : "AddV2",
              k % 3 == 2 ? std::vector<std::string>{prev} : std::vector<std::string>{prev, one});
          n->set_device(absl::StrCat("/device:CPU:", alternate ? k % 2 : (k / 7) % cpus_));
          SetType(n, "T", DT_FLOAT);
          if (k > 0 && k % 5 == 0) n->add_input(absl::StrCat("^", name, "/", k - 2));
          prev = n->name();
        }
        values_.push_back({name, DT_FLOAT});
        return;
      }
      case 8: {  // Switch on one device, its Merge on another: one live input crosses
        const std::string x = Input(i, DT_FLOAT);
        NodeDef* sw = Node(name + "/switch", "Switch", {x, Input(i, DT_BOOL)});
        SetType(sw, "T", DT_FLOAT);
        NodeDef* left = Node(name + "/f", "Neg", {sw->name()});
        SetType(left, "T", DT_FLOAT);
        NodeDef* n = Node(name, "Merge", {left->name(), sw->name() + ":1"});
        SetType(n, "T", DT_FLOAT);
        SetInt(n, "N", 2);
        values_.push_back({name, DT_FLOAT});
        return;
      }
      case 9: {  // shape metadata of a value on another device
        static const char* const kOps[] = {"Shape", "Size", "Rank"};
        const int which = static_cast<int>(in_->Pick(3));
        NodeDef* n = Node(name, kOps[which], {Input(i, in_->Bool() ? DT_FLOAT : DT_STRING)});
        SetType(n, "T", DtypeOf(n->input(0)));
        if (which < 2) SetType(n, "out_type", DT_INT32);
        values_.push_back({name, DT_INT32});
        return;
      }
      default: {  // a NoOp gathering control edges from every device, then a value after it
        NodeDef* gate = Node(name + "/gate", "NoOp", {});
        for (int k = 0; k < 3 && !values_.empty(); ++k) {
          std::string src = values_[in_->Pick(values_.size())].name;
          gate->add_input("^" + src.substr(0, src.find(':')));
        }
        NodeDef* n = Node(name, "Identity", {Input(i, DT_FLOAT), "^" + gate->name()});
        SetType(n, "T", DT_FLOAT);
        values_.push_back({name, DT_FLOAT});
        return;
      }
    }
  }

  FuzzInput* in_;
  Generated* out_;
  int cpus_ = 2;
  int aux_ = 0;
  std::vector<Value> values_;
};

}  // namespace

void GenerateMultiDevice(FuzzInput* in, Generated* out) { MultiDeviceProgram(in, out).Build(); }

}  // namespace fuzz
}  // namespace rill
