//! The cycle-level simulator of a dfg design: every process
//! instance a pipelined loop nest with the II, depth and unroll the DSE
//! chose, every channel a FIFO of its depth in words, reads and writes
//! blocking. See docs/simulator.md for the rules.
//!
//! `ir` reads the processes of a dfg module, `program` unfolds each into
//! slots once, `engine` runs all instances together, `minimize` shrinks the
//! FIFOs. This module ties them to the graph (ir::graph) and gives the
//! flat, name-resolved `Summary` the CLI and the report show.
pub mod engine;
pub mod ir;
pub mod minimize;
pub mod program;

use crate::ir::graph::{self, Graph, Operand};
use crate::ir::{op_name, str_attr, top_level_ops};
use engine::{ChannelSpec, Design, Instance, Outcome, WaitKind};
use melior::ir::{attribute::{AttributeLike, IntegerAttribute}, block::BlockLike, operation::OperationLike, operation::OperationMutLike, Module, RegionLike};
use std::collections::HashMap;
use std::fmt;
use std::time::Instant;

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SimError {
    /// The module's graph cannot be read.
    Graph(String),
    /// A process the simulator cannot run (e.g. data-dependent control).
    Program(program::ProgramError),
}

impl fmt::Display for SimError {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        match self {
            SimError::Graph(m) => write!(f, "simulator: {m}"),
            SimError::Program(e) => write!(f, "simulator: {e}"),
        }
    }
}

impl std::error::Error for SimError {}

/// The graph of a dfg module and the design the engine runs (instances and
/// channels in the graph's order).
pub fn prepare(module: &Module) -> Result<(Graph, Design), SimError> {
    let g = graph::from_dfg(module).map_err(SimError::Graph)?;
    let ops = top_level_ops(module);
    let mut design = Design::default();
    let mut program_of: HashMap<String, usize> = HashMap::new();
    for (node, b) in g.nodes.iter().zip(&g.bindings) {
        let program = match program_of.get(&b.process) {
            Some(&p) => p,
            None => {
                let op = ops
                    .iter()
                    .find(|op| op_name(op) == "dfg.process" && str_attr(op, "sym_name").as_deref() == Some(b.process.as_str()))
                    .ok_or_else(|| SimError::Graph(format!("no dfg.process '{}'", b.process)))?;
                let body = ir::read_process(op).map_err(SimError::Program)?;
                let prog = program::unfold(&body).map_err(SimError::Program)?;
                log::debug!("simulator: {}: {} slots in {} runs, {} cycles alone", b.process, prog.slots(), prog.runs.len(), prog.cycles_alone());
                design.programs.push(prog);
                program_of.insert(b.process.clone(), design.programs.len() - 1);
                design.programs.len() - 1
            }
        };
        let channels = b.operands.iter().map(|o| if let Operand::Channel(c) = o { Some(*c) } else { None }).collect();
        design.instances.push(Instance { name: node.name.clone(), program, channels });
    }
    design.channels = g.channels.iter().map(|c| ChannelSpec { name: c.name.clone(), depth: c.depth }).collect();
    Ok((g, design))
}

#[derive(Debug, Clone, PartialEq)]
pub struct ProcessSummary {
    pub name: String,
    /// Cycle of its last completion.
    pub finish: u64,
    /// Cycle of its first push (None: it pushes nothing).
    pub first_output: Option<u64>,
    pub busy: u64,
    pub starved: u64,
    pub blocked: u64,
}

#[derive(Debug, Clone, PartialEq)]
pub struct ChannelSummary {
    pub name: String,
    /// The depth the DSE (or the input) gave, and the one the design keeps.
    pub dse_depth: Option<u64>,
    pub depth: Option<u64>,
    /// Most words held at once (in the final design).
    pub peak: u64,
    /// Most words held with unbounded FIFOs (when minimisation ran).
    pub unbounded_peak: Option<u64>,
    /// Words written in the final run.
    pub words: u64,
    pub lanes: u64,
    pub bits: Option<u64>,
}

