// Declarations the cxx bridge (rust/bridge.rs) binds to; see cpp/Bridge.
#ifndef MING_BRIDGE_H
#define MING_BRIDGE_H

#include "ming/DSE/Session.h"
#include "rust/cxx.h"
#include <cstddef>
#include <cstdint>
#include <memory>

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
/// The DSE session Rust holds (opaque to it).
struct DseSession {
  std::unique_ptr<dse::Session> session;
};
std::unique_ptr<DseSession> dse_open(size_t module, int64_t max_lanes, bool pack_int8,
                                     rust::Str target, int64_t axi_bits,
                                     int64_t dsp_limit);
DseProblem dse_problem(const DseSession &session);
rust::String dse_describe(const DseSession &session, uint32_t node, uint32_t index);
DseEstimate dse_apply(DseSession &session, rust::Slice<const size_t> choice, rust::Str status,
                      rust::Str objective);
struct DseRequest;
struct DseExplored;
DseExplored dse_explore(DseSession &session, const DseRequest &request);
DseEstimate dse_estimate(size_t module, rust::Str target, int64_t axi_bits);
rust::String builtin_target();
rust::String check_target(rust::Str path);
void register_dse_solver();
struct LoopDirectives;
LoopDirectives loop_directives(size_t op);
} // namespace ming::bridge

#endif
