// ming-test-cost-model: reports the cost model (ming/Analysis/CostModel.h) of
// every dfg.process, loop, buffer, channel and dfg.graph as remarks, so lit
// tests can pin down the figures of docs/cost-model.md.
#include "ming/Analysis/CostModel.h"
#include "TestPasses.h"

#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/BuiltinOps.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/raw_ostream.h"

namespace ming {
#define GEN_PASS_DEF_TESTCOSTMODEL
#include "ming/Test/TestPasses.h.inc"
} // namespace ming

using namespace mlir;
namespace cost = ming::cost;

namespace {

/// `<process>.L<id>.<key>=N` or `<process>.arg<N>.lanes=N`.
LogicalResult parseOverride(llvm::StringRef text, std::map<std::string, cost::ProcessConfig> &out,
                            std::string &error) {
  auto [lhs, rhs] = text.split('=');
  int64_t value;
  if (rhs.empty() || rhs.trim().getAsInteger(10, value)) {
    error = "expected <process>.<L<id>|arg<N>>.<key>=<integer>, got '" + text.str() + "'";
    return failure();
  }
  SmallVector<llvm::StringRef> parts;
  lhs.trim().split(parts, '.');
  if (parts.size() != 3) {
    error = "expected <process>.<L<id>|arg<N>>.<key>, got '" + lhs.str() + "'";
    return failure();
  }
  cost::ProcessConfig &cfg = out[parts[0].ltrim('@').str()];
  unsigned id;
  if (parts[1].starts_with("L") && !parts[1].drop_front(1).getAsInteger(10, id)) {
    cost::LoopChoice &c = cfg.loops[id];
    if (parts[2] == "unroll")
      c.unroll = value;
    else if (parts[2] == "pipeline")
      c.pipeline = value != 0;
    else if (parts[2] == "ii")
      c.ii = value;
    else {
      error = "unknown loop key '" + parts[2].str() + "' (unroll, pipeline, ii)";
      return failure();
    }
    return success();
  }
  if (parts[1].starts_with("arg") && !parts[1].drop_front(3).getAsInteger(10, id) &&
      parts[2] == "lanes") {
    cfg.lanes[id] = value;
    return success();
  }
  error = "cannot read '" + lhs.str() + "'";
  return failure();
}

std::string opsText(const std::map<std::string, int64_t> &ops) {
  std::string s;
  llvm::raw_string_ostream os(s);
  os << '[';
  llvm::interleaveComma(ops, os, [&](auto &kv) { os << kv.first << " x" << kv.second; });
  os << ']';
  return s;
}

struct TestCostModel : ming::impl::TestCostModelBase<TestCostModel> {
  using TestCostModelBase::TestCostModelBase;

  void runOnOperation() override {
    std::map<std::string, cost::ProcessConfig> configs;
    for (const std::string &text : overrides) {
      std::string error;
      if (failed(parseOverride(text, configs, error))) {
        getOperation().emitError("ming-test-cost-model: ") << error;
        return signalPassFailure();
      }
    }
    cost::CostOptions options;
    options.autoPartition = autoPartition;
    std::unique_ptr<cost::Target> loaded;
    if (!target.empty()) {
      std::string error;
      loaded = cost::Target::load(target, error);
      if (!loaded) {
        getOperation().emitError("ming-test-cost-model: ") << error;
        return signalPassFailure();
      }
      options.target = loaded.get();
    }
    if (axiBits > 0) {
      loaded = std::make_unique<cost::Target>(*options.target);
      loaded->axiBits = axiBits;
      options.target = loaded.get();
    }

    std::map<std::string, cost::ProcessCost> costs;
    getOperation().walk([&](ming::dfg::ProcessOp process) {
      cost::ProcessConfig cfg;
      if (auto it = configs.find(process.getSymName().str()); it != configs.end())
        cfg = it->second;
      cost::ProcessCost pc = cost::estimate(process, cfg, options);
      report(process, pc);
      costs[process.getSymName().str()] = std::move(pc);
    });
    getOperation().walk([&](ming::dfg::GraphOp graph) {
      cost::GraphCost g = cost::estimateGraph(
          graph,
          [&](llvm::StringRef name) -> const cost::ProcessCost * {
            auto it = costs.find(name.str());
            return it == costs.end() ? nullptr : &it->second;
          },
          options);
      for (const cost::ChannelCost &cc : g.channels)
        cc.op->emitRemark() << "fifo lanes=" << cc.lanes << " depth=" << cc.depth
                           << " width=" << cc.width << " bram18k=" << cc.bram18k;
      std::string path;
      llvm::raw_string_ostream os(path);
      llvm::interleave(
          g.criticalPath, os, [&](unsigned i) { os << '@' << g.nodes[i].callee; }, " -> ");
      {
        InFlightDiagnostic d = graph.emitRemark();
        d << "graph: dataflow=" << g.dataflow << " sum=" << g.sum << " bottleneck=" << g.bottleneck
        << " dsp=" << g.dsp << " bram18k=" << g.bram18k << " (fifo " << g.fifoBram18k
        << ") path=" << path;
      }
      for (const cost::NodeCost &n : g.nodes)
        n.op->emitRemark() << "node @" << n.callee << ": arrival=" << n.arrival
                          << " first=" << n.firstOut << " cycles=" << n.cycles
                          << " finish=" << n.finish;
    });
  }

