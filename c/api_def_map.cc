// TF_ApiDefMap: an ApiDef per op of a serialized OpList (names, arguments, attrs and docs taken
// from the OpDefs), overridden by text-format ApiDefs (TF_ApiDefMapPut: given fields replace the
// current ones; arguments and attrs are matched by name), read back serialized.
#include <map>
#include <string>

#include "absl/strings/str_cat.h"
#include "c/api_def.pb.h"
#include "c/c_api_internal.h"
#include "google/protobuf/text_format.h"
#include "proto/op_def.pb.h"

struct TF_ApiDefMap {
  std::map<std::string, rill::c_api::ApiDef> defs;
};

namespace rill_c {
namespace {

using rill::c_api::ApiDef;

ApiDef DefaultApiDef(const rill::OpDef& op) {
  ApiDef def;
  def.set_graph_op_name(op.name());
  def.set_visibility(ApiDef::VISIBLE);
  def.add_endpoint()->set_name(op.name());
  for (const rill::OpDef::ArgDef& in : op.input_arg()) {
    ApiDef::Arg* arg = def.add_in_arg();
    arg->set_name(in.name());
    arg->set_rename_to(in.name());
    arg->set_description(in.description());
    def.add_arg_order(in.name());
  }
  for (const rill::OpDef::ArgDef& out : op.output_arg()) {
    ApiDef::Arg* arg = def.add_out_arg();
    arg->set_name(out.name());
    arg->set_rename_to(out.name());
    arg->set_description(out.description());
  }
  for (const rill::OpDef::AttrDef& a : op.attr()) {
    ApiDef::Attr* attr = def.add_attr();
    attr->set_name(a.name());
    attr->set_rename_to(a.name());
    if (a.has_default_value()) *attr->mutable_default_value() = a.default_value();
    attr->set_description(a.description());
  }
  def.set_summary(op.summary());
  def.set_description(op.description());
  return def;
}

template <typename Entry>
void MergeByName(const google::protobuf::RepeatedPtrField<Entry>& given,
                 google::protobuf::RepeatedPtrField<Entry>* current) {
  for (const Entry& g : given) {
    Entry* match = nullptr;
    for (Entry& c : *current) {
      if (c.name() == g.name()) match = &c;
    }
    if (match == nullptr) {
      *current->Add() = g;
      continue;
    }
    if (!g.rename_to().empty()) match->set_rename_to(g.rename_to());
    if (!g.description().empty()) match->set_description(g.description());
    if constexpr (std::is_same_v<Entry, ApiDef::Attr>) {
      if (g.has_default_value()) *match->mutable_default_value() = g.default_value();
    }
  }
}

void Merge(const ApiDef& given, ApiDef* current) {
  if (given.visibility() != ApiDef::DEFAULT_VISIBILITY) current->set_visibility(given.visibility());
  if (given.endpoint_size() > 0) *current->mutable_endpoint() = given.endpoint();
  MergeByName(given.in_arg(), current->mutable_in_arg());
  MergeByName(given.out_arg(), current->mutable_out_arg());
  MergeByName(given.attr(), current->mutable_attr());
  if (given.arg_order_size() > 0) *current->mutable_arg_order() = given.arg_order();
  if (!given.summary().empty()) current->set_summary(given.summary());
  if (!given.description().empty()) current->set_description(given.description());
  if (!given.description_prefix().empty()) {
    current->set_description(
        absl::StrCat(given.description_prefix(), "\n", current->description()));
  }
  if (!given.description_suffix().empty()) {
    current->set_description(
        absl::StrCat(current->description(), "\n", given.description_suffix()));
  }
}

}  // namespace
}  // namespace rill_c

using rill_c::SetOk;
using rill_c::SetStatus;

extern "C" {

TF_ApiDefMap* TF_NewApiDefMap(TF_Buffer* op_list_buffer, TF_Status* status) {
  rill::OpList ops;
  if (op_list_buffer == nullptr ||
      !rill_c::ParseFromBytes(op_list_buffer->data, op_list_buffer->length, &ops)) {
    SetStatus(status, absl::InvalidArgumentError("Unparseable OpList"));
    return nullptr;
  }
  TF_ApiDefMap* map = new TF_ApiDefMap;
  for (const rill::OpDef& op : ops.op()) map->defs[op.name()] = rill_c::DefaultApiDef(op);
  SetOk(status);
  return map;
}

void TF_DeleteApiDefMap(TF_ApiDefMap* apimap) { delete apimap; }

void TF_ApiDefMapPut(TF_ApiDefMap* api_def_map, const char* text, size_t text_len,
                     TF_Status* status) {
  if (api_def_map == nullptr || (text == nullptr && text_len > 0)) {
    return SetStatus(status, absl::InvalidArgumentError("The map or the text is null"));
  }
  if (!rill_c::IsObjectLength(text_len)) {
    return SetStatus(status, rill_c::ObjectLengthError("text_len", text_len));
  }
  rill::c_api::ApiDefs given;
  if (!google::protobuf::TextFormat::ParseFromString(std::string(text, text_len), &given)) {
    return SetStatus(status, absl::InvalidArgumentError("Unparseable ApiDefs text"));
  }
  for (const rill::c_api::ApiDef& def : given.op()) {
    if (!api_def_map->defs.count(def.graph_op_name())) {
      return SetStatus(status, absl::InvalidArgumentError(
                                   absl::StrCat("Unexpected ApiDef override: ", def.graph_op_name(),
                                                " is not defined in the base ApiDefs")));
    }
  }
  for (const rill::c_api::ApiDef& def : given.op()) {
    rill_c::Merge(def, &api_def_map->defs[def.graph_op_name()]);
  }
  SetOk(status);
}

TF_Buffer* TF_ApiDefMapGet(TF_ApiDefMap* api_def_map, const char* name, size_t name_len,
                           TF_Status* status) {
  if (api_def_map == nullptr || name == nullptr) {
    SetStatus(status, absl::InvalidArgumentError("The map or the name is null"));
    return nullptr;
  }
  if (!rill_c::IsObjectLength(name_len)) {
    SetStatus(status, rill_c::ObjectLengthError("name_len", name_len));
    return nullptr;
  }
  const std::string op(name, name_len);
  auto it = api_def_map->defs.find(op);
  if (it == api_def_map->defs.end()) {
    SetStatus(status, absl::NotFoundError(absl::StrCat(op, " not found in ApiDefMap.")));
    return nullptr;
  }
  TF_Buffer* buffer = TF_NewBuffer();
  SetStatus(status, rill_c::SerializeToBuffer(it->second, buffer));
  return buffer;
}

}  // extern "C"
