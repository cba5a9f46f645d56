#include "session/kernel_support_memo.h"

#include <cstdint>
#include <cstring>
#include <utility>

#include "absl/container/inlined_vector.h"

namespace rill {
namespace {

// Writes `n` bytes at `out` and returns the end.
char* Put(char* out, const void* data, size_t n) {
  std::memcpy(out, data, n);
  return out + n;
}
// An int as its 4 bytes: a dtype (any value a parsed NodeDef may hold, valid or not) or a length.
char* PutInt(char* out, int32_t value) { return Put(out, &value, sizeof(value)); }

}  // namespace

void KernelSupportMemo::KeyOf(const NodeDef& node, std::string* key) {
  // Attr maps iterate in no fixed order: sort by name so equal attrs give equal keys (an
  // insertion sort: nodes have a few attrs).
  using Attr = const google::protobuf::Map<std::string, AttrValue>::value_type*;
  absl::InlinedVector<Attr, 4> attrs;
  for (const auto& attr : node.attr()) {
    attrs.push_back(&attr);
    for (size_t i = attrs.size() - 1; i > 0 && attrs[i]->first < attrs[i - 1]->first; --i) {
      std::swap(attrs[i], attrs[i - 1]);
    }
  }
  // Each string after its length, so that no two different nodes give the same key. Sized first
  // and written in place: this runs once per node.
  size_t size = sizeof(int32_t) + node.op().size();
  for (Attr attr : attrs) {
    size += sizeof(int32_t) + attr->first.size() + 1;
    const AttrValue& v = attr->second;
    if (v.value_case() == AttrValue::kType) size += sizeof(int32_t);
    if (v.value_case() == AttrValue::kList) {
      size += sizeof(int32_t) * (1 + v.list().type_size());
    }
  }
  key->resize(size);
  char* out = key->data();
  out = PutInt(out, static_cast<int32_t>(node.op().size()));
  out = Put(out, node.op().data(), node.op().size());
  for (Attr attr : attrs) {
    out = PutInt(out, static_cast<int32_t>(attr->first.size()));
    out = Put(out, attr->first.data(), attr->first.size());
    const AttrValue& v = attr->second;
    *out++ = static_cast<char>(v.value_case());
    if (v.value_case() == AttrValue::kType) {
      out = PutInt(out, v.type());
    } else if (v.value_case() == AttrValue::kList) {
      out = PutInt(out, v.list().type_size());
      for (int t : v.list().type()) out = PutInt(out, t);
    }
  }
}

const std::vector<std::string>& KernelSupportMemo::SupportedDeviceTypes(const NodeDef& node) {
  KeyOf(node, &key_);
  // Runs of nodes with the same key (a chain, the inputs of a wide AddN) skip the hash lookup.
  if (last_ >= 0 && key_ == last_key_) return answers_[last_];
  auto [it, added] = index_.try_emplace(key_, static_cast<int>(answers_.size()));
  if (added) answers_.push_back(kernels_.SupportedDeviceTypes(node, device_types_));
  last_ = it->second;
  key_.swap(last_key_);
  return answers_[last_];
}

}  // namespace rill
