//! Local search from the starting design, on the ILP's own objective.
//!
//! dse::start balances the slowest process; the objective is the graph's
//! latency, where a process's fill and its producers' rates count as much as
//! its own cycles. On a large network the ILP gets seconds, and when they
//! end before it leaves its root node, the start is the design: MobileNetV2
//! then kept a start 30% slower than what an idle machine's ILP found. Here
//! the start improves by moves the recursion (prune::Evaluator) scores
//! exactly, in a fixed number of evaluations, so that the result does not
//! depend on the machine's speed:
//! 1. sweeps: each process in turn takes its best candidate, the others
//!    fixed, within the limits, while a sweep improves the latency;
//! 2. then one exchange: a candidate that would improve the latency but
//!    breaks a limit (those that gain the most cycles per share of a limit
//!    first), paid for by cheaper candidates of other processes (those that
//!    cost the fewest cycles per share they free first); the best exchange
//!    found is taken and the sweeps go on. Most of the gain is here: the
//!    balanced start leaves DSPs on processes whose speed the latency does
//!    not need.
//!
//! A move changes one process's candidate; where that changes the lanes of
//! a channel, the process at its other end takes its candidate with those
//! lanes there and its own elsewhere (the cheapest such, or the fastest: two
//! moves), so that both ends of every channel agree; or the new lanes are
//! carried along the chain, each process there taking them on all its
//! ports (a word wider than its input waits to be whole, so lanes pay only
//! where a whole chain changes them). Every move keeps the
//! three limits. The ILP starts from the result and prunes with its
//! latency, which only helps it; nothing here is claimed optimal.
use super::ilp::{lane, Objective, Problem};
use super::prune::{Evaluator, Shape};
use crate::bridge::ffi::DseCandidate;

/// Evaluations of the recursion the search may spend (about 2 s on
/// MobileNetV2's 133 processes here).
const EVALUATIONS: usize = 400_000;
/// Upgrades over a limit tried per exchange, and downgrades tried per upgrade.
const UPGRADES: usize = 24;
const DOWNGRADES: usize = 12;

/// A move's resource change, DSP, BRAM18K and URAM.
type Delta = [i64; 3];

fn figures(c: &DseCandidate) -> Delta {
    [c.dsp, c.bram18k, c.uram]
}

/// A channel at a process being moved, seen from its other end: that
/// process, its port, the channel's new lanes and whether it reads them.
struct End {
    q: usize,
    port: u32,
    lanes: f64,
    reads: bool,
}

impl End {
    /// The lanes `x` has on this end's port.
    fn side(&self, x: &DseCandidate) -> f64 {
        if self.reads {
            lane(&x.lanes_in, self.port)
        } else {
            lane(&x.lanes_out, self.port)
        }
    }

    /// Whether `x` has `now`'s lanes on every port but this end's.
    fn keeps(&self, x: &DseCandidate, now: &DseCandidate) -> bool {
        let same = |a: &[i64], b: &[i64], skip: Option<u32>| {
            (0..a.len().max(b.len()) as u32).filter(|&k| Some(k) != skip).all(|k| lane(a, k) == lane(b, k))
        };
        let (skip_in, skip_out) = if self.reads { (Some(self.port), None) } else { (None, Some(self.port)) };
        same(&x.lanes_in, &now.lanes_in, skip_in) && same(&x.lanes_out, &now.lanes_out, skip_out)
    }
}

struct Search<'a> {
    problem: &'a Problem<'a>,
    eval: Evaluator<'a>,
    choice: Vec<usize>,
    latency: f64,
    used: Delta,
    left: usize,
    /// The channels (edge indices) at each process.
    channels: Vec<Vec<usize>>,
}