#[derive(Debug, Clone, PartialEq)]
pub struct WaitSummary {
    pub process: String,
    pub channel: String,
    /// "data" (reading an empty FIFO) or "space" (writing a full one).
    pub waits_for: &'static str,
    pub fill: u64,
    pub depth: Option<u64>,
}

#[derive(Debug, Clone, PartialEq)]
pub struct DeadlockSummary {
    pub cycle: u64,
    pub waiting: Vec<WaitSummary>,
    /// The processes of a wait-for cycle, in order (empty: none found).
    pub cycle_of: Vec<String>,
}

#[derive(Debug, Clone, PartialEq)]
pub struct MinimizeSummary {
    pub unbounded_cycles: u64,
    pub bound: u64,
    pub simulations: usize,
    /// FIFO bits (depth x lanes x element bits, all channels) before and after.
    pub bits_before: u64,
    pub bits_after: u64,
    pub bram18k_before: u64,
    pub bram18k_after: u64,
    /// Channels the simulation budget left at their starting depths.
    pub unsearched: usize,
}

/// What the simulator found, by name.
#[derive(Debug, Clone, PartialEq)]
pub struct Summary {
    /// Cycles of the design as written (after minimisation, if it ran).
    pub cycles: u64,
    /// Cycles with the depths the DSE gave.
    pub dse_depth_cycles: u64,
    pub processes: Vec<ProcessSummary>,
    pub channels: Vec<ChannelSummary>,
    pub deadlock: Option<DeadlockSummary>,
    pub minimize: Option<MinimizeSummary>,
    pub seconds: f64,
}

impl Summary {
    pub fn status(&self) -> &'static str {
        if self.deadlock.is_some() {
            "deadlock"
        } else {
            "ok"
        }
    }

    pub fn channel(&self, name: &str) -> Option<&ChannelSummary> {
        self.channels.iter().find(|c| c.name == name)
    }

    pub fn process(&self, name: &str) -> Option<&ProcessSummary> {
        self.processes.iter().find(|p| p.name == name)
    }
}

fn deadlock_summary(design: &Design, o: &Outcome) -> Option<DeadlockSummary> {
    let d = o.deadlock.as_ref()?;
    let waiting = d
        .waiting
        .iter()
        .map(|w| WaitSummary {
            process: design.instances[w.instance].name.clone(),
            channel: design.channels[w.channel].name.clone(),
            waits_for: match w.kind {
                WaitKind::Data => "data",
                WaitKind::Space => "space",
            },
            fill: w.fill,
            depth: design.channels[w.channel].depth,
        })
        .collect();
    let cycle_of = d.cycle_of.iter().map(|&i| design.instances[d.waiting[i].instance].name.clone()).collect();
    Some(DeadlockSummary { cycle: d.cycle, waiting, cycle_of })
}

