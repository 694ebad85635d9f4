// The ILP for processes that did not register one. ming-opt registers its
// HiGHS ILP (rust/dse) at start-up; inside mlir-opt-22 the plugin has none,
// so the first ming-dse pass loads the same Rust code from libming.so, which
// cargo builds beside ming-opt (target/<profile>/libming.so, two levels above
// this library's cmake/lib), and calls its registration entry point. One ILP
// formulation, whichever process runs the pass.
#include "DseInternal.h"

#include <dlfcn.h>
#include <string>

namespace ming::dse {

/// The directory of the library (or binary) this code was loaded from.
static std::string ownDirectory() {
  Dl_info info;
  if (!dladdr(reinterpret_cast<void *>(&ownDirectory), &info) || !info.dli_fname)
    return "";
  std::string path = info.dli_fname;
  size_t slash = path.rfind('/');
  return slash == std::string::npos ? "." : path.substr(0, slash);
}

const Solver &loadSolver(std::string &why) {
  const Solver &solver = getSolver();
  if (solver)
    return solver;
  std::string library = ownDirectory() + "/../../libming.so";
  void *handle = dlopen(library.c_str(), RTLD_NOW | RTLD_GLOBAL);
  if (!handle) {
    const char *error = dlerror();
    why = "this process has no ILP solver and the one in " + library +
          " could not be loaded (" + (error ? error : "unknown error") +
          "); build ming with cargo, or give the choice with choice=<index of every instance>";
    return solver;
  }
  using Register = void (*)();
  auto registerSolver = reinterpret_cast<Register>(dlsym(handle, "ming_register_dse_solver"));
  if (!registerSolver) {
    why = library + " has no entry point ming_register_dse_solver";
    return solver;
  }
  registerSolver();
  if (!getSolver())
    why = library + " registered no solver";
  return getSolver();
}

} // namespace ming::dse
