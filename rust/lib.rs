//! ming: CNN linalg -> streaming dataflow (dfg) -> emitHLS -> Vitis HLS C++.
//! The Rust side drives the flow; dialects and passes live in the C++ shared
//! library libMingPasses.so (cpp/), reached through the cxx bridge.
pub mod board;
pub mod bridge;
pub mod cli;
pub mod dse;
pub mod flow;
pub mod frontend;
pub mod ir;
pub mod logger;
pub mod mlir;
pub mod pipeline;
pub mod progress;
pub mod project;
pub mod sim;
pub mod translate;

/// Makes the HiGHS ILP (`dse`) the solver of every ming-dse pass in this
/// process. libMingPasses.so calls it when the pass runs inside mlir-opt,
/// which loads only the C++ plugin (cpp/DSE/SolverLibrary.cpp).
#[no_mangle]
pub extern "C" fn ming_register_dse_solver() {
    bridge::ffi::register_dse_solver();
}
