//! Candidates another candidate of the same process beats in every figure
//! the ILP reads, removed before any solve.
//!
//! Candidate d dominates c when both have the same lanes on every port and d
//! is no worse in each figure a row or the objective takes: fewer or as
//! many resources, no more cycles, fill or tail, no less `pre`, trail or
//! burst lead, no slower pull rate, no larger fill share. Every row of the
//! program (ilp::program) is monotone in those figures, so swapping c for d
//! in any design keeps it feasible and its objective no larger: some optimum
//! never uses c, and removing it keeps the optimum. Of candidates equal in
//! every figure (unroll factors or partitions that cost the same) the first
//! stays. Enumeration offers many such (DS-CNN int8 on the KV260: 4,342
//! candidates, of which 1,632 are dominated), and each is a binary column
//! HiGHS would branch on.
use super::ilp::{burst_drain_rate, fill_time, lane, own_share, pre_of, tail_of, trail_of};
use crate::bridge::ffi::{DseCandidate, DseProblem};
use std::cmp::Ordering;

/// Per node, the indices of the candidates no other candidate dominates, in
/// their original order.
pub(crate) fn undominated(g: &DseProblem) -> Vec<Vec<usize>> {
    g.nodes
        .iter()
        .map(|n| {
            let c = &n.candidates;
            (0..c.len())
                .filter(|&i| {
                    !(0..c.len()).any(|j| {
                        j != i
                            && match compare(&c[j], &c[i]) {
                                Some(Ordering::Less) => true,
                                // Equal: the first of them stays.
                                Some(Ordering::Equal) => j < i,
                                _ => false,
                            }
                    })
                })
                .collect()
        })
        .collect()
}

/// Whether `d` is at least as good as `c` in every figure (Less: better in
/// one at least; Equal: the same in all), None when neither is.
fn compare(d: &DseCandidate, c: &DseCandidate) -> Option<Ordering> {
    let ports_in = [&d.lanes_in, &c.lanes_in, &d.tail_in, &c.tail_in, &d.pre_in, &c.pre_in].iter().map(|l| l.len()).max().unwrap_or(0);
    let ports_out = d.lanes_out.len().max(c.lanes_out.len()).max(d.trail_out.len()).max(c.trail_out.len());
    if (0..ports_in as u32).any(|p| lane(&d.lanes_in, p) != lane(&c.lanes_in, p))
        || (0..ports_out as u32).any(|p| lane(&d.lanes_out, p) != lane(&c.lanes_out, p))
        || d.burst_lead.len() != c.burst_lead.len()
    {
        return None;
    }
    // Each pair is (d's figure, c's figure), smaller being better.
    let mut pairs: Vec<(f64, f64)> = vec![
        (d.dsp as f64, c.dsp as f64),
        (d.bram18k as f64, c.bram18k as f64),
        (d.uram as f64, c.uram as f64),
        (d.cycles as f64, c.cycles as f64),
        (d.fill as f64, c.fill as f64),
        (d.tail as f64, c.tail as f64),
    ];
    for p in 0..ports_in as u32 {
        pairs.push(((d.cycles - pre_of(d, p)) as f64, (c.cycles - pre_of(c, p)) as f64));
        pairs.push(((d.fill - pre_of(d, p)) as f64, (c.fill - pre_of(c, p)) as f64));
        pairs.push((tail_of(d, p) as f64, tail_of(c, p) as f64));
        pairs.push((burst_drain_rate(d, p), burst_drain_rate(c, p)));
        pairs.push(((d.fill - fill_time(d, p)) as f64, (c.fill - fill_time(c, p)) as f64));
        pairs.push(((d.cycles - fill_time(d, p)) as f64, (c.cycles - fill_time(c, p)) as f64));
        // A share only counts where every candidate has one (fill_share).
        if let (Some(sd), Some(sc)) = (own_share(d, p), own_share(c, p)) {
            pairs.push((sd, sc));
        }
    }
    for p in 0..ports_out as u32 {
        pairs.push((-(trail_of(d, p) as f64), -(trail_of(c, p) as f64)));
    }
    for (ld, lc) in d.burst_lead.iter().zip(&c.burst_lead) {
        pairs.push((-(*ld as f64), -(*lc as f64)));
    }
    let mut better = false;
    for (x, y) in pairs {
        if x > y {
            return None;
        }
        better |= x < y;
    }
    Some(if better { Ordering::Less } else { Ordering::Equal })
}

/// `g` restricted to the candidates `index` keeps per node.
pub(crate) fn restrict(g: &DseProblem, index: &[Vec<usize>]) -> DseProblem {
    let mut kept = g.clone();
    for (node, keep) in kept.nodes.iter_mut().zip(index) {
        node.candidates = keep.iter().map(|&c| node.candidates[c].clone()).collect();
    }
    kept
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bridge::ffi::DseNode;

    fn cand(cycles: i64, dsp: i64, lanes: i64) -> DseCandidate {
        DseCandidate { cycles, fill: 10, tail: 5, dsp, lanes_in: vec![lanes], lanes_out: vec![lanes], ..Default::default() }
    }

    /// Slower at the same DSPs goes; faster for more DSPs stays; other
    /// lanes never compare; of two equal candidates the first stays; a
    /// longer trail (the output is done earlier) is better.
    #[test]
    fn dominated_candidates_go() {
        let mut trailing = cand(100, 8, 1);
        trailing.trail_out = vec![20];
        let node = DseNode {
            process: "p".into(),
            kind: String::new(),
            candidates: vec![cand(100, 8, 1), cand(120, 8, 1), cand(50, 16, 1), cand(500, 1, 2), cand(100, 8, 1), trailing],
        };
        let g = DseProblem { graph: "g".into(), nodes: vec![node], edges: vec![], fifo_bram18k: 0, seconds: 0.0, reused: 0, candidate_limit: 512, large: false };
        assert_eq!(undominated(&g), vec![vec![2, 3, 5]]);
    }
}
