// hls_vector.h - hls::vector<T, N> for ming's C simulation (g++ -std=c++17).
//
// ming packs the L lanes of a channel into one word, hls::stream<hls::vector<T, L>>: one FIFO
// access moves L elements. The generated code only declares words, copies them, reads them from
// and writes them to streams, and reads and writes their elements with operator[]; this is that
// subset of the vendor's class (same name, same template parameters), a plain aggregate of N
// elements. An index out of range stops the run, as a wrong lane counter would be a bug.
//
// Under __SYNTHESIS__ the vendor's hls_vector.h is used when one is on the include path;
// otherwise this definition, which is plain C++, stands in.
#ifndef MING_HLS_VECTOR_H
#define MING_HLS_VECTOR_H

#if defined(__SYNTHESIS__) && defined(__has_include_next)
#if __has_include_next(<hls_vector.h>)
#include_next <hls_vector.h>
#define MING_HLS_VECTOR_VENDOR
#endif
#endif

#ifndef MING_HLS_VECTOR_VENDOR
#include <cstddef>
#ifndef __SYNTHESIS__
#include <cstdio>
#include <cstdlib>
#endif

namespace hls {
template <typename T, std::size_t N> struct vector {
  static_assert(N >= 1, "hls::vector needs at least one element");

  // Zero-initialised: a word copied before all its lanes are set holds no indeterminate values.
  T data[N] = {};

  vector() = default;
  vector(const vector &) = default;
  vector &operator=(const vector &) = default;

  T &operator[](std::size_t i) { return data[check(i)]; }
  const T &operator[](std::size_t i) const { return data[check(i)]; }

  static constexpr std::size_t size() { return N; }

  friend bool operator==(const vector &a, const vector &b) {
    for (std::size_t i = 0; i < N; ++i)
      if (!(a.data[i] == b.data[i]))
        return false;
    return true;
  }
  friend bool operator!=(const vector &a, const vector &b) { return !(a == b); }

private:
  static std::size_t check(std::size_t i) {
#ifndef __SYNTHESIS__
    if (i >= N) {
      std::fprintf(stderr, "ming csim: hls::vector index %zu out of range (size %zu)\n", i, N);
      std::abort();
    }
#endif
    return i;
  }
};
} // namespace hls

#endif // !MING_HLS_VECTOR_VENDOR
#endif // MING_HLS_VECTOR_H
