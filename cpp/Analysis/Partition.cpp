// Cyclic partitioning of a buffer for the accesses of one pipeline: which
// dims get which factor so that no bank sees more accesses an iteration than
// its ports serve. Apply writes the factors as they are chosen here, so the
// banks the model counts are the banks Vitis builds.
#include "ProcessModel.h"

#include "llvm/ADT/DenseMap.h"

#include <algorithm>
#include <numeric>

namespace ming::cost {

namespace {

/// Whether an index of residue `r` falls in a bank known at compile time
/// under a cyclic factor `f`: exactly known, or known modulo a multiple of f.
bool knownUnder(std::pair<int64_t, int64_t> r, int64_t f) {
  return r.second == 0 || (r.second > 0 && r.second % f == 0);
}

/// The bank of dim `d` an index falls in under factor `f`, or -1 when it may
/// fall in any.
int64_t bankOf(std::pair<int64_t, int64_t> r, int64_t size, int64_t f) {
  if (f <= 1)
    return 0;
  if (r.second == 0)
    return std::clamp<int64_t>(r.first, 0, size - 1) % f;
  if (r.second > 0 && r.second % f == 0)
    return ((r.first % f) + f) % f;
  return -1;
}

/// The most accesses a bank gets an iteration under `factors` (one per dim);
/// the two sides of an scf.if count as the busier one.
int64_t busiestBank(ArrayRef<Access> accesses, ArrayRef<int64_t> shape, ArrayRef<int64_t> factors) {
  llvm::DenseMap<int64_t, int64_t> base;
  // (alt, branch) -> bank -> count
  std::map<std::pair<int64_t, int>, llvm::DenseMap<int64_t, int64_t>> sides;
  std::vector<int64_t> reach;
  for (const Access &a : accesses) {
    reach.assign(1, 0);
    for (size_t d = 0; d < factors.size(); ++d) {
      int64_t f = factors[d];
      if (f <= 1)
        continue;
      int64_t bank = d < a.index.size() ? bankOf(a.index[d], shape[d], f) : -1;
      std::vector<int64_t> next;
      next.reserve(reach.size() * (bank < 0 ? f : 1));
      for (int64_t r : reach) {
        if (bank >= 0)
          next.push_back(r * f + bank);
        else
          for (int64_t k = 0; k < f; ++k)
            next.push_back(r * f + k);
      }
      reach = std::move(next);
    }
    auto &dst = a.alt < 0 ? base : sides[{a.alt, a.branch}];
    for (int64_t r : reach)
      ++dst[r];
  }
  // Exclusive sides: per bank the busier one.
  for (auto it = sides.begin(); it != sides.end(); ++it) {
    if (it->first.second != 0)
      continue;
    llvm::DenseMap<int64_t, int64_t> merged = it->second;
    auto other = sides.find({it->first.first, 1});
    if (other != sides.end())
      for (auto &[bank, n] : other->second)
        merged[bank] = std::max(merged.lookup(bank), n);
    for (auto &[bank, n] : merged)
      base[bank] += n;
  }
  for (auto &[key, counts] : sides)
    if (key.second == 1 && !sides.count({key.first, 0}))
      for (auto &[bank, n] : counts)
        base[bank] += n;
  int64_t worst = 0;
  for (auto &[bank, n] : base)
    worst = std::max(worst, n);
  return worst;
}

/// Factors worth trying on a dim of `size`: powers of two, divisors and the
/// size itself, each placing some access in a known bank.
SmallVector<int64_t> factorsFor(int64_t size, ArrayRef<Access> accesses, size_t d) {
  SmallVector<int64_t> out{1};
  for (int64_t f = 2; f <= size; ++f) {
    if (!llvm::isPowerOf2_64(f) && size % f != 0)
      continue;
    if (llvm::any_of(accesses, [&](const Access &a) {
          return d < a.index.size() && knownUnder(a.index[d], f);
        }))
      out.push_back(f);
  }
  return out;
}

} // namespace

PartitionChoice choosePartition(const Buffer &buf, ArrayRef<Access> accesses, int64_t perBank,
                                int64_t registerBits) {
  size_t rank = buf.shape.size();
  PartitionChoice choice;
  choice.factors.assign(rank, 1);
  for (unsigned d : buf.partDims)
    if (d < rank)
      choice.factors[d] = buf.shape[d];
  auto words = [&](ArrayRef<int64_t> factors) {
    int64_t w = 1;
    for (size_t d = 0; d < rank; ++d)
      w *= ceilDiv(buf.shape[d], factors[d]);
    return w;
  };
  if (words(choice.factors) <= 1) {
    choice.registers = true;
    return choice;
  }
  choice.worst = busiestBank(accesses, buf.shape, choice.factors);
  if (choice.worst <= perBank)
    return choice;

  // The dims a factor could spread: not completely partitioned, and indexed
  // at more than one place.
  SmallVector<size_t> dims;
  SmallVector<SmallVector<int64_t>> options;
  for (size_t d = 0; d < rank; ++d) {
    if (llvm::is_contained(buf.partDims, d) || buf.shape[d] <= 1)
      continue;
    bool varies = llvm::any_of(accesses, [&](const Access &a) {
      return d >= a.index.size() || a.index[d].second != 0 ||
             a.index[d].first != accesses.front().index[d].first;
    });
    if (!varies)
      continue;
    SmallVector<int64_t> f = factorsFor(buf.shape[d], accesses, d);
    if (f.size() > 1) {
      dims.push_back(d);
      options.push_back(std::move(f));
    }
  }
  // Every combination, fewest banks first (inner dims first on a tie, as
  // consecutive elements are the ones a pipeline usually touches together).
  // Bounded: the three dims with the most options at most.
  while (dims.size() > 3) {
    size_t fewest = 0;
    for (size_t i = 1; i < dims.size(); ++i)
      if (options[i].size() < options[fewest].size())
        fewest = i;
    dims.erase(dims.begin() + fewest);
    options.erase(options.begin() + fewest);
  }
  struct Combo {
    int64_t banks;
    SmallVector<int64_t> factors;
  };
  std::vector<Combo> combos;
  SmallVector<size_t> pick(dims.size(), 0);
  int64_t fixedBanks = 1;
  for (unsigned d : buf.partDims)
    if (d < rank)
      fixedBanks *= buf.shape[d];
  int64_t needed = ceilDiv(int64_t(accesses.size()), perBank);
  while (true) {
    Combo c{fixedBanks, choice.factors};
    for (size_t i = 0; i < dims.size(); ++i) {
      c.factors[dims[i]] = options[i][pick[i]];
      c.banks *= options[i][pick[i]];
    }
    combos.push_back(std::move(c));
    size_t i = dims.size();
    while (i > 0 && ++pick[i - 1] == options[i - 1].size())
      pick[--i] = 0;
    if (i == 0)
      break;
  }
  llvm::stable_sort(combos, [](const Combo &a, const Combo &b) {
    if (a.banks != b.banks)
      return a.banks < b.banks;
    return std::lexicographical_compare(b.factors.rbegin(), b.factors.rend(), a.factors.rbegin(),
                                        a.factors.rend());
  });
  // Fewer banks than accesses over ports cannot serve them; when no
  // combination has enough, the most banks come first.
  if (llvm::any_of(combos, [&](const Combo &c) { return c.banks >= needed; }))
    llvm::erase_if(combos, [&](const Combo &c) { return c.banks < needed; });
  else
    std::reverse(combos.begin(), combos.end());
  PartitionChoice best = choice;
  int64_t bestBanks = fixedBanks;
  constexpr size_t kMaxTried = 512;
  for (size_t i = 0; i < combos.size() && i < kMaxTried; ++i) {
    const Combo &c = combos[i];
    if (words(c.factors) <= 1) {
      if (buf.elements * buf.width <= registerBits)
        return {c.factors, 0, true};
      continue;
    }
    int64_t worst = busiestBank(accesses, buf.shape, c.factors);
    if (worst <= perBank)
      return {c.factors, worst, false};
    if (worst < best.worst || (worst == best.worst && c.banks < bestBanks)) {
      best = {c.factors, worst, false};
      bestBanks = c.banks;
    }
  }
  if (buf.elements * buf.width <= registerBits) {
    SmallVector<int64_t> all(buf.shape.begin(), buf.shape.end());
    return {all, 0, true};
  }
  return best;
}

} // namespace ming::cost
