// The configurations the DSE offers the ILP for one process: the cost
// model's unroll and lane choices, requested IIs that trade cycles for DSPs,
// pipelines moved inward and outward, and the IR's own directives; then one
// Pareto filter keeps the points worth choosing.
#include "DseInternal.h"

#include "ming/Directives/Directives.h"
#include "ming/Support/CrashReport.h"
#include "ming/Transforms/PackInt8.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Builders.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/MathExtras.h"

#include <algorithm>
#include <limits>
#include <map>
#include <set>

using namespace mlir;

namespace ming::dse {
using namespace cost;

namespace {

/// Most parallel lanes of one channel the DSE is offered.
constexpr int64_t kMaxLanes = 64;
/// Largest unroll factor offered for a pipelined loop: past it, even an
/// iteration with one stream access outruns its port (64 lanes at II 1 take
/// 64 iterations a cycle; 4x that only raises the II), and copies of a MAC
/// body exceed any board's DSPs.
constexpr int64_t kMaxUnroll = 4 * kMaxLanes;

/// The divisors of `n` up to `most` (the only ones the DSE offers), in order.
/// Bounded by `most`, not by n: a trip count of 2^63 - 1 (seen in fuzzing)
/// would otherwise loop for ever.
SmallVector<int64_t> divisors(int64_t n, int64_t most) {
  SmallVector<int64_t> out;
  for (int64_t d = 1, last = std::min(n, most); d <= last; ++d)
    if (n % d == 0)
      out.push_back(d);
  if (out.empty())
    out.push_back(1);
  return out;
}

/// The starting point of every offered configuration: buffers
/// auto-partitioned, one lane on every stream port, loops as in the IR.
ProcessConfig oneLaneBase(dfg::ProcessOp process) {
  ProcessConfig base;
  base.autoPartition = true;
  for (unsigned a = 0; a < process.getNumArguments(); ++a)
    if (isa<dfg::InputType, dfg::OutputType>(process.getArgument(a).getType()))
      base.lanes[a] = 1;
  return base;
}

/// The lane counts offered on each of `ports` (by argument) that cost `c`'s
/// loops access: the divisors of its most accesses per iteration.
SmallVector<std::pair<unsigned, SmallVector<int64_t>>>
laneOptions(dfg::ProcessOp process, const ProcessCost &c, const std::map<unsigned, int64_t> &ports) {
  std::map<unsigned, int64_t> acc;
  for (const LoopCost &lc : c.loops)
    for (auto [arg, n] : lc.portAccesses)
      if (ports.count(arg))
        acc[arg] = std::max(acc[arg], n);
  // A port pushed or pulled under a condition (a slice) moves a number of
  // elements no loop count gives: its lanes must divide that total too, or
  // the last word would never fill.
  auto totals = process->getAttrOfType<DenseI64ArrayAttr>(directives::kPortElements);
  SmallVector<std::pair<unsigned, SmallVector<int64_t>>> options;
  for (auto [arg, n] : acc) {
    SmallVector<int64_t> ds = divisors(std::max<int64_t>(1, n), kMaxLanes);
    if (totals && arg < totals.size() && totals[arg] > 0)
      llvm::erase_if(ds, [&](int64_t d) { return totals[arg] % d != 0; });
    options.push_back({arg, ds});
  }
  return options;
}

/// Every pipelined loop of the IR unrolled by each divisor of its trip count,
/// every port with each lane count dividing its accesses per iteration,
/// buffers auto-partitioned; at most `limit` configurations evaluated, in
/// enumeration order (unroll choices outer, the first loop's fastest; lane
/// choices inner). `base` is oneLaneBase(process) and `ref` its estimate.
///
/// Where the product of the choices is larger than the limit, its last
/// quarter goes instead to the "diagonal": every loop at its largest factor
/// not above f, for each factor f. Otherwise the loops late in the product
/// never leave their small factors: a window whose line buffers are zeroed
/// by two loops beside its compute kept those at unroll 2 and 4, and the
/// zeroing, not the compute, set its cycles.
std::vector<Point> enumerateConfigurations(Estimator &estimator, const ProcessConfig &base,
                                           const ProcessCost &ref, unsigned limit, int64_t dspLimit) {
  dfg::ProcessOp process = estimator.getProcess();
  // The outermost pipelined loops and their unroll choices.
  // A loop whose unroll `base` already sets keeps it.
  SmallVector<std::pair<unsigned, SmallVector<int64_t>>> choices;
  for (const LoopCost &lc : ref.loops) {
    auto preset = base.loops.find(lc.id);
    if (lc.pipelined && !lc.insidePipeline &&
        (preset == base.loops.end() || !preset->second.unroll))
      choices.push_back({lc.id, divisors(std::max<int64_t>(1, lc.trip), kMaxUnroll)});
  }
  std::vector<Point> all;
  unsigned evaluated = 1;
  // Evaluates one unroll assignment and its lane choices, within `cap`
  // evaluations in all; false once the cap is reached.
  auto evaluate = [&](ArrayRef<size_t> pick, unsigned cap) -> bool {
    if (evaluated >= cap)
      return false;
    ProcessConfig cfg = base;
    for (auto [k, ch] : llvm::enumerate(choices))
      cfg.loops[ch.first].unroll = ch.second[pick[k]];
    ProcessCost one = estimator.estimate(cfg);
    ++evaluated;
    SmallVector<std::pair<unsigned, SmallVector<int64_t>>> laneChoices =
        laneOptions(process, one, base.lanes);
    // One lane everywhere sets the highest port-bound II, and so the fewest
    // DSPs (operators are shared across the II): over the board's DSPs
    // there, every lane variant is over them too. They count against the
    // cap as if estimated, so the unroll choices reached stay the same.
    if (dspLimit > 0 && one.dsp > dspLimit) {
      all.push_back({cfg, one});
      uint64_t variants = 1;
      for (auto &ch : laneChoices)
        variants = llvm::SaturatingMultiply<uint64_t>(variants, ch.second.size());
      evaluated = unsigned(std::min<uint64_t>(cap, evaluated + variants - 1));
      return evaluated < cap;
    }
    std::vector<size_t> lp(laneChoices.size(), 0);
    while (true) {
      ProcessConfig lcfg = cfg;
      for (auto [k, ch] : llvm::enumerate(laneChoices))
        lcfg.lanes[ch.first] = ch.second[lp[k]];
      bool allOnes = llvm::all_of(lp, [](size_t v) { return v == 0; });
      all.push_back({lcfg, allOnes ? one : estimator.estimate(lcfg)});
      if (!allOnes)
        ++evaluated;
      size_t k = 0;
      for (; k < lp.size(); ++k) {
        if (++lp[k] < laneChoices[k].second.size())
          break;
        lp[k] = 0;
      }
      if (k == lp.size())
        return true;
      if (evaluated >= cap)
        return false;
    }
  };
  std::set<std::vector<size_t>> done;
  std::vector<size_t> pick(choices.size(), 0);
  unsigned productCap = limit - limit / 4;
  while (true) {
    done.insert(pick);
    if (!evaluate(pick, productCap))
      break;
    size_t k = 0;
    for (; k < pick.size(); ++k) {
      if (++pick[k] < choices[k].second.size())
        break;
      pick[k] = 0;
    }
    if (k == pick.size())
      return all; // the whole product fitted
  }
  std::set<int64_t> levels;
  for (auto &ch : choices)
    levels.insert(ch.second.begin(), ch.second.end());
  for (int64_t f : levels) {
    std::vector<size_t> diagonal;
    for (auto &ch : choices)
      diagonal.push_back(std::upper_bound(ch.second.begin(), ch.second.end(), f) - ch.second.begin() - 1);
    if (done.insert(diagonal).second && !evaluate(diagonal, limit))
      break;
  }
  return all;
}

/// Whether `loop`'s body multiplies: the compute of a layer, where a
/// pipeline moved inward pays for the loops it leaves behind.
bool multiplies(scf::ForOp loop) {
  return loop.getBody()
      ->walk([](Operation *op) {
        return isa<arith::MulIOp, arith::MulFOp>(op) ? WalkResult::interrupt() : WalkResult::advance();
      })
      .wasInterrupted();
}

/// The loops left beside a pipeline moved from `outer` down to `inner`: those
/// nested in `outer` whose nearest enclosing loop is `outer` or lies on the
/// way down to `inner`, other than that way itself (a sliding window's
/// line-buffer shift beside its output-channel loop).
SmallVector<scf::ForOp> loopsBeside(scf::ForOp outer, scf::ForOp inner) {
  llvm::SmallPtrSet<Operation *, 8> way;
  for (Operation *op = inner.getOperation(); op && op != outer.getOperation(); op = op->getParentOp())
    if (isa<scf::ForOp>(op))
      way.insert(op);
  way.insert(outer);
  SmallVector<scf::ForOp> beside;
  outer.getBody()->walk([&](scf::ForOp loop) {
    if (way.count(loop))
      return;
    auto parent = loop->getParentOfType<scf::ForOp>();
    if (parent && way.count(parent) && parent != inner)
      beside.push_back(loop);
  });
  return beside;
}

/// Ports whose lanes the DSE keeps: pulled or pushed with an explicit lane
/// index (the lanes are part of the body), or given more than one lane by
/// the input (a decision of whoever wrote it).
std::set<unsigned> fixedLanePorts(dfg::ProcessOp process) {
  std::set<unsigned> fixed;
  for (unsigned a = 0; a < process.getNumArguments(); ++a)
    if (portLanes(process.getArgument(a).getType()) > 1)
      fixed.insert(a);
  auto note = [&](Value port, Value lane) {
    if (lane)
      if (auto arg = dyn_cast<BlockArgument>(port))
        fixed.insert(arg.getArgNumber());
  };
  process.getBody().walk([&](Operation *op) {
    if (auto pull = dyn_cast<dfg::PullOp>(op))
      note(pull.getPort(), pull.getLane());
    else if (auto push = dyn_cast<dfg::PushOp>(op))
      note(push.getPort(), push.getLane());
  });
  return fixed;
}

/// Copies of the hardware a configuration asks for: the product of its
/// unroll factors.
int64_t unrollProduct(const ProcessConfig &cfg) {
  int64_t p = 1;
  for (auto &[id, c] : cfg.loops)
    p *= std::max<int64_t>(1, c.unroll.value_or(1));
  return p;
}

} // namespace

int64_t portLanes(Type t) {
  if (auto in = dyn_cast<dfg::InputType>(t))
    return in.getLanes();
  if (auto out = dyn_cast<dfg::OutputType>(t))
    return out.getLanes();
  return 0;
}

/// Among the points with the same lanes, the Pareto-optimal ones in
/// (cycles, DSP, BRAM18K, URAM, unroll), where a less unrolled point also
/// wins while it is at most `tolerance` slower: the model counts no LUTs, so
/// unrolling that saves only pipeline fill would otherwise look free.
std::vector<Point> paretoFront(std::vector<Point> all, double tolerance) {
  std::vector<int64_t> unroll;
  for (const Point &c : all)
    unroll.push_back(unrollProduct(c.config));
  std::vector<Point> kept;
  for (size_t i = 0; i < all.size(); ++i) {
    const ProcessCost &a = all[i].cost;
    bool dominated = false;
    for (size_t j = 0; j < all.size() && !dominated; ++j) {
      if (i == j || all[j].config.lanes != all[i].config.lanes)
        continue;
      const ProcessCost &b = all[j].cost;
      if (b.dsp > a.dsp || b.bram18k > a.bram18k || b.uram > a.uram || unroll[j] > unroll[i])
        continue;
      if (unroll[j] < unroll[i]) {
        dominated = double(b.cycles) <= double(a.cycles) * (1.0 + tolerance);
        continue;
      }
      bool lt = b.cycles < a.cycles || b.dsp < a.dsp || b.bram18k < a.bram18k || b.uram < a.uram;
      dominated = b.cycles <= a.cycles && (lt || j < i);
    }
    if (!dominated)
      kept.push_back(all[i]);
  }
  return kept;
}

/// Wider ports at the same II: a point whose pipeline is bound by a port
/// (accesses / lanes) and spends DSPs, again with that II requested and
/// more lanes on its ports. Alone it is no faster, but the process at the
/// other end of the channel is: a 3x3 window ahead of a convolution walks
/// its padded columns and rows too (1,089 positions for 1,024 outputs on
/// 32x32, 289 for 256 on 16x16), and at the convolution's lanes it falls
/// behind it by as much. Without the requested II, more lanes only offer
/// the convolution at twice its DSPs.
std::vector<Point> widenedLanes(Estimator &estimator, dfg::ProcessOp process,
                                const std::vector<Point> &kept, const std::set<unsigned> &fixed,
                                const Options &options) {
  // Reductions only, on their inputs: the producer with extra positions is
  // the window ahead of one; every other process would only grow the ILP.
  auto kind = process.getKindAttr();
  if (!kind || kind.getValue() != dfg::KernelKind::RegularReduction)
    return {};
  std::vector<Point> out;
  for (const Point &p : kept) {
    if (p.cost.dsp == 0)
      continue;
    ProcessConfig cfg = p.config;
    bool bound = false;
    for (const LoopCost &lc : p.cost.loops) {
      if (!lc.pipelined || lc.insidePipeline || lc.ii <= 1)
        continue;
      cfg.loops[lc.id].ii = lc.ii;
      bound |= lc.ii == lc.iiPorts && lc.iiPorts > std::max(lc.iiRecurrence, lc.iiMemory);
    }
    if (!bound)
      continue;
    // Every larger lane count the port offers: one step (the fewest that
    // double the rate) lost ResNet-8 most of the gain.
    for (auto &[arg, ds] : laneOptions(process, p.cost, p.config.lanes)) {
      if (fixed.count(arg) || !isa<dfg::InputType>(process.getArgument(arg).getType()))
        continue;
      for (int64_t d : ds) {
        if (d <= p.config.lanes.at(arg) || d > options.maxLanes)
          continue;
        ProcessConfig wide = cfg;
        wide.lanes[arg] = d;
        ProcessCost c = estimator.estimate(wide);
        if (c.dsp <= p.cost.dsp && c.cycles <= p.cost.cycles && c.bram18k <= p.cost.bram18k &&
            c.uram <= p.cost.uram)
          out.push_back({std::move(wide), std::move(c)});
      }
    }
  }
  return out;
}

/// `cfg`, a point of the DSP ladder, again with the pipelines that only move
/// data (no DSPs; a matmul's inputs buffered before its MACs) unrolled by
/// each factor f, their ports at as many lanes. The ladder keeps one lane:
/// DS-CNN's classifier then pulled its 64 inputs one a cycle after the pool,
/// longer than its MACs took at II 8.
std::vector<Point> widenedMovers(Estimator &estimator, const ProcessConfig &cfg, const ProcessCost &c,
                                 const std::set<unsigned> &fixed, const Options &options) {
  dfg::ProcessOp process = estimator.getProcess();
  SmallVector<const LoopCost *> movers;
  std::map<unsigned, int64_t> ports;
  for (const LoopCost &lc : c.loops) {
    if (!lc.pipelined || lc.insidePipeline || lc.dsp > 0 || lc.trip < 2 || lc.portAccesses.empty())
      continue;
    movers.push_back(&lc);
    for (auto [arg, n] : lc.portAccesses)
      if (!fixed.count(arg))
        ports[arg] = 1;
  }
  std::set<int64_t> levels;
  for (const LoopCost *lc : movers)
    for (int64_t d : divisors(lc->trip, std::min(kMaxLanes, options.maxLanes)))
      if (d > 1)
        levels.insert(d);
  std::vector<Point> out;
  for (int64_t f : levels) {
    ProcessConfig wide = cfg;
    for (const LoopCost *lc : movers) {
      SmallVector<int64_t> ds = divisors(lc->trip, f);
      wide.loops[lc->id].unroll = ds.back();
    }
    ProcessCost unrolled = estimator.estimate(wide);
    for (auto &[arg, ds] : laneOptions(process, unrolled, ports)) {
      auto most = std::upper_bound(ds.begin(), ds.end(), f);
      if (most != ds.begin())
        wide.lanes[arg] = *std::prev(most);
    }
    ProcessCost cost = estimator.estimate(wide);
    out.push_back({std::move(wide), std::move(cost)});
  }
  return out;
}

/// Requested IIs between the steps of the ladder: a point whose outer
/// pipelines share DSPs over an II of at least 2, again at 9/8, 5/4 and 3/2
/// of it (rounded up, distinct), each with fewer DSPs. The ladder of
/// one-lane points halves the rate per step; a process that a slower
/// neighbour paces needs only that neighbour's rate (DS-CNN's depthwise
/// windows: 72 DSPs at II 8 run 1,271 cycles beside pointwise layers of
/// 1,601, where II 10 needs 58).
///
/// Only the points that no other beats in both cycles and DSPs are relaxed:
/// relaxing every lane variant too doubled DS-CNN's candidates, and its ILP
/// stopped at its time limit.
std::vector<Point> relaxedIIs(Estimator &estimator, const std::vector<Point> &kept) {
  std::vector<const Point *> front;
  for (const Point &p : kept)
    if (p.cost.dsp > 0)
      front.push_back(&p);
  llvm::sort(front, [](const Point *a, const Point *b) {
    return std::tie(a->cost.dsp, a->cost.cycles) < std::tie(b->cost.dsp, b->cost.cycles);
  });
  std::vector<Point> out;
  int64_t best = std::numeric_limits<int64_t>::max();
  for (const Point *p : front) {
    if (p->cost.cycles >= best)
      continue;
    best = p->cost.cycles;
    SmallVector<std::pair<unsigned, int64_t>> shared;
    for (const LoopCost &lc : p->cost.loops)
      if (lc.pipelined && !lc.insidePipeline && lc.dsp > 0 && lc.ii >= 2)
        shared.push_back({lc.id, lc.ii});
    if (shared.empty())
      continue;
    // Two ratios give the same configuration only when every shared loop
    // rounds to the same II (IIs 2 and 16: 9/8 and 5/4 both give 3 for the
    // first, 18 and 20 for the second).
    SmallVector<int64_t> last;
    for (auto [num, den] : {std::pair<int64_t, int64_t>{9, 8}, {5, 4}, {3, 2}}) {
      ProcessConfig cfg = p->config;
      SmallVector<int64_t> iis;
      for (auto [id, ii] : shared) {
        int64_t relaxed = std::max<int64_t>(ii + 1, llvm::divideCeilSigned(ii * num, den));
        cfg.loops[id].ii = relaxed;
        iis.push_back(relaxed);
      }
      if (iis == last)
        continue;
      last = iis;
      ProcessCost c = estimator.estimate(cfg);
      if (c.dsp < p->cost.dsp)
        out.push_back({std::move(cfg), std::move(c)});
    }
  }
  return out;
}

/// The id of each loop of an estimate, by its op: configurations name
/// loops by id.
llvm::DenseMap<Operation *, unsigned> loopIds(const ProcessCost &c) {
  llvm::DenseMap<Operation *, unsigned> ids;
  for (const LoopCost &lc : c.loops)
    if (lc.loop)
      ids[lc.loop] = lc.id;
  return ids;
}

/// The estimate of `base`, with every outer pipeline too large to walk
/// (ProcessCost::partial) moved down a level, to the loops nested in it,
/// until the walks fit: the enumeration's unroll and lane choices are then
/// those of a pipeline the model can count. A whole layer's MACs under one
/// pixel pipeline would otherwise leave only one-lane points, those of the
/// pipelines moved inward.
ProcessCost wholeBase(Estimator &estimator, ProcessConfig &base) {
  ProcessCost ref = estimator.estimate(base);
  llvm::DenseMap<Operation *, unsigned> idOf = loopIds(ref);
  for (int level = 0; ref.partial && level < 8; ++level) {
    ProcessConfig moved = base;
    bool any = false;
    for (const LoopCost &lc : ref.loops) {
      if (!lc.pipelined || lc.insidePipeline || !lc.loop)
        continue;
      scf::ForOp outer = lc.loop;
      SmallVector<scf::ForOp> inner;
      outer.getBody()->walk([&](scf::ForOp loop) {
        if (loop->getParentOfType<scf::ForOp>() == outer)
          inner.push_back(loop);
      });
      if (inner.empty())
        continue;
      moved.loops[lc.id].pipeline = false;
      moved.loops[lc.id].unroll = 1;
      for (scf::ForOp loop : inner) {
        LoopChoice &at = moved.loops[idOf.lookup(loop)];
        at.pipeline = true;
        at.ii = 1;
        at.unroll.reset();
      }
      any = true;
    }
    if (!any)
      break;
    base = std::move(moved);
    ref = estimator.estimate(base);
  }
  return ref;
}

/// `points` without those whose estimate is partial (a pipelined body too
/// large to walk, ProcessCost::partial) while any is whole: undercounted,
/// they would look cheap to the Pareto filter and to the ILP.
void dropPartial(std::vector<Point> &points) {
  if (llvm::any_of(points, [](const Point &p) { return !p.cost.partial; }))
    llvm::erase_if(points, [](const Point &p) { return p.cost.partial; });
}

/// The offered configurations: lanes within the limit (and the IR's on ports
/// with explicit lane indices), the Pareto front of each lane assignment,
/// and the front's port-bound points again with wider ports.
std::vector<Point> offeredCandidates(dfg::ProcessOp process, const Options &options,
                                     const CostOptions &cost) {
  crash::Scope scope(process, "estimating the candidates of");
  std::set<unsigned> fixed = fixedLanePorts(process);
  Estimator estimator(process, cost);
  ProcessConfig base = oneLaneBase(process);
  const ProcessCost ref = wholeBase(estimator, base);
  std::vector<Point> all = enumerateConfigurations(estimator, base, ref, options.candidateLimit, options.dspLimit);
  // DSPs for cycles: every outer pipeline with DSPs at a requested II of 2, 4, 8, ...
  // (Vitis shares operators across the II), one lane, nothing unrolled.
  SmallVector<unsigned> withDsp;
  std::vector<Point> movers; // widenedMovers' points, kept apart (below)
  for (const LoopCost &lc : ref.loops)
    if (lc.pipelined && !lc.insidePipeline) {
      base.loops[lc.id].unroll = 1;
      if (lc.dsp > 0)
        withDsp.push_back(lc.id);
    }
  if (!withDsp.empty())
    for (int64_t ii = 2; ii <= options.maxII; ii *= 2) {
      ProcessConfig cfg = base;
      for (unsigned id : withDsp)
        cfg.loops[id].ii = ii;
      ProcessCost c = estimator.estimate(cfg);
      std::vector<Point> more = widenedMovers(estimator, cfg, c, fixed, options);
      movers.insert(movers.end(), std::make_move_iterator(more.begin()), std::make_move_iterator(more.end()));
      all.push_back({cfg, c});
      if (c.dsp <= 1)
        break;
    }
  // Pipeline positions: each outer pipeline moved down to each loop nested in
  // it (fewer copies of the body: fewer DSPs, more cycles). Loops between the
  // two become sequential and are not unrolled; loops inside the new
  // pipeline are, as always, fully unrolled.
  llvm::DenseMap<Operation *, unsigned> idOf = loopIds(ref);
  for (const LoopCost &lc : ref.loops) {
    if (!lc.pipelined || lc.insidePipeline)
      continue;
    scf::ForOp outer = lc.loop;
    outer.getBody()->walk([&](scf::ForOp inner) {
      ProcessConfig cfg = base;
      cfg.loops[lc.id].pipeline = false;
      cfg.loops[lc.id].unroll = 1;
      for (Operation *op = inner->getParentOp(); op && op != outer.getOperation();
           op = op->getParentOp())
        if (auto mid = dyn_cast<scf::ForOp>(op)) {
          cfg.loops[idOf.lookup(mid)].pipeline = false;
          cfg.loops[idOf.lookup(mid)].unroll = 1;
        }
      LoopChoice &at = cfg.loops[idOf.lookup(inner)];
      at.pipeline = true;
      at.ii = 1;
      at.unroll = 1;
      all.push_back({cfg, estimator.estimate(cfg)});
      // The same move with the loops beside it pipelined too, each fully
      // unrolled when short: a strided window then shifts its line buffer in
      // a cycle or two per pixel and spends its MACs only on the pixels that
      // produce an output, where the pixel loop's one pipeline runs every
      // pixel at the compute's II. The moved pipeline's unroll and the lanes
      // are enumerated as for the IR's pipelines.
      if (!multiplies(inner))
        return;
      SmallVector<scf::ForOp> beside = loopsBeside(outer, inner);
      if (beside.empty())
        return;
      ProcessConfig split = cfg;
      split.loops[idOf.lookup(inner)].unroll.reset();
      for (scf::ForOp loop : beside) {
        LoopChoice &c = split.loops[idOf.lookup(loop)];
        int64_t trip = ref.loops[idOf.lookup(loop)].trip;
        c.pipeline = true;
        c.ii = 1;
        c.unroll = trip > 0 && trip <= kMaxLanes ? trip : 1;
      }
      std::vector<Point> more =
          enumerateConfigurations(estimator, split, estimator.estimate(split),
                                  options.candidateLimit / 4, options.dspLimit);
      all.insert(all.end(), std::make_move_iterator(more.begin()), std::make_move_iterator(more.end()));
    });
  }
  // Pipelines moved outward: a sequential loop around an outer pipeline
  // pipelined instead, everything in it fully unrolled. A reduction
  // pipelined over the output channels of one pixel fills and drains at
  // every pixel (ResNet-8's 3x3 convolutions: 7.3 cycles a pixel where the
  // MACs take 6); over the pixels it does so once. The lanes and the new
  // pipeline's unroll are enumerated as for the IR's pipelines.
  std::set<unsigned> movedOut;
  for (const LoopCost &lc : ref.loops) {
    if (!lc.pipelined || lc.insidePipeline || !lc.loop || !multiplies(lc.loop))
      continue;
    auto parent = lc.loop->getParentOfType<scf::ForOp>();
    if (!parent || !idOf.count(parent) || !movedOut.insert(idOf.lookup(parent)).second)
      continue;
    ProcessConfig cfg = base;
    LoopChoice &at = cfg.loops[idOf.lookup(parent)];
    at.pipeline = true;
    at.ii = 1;
    at.unroll.reset();
    // The other pipelines (a window's prefetch at each row) fully unrolled
    // where short: their ports' lanes then set their cycles, and the
    // enumeration's budget goes to the lanes.
    for (const LoopCost &other : ref.loops)
      if (other.pipelined && !other.insidePipeline)
        cfg.loops[other.id].unroll = other.trip > 0 && other.trip <= kMaxUnroll ? other.trip : 1;
    parent.getBody()->walk([&](scf::ForOp inner) {
      LoopChoice &c = cfg.loops[idOf.lookup(inner)];
      c.pipeline = false;
      c.unroll = 0;
      c.ii.reset();
    });
    std::vector<Point> more = enumerateConfigurations(estimator, cfg, estimator.estimate(cfg),
                                                      options.candidateLimit / 4, options.dspLimit);
    // At most kMaxUnroll copies of the old pipeline's body per iteration,
    // and at least two iterations: unrolled by all its 34 rows, a 32x32
    // window's row loop pipelined at II 4,600 would be one iteration holding
    // the whole image's MACs, and one iteration is no pipeline (a 4x4
    // depthwise window of MobileNetV2 so unrolled reached its first output
    // 1,900 cycles later in the simulator than in the model: its one
    // schedule stalls as a whole on each late input).
    unsigned pid = idOf.lookup(parent);
    int64_t parentTrip = std::max<int64_t>(1, ref.loops[pid].trip), inner = std::max<int64_t>(1, lc.trip);
    llvm::erase_if(more, [&](const Point &p) {
      auto it = p.config.loops.find(pid);
      int64_t u = it == p.config.loops.end() || !it->second.unroll ? 1 : *it->second.unroll;
      u = u == 0 ? parentTrip : u;
      return u * inner > kMaxUnroll || parentTrip < 2 * u;
    });
    all.insert(all.end(), std::make_move_iterator(more.begin()), std::make_move_iterator(more.end()));
  }
  // The directives of the IR as they are (a design that worked before).
  all.push_back({ProcessConfig{}, estimator.estimate({})});
  // UltraRAM: every configuration whose buffers take BRAM also with them in
  // UltraRAM, for the ILP to trade the two under both limits. ROMs stay in
  // BRAM: an UltraRAM cannot be initialised by the bitstream. Then the lanes
  // within the limit (and the IR's on fixed ports), and the Pareto filter.
  auto front = [&](std::vector<Point> points) {
    dropPartial(points);
    for (size_t i = 0, n = points.size(); i < n; ++i) {
      if (llvm::none_of(points[i].cost.buffers,
                        [](const BufferCost &b) { return b.storage == "bram" && !b.rom; }))
        continue;
      ProcessConfig cfg = points[i].config;
      cfg.uram = true;
      ProcessCost c = estimator.estimate(cfg);
      points.push_back({std::move(cfg), std::move(c)});
    }
    std::vector<Point> offered;
    for (Point &c : points) {
      bool ok = true;
      for (auto &[arg, lanes] : c.config.lanes) {
        int64_t ir = portLanes(process.getArgument(arg).getType());
        if (fixed.count(arg) ? lanes != ir : lanes > options.maxLanes)
          ok = false;
      }
      if (ok)
        offered.push_back(std::move(c));
    }
    return paretoFront(std::move(offered), options.unrollTolerance);
  };
  std::vector<Point> kept = front(std::move(all));
  std::vector<Point> wide = widenedLanes(estimator, process, kept, fixed, options);
  // The movers' front is relaxed on its own: in one front with the rest, a
  // mover faster at the same DSPs took a point's place, and the relaxed IIs
  // of that point were no longer offered (the anomaly autoencoder int8 on
  // the zcu104: 942 -> 961 cycles).
  std::vector<Point> keptMovers = front(std::move(movers));
  if (options.relaxII)
    for (const std::vector<Point> *points : {&kept, &keptMovers}) {
      std::vector<Point> relaxed = relaxedIIs(estimator, *points);
      wide.insert(wide.end(), std::make_move_iterator(relaxed.begin()), std::make_move_iterator(relaxed.end()));
    }
  wide.insert(wide.end(), std::make_move_iterator(keptMovers.begin()), std::make_move_iterator(keptMovers.end()));
  bool widened = !wide.empty();
  kept.insert(kept.end(), std::make_move_iterator(wide.begin()), std::make_move_iterator(wide.end()));
  dropPartial(kept);
  // Nothing whole: the walks the enumeration did not start are done (in
  // part) as the report's estimates are.
  for (Point &p : kept)
    if (p.cost.partial)
      p.cost = cost::estimate(process, p.config, cost);
  return widened ? paretoFront(std::move(kept), options.unrollTolerance) : kept;
}

/// The packed process is a copy beside the original, so that its ROMs
/// resolve; apply packs the original the same way.
dfg::ProcessOp packedCopy(dfg::ProcessOp process, const Options &options) {
  if (!options.packInt8 ||
      !process.getBody().walk([](arith::MulIOp) { return WalkResult::interrupt(); }).wasInterrupted())
    return {};
  OpBuilder b(process);
  b.setInsertionPointAfter(process);
  auto copy = cast<dfg::ProcessOp>(b.clone(*process));
  copy.setSymName(("__ming_packed_" + process.getSymName()).str());
  if (pack::packProcess(copy))
    return copy;
  copy.erase();
  return {};
}

void detach(std::vector<Point> &points) {
  for (Point &p : points) {
    for (LoopCost &lc : p.cost.loops)
      lc.loop = nullptr;
    p.cost.buffers.clear();
  }
}

} // namespace ming::dse
