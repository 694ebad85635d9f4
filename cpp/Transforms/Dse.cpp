// The C++ half of the DSE (ming/Transforms/Dse.h): candidates of every
// process instance from the cost model, the chosen configurations written
// back as directives, and the figures of report.json.
#include "ming/Transforms/Dse.h"
#include "ming/Analysis/CostModel.h"
#include "ming/Analysis/FifoDepths.h"
#include "ming/Dfg/Dfg.h"
#include "ming/Support/CrashReport.h"

#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Verifier.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/raw_ostream.h"

#include <chrono>
#include <map>
#include <set>

using namespace mlir;
namespace cost = ming::cost;
namespace dfg = ming::dfg;

namespace ming::dse {

static constexpr llvm::StringLiteral kPipelineII = "ming.pipeline_ii";
static constexpr llvm::StringLiteral kUnroll = "ming.unroll";
static constexpr llvm::StringLiteral kPartitionComplete = "ming.partition_complete_dims";
static constexpr llvm::StringLiteral kPartitionCyclic = "ming.partition_cyclic";

namespace {

/// The graph of the module (the one marked ming.top when there are several).
FailureOr<dfg::GraphOp> findGraph(Operation *moduleOp, std::string &error) {
  auto module = dyn_cast_or_null<ModuleOp>(moduleOp);
  if (!module) {
    error = "the DSE needs a builtin.module";
    return failure();
  }
  SmallVector<dfg::GraphOp> graphs(module.getOps<dfg::GraphOp>());
  if (graphs.empty()) {
    error = "the module holds no dfg.graph";
    return failure();
  }
  if (graphs.size() == 1)
    return graphs.front();
  for (dfg::GraphOp g : graphs)
    if (g->hasAttr("ming.top"))
      return g;
  error = "the module holds several dfg.graph ops and none is marked ming.top";
  return failure();
}

std::string kindName(dfg::ProcessOp process) {
  if (auto kind = process.getKindAttr())
    return dfg::stringifyKernelKind(kind.getValue()).str();
  return "";
}

int64_t portLanes(Type t) {
  if (auto in = dyn_cast<dfg::InputType>(t))
    return in.getLanes();
  if (auto out = dyn_cast<dfg::OutputType>(t))
    return out.getLanes();
  return 0;
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

//===----------------------------------------------------------------------===//
// Configurations as text
//===----------------------------------------------------------------------===//

std::string printConfig(const cost::ProcessConfig &cfg) {
  std::string text;
  llvm::raw_string_ostream os(text);
  auto sep = [&] {
    if (!text.empty())
      os << ' ';
  };
  for (auto &[id, c] : cfg.loops) {
    if (c.unroll) {
      sep();
      os << "L" << id << ".unroll=" << *c.unroll;
    }
    if (c.pipeline) {
      sep();
      os << "L" << id << ".pipeline=" << (*c.pipeline ? 1 : 0);
    }
    if (c.ii) {
      sep();
      os << "L" << id << ".ii=" << *c.ii;
    }
  }
  for (auto &[arg, lanes] : cfg.lanes) {
    sep();
    os << "arg" << arg << ".lanes=" << lanes;
  }
  if (cfg.autoPartition) {
    sep();
    os << "partition=" << (*cfg.autoPartition ? 1 : 0);
  }
  return text;
}

LogicalResult parseConfig(llvm::StringRef text, cost::ProcessConfig &cfg, std::string &error) {
  SmallVector<llvm::StringRef> items;
  text.split(items, ' ', -1, /*KeepEmpty=*/false);
  for (llvm::StringRef item : items) {
    auto [key, value] = item.split('=');
    int64_t v;
    if (value.getAsInteger(10, v)) {
      error = "bad DSE configuration item '" + item.str() + "'";
      return failure();
    }
    if (key == "partition") {
      cfg.autoPartition = v != 0;
      continue;
    }
    auto [head, field] = key.split('.');
    unsigned id;
    if (head.starts_with("L") && !head.drop_front(1).getAsInteger(10, id)) {
      if (field == "unroll")
        cfg.loops[id].unroll = v;
      else if (field == "pipeline")
        cfg.loops[id].pipeline = v != 0;
      else if (field == "ii")
        cfg.loops[id].ii = v;
      else {
        error = "bad DSE configuration item '" + item.str() + "'";
        return failure();
      }
      continue;
    }
    if (head.starts_with("arg") && !head.drop_front(3).getAsInteger(10, id) &&
        field == "lanes") {
      cfg.lanes[id] = v;
      continue;
    }
    error = "bad DSE configuration item '" + item.str() + "'";
    return failure();
  }
  return success();
}

int64_t fifoBram18k(dfg::ChannelOp ch, int64_t depth, int64_t lanes) {
  Type elem = ch.getElementType();
  int64_t width = elem.isIntOrFloat() ? elem.getIntOrFloatBitWidth() : 32;
  return cost::channelBram18k(lanes, depth, width, cost::CostOptions());
}

CandidateInfo describe(dfg::ProcessOp process, const cost::ProcessConfig &cfg,
                       const cost::ProcessCost &c, std::string config) {
  CandidateInfo info;
  info.cycles = c.cycles;
  info.fill = c.firstOutput;
  info.pre = c.pre;
  info.tail = c.tail;
  info.dsp = c.dsp;
  info.bram18k = c.bram18k;
  for (unsigned a = 0; a < process.getNumArguments(); ++a) {
    Type t = process.getArgument(a).getType();
    if (!isa<dfg::InputType, dfg::OutputType>(t))
      continue;
    int64_t lanes = portLanes(t);
    if (auto it = cfg.lanes.find(a); it != cfg.lanes.end())
      lanes = it->second;
    (isa<dfg::InputType>(t) ? info.lanesIn : info.lanesOut).push_back(lanes);
  }
  info.config = std::move(config);
  return info;
}

/// Copies of the hardware a configuration asks for: the product of its
/// unroll factors.
int64_t unrollProduct(const cost::ProcessConfig &cfg) {
  int64_t p = 1;
  for (auto &[id, c] : cfg.loops)
    p *= std::max<int64_t>(1, c.unroll.value_or(1));
  return p;
}

/// The configurations the ILP is offered: the cost model's (unroll and lane
/// choices), the same at requested IIs 2, 4, ... (fewer DSPs), each pipeline
/// moved down to every loop nested in it, and the IR's own directives; lanes within the limit (and the IR's on ports with
/// explicit lane indices), and among those with the same
/// lanes only the Pareto-optimal in (cycles, DSP, BRAM18K, unroll), where a
/// less unrolled configuration also wins while it is at most
/// `unrollTolerance` slower: the model counts no LUTs, so unrolling that
/// saves only pipeline fill would otherwise look free.
std::vector<cost::Candidate> filterCandidates(dfg::ProcessOp process, const Options &options) {
  crash::Scope scope(process, "estimating the candidates of");
  std::set<unsigned> fixed = fixedLanePorts(process);
  cost::Estimator estimator(process);
  std::vector<cost::Candidate> all = cost::enumerateConfigurations(estimator, options.candidateLimit);
  // DSPs for cycles: every outer pipeline with DSPs at a requested II of 2, 4, 8, ...
  // (Vitis shares operators across the II), one lane, nothing unrolled.
  cost::ProcessConfig base;
  base.autoPartition = true;
  for (unsigned a = 0; a < process.getNumArguments(); ++a)
    if (isa<dfg::InputType, dfg::OutputType>(process.getArgument(a).getType()))
      base.lanes[a] = 1;
  cost::ProcessCost ref = estimator.estimate(base);
  SmallVector<unsigned> withDsp;
  for (const cost::LoopCost &lc : ref.loops)
    if (lc.pipelined && !lc.insidePipeline) {
      base.loops[lc.id].unroll = 1;
      if (lc.dsp > 0)
        withDsp.push_back(lc.id);
    }
  if (!withDsp.empty())
    for (int64_t ii = 2; ii <= options.maxII; ii *= 2) {
      cost::ProcessConfig cfg = base;
      for (unsigned id : withDsp)
        cfg.loops[id].ii = ii;
      cost::ProcessCost c = estimator.estimate(cfg);
      all.push_back({cfg, c});
      if (c.dsp <= 1)
        break;
    }
  // Pipeline positions: each outer pipeline moved down to each loop nested in
  // it (fewer copies of the body: fewer DSPs, more cycles). Loops between the
  // two become sequential and are not unrolled; loops inside the new
  // pipeline are, as always, fully unrolled.
  llvm::DenseMap<Operation *, unsigned> idOf;
  for (const cost::LoopCost &lc : ref.loops)
    if (lc.loop)
      idOf[lc.loop] = lc.id;
  for (const cost::LoopCost &lc : ref.loops) {
    if (!lc.pipelined || lc.insidePipeline)
      continue;
    scf::ForOp outer = lc.loop;
    outer.getBody()->walk([&](scf::ForOp inner) {
      cost::ProcessConfig cfg = base;
      cfg.loops[lc.id].pipeline = false;
      cfg.loops[lc.id].unroll = 1;
      for (Operation *op = inner->getParentOp(); op && op != outer.getOperation();
           op = op->getParentOp())
        if (auto mid = dyn_cast<scf::ForOp>(op)) {
          cfg.loops[idOf.lookup(mid)].pipeline = false;
          cfg.loops[idOf.lookup(mid)].unroll = 1;
        }
      cost::LoopChoice &at = cfg.loops[idOf.lookup(inner)];
      at.pipeline = true;
      at.ii = 1;
      at.unroll = 1;
      all.push_back({cfg, estimator.estimate(cfg)});
    });
  }
  // The directives of the IR as they are (a design that worked before).
  all.push_back({cost::ProcessConfig{}, estimator.estimate({})});
  std::vector<cost::Candidate> offered;
  for (cost::Candidate &c : all) {
    bool ok = true;
    for (auto &[arg, lanes] : c.config.lanes) {
      int64_t ir = portLanes(process.getArgument(arg).getType());
      if (fixed.count(arg) ? lanes != ir : lanes > options.maxLanes)
        ok = false;
    }
    if (ok)
      offered.push_back(std::move(c));
  }
  all = std::move(offered);
  std::vector<int64_t> unroll;
  for (const cost::Candidate &c : all)
    unroll.push_back(unrollProduct(c.config));
  std::vector<cost::Candidate> kept;
  for (size_t i = 0; i < all.size(); ++i) {
    const cost::ProcessCost &a = all[i].cost;
    bool dominated = false;
    for (size_t j = 0; j < all.size() && !dominated; ++j) {
      if (i == j || all[j].config.lanes != all[i].config.lanes)
        continue;
      const cost::ProcessCost &b = all[j].cost;
      if (b.dsp > a.dsp || b.bram18k > a.bram18k || unroll[j] > unroll[i])
        continue;
      if (unroll[j] < unroll[i]) {
        dominated = double(b.cycles) <= double(a.cycles) * (1.0 + options.unrollTolerance);
        continue;
      }
      bool lt = b.cycles < a.cycles || b.dsp < a.dsp || b.bram18k < a.bram18k;
      dominated = b.cycles <= a.cycles && (lt || j < i);
    }
    if (!dominated)
      kept.push_back(all[i]);
  }
  return kept;
}

/// The instances of the graph in body order with their processes.
struct Instances {
  SmallVector<dfg::InstantiateOp> ops;
  SmallVector<dfg::ProcessOp> processes;
  std::map<std::string, unsigned> count;
};

FailureOr<Instances> instances(dfg::GraphOp graph, std::string &error) {
  Instances out;
  for (auto inst : graph.getBody().front().getOps<dfg::InstantiateOp>()) {
    auto process =
        SymbolTable::lookupNearestSymbolFrom<dfg::ProcessOp>(inst, inst.getCalleeAttr());
    if (!process) {
      error = "'" + inst.getCallee().str() + "' is not a dfg.process";
      return failure();
    }
    out.ops.push_back(inst);
    out.processes.push_back(process);
    ++out.count[process.getSymName().str()];
  }
  return out;
}

//===----------------------------------------------------------------------===//
// Writing a configuration
//===----------------------------------------------------------------------===//

/// Whether `v` is computed from one of `ivs` (through any operations).
bool dependsOn(Value v, const llvm::DenseSet<Value> &ivs, int depth = 0) {
  if (ivs.contains(v))
    return true;
  if (depth > 16)
    return false;
  Operation *def = v.getDefiningOp();
  if (!def)
    return false;
  return llvm::any_of(def->getOperands(),
                      [&](Value o) { return dependsOn(o, ivs, depth + 1); });
}

/// Splits `factor` over the dimensions of `type` that the unrolled accesses
/// of `memrefs` vary in (most varying first, the innermost on a tie):
/// [dim, factor, ...] with 1-based dims, never a completely partitioned one.
SmallVector<int64_t> cyclicPartition(MemRefType type, ArrayRef<int64_t> complete,
                                     ArrayRef<Value> memrefs, const llvm::DenseSet<Value> &ivs,
                                     int64_t factor) {
  int64_t rank = type.getRank();
  SmallVector<int64_t> score(rank, 0);
  for (Value m : memrefs)
    for (Operation *user : m.getUsers()) {
      ValueRange indices;
      if (auto load = dyn_cast<memref::LoadOp>(user))
        indices = load.getIndices();
      else if (auto store = dyn_cast<memref::StoreOp>(user))
        indices = store.getIndices();
      else
        continue;
      for (auto [d, idx] : llvm::enumerate(indices))
        if (dependsOn(idx, ivs))
          ++score[d];
    }
  SmallVector<int64_t> dims;
  for (int64_t d = rank - 1; d >= 0; --d)
    if (!llvm::is_contained(complete, d + 1) && type.getDimSize(d) > 1)
      dims.push_back(d);
  llvm::stable_sort(dims, [&](int64_t a, int64_t b) { return score[a] > score[b]; });
  SmallVector<int64_t> out;
  int64_t remaining = factor;
  for (int64_t d : dims) {
    if (remaining <= 1)
      break;
    if (score[d] == 0 && !out.empty())
      break;
    int64_t f = std::min(remaining, type.getDimSize(d));
    if (f < 2)
      continue;
    out.push_back(d + 1);
    out.push_back(f);
    remaining = (remaining + f - 1) / f;
  }
  return out;
}

/// Retypes argument `arg` of `process` to `lanes` lanes.
void retypePort(dfg::ProcessOp process, unsigned arg, int64_t lanes) {
  MLIRContext *ctx = process.getContext();
  BlockArgument a = process.getArgument(arg);
  Type t = a.getType();
  Type nt = t;
  if (auto in = dyn_cast<dfg::InputType>(t))
    nt = dfg::InputType::get(ctx, in.getElementType(), lanes);
  else if (auto out = dyn_cast<dfg::OutputType>(t))
    nt = dfg::OutputType::get(ctx, out.getElementType(), lanes);
  if (nt == t)
    return;
  a.setType(nt);
  SmallVector<Type> inputs(process.getArgumentTypes());
  inputs[arg] = nt;
  process.setFunctionTypeAttr(
      TypeAttr::get(FunctionType::get(ctx, inputs, process.getResultTypes())));
}

/// Writes `cfg` (whose estimate is `c`) into `process`.
void writeConfig(dfg::ProcessOp process, const cost::ProcessConfig &cfg,
                 const cost::ProcessCost &c) {
  Builder b(process.getContext());
  for (auto &[id, choice] : cfg.loops) {
    if (id >= c.loops.size())
      continue;
    scf::ForOp loop = c.loops[id].loop;
    if (choice.unroll) {
      if (*choice.unroll == 1)
        loop->removeAttr(kUnroll);
      else
        loop->setAttr(kUnroll, b.getI64IntegerAttr(*choice.unroll));
    }
    if (choice.pipeline) {
      if (!*choice.pipeline)
        loop->removeAttr(kPipelineII);
      else if (choice.ii || !loop->hasAttr(kPipelineII))
        loop->setAttr(kPipelineII, b.getI64IntegerAttr(choice.ii.value_or(1)));
    } else if (choice.ii && loop->hasAttr(kPipelineII)) {
      loop->setAttr(kPipelineII, b.getI64IntegerAttr(*choice.ii));
    }
  }
  // Buffers: the cyclic partitioning the model assumed.
  llvm::DenseSet<Value> ivs;
  for (const cost::LoopCost &lc : c.loops)
    if (lc.loop && (lc.insidePipeline || lc.unroll > 1))
      ivs.insert(const_cast<scf::ForOp &>(lc.loop).getInductionVar());
  for (const cost::BufferCost &bc : c.buffers) {
    if (!bc.op || bc.storage == "folded")
      continue;
    Operation *anchor = bc.op;
    SmallVector<Operation *> ops;
    MemRefType type;
    if (auto alloca = dyn_cast<memref::AllocaOp>(anchor)) {
      ops.push_back(anchor);
      type = alloca.getType();
    } else if (auto global = dyn_cast<memref::GetGlobalOp>(anchor)) {
      type = global.getType();
      process.getBody().walk([&](memref::GetGlobalOp g) {
        if (g.getName() == global.getName())
          ops.push_back(g);
      });
    } else {
      continue;
    }
    for (Operation *op : ops)
      op->removeAttr(kPartitionCyclic);
    SmallVector<int64_t> complete;
    if (auto dims = anchor->getAttrOfType<DenseI64ArrayAttr>(kPartitionComplete))
      complete.assign(dims.asArrayRef().begin(), dims.asArrayRef().end());
    int64_t irBanks = 1;
    for (int64_t d : complete)
      if (d >= 1 && d <= type.getRank())
        irBanks *= type.getDimSize(d - 1);
    if (bc.banks <= irBanks || irBanks <= 0)
      continue;
    SmallVector<Value> memrefs;
    for (Operation *o : ops)
      memrefs.push_back(o->getResult(0));
    SmallVector<int64_t> spec = cyclicPartition(type, complete, memrefs, ivs, bc.banks / irBanks);
    if (spec.empty())
      continue;
    for (Operation *op : ops)
      op->setAttr(kPartitionCyclic, b.getDenseI64ArrayAttr(spec));
  }
}

/// The pipelined loop that takes longest: its II is the node's.
int64_t mainII(const cost::ProcessCost &c) {
  int64_t ii = 0, longest = -1;
  for (const cost::LoopCost &lc : c.loops)
    if (lc.pipelined && !lc.insidePipeline && lc.cycles > longest) {
      longest = lc.cycles;
      ii = lc.ii;
    }
  return ii;
}

void recordAttrs(dfg::ProcessOp process, const cost::ProcessCost &c) {
  Builder b(process.getContext());
  process->setAttr("ming.dse.cycles", b.getI64IntegerAttr(c.cycles));
  process->setAttr("ming.dse.first_output", b.getI64IntegerAttr(c.firstOutput));
  process->setAttr("ming.dse.pre", b.getI64IntegerAttr(c.pre));
  process->setAttr("ming.dse.tail", b.getI64IntegerAttr(c.tail));
  process->setAttr("ming.dse.dsp", b.getI64IntegerAttr(c.dsp));
  process->setAttr("ming.dse.bram18k", b.getI64IntegerAttr(c.bram18k));
  process->setAttr("ming.dse.ii", b.getI64IntegerAttr(mainII(c)));
  SmallVector<NamedAttribute> unroll;
  for (const cost::LoopCost &lc : c.loops)
    if (lc.pipelined && !lc.insidePipeline)
      unroll.push_back(b.getNamedAttr("L" + std::to_string(lc.id), b.getI64IntegerAttr(lc.unroll)));
  process->setAttr("ming.dse.unroll", b.getDictionaryAttr(unroll));
  // Per-loop timing, for the cycle-level simulator: the II and depth of each
  // pipeline as the model sees them, and the loops Vitis flattens into one.
  for (const cost::LoopCost &lc : c.loops) {
    if (!lc.loop || lc.insidePipeline)
      continue;
    if (lc.pipelined) {
      lc.loop->setAttr("ming.dse.loop_ii", b.getI64IntegerAttr(lc.ii));
      lc.loop->setAttr("ming.dse.loop_depth", b.getI64IntegerAttr(lc.depth));
    } else if (lc.flatIters) {
      lc.loop->setAttr("ming.dse.flattened", b.getUnitAttr());
    }
  }
}

/// The figures of report.json for the graph with the given process costs.
Estimate summarize(dfg::GraphOp graph, const Instances &insts,
                   const std::map<std::string, cost::ProcessCost> &costs) {
  Estimate e;
  cost::GraphCost g = cost::estimateGraph(graph, [&](llvm::StringRef name) -> const cost::ProcessCost * {
    auto it = costs.find(name.str());
    return it == costs.end() ? nullptr : &it->second;
  });
  e.dataflow = g.dataflow;
  e.sum = g.sum;
  e.dsp = g.dsp;
  e.bram18k = g.bram18k;
  e.fifoBram18k = g.fifoBram18k;
  for (dfg::ProcessOp process : insts.processes) {
    NodeEstimate n;
    n.process = process.getSymName().str();
    auto it = costs.find(n.process);
    if (it != costs.end()) {
      const cost::ProcessCost &c = it->second;
      n.cycles = c.cycles;
      n.firstOutput = c.firstOutput;
      n.dsp = c.dsp;
      n.bram18k = c.bram18k;
      n.ii = mainII(c);
      for (const cost::LoopCost &lc : c.loops)
        if (lc.pipelined && !lc.insidePipeline) {
          n.unrollLoops.push_back("L" + std::to_string(lc.id));
          n.unrollFactors.push_back(lc.unroll);
        }
    }
    e.nodes.push_back(std::move(n));
  }
  for (const cost::ChannelCost &cc : g.channels) {
    ChannelEstimate ch;
    if (auto name = cc.op->getAttrOfType<StringAttr>("ming.name"))
      ch.name = name.str();
    ch.lanes = cc.lanes;
    ch.depth = cc.depth;
    ch.bram18k = cc.bram18k;
    e.channels.push_back(std::move(ch));
  }
  cost::BaselineCost base = cost::estimateBaseline(graph);
  e.baselineCycles = base.cycles;
  e.baselineDsp = base.dsp;
  e.baselineBram18k = base.bram18k;
  return e;
}

} // namespace

//===----------------------------------------------------------------------===//
// Entry points
//===----------------------------------------------------------------------===//

ProblemInfo candidates(void *moduleOp, const Options &options) {
  auto start = std::chrono::steady_clock::now();
  ProblemInfo out;
  FailureOr<dfg::GraphOp> graph = findGraph(static_cast<Operation *>(moduleOp), out.error);
  if (failed(graph))
    return out;
  out.graph = graph->getSymName().str();
  FailureOr<Instances> insts = instances(*graph, out.error);
  if (failed(insts))
    return out;
  // Channel end -> (node, index among the node's stream inputs/outputs).
  llvm::DenseMap<Value, std::pair<unsigned, unsigned>> ends;
  std::map<std::string, std::vector<CandidateInfo>> byProcess;
  // The most each process may hold in its pipelines, over its candidates.
  llvm::DenseMap<Operation *, int64_t> inFlight;
  for (auto [i, inst] : llvm::enumerate(insts->ops)) {
    dfg::ProcessOp process = insts->processes[i];
    unsigned nIn = 0, nOut = 0;
    for (Value port : inst.getPorts()) {
      if (isa<dfg::InputType>(port.getType()))
        ends[port] = {unsigned(i), nIn++};
      else if (isa<dfg::OutputType>(port.getType()))
        ends[port] = {unsigned(i), nOut++};
    }
    NodeInfo node;
    node.process = process.getSymName().str();
    node.kind = kindName(process);
    auto cached = byProcess.find(node.process);
    if (cached != byProcess.end()) {
      node.candidates = cached->second;
    } else {
      std::vector<CandidateInfo> list;
      if (insts->count[node.process] == 1) {
        for (cost::Candidate &c : filterCandidates(process, options)) {
          list.push_back(describe(process, c.config, c.cost, printConfig(c.config)));
          inFlight[process] = std::max(inFlight[process], cost::inFlightElements(process, c.cost));
        }
      }
      // Shared processes, and processes no candidate fits: as they are.
      if (list.empty()) {
        cost::ProcessCost c = cost::estimate(process);
        list.push_back(describe(process, {}, c, ""));
        inFlight[process] = std::max(inFlight[process], cost::inFlightElements(process, c));
      }
      byProcess[node.process] = list;
      node.candidates = std::move(list);
    }
    out.nodes.push_back(std::move(node));
  }
  // A fork's FIFOs grow with their lanes in BRAM: the fork's choice pays, at
  // the depth of the slowest-draining choices on the other branches (apply
  // sizes them for the actual choice, never deeper).
  llvm::DenseMap<Operation *, cost::ForkFifo> forkFifo;
  for (const cost::ForkFifo &f : cost::forkFifos(
           *graph, [&](dfg::ProcessOp p) { return inFlight.lookup(p); }))
    forkFifo[f.channel] = f;
  for (auto [i, inst] : llvm::enumerate(insts->ops)) {
    for (CandidateInfo &c : out.nodes[i].candidates) {
      unsigned port = 0;
      for (Value v : inst.getPorts()) {
        if (!isa<dfg::OutputType>(v.getType()))
          continue;
        int64_t lanes = c.lanesOut[port++];
        auto ch = v.getDefiningOp<dfg::ChannelOp>();
        auto f = ch ? forkFifo.find(ch) : forkFifo.end();
        if (f != forkFifo.end())
          c.bram18k += fifoBram18k(ch, cost::forkFifoDepth(f->second, lanes), lanes);
      }
    }
  }
  for (auto ch : graph->getBody().front().getOps<dfg::ChannelOp>()) {
    if (!forkFifo.count(ch))
      out.fifoBram18k += fifoBram18k(ch, ch.getDepth(), ch.getLanes());
    auto w = ends.find(ch.getWrite()), r = ends.find(ch.getRead());
    if (w == ends.end() || r == ends.end())
      continue;
    EdgeInfo e;
    e.from = w->second.first;
    e.fromPort = w->second.second;
    e.to = r->second.first;
    e.toPort = r->second.second;
    if (auto name = ch->getAttrOfType<StringAttr>("ming.name"))
      e.channel = name.str();
    out.edges.push_back(std::move(e));
  }
  out.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return out;
}

Estimate apply(void *moduleOp, const std::vector<std::string> &configs, const std::string &status,
               const std::string &objective) {
  Estimate out;
  FailureOr<dfg::GraphOp> graph = findGraph(static_cast<Operation *>(moduleOp), out.error);
  if (failed(graph))
    return out;
  FailureOr<Instances> insts = instances(*graph, out.error);
  if (failed(insts))
    return out;
  if (configs.size() != insts->ops.size()) {
    out.error = "the DSE chose " + std::to_string(configs.size()) + " configurations for " +
                std::to_string(insts->ops.size()) + " instances";
    return out;
  }
  // Estimate every choice first (the model reads the IR as it was enumerated).
  std::map<std::string, cost::ProcessCost> costs;
  std::map<std::string, cost::ProcessConfig> chosen;
  for (auto [i, process] : llvm::enumerate(insts->processes)) {
    std::string name = process.getSymName().str();
    cost::ProcessConfig cfg;
    if (failed(parseConfig(configs[i], cfg, out.error)))
      return out;
    if (costs.count(name)) {
      if (printConfig(chosen[name]) != printConfig(cfg)) {
        out.error = "process '" + name + "' is given two configurations";
        return out;
      }
      continue;
    }
    costs[name] = cost::estimate(process, cfg);
    chosen[name] = cfg;
  }
  for (dfg::ProcessOp process : insts->processes) {
    std::string name = process.getSymName().str();
    const cost::ProcessConfig &cfg = chosen[name];
    if (!cfg.loops.empty() || !cfg.lanes.empty() || cfg.autoPartition)
      writeConfig(process, cfg, costs[name]);
  }
  // Lanes: channels first (their ends' types follow), then the ports.
  for (auto [i, inst] : llvm::enumerate(insts->ops)) {
    dfg::ProcessOp process = insts->processes[i];
    for (auto &[arg, lanes] : chosen[process.getSymName().str()].lanes) {
      if (arg >= inst.getPorts().size() || portLanes(process.getArgument(arg).getType()) == lanes)
        continue;
      auto ch = inst.getPorts()[arg].getDefiningOp<dfg::ChannelOp>();
      if (!ch)
        continue;
      MLIRContext *ctx = ch.getContext();
      ch.setLanes(lanes);
      ch.getWrite().setType(dfg::OutputType::get(ctx, ch.getElementType(), lanes));
      ch.getRead().setType(dfg::InputType::get(ctx, ch.getElementType(), lanes));
    }
  }
  for (dfg::ProcessOp process : insts->processes)
    for (auto &[arg, lanes] : chosen[process.getSymName().str()].lanes)
      if (arg < process.getNumArguments())
        retypePort(process, arg, lanes);
  if (failed(verify(graph->getOperation()->getParentOp()))) {
    out.error = "the DSE's choice does not verify (lanes disagree on a channel)";
    return out;
  }
  for (dfg::ProcessOp process : insts->processes)
    recordAttrs(process, costs[process.getSymName().str()]);
  // Other channels: room for the largest word burst of either end.
  for (auto [i, inst] : llvm::enumerate(insts->ops)) {
    const cost::ProcessCost &c = costs[insts->processes[i].getSymName().str()];
    for (auto [arg, port] : llvm::enumerate(inst.getPorts()))
      if (auto ch = port.getDefiningOp<dfg::ChannelOp>();
          ch && isa<dfg::InputType, dfg::OutputType>(port.getType()))
        ch.setDepth(std::max<int64_t>(ch.getDepth(), 1 + cost::burstWords(c, arg, ch.getLanes())));
  }
  // Fork FIFOs in words of the chosen lanes, with the chosen pipelines.
  cost::sizeForkFifos(*graph, [&](dfg::ProcessOp p) {
    auto it = costs.find(p.getSymName().str());
    return it == costs.end() ? int64_t(0) : cost::inFlightElements(p, it->second);
  });
  out = summarize(*graph, *insts, costs);
  Builder b(graph->getContext());
  graph->getOperation()->setAttr("ming.dse.cycles", b.getI64IntegerAttr(out.dataflow));
  graph->getOperation()->setAttr("ming.dse.dsp", b.getI64IntegerAttr(out.dsp));
  graph->getOperation()->setAttr("ming.dse.bram18k", b.getI64IntegerAttr(out.bram18k));
  graph->getOperation()->setAttr("ming.dse.status", b.getStringAttr(status));
  graph->getOperation()->setAttr("ming.dse.objective", b.getStringAttr(objective));
  return out;
}

Estimate estimate(void *moduleOp) {
  Estimate out;
  FailureOr<dfg::GraphOp> graph = findGraph(static_cast<Operation *>(moduleOp), out.error);
  if (failed(graph))
    return out;
  FailureOr<Instances> insts = instances(*graph, out.error);
  if (failed(insts))
    return out;
  std::map<std::string, cost::ProcessCost> costs;
  for (dfg::ProcessOp process : insts->processes)
    if (!costs.count(process.getSymName().str()))
      costs[process.getSymName().str()] = cost::estimate(process);
  return summarize(*graph, *insts, costs);
}

} // namespace ming::dse
