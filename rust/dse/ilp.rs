//! The DSE's integer program, solved exactly with HiGHS.
//!
//! Every process offers a finite list of candidate configurations (unroll
//! factors that divide its trip counts, pipeline positions, lanes per port),
//! each with its cost from the C++ cost model. The program picks exactly one
//! per process such that
//! - every channel has the same number of lanes at both ends,
//! - the DSPs and BRAM18Ks of the chosen candidates fit the board,
//!
//! minimising the dataflow latency, the cost model's graph latency
//! (docs/cost-model.md, "Graph latency"): every process starts at 0, waits
//! for its first input only once its `pre` cycles are over, and ends at the
//! earliest `tail` cycles after its producers' last output; the latency is
//! the last finish. `Objective::Sum` is the MING paper's Eq. (1), the plain
//! sum of stage latencies, kept for comparison.
//! Choosing among enumerated candidates keeps the model linear, so HiGHS
//! proves optimality over the whole choice space.

use super::prune::{latency, prune, Shape};
use crate::bridge::ffi::{DseCandidate, DseProblem};
use highs::{HighsModelStatus, RowProblem, Sense};
use std::fmt;
use std::time::Instant;

/// The ILP over a DSE problem (the candidates' figures from the C++ cost
/// model, ming/DSE/Session.h) under the board's limits.
#[derive(Clone, Copy, Debug)]
pub struct Problem<'a> {
    pub graph: &'a DseProblem,
    pub dsp_limit: f64,
    /// What the processes may use: the FIFOs' share is already off.
    pub bram_limit: f64,
    /// UltraRAMs (buffers only: FIFOs and ROMs take none).
    pub uram_limit: f64,
}

/// The figures of a candidate as the ILP takes them.
fn cycles(c: &DseCandidate) -> f64 {
    c.cycles as f64
}

/// What the tie-break between equally fast designs counts: DSPs, BRAM18Ks,
/// and a URAM288 as the 16 BRAM18Ks it holds (so a buffer of a few hundred
/// bytes goes to LUTRAM or BRAM, not to a whole UltraRAM).
fn resources(c: &DseCandidate) -> f64 {
    (c.dsp + c.bram18k + 16 * c.uram) as f64
}

/// Lanes of port `port` in `lanes` (1 for a port the list does not name).
fn lane(lanes: &[i64], port: u32) -> f64 {
    lanes.get(port as usize).copied().unwrap_or(1).max(1) as f64
}

/// Cycles of `c` after the last pull of its input port `port` (`tail` for a
/// port `tail_in` does not name).
pub(crate) fn tail_of(c: &DseCandidate, port: u32) -> i64 {
    c.tail_in.get(port as usize).copied().unwrap_or(c.tail)
}

/// Cycles of `c` after the end of its last pipeline that pushes on output
/// `port` (0 for a port `trail_out` does not name): its consumer has the last
/// element that long before `c` ends.
pub(crate) fn trail_of(c: &DseCandidate, port: u32) -> i64 {
    c.trail_out.get(port as usize).copied().unwrap_or(0)
}

/// Cycles `c` needs, once a burst of `elements` starts to reach its input
/// `port`, to pull it and end (cost::burstDrain, the same arithmetic).
pub(crate) fn burst_drain(c: &DseCandidate, port: u32, elements: i64) -> i64 {
    let rate = c.pull_cycles.get(port as usize).copied().unwrap_or(0.0);
    ((elements - 1) as f64 * rate - 1e-9).ceil() as i64 + tail_of(c, port)
}

/// The share of its producer's output span after which `c` has, on input
/// `port`, the last element it pulls before its first output (cost::fillShare);
/// None when it pulls none there first. The elements do not depend on the
/// candidate; the least share any candidate has keeps the bound valid.
pub(crate) fn fill_share(candidates: &[DseCandidate], port: u32) -> Option<f64> {
    let share = |c: &DseCandidate| -> Option<f64> {
        let l = *c.fill_elements.get(port as usize)?;
        let n = c.in_elements.get(port as usize).copied().unwrap_or(0);
        if l < 1 {
            return None;
        }
        Some(if l <= 1 || n <= 1 { 0.0 } else { ((l - 1) as f64 / (n - 1) as f64).min(1.0) })
    };
    candidates.iter().map(share).try_fold(f64::INFINITY, |m, s| s.map(|s| m.min(s)))
}

pub(crate) fn fill_time(c: &DseCandidate, port: u32) -> i64 {
    c.fill_time.get(port as usize).copied().unwrap_or(0)
}

/// A time of the graph recursion in whole cycles, as the cost model reports
/// it (cost::estimateGraph): a window's first rows arrive at a share of their
/// producer's span, so times are real numbers; the cycle a time falls in.
pub(crate) fn whole_cycles(t: f64) -> f64 {
    (t - 1e-6).ceil()
}

/// A burst of node `origin` (its candidates' burst lists, entry `burst`) as it
/// reaches an input port: its elements in that port's units, and how many
/// processes passed it on.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Reach {
    pub origin: usize,
    pub burst: usize,
    pub elements: i64,
    pub hops: u32,
}

