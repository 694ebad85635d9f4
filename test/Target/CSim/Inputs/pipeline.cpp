// Streams behave like bounded hardware FIFOs and processes run concurrently.
#include <ming_dataflow.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <thread>

static int failures = 0;
#define EXPECT(cond)                                                                               \
  do {                                                                                             \
    if (!(cond)) {                                                                                 \
      std::printf("FAIL line %d: %s\n", __LINE__, #cond);                                          \
      ++failures;                                                                                  \
    }                                                                                              \
  } while (0)

// 1. A writer cannot run ahead of a slow reader by more than the depth.
static std::atomic<int> written{0};
static void fast_writer(hls::stream<int> &out) {
  for (int i = 0; i < 100; ++i) {
    out.write(i);
    ++written;
  }
}
static void slow_reader(hls::stream<int> &in, int &ahead) {
  // Nothing read yet: the writer gets 2 values in, then must stay blocked on the third.
  while (written.load() < 2)
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  std::this_thread::sleep_for(std::chrono::milliseconds(20));
  ahead = written.load();
  for (int i = 0; i < 100; ++i)
    EXPECT(in.read() == i);
}

// 2. producer -> 3 stages -> consumer, 10000 values in order through depth-2 streams.
static const int N = 10000;
static void producer(hls::stream<int> &out) {
  for (int i = 0; i < N; ++i)
    out << i;
}
static void stage(hls::stream<int> &in, hls::stream<int> &out, int add) {
  for (int i = 0; i < N; ++i) {
    int v;
    in >> v;
    out.write(v + add);
  }
}
static void consumer(hls::stream<int> &in, int &bad) {
  for (int i = 0; i < N; ++i) {
    int v;
    in.read(v);
    if (v != i + 1 + 10 + 100)
      ++bad;
  }
}

// 3. A process that runs its own region while a sibling waits for its result: the parent
//    waiting in join is not runnable, yet the run is not deadlocked.
static void inner_src(hls::stream<int> &out) {
  for (int i = 1; i <= 100; ++i)
    out.write(i);
}
static void inner_sum(hls::stream<int> &in, int &sum) {
  for (int i = 0; i < 100; ++i)
    sum += in.read();
}
static void nest(hls::stream<int> &result) {
  hls::stream<int> mid("mid");
  int sum = 0;
  MING_DATAFLOW_BEGIN;
  MING_PROCESS("inner_src", inner_src(mid));
  MING_PROCESS("inner_sum", inner_sum(mid, sum));
  MING_DATAFLOW_END;
  result.write(sum);
}
static void waiter(hls::stream<int> &result, int &got) { got = result.read(); }

int main() {
  {
    hls::stream<int> s("bounded");
    int ahead = -1;
    MING_DATAFLOW_BEGIN;
    MING_PROCESS("fast_writer", fast_writer(s));
    MING_PROCESS("slow_reader", slow_reader(s, ahead));
    MING_DATAFLOW_END;
    EXPECT(ahead <= 2);
    EXPECT(s.peak() == 2);
    std::printf("bounded: writer %d ahead, peak %zu of %zu\n", ahead, s.peak(), s.capacity());
  }
  {
    // Default depth, explicit depth 2: both bind to hls::stream<int>&.
    hls::stream<int> c0("c0");
    hls::stream<int, 2> c1("c1"), c2("c2"), c3("c3");
    int bad = 0;
    MING_DATAFLOW_BEGIN;
    MING_PROCESS("producer", producer(c0));
    MING_PROCESS("stage1", stage(c0, c1, 1));
    MING_PROCESS("stage2", stage(c1, c2, 10));
    MING_PROCESS("stage3", stage(c2, c3, 100));
    MING_PROCESS("consumer", consumer(c3, bad));
    MING_DATAFLOW_END;
    EXPECT(bad == 0);
    hls::stream<int> *all[] = {&c0, &c1, &c2, &c3};
    for (hls::stream<int> *s : all) {
      EXPECT(s->capacity() == 2);
      EXPECT(s->peak() >= 1 && s->peak() <= 2);
      EXPECT(s->empty());
    }
    std::printf("pipeline: %d values, %d out of order\n", N, bad);
  }
  {
    hls::stream<int> result("result");
    int got = 0;
    MING_DATAFLOW_BEGIN;
    MING_PROCESS("waiter", waiter(result, got));
    MING_PROCESS("nest", nest(result));
    MING_DATAFLOW_END;
    EXPECT(got == 5050);
    std::printf("nested: %d\n", got);
  }
  {
    // Non-blocking access and the fill queries, outside any region.
    hls::stream<int, 3> s("nb");
    int v = 0;
    EXPECT(s.empty() && !s.full() && s.size() == 0);
    EXPECT(!s.read_nb(v));
    EXPECT(s.write_nb(7) && s.write_nb(8) && s.write_nb(9));
    EXPECT(s.full() && s.size() == 3 && !s.write_nb(10));
    EXPECT(s.read_nb(v) && v == 7);
    EXPECT(s.read() == 8 && s.read() == 9 && s.empty());
    EXPECT(s.peak() == 3);
  }
  std::printf(failures ? "FAIL\n" : "PASS\n");
  return failures ? 1 : 0;
}
