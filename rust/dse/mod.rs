//! Design-space exploration (ARCHITECTURE.md stage 4): a C++ session
//! (cpp/DSE, through the cxx bridge) lists every process instance's
//! candidate configurations with the cost model's figures, `ilp` picks one
//! index per instance with HiGHS, and the session writes the choice back.
//! The same solver serves the `ming-dse` pass (`solve_dse`).
pub mod capacity;
pub mod dominance;
pub mod ilp;
pub mod improve;
pub mod prune;
pub mod start;

use crate::bridge::ffi;
use ilp::{DseError, Objective, Problem};
use melior::ir::Module;
use std::fmt;
use std::time::Instant;

/// What the cost model is told of the target: a JSON target description
/// ("" for the built-in one) and the board's m_axi port width in bits (0:
/// the description's `axi_bits`).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct CostModel {
    pub file: String,
    pub axi_bits: u32,
}

/// How the DSE runs (command line: --dse-objective, --dse-time-limit,
/// --dse-max-lanes, --dsp/--bram or the board's limits).
#[derive(Debug, Clone, PartialEq)]
pub struct Settings {
    pub objective: Objective,
    /// Seconds HiGHS may spend per solve; None: until optimal. A large
    /// network's ILP can take minutes to prove, so the flow bounds it by
    /// default and reports the gap (ilp::Solution::status).
    pub time_limit: Option<f64>,
    /// LP iterations per solve of a large graph (more processes than
    /// kLargeGraph in ming/DSE/Session.h; `DseProblem::large`), besides
    /// `time_limit` (None: `time_limit` alone). Such an ILP does not prove
    /// its optimum in minutes, and a limit on work rather than time gives the
    /// same design on every machine (ilp::Limit).
    pub large_graph_lp_iterations: Option<i64>,
    /// Most lanes per channel offered.
    pub max_lanes: u32,
    /// Offer processes with their int8 multiplies packed two per DSP too.
    pub pack_int8: bool,
    pub dsp: u32,
    pub bram18k: u32,
    /// UltraRAMs the buffers may take instead of BRAM (0: none).
    pub uram: u32,
}

impl Settings {
    pub fn new(dsp: u32, bram18k: u32) -> Self {
        Settings {
            objective: Objective::Dataflow,
            time_limit: Some(DEFAULT_TIME_LIMIT),
            large_graph_lp_iterations: Some(LARGE_GRAPH_LP_ITERATIONS),
            max_lanes: DEFAULT_MAX_LANES,
            pack_int8: true,
            dsp,
            bram18k,
            uram: 0,
        }
    }
}

/// Seconds per solve unless --dse-time-limit says otherwise.
pub const DEFAULT_TIME_LIMIT: f64 = 60.0;

/// LP iterations per solve of a large graph. HiGHS spends them in the root
/// node of MobileNetV2-0.5 int8 (kv260: 40,545 cycles, gap 4.1%), which takes
/// 15 s here and 22 s beside two other jobs, with the same design.
pub const LARGE_GRAPH_LP_ITERATIONS: i64 = 16_000;
/// Simulations the FIFO minimisation of such a graph may run after its DSE
/// before it leaves the channels not yet searched at their starting depths
/// (the widest words are searched first, where the BRAM is). A count, not
/// seconds, so that the depths are the same on every machine:
/// MobileNetV2-0.5 has 142 channels, and searching them all takes about 250
/// simulations, 8 s here; 96 take about 3 s.
pub const LARGE_GRAPH_MINIMIZE_SIMULATIONS: usize = 96;

/// Lanes offered by default (the cost model offers lane counts that divide a
/// port's accesses per iteration, at most 64).
pub const DEFAULT_MAX_LANES: u32 = 64;

pub fn objective_name(o: Objective) -> &'static str {
    match o {
        Objective::Dataflow => "dataflow",
        Objective::Sum => "sum",
    }
}

pub fn parse_objective(text: &str) -> Option<Objective> {
    match text {
        "dataflow" => Some(Objective::Dataflow),
        "sum" => Some(Objective::Sum),
        _ => None,
    }
}

