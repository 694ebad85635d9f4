// A small kernel in the shape ming generates: one function per process, a DATAFLOW top that
// declares the channels, ap_int data. The same source must be valid with -D__SYNTHESIS__
// (no simulation machinery, plain calls) and run in C simulation.
#include <ap_int.h>
#include <hls_stream.h>
#include <ming_dataflow.h>

#if defined(__SYNTHESIS__) &&                                                                      \
    (defined(MING_CSIM_THREADS) || defined(_GLIBCXX_THREAD) || defined(_GLIBCXX_MUTEX) ||          \
     defined(_GLIBCXX_CONDITION_VARIABLE) || defined(_GLIBCXX_DEQUE))
#error "C-simulation machinery is visible under __SYNTHESIS__"
#endif

typedef ap_int<8> data_t;
typedef ap_int<32> acc_t;
static const int N = 64;

static void load(const data_t *in, hls::stream<data_t> &out) {
#pragma HLS INLINE off
  for (int i = 0; i < N; ++i) {
#pragma HLS PIPELINE II = 1
    out.write(in[i]);
  }
}

static void scale(hls::stream<data_t> &in, hls::stream<acc_t> &out) {
#pragma HLS INLINE off
  for (int i = 0; i < N; ++i) {
#pragma HLS PIPELINE II = 1
    data_t x = in.read();
    acc_t y = x * data_t(3) - 1;
    out << y;
  }
}

static void relu(hls::stream<acc_t> &in, hls::stream<data_t> &out) {
#pragma HLS INLINE off
  for (int i = 0; i < N; ++i) {
#pragma HLS PIPELINE II = 1
    acc_t v;
    in >> v;
    out.write(v < 0 ? data_t(0) : data_t(v.range(6, 0)));
  }
}

static void store(hls::stream<data_t> &in, data_t *out) {
#pragma HLS INLINE off
  for (int i = 0; i < N; ++i) {
#pragma HLS PIPELINE II = 1
    out[i] = in.read();
  }
}

void top(const data_t in[N], data_t out[N]) {
#pragma HLS INTERFACE m_axi port = in offset = slave bundle = gmem0
#pragma HLS INTERFACE m_axi port = out offset = slave bundle = gmem1
#pragma HLS INTERFACE s_axilite port = return
#pragma HLS DATAFLOW
  hls::stream<data_t, 4> s0("s0");
  hls::stream<acc_t> s1("s1");
  hls::stream<data_t, 16> s2("s2");
#pragma HLS STREAM variable = s0 depth = 4
#pragma HLS STREAM variable = s2 depth = 16
  MING_DATAFLOW_BEGIN;
  MING_PROCESS("load", load(in, s0));
  MING_PROCESS("scale", scale(s0, s1));
  MING_PROCESS("relu", relu(s1, s2));
  MING_PROCESS("store", store(s2, out));
  MING_DATAFLOW_END;
}

#ifndef __SYNTHESIS__
#include <cstdio>
int main() {
  data_t in[N], out[N];
  for (int i = 0; i < N; ++i)
    in[i] = i - 32;
  top(in, out);
  int bad = 0;
  for (int i = 0; i < N; ++i) {
    int y = 3 * (i - 32) - 1;
    if (out[i] != (y < 0 ? 0 : y & 127))
      ++bad;
  }
  std::printf("%s: %d mismatches\n", bad ? "FAIL" : "PASS", bad);
  return bad ? 1 : 0;
}
#endif
