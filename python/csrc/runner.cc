#include "python/csrc/runner.h"

#include <cstring>
#include <utility>

namespace rill_py {
namespace {

static_assert(sizeof(npy_intp) == sizeof(int64_t), "numpy dims are passed as int64_t dims");

constexpr const char* kCapsuleName = "rill.TF_Tensor";
constexpr int kSmall = 8;  // slots kept on the stack per call

// Feeds are owned by Python during the run: nothing to free when the library lets go.
void NoDeallocate(void*, size_t, void*) {}

void DeleteTensorCapsule(PyObject* capsule) {
  void* t = PyCapsule_GetPointer(capsule, kCapsuleName);
  if (t != nullptr) GlobalBindings().tf.delete_tensor(static_cast<TF_Tensor*>(t));
}

// One TF_Status per thread, reused by every run of the thread.
TF_Status* ThreadStatus() {
  struct Holder {
    TF_Status* status = nullptr;
    ~Holder() {
      if (status != nullptr) GlobalBindings().tf.delete_status(status);
    }
  };
  static thread_local Holder holder;
  if (holder.status == nullptr) holder.status = GlobalBindings().tf.new_status();
  return holder.status;
}

// TF_Tensor pointers (fed or fetched) deleted when the call leaves, whichever way.
class TensorList {
 public:
  explicit TensorList(size_t n) : n_(n) {
    if (n_ > kSmall) heap_.assign(n_, nullptr);
    for (size_t i = 0; i < n_ && i < kSmall; ++i) small_[i] = nullptr;
  }
  ~TensorList() {
    const TfFunctions& tf = GlobalBindings().tf;
    for (size_t i = 0; i < n_; ++i) {
      if (data()[i] != nullptr) tf.delete_tensor(data()[i]);
    }
  }
  TF_Tensor** data() { return n_ > kSmall ? heap_.data() : small_; }
  TF_Tensor* release(size_t i) { return std::exchange(data()[i], nullptr); }

 private:
  size_t n_;
  TF_Tensor* small_[kSmall];
  std::vector<TF_Tensor*> heap_;
};

// Python objects held for the length of a call (converted feed arrays).
class RefList {
 public:
  ~RefList() {
    for (PyObject* o : refs_) Py_DECREF(o);
  }
  void Add(PyObject* o) { refs_.push_back(o); }

