// Runner: one prepared TF_SessionRun call (a session, its fed and fetched outputs and targets),
// called with the feed values. Numeric numpy arrays go in without a copy on this side and
// results come out as numpy arrays that own the run's buffer when the library lets it go
// (TF_TensorMaybeMove), copies otherwise; rank-0 results are numpy scalars, as TensorFlow's
// session returns them. The GIL is released while the run executes.
#ifndef RILL_PYTHON_CSRC_RUNNER_H_
#define RILL_PYTHON_CSRC_RUNNER_H_

#include <Python.h>

#include <cstdint>
#include <vector>

#include "python/csrc/numpy_abi.h"
#include "python/csrc/tf_functions.h"

namespace rill_py {

// What bind() installs: numpy's API, the library's functions, and the Python callable that turns
// a failed status (code, message) into the exception instance to raise.
struct Bindings {
  NumpyApi np;
  TfFunctions tf;
  PyObject* make_error = nullptr;
  bool ready = false;
};

Bindings& GlobalBindings();

// How a run's values are returned.
enum class ResultMode {
  kSingle = 0,  // the one fetched value itself
  kNone = 1,    // None (only targets are run)
  kBuild = 2,   // build(list of fetched values): a Python callable rebuilds the structure
};

struct FeedSlot {
  TF_Output output;
  TF_DataType dtype;
  size_t element_size;
  PyObject* descr;  // the numpy dtype a fed array must have (owned reference)
  int type_num;
  bool rank_known;
  std::vector<int64_t> dims;  // declared dims, -1 where unknown (when rank_known)
};

struct FetchSlot {
  TF_Output output;
  PyObject* descr;  // numpy dtype of the results (owned reference)
};

class Runner {
 public:
  // session: the Python session, held and its `_closed` checked per call, or None (the caller
  // checks and keeps the session alive); convert(i, value): the
  // Python conversion of a feed value that is not already a C-contiguous array of the slot's
  // dtype and declared shape (it raises TensorFlow's errors for values that cannot be fed).
  Runner(PyObject* session, TF_Session* c_session, std::vector<FeedSlot> feeds,
         std::vector<FetchSlot> fetches, std::vector<TF_Operation*> targets, ResultMode mode,
         PyObject* convert, PyObject* build);
  ~Runner();
  Runner(const Runner&) = delete;
  Runner& operator=(const Runner&) = delete;

  // Runs with args[i] fed to feed slot i. A new reference, or nullptr with a Python exception.
  PyObject* Call(PyObject* const* args, Py_ssize_t nargs);

 private:
  // A TF_Tensor over the array's memory; the caller keeps the array alive until it is deleted.
  TF_Tensor* FeedTensor(const FeedSlot& slot, PyObject* array) const;
  // True when value can be fed as it is: an ndarray of the slot's dtype, C-contiguous, of the
  // declared shape.
  bool FeedsAsIs(const FeedSlot& slot, PyObject* value) const;
  // The numpy value of a fetched tensor; takes ownership of t.
  PyObject* ToNumpy(TF_Tensor* t, const FetchSlot& slot) const;

  PyObject* session_;
  TF_Session* c_session_;
  std::vector<FeedSlot> feeds_;
  std::vector<FetchSlot> fetches_;
  std::vector<TF_Output> feed_outputs_;
  std::vector<TF_Output> fetch_outputs_;
  std::vector<TF_Operation*> targets_;
  ResultMode mode_;
  PyObject* convert_;
  PyObject* build_;
};

// Sets a Python exception from a failed status through Bindings::make_error.
void SetStatusError(TF_Status* status);

}  // namespace rill_py

#endif  // RILL_PYTHON_CSRC_RUNNER_H_