/// What the DSE did, for report.json.
#[derive(Debug, Clone)]
pub struct Outcome {
    /// "optimal" or "time limit".
    pub status: String,
    pub objective: Objective,
    /// The ILP alone / the whole DSE (enumeration, solve, apply).
    pub ilp_seconds: f64,
    pub seconds: f64,
    /// The ILP's objective value (cycles).
    pub objective_value: f64,
    pub candidates: usize,
    pub estimate: Estimate,
    /// The graph was large and its ILP ran under `large_graph_lp_iterations`.
    pub large: bool,
}

/// The cost model's figures of the graph (per node in instance order).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Estimate {
    pub dataflow: i64,
    pub sum: i64,
    pub dsp: i64,
    pub bram18k: i64,
    pub fifo_bram18k: i64,
    pub uram: i64,
    pub nodes: Vec<NodeEstimate>,
    pub baseline: Baseline,
}

#[derive(Debug, Clone, Default, PartialEq)]
pub struct NodeEstimate {
    /// The node's name as graph.dot and report.json spell it (`proc`, `proc_1`, ...).
    pub name: String,
    pub cycles: i64,
    pub first_output: i64,
    /// In the graph (every process starts at 0): the model's first output
    /// and finish, which the simulator's are set against.
    pub first_out_at: i64,
    pub finish_at: i64,
    pub dsp: i64,
    pub bram18k: i64,
    pub uram: i64,
    pub ii: i64,
    pub unroll: Vec<(String, i64)>,
}

#[derive(Debug, Clone, Default, PartialEq)]
pub struct Baseline {
    pub cycles: i64,
    pub dsp: i64,
    pub bram18k: i64,
}

#[derive(Debug, Clone, PartialEq)]
pub enum Failure {
    /// No design fits; the smallest limits that would (FIFOs included), and
    /// the processes whose own smallest configuration needs the most.
    Infeasible { graph: String, dsp: u32, bram18k: u32, min_dsp: f64, min_bram18k: f64, floors: Floors },
    /// No design within the limits, in the session's words (names the limits).
    Refused(String),
    /// Anything else (no graph, solver trouble, an IR the DSE cannot write).
    Other(String),
}

/// What the processes need at the least, each at its cheapest candidate:
/// where a design that does not fit goes over.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Floors {
    /// Up to three processes with the largest floor of each resource
    /// (nonzero), largest first.
    pub dsp: Vec<(String, i64)>,
    pub bram18k: Vec<(String, i64)>,
    /// The floors of all processes added up (FIFOs not included).
    pub dsp_sum: i64,
    pub bram18k_sum: i64,
}

pub fn floors(p: &ffi::DseProblem) -> Floors {
    let each = |key: fn(&ffi::DseCandidate) -> i64| -> Vec<(String, i64)> {
        p.nodes.iter().map(|n| (n.process.clone(), n.candidates.iter().map(key).min().unwrap_or(0))).collect()
    };
    let largest = |mut v: Vec<(String, i64)>| -> Vec<(String, i64)> {
        v.retain(|(_, x)| *x > 0);
        v.sort_by_key(|(_, x)| std::cmp::Reverse(*x));
        v.truncate(3);
        v
    };
    let dsp = each(|c| c.dsp);
    let bram = each(|c| c.bram18k);
    Floors {
        dsp_sum: dsp.iter().map(|(_, x)| x).sum(),
        bram18k_sum: bram.iter().map(|(_, x)| x).sum(),
        dsp: largest(dsp),
        bram18k: largest(bram),
    }
}