/// Simulates the design of a dfg module with its channels' depths and, when
/// `minimize` and it does not deadlock, finds the least depths (not yet
/// written into the module: see `write_depths`), searching no channel once
/// `budget` simulations have run.
pub fn run(module: &Module, minimize: bool, budget: Option<usize>) -> Result<Summary, SimError> {
    let start = Instant::now();
    let (g, mut design) = prepare(module)?;
    let at_dse = engine::simulate(&design);
    let dse_depths: Vec<Option<u64>> = design.channels.iter().map(|c| c.depth).collect();
    let bits: Vec<Option<u64>> = g.channels.iter().map(|c| crate::ir::types::element_bits(&c.elem)).collect();
    let word_bits: Vec<u64> = g.channels.iter().zip(&bits).map(|(c, b)| c.lanes * b.unwrap_or(32)).collect();
    let mut final_outcome = at_dse.clone();
    let mut summary_min = None;
    let mut unbounded_peaks = None;
    if minimize && at_dse.deadlock.is_none() {
        let lanes: Vec<u64> = g.channels.iter().map(|c| c.lanes).collect();
        let elem_bits: Vec<u64> = bits.iter().map(|b| b.unwrap_or(32)).collect();
        match minimize::minimize(&design, &at_dse, &lanes, &elem_bits, budget) {
            Ok(m) => {
                let fifo_bits = |depths: &[u64]| depths.iter().zip(&word_bits).map(|(d, b)| d * b).sum::<u64>();
                let bram = |depths: &[u64]| {
                    g.channels.iter().zip(depths).zip(&bits).map(|((c, &d), b)| minimize::fifo_bram18k(c.lanes, d, b.unwrap_or(32))).sum::<u64>()
                };
                let before: Vec<u64> = dse_depths.iter().map(|d| d.unwrap_or(0)).collect();
                summary_min = Some(MinimizeSummary {
                    unbounded_cycles: m.unbounded.cycles,
                    bound: m.bound,
                    simulations: m.simulations,
                    bits_before: fifo_bits(&before),
                    bits_after: fifo_bits(&m.depths),
                    bram18k_before: bram(&before),
                    bram18k_after: bram(&m.depths),
                    unsearched: m.unsearched,
                });
                unbounded_peaks = Some(m.unbounded.channels.iter().map(|c| c.peak).collect::<Vec<_>>());
                for (c, &d) in design.channels.iter_mut().zip(&m.depths) {
                    c.depth = Some(d);
                }
                final_outcome = m.outcome;
            }
            Err(minimize::Starved(o)) => log::warn!("simulator: no FIFO minimisation: even unbounded FIFOs stop at cycle {}", o.cycles),
        }
    }
    let processes = design
        .instances
        .iter()
        .zip(&final_outcome.processes)
        .map(|(i, p)| ProcessSummary { name: i.name.clone(), finish: p.finish, first_output: p.first_push, busy: p.busy(), starved: p.starved, blocked: p.blocked })
        .collect();
    let channels = g
        .channels
        .iter()
        .enumerate()
        .map(|(k, c)| ChannelSummary {
            name: c.name.clone(),
            dse_depth: dse_depths[k],
            depth: design.channels[k].depth,
            peak: final_outcome.channels[k].peak,
            unbounded_peak: unbounded_peaks.as_ref().map(|p| p[k]),
            words: final_outcome.channels[k].words,
            lanes: c.lanes,
            bits: bits[k],
        })
        .collect();
    let deadlock = deadlock_summary(&design, &at_dse);
    Ok(Summary {
        cycles: final_outcome.cycles,
        dse_depth_cycles: at_dse.cycles,
        processes,
        channels,
        deadlock,
        minimize: summary_min,
        seconds: start.elapsed().as_secs_f64(),
    })
}