/// Processes a burst is passed on through at most (cost::kBurstPasses).
const MAX_PASSES: u32 = 2;

/// Per node and stream input port, the bursts that reach it
/// (cost::burstsReaching): its producer's own on that channel, and those
/// reaching the producer's inputs passed on, scaled by the channels'
/// elements. Every figure used does not depend on the candidate; the fewest
/// elements any candidate has keeps the bounds valid for all.
pub(crate) fn burst_reach(g: &DseProblem) -> Vec<Vec<Vec<Reach>>> {
    let nodes = &g.nodes;
    let n = nodes.len();
    let totals = |v: usize| nodes[v].candidates.first().map(|c| c.in_elements.clone()).unwrap_or_default();
    let mut reach: Vec<Vec<Vec<Reach>>> = (0..n).map(|v| vec![Vec::new(); totals(v).len()]).collect();
    // Kahn's order, as the cost model's.
    let mut indeg = vec![0usize; n];
    for e in &g.edges {
        indeg[e.to as usize] += 1;
    }
    let mut ready: std::collections::VecDeque<usize> = (0..n).filter(|&v| indeg[v] == 0).collect();
    let mut placed = vec![false; n];
    while let Some(v) = ready.pop_front().or_else(|| (0..n).find(|&v| !placed[v])) {
        if placed[v] {
            continue;
        }
        placed[v] = true;
        for e in g.edges.iter().filter(|e| e.to as usize == v) {
            let (q, j) = (e.from as usize, e.to_port as usize);
            let Some(&elements) = totals(v).get(j) else { continue };
            let mut into = std::mem::take(&mut reach[v][j]);
            let mut add = |r: Reach| {
                if r.elements < 2 {
                    return;
                }
                match into.iter_mut().find(|h| h.origin == r.origin && h.burst == r.burst) {
                    Some(h) => {
                        h.elements = h.elements.max(r.elements);
                        h.hops = h.hops.min(r.hops);
                    }
                    None => into.push(r),
                }
            };
            if let Some(first) = nodes[q].candidates.first() {
                for b in 0..first.burst_out.len() {
                    if first.burst_out[b] == i64::from(e.from_port) {
                        let least = nodes[q].candidates.iter().map(|c| c.burst_elements.get(b).copied().unwrap_or(0)).min().unwrap_or(0);
                        add(Reach { origin: q, burst: b, elements: least, hops: 0 });
                    }
                }
            }
            let q_totals = totals(q);
            for (i, list) in reach[q].iter().enumerate() {
                let total = q_totals.get(i).copied().unwrap_or(0);
                if total < 1 {
                    continue;
                }
                for r in list.iter().filter(|r| r.hops < MAX_PASSES) {
                    add(Reach { elements: (r.elements as f64 * elements as f64 / total as f64) as i64, hops: r.hops + 1, ..*r });
                }
            }
            reach[v][j] = into;
        }
        for e in g.edges.iter().filter(|e| e.from as usize == v) {
            let to = e.to as usize;
            indeg[to] = indeg[to].saturating_sub(1);
            if indeg[to] == 0 && !placed[to] {
                ready.push_back(to);
            }
        }
    }
    reach
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Objective {
    /// The last finish of the graph-latency recursion (cost model).
    Dataflow,
    /// The paper's Eq. (1): the sum of the stage latencies.
    Sum,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Solution {
    /// The chosen candidate per node.
    pub choice: Vec<usize>,
    /// Objective value in cycles.
    pub objective: f64,
    /// `optimal`, or `time limit` when the limit stopped the proof.
    pub status: String,
    pub seconds: f64,
}

#[derive(Debug, PartialEq)]
pub enum DseError {
    /// Some node offers no candidate at all.
    NoCandidates(String),
    /// No choice fits; the smallest limits for which one exists.
    Infeasible { min_dsp: f64, min_bram: f64 },
    /// The solver found no design within its time limit (seconds) and
    /// proved none impossible.
    NoDesignInTime(f64),
    /// The solver failed.
    Solver(String),
}

impl fmt::Display for DseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DseError::NoCandidates(n) => write!(f, "process '{n}' has no feasible configuration"),
            DseError::Infeasible { min_dsp, min_bram } => write!(
                f,
                "no design fits the limits; the smallest limits that work are {min_dsp} DSP and \
                 {min_bram} BRAM18K"
            ),
            DseError::NoDesignInTime(t) => write!(
                f,
                "ILP solver: no design found within the {t} s time limit, and none proven impossible; a \
                 longer --dse-time-limit (0: no limit) lets the solver search further"
            ),
            DseError::Solver(m) => write!(f, "ILP solver: {m}"),
        }
    }
}

impl std::error::Error for DseError {}

/// What to minimise in a helper solve (the smallest feasible limits).
#[derive(Clone, Copy)]
enum Goal {
    Latency(Objective),
    Dsp,
    Bram,
}

/// The largest cost figure the ILP takes: below HiGHS's infinity (1e20) with
/// room for sums over every process.
const MAX_FIGURE: f64 = 1e15;

/// Solves `problem` to proven optimality (or until `time_limit` seconds).
/// Graphs of at least this many processes start the solve from a feasible
/// design (dse::start).
const START_NODES: usize = 30;

