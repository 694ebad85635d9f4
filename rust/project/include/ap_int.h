// ap_int.h - ap_int<W> and ap_uint<W>, 1 <= W <= 64, for ming's C simulation.
//
// What generated code relies on (Vitis gives the same values for these widths):
//  - every store wraps to W bits (two's complement): ap_int<8>(200) == -56; ap_int sign-extends,
//    ap_uint zero-extends; floats truncate toward zero first;
//  - reading gives a 64-bit built-in (int64_t; uint64_t for ap_uint<64>) that holds the value
//    exactly, so + - * / % and comparisons happen there and never wrap early;
//  - << >> ~ keep the left operand's width, as in Vitis (bits shifted out are lost);
//  - x[i] reads bit i; x.range(hi, lo) and x(hi, lo) read bits hi..lo as an ap_uint<W>.
// Unlike Vitis, a + b is an int64_t, not an ap_int<W+1>: store it in an ap type to wrap it.
// So a product is exact only while it fits in int64_t (ap_int<32> x ap_int<32> does).
// Under __SYNTHESIS__ the vendor's ap_int.h is used when one is on the include path.
#ifndef MING_AP_INT_H
#define MING_AP_INT_H

#if defined(__SYNTHESIS__) && defined(__has_include_next)
#if __has_include_next(<ap_int.h>)
#include_next <ap_int.h>
#define MING_AP_INT_VENDOR
#endif
#endif

#ifndef MING_AP_INT_VENDOR
#include <cmath>
#include <cstdint>
#include <type_traits>

template <int W, bool S> class ap_int_base;
template <int W> using ap_int = ap_int_base<W, true>;
template <int W> using ap_uint = ap_int_base<W, false>;

namespace ming {
namespace ap {
template <typename T> struct is_ap : std::false_type {};
template <int W, bool S> struct is_ap<ap_int_base<W, S>> : std::true_type {};
template <typename T> constexpr bool int_like = std::is_integral_v<T> || is_ap<T>::value;

constexpr std::uint64_t mask(int n) { return n >= 64 ? ~std::uint64_t(0) : (std::uint64_t(1) << n) - 1; }

// The low 64 bits of trunc(d), as an integer store would keep them. NaN and inf give 0.
inline std::uint64_t bits_of(double d) {
  if (!std::isfinite(d))
    return 0;
  d = std::trunc(d);
  const double two63 = 9223372036854775808.0, two64 = 18446744073709551616.0;
  if (d > -two63 && d < two63)
    return static_cast<std::uint64_t>(static_cast<std::int64_t>(d));
  d = std::fmod(d, two64); // exact: such a large double is a multiple of 2^11
  if (d < 0)
    d += two64;
  return static_cast<std::uint64_t>(d);
}
} // namespace ap
} // namespace ming