impl Search<'_> {
    fn limits(&self) -> [f64; 3] {
        [self.problem.dsp_limit, self.problem.bram_limit, self.problem.uram_limit]
    }

    fn fits(&self, deltas: &[Delta]) -> bool {
        let limits = self.limits();
        (0..3).all(|r| (self.used[r] + deltas.iter().map(|d| d[r]).sum::<i64>()) as f64 <= limits[r])
    }

    /// The latency with `moves` applied (each a node and its candidate).
    fn score(&mut self, moves: &[(usize, usize)]) -> f64 {
        self.left = self.left.saturating_sub(1);
        let old: Vec<usize> = moves.iter().map(|&(p, _)| self.choice[p]).collect();
        for &(p, c) in moves {
            self.choice[p] = c;
        }
        let l = if self.agrees(moves) { self.eval.latency(&self.choice) } else { f64::INFINITY };
        for (&(p, _), o) in moves.iter().zip(old) {
            self.choice[p] = o;
        }
        l
    }

    /// Whether both ends of every channel at a moved process agree on its
    /// lanes (in the current choice, with the moves applied).
    fn agrees(&self, moves: &[(usize, usize)]) -> bool {
        let g = self.problem.graph;
        let cand = |p: usize| &g.nodes[p].candidates[self.choice[p]];
        g.edges.iter().filter(|e| moves.iter().any(|&(m, _)| m == e.from as usize || m == e.to as usize)).all(|e| {
            lane(&cand(e.from as usize).lanes_out, e.from_port) == lane(&cand(e.to as usize).lanes_in, e.to_port)
        })
    }

    fn apply(&mut self, moves: &[(usize, usize)], latency: f64) {
        let nodes = &self.problem.graph.nodes;
        for &(p, c) in moves {
            let (from, to) = (figures(&nodes[p].candidates[self.choice[p]]), figures(&nodes[p].candidates[c]));
            for r in 0..3 {
                self.used[r] += to[r] - from[r];
            }
            self.choice[p] = c;
        }
        self.latency = latency;
    }

    /// The moves that give `p` each of its other candidates, with the
    /// repairs of its neighbours where lanes change, and what each move
    /// changes in resources.
    fn alternatives(&self, p: usize) -> Vec<(Vec<(usize, usize)>, Delta)> {
        let g = self.problem.graph;
        let cands = &g.nodes[p].candidates;
        let mut out = Vec::new();
        for i in (0..cands.len()).filter(|&i| i != self.choice[p]) {
            let mut alone = false;
            for fastest in [false, true] {
                let Some(moves) = self.repaired(p, i, fastest) else { continue };
                alone = moves.len() == 1;
                let delta = self.delta(&moves);
                out.push((moves, delta));
                if alone {
                    break; // no neighbour to repair: one move
                }
            }
            if !alone {
                for fastest in [false, true] {
                    if let Some(moves) = self.carried(p, i, fastest) {
                        let delta = self.delta(&moves);
                        out.push((moves, delta));
                    }
                }
            }
        }
        out
    }

    /// `p` to candidate `i`, the new lanes carried along the channels it
    /// changes: each neighbour takes its cheapest (or fastest) candidate with those lanes
    /// on every stream port, and passes them on, until a neighbour has no
    /// such candidate (it keeps its other ports' lanes, as in `repaired`).
    /// A word wider than what comes in leaves only once whole, so along a
    /// chain of maps the lanes pay only where all of them change; one
    /// process at a time, each step would cost before the last one gains.
    fn carried(&self, p: usize, i: usize, fastest: bool) -> Option<Vec<(usize, usize)>> {
        let g = self.problem.graph;
        let mut moves = vec![(p, i)];
        let mut queue = std::collections::VecDeque::from([p]);
        while let Some(m) = queue.pop_front() {
            let c = &g.nodes[m].candidates[moves.iter().find(|&&(x, _)| x == m)?.1];
            for end in self.ends(m, c) {
                let target = moves.iter().find(|&&(x, _)| x == end.q).map_or(self.choice[end.q], |&(_, d)| d);
                let now = &g.nodes[end.q].candidates[target];
                if end.side(now) == end.lanes {
                    continue;
                }
                if moves.iter().any(|&(x, _)| x == end.q) {
                    return None; // two channels of one process disagree: left to the ILP
                }
                let all = |x: &DseCandidate| x.lanes_in.iter().chain(&x.lanes_out).all(|&l| l.max(1) as f64 == end.lanes);
                if let Some(d) = self.best(&end, fastest, all) {
                    moves.push((end.q, d));
                    queue.push_back(end.q);
                    continue;
                }
                moves.push((end.q, self.best(&end, fastest, |x| end.keeps(x, now))?));
            }
        }
        Some(moves)
    }

    /// `p` to candidate `i`, and each neighbour whose channel's lanes that
    /// changes to its cheapest (or fastest) candidate with the new lanes on
    /// that channel and its own on every other; None when one has none.
    fn repaired(&self, p: usize, i: usize, fastest: bool) -> Option<Vec<(usize, usize)>> {
        let g = self.problem.graph;
        let c = &g.nodes[p].candidates[i];
        let mut moves = vec![(p, i)];
        for end in self.ends(p, c) {
            let target = moves.iter().find(|&&(m, _)| m == end.q).map_or(self.choice[end.q], |&(_, d)| d);
            let now = &g.nodes[end.q].candidates[target];
            if end.side(now) == end.lanes {
                continue;
            }
            if end.q == p || moves.iter().any(|&(m, _)| m == end.q) {
                return None; // a second channel of the same neighbour: left to the ILP
            }
            // The neighbour's other ports keep their lanes.
            moves.push((end.q, self.best(&end, fastest, |x| end.keeps(x, now))?));
        }
        Some(moves)
    }

    /// The channels at `m` (with candidate `c`), each seen from its other end.
    fn ends<'s>(&'s self, m: usize, c: &'s DseCandidate) -> impl Iterator<Item = End> + 's {
        let g = self.problem.graph;
        self.channels[m].iter().map(move |&k| {
            let e = &g.edges[k];
            if e.from as usize == m {
                End { q: e.to as usize, port: e.to_port, lanes: lane(&c.lanes_out, e.from_port), reads: true }
            } else {
                End { q: e.from as usize, port: e.from_port, lanes: lane(&c.lanes_in, e.to_port), reads: false }
            }
        })
    }

    /// The cheapest (or fastest) candidate of `end`'s process with the
    /// channel's lanes on its port that `also` accepts.
    fn best(&self, end: &End, fastest: bool, also: impl Fn(&DseCandidate) -> bool) -> Option<usize> {
        let key = |x: &DseCandidate| if fastest { (x.cycles, x.dsp + x.bram18k) } else { (x.dsp + x.bram18k, x.cycles) };
        let cands = &self.problem.graph.nodes[end.q].candidates;
        cands.iter().enumerate().filter(|(_, x)| end.side(x) == end.lanes && also(x)).min_by_key(|(_, x)| key(x)).map(|(k, _)| k)
    }

    fn delta(&self, moves: &[(usize, usize)]) -> Delta {
        let nodes = &self.problem.graph.nodes;
        let mut d = [0i64; 3];
        for &(p, c) in moves {
            let (from, to) = (figures(&nodes[p].candidates[self.choice[p]]), figures(&nodes[p].candidates[c]));
            for r in 0..3 {
                d[r] += to[r] - from[r];
            }
        }
        d
    }

    /// Step 1: one sweep; whether it improved.
    fn sweep(&mut self) -> bool {
        let mut improved = false;
        for p in 0..self.choice.len() {
            let mut best: Option<(f64, Vec<(usize, usize)>)> = None;
            for (moves, delta) in self.alternatives(p) {
                if self.left == 0 {
                    return improved;
                }
                if !self.fits(&[delta]) {
                    continue;
                }
                let l = self.score(&moves);
                if l < best.as_ref().map_or(self.latency - 0.5, |b| b.0) {
                    best = Some((l, moves));
                }
            }
            if let Some((l, moves)) = best {
                self.apply(&moves, l);
                improved = true;
            }
        }
        improved
    }

    /// Step 2: the best exchange found; whether one improved.
    fn exchange(&mut self) -> bool {
        let (mut ups, mut downs) = (Vec::new(), Vec::new());
        for p in 0..self.choice.len() {
            for (moves, delta) in self.alternatives(p) {
                if self.left == 0 {
                    return false;
                }
                let frees = delta.iter().all(|&d| d <= 0) && delta.iter().any(|&d| d < 0);
                if self.fits(&[delta]) && !frees {
                    continue; // the sweeps took what fits and helps
                }
                let l = self.score(&moves);
                if !self.fits(&[delta]) && l < self.latency - 0.5 {
                    ups.push((l, moves, delta));
                } else if frees {
                    downs.push((l - self.latency, moves, delta));
                }
            }
        }
        // Upgrades by the cycles they gain per share of a limit they take,
        // downgrades by the cycles they cost per share they free.
        let limits = self.limits();
        let share = |d: &Delta, sign: i64| -> f64 {
            (0..3).map(|r| (sign * d[r]).max(0) as f64 / limits[r].max(1.0)).sum::<f64>().max(1e-9)
        };
        let now = self.latency;
        ups.sort_by(|a, b| ((now - b.0) / share(&b.2, 1)).total_cmp(&((now - a.0) / share(&a.2, 1))));
        downs.sort_by(|a, b| (a.0.max(0.0) / share(&a.2, -1)).total_cmp(&(b.0.max(0.0) / share(&b.2, -1))));
        let mut best: Option<(f64, Vec<(usize, usize)>)> = None;
        for (_, up_moves, up) in ups.iter().take(UPGRADES) {
            // Downgrades touching other processes, least costly first, until
            // the upgrade fits; the first DOWNGRADES such sets that fit are
            // scored.
            let mut tried = 0;
            for start in 0..downs.len() {
                if self.left == 0 || tried == DOWNGRADES {
                    break;
                }
                let mut moves = up_moves.clone();
                let mut deltas = vec![*up];
                for (_, down_moves, down) in &downs[start..] {
                    if self.fits(&deltas) {
                        break;
                    }
                    if down_moves.iter().any(|&(q, _)| moves.iter().any(|&(m, _)| m == q)) {
                        continue;
                    }
                    moves.extend_from_slice(down_moves);
                    deltas.push(*down);
                }
                if !self.fits(&deltas) {
                    break;
                }
                tried += 1;
                let l = self.score(&moves);
                if l < best.as_ref().map_or(self.latency - 0.5, |b| b.0) {
                    best = Some((l, moves));
                }
            }
        }
        match best {
            Some((l, moves)) => {
                self.apply(&moves, l);
                true
            }
            None => false,
        }
    }
}