 private:
  std::vector<PyObject*> refs_;
};

}  // namespace

Bindings& GlobalBindings() {
  static Bindings* bindings = new Bindings;
  return *bindings;
}

void SetStatusError(TF_Status* status) {
  const Bindings& b = GlobalBindings();
  PyObject* exc = PyObject_CallFunction(b.make_error, "is", static_cast<int>(b.tf.get_code(status)),
                                        b.tf.message(status));
  if (exc == nullptr) return;  // make_error raised: that exception stands
  PyErr_SetObject(reinterpret_cast<PyObject*>(Py_TYPE(exc)), exc);
  Py_DECREF(exc);
}

Runner::Runner(PyObject* session, TF_Session* c_session, std::vector<FeedSlot> feeds,
               std::vector<FetchSlot> fetches, std::vector<TF_Operation*> targets, ResultMode mode,
               PyObject* convert, PyObject* build)
    : session_(session == Py_None ? nullptr : session),
      c_session_(c_session),
      feeds_(std::move(feeds)),
      fetches_(std::move(fetches)),
      targets_(std::move(targets)),
      mode_(mode),
      convert_(convert),
      build_(build) {
  Py_XINCREF(session_);
  Py_INCREF(convert_);
  Py_INCREF(build_);
  for (const FeedSlot& f : feeds_) feed_outputs_.push_back(f.output);
  for (const FetchSlot& f : fetches_) fetch_outputs_.push_back(f.output);
}

Runner::~Runner() {
  for (FeedSlot& f : feeds_) Py_XDECREF(f.descr);
  for (FetchSlot& f : fetches_) Py_XDECREF(f.descr);
  Py_XDECREF(session_);
  Py_XDECREF(convert_);
  Py_XDECREF(build_);
}

bool Runner::FeedsAsIs(const FeedSlot& slot, PyObject* value) const {
  if (Py_TYPE(value) != GlobalBindings().np.array_type) return false;
  const ArrayFields* a = Fields(value);
  if (a->descr != slot.descr &&
      (Descr(a->descr)->type_num != slot.type_num || !NativeByteOrder(a->descr))) {
    return false;
  }
  if (!(a->flags & kArrayCContiguous)) return false;
  if (!slot.rank_known) return true;
  if (a->nd != static_cast<int>(slot.dims.size())) return false;
  for (int i = 0; i < a->nd; ++i) {
    if (slot.dims[i] >= 0 && slot.dims[i] != a->dimensions[i]) return false;
  }
  return true;
}

TF_Tensor* Runner::FeedTensor(const FeedSlot& slot, PyObject* array) const {
  const ArrayFields* a = Fields(array);
  int64_t elements = 1;
  for (int i = 0; i < a->nd; ++i) elements *= a->dimensions[i];
  const size_t bytes = static_cast<size_t>(elements) * slot.element_size;
  return GlobalBindings().tf.new_tensor(slot.dtype, reinterpret_cast<const int64_t*>(a->dimensions),
                                        a->nd, bytes ? a->data : nullptr, bytes, NoDeallocate,
                                        nullptr);
}

PyObject* Runner::ToNumpy(TF_Tensor* t, const FetchSlot& slot) const {
  const Bindings& b = GlobalBindings();
  const int nd = b.tf.num_dims(t);
  if (nd == 0) {
    PyObject* scalar = b.np.scalar(b.tf.data(t), slot.descr, nullptr);
    b.tf.delete_tensor(t);
    return scalar;
  }
  npy_intp small_dims[kSmall];
  std::vector<npy_intp> heap_dims;
  npy_intp* dims = small_dims;
  if (nd > kSmall) {
    heap_dims.resize(nd);
    dims = heap_dims.data();
  }
  for (int i = 0; i < nd; ++i) dims[i] = b.tf.dim(t, i);
  const size_t bytes = b.tf.byte_size(t);
  if (bytes > 0) {
    TF_Tensor* moved = b.tf.maybe_move(t);
    if (moved != nullptr) {
      Py_INCREF(slot.descr);  // new_from_descr steals it
      PyObject* array =
          b.np.new_from_descr(b.np.array_type, slot.descr, nd, dims, nullptr, b.tf.data(moved),
                              kArrayCContiguous | kArrayAligned | kArrayWriteable, nullptr);
      if (array == nullptr) {
        b.tf.delete_tensor(moved);
        return nullptr;
      }
      PyObject* owner = PyCapsule_New(moved, kCapsuleName, DeleteTensorCapsule);
      if (owner == nullptr) {
        b.tf.delete_tensor(moved);
        Py_DECREF(array);
        return nullptr;
      }
      if (b.np.set_base_object(array, owner) < 0) {  // steals owner, also on failure
        Py_DECREF(array);
        return nullptr;
      }
      return array;
    }
  }
  // Shared with the graph (a constant) or empty: the values are copied into a new array.
  Py_INCREF(slot.descr);
  PyObject* array =
      b.np.new_from_descr(b.np.array_type, slot.descr, nd, dims, nullptr, nullptr, 0, nullptr);
  if (array != nullptr && bytes > 0) std::memcpy(Fields(array)->data, b.tf.data(t), bytes);
  b.tf.delete_tensor(t);
  return array;
}

PyObject* Runner::Call(PyObject* const* args, Py_ssize_t nargs) {
  const Bindings& b = GlobalBindings();
  const size_t nin = feeds_.size();
  if (static_cast<size_t>(nargs) != nin) {
    PyErr_Format(PyExc_TypeError, "Argument list has %zd entries, the callable takes %zu", nargs,
                 nin);
    return nullptr;
  }
  if (session_ != nullptr) {
    static PyObject* closed_name = PyUnicode_InternFromString("_closed");
    PyObject* closed = PyObject_GetAttr(session_, closed_name);
    if (closed == nullptr) return nullptr;
    const int is_closed = PyObject_IsTrue(closed);
    Py_DECREF(closed);
    if (is_closed != 0) {
      if (is_closed > 0) PyErr_SetString(PyExc_RuntimeError, "Attempted to use a closed Session.");
      return nullptr;
    }
  }
  TensorList in_values(nin);
  RefList converted;
  for (size_t i = 0; i < nin; ++i) {
    PyObject* value = args[i];
    if (!FeedsAsIs(feeds_[i], value)) {
      value = PyObject_CallFunction(convert_, "nO", static_cast<Py_ssize_t>(i), value);
      if (value == nullptr) return nullptr;
      if (Py_TYPE(value) != b.np.array_type) {
        Py_DECREF(value);
        PyErr_SetString(PyExc_TypeError, "rill._fastrun: the feed conversion returned no ndarray");
        return nullptr;
      }
      converted.Add(value);
    }
    in_values.data()[i] = FeedTensor(feeds_[i], value);
    if (in_values.data()[i] == nullptr) {
      PyErr_Format(PyExc_ValueError, "rill._fastrun: feed %zu could not be made a tensor", i);
      return nullptr;
    }
  }
  const size_t nout = fetches_.size();
  TensorList out_values(nout);
  TF_Status* status = ThreadStatus();
  PyThreadState* saved = PyEval_SaveThread();
  b.tf.session_run(c_session_, nullptr, feed_outputs_.data(), in_values.data(),
                   static_cast<int>(nin), fetch_outputs_.data(), out_values.data(),
                   static_cast<int>(nout), targets_.data(), static_cast<int>(targets_.size()),
                   nullptr, status);
  PyEval_RestoreThread(saved);
  if (b.tf.get_code(status) != TF_OK) {
    SetStatusError(status);
    return nullptr;
  }
  if (mode_ == ResultMode::kNone) Py_RETURN_NONE;
  if (mode_ == ResultMode::kSingle) {
    if (nout != 1 || out_values.data()[0] == nullptr) {
      PyErr_SetString(PyExc_RuntimeError, "rill._fastrun: the run returned no value");
      return nullptr;
    }
    return ToNumpy(out_values.release(0), fetches_[0]);
  }
  PyObject* list = PyList_New(static_cast<Py_ssize_t>(nout));
  if (list == nullptr) return nullptr;
  for (size_t i = 0; i < nout; ++i) {
    TF_Tensor* t = out_values.release(i);
    PyObject* value = t == nullptr ? nullptr : ToNumpy(t, fetches_[i]);
    if (value == nullptr) {
      if (!PyErr_Occurred()) {
        PyErr_SetString(PyExc_RuntimeError, "rill._fastrun: the run returned no value");
      }
      Py_DECREF(list);
      return nullptr;
    }
    PyList_SET_ITEM(list, static_cast<Py_ssize_t>(i), value);
  }
  PyObject* result = PyObject_CallOneArg(build_, list);
  Py_DECREF(list);
  return result;
}

}  // namespace rill_py