template <int W, bool S> class ap_int_base {
  static_assert(W >= 1 && W <= 64, "ming's ap_[u]int supports 1 <= W <= 64");
  using store_t = std::conditional_t<S, std::int64_t, std::uint64_t>;
  template <int, bool> friend class ap_int_base;

public:
  // The built-in type that holds every value of this one: arithmetic is done in it.
  using value_type = std::conditional_t<S || (W < 64), std::int64_t, std::uint64_t>;

  constexpr ap_int_base() : v_(0) {}
  template <typename I, std::enable_if_t<std::is_integral_v<I>, int> = 0>
  constexpr ap_int_base(I x) : v_(wrap(static_cast<std::uint64_t>(x))) {}
  ap_int_base(double x) : v_(wrap(ming::ap::bits_of(x))) {}
  template <int W2, bool S2>
  constexpr ap_int_base(const ap_int_base<W2, S2> &x) : v_(wrap(x.bits())) {}

  constexpr operator value_type() const { return static_cast<value_type>(v_); }

  // Shifts keep this width (as in Vitis); a negative amount shifts the other way.
  template <typename N, std::enable_if_t<ming::ap::int_like<N>, int> = 0>
  constexpr ap_int_base operator<<(N n) const {
    return shift(static_cast<std::int64_t>(n));
  }
  template <typename N, std::enable_if_t<ming::ap::int_like<N>, int> = 0>
  constexpr ap_int_base operator>>(N n) const {
    return shift(-static_cast<std::int64_t>(n));
  }
  constexpr ap_int_base operator~() const { return ap_int_base(~bits()); }

  // Compound assignment: compute in the wide built-in type, then wrap on the store. With an
  // integer operand, + - * use uint64_t: same low 64 bits, and no signed overflow at W = 64.
  template <typename T> ap_int_base &operator+=(const T &y) {
    if constexpr (ming::ap::int_like<T>)
      return *this = ap_int_base(bits() + static_cast<std::uint64_t>(y));
    else
      return *this = *this + y;
  }
  template <typename T> ap_int_base &operator-=(const T &y) {
    if constexpr (ming::ap::int_like<T>)
      return *this = ap_int_base(bits() - static_cast<std::uint64_t>(y));
    else
      return *this = *this - y;
  }
  template <typename T> ap_int_base &operator*=(const T &y) {
    if constexpr (ming::ap::int_like<T>)
      return *this = ap_int_base(bits() * static_cast<std::uint64_t>(y));
    else
      return *this = *this * y;
  }
  template <typename T> ap_int_base &operator/=(const T &y) { return *this = *this / y; }
  template <typename T> ap_int_base &operator%=(const T &y) { return *this = *this % y; }
  template <typename T> ap_int_base &operator&=(const T &y) { return *this = *this & y; }
  template <typename T> ap_int_base &operator|=(const T &y) { return *this = *this | y; }
  template <typename T> ap_int_base &operator^=(const T &y) { return *this = *this ^ y; }
  template <typename T> ap_int_base &operator<<=(const T &n) { return *this = *this << n; }
  template <typename T> ap_int_base &operator>>=(const T &n) { return *this = *this >> n; }
  ap_int_base &operator++() { return *this += 1; }
  ap_int_base &operator--() { return *this -= 1; }
  ap_int_base operator++(int) {
    ap_int_base old = *this;
    *this += 1;
    return old;
  }
  ap_int_base operator--(int) {
    ap_int_base old = *this;
    *this -= 1;
    return old;
  }

  // Bit access (0 <= lo <= hi < W).
  constexpr bool operator[](int i) const { return (bits() >> i) & 1; }
  constexpr bool get_bit(int i) const { return (*this)[i]; }
  void set_bit(int i, bool b) {
    const std::uint64_t m = std::uint64_t(1) << i;
    v_ = wrap(b ? bits() | m : bits() & ~m);
  }
  constexpr ap_int_base<W, false> range(int hi, int lo) const {
    return ap_int_base<W, false>((bits() >> lo) & ming::ap::mask(hi - lo + 1));
  }
  constexpr ap_int_base<W, false> range() const { return range(W - 1, 0); }
  constexpr ap_int_base<W, false> operator()(int hi, int lo) const { return range(hi, lo); }

  static constexpr int length() { return W; }
  constexpr int to_int() const { return static_cast<int>(v_); }
  constexpr unsigned to_uint() const { return static_cast<unsigned>(v_); }
  constexpr long to_long() const { return static_cast<long>(v_); }
  constexpr unsigned long to_ulong() const { return static_cast<unsigned long>(v_); }
  constexpr long long to_int64() const { return static_cast<long long>(v_); }
  constexpr unsigned long long to_uint64() const { return static_cast<unsigned long long>(v_); }
  constexpr bool to_bool() const { return v_ != 0; }
  constexpr double to_double() const { return static_cast<double>(v_); }
  constexpr float to_float() const { return static_cast<float>(v_); }

private:
  constexpr std::uint64_t bits() const { return static_cast<std::uint64_t>(v_); }

  // Keep the low W bits, then sign- or zero-extend to 64: the one normal form of a value.
  static constexpr store_t wrap(std::uint64_t b) {
    b &= ming::ap::mask(W);
    if (S && W < 64 && ((b >> (W - 1)) & 1))
      b |= ~ming::ap::mask(W);
    return static_cast<store_t>(b);
  }

  // n > 0 shifts left, n < 0 shifts right (arithmetic for ap_int).
  constexpr ap_int_base shift(std::int64_t n) const {
    if (n >= 0)
      return ap_int_base(n >= 64 ? std::uint64_t(0) : bits() << n);
    n = -n;
    if (S)
      return ap_int_base(static_cast<std::int64_t>(v_) >> (n >= 64 ? 63 : n));
    return ap_int_base(n >= 64 ? std::uint64_t(0) : bits() >> n);
  }

  store_t v_; // always wrap()ped
};

#endif // !MING_AP_INT_VENDOR
#endif // MING_AP_INT_H
