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
//!
//! `figures` reads the candidates' figures as the rows take them, `program`
//! builds the rows and columns of one solve and `solver` runs HiGHS on them
//! and reads the choice back; this module decides which solves to run.
mod figures;
mod program;
mod solver;

use super::dominance::{restrict, undominated};
use super::prune::{latency, prune, Shape};
use crate::bridge::ffi::DseProblem;
pub(crate) use figures::{burst_drain, burst_drain_rate, burst_reach, fill_share, fill_time, lane, latency_ceiling, own_share, pre_of, tail_of, trail_of, Reach};
use solver::run;
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
    /// The solver found no design within its limit and proved none
    /// impossible.
    NoDesignInTime(Limit),
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
            DseError::NoDesignInTime(limit) => write!(
                f,
                "ILP solver: no design found within {limit}, and none proven impossible; a \
                 longer --dse-time-limit (0: no limit) lets the solver search further"
            ),
            DseError::Solver(m) => write!(f, "ILP solver: {m}"),
        }
    }
}

impl std::error::Error for DseError {}

/// How far one solve may go before it stops with its best design and the
/// gap left (`Solution::status`).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Limit {
    /// Wall-clock seconds; None: no limit.
    pub seconds: Option<f64>,
    /// LP iterations over the whole branch and bound; None: no limit. A
    /// measure of work, not of time: with one thread HiGHS then stops at the
    /// same point, with the same design, on every machine.
    pub lp_iterations: Option<i64>,
}

impl fmt::Display for Limit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (self.seconds, self.lp_iterations) {
            (Some(t), Some(n)) => write!(f, "the {t} s time limit or {n} LP iterations"),
            (Some(t), None) => write!(f, "the {t} s time limit"),
            (None, Some(n)) => write!(f, "{n} LP iterations"),
            (None, None) => write!(f, "no limit"),
        }
    }
}

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

/// Graphs of at least this many processes start the solve from a feasible
/// design (dse::start).
const START_NODES: usize = 30;

/// Solves `problem` to proven optimality (or until `limit`).
pub fn solve(problem: &Problem, objective: Objective, limit: Limit) -> Result<Solution, DseError> {
    for node in &problem.graph.nodes {
        if node.candidates.is_empty() {
            return Err(DseError::NoCandidates(node.process.clone()));
        }
        // HiGHS takes 1e20 and above as infinite and refuses the problem.
        for c in &node.candidates {
            let figures = [c.cycles, c.fill, c.pre, c.tail, c.dsp, c.bram18k, c.uram];
            if figures.iter().chain(&c.tail_in).chain(&c.pre_in).chain(&c.trail_out).any(|&v| (v as f64).abs() >= MAX_FIGURE) {
                return Err(DseError::Solver(format!(
                    "process '{}' has a configuration of {} cycles, {} DSP and {} BRAM18K, beyond what the ILP \
                     can represent (at most {MAX_FIGURE:e})",
                    node.process, c.cycles, c.dsp, c.bram18k
                )));
            }
        }
    }
    let start = Instant::now();
    // The rows' figures of the full lists; the solves see only the
    // candidates no other dominates (dse::dominance), and their choice is
    // read back in the full lists' indices.
    let shape = Shape::of(problem.graph);
    let index = undominated(problem.graph);
    let before: usize = problem.graph.nodes.iter().map(|n| n.candidates.len()).sum();
    let after: usize = index.iter().map(Vec::len).sum();
    log::info!("DSE: {} of {before} candidates are dominated by another of their process", before - after);
    let reduced = restrict(problem.graph, &index);
    let kept = Problem { graph: &reduced, ..*problem };
    let mut solution = solve_undominated(&kept, &shape, objective, limit, start)?;
    solution.choice = solution.choice.iter().zip(&index).map(|(&c, keep)| keep[c]).collect();
    Ok(solution)
}

