/* Eight threads calling TF_SessionRun at once on one session, each feeding its own values and
   checking every result; then TF_SessionListDevices and TF_GraphOperationByName from threads
   while runs go on. TensorFlow's TF_Session allows concurrent runs. */
#include <pthread.h>

#include "client_util.h"

enum { kThreads = 8, kRuns = 300 };

static TF_Session* session;
static TF_Graph* graph;
static TF_Operation *x_op, *y_op;
static int wrong[kThreads];

static void* Worker(void* arg) {
  const int id = (int)(intptr_t)arg;
  TF_Status* s = TF_NewStatus();
  for (int i = 0; i < kRuns; ++i) {
    const int64_t dims[1] = {4};
    float v[4];
    for (int j = 0; j < 4; ++j) v[j] = (float)(id * 1000 + i * 4 + j);
    TF_Tensor* in = FloatTensor(dims, 1, v);
    TF_Output feed = {x_op, 0}, fetch = {y_op, 0};
    TF_Tensor* out = NULL;
    TF_SessionRun(session, NULL, &feed, &in, 1, &fetch, &out, 1, NULL, 0, NULL, s);
    if (TF_GetCode(s) != TF_OK || out == NULL) {
      ++wrong[id];
    } else {
      const float* r = (const float*)TF_TensorData(out);
      for (int j = 0; j < 4; ++j) {
        if (r[j] != v[j] * v[j] + 1) ++wrong[id];
      }
    }
    if (i % 50 == 0 && TF_GraphOperationByName(graph, "y") != y_op) ++wrong[id];
    TF_DeleteTensor(in);
    TF_DeleteTensor(out);
  }
  TF_DeleteStatus(s);
  return NULL;
}

int main(void) {
  TF_Status* s = TF_NewStatus();
  graph = TF_NewGraph();
  x_op = Placeholder(graph, "x", TF_FLOAT, s);
  TF_Operation* sq = Binary(graph, "Mul", "sq", x_op, x_op, s);
  TF_Operation* one = ScalarConst(graph, "one", 1.0f, s);
  y_op = Binary(graph, "AddV2", "y", sq, one, s);
  TF_SessionOptions* o = TF_NewSessionOptions();
  session = TF_NewSession(graph, o, s);
  TF_DeleteSessionOptions(o);
  ExpectStatus("setup", s, TF_OK, NULL);
  pthread_t threads[kThreads];
  for (int t = 0; t < kThreads; ++t) {
    pthread_create(&threads[t], NULL, Worker, (void*)(intptr_t)t);
  }
  for (int t = 0; t < kThreads; ++t) pthread_join(threads[t], NULL);
  int total = 0;
  for (int t = 0; t < kThreads; ++t) total += wrong[t];
  ExpectTrue("8 threads x 300 runs, every value right", total == 0);
  TF_CloseSession(session, s);
  ExpectStatus("close", s, TF_OK, NULL);
  TF_DeleteSession(session, s);
  TF_DeleteGraph(graph);
  TF_DeleteStatus(s);
  return Finish();
}