impl fmt::Display for Failure {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        match self {
            Failure::Infeasible { graph, dsp, bram18k, min_dsp, min_bram18k, floors } => {
                write!(
                    f,
                    "no design of '{graph}' fits {dsp} DSP and {bram18k} BRAM18K; the smallest limits that work are \
                     {min_dsp} DSP and {min_bram18k} BRAM18K"
                )?;
                // Presets that would hold it, so the user has something to try.
                let fits: Vec<&str> = crate::board::BOARDS
                    .iter()
                    .filter(|b| f64::from(b.dsp) >= *min_dsp && f64::from(b.bram18k) >= *min_bram18k)
                    .map(|b| b.name)
                    .collect();
                if !fits.is_empty() {
                    write!(f, " (it fits --board {})", fits.join(", --board "))?;
                }
                // Where it goes over: each resource whose limit is short, with
                // the processes' own floors (their cheapest configurations).
                let over = |name: &str, limit: u32, min: f64, sum: i64, top: &[(String, i64)]| -> Option<String> {
                    if min <= f64::from(limit) || top.is_empty() {
                        return None;
                    }
                    let named: Vec<String> = top.iter().map(|(p, x)| format!("'{p}' {x}")).collect();
                    Some(format!("{sum} {name} (most: {})", named.join(", ")))
                };
                let short: Vec<String> = [
                    over("DSP", *dsp, *min_dsp, floors.dsp_sum, &floors.dsp),
                    over("BRAM18K", *bram18k, *min_bram18k, floors.bram18k_sum, &floors.bram18k),
                ]
                .into_iter()
                .flatten()
                .collect();
                if !short.is_empty() {
                    write!(f, "; at their cheapest the processes alone need {}", short.join(" and "))?;
                }
                Ok(())
            }
            Failure::Refused(m) => f.write_str(m),
            Failure::Other(m) => write!(f, "DSE: {m}"),
        }
    }
}

impl std::error::Error for Failure {}

/// The address of the module's operation, as the C++ side takes it.
fn address(module: &Module) -> usize {
    module.as_operation().to_raw().ptr as usize
}

/// Node names as graph.rs gives them: the callee, `_<k>` for its k-th repeat.
pub fn node_names(processes: &[String]) -> Vec<String> {
    let mut seen = std::collections::HashMap::new();
    processes
        .iter()
        .map(|p| {
            let count = seen.entry(p.clone()).or_insert(0usize);
            *count += 1;
            if *count == 1 {
                p.clone()
            } else {
                format!("{p}_{}", *count - 1)
            }
        })
        .collect()
}

fn convert(e: ffi::DseEstimate) -> Result<Estimate, Failure> {
    if !e.error.is_empty() {
        return Err(Failure::Other(e.error));
    }
    let names = node_names(&e.nodes.iter().map(|n| n.process.clone()).collect::<Vec<_>>());
    let nodes = e
        .nodes
        .into_iter()
        .zip(names)
        .map(|(n, name)| NodeEstimate {
            name,
            cycles: n.cycles,
            first_output: n.first_output,
            first_out_at: n.first_out_at,
            finish_at: n.finish_at,
            dsp: n.dsp,
            bram18k: n.bram18k,
            uram: n.uram,
            ii: n.ii,
            unroll: n.unroll_loops.into_iter().zip(n.unroll_factors).collect(),
        })
        .collect();
    Ok(Estimate {
        dataflow: e.dataflow,
        sum: e.sum,
        dsp: e.dsp,
        bram18k: e.bram18k,
        fifo_bram18k: e.fifo_bram18k,
        uram: e.uram,
        nodes,
        baseline: Baseline { cycles: e.baseline_cycles, dsp: e.baseline_dsp, bram18k: e.baseline_bram18k },
    })
}

/// The ILP of `p` under the limits; the FIFOs' BRAM is taken from the budget
/// first (their depths do not depend on the choice).
pub fn problem(p: &ffi::DseProblem, dsp: u32, bram18k: u32, uram: u32) -> Problem<'_> {
    Problem {
        graph: p,
        dsp_limit: f64::from(dsp),
        bram_limit: f64::from(bram18k) - p.fifo_bram18k as f64,
        uram_limit: f64::from(uram),
    }
}

