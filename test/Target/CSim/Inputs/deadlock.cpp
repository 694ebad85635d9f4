// Runs that can never finish must stop with a report and status 3, never hang.
// Usage: deadlock read|write|starve|cycle
#include <ming_dataflow.h>

#include <cstdio>
#include <cstring>

// starve: the producer returns after 5 values, the consumer wants 10. Nobody is blocked when
// the producer ends; the deadlock is found as it leaves.
static void five(hls::stream<int> &out) {
  for (int i = 0; i < 5; ++i)
    out.write(i);
}
static void ten(hls::stream<int> &in) {
  for (int i = 0; i < 10; ++i)
    in.read();
}

// cycle: each waits for the other's first value before sending its own.
static void ping(hls::stream<int> &in, hls::stream<int> &out) { out.write(in.read()); }

int main(int argc, char **argv) {
  const char *mode = argc > 1 ? argv[1] : "";
  std::printf("start %s\n", mode); // must survive the exit: stdout is flushed first
  if (!std::strcmp(mode, "read")) {
    // Outside any region the only thread reads an empty stream: it would wait forever.
    hls::stream<int> lonely("lonely");
    return lonely.read();
  }
  if (!std::strcmp(mode, "write")) {
    hls::stream<int, 4> s("s");
    for (int i = 0; i < 5; ++i)
      s.write(i);
    return 0;
  }
  if (!std::strcmp(mode, "starve")) {
    hls::stream<int> data("data");
    MING_DATAFLOW_BEGIN;
    MING_PROCESS("five", five(data));
    MING_PROCESS("ten", ten(data));
    MING_DATAFLOW_END;
    return 0;
  }
  if (!std::strcmp(mode, "cycle")) {
    hls::stream<int> ab("ab"), ba("ba");
    MING_DATAFLOW_BEGIN;
    MING_PROCESS("a", ping(ba, ab));
    MING_PROCESS("b", ping(ab, ba));
    MING_DATAFLOW_END;
    return 0;
  }
  return 1;
}
