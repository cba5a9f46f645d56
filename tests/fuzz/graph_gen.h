// Building blocks of graph_modes_fuzzer's generators (tests/fuzz/gen_*.cc): what a generator
// makes (a GraphDef with its ConfigProto, feeds and fetches, and which differential checks hold
// for it), and helpers that add NodeDefs with their attrs to a graph or a FunctionDef body.
#ifndef RILL_TESTS_FUZZ_GRAPH_GEN_H_
#define RILL_TESTS_FUZZ_GRAPH_GEN_H_

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "core/tensor.h"
#include "google/protobuf/repeated_ptr_field.h"
#include "proto/config.pb.h"
#include "proto/graph.pb.h"
#include "tests/fuzz/fuzz_input.h"

namespace rill {
namespace fuzz {

struct Generated {
  GraphDef graph;
  ConfigProto config;
  std::vector<std::pair<std::string, Tensor>> feeds;
  std::vector<std::string> fetches;
  // Rerunning, and running with the graph optimizer off, must give the same outcome bit for bit.
  bool deterministic = true;
  // Every node is pinned to a device that exists: the graph with its devices cleared, on one CPU,
  // must give the same outcome bit for bit (partitioning and Send/Recv change nothing).
  bool single_device_twin = false;
};

// The four generators; each fills `out` from `in` (any byte string makes some graph).
void GenerateMultiDevice(FuzzInput* in, Generated* out);
void GenerateFunctions(FuzzInput* in, Generated* out);
void GenerateStrings(FuzzInput* in, Generated* out);
void GenerateHugeSizes(FuzzInput* in, Generated* out);

// The ConfigProto every generator starts from: `cpus` CPU devices, one intra-op thread, and an
// operation timeout so nothing can block the fuzzer for long.
ConfigProto BaseConfig(FuzzInput* in, int cpus);

using NodeList = google::protobuf::RepeatedPtrField<NodeDef>;

NodeDef* AddNode(NodeList* nodes, const std::string& name, const std::string& op,
                 const std::vector<std::string>& inputs);
void SetType(NodeDef* n, const std::string& attr, DataType dtype);
void SetTypeList(NodeDef* n, const std::string& attr, const std::vector<DataType>& types);
void SetInt(NodeDef* n, const std::string& attr, int64_t v);
void SetBool(NodeDef* n, const std::string& attr, bool v);
void SetString(NodeDef* n, const std::string& attr, const std::string& v);
void SetFunc(NodeDef* n, const std::string& attr, const std::string& function);
// A Const node holding `t` (as tensor_content or typed values, chosen by `content`).
NodeDef* AddConst(NodeList* nodes, const std::string& name, const Tensor& t, bool content);

// A value from a menu of sizes: small ones, and huge or negative ones that must be refused
// (int64 range; an int32 tensor holding it wraps).
int64_t PickSize(FuzzInput* in);

}  // namespace fuzz
}  // namespace rill

#endif  // RILL_TESTS_FUZZ_GRAPH_GEN_H_
