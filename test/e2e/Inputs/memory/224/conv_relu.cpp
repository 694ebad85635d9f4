// A hand-written stand-in for a generated 224x224 conv_relu design (check-memory-self.test).
#include "conv_relu.h"

static const int8_t w_rom[8][27] = {{1, -2}, {3, 4}};

void load(int8_t *arg0, hls::stream<int8_t> &arg1) {
#pragma HLS INLINE off
  for (int i0 = 0; i0 < 150528; ++i0) {
    arg1.write(arg0[i0]);
  }
}

void conv(hls::stream<int8_t> &arg0,
          hls::stream<int32_t> &arg1) {
#pragma HLS INLINE off
  static const int32_t v0[8] = {1, 2, 3, 4, 5, 6, 7, 8};
  int8_t v1[2][3][226];
  int8_t v2[3][3][3];
#pragma HLS array_partition variable=v2 complete dim=0
  int32_t v3[8];
  for (int i0 = 0; i0 < 226; ++i0) {
    v1[0][0][i0] = arg0.read();
  }
}

void conv_relu(int8_t *arg0, int8_t *arg1) {
#pragma HLS DATAFLOW
  hls::stream<int8_t> v0;
  hls::stream<int32_t> v1;
  load(arg0, v0);
  conv(v0, v1);
}
