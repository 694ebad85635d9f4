// hls_stream.h for the vendor-header tests only: Xilinx's open-source C-simulation model of
// hls::stream (an unbounded deque; a read of an empty stream warns and returns T()) with the
// depth parameter that Vitis HLS (2020.1 and later) adds to it.
//
// The model in Xilinx's open-source headers predates Vitis and declares `template <typename T>
// class stream`; Vitis declares `template <typename T, int DEPTH = 0> class stream` and derives
// every depth from stream<T, 0>, which is what generated kernels rely on
// (`hls::stream<T, 16> v("name")` passed to a process taking `hls::stream<T> &`). This header
// includes the model unchanged, under another name, and adds that parameter the same way, so the
// C simulation runs on the vendor's FIFO semantics and nothing of ming's.
#ifndef MING_TEST_VITIS_STREAM_DEPTH_H
#define MING_TEST_VITIS_STREAM_DEPTH_H

// Everything the model includes, first: the rename below must reach the model only.
#include <condition_variable>
#include <cxxabi.h>
#include <iostream>
#include <mutex>
#include <queue>
#include <sstream>
#include <stdlib.h>
#include <string>
#include <typeinfo>

#define stream xilinx_stream_model
#include "xilinx_hls_stream.h"
#undef stream

namespace hls {
template <typename T, int DEPTH = 0> class stream;

template <typename T> class stream<T, 0> : public xilinx_stream_model<T> {
public:
  stream() = default;
  explicit stream(const char *name) : xilinx_stream_model<T>(std::string(name)) {}
};

template <typename T, int DEPTH> class stream : public stream<T, 0> {
public:
  stream() = default;
  explicit stream(const char *name) : stream<T, 0>(name) {}
};
} // namespace hls

#endif