pub fn solve(problem: &Problem, objective: Objective, time_limit: Option<f64>) -> Result<Solution, DseError> {
    for node in &problem.graph.nodes {
        if node.candidates.is_empty() {
            return Err(DseError::NoCandidates(node.process.clone()));
        }
        // HiGHS takes 1e20 and above as infinite and refuses the problem.
        for c in &node.candidates {
            let figures = [c.cycles, c.fill, c.pre, c.tail, c.dsp, c.bram18k, c.uram];
            if figures.iter().chain(&c.tail_in).chain(&c.trail_out).any(|&v| (v as f64).abs() >= MAX_FIGURE) {
                return Err(DseError::Solver(format!(
                    "process '{}' has a configuration of {} cycles, {} DSP and {} BRAM18K, beyond what the ILP \
                     can represent (at most {MAX_FIGURE:e})",
                    node.process, c.cycles, c.dsp, c.bram18k
                )));
            }
        }
    }
    let start = Instant::now();
    let limits = (Some(problem.dsp_limit), Some(problem.bram_limit));
    let shape = Shape::of(problem.graph);
    // On a large network HiGHS can spend minutes before its first feasible
    // point; start it from one found without a solver (dse::start), and drop
    // the candidates that design proves useless (dse::prune). Small graphs
    // solve at once without either.
    let mut first = None;
    if problem.graph.nodes.len() >= START_NODES {
        first = super::start::feasible(problem);
        match &first {
            Some(_) => log::info!("DSE: starting the ILP from a feasible design ({:.3} s)", start.elapsed().as_secs_f64()),
            None => log::info!("DSE: no starting design found; the ILP starts from nothing"),
        }
    }
    // Name the limits that would work: the least DSP of a choice within the
    // BRAM limit (of any choice when none is), and the least BRAM within the
    // DSP limit (likewise).
    let min = |goal, other: (Option<f64>, Option<f64>)| -> Result<f64, DseError> {
        if let Some((_, v, _)) = run(problem, &shape, goal, other, time_limit, None)? {
            return Ok(v.round());
        }
        match run(problem, &shape, goal, (None, None), time_limit, None)? {
            Some((_, v, _)) => Ok(v.round()),
            None => Err(DseError::Solver("lanes cannot agree on every channel".into())),
        }
    };
    let smallest = || -> Result<(f64, f64), DseError> {
        Ok((min(Goal::Dsp, (None, Some(problem.bram_limit)))?, min(Goal::Bram, (Some(problem.dsp_limit), None))?))
    };
    let solved = match &first {
        Some(first) => solve_pruned(problem, &shape, objective, time_limit, first),
        None => run(problem, &shape, Goal::Latency(objective), limits, time_limit, None),
    };
    match solved {
        Ok(Some((choice, value, status))) => Ok(Solution { choice, objective: value, status, seconds: start.elapsed().as_secs_f64() }),
        Ok(None) => {
            let (min_dsp, min_bram) = smallest()?;
            Err(DseError::Infeasible { min_dsp, min_bram })
        }
        // No design in time and none proven impossible: whether one exists is
        // what the smallest limits say, and their programs (no latency rows)
        // solve far faster (MobileNetV2-0.5 f32 on the ZCU104: it needs 3,104
        // DSP, a refusal with that reason instead of the time limit's).
        Err(DseError::NoDesignInTime(t)) => match smallest()? {
            (min_dsp, min_bram) if min_dsp > problem.dsp_limit || min_bram > problem.bram_limit => {
                Err(DseError::Infeasible { min_dsp, min_bram })
            }
            _ => Err(DseError::NoDesignInTime(t)),
        },
        Err(e) => Err(e),
    }
}

/// The latency solve from the feasible design `first`, over the candidates
/// it does not rule out (dse::prune); the choice in the full problem's
/// indices.
fn solve_pruned(
    problem: &Problem,
    shape: &Shape,
    objective: Objective,
    time_limit: Option<f64>,
    first: &[usize],
) -> Result<Option<(Vec<usize>, f64, String)>, DseError> {
    let limits = (Some(problem.dsp_limit), Some(problem.bram_limit));
    let pruned = latency(problem, shape, first, objective).and_then(|upper| prune(problem, shape, objective, upper, first));
    let Some((graph, index)) = pruned else {
        return run(problem, shape, Goal::Latency(objective), limits, time_limit, Some(first));
    };
    let before: usize = problem.graph.nodes.iter().map(|n| n.candidates.len()).sum();
    let after: usize = graph.nodes.iter().map(|n| n.candidates.len()).sum();
    log::info!("DSE: {after} of {before} candidates can beat the starting design; the ILP takes those");
    let small = Problem { graph: &graph, ..*problem };
    let start: Vec<usize> =
        first.iter().zip(&index).map(|(&c, kept)| kept.iter().position(|&k| k == c).unwrap_or(0)).collect();
    Ok(run(&small, shape, Goal::Latency(objective), limits, time_limit, Some(&start))?
        .map(|(choice, value, status)| (choice.iter().zip(&index).map(|(&c, kept)| kept[c]).collect(), value, status)))
}

