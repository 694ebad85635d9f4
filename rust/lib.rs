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
