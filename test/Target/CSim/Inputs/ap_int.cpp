// ap_int / ap_uint value semantics that generated code relies on.
#include <ap_int.h>

#include <cstdint>
#include <iostream>

static int passed = 0, failed = 0;
template <typename A, typename B> static void eq(int line, const char *expr, A got, B want) {
  if (got == want) {
    ++passed;
    return;
  }
  ++failed;
  std::cout << "FAIL line " << line << ": " << expr << " = " << got << ", want " << want << "\n";
}
#define EQ(expr, want) eq(__LINE__, #expr, (expr), (want))

// Values are usable in constant expressions (weights tables, template arguments).
static_assert(ap_int<8>(200) == -56, "wrap");
static_assert(ap_int<4>(8) == -8, "sign extension");
static_assert((ap_uint<8>(0x81) << 1) == 2, "shift keeps the width");
static_assert(ap_uint<16>(0xABCD).range(11, 4) == 0xBC, "range");
static_assert(sizeof(ap_int<8>(1) + 1) == 8, "arithmetic happens in 64 bits");

int main() {
  // Stores wrap to W bits.
  EQ(ap_int<8>(200), -56);
  EQ(ap_int<8>(-129), 127);
  EQ(ap_uint<8>(300), 44);
  EQ(ap_uint<8>(-1), 255);
  EQ(ap_uint<1>(3), 1);
  EQ(ap_int<1>(1), -1);
  ap_int<8> w = 127;
  w = w + 1;
  EQ(w, -128);

  // ap_int sign-extends, ap_uint zero-extends, across widths.
  EQ(ap_int<4>(7), 7);
  EQ(ap_int<4>(8), -8);
  EQ(ap_int<4>(0xF), -1);
  EQ(ap_int<4>(-9), 7);
  EQ(ap_int<16>(ap_int<4>(-3)), -3);
  EQ(ap_uint<16>(ap_int<4>(-3)), 65533);
  EQ(ap_uint<4>(ap_int<4>(-1)), 15);
  EQ(ap_int<4>(ap_uint<8>(0xFA)), -6);

  // Arithmetic is wide: no early wrap, mixed with int, negative results of unsigned operands.
  EQ(ap_int<8>(100) + ap_int<8>(100), 200);
  EQ(ap_int<8>(-56) + 100, 44);
  EQ(ap_uint<8>(3) - 5, -2);
  EQ(ap_uint<8>(3) - ap_uint<8>(5), -2);
  EQ(ap_int<8>(-128) * ap_int<8>(-128), 16384);
  EQ(ap_int<8>(-7) / 2, -3);
  EQ(ap_int<8>(-7) % 2, -1);
  EQ(3 * ap_uint<4>(15), 45);
  EQ(-ap_uint<8>(5), -5);
  ap_int<16> acc = 0;
  for (int i = 0; i < 4; ++i)
    acc += ap_int<8>(-100) * ap_int<8>(100); // -40000 wraps to 25536 in 16 bits
  EQ(acc, ap_int<16>(-40000));
  EQ(acc, 25536);

  // Comparisons see the values, not the bit patterns.
  EQ(ap_int<8>(-1) < ap_uint<8>(1), true);
  EQ(ap_uint<8>(255) > ap_int<8>(-1), true);
  EQ(ap_int<8>(-1) < 0, true);
  EQ(ap_uint<8>(200) == 200, true);
  EQ(ap_int<8>(200) == 200, false);

  // Shifts keep the left operand's width.
  EQ(ap_uint<8>(0x81) << 1, 2);
  EQ(ap_uint<16>(ap_uint<8>(0x81)) << 1, 0x102);
  EQ(ap_uint<8>(1) << 8, 0);
  EQ(ap_int<8>(1) << 7, -128);
  EQ(ap_int<8>(-128) >> 3, -16);
  EQ(ap_int<8>(-1) >> 100, -1);
  EQ(ap_uint<8>(0x80) >> 7, 1);
  EQ(ap_uint<8>(0x80) >> ap_uint<3>(4), 8);
  EQ(ap_uint<8>(4) << -1, 2);
  EQ(1 << ap_uint<4>(3), 8);
  ap_uint<8> sh = 0x0F;
  sh <<= 6;
  EQ(sh, 0xC0);
  sh >>= ap_int<4>(2);
  EQ(sh, 0x30);

  // Bitwise.
  EQ(~ap_uint<8>(0), 255);
  EQ(~ap_int<8>(0), -1);
  EQ(~ap_uint<4>(5), 10);
  EQ(ap_uint<8>(0xF0) & 0x3C, 0x30);
  EQ(ap_uint<8>(0xF0) | ap_uint<4>(0x3), 0xF3);
  EQ(ap_uint<8>(0xFF) ^ ap_uint<8>(0x0F), 0xF0);
  ap_uint<8> bw = 0xF0;
  bw |= 0x10F;
  EQ(bw, 0xFF);
  bw &= ~ap_uint<8>(0x81);
  EQ(bw, 0x7E);

  // Bits and ranges.
  EQ(ap_int<8>(-2)[0], false);
  EQ(ap_int<8>(-2)[7], true);
  EQ(ap_uint<16>(0xABCD).range(11, 4), 0xBC);
  EQ(ap_uint<16>(0xABCD)(3, 0), 0xD);
  EQ(ap_int<8>(-1).range(7, 0), 255);
  EQ(ap_int<8>(-1).range(), 255);
  EQ(ap_int<64>(-1).range(63, 32), 0xFFFFFFFFull);
  ap_int<8> sb = 0;
  sb.set_bit(7, true);
  EQ(sb, -128);
  sb.set_bit(7, false);
  sb.set_bit(1, true);
  EQ(sb, 2);

  // Floats truncate toward zero, then wrap.
  EQ(ap_int<8>(3.9), 3);
  EQ(ap_int<8>(-3.9), -3);
  EQ(ap_int<8>(300.0f), 44);
  EQ(ap_uint<8>(-1.0), 255);
  EQ(ap_int<64>(1e19), -8446744073709551616LL);
  float f = ap_int<8>(-5);
  EQ(f, -5.0f);
  EQ(ap_int<8>(-5) * 0.5, -2.5);
  EQ(ap_int<8>(7).to_double(), 7.0);

  // Increments and compound assignment wrap on the store.
  ap_uint<8> u = 250;
  u += 10;
  EQ(u, 4);
  u -= 5;
  EQ(u, 255);
  EQ(u++, 255);
  EQ(u, 0);
  EQ(--u, 255);
  ap_int<4> s = 7;
  EQ(++s, -8);
  s = 7;
  s *= 3; // 21 -> 0b0101
  EQ(s, 5);
  s /= 2;
  EQ(s, 2);
  s -= 11; // -9 -> 7
  EQ(s, 7);
  s %= 4;
  EQ(s, 3);

  // 64 bits: ap_uint<64> reads as uint64_t, ap_int<64> as int64_t.
  EQ(ap_uint<64>(-1), UINT64_MAX);
  EQ(ap_uint<64>(ap_uint<64>(-1) + 1), 0u);
  ap_int<64> big = INT64_MAX;
  big += 1; // compound + - * wrap at 64 bits too
  EQ(big, INT64_MIN);
  big -= 1;
  EQ(big, INT64_MAX);
  big *= 2;
  EQ(big, -2);
  ap_uint<64> ubig = UINT64_MAX;
  ubig += ap_uint<8>(2);
  EQ(ubig, 1u);
  EQ(ap_int<64>(ap_uint<64>(-1)), -1);

  // Built-in uses: index, bool, to_*, length.
  int table[4] = {10, 20, 30, 40};
  EQ(table[ap_uint<2>(7)], 40);
  EQ(ap_uint<3>(8) ? 1 : 0, 0);
  EQ(ap_int<12>(-5).to_int(), -5);
  EQ(ap_uint<12>(4095).to_uint(), 4095u);
  EQ(ap_int<12>::length(), 12);

  std::cout << ap_int<8>(200) << " " << ap_uint<8>(65) << " " << ap_uint<64>(-1) << "\n";
  std::cout << "ap_int: " << passed << " passed, " << failed << " failed\n";
  return failed ? 1 : 0;
}
