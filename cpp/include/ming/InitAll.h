// Registration of ming's dialects and passes, shared by ming-opt and the
// mlir-opt plugin.
#ifndef MING_INITALL_H
#define MING_INITALL_H

#include <string>
#include <vector>

namespace mlir {
class DialectRegistry;
}

namespace ming {
/// Adds the dfg and emitHLS dialects.
void registerDialects(mlir::DialectRegistry &registry);
/// Registers every ming pass in MLIR's global pass registry (idempotent).
void registerPasses();
/// Command-line names of ming's own passes, for help output.
std::vector<std::string> passNames();
} // namespace ming

#endif