  void report(ming::dfg::ProcessOp process, const cost::ProcessCost &pc) {
    for (const cost::LoopCost &lc : pc.loops) {
      if (lc.insidePipeline)
        continue;
      InFlightDiagnostic d = lc.loop->emitRemark();
      d << 'L' << lc.id << ": trip=" << lc.trip << " unroll=" << lc.unroll;
      if (lc.pipelined)
        d << " pipelined ii=" << lc.ii << " (" << lc.iiLimiter << ") depth=" << lc.depth
          << " cycles=" << lc.cycles << " dsp=" << lc.dsp << " ops=" << opsText(lc.opCounts);
      else if (lc.flatIters)
        d << " flattened iters=" << lc.flatIters << " ii=" << lc.ii << " depth=" << lc.depth
          << " cycles=" << lc.cycles;
      else
        d << " cycles=" << lc.cycles;
    }
    for (const cost::BufferCost &bc : pc.buffers) {
      Operation *at = bc.rom ? process.getOperation() : bc.op;
      at->emitRemark() << (bc.rom ? "rom " : "buffer ") << (bc.rom ? bc.name + " " : "")
                       << bc.elements << "x" << bc.width << "b banks=" << bc.banks
                       << " words=" << bc.wordsPerBank << " " << bc.storage
                       << " bram18k=" << bc.bram18k
                       << (bc.uram ? " uram=" + std::to_string(bc.uram) : std::string());
    }
    InFlightDiagnostic d = process.emitRemark();
    d << "process @" << process.getSymName() << ": cycles=" << pc.cycles
      << " first=" << pc.firstOutput << " dsp=" << pc.dsp << " bram18k=" << pc.bram18k
      << " pre=" << pc.pre << " tail=" << pc.tail;
    if (pc.uram)
      d << " uram=" << pc.uram;
    for (const std::string &note : pc.notes)
      d << " [" << note << "]";
    // Per stream port, what the graph latency takes from the producers' pace
    // (docs/cost-model.md, "Graph latency").
    if (!pc.fillElements.empty()) {
      InFlightDiagnostic p = process.emitRemark();
      p << "ports @" << process.getSymName() << ":";
      for (size_t i = 0; i < pc.fillElements.size(); ++i)
        p << " in" << i << " tail=" << pc.tailIn[i] << " fill=" << pc.fillElements[i] << "/"
          << pc.inElements[i] << "@" << pc.fillTime[i] << " rate=" << pc.pullCycles[i] << ";";
      for (const cost::Burst &b : pc.bursts)
        if (b.elements)
          p << " out" << b.out << " after in" << b.in << "=" << b.elements << " lead=" << b.lead
            << ";";
      for (auto [o, trail] : llvm::enumerate(pc.trailOut))
        if (trail)
          p << " out" << o << " trail=" << trail << ";";
    }
  }
};

} // namespace