/// Writes the summary's depths into the module's dfg.channel ops.
pub fn write_depths(module: &Module, summary: &Summary) -> Result<(), SimError> {
    let g = graph::from_dfg(module).map_err(SimError::Graph)?;
    let mut depth_of_op: HashMap<usize, u64> = HashMap::new();
    for (k, c) in g.channels.iter().enumerate() {
        if let (Some(s), Some(&op)) = (summary.channel(&c.name), g.channel_ops.get(k)) {
            if let Some(d) = s.depth {
                depth_of_op.insert(op, d);
            }
        }
    }
    let ops = top_level_ops(module);
    let graph_op = ops
        .iter()
        .find(|op| op_name(op) == "dfg.graph" && symbol_is(op, &g.name))
        .ok_or_else(|| SimError::Graph(format!("no dfg.graph '{}'", g.name)))?;
    let body = graph_op.region(0).ok().and_then(|r| r.first_block()).ok_or_else(|| SimError::Graph("the dfg.graph has no body".into()))?;
    let mut index = 0;
    let mut next = body.first_operation_mut();
    while let Some(mut op) = next {
        next = op.next_in_block_mut();
        if op.name().as_string_ref().as_str().ok() != Some("dfg.channel") {
            continue;
        }
        if let (Some(&d), Ok(old)) = (depth_of_op.get(&index), op.attribute("depth")) {
            // The new depth in the type of the old one (i64).
            op.set_attribute("depth", IntegerAttribute::new(old.r#type(), d as i64).into());
        }
        index += 1;
    }
    Ok(())
}

fn symbol_is(op: &melior::ir::OperationRef, name: &str) -> bool {
    str_attr(op, "sym_name").as_deref() == Some(name)
}

fn or_dash<T: ToString>(v: Option<T>) -> String {
    v.map(|v| v.to_string()).unwrap_or_else(|| "-".into())
}

/// The deadlock as one diagnostic line.
pub fn deadlock_message(graph: &str, d: &DeadlockSummary) -> String {
    let waits: Vec<String> = d
        .waiting
        .iter()
        .map(|w| format!("{} waits for {} on '{}' ({}/{})", w.process, w.waits_for, w.channel, w.fill, or_dash(w.depth)))
        .collect();
    let cycle = if d.cycle_of.is_empty() {
        "no wait-for cycle (a process waits for elements that are never produced)".to_string()
    } else {
        let mut names = d.cycle_of.clone();
        names.push(d.cycle_of[0].clone());
        format!("wait-for cycle {}", names.join(" -> "))
    };
    format!("design '{graph}' deadlocks in simulation at cycle {}: {}; {cycle}", d.cycle, waits.join(", "))
}

/// The human-readable summary of `--simulate`; `model` = the cost model's
/// cycles (graph and per node) when known.
pub fn render(graph: &str, s: &Summary, model: Option<&crate::dse::Estimate>) -> String {
    use std::fmt::Write as _;
    let mut out = String::new();
    let _ = writeln!(out, "simulation of '{graph}': {} ({:.3} s)", s.status(), s.seconds);
    let _ = writeln!(out, "cycles: {} simulated, {} model", s.cycles, or_dash(model.map(|m| m.dataflow)));
    if s.minimize.is_some() {
        let _ = writeln!(out, "cycles with the DSE's FIFO depths: {}", s.dse_depth_cycles);
    }
    if let Some(m) = &s.minimize {
        let _ = writeln!(
            out,
            "FIFO minimisation: unbounded {} cycles, bound {} (+{}%), {} simulations; FIFO bits {} -> {}, BRAM18K {} -> {}",
            m.unbounded_cycles,
            m.bound,
            minimize::SLACK_PERCENT,
            m.simulations,
            m.bits_before,
            m.bits_after,
            m.bram18k_before,
            m.bram18k_after
        );
        if m.unsearched > 0 {
            let _ = writeln!(out, "FIFO minimisation stopped at its simulation budget: {} channels keep their starting depths", m.unsearched);
        }
    }
    let _ = writeln!(out, "processes (finish, busy, input-starved, output-blocked; model cycles):");
    for p in &s.processes {
        let m = model.and_then(|m| m.nodes.iter().find(|n| n.name == p.name)).map(|n| n.cycles);
        let _ = writeln!(out, "  {}: finish {} busy {} starved {} blocked {}; model {}", p.name, p.finish, p.busy, p.starved, p.blocked, or_dash(m));
    }
    let _ = writeln!(out, "channels (depth in words, peak occupancy):");
    for c in &s.channels {
        let dse = if c.dse_depth != c.depth { format!(" (DSE {})", or_dash(c.dse_depth)) } else { String::new() };
        let unb = c.unbounded_peak.map(|p| format!(", unbounded peak {p}")).unwrap_or_default();
        let _ = writeln!(out, "  {}: depth {}{dse} peak {}{unb}, {} words", c.name, or_dash(c.depth), c.peak, c.words);
    }
    if let Some(d) = &s.deadlock {
        let _ = writeln!(out, "{}", deadlock_message(graph, d));
    }
    out
}
