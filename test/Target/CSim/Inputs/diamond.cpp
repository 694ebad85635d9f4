// A reconvergent diamond: fork -> short path -> add, fork -> long path -> add.
// The long path emits x[i] only after it has read x[i+7] (like a line buffer), so the short
// path must hold 7 values while the long one fills: depth 16 runs, depth 1 deadlocks.
// Usage: diamond <short-path depth: 1 or 16>
#include <ming_dataflow.h>

#include <cstdio>
#include <cstdlib>

static const int N = 1000, LOOKAHEAD = 8;

static void src(hls::stream<int> &out) {
  for (int i = 0; i < N; ++i)
    out.write(i);
}
static void fork_values(hls::stream<int> &in, hls::stream<int> &a, hls::stream<int> &b) {
  for (int i = 0; i < N; ++i) {
    int v = in.read();
    a.write(v);
    b.write(v);
  }
}
static void delay_line(hls::stream<int> &in, hls::stream<int> &out) {
  int buf[LOOKAHEAD];
  for (int i = 0; i < N + LOOKAHEAD - 1; ++i) {
    if (i < N)
      buf[i % LOOKAHEAD] = in.read();
    if (i >= LOOKAHEAD - 1)
      out.write(buf[(i - (LOOKAHEAD - 1)) % LOOKAHEAD]);
  }
}
static void add(hls::stream<int> &a, hls::stream<int> &c, hls::stream<int> &out) {
  for (int i = 0; i < N; ++i) {
    int x = a.read();
    out.write(x + c.read());
  }
}
static void sink(hls::stream<int> &in, int &bad) {
  for (int i = 0; i < N; ++i)
    if (in.read() != 2 * i)
      ++bad;
}

template <int SHORT_DEPTH> static int run() {
  hls::stream<int> in("in"), b("long_in"), c("long_out"), out("out");
  hls::stream<int, SHORT_DEPTH> a("short");
  int bad = 0;
  MING_DATAFLOW_BEGIN;
  MING_PROCESS("src", src(in));
  MING_PROCESS("fork", fork_values(in, a, b));
  MING_PROCESS("delay_line", delay_line(b, c));
  MING_PROCESS("add", add(a, c, out));
  MING_PROCESS("sink", sink(out, bad));
  MING_DATAFLOW_END;
  // The adder cannot take x[1] before the long path emitted x[0], i.e. read x[7]: by then the
  // short path holds x[1..7].
  std::printf("depth %d: %d wrong, short path peak %zu\n", SHORT_DEPTH, bad, a.peak());
  return bad == 0 && a.peak() >= LOOKAHEAD - 1 ? 0 : 1;
}

int main(int argc, char **argv) {
  int depth = argc > 1 ? std::atoi(argv[1]) : 16;
  return depth == 1 ? run<1>() : run<16>();
}