/// `solve` over candidates none of which another dominates.
fn solve_undominated(
    problem: &Problem,
    shape: &Shape,
    objective: Objective,
    limit: Limit,
    start: Instant,
) -> Result<Solution, DseError> {
    let limits = (Some(problem.dsp_limit), Some(problem.bram_limit));
    // On a large network HiGHS can spend minutes before its first feasible
    // point; start it from one found without a solver (dse::start), and drop
    // the candidates that design proves useless (dse::prune). Small graphs
    // solve at once without either.
    let mut first = None;
    if problem.graph.nodes.len() >= START_NODES {
        first = super::start::feasible(problem).map(|choice| {
            let better = super::improve::improve(problem, shape, objective, choice);
            log::info!(
                "DSE: starting the ILP from a feasible design of {:.0} cycles, {:.0} after a local search of {} evaluations ({:.3} s)",
                better.before,
                better.after,
                better.evaluations,
                start.elapsed().as_secs_f64()
            );
            better.choice
        });
        if first.is_none() {
            log::info!("DSE: no starting design found; the ILP starts from nothing");
        }
    }
    // Name the limits that would work: the least DSP of a choice within the
    // BRAM limit (of any choice when none is), and the least BRAM within the
    // DSP limit (likewise).
    let min = |goal, other: (Option<f64>, Option<f64>)| -> Result<f64, DseError> {
        if let Some((_, v, _)) = run(problem, shape, goal, other, limit, None)? {
            return Ok(v.round());
        }
        match run(problem, shape, goal, (None, None), limit, None)? {
            Some((_, v, _)) => Ok(v.round()),
            None => Err(DseError::Solver("lanes cannot agree on every channel".into())),
        }
    };
    let smallest = || -> Result<(f64, f64), DseError> {
        Ok((min(Goal::Dsp, (None, Some(problem.bram_limit)))?, min(Goal::Bram, (Some(problem.dsp_limit), None))?))
    };
    // A large network the start found no design for may have none: the
    // smallest limits say so first, as their programs (no latency rows)
    // solve in seconds where the latency ILP runs to its time limit without
    // a design (MobileNetV2-0.5 f32 on the ZCU104 needs 3,104 DSP: refused
    // after 60 s of ILP instead of at once).
    let mut least = None;
    if first.is_none() && problem.graph.nodes.len() >= START_NODES {
        let (min_dsp, min_bram) = smallest()?;
        if min_dsp > problem.dsp_limit || min_bram > problem.bram_limit {
            log::info!(
                "DSE: no design before the latency ILP: the least DSP within the BRAM limit is {min_dsp}, \
                 the least BRAM18K within the DSP limit {min_bram} ({:.3} s)",
                start.elapsed().as_secs_f64()
            );
            return Err(DseError::Infeasible { min_dsp, min_bram });
        }
        least = Some((min_dsp, min_bram));
    }
    let solved = match &first {
        Some(first) => solve_pruned(problem, shape, objective, limit, first),
        None => run(problem, shape, Goal::Latency(objective), limits, limit, None),
    };
    match solved {
        Ok(Some((choice, value, status))) => Ok(Solution { choice, objective: value, status, seconds: start.elapsed().as_secs_f64() }),
        Ok(None) => {
            let (min_dsp, min_bram) = match least {
                Some(l) => l,
                None => smallest()?,
            };
            Err(DseError::Infeasible { min_dsp, min_bram })
        }
        // No design in time and none proven impossible: whether one exists is
        // what the smallest limits say.
        Err(DseError::NoDesignInTime(t)) => match least.map_or_else(smallest, Ok)? {
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
    limit: Limit,
    first: &[usize],
) -> Result<Option<(Vec<usize>, f64, String)>, DseError> {
    let limits = (Some(problem.dsp_limit), Some(problem.bram_limit));
    let pruned = latency(problem, shape, first, objective).and_then(|upper| prune(problem, shape, objective, upper, first));
    let Some((graph, index)) = pruned else {
        return run(problem, shape, Goal::Latency(objective), limits, limit, Some(first));
    };
    let before: usize = problem.graph.nodes.iter().map(|n| n.candidates.len()).sum();
    let after: usize = graph.nodes.iter().map(|n| n.candidates.len()).sum();
    log::info!("DSE: {after} of {before} candidates can beat the starting design; the ILP takes those");
    let small = Problem { graph: &graph, ..*problem };
    let start: Vec<usize> =
        first.iter().zip(&index).map(|(&c, kept)| kept.iter().position(|&k| k == c).unwrap_or(0)).collect();
    Ok(run(&small, shape, Goal::Latency(objective), limits, limit, Some(&start))?
        .map(|(choice, value, status)| (choice.iter().zip(&index).map(|(&c, kept)| kept[c]).collect(), value, status)))
}

#[cfg(test)]
mod tests {
    use super::figures::{lane, whole_cycles};
    use super::*;
    use crate::bridge::ffi::{DseCandidate, DseEdge, DseNode};

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
        DseProblem { graph: "g".into(), nodes, edges, fifo_bram18k: 0, seconds: 0.0, reused: 0, candidate_limit: 512, large: false }
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
        let s = solve(&p, Objective::Dataflow, Limit::default()).expect("feasible");
        assert_eq!(s.objective, 700.0);
    }

    /// A window whose row pipeline waits for 60 of its producer's 100
    /// elements (share 59/99) is slower than its pixel pipeline (share 1/99)
    /// despite fewer cycles: 10 + 59/99 x 990 + 600 = 600 more than its
    /// producer's first output, against the pixel pipeline's 1,020 (the
    /// producer's end and its tail). Taken at the least share, the row
    /// pipeline looked as fast and, with fewer DSPs, won the tie.
    #[test]
    fn each_candidate_waits_for_its_own_share() {
        let mut pixel = cand(1000, 20, 10, 0, 1, 1);
        let mut row = cand(600, 20, 5, 0, 1, 1);
        for (c, fill) in [(&mut pixel, 2), (&mut row, 60)] {
            c.in_elements = vec![100];
            c.fill_elements = vec![fill];
            c.fill_time = vec![0];
        }
        let g = graph(vec![node("src", vec![cand(1000, 10, 0, 0, 1, 1)]), node("window", vec![pixel, row])], vec![edge(0, 1)]);
        let p = limits(&g, 20.0, 10.0);
        assert_eq!(evaluate(&p, &[0, 1], Objective::Dataflow).round(), 1200.0);
        let s = solve(&p, Objective::Dataflow, Limit::default()).expect("feasible");
        assert_eq!(s.choice, vec![0, 0]);
        assert_eq!(s.objective, 1020.0);
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
            let s = solve(&p, Objective::Dataflow, Limit::default()).expect("feasible");
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
        let s = solve(&p, Objective::Sum, Limit::default()).expect("feasible");
        let best = brute_force(&p, Objective::Sum).expect("feasible");
        assert!((s.objective - best).abs() < 1e-6);
        assert!((evaluate(&p, &s.choice, Objective::Sum) - best).abs() < 1e-6);
    }

    #[test]
    fn infeasible_limits_name_the_smallest_that_work() {
        let g = chain();
        let err = solve(&limits(&g, 10.0, 10.0), Objective::Dataflow, Limit::default()).expect_err("27 DSPs needed");
        assert_eq!(err, DseError::Infeasible { min_dsp: 27.0, min_bram: 1.0 });
        assert!(err.to_string().contains("27 DSP"));
    }

    /// Found by fuzzing: a loop nest of 3.7e19 iterations gave costs HiGHS
    /// takes as infinite; it refused the problem and the highs crate panicked.
    #[test]
    fn costs_beyond_the_ilp_are_an_error() {
        let mut g = chain();
        g.nodes[0].candidates[0].cycles = i64::MAX;
        let err = solve(&limits(&g, 10.0, 10.0), Objective::Dataflow, Limit::default()).expect_err("not representable");
        assert!(err.to_string().contains("beyond what the ILP can represent"), "{err}");
        g.nodes[0].candidates[0].cycles = 1;
        g.nodes[0].candidates[0].bram18k = -(1 << 60);
        assert!(solve(&limits(&g, 10.0, 10.0), Objective::Sum, Limit::default()).is_err());
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
            let s = solve(&p, objective, Limit::default()).expect("feasible");
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
            assert_eq!(solve(&p, objective, Limit::default()).expect("feasible").choice, vec![1], "{objective:?}");
        }
        // Without BRAM the URAM design is the one that fits.
        p.bram_limit = 0.0;
        assert_eq!(solve(&p, Objective::Dataflow, Limit::default()).expect("feasible").choice, vec![0]);
    }

    #[test]
    fn empty_candidate_list_is_an_error() {
        let mut g = chain();
        g.nodes[2].candidates.clear();
        assert_eq!(solve(&limits(&g, 1248.0, 10.0), Objective::Dataflow, Limit::default()), Err(DseError::NoCandidates("relu".into())));
    }

    /// Numbers below `m` from a seeded linear congruential generator (the
    /// random tests repeat exactly).
    fn lcg(mut seed: u64) -> impl FnMut(u64) -> i64 {
        move |m| {
            seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            ((seed >> 33) % m) as i64
        }
    }

    /// A work limit stops the search where it stands, with the best design
    /// so far (from the start of a graph of 30 processes and more) and the
    /// gap; without one the same program proves its optimum.
    #[test]
    fn a_work_limit_stops_the_search_with_a_design() {
        // A chain of 40 stages, each trading cycles for DSPs, under a DSP
        // limit that binds: a knapsack the root LP does not settle.
        let mut rnd = lcg(99);
        let nodes = (0..40)
            .map(|i| {
                let candidates = (0..8).map(|k| cand(1000 + rnd(9000) / (k + 1), 1, 1 + k * k + rnd(7), rnd(3), 1, 1)).collect();
                node(&format!("p{i}"), candidates)
            })
            .collect();
        let g = graph(nodes, (0..39).map(|i| edge(i, i + 1)).collect());
        let p = limits(&g, 300.0, 10.0);
        let stopped = solve(&p, Objective::Sum, Limit { seconds: None, lp_iterations: Some(1) }).expect("a design");
        assert!(stopped.status.starts_with("work limit"), "{}", stopped.status);
        let dsp: i64 = stopped.choice.iter().zip(&g.nodes).map(|(&c, n)| n.candidates[c].dsp).sum();
        assert!(dsp <= 300, "{dsp} DSP");
        let proven = solve(&p, Objective::Sum, Limit::default()).expect("a design");
        assert_eq!(proven.status, "optimal");
        assert!(proven.objective <= stopped.objective);
    }

    /// Random diamonds and chains against brute force: the ILP is exact.
    #[test]
    fn matches_brute_force_on_random_graphs() {
        let mut rnd = lcg(12345);
        for round in 0..40 {
            let n = 3 + rnd(3) as u32;
            let nodes: Vec<DseNode> = (0..n)
                .map(|i| {
                    // What does not depend on the candidate: the elements
                    // in all, a trailing burst; whether any are pulled
                    // before the first output.
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
                                // A port first pulled later than the process's first pull.
                                c.pre_in = (0..2).map(|_| c.pre + rnd(c.cycles as u64 - c.pre as u64)).collect();
                            }
                            if rnd(2) == 1 {
                                c.trail_out = vec![rnd(c.cycles as u64 / 2)];
                            }
                            c.in_elements = vec![total; 2];
                            // A row pipeline waits for more than a pixel
                            // pipeline of the same window: shares differ.
                            let own = if fill > 0 && rnd(2) == 1 { 1 + rnd(total as u64) } else { fill };
                            c.fill_elements = vec![own; 2];
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
                match (solve(&p, objective, Limit::default()), brute_force(&p, objective)) {
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
                match (solve_pruned(&p, &shape, objective, Limit::default(), &first), brute_force(&p, objective)) {
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
