// Sizes from attrs and from values, from a menu with huge and negative ones (graph_gen.cc's
// PickSize): Fill, Range (NaN, inf and huge float bounds too), Tile, Reshape, Pad, Unpack's num,
// TensorArrayV3 and TensorListReserve sizes and indices, OneHot's depth, Const shapes without
// values, ExpandDims, BroadcastTo, Empty, and ranks above 254. Every size computed from input
// must be checked before it becomes a shape or an allocation: a huge one is InvalidArgument or
// ResourceExhausted, never an abort. Results are fetched through Shape, so a valid big tensor
// costs one allocation.
#include <limits>
#include <string>
#include <type_traits>
#include <vector>

#include "absl/strings/str_cat.h"
#include "tests/fuzz/graph_gen.h"

namespace rill {
namespace fuzz {
namespace {

class HugeSizesProgram {
 public:
  HugeSizesProgram(FuzzInput* in, Generated* out) : in_(in), out_(out) {}

  void Build() {
    out_->config = BaseConfig(in_, 1);
    const int num_nodes = static_cast<int>(in_->IntInRange(1, 6));
    std::string last;
    for (int i = 0; i < num_nodes && (i == 0 || in_->remaining() > 0); ++i) last = AddOne(i);
    if (in_->IntInRange(0, 3) != 0) {
      NodeDef* shape = AddNode(nodes(), "shape", "Shape", {last});
      SetType(shape, "T", last_dtype_);
      SetType(shape, "out_type", DT_INT64);
      last = "shape";
    }
    out_->fetches.push_back(last);
  }

 private:
  NodeList* nodes() { return out_->graph.mutable_node(); }

  // A vector (or, rarely, a scalar) of sizes as int32 or int64.
  std::string Sizes(const std::string& name, int count, DataType dtype) {
    const bool scalar = count == 1 && in_->Byte() == 0xff;
    Tensor t(dtype, scalar ? TensorShape() : *TensorShape::FromDims({count}));
    for (int k = 0; k < count; ++k) {
      const int64_t v = PickSize(in_);
      if (dtype == DT_INT32) t.flat<int32_t>()[k] = static_cast<int32_t>(v);
      if (dtype == DT_INT64) t.flat<int64_t>()[k] = v;
    }
    AddConst(nodes(), name, t, in_->Bool());
    return name;
  }

  DataType IndexType() { return in_->Bool() ? DT_INT32 : DT_INT64; }

  int Rank() {
    const uint8_t b = in_->Byte();
    if (b == 0xff) return 300;  // over TensorFlow's 254
    if (b == 0xfe) return 255;
    return b % 4;
  }

  // A small float tensor of rank 0..2.
  std::string Small(const std::string& name) {
    const int rank = static_cast<int>(in_->IntInRange(0, 2));
    std::vector<int64_t> dims(rank, 2);
    Tensor t(DT_FLOAT, *TensorShape::FromDims(dims));
    for (int64_t k = 0; k < t.NumElements(); ++k) t.flat<float>()[k] = in_->SmallFloat();
    AddConst(nodes(), name, t, in_->Bool());
    return name;
  }

  template <typename T>
  std::string RangeBound(const std::string& name) {
    const uint8_t b = in_->Byte();
    T v;
    if constexpr (std::is_floating_point_v<T>) {
      static const T kValues[] = {0,
                                  1,
                                  -1,
                                  T(0.5),
                                  std::numeric_limits<T>::quiet_NaN(),
                                  std::numeric_limits<T>::infinity(),
                                  -std::numeric_limits<T>::infinity(),
                                  T(1e30),
                                  std::numeric_limits<T>::max(),
                                  std::numeric_limits<T>::lowest(),
                                  std::numeric_limits<T>::denorm_min(),
                                  T(3e9)};
      v = b < 0x80 ? static_cast<T>(b % 8) : kValues[b % 12];
    } else {
      v = static_cast<T>(b < 0x80 ? b % 8 : PickSize(in_));
    }
    AddConst(nodes(), name, Tensor::Scalar<T>(v), false);
    return name;
  }

