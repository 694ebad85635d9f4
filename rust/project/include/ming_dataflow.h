// ming_dataflow.h - DATAFLOW regions that run concurrently in C simulation.
//
// The generated top function (the one with #pragma HLS DATAFLOW) wraps each process call:
//     MING_DATAFLOW_BEGIN;
//     MING_PROCESS("conv0", conv0(s0, s1));
//     MING_PROCESS("relu0", relu0(s1, s2));
//     MING_DATAFLOW_END;
// C simulation with ming's hls_stream.h: each process runs in its own thread, as it does in
// hardware, and END joins them; if they all block, the run stops with a deadlock report.
// __SYNTHESIS__, or a vendor hls_stream.h (unbounded FIFOs): the macros are the plain calls, in
// order. Vitis's C-simulation stream is not thread-safe unless HLS_STREAM_THREAD_SAFE is defined,
// so no threads then; generated tops list their processes in producer order (every producer
// before its consumers), and on unbounded FIFOs running them one after the other in that order
// gives the values of the concurrent run. At most one region per scope (the macros use a fixed
// local name).
// Hand-written code may also use ming::dataflow directly: df.process("p", [&] { p(a, b); }); df.run();
#ifndef MING_DATAFLOW_H
#define MING_DATAFLOW_H

#include <hls_stream.h>

#if !defined(__SYNTHESIS__) && defined(MING_CSIM_THREADS)

#include <functional>
#include <memory>
#include <thread>

namespace ming {
class dataflow {
public:
  // Adds a process; it starts at run(). `name` is what a deadlock report calls it.
  template <typename F> void process(const char *name, F &&body) {
    procs_.push_back(std::make_unique<csim::proc>(name));
    bodies_.emplace_back(std::forward<F>(body));
  }

  // Runs every process concurrently and returns when all have returned.
  void run() {
    if (procs_.empty())
      return;
    std::vector<csim::proc *> kids;
    for (auto &p : procs_)
      kids.push_back(p.get());
    int live = 0;
    csim::begin_region(kids, live); // before any thread starts: they must count as runnable
    std::vector<std::thread> threads;
    for (std::size_t i = 0; i < kids.size(); ++i)
      threads.emplace_back([p = kids[i], &body = bodies_[i]] {
        csim::self_ = p;
        body();
        csim::end_process(*p);
      });
    for (auto &t : threads)
      t.join();
    procs_.clear();
    bodies_.clear();
  }

private:
  std::vector<std::unique_ptr<csim::proc>> procs_;
  std::vector<std::function<void()>> bodies_;
};
} // namespace ming

#define MING_DATAFLOW_BEGIN ::ming::dataflow ming_dataflow_region_
#define MING_PROCESS(name, ...) ming_dataflow_region_.process(name, [&]() { __VA_ARGS__; })
#define MING_DATAFLOW_END ming_dataflow_region_.run()

#else // synthesis, or streams that never block: plain sequential calls

#define MING_DATAFLOW_BEGIN
#define MING_PROCESS(name, ...) __VA_ARGS__
#define MING_DATAFLOW_END

#endif
#endif // MING_DATAFLOW_H
