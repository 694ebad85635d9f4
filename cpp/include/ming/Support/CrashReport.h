// An internal fault is still a diagnostic: a crash (signal, assertion,
// LLVM fatal error) inside ming-opt prints which pass ran on which operation
// and ends the process with kInternalErrorExit, apart from rejected input
// (exit 1). See README, "Exit status".
#ifndef MING_SUPPORT_CRASHREPORT_H
#define MING_SUPPORT_CRASHREPORT_H

// No MLIR header: the cxx bridge includes this.

namespace mlir {
class Operation;
class PassManager;
} // namespace mlir

namespace ming::crash {

/// The exit status of an internal error (sysexits' EX_SOFTWARE).
constexpr int kInternalErrorExit = 70;

/// Installs the signal handler (once per process): LLVM's stack trace, then
/// the pass and operation being worked on, then exit kInternalErrorExit.
void install();

/// Records, per thread, the pass running and the operation it runs on.
void instrument(mlir::PassManager &pm);
/// The same for an MlirPassManager's pointer (the Rust driver's pass managers).
void instrumentOpaque(void *passManager);

/// While alive, names `op` (and `what` is done to it) in a crash report:
/// finer than the pass's anchor, e.g. the linalg op being lowered.
class Scope {
public:
  Scope(mlir::Operation *op, const char *what);
  ~Scope();
  Scope(const Scope &) = delete;
  Scope &operator=(const Scope &) = delete;
};

} // namespace ming::crash

#endif
