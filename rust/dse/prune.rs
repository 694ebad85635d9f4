//! Candidates that cannot be in an optimal design, removed before the ILP.
//!
//! A feasible design (dse::start) of graph latency U bounds the optimum from
//! above. The graph-latency recursion is monotone, so a candidate whose
//! least possible latency, with every other node at its most favourable
//! figures, is above U can never be chosen by an optimal solve: it goes. So
//! does a candidate that breaks a limit with every other node at its least
//! use of it. HiGHS gets a smaller program with the same optimum (ResNet-8
//! int8: 2,991 of 4,763 candidates, proved optimal in 47 s; DS-CNN int8:
//! 1,947 of 3,456; MobileNetV2, whose start is already fast, keeps 21,992 of
//! 25,961).
//!
//! The rows the ILP builds from whole candidate lists (burst_reach,
//! fill_share) are computed once on the full problem (`Shape`), so the
//! pruned program is the same program restricted to fewer columns.
use super::ilp::{burst_drain, burst_reach, fill_share, fill_time, latency_ceiling, own_share, pre_of, tail_of, trail_of, Objective, Problem, Reach};
use super::start::topological;
use crate::bridge::ffi::{DseCandidate, DseProblem};

/// What the ILP's rows take from a node's whole candidate list.
pub(crate) struct Shape {
    /// Per node and stream input port, the bursts that reach it.
    pub reach: Vec<Vec<Vec<Reach>>>,
    /// Per edge, the least share of its producer's span before its
    /// consumer's fill is in (ilp::fill_share): None when a candidate has no
    /// fill there, and then no candidate's share is used.
    pub share: Vec<Option<f64>>,
    /// An upper bound on every choice's latency (ilp::latency_ceiling).
    pub ceiling: f64,
}

impl Shape {
    pub fn of(g: &DseProblem) -> Shape {
        let share = g.edges.iter().map(|e| fill_share(&g.nodes[e.to as usize].candidates, e.to_port)).collect();
        let reach = burst_reach(g);
        let ceiling = latency_ceiling(g, &reach);
        Shape { reach, share, ceiling }
    }
}

/// The fill and finish rows of candidate `c` of node `p` that do not depend
/// on another node's choice (all but the burst rows), given its producers'
/// first outputs `fo` (each input's arrival, which `p` first pulls `pre_of`
/// its port after its start) and per edge into `p` the end of its
/// producer's last pushing pipeline `last` (finish - trail): the
/// recursion's values for a chosen `c`, and lower bounds when `fo` and
/// `last` are. `into` lists the edges into `p`.
fn fill_and_finish(
    g: &DseProblem,
    shape: &Shape,
    p: usize,
    into: &[usize],
    c: &DseCandidate,
    fo: &[f64],
    last: &dyn Fn(usize) -> f64,
) -> (f64, f64) {
    let into = || into.iter().map(|&k| (k, &g.edges[k]));
    debug_assert!(into().all(|(_, e)| e.to as usize == p));
    let mut f = c.fill as f64;
    let mut tc = c.cycles as f64;
    for (k, e) in into() {
        let q = e.from as usize;
        // The port's first pull waits for q's first output.
        let first = fo[q] - pre_of(c, e.to_port) as f64;
        f = f.max(first + c.fill as f64);
        tc = tc.max(first + c.cycles as f64);
        let end = last(k);
        tc = tc.max(end + tail_of(c, e.to_port) as f64);
        if let Some(least) = shape.share[k] {
            let s = own_share(c, e.to_port).unwrap_or(least);
            let at = fo[q] + s * (end - fo[q]) - fill_time(c, e.to_port) as f64;
            f = f.max(at + c.fill as f64);
            tc = tc.max(at + c.cycles as f64);
        }
    }
    (f, tc)
}

/// The edges into each node.
fn edges_into(g: &DseProblem) -> Vec<Vec<usize>> {
    let mut into = vec![Vec::new(); g.nodes.len()];
    for (k, e) in g.edges.iter().enumerate() {
        into[e.to as usize].push(k);
    }
    into
}

/// The objective of a given choice, computed directly: for the dataflow
/// objective the cost model's graph-latency recursion (estimateGraph), which
/// the ILP's rows encode; None when the graph has a cycle.
pub(crate) fn latency(problem: &Problem, shape: &Shape, choice: &[usize], objective: Objective) -> Option<f64> {
    Some(Evaluator::new(problem, shape, objective)?.latency(choice))
}