/// One index per node of `p`, chosen by the ILP under `settings`.
pub fn solve(p: &ffi::DseProblem, settings: &Settings) -> Result<ilp::Solution, Failure> {
    let count: usize = p.nodes.iter().map(|n| n.candidates.len()).sum();
    crate::progress::detail(&format!("ILP over {count} configurations of {} processes", p.nodes.len()));
    let limit = ilp::Limit { seconds: settings.time_limit, lp_iterations: settings.large_graph_lp_iterations };
    let solution = ilp::solve(&problem(p, settings.dsp, settings.bram18k, settings.uram), settings.objective, limit)
        .map_err(|e| match e {
            DseError::Infeasible { min_dsp, min_bram } => Failure::Infeasible {
                graph: p.graph.clone(),
                dsp: settings.dsp,
                bram18k: settings.bram18k,
                min_dsp,
                min_bram18k: min_bram + p.fifo_bram18k as f64,
                floors: floors(p),
            },
            other => Failure::Other(other.to_string()),
        })?;
    log::info!("DSE: ILP {} in {:.3} s, objective {}", solution.status, solution.seconds, solution.objective);
    Ok(solution)
}

/// The solver of the `ming-dse` pass (registered with the C++ side at
/// start-up, see bridge.rs): the request's limits, default lanes.
pub fn solve_dse(p: &ffi::DseProblem, request: &ffi::DseRequest) -> ffi::DseSolution {
    let failed = |error: String| ffi::DseSolution { error, choice: Vec::new(), status: String::new(), objective: 0.0, seconds: 0.0 };
    let (Ok(dsp), Ok(bram18k), Ok(uram)) = (u32::try_from(request.dsp), u32::try_from(request.bram18k), u32::try_from(request.uram)) else {
        return failed(format!("limits of {} DSP, {} BRAM18K and {} URAM are out of range", request.dsp, request.bram18k, request.uram));
    };
    let Some(objective) = parse_objective(&request.objective) else {
        return failed(format!("unknown objective '{}'", request.objective));
    };
    let settings = Settings {
        objective,
        time_limit: (request.time_limit > 0.0).then_some(request.time_limit),
        large_graph_lp_iterations: (request.lp_iterations > 0).then_some(request.lp_iterations),
        uram,
        ..Settings::new(dsp, bram18k)
    };
    match solve(p, &settings) {
        Ok(s) => ffi::DseSolution { error: String::new(), choice: s.choice, status: s.status, objective: s.objective, seconds: s.seconds },
        Err(f) => failed(f.to_string()),
    }
}

