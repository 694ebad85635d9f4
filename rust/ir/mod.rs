//! Typed access to ming's IR from Rust. melior reaches the IR through MLIR's
//! C API, which knows op names and builtin attributes but not our ops: the
//! views here read them once, by name, so that translate, sim and project
//! work with Rust structs (`views::ForOp::bounds`, `views::LoopTiming`,
//! `graph::Graph`) instead of op-name strings.
//! - `names`: the `ming.*` attribute names Rust reads (the vocabulary is
//!   the `ming` dialect's, cpp/include/ming/Directives/Directives.h);
//! - `views`: one struct per op or directive Rust reads;
//! - `types`: C++ spellings of MLIR types;
//! - `graph`: the dataflow graph (instances, memories, channels).
pub mod graph;
pub mod types;
pub mod views;

use melior::ir::{
    attribute::{IntegerAttribute, StringAttribute},
    block::BlockLike,
    operation::OperationLike,
    Module, OperationRef, Value, ValueLike,
};

/// The names of the plain `ming.*` attributes Rust reads (the whole
/// vocabulary, with the `ming` dialect's typed values such as `#ming.loop`,
/// is declared in cpp/include/ming/Directives/Directives.h; those typed
/// values are read through the bridge, e.g. `views::LoopTiming`).
pub mod names {
    /// The emitHLS.func (or dfg.graph) that is the design's top.
    pub const TOP: &str = "ming.top";
    /// How many of the top's arguments are inputs (the rest are outputs).
    pub const NUM_INPUTS: &str = "ming.num_inputs";
    /// A channel's or stream's name (graph.dot, deadlock reports).
    pub const NAME: &str = "ming.name";
    /// The kernel class of an emitHLS function made from a process.
    pub const KIND: &str = "ming.kind";
}

/// The ops directly in the module body.
pub fn top_level_ops<'c, 'a>(module: &'a Module<'c>) -> Vec<OperationRef<'c, 'a>> {
    let mut ops = Vec::new();
    let mut next = module.body().first_operation();
    while let Some(op) = next {
        next = op.next_in_block();
        ops.push(op);
    }
    ops
}

pub fn op_name(op: &OperationRef) -> String {
    op.name().as_string_ref().as_str().map(str::to_string).unwrap_or_default()
}

/// An SSA value's identity, for maps keyed by value.
pub fn key(v: Value) -> usize {
    v.to_raw().ptr as usize
}

/// An integer attribute's value (None when absent or not an integer).
pub fn int_attr(op: &OperationRef, name: &str) -> Option<i64> {
    IntegerAttribute::try_from(op.attribute(name).ok()?).ok().map(|i| i.value())
}

/// A string attribute's value (None when absent or not a string).
pub fn str_attr(op: &OperationRef, name: &str) -> Option<String> {
    let a = op.attribute(name).ok()?;
    Some(StringAttribute::try_from(a).ok()?.value().to_string())
}

/// The symbol a call or instance refers to, without its `@`.
pub fn callee(op: &OperationRef) -> String {
    op.attribute("callee").map(|a| a.to_string().trim_start_matches('@').to_string()).unwrap_or_default()
}