/// Builds and solves one program under the (DSP, BRAM) limits given: the
/// choice, the goal's value (for a latency, without the tie-breaking
/// weights) and the status. `None` means proven infeasible. `shape` holds
/// the rows' figures of the full candidate lists.
fn run(
    problem: &Problem,
    shape: &Shape,
    goal: Goal,
    limits: (Option<f64>, Option<f64>),
    time_limit: Option<f64>,
    start: Option<&[usize]>,
) -> Result<Option<(Vec<usize>, f64, String)>, DseError> {
    let mut pb = RowProblem::default();
    // Ties in latency go to the design with fewer DSPs and BRAMs: a weight so
    // small that all resources together stay below half a cycle.
    let nodes = &problem.graph.nodes;
    let most: f64 = nodes.iter().map(|n| n.candidates.iter().map(resources).fold(0.0, f64::max)).sum();
    let tie = 0.5 / (1.0 + most);
    let objective = |c: &DseCandidate| match goal {
        Goal::Latency(Objective::Sum) => cycles(c) + tie * resources(c),
        Goal::Latency(Objective::Dataflow) => tie * resources(c),
        Goal::Dsp => c.dsp as f64,
        Goal::Bram => c.bram18k as f64,
    };
    // x[p][c]: node p takes candidate c.
    // Columns are numbered in creation order; the solution is read by number.
    let mut index = Vec::new();
    let mut next = 0usize;
    let x: Vec<Vec<_>> = nodes
        .iter()
        .map(|n| {
            let cols: Vec<_> = n.candidates.iter().map(|c| pb.add_integer_column(objective(c), 0..=1)).collect();
            index.push((next..next + cols.len()).collect::<Vec<usize>>());
            next += cols.len();
            cols
        })
        .collect();
    for cols in &x {
        pb.add_row(1..=1, cols.iter().map(|&c| (c, 1.0)));
    }
    // Both ends of a channel take the same lanes: one row per lane count,
    // the producer's candidates with that count against the consumer's. A
    // single row equating the weighted lane counts would say the same of
    // integer choices, but its relaxation lets a mix of 1 and 64 lanes meet
    // 32 (MobileNetV2: a 2.1% gap after 60 s where that row left 4.8%).
    let edges = &problem.graph.edges;
    for e in edges {
        let (from, to) = (e.from as usize, e.to as usize);
        let out: Vec<_> = x[from].iter().zip(&nodes[from].candidates).map(|(&col, c)| (col, lane(&c.lanes_out, e.from_port))).collect();
        let inp: Vec<_> = x[to].iter().zip(&nodes[to].candidates).map(|(&col, c)| (col, lane(&c.lanes_in, e.to_port))).collect();
        let mut counts: Vec<f64> = out.iter().chain(&inp).map(|&(_, l)| l).collect();
        counts.sort_by(f64::total_cmp);
        counts.dedup();
        for n in counts {
            let terms = out.iter().filter(|t| t.1 == n).map(|&(col, _)| (col, 1.0));
            let terms = terms.chain(inp.iter().filter(|t| t.1 == n).map(|&(col, _)| (col, -1.0)));
            pb.add_row(0..=0, terms.collect::<Vec<_>>());
        }
    }
    let sum = |f: fn(&DseCandidate) -> f64| -> Vec<_> {
        x.iter()
            .zip(nodes)
            .flat_map(|(cols, n)| cols.iter().zip(&n.candidates).map(move |(&col, c)| (col, f(c))))
            .collect()
    };
    if let Some(limit) = limits.0 {
        pb.add_row(..=limit, sum(|c| c.dsp as f64));
    }
    if let Some(limit) = limits.1 {
        pb.add_row(..=limit, sum(|c| c.bram18k as f64));
    }
    // UltraRAM is never relaxed: the smallest limits named on failure are
    // DSP and BRAM's, with the board's URAM.
    pb.add_row(..=problem.uram_limit, sum(|c| c.uram as f64));
    // The latency column of the dataflow objective (numbered after the x's).
    let mut latency = None;
    if let Goal::Latency(Objective::Dataflow) = goal {
        // The cost model's recursion (estimateGraph) as lower bounds, each
        // `variable >= candidate constants + another variable`:
        //   A_to >= FO_from                     (first input of `to`)
        //   FO_p >= F_p,  FO_p >= A_p + F_p - pre_p
        //   T_p  >= C_p,  T_p  >= A_p + C_p - pre_p,
        //   T_to >= T_from - trail_from + tail_to (trail of the output port,
        //            tail of the input port the edge feeds)
        //   T_to >= T_o - lead_b + drain_to(b) per burst b of a node o that
        //            reaches the edge (burst_reach)
        //   FO_to >= (1 - s) FO_from + s (T_from - trail_from) + F_to - fill_to, and the
        //   same for T_to with C_to, s the share of the producer's output
        //   span before the last element `to` pulls ahead of its first output
        //   L    >= T_p.
        // Every bound is monotone, so for a fixed choice the least solution
        // is the recursion's value, and minimising L reaches it on the
        // critical chain: the optimum is exactly the model's graph latency.
        let l = pb.add_column(1.0, 0..);
        latency = Some(next);
        let reach = &shape.reach;
        let a: Vec<_> = nodes.iter().map(|_| pb.add_column(0.0, 0..)).collect();
        let fo: Vec<_> = nodes.iter().map(|_| pb.add_column(0.0, 0..)).collect();
        let t: Vec<_> = nodes.iter().map(|_| pb.add_column(0.0, 0..)).collect();
        let chosen = |p: usize, field: &dyn Fn(&DseCandidate) -> i64| -> Vec<_> {
            x[p].iter().zip(&nodes[p].candidates).map(|(&col, c)| (col, -(field(c) as f64))).collect()
        };
        for p in 0..nodes.len() {
            let row = |var, other: Option<_>, field: &dyn Fn(&DseCandidate) -> i64| {
                let mut terms = vec![(var, 1.0)];
                terms.extend(other.map(|o| (o, -1.0)));
                terms.extend(chosen(p, field));
                terms
            };
            pb.add_row(0.., row(fo[p], None, &|c| c.fill));
            pb.add_row(0.., row(fo[p], Some(a[p]), &|c| c.fill - c.pre));
            pb.add_row(0.., row(t[p], None, &|c| c.cycles));
            pb.add_row(0.., row(t[p], Some(a[p]), &|c| c.cycles - c.pre));
            pb.add_row(0.., [(l, 1.0), (t[p], -1.0)]);
        }
        for (k, e) in edges.iter().enumerate() {
            let (from, to) = (e.from as usize, e.to as usize);
            pb.add_row(0.., [(a[to], 1.0), (fo[from], -1.0)]);
            let mut finish = vec![(t[to], 1.0), (t[from], -1.0)];
            let (port, out) = (e.to_port, e.from_port);
            finish.extend(chosen(to, &|c| tail_of(c, port)));
            finish.extend(chosen(from, &|c| -trail_of(c, out)));
            pb.add_row(0.., finish);
            if let Some(s) = shape.share[k] {
                for (var, field) in [(fo[to], (|c: &DseCandidate| c.fill) as fn(&DseCandidate) -> i64), (t[to], |c| c.cycles)] {
                    let mut row = vec![(var, 1.0), (fo[from], -(1.0 - s)), (t[from], -s)];
                    row.extend(chosen(to, &|c| field(c) - fill_time(c, port)));
                    row.extend(chosen(from, &|c| -trail_of(c, out)).into_iter().map(|(col, v)| (col, s * v)));
                    pb.add_row(0.., row);
                }
            }
            for r in reach[to].get(port as usize).into_iter().flatten() {
                let mut row = vec![(t[to], 1.0), (t[r.origin], -1.0)];
                row.extend(chosen(r.origin, &|c| -c.burst_lead[r.burst]));
                row.extend(chosen(to, &|c| burst_drain(c, port, r.elements)));
                pb.add_row(0.., row);
            }
        }
    }
    let mut model = pb
        .try_optimise(Sense::Minimise)
        .map_err(|s| DseError::Solver(format!("HiGHS refuses the problem ({s:?})")))?;
    model.make_quiet();
    model.set_option("threads", 1);
    model.set_option("mip_rel_gap", 0.0);
    model.set_option("mip_abs_gap", 0.0);
    if let Some(limit) = time_limit {
        model.set_option("time_limit", limit);
    }
    if crate::progress::active() {
        // SAFETY: the pointer is the live HiGHS instance `model` owns; the
        // callback takes no user data and only reads what HiGHS passes it.
        unsafe {
            highs_sys::Highs_setCallback(model.as_mut_ptr(), Some(ilp_progress), std::ptr::null_mut());
            highs_sys::Highs_startCallback(model.as_mut_ptr(), highs_sys::kHighsCallbackMipInterrupt);
            highs_sys::Highs_startCallback(model.as_mut_ptr(), highs_sys::kHighsCallbackMipImprovingSolution);
        }
    }
    if let Some(start) = start {
        // A feasible design to start from: HiGHS completes the timing
        // columns and improves on it, so a time limit ends with a design
        // and its gap rather than none.
        let cols: Vec<highs_sys::HighsInt> = index.iter().flatten().map(|&c| c as highs_sys::HighsInt).collect();
        let mut values = vec![0.0; cols.len()];
        let mut k = 0;
        for (cands, &chosen) in index.iter().zip(start) {
            values[k + chosen] = 1.0;
            k += cands.len();
        }
        // SAFETY: the pointer is the live HiGHS instance `model` owns; both
        // arrays hold `cols.len()` entries and outlive the call.
        let status = unsafe {
            highs_sys::Highs_setSparseSolution(model.as_mut_ptr(), cols.len() as highs_sys::HighsInt, cols.as_ptr(), values.as_ptr())
        };
        if status != 0 {
            log::info!("DSE: HiGHS did not take the starting design (status {status})");
        }
    }
    let solved = model.try_solve().map_err(|s| DseError::Solver(format!("{s:?}")))?;
    let status = match solved.status() {
        HighsModelStatus::Optimal => "optimal".to_string(),
        HighsModelStatus::Infeasible => return Ok(None),
        HighsModelStatus::ReachedTimeLimit => {
            let gap = solved.mip_gap();
            if gap.is_finite() {
                format!("time limit (gap {:.1}%)", gap * 100.0)
            } else {
                "time limit".to_string()
            }
        }
        other => return Err(DseError::Solver(format!("status {other:?}"))),
    };
    let values = solved.get_solution().columns().to_vec();
    let mut choice = Vec::new();
    for cols in &index {
        let best = cols
            .iter()
            .enumerate()
            .max_by(|a, b| values[*a.1].total_cmp(&values[*b.1]))
            .map(|(i, _)| i)
            .ok_or_else(|| DseError::Solver("empty candidate list".into()))?;
        if values[cols[best]] < 0.5 {
            return Err(match time_limit {
                Some(t) => DseError::NoDesignInTime(t),
                None => DseError::Solver(format!("no design in the solver's answer ({status})")),
            });
        }
        choice.push(best);
    }
    // A latency without the tie-breaking weights: the dataflow column L is
    // the model's graph latency of the choice (its least value, see above);
    // the sum is the chosen cycles.
    let value = match goal {
        Goal::Latency(Objective::Dataflow) => whole_cycles(latency.map_or(0.0, |l| values[l])),
        Goal::Latency(Objective::Sum) => choice.iter().zip(nodes).map(|(&c, n)| cycles(&n.candidates[c])).sum(),
        Goal::Dsp | Goal::Bram => solved.objective_value(),
    };
    Ok(Some((choice, value, status)))
}