/// Explores, chooses and writes the choice into `module` (a dfg module).
pub fn run(module: &Module, settings: &Settings, cost: &CostModel) -> Result<Outcome, Failure> {
    let start = Instant::now();
    crate::progress::detail("enumerating configurations");
    let mut session = ffi::dse_open(
        address(module),
        settings.max_lanes.max(1) as i64,
        settings.pack_int8,
        &cost.file,
        cost.axi_bits.into(),
        settings.dsp.into(),
    )
        .map_err(|e| Failure::Other(e.what().to_string()))?;
    let p = ffi::dse_problem(&session);
    let count: usize = p.nodes.iter().map(|n| n.candidates.len()).sum();
    log::info!(
        "DSE: {} nodes, {count} candidates, {} edges ({:.3} s to enumerate; {} processes reuse the candidates of one of the same structure)",
        p.nodes.len(),
        p.edges.len(),
        p.seconds,
        p.reused
    );
    log::info!("DSE: at most {} configurations estimated per process ({} processes)", p.candidate_limit, p.nodes.len());
    if log::log_enabled!(log::Level::Trace) {
        for (i, n) in p.nodes.iter().enumerate() {
            for (k, c) in n.candidates.iter().enumerate() {
                log::trace!(
                    "DSE: {}: {} cycles, fill {}, pre {}, tail {} (per input {:?}), {} DSP, {} BRAM18K: {}",
                    n.process,
                    c.cycles,
                    c.fill,
                    c.pre,
                    c.tail,
                    c.tail_in,
                    c.dsp,
                    c.bram18k,
                    ffi::dse_describe(&session, i as u32, k as u32)
                );
            }
        }
    }
    let lp_iterations = settings.large_graph_lp_iterations.filter(|_| p.large);
    if let Some(n) = lp_iterations {
        log::info!(
            "DSE: {} processes: the ILP may take {n} LP iterations per solve (--dse-time-limit sets a limit in seconds instead, 0 none)",
            p.nodes.len()
        );
    }
    let request = ffi::DseRequest {
        dsp: i64::from(settings.dsp),
        bram18k: i64::from(settings.bram18k),
        uram: i64::from(settings.uram),
        objective: objective_name(settings.objective).to_string(),
        time_limit: settings.time_limit.unwrap_or(0.0),
        lp_iterations: lp_iterations.unwrap_or(0),
    };
    let explored = ffi::dse_explore(session.pin_mut(), &request);
    if !explored.error.is_empty() {
        return Err(Failure::Refused(explored.error));
    }
    if explored.rounds > 1 {
        log::info!("DSE: {} solves: the FIFOs of the first choices pushed them over the limits", explored.rounds);
    }
    if log::log_enabled!(log::Level::Debug) {
        for (i, (n, &c)) in p.nodes.iter().zip(&explored.choice).enumerate() {
            log::debug!("DSE: {} <- {}", n.process, ffi::dse_describe(&session, i as u32, c as u32));
        }
    }
    let estimate = convert(explored.estimate)?;
    if settings.objective == Objective::Dataflow {
        // The ILP's rows are the report's graph recursion with the elements
        // of a burst taken at their least over a consumer's candidates, to
        // keep the rows linear (and a window's fill share only where every
        // candidate has one). Either only lowers a time, so the ILP's
        // latency bounds the model's from below for every choice, and a
        // proven ILP optimum leaves the design within the difference of the
        // model's optimum. A model below the ILP is a bug in one of them.
        let model = estimate.dataflow as f64;
        if model < explored.objective {
            log::warn!("DSE: the ILP's latency {} and the cost model's {model} disagree", explored.objective);
        } else if model > explored.objective && explored.status == "optimal" {
            log::info!(
                "DSE: the design is within {} cycles of the cost model's optimum (the ILP's latency {} bounds it)",
                model - explored.objective,
                explored.objective
            );
        }
    }
    Ok(Outcome {
        status: explored.status,
        objective: settings.objective,
        ilp_seconds: explored.ilp_seconds,
        seconds: start.elapsed().as_secs_f64(),
        objective_value: explored.objective,
        candidates: count,
        estimate,
        large: lp_iterations.is_some(),
    })
}

/// The figures of `module`'s graph with its own directives (--no-dse).
pub fn estimate(module: &Module, cost: &CostModel) -> Result<Estimate, Failure> {
    convert(ffi::dse_estimate(address(module), &cost.file, cost.axi_bits.into()))
}

/// Graphs for the DSE modules' unit tests.
#[cfg(test)]
pub(crate) mod fixtures {
    use crate::bridge::ffi::{DseCandidate, DseEdge, DseNode, DseProblem};

