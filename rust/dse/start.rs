//! A feasible design to start the ILP from, found without a solver.
//!
//! On a large network HiGHS can spend minutes before its first feasible
//! point: the lanes must agree on every channel, and the cheap designs that
//! fit the BRAM use several lanes on some channels (a burst that fills a deep
//! FIFO at one lane fits a shallow one at eight). Here:
//! 1. the processes are visited in topological order, keeping for every
//!    assignment of lanes to the channels still open (written, not yet read)
//!    the cheapest way to reach it, cheapest in a weighted sum of DSP and
//!    BRAM18K (a beam of the best `BEAM` assignments when there are more);
//! 2. while the cheapest design is over a limit, that resource weighs more
//!    and step 1 runs again;
//! 3. within the limits, the slowest process moves to the cheapest of its
//!    faster candidates with the same lanes on every port, while they fit;
//! 4. a balanced design competes with it: the least cycle bound T such that
//!    step 1, offered only the candidates of at most T cycles, fits the
//!    limits (bisection over the candidates' cycles). Lanes change along
//!    whole chains there, which step 3 cannot do one process at a time; the
//!    start with the lower slowest process wins.
//!
//! The ILP proves or improves on the result; nothing here decides the design.
use super::ilp::Problem;
use crate::bridge::ffi::DseCandidate;
use std::collections::HashMap;

/// Assignments of lanes kept per step.
const BEAM: usize = 4096;
/// Reweightings of DSP against BRAM before giving up.
const ROUNDS: usize = 16;

/// A choice (one candidate per node) within the problem's limits, or None.
pub fn feasible(problem: &Problem) -> Option<Vec<usize>> {
    let order = topological(problem)?;
    let (mut wd, mut wb) = (1.0 / problem.dsp_limit.max(1.0), 1.0 / problem.bram_limit.max(1.0));
    for _ in 0..ROUNDS {
        let choice = cheapest(problem, &order, wd, wb, i64::MAX)?;
        let (dsp, bram) = used(problem, &choice);
        let over_dsp = dsp > problem.dsp_limit;
        let over_bram = bram > problem.bram_limit;
        if !over_dsp && !over_bram {
            let greedy = faster(problem, choice, dsp, bram);
            return Some(match balanced(problem, &order, wd, wb) {
                Some(b) if slowest(problem, &b) < slowest(problem, &greedy) => b,
                _ => greedy,
            });
        }
        if over_dsp {
            wd *= 4.0;
        }
        if over_bram {
            wb *= 4.0;
        }
    }
    None
}

/// The cycles of the slowest process of `choice`.
fn slowest(problem: &Problem, choice: &[usize]) -> i64 {
    choice.iter().zip(&problem.graph.nodes).map(|(&c, n)| n.candidates[c].cycles).max().unwrap_or(0)
}

/// Step 4: the cheapest choice (weights `wd`, `wb`, with which step 1 fitted)
/// among candidates of at most T cycles, for the least T that fits, then
/// step 3 on it.
fn balanced(problem: &Problem, order: &[usize], wd: f64, wb: f64) -> Option<Vec<usize>> {
    let fits = |choice: &[usize]| {
        let (dsp, bram) = used(problem, choice);
        dsp <= problem.dsp_limit && bram <= problem.bram_limit
    };
    // Every node must keep a candidate: T starts at the largest of the
    // nodes' fastest cycles.
    let floor = problem.graph.nodes.iter().map(|n| n.candidates.iter().map(|c| c.cycles).min().unwrap_or(0)).max()?;
    let mut bounds: Vec<i64> =
        problem.graph.nodes.iter().flat_map(|n| n.candidates.iter().map(|c| c.cycles)).filter(|&c| c >= floor).collect();
    bounds.sort_unstable();
    bounds.dedup();
    // bounds[hi] fits (the largest bound offers every candidate, as step 1
    // did); bounds[lo - 1] does not.
    let (mut lo, mut hi) = (0usize, bounds.len().checked_sub(1)?);
    let mut best = cheapest(problem, order, wd, wb, bounds[hi]).filter(|c| fits(c))?;
    while lo < hi {
        let mid = (lo + hi) / 2;
        match cheapest(problem, order, wd, wb, bounds[mid]).filter(|c| fits(c)) {
            Some(choice) => {
                best = choice;
                hi = mid;
            }
            None => lo = mid + 1,
        }
    }
    let (dsp, bram) = used(problem, &best);
    Some(faster(problem, best, dsp, bram))
}

fn used(problem: &Problem, choice: &[usize]) -> (f64, f64) {
    choice.iter().zip(&problem.graph.nodes).fold((0.0, 0.0), |(d, b), (&c, n)| {
        let c = &n.candidates[c];
        (d + c.dsp as f64, b + c.bram18k as f64)
    })
}

fn lane(lanes: &[i64], port: u32) -> i64 {
    lanes.get(port as usize).copied().unwrap_or(1).max(1)
}

