//! One struct per op or directive the Rust side reads, each read once from
//! the IR with its errors named: translate, sim and project use these
//! instead of looking attributes up by string.
use super::{int_attr, names, op_name};
use melior::ir::{attribute::StringAttribute, operation::OperationLike, OperationRef};

/// What is wrong with an op a view cannot read.
pub type ViewError = String;

/// An integer attribute that may be absent but must be an integer if present.
pub fn optional_int(op: &OperationRef, name: &str) -> Result<Option<i64>, ViewError> {
    match op.attribute(name) {
        Err(_) => Ok(None),
        Ok(a) => melior::ir::attribute::IntegerAttribute::try_from(a)
            .map(|i| Some(i.value()))
            .map_err(|_| format!("attribute '{name}' of '{}' is not an integer", op_name(op))),
    }
}

/// An integer attribute the op must have.
pub fn required_int(op: &OperationRef, name: &str) -> Result<i64, ViewError> {
    optional_int(op, name)?.ok_or_else(|| format!("'{}' has no '{name}' attribute", op_name(op)))
}

fn optional_string(op: &OperationRef, name: &str, what: &str) -> Result<Option<String>, ViewError> {
    match op.attribute(name) {
        Err(_) => Ok(None),
        Ok(a) => StringAttribute::try_from(a).map(|s| Some(s.value().to_string())).map_err(|_| format!("{what} is not a string")),
    }
}

/// `emitHLS.for`: a counted loop with constant bounds and an optional label.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ForOp {
    pub lower: i64,
    pub upper: i64,
    pub step: i64,
    pub label: Option<String>,
}

impl ForOp {
    pub fn read(op: &OperationRef) -> Result<ForOp, ViewError> {
        Ok(ForOp {
            lower: required_int(op, "lowerBound")?,
            upper: required_int(op, "upperBound")?,
            step: required_int(op, "step")?,
            label: optional_string(op, "label", "the loop label")?,
        })
    }

    /// (lower, upper, step).
    pub fn bounds(&self) -> (i64, i64, i64) {
        (self.lower, self.upper, self.step)
    }
}

/// `emitHLS.stream`: a FIFO declaration and the name reports print.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StreamOp {
    pub name: Option<String>,
}

impl StreamOp {
    pub fn read(op: &OperationRef) -> Result<StreamOp, ViewError> {
        Ok(StreamOp { name: optional_string(op, names::NAME, "'ming.name'")? })
    }
}

/// `emitHLS.pragma.stream`: the depth of a stream.
pub fn stream_depth(op: &OperationRef) -> Option<i64> {
    int_attr(op, "depth")
}

/// The directives and the DSE's timing of an `scf.for` in a dfg.process,
/// as the cycle-level simulator needs them: `#ming.loop`,
/// `#ming.loop_estimate` and `ming.flattened`, read by the `ming` dialect's
/// own accessors (cpp/Directives) through the bridge.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct LoopTiming {
    /// The requested II of a pipelined loop (None: not pipelined).
    pub pipeline_ii: Option<i64>,
    /// Copies of the body (1: not unrolled; 0: fully unrolled).
    pub unroll: i64,
    /// The II and depth the DSE's cost model found for the pipeline.
    pub estimate: Option<(i64, i64)>,
    /// A sequential loop Vitis flattens into the pipeline inside it.
    pub flattened: bool,
}

impl LoopTiming {
    pub fn of(op: &OperationRef) -> LoopTiming {
        let d = crate::bridge::ffi::loop_directives(op.to_raw().ptr as usize);
        LoopTiming {
            pipeline_ii: (d.ii > 0).then_some(d.ii),
            unroll: d.unroll,
            estimate: d.estimated.then_some((d.estimated_ii, d.estimated_depth)),
            flattened: d.flattened,
        }
    }
}