    /// The processes in a chain, each feeding the next on port 0.
    pub fn chain(processes: Vec<(&str, Vec<DseCandidate>)>) -> DseProblem {
        let n = processes.len() as u32;
        DseProblem {
            graph: "g".into(),
            nodes: processes.into_iter().map(|(name, candidates)| DseNode { process: name.into(), kind: String::new(), candidates }).collect(),
            edges: (1..n).map(|k| DseEdge { from: k - 1, from_port: 0, to: k, to_port: 0, channel: String::new() }).collect(),
            fifo_bram18k: 0,
            seconds: 0.0,
            reused: 0,
            candidate_limit: 512,
            large: false,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_match_the_graph() {
        let names = node_names(&["a".to_string(), "b".to_string(), "a".to_string(), "a".to_string()]);
        assert_eq!(names, ["a", "b", "a_1", "a_2"]);
    }

    #[test]
    fn objectives_round_trip() {
        for o in [Objective::Dataflow, Objective::Sum] {
            assert_eq!(parse_objective(objective_name(o)), Some(o));
        }
        assert_eq!(parse_objective("bottleneck"), None);
    }

    fn dfg_problem() -> ffi::DseProblem {
        let cand = |cycles, dsp, bram18k, lanes: i64| ffi::DseCandidate {
            cycles,
            fill: 1,
            pre: 0,
            tail: 1,
            dsp,
            bram18k,
            lanes_in: vec![lanes],
            lanes_out: vec![lanes],
            ..Default::default()
        };
        ffi::DseProblem {
            graph: "g".into(),
            nodes: vec![
                ffi::DseNode { process: "a".into(), kind: "load".into(), candidates: vec![cand(10, 0, 0, 1)] },
                ffi::DseNode {
                    process: "b".into(),
                    kind: "pure_parallel".into(),
                    candidates: vec![cand(100, 1, 2, 1), cand(50, 2, 4, 1)],
                },
            ],
            edges: vec![ffi::DseEdge { from: 0, from_port: 0, to: 1, to_port: 0, channel: String::new() }],
            fifo_bram18k: 3,
            seconds: 0.0,
            reused: 0,
            candidate_limit: 512,
            large: false,
        }
    }

    #[test]
    fn fifo_bram_comes_off_the_budget() {
        let g = dfg_problem();
        let p = problem(&g, 10, 6, 0);
        assert_eq!(p.bram_limit, 3.0);
        let s = ilp::solve(&p, Objective::Dataflow, ilp::Limit::default()).expect("feasible");
        // Only the first candidate of b fits 3 BRAM18K.
        assert_eq!(s.choice, vec![0, 0]);
        let s = ilp::solve(&problem(&g, 10, 7, 0), Objective::Dataflow, ilp::Limit::default()).expect("feasible");
        assert_eq!(s.choice, vec![0, 1]);
    }

    #[test]
    fn infeasible_names_limits_with_fifos() {
        let g = dfg_problem();
        match ilp::solve(&problem(&g, 0, 288, 0), Objective::Dataflow, ilp::Limit::default()) {
            Err(DseError::Infeasible { min_dsp, min_bram }) => {
                assert_eq!(min_dsp, 1.0);
                assert_eq!(min_bram, 2.0);
                let f = Failure::Infeasible { graph: "g".into(), dsp: 0, bram18k: 288, min_dsp, min_bram18k: min_bram + 3.0, floors: Floors::default() };
                assert_eq!(
                    f.to_string(),
                    "no design of 'g' fits 0 DSP and 288 BRAM18K; the smallest limits that work are 1 DSP and 5 BRAM18K \
                     (it fits --board kv260, --board zcu104, --board zedboard, --board u55c)"
                );
                // Only the presets that hold it are named; none when none does.
                let big = Failure::Infeasible { graph: "g".into(), dsp: 1248, bram18k: 288, min_dsp: 5325.0, min_bram18k: 1151.0, floors: Floors::default() };
                assert!(big.to_string().ends_with("1151 BRAM18K (it fits --board u55c)"), "{big}");
                let huge = Failure::Infeasible { graph: "g".into(), dsp: 1248, bram18k: 288, min_dsp: 1e5, min_bram18k: 1.0, floors: Floors::default() };
                assert!(huge.to_string().ends_with("1 BRAM18K"), "{huge}");
                // The processes' floors: b's cheapest candidate needs 1 DSP
                // and 2 BRAM18K; a needs none.
                let fl = floors(&g);
                assert_eq!(fl.dsp, vec![("b".to_string(), 1)]);
                assert_eq!((fl.dsp_sum, fl.bram18k_sum), (1, 2));
                let named = Failure::Infeasible { graph: "g".into(), dsp: 0, bram18k: 288, min_dsp, min_bram18k: 5.0, floors: fl };
                // Only the resource that is short (DSP) is explained.
                assert!(named.to_string().ends_with("(it fits --board kv260, --board zcu104, --board zedboard, --board u55c); at their cheapest the processes alone need 1 DSP (most: 'b' 1)"), "{named}");
            }
            other => panic!("{other:?}"),
        }
    }
}
