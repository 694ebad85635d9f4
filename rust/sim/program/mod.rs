//! A process as the simulator runs it: the loop tree read from the IR
//! (`Body`, built by `ir.rs`) is unfolded once into a compact list of
//! pipeline slots (`Program`), run-length encoded so that a 224x224 layer
//! is a few hundred runs, not a million slots.
//!
//! Timing rules (docs/simulator.md):
//! - a pipelined loop issues one slot every II cycles; a slot is `unroll`
//!   consecutive iterations with every loop inside fully unrolled, spread
//!   over its II: iteration u of the slot starts at issue + floor(u * II /
//!   unroll) and pulls then; the slot's pushes happen at its last stage,
//!   issue + depth - 1, each iteration's as many cycles earlier as it
//!   started later (so that the first results leave early), and the slot
//!   completes at issue + depth;
//! - loops marked `ming.flattened` around a pipeline continue it: the
//!   first slot of the next outer iteration follows the last one by II;
//! - any other sequence of pipelines drains: the next pipeline starts `depth`
//!   cycles after the last issue of the previous one (at least the cycles
//!   its last slot's words take through a port, one a cycle), plus one cycle
//!   per iteration of a sequential loop around it (the cost model's `+1`);
//! - a sequential loop takes, per group of `unroll` iterations, the cycles
//!   the DSE found outside its inner loops (its estimate): a body without
//!   loops is one slot of that latency, the next group after it; otherwise
//!   they follow the group (1 without an estimate), less the straight-line
//!   I/O slots already taken; I/O outside any loop is a slot of depth 1.
//!
//! `body` holds the loop tree and its index arithmetic, `unfold` walks it
//! into the runs of slots of a `Program`, which this module defines.
mod body;
mod unfold;

pub use body::{eval, unknown_leaf, BinOp, Body, CmpPred, Expr, Loop, Port, Stmt, Timing};
pub use unfold::unfold;
use std::fmt;

/// Why a process cannot be simulated.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ProgramError {
    /// An `scf.if` condition or a loop bound depends on data.
    DataDependentControl { process: String, what: String },
    /// Something in the body the simulator does not model.
    Unsupported { process: String, what: String },
}

impl fmt::Display for ProgramError {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        match self {
            ProgramError::DataDependentControl { process, what } => {
                write!(f, "process '{process}' has data-dependent control ({what}): the simulator needs conditions and bounds of induction variables and constants")
            }
            ProgramError::Unsupported { process, what } => write!(f, "process '{process}': {what}"),
        }
    }
}

impl std::error::Error for ProgramError {}

/// Elements one iteration pulls and pushes, each in program order: (port,
/// elements), consecutive accesses to one port merged. The pipelined engine
/// takes them so: every pull at the iteration's issue, every push at its
/// last stage.
///
/// `parts` are the same accesses cut before every pull that follows a push,
/// each part's pulls before its pushes (empty when that is the whole
/// iteration). The C simulation blocks on each access in program order, so
/// an iteration that writes an output between two reads of a shared stream
/// (a window reading a forked bias inside its unrolled output loop) stops
/// at the write with the second read not taken; the check of the FIFO
/// depths against it runs the parts one after the other.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Io {
    pub pulls: Vec<(u32, u32)>,
    pub pushes: Vec<(u32, u32)>,
    pub parts: Vec<Io>,
}

impl Io {
    pub fn is_empty(&self) -> bool {
        self.pulls.is_empty() && self.pushes.is_empty()
    }

    /// The iteration as program-ordered parts, each pulling before it pushes.
    pub fn in_order(&self) -> Vec<Io> {
        if self.parts.is_empty() {
            vec![Io { pulls: self.pulls.clone(), pushes: self.pushes.clone(), parts: Vec::new() }]
        } else {
            self.parts.clone()
        }
    }
}

/// A run of `count` identical slots: the first issues `first_delay` cycles
/// after the previous slot of the process (after cycle 0 for the very
/// first), the others `delay` cycles after their predecessor. A slot's
/// iterations `iters` start `floor(u * ii / spread)` cycles after it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Run {
    pub count: u64,
    pub first_delay: u64,
    pub delay: u64,
    pub depth: u64,
    pub ii: u64,
    /// Iterations a full slot spreads over its II (the unroll factor).
    pub spread: u64,
    pub iters: Vec<Io>,
}