/// `latency` for many choices of one problem (dse::improve): the order and
/// the edges into each node are found once.
pub(crate) struct Evaluator<'a> {
    g: &'a DseProblem,
    shape: &'a Shape,
    objective: Objective,
    order: Vec<usize>,
    into: Vec<Vec<usize>>,
}

impl<'a> Evaluator<'a> {
    /// None when the graph has a cycle.
    pub fn new(problem: &Problem<'a>, shape: &'a Shape, objective: Objective) -> Option<Self> {
        let g = problem.graph;
        Some(Evaluator { g, shape, objective, order: topological(problem)?, into: edges_into(g) })
    }

    pub fn latency(&self, choice: &[usize]) -> f64 {
        let g = self.g;
        let cand = |p: usize| &g.nodes[p].candidates[choice[p]];
        if self.objective == Objective::Sum {
            return (0..g.nodes.len()).map(|p| cand(p).cycles as f64).sum();
        }
        let n = g.nodes.len();
        let (mut fo, mut t) = (vec![0f64; n], vec![0f64; n]);
        for &p in &self.order {
            let c = cand(p);
            let last = |k: usize| {
                let e = &g.edges[k];
                t[e.from as usize] - trail_of(cand(e.from as usize), e.from_port) as f64
            };
            (fo[p], t[p]) = fill_and_finish(g, self.shape, p, &self.into[p], c, &fo, &last);
            for &k in &self.into[p] {
                let port = g.edges[k].to_port;
                for r in self.shape.reach[p].get(port as usize).into_iter().flatten() {
                    let lead = cand(r.origin).burst_lead[r.burst] as f64;
                    t[p] = t[p].max(t[r.origin] - lead + burst_drain(c, port, r.elements) as f64);
                }
            }
        }
        t.into_iter().fold(0.0, f64::max)
    }
}

/// The problem without the candidates that cannot reach an objective of
/// `upper` or less, and per node the original index of each kept one.
/// `keep` (a choice of value `upper`) survives in any case.
pub(crate) fn prune(
    problem: &Problem,
    shape: &Shape,
    objective: Objective,
    upper: f64,
    keep: &[usize],
) -> Option<(DseProblem, Vec<Vec<usize>>)> {
    let g = problem.graph;
    let n = g.nodes.len();
    // Margin: the ILP's tie-break weights stay below half a cycle, so a
    // candidate a whole cycle above the bound can never win a tie.
    let above = |lb: f64| lb > upper + 1.0;
    let mut least: Vec<Vec<f64>> = Vec::with_capacity(n);
    match objective {
        Objective::Sum => {
            let fastest: Vec<f64> =
                g.nodes.iter().map(|nd| nd.candidates.iter().map(|c| c.cycles as f64).fold(f64::INFINITY, f64::min)).collect();
            let all: f64 = fastest.iter().sum();
            for (p, nd) in g.nodes.iter().enumerate() {
                least.push(nd.candidates.iter().map(|c| all - fastest[p] + c.cycles as f64).collect());
            }
        }
        Objective::Dataflow => {
            let order = topological(problem)?;
            let into = edges_into(g);
            // Lower bounds of the recursion's variables over every choice:
            // each row with the other nodes' least figures.
            let mut fo = vec![0f64; n];
            // Per edge, the least time its producer's last output on it can
            // have: over the producer's candidates, the least finish less
            // that candidate's trail on the edge's port.
            let mut last_lb = vec![0f64; g.edges.len()];
            let mut finish: Vec<Vec<f64>> = vec![Vec::new(); n];
            for &p in &order {
                for c in &g.nodes[p].candidates {
                    let (f, tc) = fill_and_finish(g, shape, p, &into[p], c, &fo, &|k| last_lb[k]);
                    fo[p] = if finish[p].is_empty() { f } else { fo[p].min(f) };
                    finish[p].push(tc);
                }
                for (k, e) in g.edges.iter().enumerate().filter(|(_, e)| e.from as usize == p) {
                    last_lb[k] = g.nodes[p]
                        .candidates
                        .iter()
                        .zip(&finish[p])
                        .map(|(c, tc)| tc - trail_of(c, e.from_port) as f64)
                        .fold(f64::INFINITY, f64::min);
                }
            }
            // What must still follow a candidate's finish: the least tail of
            // each consumer after its last output (its trail before the
            // finish), along the longest such chain to the end; per node the
            // least over its candidates.
            let mut after = vec![0f64; n];
            let mut after_of: Vec<Vec<f64>> = vec![Vec::new(); n];
            for &p in order.iter().rev() {
                let out: Vec<(u32, f64)> = g
                    .edges
                    .iter()
                    .filter(|e| e.from as usize == p)
                    .map(|e| {
                        let q = e.to as usize;
                        let tail = g.nodes[q].candidates.iter().map(|c| tail_of(c, e.to_port) as f64).fold(f64::INFINITY, f64::min);
                        (e.from_port, tail.max(0.0) + after[q])
                    })
                    .collect();
                after_of[p] = g.nodes[p]
                    .candidates
                    .iter()
                    .map(|c| out.iter().map(|&(port, rest)| rest - trail_of(c, port) as f64).fold(0.0, f64::max))
                    .collect();
                after[p] = after_of[p].iter().copied().reduce(f64::min).unwrap_or(0.0);
            }
            for p in 0..n {
                least.push(finish[p].iter().zip(&after_of[p]).map(|(tc, a)| tc + a).collect());
            }
        }
    }
    let mut index: Vec<Vec<usize>> =
        (0..n).map(|p| (0..g.nodes[p].candidates.len()).filter(|&c| c == keep[p] || !above(least[p][c])).collect()).collect();
    within_budget(problem, &mut index);
    let mut pruned = g.clone();
    for (node, kept) in pruned.nodes.iter_mut().zip(&index) {
        node.candidates = kept.iter().map(|&c| node.candidates[c].clone()).collect();
    }
    Some((pruned, index))
}

