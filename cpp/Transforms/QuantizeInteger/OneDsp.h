// A requantisation in one DSP48E2 where the multiplier fixedPoint gives
// needs two. The product x * M of an int8 layer is an i19-i21 accumulator
// times a 31-bit multiplier: two DSPs per lane, about a tenth of an int8
// network's DSPs. Only outputs that are not saturated depend on the product,
// and those come from a narrow range of x: clamped to it and centred, x fits
// the 18-bit port; multipliers rounded to 26 bits (or 27, offset by 2^26)
// fit the 27-bit port. Each rounded multiplier is proven at compile time to
// round every x of its channel's unsaturated range exactly as the full one
// does, so the outputs are the same bits. Private to this folder.
#ifndef MING_TRANSFORMS_QUANTIZEINTEGER_ONEDSP_H
#define MING_TRANSFORMS_QUANTIZEINTEGER_ONEDSP_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/MathExtras.h"

#include <algorithm>
#include <cstdint>
#include <optional>

namespace ming::quant {

/// round_half_even(p / 2^shift), as requantTail computes it, on 128 bits.
inline int64_t roundedShift(__int128 p, int shift) {
  __int128 odd = (p >> shift) & 1;
  return static_cast<int64_t>((p + (static_cast<__int128>(1) << (shift - 1)) - 1 + odd) >> shift);
}

/// round_half_even(x m / 2^shift).
inline int64_t roundedProduct(int64_t x, int64_t m, int shift) {
  return roundedShift(static_cast<__int128>(x) * m, shift);
}

/// The least x with roundedProduct(x, m, shift) >= q, for m > 0 (the
/// rounding is monotone in x); beyond +-2^40 (past any accumulator's bound),
/// that limit.
inline int64_t threshold(int64_t q, int64_t m, int shift) {
  constexpr int64_t kLimit = int64_t(1) << 40;
  __int128 num = (static_cast<__int128>(2 * q - 1) << (shift - 1));
  __int128 x = num / m;
  if (x * m < num && num > 0)
    ++x; // ceiling of a positive quotient; truncation is the ceiling below 0
  if (x > kLimit || x < -kLimit)
    return x > 0 ? kLimit : -kLimit;
  int64_t t = static_cast<int64_t>(x);
  while (roundedProduct(t, m, shift) < q)
    ++t;
  while (roundedProduct(t - 1, m, shift) >= q)
    --t;
  return t;
}

/// The points where another rounding must agree with round(x m / 2^s) for
/// both to agree on every x in [lo, hi]: its ends, and both sides of each
/// step of the reference. Both roundings are monotone step functions of x;
/// between two such points the reference is constant, and the other,
/// monotone, is held between equal values. `visit` returns false to stop.
template <typename Visit>
bool forEachCheckPoint(int64_t m, int s, int64_t lo, int64_t hi, Visit visit) {
  if (!visit(lo) || !visit(hi))
    return false;
  if (m == 0)
    return true;
  for (int64_t q = roundedProduct(lo, m, s) + 1, top = roundedProduct(hi, m, s); q <= top; ++q) {
    int64_t t = threshold(q, m, s);
    if (!visit(t) || !visit(t - 1))
      return false;
  }
  return true;
}

/// Whether m2 / 2^s2 rounds every x in [lo, hi] as m / 2^s does.
inline bool sameRounding(int64_t m, int s, int64_t m2, int s2, int64_t lo, int64_t hi) {
  return forEachCheckPoint(m, s, lo, hi,
                           [&](int64_t x) { return roundedProduct(x, m, s) == roundedProduct(x, m2, s2); });
}

/// The multipliers m2 for which m2 / 2^s2 rounds every x in [lo, hi] as
/// m / 2^s does, an interval [first, second] (empty when first > second):
/// the agreement at each of forEachCheckPoint's points bounds m2 on both
/// sides.
inline std::pair<int64_t, int64_t> exactMultipliers(int64_t m, int s, int s2, int64_t lo, int64_t hi) {
  __int128 least = 0, most = static_cast<__int128>(1) << 62;
  // round(t m2 / 2^s2) >= q holds iff t m2 >= a(q): above (2q - 1) / 2, or
  // on it when q is even (ties go to even).
  auto a = [&](int64_t q) {
    return (static_cast<__int128>(2 * q - 1) << (s2 - 1)) + ((q & 1) ? 1 : 0);
  };
  auto floorDiv = [](__int128 n, __int128 d) {
    __int128 q = n / d;
    return (n % d != 0 && ((n < 0) != (d < 0))) ? q - 1 : q;
  };
  auto ceilDiv = [&](__int128 n, __int128 d) { return -floorDiv(-n, d); };
  auto atLeast = [&](int64_t t, int64_t q) { // round(t m2 / 2^s2) >= q
    __int128 bound = a(q);
    if (t > 0)
      least = std::max(least, ceilDiv(bound, t));
    else if (t < 0)
      most = std::min(most, floorDiv(bound, t));
    else if (bound > 0)
      most = -1;
  };
  auto below = [&](int64_t t, int64_t q) { // round(t m2 / 2^s2) < q
    __int128 bound = a(q) - 1;
    if (t > 0)
      most = std::min(most, floorDiv(bound, t));
    else if (t < 0)
      least = std::max(least, ceilDiv(bound, t));
    else if (bound < 0)
      most = -1;
  };
  forEachCheckPoint(m, s, lo, hi, [&](int64_t x) {
    int64_t g = roundedProduct(x, m, s);
    atLeast(x, g);
    below(x, g + 1);
    return true;
  });
  return {static_cast<int64_t>(std::min<__int128>(least, INT64_MAX)),
          static_cast<int64_t>(std::max<__int128>(most, -1))};
}

/// out = clamp(round(x M[c] / 2^shift) + zp, lo, hi) computed as
/// round(((clamp(x, xlo, xhi) - centre) M2[c] + k[c]) / 2^shift2), with
/// |clamp(x) - centre| < 2^17: an 18 x 27-bit product. M2 < 2^27; with
/// `offset`, the DSP multiplies by M2 - 2^26 (a signed 27-bit operand) and
/// (x - centre) 2^26 is added to the product.
struct OneDsp {
  bool clamp = false, offset = false;
  int64_t xlo = 0, xhi = 0, centre = 0;
  llvm::SmallVector<int64_t> m, k;
  int shift = 0;
};

/// The one-DSP form of multipliers `m` / 2^`shift` for |x| <= `bound`, whose
/// result is saturated at or below `qlo` and at or above `qhi`; none when
/// the product already fits one DSP, or when no exact form exists.
inline std::optional<OneDsp> oneDsp(llvm::ArrayRef<int64_t> m, int shift, int64_t bound, int64_t qlo, int64_t qhi) {
  constexpr int64_t kPortB = (int64_t(1) << 17) - 1; // 18-bit signed port
  // Bounds below 2^32 keep centre x M2 and the rounding within i64.
  if (m.empty() || bound < 0 || bound >= (int64_t(1) << 32) || shift < 1 || shift > 62)
    return std::nullopt;
  int64_t top = *std::max_element(m.begin(), m.end());
  if (*std::min_element(m.begin(), m.end()) < 0 || top <= 0 || top >= (int64_t(1) << 31))
    return std::nullopt;
  // One multiplier for all that is a power of two is a shift, no DSP at all.
  if (llvm::all_equal(m) && llvm::isPowerOf2_64(static_cast<uint64_t>(top)))
    return std::nullopt;
  unsigned xBits = llvm::bit_width(static_cast<uint64_t>(bound)) + 1;
  unsigned mBits = llvm::bit_width(static_cast<uint64_t>(top)) + 1;
  if ((xBits <= 18 && mBits <= 27) || (xBits <= 27 && mBits <= 18))
    return std::nullopt;
  // Each channel's unsaturated range within [-bound, bound]: [lo[c], hi[c]]
  // holds every x whose output is not lo or hi, and its ends saturate.
  llvm::SmallVector<int64_t> lo(m.size()), hi(m.size());
  OneDsp out;
  out.xlo = bound;
  out.xhi = -bound;
  for (auto [c, mc] : llvm::enumerate(m)) {
    if (mc == 0)
      continue;
    lo[c] = std::clamp<int64_t>(threshold(qlo + 1, mc, shift) - 1, -bound, bound);
    hi[c] = std::clamp<int64_t>(threshold(qhi, mc, shift), -bound, bound);
    out.xlo = std::min(out.xlo, lo[c]);
    out.xhi = std::max(out.xhi, hi[c]);
  }
  if (bound > kPortB) {
    if (out.xlo > out.xhi || out.xhi - out.xlo > 2 * kPortB)
      return std::nullopt;
    out.clamp = true;
    out.centre = out.xlo + (out.xhi - out.xlo) / 2;
  }
  // Multipliers of 26 bits fit the port; of 27 bits, offset by 2^26.
  for (unsigned bits : {26u, 27u}) {
    unsigned drop = mBits - 1 > bits ? mBits - 1 - bits : 0;
    out.shift = shift - static_cast<int>(drop);
    out.offset = bits == 27;
    out.m.clear();
    out.k.clear();
    if (out.shift < 1)
      return std::nullopt;
    for (auto [c, mc] : llvm::enumerate(m)) {
      int64_t near = drop ? (mc + (int64_t(1) << (drop - 1))) >> drop : mc;
      if (drop && mc != 0) {
        auto [first, last] = exactMultipliers(mc, shift, out.shift, lo[c], hi[c]);
        last = std::min(last, (int64_t(1) << bits) - 1);
        if (first > last)
          break;
        near = std::clamp(near, first, last);
      }
      if (!sameRounding(mc, shift, near, out.shift, lo[c], hi[c]))
        break;
      out.m.push_back(near);
    }
    if (out.m.size() != m.size())
      continue;
    for (int64_t mc : out.m)
      out.k.push_back(out.centre * mc);
    return out;
  }
  return std::nullopt;
}

/// Constant multipliers of two int8 operands (a residual add's two terms,
/// a product's one) rounded to 26 bits for the DSP's 27-bit port, the shift
/// lowered by the bits dropped: `value(a, c, ms)` is the sum before rounding
/// for centred operands a in [alo, ahi] and c in [clo, chi]. The domain is
/// small, so every pair is checked to give the same output as with `m`;
/// the rounded multipliers and their neighbours are tried. None when the
/// multipliers already fit, the largest is a power of two (the rest are
/// left as they are then), the domain is larger than 2^18 pairs, or nothing
/// tried is exact.
template <typename Sum>
std::optional<std::pair<llvm::SmallVector<int64_t>, int>>
shortMultipliers(llvm::ArrayRef<int64_t> m, int shift, int64_t alo, int64_t ahi, int64_t clo, int64_t chi,
                 int64_t zp, int64_t lo, int64_t hi, Sum value) {
  constexpr unsigned kBits = 26;
  if (m.empty() || shift < 1 || shift > 62 || ahi < alo || chi < clo ||
      (ahi - alo + 1) * (chi - clo + 1) > (int64_t(1) << 18))
    return std::nullopt;
  int64_t top = 0;
  for (int64_t v : m) {
    if (v < 0 || v >= (int64_t(1) << 31))
      return std::nullopt;
    top = std::max(top, v);
  }
  unsigned width = llvm::bit_width(static_cast<uint64_t>(top));
  if (width <= kBits || llvm::isPowerOf2_64(static_cast<uint64_t>(top)))
    return std::nullopt;
  unsigned drop = width - kBits;
  int shorter = shift - static_cast<int>(drop);
  if (shorter < 1)
    return std::nullopt;
  auto out = [&](int64_t sum, int s) { return std::clamp(roundedShift(sum, s) + zp, lo, hi); };
  llvm::SmallVector<int64_t> base;
  for (int64_t v : m)
    base.push_back((v + (int64_t(1) << (drop - 1))) >> drop);
  // Each multiplier at its rounded value or a neighbour: 3^n tries.
  unsigned tries = 1;
  for (size_t i = 0; i < m.size(); ++i)
    tries *= 3;
  for (unsigned t = 0; t < tries; ++t) {
    llvm::SmallVector<int64_t> cand(base);
    for (unsigned i = 0, code = t; i < m.size(); ++i, code /= 3)
      cand[i] += code % 3 == 0 ? 0 : code % 3 == 1 ? -1 : 1;
    if (llvm::any_of(cand, [&](int64_t v) { return v < 0 || v >= (int64_t(1) << kBits); }))
      continue;
    bool exact = true;
    for (int64_t a = alo; a <= ahi && exact; ++a)
      for (int64_t c = clo; c <= chi && exact; ++c)
        exact = out(value(a, c, m), shift) == out(value(a, c, cand), shorter);
    if (exact)
      return std::make_pair(cand, shorter);
  }
  return std::nullopt;
}

} // namespace ming::quant

#endif // MING_TRANSFORMS_QUANTIZEINTEGER_ONEDSP_H
