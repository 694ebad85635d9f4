// Crash reports: see ming/Support/CrashReport.h.
#include "ming/Support/CrashReport.h"

#include "mlir/IR/Operation.h"
#include "mlir/Pass/Pass.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/Support/PrettyStackTrace.h"
#include "llvm/Support/Signals.h"
#include "llvm/Support/raw_ostream.h"

#include <unistd.h>
#include <vector>

using namespace mlir;

namespace ming::crash {
namespace {

/// What one thread is doing, innermost last. Written only by its own thread;
/// read by the signal handler, which runs on the crashing thread.
struct Frame {
  const char *kind; // "pass" or what a Scope does
  std::string pass; // pass argument (kind == "pass")
  Operation *op;
};
thread_local std::vector<Frame> frames;

struct Instrumentation : PassInstrumentation {
  void runBeforePass(Pass *pass, Operation *op) override {
    StringRef arg = pass->getArgument();
    frames.push_back({"pass", (arg.empty() ? pass->getName() : arg).str(), op});
  }
  void runAfterPass(Pass *, Operation *) override { pop(); }
  void runAfterPassFailed(Pass *, Operation *) override { pop(); }
  static void pop() {
    if (!frames.empty())
      frames.pop_back();
  }
};

void describe(llvm::raw_ostream &os, Operation *op) {
  os << "'" << op->getName() << "' at ";
  op->getLoc().print(os);
}

/// Runs after LLVM's stack trace (handlers run in the order they were added).
void onCrash(void *) {
  llvm::raw_fd_ostream &os = llvm::errs();
  os << "\nming-opt: internal error: ming-opt crashed";
  const Frame *pass = nullptr;
  for (const Frame &f : frames)
    if (std::string_view(f.kind) == "pass")
      pass = &f;
  if (pass) {
    os << " in pass '" << pass->pass << "' on ";
    describe(os, pass->op);
  }
  os << "\n";
  for (const Frame &f : llvm::reverse(frames))
    if (std::string_view(f.kind) != "pass") {
      os << "  while " << f.kind << " ";
      describe(os, f.op);
      os << "\n";
    }
  os << "ming-opt: this is a bug in ming, not in the input; please report it with the "
        "input and the command line (exit status "
     << kInternalErrorExit << ")\n";
  os.flush();
  _exit(kInternalErrorExit);
}

} // namespace

void install() {
  static bool done = [] {
    llvm::sys::PrintStackTraceOnErrorSignal("ming-opt");
    llvm::sys::AddSignalHandler(onCrash, nullptr);
    return true;
  }();
  (void)done;
}

void instrument(PassManager &pm) { pm.addInstrumentation(std::make_unique<Instrumentation>()); }

// The top-level OpPassManager of a PassManager (mlirPassManagerGetAsOpPassManager):
// PassManager derives from OpPassManager.
void instrumentOpaque(void *passManager) {
  instrument(*static_cast<PassManager *>(static_cast<OpPassManager *>(passManager)));
}

Scope::Scope(Operation *op, const char *what) { frames.push_back({what, {}, op}); }
Scope::~Scope() { Instrumentation::pop(); }

} // namespace ming::crash
