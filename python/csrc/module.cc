// rill._fastrun: the compiled run path of the rill package (pybind11). The ctypes layer stays the
// owner of sessions and graphs; bind() hands this module the library it loaded, and Runner runs a
// prepared TF_SessionRun on one of its sessions (rill/client/session.py builds them).
#include <dlfcn.h>
#include <pybind11/pybind11.h>

#include <string>
#include <utility>
#include <vector>

#include "python/csrc/runner.h"

namespace py = pybind11;

namespace rill_py {
namespace {

// bind(handle, make_error): the dlopen handle of the libtensorflow.so.2 rill._c loaded, and the
// callable giving the exception to raise for a failed status: make_error(code, message).
void Bind(uintptr_t handle, py::object make_error) {
  Bindings& b = GlobalBindings();
  if (!LoadNumpyApi(&b.np)) throw py::error_already_set();
  std::string missing;
  if (!BindTfFunctions(reinterpret_cast<void*>(handle), &b.tf, &missing)) {
    throw py::import_error("rill._fastrun: the library has no " + missing);
  }
  Py_XDECREF(b.make_error);
  b.make_error = make_error.release().ptr();
  b.ready = true;
}

TF_Output OutputOf(const py::handle& op, const py::handle& index) {
  return TF_Output{reinterpret_cast<TF_Operation*>(op.cast<uintptr_t>()), index.cast<int>()};
}

// A new reference to d, which must be a numpy dtype.
PyObject* DescrOf(py::object d) {
  if (!PyObject_TypeCheck(d.ptr(), GlobalBindings().np.descr_type)) {
    throw py::type_error("rill._fastrun: expected a numpy dtype");
  }
  return d.release().ptr();
}

// feeds: [(op, index, dtype enum, numpy dtype, declared dims or None)]; fetches: [(op, index,
// numpy dtype)]; targets: [op]; mode: ResultMode; convert(i, value) and build(values): see
// Runner.
std::unique_ptr<Runner> MakeRunner(py::object session, uintptr_t c_session, py::list feeds,
                                   py::list fetches, py::list targets, int mode, py::object convert,
                                   py::object build) {
  const Bindings& b = GlobalBindings();
  if (!b.ready) throw std::runtime_error("rill._fastrun: bind() has not been called");
  if (mode < 0 || mode > 2) throw py::value_error("rill._fastrun: unknown result mode");
  std::vector<FeedSlot> feed_slots;
  for (py::handle f : feeds) {
    py::tuple t = py::reinterpret_borrow<py::tuple>(f);
    FeedSlot slot;
    slot.output = OutputOf(t[0], t[1]);
    slot.dtype = static_cast<TF_DataType>(t[2].cast<int>());
    slot.element_size = b.tf.type_size(slot.dtype);
    if (slot.element_size == 0) throw py::value_error("rill._fastrun: a feed of no fixed size");
    slot.descr = DescrOf(t[3]);
    slot.type_num = Descr(slot.descr)->type_num;
    slot.rank_known = !t[4].is_none();
    if (slot.rank_known) {
      for (py::handle d : t[4]) slot.dims.push_back(d.is_none() ? -1 : d.cast<int64_t>());
    }
    feed_slots.push_back(std::move(slot));
  }
  std::vector<FetchSlot> fetch_slots;
  for (py::handle f : fetches) {
    py::tuple t = py::reinterpret_borrow<py::tuple>(f);
    fetch_slots.push_back(FetchSlot{OutputOf(t[0], t[1]), DescrOf(t[2])});
  }
  std::vector<TF_Operation*> target_ops;
  for (py::handle op : targets) {
    target_ops.push_back(reinterpret_cast<TF_Operation*>(op.cast<uintptr_t>()));
  }
  if (mode == static_cast<int>(ResultMode::kSingle) && fetch_slots.size() != 1) {
    throw py::value_error("rill._fastrun: a single result needs exactly one fetch");
  }
  return std::make_unique<Runner>(session.ptr(), reinterpret_cast<TF_Session*>(c_session),
                                  std::move(feed_slots), std::move(fetch_slots),
                                  std::move(target_ops), static_cast<ResultMode>(mode),
                                  convert.ptr(), build.ptr());
}

py::object CallRunner(Runner& runner, py::args args, py::kwargs kwargs) {
  if (kwargs.size() != 0) throw py::type_error("make_callable: options need accept_options=True");
  PyObject* tuple = args.ptr();
  PyObject* result = runner.Call(&PyTuple_GET_ITEM(tuple, 0), PyTuple_GET_SIZE(tuple));
  if (result == nullptr) throw py::error_already_set();
  return py::reinterpret_steal<py::object>(result);
}

}  // namespace
}  // namespace rill_py

PYBIND11_MODULE(_fastrun, m) {
  m.doc() = "rill's compiled session run path (TF_SessionRun from numpy, to numpy)";
  m.def("bind", &rill_py::Bind, py::arg("handle"), py::arg("make_error"));
  py::class_<rill_py::Runner>(m, "Runner")
      .def(py::init(&rill_py::MakeRunner), py::arg("session"), py::arg("c_session"),
           py::arg("feeds"), py::arg("fetches"), py::arg("targets"), py::arg("mode"),
           py::arg("convert"), py::arg("build"))
      .def("__call__", &rill_py::CallRunner);
}