  std::string AddOne(int i) {
    const std::string name = absl::StrCat("n", i);
    const DataType previous_dtype = last_dtype_;
    last_dtype_ = DT_FLOAT;
    switch (in_->Pick(14)) {
      case 0: {  // Fill
        const DataType t = IndexType();
        NodeDef* n =
            AddNode(nodes(), name, "Fill", {Sizes(name + "/dims", Rank(), t), Small(name + "/v")});
        SetType(n, "T", DT_FLOAT);
        SetType(n, "index_type", t);
        return name;
      }
      case 1: {  // Range
        static const DataType kTypes[] = {DT_FLOAT, DT_DOUBLE, DT_INT32, DT_INT64};
        const DataType t = kTypes[in_->Pick(4)];
        std::vector<std::string> in;
        for (const char* part : {"/start", "/limit", "/delta"}) {
          const std::string c = name + part;
          if (t == DT_FLOAT) in.push_back(RangeBound<float>(c));
          if (t == DT_DOUBLE) in.push_back(RangeBound<double>(c));
          if (t == DT_INT32) in.push_back(RangeBound<int32_t>(c));
          if (t == DT_INT64) in.push_back(RangeBound<int64_t>(c));
        }
        SetType(AddNode(nodes(), name, "Range", in), "Tidx", t);
        last_dtype_ = t;
        return name;
      }
      case 2:
      case 3: {  // Tile / Reshape / BroadcastTo / Pad of a small tensor
        static const char* const kOps[] = {"Tile", "Reshape", "BroadcastTo", "Pad"};
        static const char* const kIndexAttrs[] = {"Tmultiples", "Tshape", "Tidx", "Tpaddings"};
        const int which = static_cast<int>(in_->Pick(4));
        const DataType t = IndexType();
        const std::string x = Small(name + "/x");
        const int rank = Rank();
        std::string arg;
        if (which == 3) {
          const std::string flat = Sizes(name + "/p", rank * 2, t);
          Tensor shape = Tensor::FromVector<int32_t>({rank, 2}, *TensorShape::FromDims({2}));
          AddConst(nodes(), name + "/pshape", shape, false);
          NodeDef* r = AddNode(nodes(), name + "/paddings", "Reshape", {flat, name + "/pshape"});
          SetType(r, "T", t);
          SetType(r, "Tshape", DT_INT32);
          arg = r->name();
        } else {
          arg = Sizes(name + "/arg", rank, t);
        }
        NodeDef* n = AddNode(nodes(), name, kOps[which], {x, arg});
        SetType(n, "T", DT_FLOAT);
        SetType(n, kIndexAttrs[which], t);
        return name;
      }
      case 4: {  // Unpack with a num from the menu
        NodeDef* n = AddNode(nodes(), name, "Unpack", {Small(name + "/x")});
        SetType(n, "T", DT_FLOAT);
        SetInt(n, "num", PickSize(in_));
        SetInt(n, "axis", in_->IntInRange(-3, 2));
        return name;
      }
      case 5: {  // TensorArrayV3 of a size from the menu, written and read at menu indices
        const std::string size = Sizes(name + "/size", 1, DT_INT32);
        NodeDef* ta = AddNode(nodes(), name + "/ta", "TensorArrayV3", {size});
        SetType(ta, "dtype", DT_FLOAT);
        SetBool(ta, "dynamic_size", in_->Bool());
        const std::string index = Sizes(name + "/index", 1, DT_INT32);
        NodeDef* w = AddNode(nodes(), name + "/write", "TensorArrayWriteV3",
                             {ta->name(), index, Small(name + "/v"), ta->name() + ":1"});
        SetType(w, "T", DT_FLOAT);
        if (in_->Bool()) {
          NodeDef* n = AddNode(nodes(), name, "TensorArraySizeV3", {ta->name(), w->name()});
          last_dtype_ = DT_INT32;
          return n->name();
        }
        NodeDef* n = AddNode(nodes(), name, "TensorArrayReadV3", {ta->name(), index, w->name()});
        SetType(n, "dtype", DT_FLOAT);
        return name;
      }
      case 6: {  // TensorListReserve, then SetItem and Stack or Length
        const DataType t = IndexType();
        const std::string shape =
            Sizes(name + "/eshape", static_cast<int>(in_->IntInRange(0, 2)), t);
        NodeDef* l = AddNode(nodes(), name + "/list", "TensorListReserve",
                             {shape, Sizes(name + "/num", 1, DT_INT32)});
        SetType(l, "element_dtype", DT_FLOAT);
        SetType(l, "shape_type", t);
        NodeDef* s = AddNode(nodes(), name + "/set", "TensorListSetItem",
                             {l->name(), Sizes(name + "/index", 1, DT_INT32), Small(name + "/v")});
        SetType(s, "element_dtype", DT_FLOAT);
        SetBool(s, "resize_if_index_out_of_bounds", in_->Bool());
        if (in_->Bool()) {
          AddNode(nodes(), name, "TensorListLength", {s->name()});
          last_dtype_ = DT_INT32;
          return name;
        }
        NodeDef* n = AddNode(nodes(), name, "TensorListStack",
                             {s->name(), Sizes(name + "/sshape", 1, DT_INT32)});
        SetType(n, "element_dtype", DT_FLOAT);
        SetInt(n, "num_elements", in_->Bool() ? -1 : PickSize(in_));
        return name;
      }
      case 7: {  // OneHot with a depth from the menu
        const std::string indices =
            Sizes(name + "/indices", static_cast<int>(in_->IntInRange(1, 3)), DT_INT64);
        AddConst(nodes(), name + "/on", Tensor::Scalar<float>(1), false);
        AddConst(nodes(), name + "/off", Tensor::Scalar<float>(0), false);
        NodeDef* n =
            AddNode(nodes(), name, "OneHot",
                    {indices, Sizes(name + "/depth", 1, DT_INT32), name + "/on", name + "/off"});
        SetType(n, "T", DT_FLOAT);
        SetType(n, "TI", DT_INT64);
        SetInt(n, "axis", in_->IntInRange(-2, 2));
        return name;
      }
      case 8: {  // a Const whose shape comes without (all of) its values
        NodeDef* n = AddNode(nodes(), name, "Const", {});
        SetType(n, "dtype", DT_FLOAT);
        TensorProto* t = (*n->mutable_attr())["value"].mutable_tensor();
        t->set_dtype(DT_FLOAT);
        const int rank = Rank();
        for (int d = 0; d < rank; ++d)
          t->mutable_tensor_shape()->add_dim()->set_size(PickSize(in_));
        if (in_->Bool()) t->add_float_val(in_->SmallFloat());
        return name;
      }
      case 9: {  // ExpandDims at a menu axis
        const DataType t = IndexType();
        NodeDef* n =
            AddNode(nodes(), name, "ExpandDims", {Small(name + "/x"), Sizes(name + "/dim", 1, t)});
        SetType(n, "T", DT_FLOAT);
        SetType(n, "Tdim", t);
        return name;
      }
      case 10: {  // Empty
        NodeDef* n = AddNode(nodes(), name, "Empty", {Sizes(name + "/shape", Rank(), DT_INT32)});
        SetType(n, "dtype", DT_FLOAT);
        SetBool(n, "init", true);
        return name;
      }
      case 11: {  // a rank from the menu by Reshape into ones
        const int rank = Rank();
        Tensor ones(DT_INT32, *TensorShape::FromDims({rank}));
        for (int d = 0; d < rank; ++d) ones.flat<int32_t>()[d] = 1;
        AddConst(nodes(), name + "/shape", ones, false);
        AddConst(nodes(), name + "/x", Tensor::Scalar<float>(1), false);
        NodeDef* n = AddNode(nodes(), name, "Reshape", {name + "/x", name + "/shape"});
        SetType(n, "T", DT_FLOAT);
        SetType(n, "Tshape", DT_INT32);
        return name;
      }
      case 12: {  // a Placeholder with a huge declared shape, fed a small tensor
        NodeDef* n = AddNode(nodes(), name, "Placeholder", {});
        SetType(n, "dtype", DT_FLOAT);
        TensorShapeProto* s = (*n->mutable_attr())["shape"].mutable_shape();
        const int rank = Rank();
        for (int d = 0; d < rank; ++d) s->add_dim()->set_size(PickSize(in_));
        out_->feeds.emplace_back(name, Tensor::Scalar<float>(in_->SmallFloat()));
        return name;
      }
      default: {  // Tile of a value made above (sizes multiply)
        const bool previous = i > 0 && in_->Bool();
        const std::string x = previous ? absl::StrCat("n", i - 1) : Small(name + "/x");
        last_dtype_ = previous ? previous_dtype : DT_FLOAT;
        NodeDef* n = AddNode(nodes(), name, "Tile", {x, Sizes(name + "/m", Rank(), DT_INT32)});
        SetType(n, "T", last_dtype_);
        SetType(n, "Tmultiples", DT_INT32);
        return name;
      }
    }
  }

  FuzzInput* in_;
  Generated* out_;
  DataType last_dtype_ = DT_FLOAT;
};

}  // namespace

void GenerateHugeSizes(FuzzInput* in, Generated* out) { HugeSizesProgram(in, out).Build(); }

}  // namespace fuzz
}  // namespace rill
