//! The rows and columns of one solve: a binary column per candidate, one
//! candidate per process, the same lanes at both ends of every channel, the
//! resource limits and, for the dataflow objective, the cost model's graph
//! latency as linear lower bounds.
use super::figures::{burst_drain, cycles, fill_time, lane, own_share, pre_of, resources, tail_of, trail_of};
use super::{Goal, Objective, Problem};
use crate::bridge::ffi::DseCandidate;
use crate::dse::prune::Shape;
use highs::RowProblem;

/// Builds the program of `goal` under the (DSP, BRAM) limits given: the
/// program, the candidates' column numbers per node and, for the dataflow
/// objective, the number of the latency column. `shape` holds the rows'
/// figures of the full candidate lists.
pub(super) fn build(
    problem: &Problem,
    shape: &Shape,
    goal: Goal,
    limits: (Option<f64>, Option<f64>),
) -> (RowProblem, Vec<Vec<usize>>, Option<usize>) {
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
        //   FO_p >= F_p,  T_p >= C_p
        //   FO_to >= FO_from + F_to - pre_to,  T_to >= FO_from + C_to - pre_to
        //            (the first input through the edge's port, which `to`
        //            pulls first `pre` of that port after its start)
        //   T_to >= T_from - trail_from + tail_to (trail of the output port,
        //            tail of the input port the edge feeds)
        //   T_to >= T_o - lead_b + drain_to(b) per burst b of a node o that
        //            reaches the edge (burst_reach)
        //   FO_to >= (1 - s) FO_from + s (T_from - trail_from) + F_to - fill_to, and the
        //   same for T_to with C_to, s the share of the producer's output
        //   span before the last element `to` pulls ahead of its first output
        //   (one row per share `to`'s candidates have: see below)
        //   L    >= T_p.
        // Every bound is monotone, so for a fixed choice the least solution
        // is the recursion's value, and minimising L reaches it on the
        // critical chain: the optimum is exactly the model's graph latency.
        let l = pb.add_column(1.0, 0..);
        latency = Some(next);
        let reach = &shape.reach;
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
            pb.add_row(0.., row(t[p], None, &|c| c.cycles));
            pb.add_row(0.., [(l, 1.0), (t[p], -1.0)]);
        }
        for (k, e) in edges.iter().enumerate() {
            let (from, to) = (e.from as usize, e.to as usize);
            let (port, out) = (e.to_port, e.from_port);
            // `to`'s first output and end: what shifts when an input waits.
            let shifted = [(fo[to], (|c: &DseCandidate| c.fill) as fn(&DseCandidate) -> i64), (t[to], |c| c.cycles)];
            for (var, field) in shifted {
                let mut arrival = vec![(var, 1.0), (fo[from], -1.0)];
                arrival.extend(chosen(to, &|c| field(c) - pre_of(c, port)));
                pb.add_row(0.., arrival);
            }
            let mut finish = vec![(t[to], 1.0), (t[from], -1.0)];
            finish.extend(chosen(to, &|c| tail_of(c, port)));
            finish.extend(chosen(from, &|c| -trail_of(c, out)));
            pb.add_row(0.., finish);
            if let Some(least) = shape.share[k] {
                // The least share holds for every candidate; a larger one
                // for those that have it (or more), the others' rows
                // loosened by (s - theirs) times a bound on the producer's
                // span, so that for them it says nothing.
                let own: Vec<f64> = nodes[to].candidates.iter().map(|c| own_share(c, port).unwrap_or(least)).collect();
                let mut shares = own.clone();
                shares.sort_by(f64::total_cmp);
                shares.dedup_by(|a, b| (*a - *b).abs() < 1e-12);
                for s in shares {
                    for (var, field) in shifted {
                        let mut row = vec![(var, 1.0), (fo[from], -(1.0 - s)), (t[from], -s)];
                        row.extend(chosen(to, &|c| field(c) - fill_time(c, port)).into_iter().zip(&own).map(
                            |((col, v), &mine)| (col, if mine < s - 1e-12 { v + (s - mine) * shape.ceiling } else { v }),
                        ));
                        row.extend(chosen(from, &|c| -trail_of(c, out)).into_iter().map(|(col, v)| (col, s * v)));
                        pb.add_row(0.., row);
                    }
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
    (pb, index, latency)
}