impl Run {
    pub fn has_io(&self) -> bool {
        self.iters.iter().any(|i| !i.is_empty())
    }

    /// Elements per slot, summed over its iterations.
    pub fn pulls(&self) -> Vec<(u32, u32)> {
        sum(self.iters.iter().map(|i| &i.pulls))
    }

    pub fn pushes(&self) -> Vec<(u32, u32)> {
        sum(self.iters.iter().map(|i| &i.pushes))
    }

    /// Cycles from the slot's issue to the start of iteration u.
    pub fn offset(&self, u: usize) -> u64 {
        u as u64 * self.ii / self.spread.max(1)
    }

    /// Cycles a slot takes at least to move its words: one word per cycle
    /// through each stream port (the cost model's port-limited last
    /// iteration).
    pub fn span(&self, ports: &[Port]) -> u64 {
        let words = |(p, n): (u32, u32)| {
            let lanes = match ports.get(p as usize) {
                Some(Port::In { lanes } | Port::Out { lanes }) => u64::from((*lanes).max(1)),
                _ => return 0,
            };
            u64::from(n).div_ceil(lanes)
        };
        self.pulls().into_iter().chain(self.pushes()).map(words).max().unwrap_or(0)
    }

    /// Cycles from an iteration's start to its pushes: the slot's last
    /// iteration pushes at the slot's last stage (issue + depth - 1), the
    /// others as many cycles earlier as they started.
    pub fn push_latency(&self) -> u64 {
        let last = self.offset(self.iters.len().saturating_sub(1));
        self.depth.saturating_sub(1 + last)
    }
}

fn sum<'a>(lists: impl Iterator<Item = &'a Vec<(u32, u32)>>) -> Vec<(u32, u32)> {
    let mut out: Vec<(u32, u32)> = Vec::new();
    for l in lists {
        for &(p, n) in l {
            match out.iter_mut().find(|(q, _)| *q == p) {
                Some((_, m)) => *m += n,
                None => out.push((p, n)),
            }
        }
    }
    out.sort();
    out
}

/// The timing of slots pushed together.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Pace {
    pub first_delay: u64,
    pub delay: u64,
    pub depth: u64,
    pub ii: u64,
    pub spread: u64,
}

/// A process ready to simulate.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Program {
    pub process: String,
    pub ports: Vec<Port>,
    pub runs: Vec<Run>,
}

impl Program {
    pub fn new(process: &str, ports: Vec<Port>) -> Self {
        Program { process: process.to_string(), ports, runs: Vec::new() }
    }

    /// Appends `count` slots of iterations `iters`, merging with the last run
    /// when they continue it.
    pub fn push(&mut self, count: u64, pace: Pace, iters: &[Io]) {
        if count == 0 {
            return;
        }
        let Pace { first_delay, delay, depth, ii, spread } = pace;
        if let Some(last) = self.runs.last_mut() {
            let same = last.depth == depth && last.ii == ii && last.spread == spread && last.iters == iters;
            if same && first_delay == last.delay && (count == 1 || delay == last.delay) {
                last.count += count;
                return;
            }
            if same && last.count == 1 && first_delay == delay {
                // A lone slot followed by a run of its kind: one run.
                last.count += count;
                last.delay = delay;
                return;
            }
        }
        let delay = if count == 1 { first_delay } else { delay };
        self.runs.push(Run { count, first_delay, delay, depth, ii, spread, iters: iters.to_vec() });
    }

    pub fn slots(&self) -> u64 {
        self.runs.iter().map(|r| r.count).sum()
    }

    /// Cycles of the process alone, never stalled: the last slot's completion.
    pub fn cycles_alone(&self) -> u64 {
        let mut issue = 0u64;
        let mut end = 0;
        for r in &self.runs {
            issue += r.first_delay;
            issue += r.delay * (r.count - 1);
            end = issue + r.depth.max(r.span(&self.ports));
        }
        end
    }
}