/// What the search made of a start.
pub(crate) struct Improved {
    pub choice: Vec<usize>,
    pub before: f64,
    pub after: f64,
    /// Evaluations of the recursion spent.
    pub evaluations: usize,
}

/// `choice` (within the limits) improved.
pub(crate) fn improve(problem: &Problem, shape: &Shape, objective: Objective, choice: Vec<usize>) -> Improved {
    let Some(eval) = Evaluator::new(problem, shape, objective) else {
        return Improved { choice, before: f64::NAN, after: f64::NAN, evaluations: 0 };
    };
    let latency = eval.latency(&choice);
    let used = choice.iter().zip(&problem.graph.nodes).fold([0i64; 3], |u, (&c, n)| {
        let f = figures(&n.candidates[c]);
        [u[0] + f[0], u[1] + f[1], u[2] + f[2]]
    });
    let mut channels = vec![Vec::new(); problem.graph.nodes.len()];
    for (k, e) in problem.graph.edges.iter().enumerate() {
        channels[e.from as usize].push(k);
        if e.to != e.from {
            channels[e.to as usize].push(k);
        }
    }
    let mut s = Search { problem, eval, choice, latency, used, left: EVALUATIONS, channels };
    loop {
        while s.sweep() {}
        if s.left == 0 || !s.exchange() {
            break;
        }
    }
    Improved { choice: s.choice, before: latency, after: s.latency, evaluations: EVALUATIONS - s.left }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dse::fixtures::chain;

    fn cand(cycles: i64, dsp: i64) -> DseCandidate {
        DseCandidate { cycles, fill: 1, tail: 1, dsp, lanes_in: vec![1], lanes_out: vec![1], ..Default::default() }
    }

    /// load -> a -> b -> store with 10 DSP: a starts fast (8 DSP, 100
    /// cycles) and b slow (2 DSP, 1,000). No single move within the limit
    /// helps; the exchange gives b the DSPs a can spare (4 each: 500, 400).
    #[test]
    fn an_exchange_moves_dsps_to_the_slow_process() {
        let g = chain(vec![
            ("load", vec![cand(10, 0)]),
            ("a", vec![cand(100, 8), cand(400, 4), cand(800, 2)]),
            ("b", vec![cand(1000, 2), cand(500, 4), cand(250, 8)]),
            ("store", vec![cand(10, 0)]),
        ]);
        let p = Problem { graph: &g, dsp_limit: 10.0, bram_limit: 0.0, uram_limit: 0.0 };
        let shape = Shape::of(&g);
        let Improved { choice, before, after, .. } = improve(&p, &shape, Objective::Dataflow, vec![0, 0, 0, 0]);
        assert_eq!(choice, vec![0, 1, 1, 0]);
        assert!(after < before, "{after} < {before}");
        // Within 10 DSP every design is at least as slow.
        let eval = Evaluator::new(&p, &shape, Objective::Dataflow).expect("acyclic");
        for a in 0..3 {
            for b in 0..3 {
                let dsp = [8, 4, 2][a] + [2, 4, 8][b];
                if dsp <= 10 {
                    assert!(eval.latency(&[0, a, b, 0]) >= after);
                }
            }
        }
    }

    /// load -> a -> b -> c -> store, each map on one lane (first output at
    /// 10) or on two (at 1), nothing in between. Moving one map to two lanes
    /// leaves its neighbours no candidate with one lane on their other port;
    /// the lanes carried along the chain give every map two.
    #[test]
    fn lanes_are_carried_along_a_chain() {
        let lanes = |c: DseCandidate, l: i64| DseCandidate { lanes_in: vec![l], lanes_out: vec![l], ..c };
        let map = || vec![DseCandidate { fill: 10, ..cand(100, 1) }, lanes(cand(100, 1), 2)];
        let g = chain(vec![
            ("load", vec![cand(10, 0), lanes(cand(10, 0), 2)]),
            ("a", map()),
            ("b", map()),
            ("c", map()),
            ("store", vec![cand(10, 0), lanes(cand(10, 0), 2)]),
        ]);
        let p = Problem { graph: &g, dsp_limit: 10.0, bram_limit: 0.0, uram_limit: 0.0 };
        let shape = Shape::of(&g);
        let Improved { choice, before, after, .. } = improve(&p, &shape, Objective::Dataflow, vec![0; 5]);
        assert_eq!(choice, vec![1; 5]);
        assert!(after < before, "{after} < {before}");
    }

    /// Chains of 40 processes with random candidates on one or two lanes:
    /// the search never breaks a limit or a channel's lanes, and never
    /// makes the start slower.
    #[test]
    fn moves_keep_limits_and_lanes() {
        let mut seed = 12345u64;
        let mut next = |n: u64| {
            seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            (seed >> 33) % n
        };
        for _ in 0..20 {
            let processes = (0..40)
                .map(|_| {
                    let candidates = (0..8)
                        .map(|_| {
                            let mut c = cand(100 + next(2000) as i64, next(20) as i64);
                            c.bram18k = next(3) as i64;
                            c.lanes_in = vec![1 + next(2) as i64];
                            c.lanes_out = vec![1 + next(2) as i64];
                            c
                        })
                        .collect();
                    ("p", candidates)
                })
                .collect();
            let g = chain(processes);
            let p = Problem { graph: &g, dsp_limit: 300.0, bram_limit: 40.0, uram_limit: 0.0 };
            let Some(start) = crate::dse::start::feasible(&p) else { continue };
            let shape = Shape::of(&g);
            let r = improve(&p, &shape, Objective::Dataflow, start);
            assert!(r.after <= r.before, "{} <= {}", r.after, r.before);
            let pick = |k: usize| &g.nodes[k].candidates[r.choice[k]];
            assert!((0..40).map(|k| pick(k).dsp).sum::<i64>() as f64 <= p.dsp_limit);
            assert!((0..40).map(|k| pick(k).bram18k).sum::<i64>() as f64 <= p.bram_limit);
            for e in &g.edges {
                assert_eq!(pick(e.from as usize).lanes_out, pick(e.to as usize).lanes_in, "lanes of {}->{}", e.from, e.to);
            }
            let eval = Evaluator::new(&p, &shape, Objective::Dataflow).expect("acyclic");
            assert_eq!(eval.latency(&r.choice), r.after);
        }
    }
}
