// ming-dse: the DSE as a pass (td/ming/Transforms/Passes.td). Opens a
// session on the module's graph and explores it with the registered solver
// (Session::explore), or applies the `choice` option's indices.
#include "ming/DSE/Session.h"
#include "ming/Dfg/Dfg.h"
#include "ming/Transforms/Passes.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/SymbolTable.h"

namespace ming {
#define GEN_PASS_DEF_DSE
#include "ming/Transforms/Passes.h.inc"
} // namespace ming

using namespace mlir;

namespace {
/// Where a module-level error points: the module's first operation (an
/// implicit module's location is line 0 of the file).
Location where(ModuleOp module) {
  if (module.getBody()->empty())
    return module.getLoc();
  return module.getBody()->front().getLoc();
}

struct DsePass : ming::impl::DseBase<DsePass> {
  using DseBase::DseBase;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    if (dsp < 0 || bram < 0) {
      emitError(where(module)) << "ming-dse needs the board's limits: dsp=<DSP48E2 slices> "
                            "bram=<BRAM18K blocks>";
      return signalPassFailure();
    }
    if (objective != "dataflow" && objective != "sum") {
      emitError(where(module)) << "ming-dse: unknown objective '" << objective
                         << "' (dataflow or sum)";
      return signalPassFailure();
    }
    ming::dse::Options options;
    options.maxLanes = std::max<int64_t>(1, maxLanes);
    options.dspLimit = dsp;
    options.packInt8 = packInt8;
    options.targetFile = target;
    std::string error;
    std::unique_ptr<ming::dse::Session> session =
        ming::dse::Session::open(module.getOperation(), options, error);
    if (!session) {
      emitError(where(module)) << "ming-dse: " << error;
      return signalPassFailure();
    }
    Operation *graph = SymbolTable::lookupSymbolIn(module, session->problem().graph);
    Location loc = graph ? graph->getLoc() : module.getLoc();

    if (!choice.empty()) {
      std::vector<size_t> indices;
      for (int64_t c : choice) {
        if (c < 0) {
          emitError(loc) << "ming-dse: choice " << c << " is not a candidate index";
          return signalPassFailure();
        }
        indices.push_back(size_t(c));
      }
      ming::dse::Estimate estimate = session->apply(indices, "given", objective);
      if (!estimate.error.empty()) {
        emitError(loc) << "ming-dse: " << estimate.error;
        return signalPassFailure();
      }
      return;
    }
    std::string why;
    const ming::dse::Solver &solver = ming::dse::loadSolver(why);
    if (!solver) {
      emitError(loc) << "ming-dse: " << why;
      return signalPassFailure();
    }
    ming::dse::Request request;
    request.dsp = dsp;
    request.bram18k = bram;
    request.uram = std::max<int64_t>(0, uram);
    request.objective = objective;
    request.timeLimit = timeLimit;
    request.lpIterations = std::max<int64_t>(0, lpIterations);
    ming::dse::Explored explored = session->explore(solver, request);
    if (!explored.error.empty()) {
      emitError(loc) << explored.error;
      return signalPassFailure();
    }
  }
};
} // namespace
