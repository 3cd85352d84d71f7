// Long calls from Python: the work runs on a worker thread without the GIL, so other
// Python threads go on, while the calling thread wakes every 50 ms to let Python run its
// signal handlers. On Ctrl-C (a KeyboardInterrupt from PyErr_CheckSignals) it sets the
// library's cancellation token (closure/util/cancel.hpp), which the long loops poll,
// waits for the worker to stop and raises the KeyboardInterrupt.
#pragma once

#include <pybind11/pybind11.h>

#include <chrono>
#include <future>
#include <thread>
#include <utility>

#include "closure/util/cancel.hpp"

namespace closure::python {

namespace py = pybind11;

// Call with the GIL held; `work` must not touch Python objects. `tick` runs on the calling
// thread, with the GIL, each time it wakes (every 50 ms) while the work goes on; an
// exception from it (a Python callback's) stops the work as Ctrl-C does and is rethrown.
template <class F, class Tick>
auto run_interruptible(F&& work, Tick&& tick) -> decltype(work()) {
  using Result = decltype(work());
  CancelToken token;
  std::packaged_task<Result()> task([&] {
    CancelScope scope(token);
    return work();
  });
  std::future<Result> result = task.get_future();
  std::thread worker(std::move(task));
  for (;;) {
    PyThreadState* saved = PyEval_SaveThread();
    const auto status = result.wait_for(std::chrono::milliseconds(50));
    PyEval_RestoreThread(saved);
    if (status == std::future_status::ready) break;
    bool stop = PyErr_CheckSignals() != 0;
    if (!stop) {
      try {
        tick();
      } catch (py::error_already_set& e) {
        e.restore();
        stop = true;
      }
    }
    if (stop) {
      token.cancel();
      saved = PyEval_SaveThread();
      worker.join();  // the loops poll often enough to stop within a second
      PyEval_RestoreThread(saved);
      throw py::error_already_set();  // the KeyboardInterrupt (or whatever a handler raised)
    }
  }
  worker.join();
  return result.get();  // rethrows the work's exception, translated by errors.cpp
}

template <class F>
auto run_interruptible(F&& work) -> decltype(work()) {
  return run_interruptible(std::forward<F>(work), [] {});
}

// Work known to be short (a few milliseconds at most) runs on the calling thread with the
// GIL released: a worker thread's start and join cost as much as the whole closure of a
// small graph. Ctrl-C then waits for it to end.
template <class F>
auto run_short_or_interruptible(bool short_work, F&& work) -> decltype(work()) {
  if (!short_work) return run_interruptible(std::forward<F>(work));
  py::gil_scoped_release unlocked;
  return work();
}

}  // namespace closure::python
