//! The candidates' figures as the ILP's rows take them, shared with the
//! pruning (dse::prune): cycles and resources, lanes per port, the tails,
//! trails and fill shares of ports, and the bursts that reach each input.
use crate::bridge::ffi::{DseCandidate, DseProblem};

/// The figures of a candidate as the ILP takes them.
pub(super) fn cycles(c: &DseCandidate) -> f64 {
    c.cycles as f64
}

/// What the tie-break between equally fast designs counts: DSPs, BRAM18Ks,
/// and a URAM288 as the 16 BRAM18Ks it holds (so a buffer of a few hundred
/// bytes goes to LUTRAM or BRAM, not to a whole UltraRAM).
pub(super) fn resources(c: &DseCandidate) -> f64 {
    (c.dsp + c.bram18k + 16 * c.uram) as f64
}

/// Lanes of port `port` in `lanes` (1 for a port the list does not name).
pub(crate) fn lane(lanes: &[i64], port: u32) -> f64 {
    lanes.get(port as usize).copied().unwrap_or(1).max(1) as f64
}

/// Cycles of `c` before the first pull of its input port `port` (`pre` for
/// a port `pre_in` does not name): a Concat reads its second input only
/// after the whole first, so that input may arrive that much later.
pub(crate) fn pre_of(c: &DseCandidate, port: u32) -> i64 {
    c.pre_in.get(port as usize).copied().unwrap_or(c.pre)
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
    let rate = burst_drain_rate(c, port);
    let lanes = lane(&c.lanes_in, port) as i64;
    let before = (elements - lanes).max(0);
    (before as f64 * rate - 1e-9).ceil() as i64 + tail_of(c, port)
}

/// Cycles per element `c` pulls on input `port` (0 for a port the list does
/// not name), what a burst's drain grows with.
pub(crate) fn burst_drain_rate(c: &DseCandidate, port: u32) -> f64 {
    c.pull_cycles.get(port as usize).copied().unwrap_or(0.0)
}

/// The share of its producer's output span after which `c` has, on input
/// `port`, the last element it pulls before its first output, in words of
/// the port's lanes (cost::fillShare); None when it pulls none there first.
pub(crate) fn own_share(c: &DseCandidate, port: u32) -> Option<f64> {
    let l = *c.fill_elements.get(port as usize)?;
    let n = c.in_elements.get(port as usize).copied().unwrap_or(0);
    if l < 1 {
        return None;
    }
    let lanes = lane(&c.lanes_in, port) as i64;
    let (word, words) = ((l + lanes - 1) / lanes, (n + lanes - 1) / lanes);
    Some(if word <= 1 || words <= 1 { 0.0 } else { ((word - 1) as f64 / (words - 1) as f64).min(1.0) })
}

/// The least share any of `candidates` has on `port` (own_share); None when
/// one of them pulls nothing there before its first output. A window whose
/// row loop is pipelined waits for a whole row where its pixel pipeline
/// waits for a pixel, so the shares differ between candidates.
pub(crate) fn fill_share(candidates: &[DseCandidate], port: u32) -> Option<f64> {
    candidates.iter().map(|c| own_share(c, port)).try_fold(f64::INFINITY, |m, s| s.map(|s| m.min(s)))
}

/// An upper bound on the graph latency of every choice (for the rows that
/// hold only for some candidates): per node, the most any candidate adds to
/// the latest time before it, summed. Each of the recursion's terms is an
/// earlier node's time plus the node's cycles, a tail or a burst's drain.
pub(crate) fn latency_ceiling(g: &DseProblem, reach: &[Vec<Vec<Reach>>]) -> f64 {
    let mut total = 0.0;
    for (v, n) in g.nodes.iter().enumerate() {
        let most = n.candidates.iter().map(|c| {
            let mut m = c.cycles.max(c.tail).max(c.fill);
            m = c.tail_in.iter().fold(m, |m, &t| m.max(t));
            for (port, list) in reach[v].iter().enumerate() {
                for r in list {
                    m = m.max(burst_drain(c, port as u32, r.elements));
                }
            }
            m
        });
        total += most.max().unwrap_or(0).max(0) as f64;
    }
    total + 1.0
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
