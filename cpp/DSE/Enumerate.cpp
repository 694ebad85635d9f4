// Enumerating the candidates of a graph's processes: once per structure
// (a network's repeated blocks are layers of one shape with other weights),
// the structures in parallel on the context's threads. The cost model only
// reads the IR, so the estimates may run side by side; the packed copies
// they read are made before and erased after.
#include "DseInternal.h"

#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Threading.h"
#include "llvm/Support/MathExtras.h"
#include "llvm/Support/raw_ostream.h"

#include <cctype>
#include <map>

using namespace mlir;

namespace ming::dse {

/// The structure of `process` with its name, the names of the symbols it
/// refers to (numbered in order of appearance) and the values of its
/// non-splat constants left out. Layers of one shape (a network's repeated
/// blocks) share a key, and share their candidates: the cost model reads
/// types, loops and accesses, never a weight.
static std::string structureKey(dfg::ProcessOp process) {
  std::string text;
  {
    llvm::raw_string_ostream os(text);
    OpPrintingFlags flags;
    flags.elideLargeElementsAttrs(0).useLocalScope();
    process->print(os, flags);
  }
  std::string key;
  key.reserve(text.size());
  std::map<std::string, unsigned> symbols;
  auto symbolChar = [](char c) { return std::isalnum((unsigned char)c) || c == '_' || c == '$' || c == '.' || c == '-'; };
  for (size_t i = 0; i < text.size();) {
    bool quoted = text.compare(i, 2, "@\"") == 0;
    bool resource = text.compare(i, 15, "dense_resource<") == 0;
    if (text[i] != '@' && !resource) {
      key += text[i++];
      continue;
    }
    size_t start = i + (resource ? 15 : quoted ? 2 : 1), end = start;
    if (quoted)
      end = text.find('"', start);
    else
      while (end < text.size() && symbolChar(text[end]))
        ++end;
    if (end == std::string::npos)
      end = text.size();
    std::string name = text.substr(start, end - start);
    if (name == process.getSymName() && !resource) {
      key += "@self";
    } else {
      auto [it, fresh] = symbols.try_emplace(name, symbols.size());
      key += (resource ? "dense_resource<" : "@") + std::to_string(it->second);
    }
    i = end + (quoted ? 1 : 0);
  }
  return key;
}

/// The iterations of every loop of `process`, each counted with the trip
/// counts of the loops around it (a loop of unknown trip count as one).
static uint64_t iterations(dfg::ProcessOp process) {
  uint64_t total = 0;
  process.getBody().walk([&](scf::ForOp loop) {
    uint64_t product = 1;
    for (Operation *op = loop; op && op != process.getOperation(); op = op->getParentOp())
      if (auto around = dyn_cast<scf::ForOp>(op))
        if (std::optional<APInt> trip = around.getStaticTripCount())
          product = llvm::SaturatingMultiply(product, std::max<uint64_t>(1, trip->getZExtValue()));
    total = llvm::SaturatingAdd(total, product);
  });
  return total;
}

std::map<std::string, std::vector<Point>> candidatesOnce(ArrayRef<dfg::ProcessOp> processes,
                                                        const Options &options,
                                                        const cost::CostOptions &costOptions,
                                                        unsigned &reused) {
  struct Job {
    dfg::ProcessOp process, packed;
    std::vector<Point> plain, packedPoints;
  };
  std::map<std::string, size_t> jobOf;     // structure -> job
  std::map<std::string, size_t> jobOfName; // process -> job
  std::vector<Job> jobs;
  for (dfg::ProcessOp process : processes) {
    std::string name = process.getSymName().str();
    auto [it, fresh] = jobOf.try_emplace(structureKey(process), jobs.size());
    jobOfName[name] = it->second;
    if (!fresh) {
      ++reused;
      continue;
    }
    jobs.push_back({process, packedCopy(process, options), {}, {}});
  }
  // One task per process and packing, the longest first: the threads take
  // tasks in order, and a window that takes seconds taken last would leave
  // the other thread idle. The iterations a process walks (its loop nests'
  // trip counts) stand for the time its estimates take.
  struct Task {
    size_t job;
    bool packed;
    uint64_t weight;
  };
  std::vector<Task> tasks;
  for (auto [j, job] : llvm::enumerate(jobs)) {
    uint64_t weight = iterations(job.process);
    tasks.push_back({j, false, weight});
    if (job.packed)
      tasks.push_back({j, true, weight});
  }
  llvm::stable_sort(tasks, [](const Task &a, const Task &b) { return a.weight > b.weight; });
  MLIRContext *ctx = jobs.empty() ? nullptr : jobs.front().process.getContext();
  if (ctx)
    parallelFor(ctx, 0, tasks.size(), [&](size_t k) {
      Job &job = jobs[tasks[k].job];
      if (tasks[k].packed)
        job.packedPoints = offeredCandidates(job.packed, options, costOptions);
      else
        job.plain = offeredCandidates(job.process, options, costOptions);
    });
  for (Job &job : jobs) {
    if (job.packed)
      job.packed.erase();
    for (Point &p : job.packedPoints)
      p.pack = true;
    job.plain.insert(job.plain.end(), std::make_move_iterator(job.packedPoints.begin()),
                     std::make_move_iterator(job.packedPoints.end()));
    detach(job.plain);
  }
  std::map<std::string, std::vector<Point>> out;
  for (auto &[name, j] : jobOfName)
    out[name] = jobs[j].plain;
  return out;
}

} // namespace ming::dse
