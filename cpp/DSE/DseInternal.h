// What the files of cpp/DSE share inside the library: a configuration with
// its cost (a Point), the candidates offered per process, writing a chosen
// configuration into the IR, and the figures the solver and the report see.
#ifndef MING_DSE_DSEINTERNAL_H
#define MING_DSE_DSEINTERNAL_H

#include "ming/Analysis/CostModel.h"
#include "ming/DSE/Session.h"
#include "ming/Dfg/Dfg.h"
#include "ming/Directives/Directives.h"

#include <map>
#include <string>
#include <vector>

namespace ming::dse {

/// One configuration of a process and the cost model's answer for it.
struct Point {
  cost::ProcessConfig config;
  cost::ProcessCost cost;
  /// The configuration is of the process after int8 packing
  /// (ming/Transforms/PackInt8.h): apply packs it before writing `config`.
  bool pack = false;
};

/// Lanes of a stream port type (0 for anything else).
int64_t portLanes(mlir::Type t);

/// The configurations the ILP is offered for `process` (Candidates.cpp):
/// the cost model's unroll and lane choices, the same at requested IIs
/// 2, 4, ..., each pipeline moved down to every loop nested in it, and the
/// IR's own directives, filtered to the Pareto-optimal ones.
std::vector<Point> offeredCandidates(dfg::ProcessOp process, const Options &options,
                                     const cost::CostOptions &cost);

/// A copy of `process` beside it with its int8 multiplies packed two per
/// DSP, whose offeredCandidates are the packed candidates (the caller
/// erases it); null when packing is off or nothing packs.
dfg::ProcessOp packedCopy(dfg::ProcessOp process, const Options &options);

/// Drops what points into the IR the points were estimated on (loops,
/// buffers), so they can serve another process: apply estimates the chosen
/// point again on its own process.
void detach(std::vector<Point> &points);

/// The candidates (offered and packed, detached) of each of `processes`,
/// by process name (Enumerate.cpp): one enumeration per structure, the
/// structures in parallel. `reused` counts the processes that took the
/// candidates of an earlier one of the same structure.
std::map<std::string, std::vector<Point>> candidatesOnce(mlir::ArrayRef<dfg::ProcessOp> processes,
                                                        const Options &options,
                                                        const cost::CostOptions &cost,
                                                        unsigned &reused);

/// Writes `cfg` (whose estimate is `c`) into `process`: loop directives and
/// the cyclic partitioning the model assumed (Apply.cpp).
void writeConfig(dfg::ProcessOp process, const cost::ProcessConfig &cfg,
                 const cost::ProcessCost &c);

/// Retypes argument `arg` of `process` to `lanes` lanes.
void retypePort(dfg::ProcessOp process, unsigned arg, int64_t lanes);

/// The II of the pipelined loop that takes longest (0: none).
int64_t mainII(const cost::ProcessCost &c);

/// #ming.estimate of `c` on the process, #ming.loop_estimate and
/// ming.flattened on its loops, for the
/// report and the cycle-level simulator.
void recordAttrs(dfg::ProcessOp process, const cost::ProcessCost &c);

/// The instances of a graph in body order with their processes, and how
/// many instances each process has (Figures.cpp, like what follows).
struct Instances {
  llvm::SmallVector<dfg::InstantiateOp> ops;
  llvm::SmallVector<dfg::ProcessOp> processes;
  std::map<std::string, unsigned> count;
};

mlir::FailureOr<Instances> instances(dfg::GraphOp graph, std::string &error);

/// The graph of the module (the one marked ming.top when there are several).
mlir::FailureOr<dfg::GraphOp> findGraph(mlir::Operation *moduleOp, std::string &error);

/// The kind of `process` in words ("" without one).
std::string kindName(dfg::ProcessOp process);

/// A configuration in words, for logs.
std::string printConfig(const cost::ProcessConfig &cfg);

/// A point in words, for logs: its configuration and whether it packs.
std::string printPoint(const Point &p);

/// BRAM18Ks of channel `ch` at `depth` words of `lanes` elements.
int64_t fifoBram18k(dfg::ChannelOp ch, int64_t depth, int64_t lanes,
                    const cost::CostOptions &cost);

/// The figures of `p` the solver sees.
Candidate figures(dfg::ProcessOp process, const Point &p);

/// The figures of report.json for the graph with the given process costs.
Estimate summarize(dfg::GraphOp graph, const Instances &insts,
                   const std::map<std::string, cost::ProcessCost> &costs,
                   const cost::CostOptions &options);

} // namespace ming::dse

#endif
