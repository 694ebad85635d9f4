// hls_stream.h - hls::stream for ming's C simulation (g++ -std=c++17 -pthread).
//
// A stream is a FIFO that holds at most DEPTH elements, like the hardware one: read() blocks
// while it is empty and write() blocks while it is full. Processes of a DATAFLOW region run in
// their own threads (ming_dataflow.h). When every process (or, outside any region, the only
// thread) is blocked, nothing can ever move again: the run prints which process waits on which
// stream, with its fill, and exits with status 3:
//   ming csim: DEADLOCK: conv0 blocked writing 'c1' (2/2); relu blocked reading 'c0' (0/2)
//
// hls::stream<T, D> is-a hls::stream<T> (depth 2), as in Vitis, so a process function can take
// hls::stream<T>& whatever depth the top function gave the channel. D == 0 also means depth 2.
//
// Under __SYNTHESIS__ none of this is compiled: the vendor's hls_stream.h is used when one is on
// the include path, otherwise the class is only declared (enough for a syntax check).
#ifndef MING_HLS_STREAM_H
#define MING_HLS_STREAM_H

#if defined(__SYNTHESIS__) && defined(__has_include_next)
#if __has_include_next(<hls_stream.h>)
#include_next <hls_stream.h>
#define MING_HLS_STREAM_VENDOR
#endif
#endif

#ifndef MING_HLS_STREAM_VENDOR
#include <cstddef>

#ifdef __SYNTHESIS__

namespace hls {
template <typename T, int DEPTH = 2> class stream;

// Declarations only: a tool that synthesises this needs its own hls_stream.h.
template <typename T> class stream<T, 2> {
public:
  stream();
  explicit stream(const char *name);
  stream(const stream &) = delete;
  stream &operator=(const stream &) = delete;
  T read();
  void read(T &v);
  void write(const T &v);
  bool read_nb(T &v);
  bool write_nb(const T &v);
  bool empty() const;
  bool full() const;
  std::size_t size() const;
  void operator>>(T &v);
  void operator<<(const T &v);

protected:
  stream(const char *name, int depth);
};
} // namespace hls

#else // C simulation

// ming_dataflow.h runs processes in threads only when these streams are the ones in use.
#define MING_CSIM_THREADS 1

#include <algorithm>
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <deque>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

namespace ming {
namespace csim {

struct chan;

// A participant: one dataflow process thread, or "main" (whoever runs outside every region).
struct proc {
  explicit proc(std::string n) : name(std::move(n)) {}
  std::string name;
  std::condition_variable cv; // this thread sleeps here while blocked
  const chan *on = nullptr;   // the stream it is blocked on, if any
  bool writing = false;
  int *live = nullptr; // processes of its region still running
};

// The non-template part of a stream: what the deadlock report prints.
struct chan {
  std::string name;
  std::size_t depth = 0, count = 0, peak = 0;
  std::vector<proc *> readers, writers; // blocked on this stream
};

struct state {
  // One lock for every stream: "nobody can make progress" is then an exact test, not a guess.
  std::mutex mu;
  // Participants not blocked on a stream and not waiting for their region to finish.
  int active = 1; // main
  proc main{"main"};
  std::vector<proc *> procs{&main}; // live participants in start order, for the report
  unsigned next_id = 0;             // names unnamed streams
};

// Never destroyed: a thread may still touch it while static destructors run.
inline state &st() {
  static state *s = new state;
  return *s;
}

inline thread_local proc *self_ = nullptr; // set in each process thread
inline proc &self() { return self_ ? *self_ : st().main; }

[[noreturn]] inline void deadlock() {
  std::string msg = "ming csim: DEADLOCK:";
  const char *sep = " ";
  for (const proc *p : st().procs) {
    if (!p->on)
      continue;
    msg += sep + p->name + (p->writing ? " blocked writing '" : " blocked reading '") +
           p->on->name + "' (" + std::to_string(p->on->count) + "/" +
           std::to_string(p->on->depth) + ")";
    sep = "; ";
  }
  std::fflush(stdout); // keep what the design printed so far
  std::fprintf(stderr, "%s\n", msg.c_str());
  std::fflush(stderr);
  std::_Exit(3); // other threads are asleep on our lock: skip static destructors
}

// Caller holds st().mu. Sleeps until a peer reads/writes `c`; stops the run if nobody else can.
inline void block(std::unique_lock<std::mutex> &lk, chan &c, bool writing) {
  proc &me = self();
  me.on = &c;
  me.writing = writing;
  (writing ? c.writers : c.readers).push_back(&me);
  if (--st().active == 0)
    deadlock();
  while (me.on)
    me.cv.wait(lk);
}

// Caller holds st().mu. The waker counts the sleepers as active again at once, so a peer that
// blocks right after never mistakes a thread that is about to wake up for a blocked one.
inline void wake(std::vector<proc *> &waiting) {
  for (proc *p : waiting) {
    p->on = nullptr;
    ++st().active;
    p->cv.notify_one();
  }
  waiting.clear();
}

// A region starts: the calling thread stops counting (it only waits to join) and its
// processes start counting. Used by ming::dataflow.
inline void begin_region(const std::vector<proc *> &kids, int &live) {
  std::lock_guard<std::mutex> g(st().mu);
  live = static_cast<int>(kids.size());
  for (proc *k : kids) {
    k->live = &live;
    st().procs.push_back(k);
  }
  st().active += live - 1;
}

// A process returned. The last one of its region hands its count back to the waiting parent;
// any other one leaves, and if the rest are all blocked they can never finish.
inline void end_process(proc &p) {
  std::lock_guard<std::mutex> g(st().mu);
  auto &v = st().procs;
  v.erase(std::find(v.begin(), v.end(), &p));
  if (--*p.live == 0)
    return;
  if (--st().active == 0)
    deadlock();
}

} // namespace csim
} // namespace ming