/// Drops from `index` (kept candidates per node) those that break a limit
/// even with every other node at its least use of that resource among its
/// kept ones, until nothing more goes. The latency bound made those least
/// uses large (a fast design needs DSPs everywhere), so this cuts deep.
fn within_budget(problem: &Problem, index: &mut [Vec<usize>]) {
    let nodes = &problem.graph.nodes;
    let figures: [(fn(&DseCandidate) -> i64, f64); 3] =
        [(|c| c.dsp, problem.dsp_limit), (|c| c.bram18k, problem.bram_limit), (|c| c.uram, problem.uram_limit)];
    loop {
        let mut changed = false;
        for (figure, limit) in figures {
            let least: Vec<i64> = index
                .iter()
                .zip(nodes)
                .map(|(kept, node)| kept.iter().map(|&c| figure(&node.candidates[c])).min().unwrap_or(0))
                .collect();
            let slack = limit - least.iter().sum::<i64>() as f64;
            for (p, kept) in index.iter_mut().enumerate() {
                let before = kept.len();
                kept.retain(|&c| (figure(&nodes[p].candidates[c]) - least[p]) as f64 <= slack);
                changed |= kept.len() != before;
            }
        }
        if !changed {
            return;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dse::fixtures::chain;

    fn cand(cycles: i64, dsp: i64) -> DseCandidate {
        DseCandidate { cycles, dsp, lanes_in: vec![1], lanes_out: vec![1], ..Default::default() }
    }

    /// load -> conv -> store: from a start of 1,000 cycles, the conv's
    /// 50,000-cycle configuration goes, one a cycle within the margin stays,
    /// and the start's own candidate is kept; a limit removes what cannot fit.
    #[test]
    fn slow_candidates_go_and_the_start_stays() {
        let g = chain(vec![
            ("load", vec![cand(10, 0)]),
            ("conv", vec![cand(1000, 8), cand(100, 64), cand(50_000, 1), cand(1001, 4), cand(1002, 2)]),
            ("store", vec![cand(10, 0)]),
        ]);
        let p = Problem { graph: &g, dsp_limit: 100.0, bram_limit: 10.0, uram_limit: 0.0 };
        let shape = Shape::of(&g);
        let first = [0, 0, 0];
        let upper = latency(&p, &shape, &first, Objective::Dataflow).expect("acyclic");
        assert_eq!(upper, 1000.0);
        let (pruned, index) = prune(&p, &shape, Objective::Dataflow, upper, &first).expect("acyclic");
        assert_eq!(index, vec![vec![0], vec![0, 1, 3], vec![0]]);
        assert_eq!(pruned.nodes[1].candidates.len(), 3);
        // Under 50 DSP the 64-DSP configuration cannot be part of any design.
        let tight = Problem { dsp_limit: 50.0, ..p };
        let (_, index) = prune(&tight, &shape, Objective::Dataflow, upper, &first).expect("acyclic");
        assert_eq!(index[1], vec![0, 3]);
        // The sum objective: 10 + 10 + the conv's cycles.
        let upper = latency(&p, &shape, &first, Objective::Sum).expect("acyclic");
        assert_eq!(upper, 1020.0);
        let (_, index) = prune(&p, &shape, Objective::Sum, upper, &first).expect("acyclic");
        assert_eq!(index[1], vec![0, 1, 3]);
    }
}
