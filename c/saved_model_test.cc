// SavedModels written by TensorFlow (a TF1 Builder export and a Keras export), loaded with
// TF_LoadSessionFromSavedModel: the returned MetaGraphDef's serving signature names the tensors,
// and TF_SessionRun gives TensorFlow's recorded outputs.
#include <cmath>
#include <cstring>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "c/c_test_util.h"
#include "gtest/gtest.h"
#include "proto/meta_graph.pb.h"
#include "tensorflow/c/c_api.h"

namespace {

using rill_c_test::Status;

// A float32 .npy file (format 1.0, C order): dims and values.
struct Npy {
  std::vector<int64_t> dims;
  std::vector<float> values;
};

Npy ReadNpy(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream bytes;
  bytes << in.rdbuf();
  const std::string data = bytes.str();
  Npy npy;
  if (data.size() < 10) {
    ADD_FAILURE() << "cannot read " << path;
    return npy;
  }
  const size_t header_len =
      static_cast<unsigned char>(data[8]) | (static_cast<unsigned char>(data[9]) << 8);
  const std::string header = data.substr(10, header_len);
  EXPECT_NE(header.find("'<f4'"), std::string::npos) << header;
  const size_t open = header.find("'shape': (") + 10;
  const std::string shape = header.substr(open, header.find(')', open) - open);
  std::stringstream dims(shape);
  std::string dim;
  int64_t count = 1;
  while (std::getline(dims, dim, ',')) {
    if (dim.find_first_not_of(' ') == std::string::npos) continue;
    npy.dims.push_back(std::stoll(dim));
    count *= npy.dims.back();
  }
  npy.values.resize(count);
  std::memcpy(npy.values.data(), data.data() + 10 + header_len, count * sizeof(float));
  return npy;
}

// "name:index" of `graph` as a TF_Output.
TF_Output Named(TF_Graph* graph, const std::string& tensor) {
  const size_t colon = tensor.rfind(':');
  return TF_Output{TF_GraphOperationByName(graph, tensor.substr(0, colon).c_str()),
                   std::stoi(tensor.substr(colon + 1))};
}

void ExpectServingOutput(const std::string& dir, const std::string& in_key,
                         const std::string& out_key, const std::string& want_file) {
  TF_SessionOptions* opts = TF_NewSessionOptions();
  TF_Graph* graph = TF_NewGraph();
  TF_Buffer* meta = TF_NewBuffer();
  const char* tags[] = {"serve"};
  Status s;
  TF_Session* session =
      TF_LoadSessionFromSavedModel(opts, nullptr, dir.c_str(), tags, 1, graph, meta, s);
  ASSERT_EQ(s.code(), TF_OK) << s.message();
  rill::MetaGraphDef meta_graph;
  ASSERT_TRUE(meta_graph.ParseFromArray(meta->data, static_cast<int>(meta->length)));
  const rill::SignatureDef& sig = meta_graph.signature_def().at("serving_default");
  TF_Output input = Named(graph, sig.inputs().at(in_key).name());
  TF_Output output = Named(graph, sig.outputs().at(out_key).name());
  ASSERT_NE(input.oper, nullptr);
  ASSERT_NE(output.oper, nullptr);

  const Npy x = ReadNpy(dir + "/x.npy");
  const Npy want = ReadNpy(dir + "/" + want_file);
  TF_Tensor* x_tensor = rill_c_test::FloatTensor(x.dims, x.values);
  TF_Tensor* got = nullptr;
  TF_SessionRun(session, nullptr, &input, &x_tensor, 1, &output, &got, 1, nullptr, 0, nullptr, s);
  ASSERT_EQ(s.code(), TF_OK) << s.message();
  ASSERT_EQ(TF_NumDims(got), static_cast<int>(want.dims.size()));
  for (int i = 0; i < TF_NumDims(got); ++i) EXPECT_EQ(TF_Dim(got, i), want.dims[i]);
  const std::vector<float> values = rill_c_test::FloatValues(got);
  ASSERT_EQ(values.size(), want.values.size());
  for (size_t i = 0; i < values.size(); ++i) EXPECT_NEAR(values[i], want.values[i], 1e-5) << i;

  TF_DeleteTensor(got);
  TF_DeleteTensor(x_tensor);
  TF_DeleteSession(session, s);
  TF_DeleteGraph(graph);
  TF_DeleteBuffer(meta);
  TF_DeleteSessionOptions(opts);
}

TEST(SavedModel, Tf1BuilderExport) {
  ExpectServingOutput("c/testdata/saved_models/tf1_saved_model", "x", "probs", "probs.npy");
}

TEST(SavedModel, KerasExport) {
  ExpectServingOutput("c/testdata/saved_models/keras_saved_model", "keras_tensor", "output_0",
                      "y.npy");
}

}  // namespace