namespace hls {
template <typename T, int DEPTH = 2> class stream;

template <typename T> class stream<T, 2> {
public:
  stream() : stream(nullptr, 2) {}
  explicit stream(const char *name) : stream(name, 2) {}
  stream(const stream &) = delete;
  stream &operator=(const stream &) = delete;
  ~stream() {
    if (!q_.empty()) // as in hardware, leftover data means producer and consumer disagree
      std::fprintf(stderr, "ming csim: WARNING: stream '%s' destroyed with %zu unread element(s)\n",
                   c_.name.c_str(), q_.size());
  }

  T read() {
    std::unique_lock<std::mutex> lk(ming::csim::st().mu);
    while (q_.empty())
      ming::csim::block(lk, c_, false);
    return pop();
  }
  void read(T &v) { v = read(); }
  void write(const T &v) {
    std::unique_lock<std::mutex> lk(ming::csim::st().mu);
    while (q_.size() >= c_.depth)
      ming::csim::block(lk, c_, true);
    push(v);
  }
  bool read_nb(T &v) {
    std::lock_guard<std::mutex> g(ming::csim::st().mu);
    if (q_.empty())
      return false;
    v = pop();
    return true;
  }
  bool write_nb(const T &v) {
    std::lock_guard<std::mutex> g(ming::csim::st().mu);
    if (q_.size() >= c_.depth)
      return false;
    push(v);
    return true;
  }
  void operator>>(T &v) { read(v); }
  void operator<<(const T &v) { write(v); }

  bool empty() const { return size() == 0; }
  bool full() const { return size() >= c_.depth; }
  std::size_t size() const {
    std::lock_guard<std::mutex> g(ming::csim::st().mu);
    return q_.size();
  }
  std::size_t capacity() const { return c_.depth; }
  // Highest fill seen so far: how much of the depth the run really needed.
  std::size_t peak() const {
    std::lock_guard<std::mutex> g(ming::csim::st().mu);
    return c_.peak;
  }
  const char *name() const { return c_.name.c_str(); }

protected:
  stream(const char *name, int depth) {
    std::lock_guard<std::mutex> g(ming::csim::st().mu);
    c_.name = name ? name : "stream" + std::to_string(ming::csim::st().next_id);
    ++ming::csim::st().next_id;
    c_.depth = static_cast<std::size_t>(depth);
  }

private:
  // Callers hold st().mu.
  void push(const T &v) {
    q_.push_back(v);
    c_.count = q_.size();
    c_.peak = std::max(c_.peak, c_.count);
    ming::csim::wake(c_.readers);
  }
  T pop() {
    T v = std::move(q_.front());
    q_.pop_front();
    c_.count = q_.size();
    ming::csim::wake(c_.writers);
    return v;
  }

  ming::csim::chan c_;
  std::deque<T> q_;
};
} // namespace hls

#endif // __SYNTHESIS__

namespace hls {
// Any other depth: the same stream with a different capacity.
template <typename T, int DEPTH> class stream : public stream<T, 2> {
  static_assert(DEPTH >= 0, "hls::stream depth must be positive");

public:
  stream() : stream<T, 2>(nullptr, DEPTH > 0 ? DEPTH : 2) {}
  explicit stream(const char *name) : stream<T, 2>(name, DEPTH > 0 ? DEPTH : 2) {}
};
} // namespace hls

#endif // !MING_HLS_STREAM_VENDOR
#endif // MING_HLS_STREAM_H
