// Declarations the cxx bridge (rust/bridge.rs) binds to; see cpp/Bridge.
#ifndef MING_BRIDGE_H
#define MING_BRIDGE_H

#include "rust/cxx.h"
#include <cstddef>
#include <cstdint>

namespace ming::bridge {
struct OptRequest;
int32_t opt_main(const OptRequest &request);
bool is_pass_name(rust::Str name);
void print_pass_help();
rust::String find_parser_traps(rust::Str text, rust::Str name);
void register_in_context(size_t context);
void install_crash_handler();
void instrument_pass_manager(size_t pass_manager);
struct DseProblem;
struct DseEstimate;
DseProblem dse_candidates(size_t module, int64_t max_lanes);
DseEstimate dse_apply(size_t module, const rust::Vec<rust::String> &configs, rust::Str status,
                      rust::Str objective);
DseEstimate dse_estimate(size_t module);
} // namespace ming::bridge

#endif
