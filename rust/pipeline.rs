//! The pass pipelines of `ming-opt --hls` and which of them a module still
//! needs. Stage A lowers linalg to the dataflow graph (dfg), stage B lowers
//! the graph to emitHLS; the input may enter at any level, so hand-written
//! dfg or emitHLS runs through the rest of the flow unchanged.
use crate::ir::{names, op_name, top_level_ops};
use melior::{
    ir::{operation::OperationLike, Module},
    pass::PassManager,
    utility::parse_pass_pipeline,
    Context,
};
use std::fmt;

/// Stage A: named linalg ops become generics (the kernel analysis reads
/// generics), then every op becomes a process of one dfg.graph.
pub const LINALG_TO_DFG: &str =
    "builtin.module(func.func(linalg-generalize-named-ops,ming-fold-constants),convert-linalg-to-dfg,canonicalize,cse)";

/// Stage A for the function `top` (--top), or the module's only one; with
/// `gather_windows` false, convolutions stay whole windows.
pub fn linalg_to_dfg(top: Option<&str>, gather_windows: bool) -> String {
    let mut options = Vec::new();
    if let Some(name) = top {
        options.push(format!("top={name}"));
    }
    if !gather_windows {
        options.push("gather-windows=false".to_string());
    }
    if options.is_empty() {
        return LINALG_TO_DFG.to_string();
    }
    LINALG_TO_DFG.replace("convert-linalg-to-dfg,", &format!("convert-linalg-to-dfg{{{}}},", options.join(" ")))
}

/// Whether `name` can go into a pass option unquoted: what --top accepts.
pub fn valid_top(name: &str) -> bool {
    !name.is_empty() && name.chars().all(|c| c.is_ascii_alphanumeric() || "_.$-".contains(c))
}

/// Between the stages, with --reassociate-float: the float sums of the
/// processes may be added as trees (the DSE then times them so).
pub const MARK_FLOAT_SUMS: &str = "builtin.module(ming-mark-float-sums)";

/// Stage B: the marked float sums that the DSE left unrolled written as
/// trees, then one emitHLS function per process plus the DATAFLOW top, its
/// m_axi ports allowed to widen to `axi_bits` (the board's memory ports).
pub fn dfg_to_emithls(axi_bits: u32) -> String {
    format!("builtin.module(ming-float-trees,convert-dfg-to-emithls{{axi-bits={axi_bits}}})")
}

/// The unit attribute that marks the emitHLS top function.

/// How far down a module already is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Level {
    /// Anything else: linalg on tensors (stage A and B still to run).
    Linalg,
    /// Holds a dfg.graph (stage B to run).
    Dfg,
    /// Holds an emitHLS.func marked `ming.top` (ready to translate).
    EmitHls,
}

/// A pipeline that does not parse or fails; MLIR has printed the located
/// diagnostics of a failing pass already.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PipelineError {
    pub pipeline: String,
    pub message: String,
}

impl fmt::Display for PipelineError {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        write!(f, "{} (pipeline '{}')", self.message, self.pipeline)
    }
}

impl std::error::Error for PipelineError {}


/// The level of `module`: an emitHLS top wins over a graph, a graph over the rest.
pub fn level(module: &Module) -> Level {
    let ops = top_level_ops(module);
    if ops.iter().any(|op| op_name(op) == "emitHLS.func" && op.has_attribute(names::TOP)) {
        Level::EmitHls
    } else if ops.iter().any(|op| op_name(op) == "dfg.graph") {
        Level::Dfg
    } else {
        Level::Linalg
    }
}

/// Runs `pipeline` (anchored on builtin.module) on `module`, verifying after each pass.
pub fn run(context: &Context, module: &mut Module, pipeline: &str) -> Result<(), PipelineError> {
    let pm = PassManager::new(context);
    pm.enable_verifier(true);
    // The top-level OpPassManager of a PassManager is the PassManager itself.
    crate::bridge::ffi::instrument_pass_manager(pm.as_operation_pass_manager().to_raw().ptr as usize);
    let error = |message: String| PipelineError { pipeline: pipeline.to_string(), message };
    parse_pass_pipeline(pm.as_operation_pass_manager(), pipeline)
        .map_err(|e| error(format!("the pipeline does not parse: {e}")))?;
    log::info!("running {pipeline}");
    pm.run(module).map_err(|_| error("a pass failed".to_string()))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse<'c>(context: &'c Context, source: &str) -> Module<'c> {
        Module::parse(context, source).expect("test input parses")
    }

    #[test]
    fn levels() {
        let context = crate::mlir::context();
        let linalg = parse(&context, "func.func @f(%a: tensor<4xi8>) -> tensor<4xi8> { return %a : tensor<4xi8> }");
        assert_eq!(level(&linalg), Level::Linalg);
        let dfg = parse(&context, "dfg.process @p(%m: memref<2xi8>) {}\ndfg.graph @g(%m: memref<2xi8>) { dfg.instantiate @p(%m) : memref<2xi8> }");
        assert_eq!(level(&dfg), Level::Dfg);
        // Without ming.top an emitHLS function is not a design yet.
        let plain = parse(&context, "emitHLS.func @f() { emitHLS.return }");
        assert_eq!(level(&plain), Level::Linalg);
        let top = parse(&context, "emitHLS.func @f() attributes {ming.top} { emitHLS.return }");
        assert_eq!(level(&top), Level::EmitHls);
    }

    #[test]
    fn pipelines_parse() {
        let context = crate::mlir::context();
        for p in [LINALG_TO_DFG.to_string(), dfg_to_emithls(128), linalg_to_dfg(Some("my-net.v2"), true), linalg_to_dfg(Some("n"), false)] {
            let pm = PassManager::new(&context);
            assert!(parse_pass_pipeline(pm.as_operation_pass_manager(), &p).is_ok(), "{p}");
        }
        assert!(linalg_to_dfg(Some("net"), true).contains("convert-linalg-to-dfg{top=net},"));
        assert!(linalg_to_dfg(Some("net"), false).contains("convert-linalg-to-dfg{top=net gather-windows=false},"));
        assert!(linalg_to_dfg(None, false).contains("convert-linalg-to-dfg{gather-windows=false},"));
    }

    #[test]
    fn top_names() {
        for ok in ["net", "my-net.v2", "_f$1"] {
            assert!(valid_top(ok), "{ok}");
        }
        for bad in ["", "a b", "x}", "f{top=y}", "\"q\"", "a,b"] {
            assert!(!valid_top(bad), "{bad}");
        }
    }
}