/// HiGHS's branch-and-bound, as the progress display shows it: the best
/// design found so far (its objective, in cycles for the latency objectives)
/// and the proven lower bound.
unsafe extern "C" fn ilp_progress(
    _kind: std::os::raw::c_int,
    _message: *const std::os::raw::c_char,
    out: *const highs_sys::HighsCallbackDataOut,
    _input: *mut highs_sys::HighsCallbackDataIn,
    _user: *mut std::os::raw::c_void,
) {
    // SAFETY: HiGHS passes a valid pointer for the duration of the call (or null).
    let Some(d) = (unsafe { out.as_ref() }) else { return };
    let best = if d.mip_primal_bound.is_finite() { format!("{:.0}", d.mip_primal_bound) } else { "none yet".to_string() };
    let bound = if d.mip_dual_bound.is_finite() { format!("{:.0}", d.mip_dual_bound) } else { "-".to_string() };
    let gap = if d.mip_gap.is_finite() { format!(", gap {:.1}%", 100.0 * d.mip_gap) } else { String::new() };
    crate::progress::detail(&format!("ILP best {best}, bound {bound}{gap}, {} nodes", d.mip_node_count));
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bridge::ffi::{DseEdge, DseNode};

    /// A candidate that pulls at once and ends `fill` cycles after its last
    /// pull (an elementwise stage).
    fn cand(cycles: i64, fill: i64, dsp: i64, bram18k: i64, lanes_in: i64, lanes_out: i64) -> DseCandidate {
        DseCandidate {
            cycles,
            fill,
            pre: 0,
            tail: fill,
            dsp,
            bram18k,
            lanes_in: vec![lanes_in],
            lanes_out: vec![lanes_out],
            ..Default::default()
        }
    }

    fn node(name: &str, candidates: Vec<DseCandidate>) -> DseNode {
        DseNode { process: name.into(), kind: String::new(), candidates }
    }

    fn edge(from: u32, to: u32) -> DseEdge {
        DseEdge { from, from_port: 0, to, to_port: 0, channel: String::new() }
    }

    fn graph(nodes: Vec<DseNode>, edges: Vec<DseEdge>) -> DseProblem {
        DseProblem { graph: "g".into(), nodes, edges, fifo_bram18k: 0, seconds: 0.0, reused: 0 }
    }

    fn limits(graph: &DseProblem, dsp_limit: f64, bram_limit: f64) -> Problem<'_> {
        Problem { graph, dsp_limit, bram_limit, uram_limit: 0.0 }
    }

    /// The graph latency of a given choice (dse::prune::latency).
    fn evaluate(problem: &Problem, choice: &[usize], objective: Objective) -> f64 {
        latency(problem, &Shape::of(problem.graph), choice, objective).expect("an acyclic graph")
    }

    /// Hand-computed recursion: a window (pre 40, tail 30) between a load
    /// and a slow map.
    #[test]
    fn evaluate_follows_the_recursion() {
        let mut window = cand(500, 100, 0, 0, 1, 1);
        window.pre = 40;
        window.tail = 30;
        let g = graph(
            vec![node("load", vec![cand(300, 2, 0, 0, 1, 1)]), node("window", vec![window]), node("map", vec![cand(600, 5, 0, 0, 1, 1)])],
            (0..2).map(|i| edge(i, i + 1)).collect(),
        );
        let p = limits(&g, 10.0, 10.0);
        // load: T 300, FO 2. window: A 2 < pre, FO = 100, T = max(500,
        // 2 + 460, 300 + 30) = 500. map: A 100, FO 105, T = max(600, 700,
        // 505) = 700: the map is the bottleneck and starts late.
        assert_eq!(evaluate(&p, &[0, 0, 0], Objective::Dataflow), 700.0);
        let s = solve(&p, Objective::Dataflow, None).expect("feasible");
        assert_eq!(s.objective, 700.0);
    }

    /// Every lane-consistent choice within the limits, best objective.
    fn brute_force(p: &Problem, objective: Objective) -> Option<f64> {
        let nodes = &p.graph.nodes;
        let n = nodes.len();
        let mut choice = vec![0; n];
        let mut best: Option<f64> = None;
        loop {
            let c = |i: u32| &nodes[i as usize].candidates[choice[i as usize]];
            let lanes_ok =
                p.graph.edges.iter().all(|e| lane(&c(e.from).lanes_out, e.from_port) == lane(&c(e.to).lanes_in, e.to_port));
            let dsp: i64 = (0..n as u32).map(|i| c(i).dsp).sum();
            let bram: i64 = (0..n as u32).map(|i| c(i).bram18k).sum();
            if lanes_ok && dsp as f64 <= p.dsp_limit && bram as f64 <= p.bram_limit {
                let v = evaluate(p, &choice, objective);
                best = Some(best.map_or(v, |b: f64| b.min(v)));
            }
            let mut i = 0;
            loop {
                if i == n {
                    return best;
                }
                choice[i] += 1;
                if choice[i] < nodes[i].candidates.len() {
                    break;
                }
                choice[i] = 0;
                i += 1;
            }
        }
    }

    /// A chain load -> conv -> relu -> store where the conv trades DSPs for
    /// cycles and lanes must agree.
    fn chain() -> DseProblem {
        graph(
            vec![
                node("load", vec![cand(3072, 1, 0, 0, 1, 1), cand(1536, 1, 0, 0, 1, 2)]),
                node("conv", vec![cand(8192, 70, 27, 1, 1, 1), cand(1024, 70, 216, 1, 1, 1), cand(512, 36, 432, 2, 2, 2)]),
                node("relu", vec![cand(1024, 1, 0, 0, 1, 1), cand(512, 1, 0, 0, 2, 2)]),
                node("store", vec![cand(1024, 0, 0, 0, 1, 1), cand(512, 0, 0, 0, 2, 1)]),
            ],
            (0..3).map(|i| edge(i, i + 1)).collect(),
        )
    }

    #[test]
    fn chain_picks_the_fastest_design_that_fits() {
        let g = chain();
        for (limit, expect_conv) in [(1248.0, 2), (300.0, 1), (50.0, 0)] {
            let p = limits(&g, limit, 10.0);
            let s = solve(&p, Objective::Dataflow, None).expect("feasible");
            assert_eq!(s.status, "optimal");
            assert_eq!(s.choice[1], expect_conv, "dsp limit {limit}");
            let best = brute_force(&p, Objective::Dataflow).expect("feasible");
            assert!((s.objective - best).abs() < 1e-6, "{} vs {best}", s.objective);
            // Lanes agree on every channel.
            assert_eq!(s.choice[0] == 1, s.choice[1] == 2);
            assert_eq!(s.choice[2] == 1, s.choice[1] == 2);
        }
    }

    #[test]
    fn sum_objective_is_the_papers() {
        let g = chain();
        let p = limits(&g, 1248.0, 10.0);
        let s = solve(&p, Objective::Sum, None).expect("feasible");
        let best = brute_force(&p, Objective::Sum).expect("feasible");
        assert!((s.objective - best).abs() < 1e-6);
        assert!((evaluate(&p, &s.choice, Objective::Sum) - best).abs() < 1e-6);
    }

    #[test]
    fn infeasible_limits_name_the_smallest_that_work() {
        let g = chain();
        let err = solve(&limits(&g, 10.0, 10.0), Objective::Dataflow, None).expect_err("27 DSPs needed");
        assert_eq!(err, DseError::Infeasible { min_dsp: 27.0, min_bram: 1.0 });
        assert!(err.to_string().contains("27 DSP"));
    }

    /// Found by fuzzing: a loop nest of 3.7e19 iterations gave costs HiGHS
    /// takes as infinite; it refused the problem and the highs crate panicked.
    #[test]
    fn costs_beyond_the_ilp_are_an_error() {
        let mut g = chain();
        g.nodes[0].candidates[0].cycles = i64::MAX;
        let err = solve(&limits(&g, 10.0, 10.0), Objective::Dataflow, None).expect_err("not representable");
        assert!(err.to_string().contains("beyond what the ILP can represent"), "{err}");
        g.nodes[0].candidates[0].cycles = 1;
        g.nodes[0].candidates[0].bram18k = -(1 << 60);
        assert!(solve(&limits(&g, 10.0, 10.0), Objective::Sum, None).is_err());
    }

    #[test]
    fn ties_go_to_fewer_resources() {
        let g = graph(
            vec![
                node("a", vec![cand(100, 5, 32, 0, 1, 1), cand(100, 5, 8, 0, 1, 1), cand(100, 5, 8, 2, 1, 1)]),
                node("b", vec![cand(50, 1, 4, 1, 1, 1), cand(50, 1, 4, 0, 1, 1)]),
            ],
            vec![edge(0, 1)],
        );
        let p = limits(&g, 1248.0, 288.0);
        for objective in [Objective::Dataflow, Objective::Sum] {
            let s = solve(&p, objective, None).expect("feasible");
            assert_eq!(s.choice, vec![1, 1], "{objective:?}");
            assert_eq!(s.objective, evaluate(&p, &s.choice, objective));
        }
    }

    #[test]
    fn ties_prefer_bram_to_a_whole_uram() {
        // The same buffer in 1 BRAM18K or in 1 URAM288: with both free, BRAM.
        let mut in_uram = cand(100, 5, 8, 0, 1, 1);
        in_uram.uram = 1;
        let g = graph(vec![node("a", vec![in_uram, cand(100, 5, 8, 1, 1, 1)])], vec![]);
        let mut p = limits(&g, 1248.0, 288.0);
        p.uram_limit = 64.0;
        for objective in [Objective::Dataflow, Objective::Sum] {
            assert_eq!(solve(&p, objective, None).expect("feasible").choice, vec![1], "{objective:?}");
        }
        // Without BRAM the URAM design is the one that fits.
        p.bram_limit = 0.0;
        assert_eq!(solve(&p, Objective::Dataflow, None).expect("feasible").choice, vec![0]);
    }

    #[test]
    fn empty_candidate_list_is_an_error() {
        let mut g = chain();
        g.nodes[2].candidates.clear();
        assert_eq!(solve(&limits(&g, 1248.0, 10.0), Objective::Dataflow, None), Err(DseError::NoCandidates("relu".into())));
    }

    /// Random diamonds and chains against brute force: the ILP is exact.
    #[test]
    fn matches_brute_force_on_random_graphs() {
        let mut seed = 12345u64;
        let mut rnd = |m: u64| {
            seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            ((seed >> 33) % m) as i64
        };
        for round in 0..40 {
            let n = 3 + rnd(3) as u32;
            let nodes: Vec<DseNode> = (0..n)
                .map(|i| {
                    // What does not depend on the candidate: the elements
                    // before the first output and in all, a trailing burst.
                    let total = 50 + rnd(200);
                    let fill = if rnd(2) == 1 { 1 + rnd(total as u64) } else { 0 };
                    let burst = if rnd(2) == 1 { rnd(total as u64) } else { 0 };
                    let candidates = (0..1 + rnd(3))
                        .map(|_| {
                            let lanes = 1 + rnd(2);
                            let mut c = cand(100 + rnd(900), rnd(50), rnd(40), rnd(4), lanes, lanes);
                            c.pre = rnd(c.fill as u64 + 1);
                            c.tail = rnd(80);
                            if rnd(2) == 1 {
                                c.tail_in = (0..2).map(|_| c.tail + rnd(80)).collect();
                            }
                            if rnd(2) == 1 {
                                c.trail_out = vec![rnd(c.cycles as u64 / 2)];
                            }
                            c.in_elements = vec![total; 2];
                            c.fill_elements = vec![fill; 2];
                            c.fill_time = vec![rnd(c.fill as u64 + 1); 2];
                            c.pull_cycles = vec![rnd(8) as f64 / 4.0; 2];
                            c.burst_out = vec![0];
                            c.burst_elements = vec![burst];
                            c.burst_lead = vec![rnd(c.cycles as u64)];
                            c
                        })
                        .collect();
                    node(&format!("p{i}"), candidates)
                })
                .collect();
            // A chain plus, every other round, a skip edge (reconvergence).
            let mut edges: Vec<DseEdge> = (0..n - 1).map(|i| edge(i, i + 1)).collect();
            if round % 2 == 0 {
                edges.push(edge(0, n - 1));
            }
            let g = graph(nodes, edges);
            let p = limits(&g, (20 + rnd(60)) as f64, (2 + rnd(8)) as f64);
            for objective in [Objective::Dataflow, Objective::Sum] {
                match (solve(&p, objective, None), brute_force(&p, objective)) {
                    (Ok(s), Some(best)) => {
                        let whole = if objective == Objective::Dataflow { whole_cycles(best) } else { best };
                        assert_eq!(s.objective, whole, "round {round}: {:?} evaluates to {}", s.choice, evaluate(&p, &s.choice, objective));
                        assert!((evaluate(&p, &s.choice, objective) - best).abs() < 1e-6);
                    }
                    (Err(DseError::Infeasible { .. }), None) => {}
                    (Err(DseError::Solver(m)), None) if m.contains("lanes") => {}
                    (got, want) => panic!("round {round}: {got:?} vs brute force {want:?}"),
                }
                // From a feasible start, over the candidates it leaves.
                let Some(first) = super::super::start::feasible(&p) else { continue };
                let shape = Shape::of(&g);
                match (solve_pruned(&p, &shape, objective, None, &first), brute_force(&p, objective)) {
                    (Ok(Some((choice, value, _))), Some(best)) => {
                        let whole = if objective == Objective::Dataflow { whole_cycles(best) } else { best };
                        assert_eq!(value, whole, "round {round}, pruned: {choice:?}");
                    }
                    (Err(DseError::Solver(m)), None) if m.contains("lanes") => {}
                    (got, want) => panic!("round {round}: {got:?} vs brute force {want:?}"),
                }
            }
        }
    }
}