/// The nodes in an order where every edge goes forward (None on a cycle).
pub(super) fn topological(problem: &Problem) -> Option<Vec<usize>> {
    let n = problem.graph.nodes.len();
    let mut indegree = vec![0usize; n];
    for e in &problem.graph.edges {
        indegree[e.to as usize] += 1;
    }
    let mut ready: Vec<usize> = (0..n).filter(|&v| indegree[v] == 0).rev().collect();
    let mut order = Vec::with_capacity(n);
    while let Some(v) = ready.pop() {
        order.push(v);
        for e in problem.graph.edges.iter().filter(|e| e.from as usize == v) {
            let to = e.to as usize;
            indegree[to] -= 1;
            if indegree[to] == 0 {
                ready.push(to);
            }
        }
    }
    (order.len() == n).then_some(order)
}

/// One kept assignment: the lanes of the open channels, its cost, and how
/// it was reached (the entry of the previous step and the candidate taken).
struct Entry {
    lanes: Vec<i64>,
    cost: f64,
    back: usize,
    candidate: usize,
}

/// The cheapest choice under the weights, by the beam over open channels,
/// among the candidates of at most `bound` cycles.
fn cheapest(problem: &Problem, order: &[usize], wd: f64, wb: f64, bound: i64) -> Option<Vec<usize>> {
    let nodes = &problem.graph.nodes;
    let edges = &problem.graph.edges;
    // UltraRAM candidates are left to the ILP: the start keeps to DSP and BRAM.
    let weight = |c: &DseCandidate| wd * c.dsp as f64 + wb * c.bram18k as f64 + 1e9 * c.uram as f64;
    let mut open: Vec<usize> = Vec::new();
    let mut steps: Vec<Vec<Entry>> = Vec::with_capacity(order.len());
    let mut current = vec![Entry { lanes: Vec::new(), cost: 0.0, back: 0, candidate: 0 }];
    for &v in order {
        let inputs: Vec<usize> = open.iter().copied().filter(|&e| edges[e].to as usize == v).collect();
        let mut next_open: Vec<usize> = open.iter().copied().filter(|&e| edges[e].to as usize != v).collect();
        next_open.extend((0..edges.len()).filter(|&e| edges[e].from as usize == v));
        next_open.sort_unstable();
        // Where each input edge sits among the open ones, and where each
        // next open edge comes from (an open one kept, or a new output of v):
        // found once per node, not per assignment and candidate.
        let position = |list: &[usize], e: usize| list.iter().position(|&x| x == e);
        let input_at: Vec<usize> =
            inputs.iter().map(|&e| position(&open, e).expect("an input edge is open")).collect();
        let kept_at: Vec<Option<usize>> = next_open.iter().map(|&e| position(&open, e)).collect();
        let mut best: HashMap<Vec<i64>, usize> = HashMap::new();
        let mut next: Vec<Entry> = Vec::new();
        for (k, entry) in current.iter().enumerate() {
            for (ci, c) in nodes[v].candidates.iter().enumerate() {
                if c.cycles > bound {
                    continue;
                }
                let agrees = inputs
                    .iter()
                    .zip(&input_at)
                    .all(|(&e, &at)| entry.lanes[at] == lane(&c.lanes_in, edges[e].to_port));
                if !agrees {
                    continue;
                }
                let lanes: Vec<i64> = next_open
                    .iter()
                    .zip(&kept_at)
                    .map(|(&e, kept)| match kept {
                        Some(at) => entry.lanes[*at],
                        None => lane(&c.lanes_out, edges[e].from_port),
                    })
                    .collect();
                let cost = entry.cost + weight(c);
                match best.get(&lanes) {
                    Some(&i) if next[i].cost <= cost => {}
                    Some(&i) => next[i] = Entry { lanes, cost, back: k, candidate: ci },
                    None => {
                        best.insert(lanes.clone(), next.len());
                        next.push(Entry { lanes, cost, back: k, candidate: ci });
                    }
                }
            }
        }
        if next.is_empty() {
            return None;
        }
        if next.len() > BEAM {
            next.sort_by(|a, b| a.cost.total_cmp(&b.cost));
            next.truncate(BEAM);
        }
        steps.push(std::mem::replace(&mut current, next));
        open = next_open;
    }
    // Walk back from the cheapest final assignment.
    let mut at = (0..current.len()).min_by(|&a, &b| current[a].cost.total_cmp(&current[b].cost))?;
    let mut choice = vec![0; nodes.len()];
    let mut level = current;
    for (i, &v) in order.iter().enumerate().rev() {
        choice[v] = level[at].candidate;
        at = level[at].back;
        level = std::mem::take(&mut steps[i]);
    }
    Some(choice)
}

/// Step 3: the slowest process, repeatedly, to a faster candidate with the
/// same lanes on every port while the limits hold.
fn faster(problem: &Problem, mut choice: Vec<usize>, mut dsp: f64, mut bram: f64) -> Vec<usize> {
    let nodes = &problem.graph.nodes;
    let share = |c: &DseCandidate| c.dsp as f64 / problem.dsp_limit.max(1.0) + c.bram18k as f64 / problem.bram_limit.max(1.0);
    let mut frozen = vec![false; nodes.len()];
    while let Some(p) = (0..nodes.len()).filter(|&p| !frozen[p]).max_by_key(|&p| nodes[p].candidates[choice[p]].cycles) {
        let now = &nodes[p].candidates[choice[p]];
        let upgrade = nodes[p]
            .candidates
            .iter()
            .enumerate()
            .filter(|(_, c)| c.cycles < now.cycles && c.uram <= now.uram && c.lanes_in == now.lanes_in && c.lanes_out == now.lanes_out)
            .filter(|(_, c)| {
                dsp + (c.dsp - now.dsp) as f64 <= problem.dsp_limit
                    && bram + (c.bram18k - now.bram18k) as f64 <= problem.bram_limit
            })
            .min_by(|a, b| share(a.1).total_cmp(&share(b.1)).then(a.1.cycles.cmp(&b.1.cycles)));
        match upgrade {
            Some((i, c)) => {
                dsp += (c.dsp - now.dsp) as f64;
                bram += (c.bram18k - now.bram18k) as f64;
                choice[p] = i;
            }
            None => frozen[p] = true,
        }
    }
    choice
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bridge::ffi::{DseEdge, DseNode, DseProblem};

    fn cand(cycles: i64, dsp: i64, bram18k: i64, lanes_in: i64, lanes_out: i64) -> DseCandidate {
        DseCandidate {
            cycles,
            fill: 1,
            pre: 0,
            tail: 1,
            dsp,
            bram18k,
            lanes_in: vec![lanes_in],
            lanes_out: vec![lanes_out],
            ..Default::default()
        }
    }

    /// load -> conv -> store, where one lane costs BRAM (a deep FIFO) and two
    /// lanes cost none; conv also has a faster two-lane candidate.
    fn chain() -> DseProblem {
        let node = |process: &str, candidates| DseNode { process: process.into(), kind: "x".into(), candidates };
        let edge = |from, to| DseEdge { from, from_port: 0, to, to_port: 0, channel: String::new() };
        DseProblem {
            graph: "g".into(),
            // Listed out of order: the search follows the edges.
            nodes: vec![
                node("store", vec![cand(10, 0, 0, 1, 1), cand(10, 0, 0, 2, 1)]),
                node("conv", vec![cand(100, 1, 4, 1, 1), cand(100, 2, 0, 2, 2), cand(50, 4, 0, 2, 2), cand(20, 9, 0, 2, 2)]),
                node("load", vec![cand(10, 0, 3, 1, 1), cand(10, 0, 0, 1, 2)]),
            ],
            edges: vec![edge(2, 1), edge(1, 0)],
            fifo_bram18k: 0,
            seconds: 0.0,
            reused: 0,
            candidate_limit: 512,
            large: false,
        }
    }

    #[test]
    fn lanes_that_save_bram_and_a_faster_conv_within_the_dsp() {
        let g = chain();
        // One lane needs 7 BRAM18K: the start takes two lanes, then the
        // fastest conv the 5 DSP allow (4 DSP, not 9).
        let p = Problem { graph: &g, dsp_limit: 5.0, bram_limit: 1.0, uram_limit: 0.0 };
        assert_eq!(feasible(&p), Some(vec![1, 2, 1]));
    }

    #[test]
    fn a_whole_chain_changes_lanes_at_once() {
        // Four lanes make every stage four times faster at no cost, but only
        // if all three take them: one process at a time (step 3) cannot
        // leave one lane, the bound on cycles (step 4) moves them together.
        let node = |process: &str, candidates| DseNode { process: process.into(), kind: "x".into(), candidates };
        let edge = |from, to| DseEdge { from, from_port: 0, to, to_port: 0, channel: String::new() };
        let g = DseProblem {
            graph: "g".into(),
            nodes: vec![
                node("load", vec![cand(100, 0, 0, 1, 1), cand(25, 0, 0, 1, 4)]),
                node("map", vec![cand(100, 1, 0, 1, 1), cand(25, 2, 0, 4, 4)]),
                node("store", vec![cand(100, 0, 0, 1, 1), cand(25, 0, 0, 4, 1)]),
            ],
            edges: vec![edge(0, 1), edge(1, 2)],
            fifo_bram18k: 0,
            seconds: 0.0,
            reused: 0,
            candidate_limit: 512,
            large: false,
        };
        let p = Problem { graph: &g, dsp_limit: 2.0, bram_limit: 0.0, uram_limit: 0.0 };
        assert_eq!(feasible(&p), Some(vec![1, 1, 1]));
        // Without the DSP for the fast map, the one-lane chain stays.
        let p = Problem { graph: &g, dsp_limit: 1.0, bram_limit: 0.0, uram_limit: 0.0 };
        assert_eq!(feasible(&p), Some(vec![0, 0, 0]));
    }

    #[test]
    fn none_when_nothing_fits() {
        let g = chain();
        assert_eq!(feasible(&Problem { graph: &g, dsp_limit: 1.0, bram_limit: 0.0, uram_limit: 0.0 }), None);
    }
}
