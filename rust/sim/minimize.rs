//! FIFO minimisation: every channel shrunk to the cheapest depth that keeps
//! the simulated cycles within 1% of a run with unbounded FIFOs. The
//! unbounded run's peak occupancy is a depth that changes nothing (a FIFO
//! never blocks below its peak); the DSE's depth, when the design with the
//! DSE's depths already meets the bound, is another. The search starts at
//! the smaller of the two and, channel by channel (the widest, most bits
//! per word, first, each search keeping the depths already found),
//! searches, two depths at a time, the depths where the FIFO gets cheaper:
//! the deepest of each cheaper cost class (fewer BRAM18Ks; fewer 32-deep
//! shift registers per bit; registers at `MIN_DEPTH`). A depth between two
//! of those costs what the deeper one costs, so simulating it would buy
//! nothing. Every accepted depth is checked by a simulation of the whole
//! design with the depths so far, so the final set is one that was
//! simulated; then once more with every process running one iteration at a
//! time, as the C simulation does, where channels full in a deadlock get
//! deeper again. Past a budget of simulations (a large graph's, in place of
//! a time limit: the depths must not depend on the machine's speed) the
//! channels not yet searched keep the depths they start from, which the
//! first runs simulated.
use super::engine::{simulate, Design, Outcome, WaitKind};
use super::program::Io;

/// Slack over the unbounded run, in parts per hundred.
pub const SLACK_PERCENT: u64 = 1;

/// No FIFO is made shallower than this: 2 words is Vitis's default stream
/// depth and an SRL either way, so going to 1 saves nothing and would cost a
/// simulation per channel.
pub const MIN_DEPTH: u64 = 2;

#[derive(Debug, Clone)]
pub struct Minimized {
    pub unbounded: Outcome,
    /// The cycle bound the depths keep (unbounded cycles + 1%).
    pub bound: u64,
    pub depths: Vec<u64>,
    /// The design with `depths`.
    pub outcome: Outcome,
    pub simulations: usize,
    /// Channels the budget left unsearched.
    pub unsearched: usize,
}

/// Why minimisation cannot run: even unbounded FIFOs deadlock (a process
/// waits for elements that are never produced).
#[derive(Debug, Clone)]
pub struct Starved(pub Outcome);

/// What a FIFO of `depth` words of `bits` bits costs per lane, as an order:
/// BRAM18Ks (fifo_bram18k), else shift registers of 32 words per bit, and
/// nothing at `MIN_DEPTH` or less (registers).
fn cost_class(depth: u64, bits: u64) -> (u64, u64) {
    match fifo_bram18k(1, depth, bits) {
        0 if depth <= MIN_DEPTH => (0, 0),
        0 => (0, depth.div_ceil(32)),
        bram => (bram, 0),
    }
}

/// The depths worth trying for a FIFO now `depth` deep, ascending: the
/// deepest of each cost class cheaper than `depth`'s, then `depth`.
fn class_depths(depth: u64, bits: u64) -> Vec<u64> {
    let mut out = vec![depth];
    let mut d = depth;
    loop {
        let class = cost_class(d, bits);
        if d <= MIN_DEPTH || class == (0, 0) {
            break;
        }
        // The largest depth below d in a cheaper class (classes grow with
        // the depth): MIN_DEPTH is in the cheapest.
        let (mut lo, mut hi) = (MIN_DEPTH, d - 1);
        while lo < hi {
            let mid = hi - (hi - lo) / 2;
            if cost_class(mid, bits) < class {
                lo = mid;
            } else {
                hi = mid - 1;
            }
        }
        out.push(lo);
        d = lo;
    }
    out.reverse();
    out
}

/// Least depths for `design`, whose own depths ran as `given`; `lanes[c]`
/// and `bits[c]` (lanes and bits per element of channel c) price the
/// depths and order the search, widest words first. With a `budget`, no
/// channel's search starts once that many simulations have run.
pub fn minimize(design: &Design, given: &Outcome, lanes: &[u64], bits: &[u64], budget: Option<usize>) -> Result<Minimized, Starved> {
    let mut d = design.clone();
    for c in &mut d.channels {
        c.depth = None;
    }
    let unbounded = simulate(&d);
    if unbounded.deadlock.is_some() {
        return Err(Starved(unbounded));
    }
    let bound = unbounded.cycles + unbounded.cycles * SLACK_PERCENT / 100;
    let ok = |o: &Outcome| o.deadlock.is_none() && o.cycles <= bound;
    let given_ok = ok(given);
    let mut depths: Vec<u64> = unbounded
        .channels
        .iter()
        .zip(&design.channels)
        .map(|(c, spec)| match spec.depth {
            Some(depth) if given_ok => depth.min(c.peak),
            _ => c.peak,
        })
        .map(|depth| depth.max(MIN_DEPTH))
        .collect();
    for (c, spec) in d.channels.iter_mut().enumerate() {
        spec.depth = Some(depths[c]);
    }
    let mut simulations = 1;
    if given_ok {
        // Mixing the DSE's depths with peaks of another schedule: check it,
        // else start from the peaks alone (the unbounded schedule itself).
        simulations += 1;
        if !ok(&simulate(&d)) {
            for ((spec, depth), c) in d.channels.iter_mut().zip(&mut depths).zip(&unbounded.channels) {
                *depth = c.peak.max(MIN_DEPTH);
                spec.depth = Some(*depth);
            }
        }
    }
    let bits_of = |c: usize| bits.get(c).copied().unwrap_or(32);
    let mut order: Vec<usize> = (0..depths.len()).collect();
    order.sort_by_key(|&c| std::cmp::Reverse(lanes.get(c).copied().unwrap_or(1) * bits_of(c) * depths[c]));
    let channels = order.len();
    let mut unsearched = 0;
    for (done, c) in order.into_iter().enumerate() {
        if let Some(b) = budget.filter(|&b| simulations >= b) {
            unsearched = channels - done;
            log::info!("simulator: FIFO minimisation stopped at its budget of {b} simulations; {unsearched} of {channels} channels keep their starting depths");
            break;
        }
        crate::progress::detail(&format!("FIFO minimisation, channel {} of {channels}, {simulations} simulations", done + 1));
        // tries[hi] keeps the bound (the depth it has); the least that does.
        // Two depths are simulated side by side per step (a search in
        // thirds), on a core a plain bisection would leave idle.
        let tries = class_depths(depths[c], bits_of(c));
        let (mut lo, mut hi) = (0, tries.len() - 1);
        while lo < hi {
            let third = (hi - lo).div_ceil(3);
            let probes: Vec<usize> = if hi - lo == 1 { vec![lo] } else { vec![lo + third - 1, (lo + 2 * third - 1).min(hi - 1)] };
            let verdicts: Vec<bool> = std::thread::scope(|scope| {
                let runs: Vec<_> = probes
                    .iter()
                    .map(|&probe| {
                        let mut trial = d.clone();
                        trial.channels[c].depth = Some(tries[probe]);
                        scope.spawn(move || simulate(&trial))
                    })
                    .collect();
                runs.into_iter()
                    .map(|run| run.join().unwrap_or_else(|panic| std::panic::resume_unwind(panic)))
                    .map(|o| ok(&o))
                    .collect()
            });
            simulations += probes.len();
            // In ascending order: a failing probe moves the range above it,
            // the first that keeps the bound ends it.
            for (&probe, good) in probes.iter().zip(verdicts) {
                if good {
                    hi = probe;
                    break;
                }
                lo = probe + 1;
            }
        }
        depths[c] = tries[hi];
        d.channels[c].depth = Some(tries[hi]);
    }
    // The C simulation runs each process one iteration at a time, so nothing
    // waits in a pipeline's stages there; depths that lean on those stages
    // deadlock it (a fork whose one branch must hold what its other needs
    // to compute a row's mean). Channels full in such a deadlock get back
    // their given depth (what the DSE counted), and if still full there,
    // their unbounded peak when larger.
    let given_depth = |c: usize| design.channels[c].depth.unwrap_or(0).max(MIN_DEPTH);
    let peak = |c: usize| unbounded.channels[c].peak.max(MIN_DEPTH);
    let mut seq = sequential(&d);
    for _ in 0..2 * channels {
        let run = simulate(&seq);
        simulations += 1;
        let Some(stop) = run.deadlock else { break };
        let mut raised = false;
        for w in stop.waiting.iter().filter(|w| w.kind == WaitKind::Space) {
            let c = w.channel;
            let next = if depths[c] < given_depth(c) { given_depth(c) } else { depths[c].max(peak(c)) };
            if next > depths[c] {
                depths[c] = next;
                d.channels[c].depth = Some(next);
                seq.channels[c].depth = Some(next);
                raised = true;
            }
        }
        if !raised {
            log::warn!("simulator: one iteration at a time, as the C simulation runs, the design stops at cycle {}", stop.cycle);
            break;
        }
    }
    // The accepted runs each had the depths of their time; one last run gives
    // the figures of the final set.
    let outcome = simulate(&d);
    simulations += 1;
    Ok(Minimized { unbounded, bound, depths, outcome, simulations, unsearched })
}

/// `d` as the C simulation runs it: every slot's pushes at its issue, so no
/// iteration is in flight to hold elements between a process's pulls and
/// its pushes, and each iteration's accesses in program order, a part (its
/// pulls, then its pushes) at a time (`Io::parts`).
fn sequential(d: &Design) -> Design {
    let mut s = d.clone();
    for p in &mut s.programs {
        for r in &mut p.runs {
            r.depth = 1;
            if r.iters.iter().any(|i| !i.parts.is_empty()) {
                let iters: Vec<Io> = r.iters.iter().flat_map(Io::in_order).collect();
                r.spread = r.spread.max(iters.len() as u64);
                r.iters = iters;
            }
        }
    }
    s
}

/// BRAM18K of a FIFO as the cost model counts it (docs/cost-model.md,
/// cost::channelBram18k): per lane, SRL/LUTRAM while depth <= 2 or
/// depth x bits <= 1024, else the best RAMB18E2 shape; times lanes.
pub fn fifo_bram18k(lanes: u64, depth: u64, bits: u64) -> u64 {
    if depth <= 2 || depth * bits <= 1024 {
        return 0;
    }
    lanes * bram18k_blocks(depth, bits)
}

/// RAMB18E2 blocks for `words` x `width` bits (UG573 shapes; 512x36 in
/// simple dual-port mode).
pub fn bram18k_blocks(words: u64, width: u64) -> u64 {
    if words == 0 || width == 0 {
        return 0;
    }
    const SHAPES: [(u64, u64); 6] = [(16384, 1), (8192, 2), (4096, 4), (2048, 9), (1024, 18), (512, 36)];
    SHAPES.iter().map(|&(d, w)| width.div_ceil(w) * words.div_ceil(d)).min().unwrap_or(0)
}

#[cfg(test)]
mod tests {
    use super::super::engine::{ChannelSpec, Instance};
    use super::super::program::{Io, Pace, Port, Program};
    use super::*;

    /// A source writing 256 words at one a cycle into a sink that takes them
    /// at one every 4 cycles: the FIFO between them, 300 deep as given, fills
    /// up to the words the sink has not yet taken.
    fn bursty() -> Design {
        let pace = |ii| Pace { first_delay: 0, delay: ii, depth: 2, ii, spread: 1 };
        let mut src = Program::new("src", vec![Port::Out { lanes: 1 }]);
        src.push(256, pace(1), &[Io { pulls: vec![], pushes: vec![(0, 1)], parts: vec![] }]);
        let mut dst = Program::new("dst", vec![Port::In { lanes: 1 }]);
        dst.push(256, pace(4), &[Io { pulls: vec![(0, 1)], pushes: vec![], parts: vec![] }]);
        Design {
            programs: vec![src, dst],
            instances: vec![
                Instance { name: "src".into(), program: 0, channels: vec![Some(0)] },
                Instance { name: "dst".into(), program: 1, channels: vec![Some(0)] },
            ],
            channels: vec![ChannelSpec { name: "c".into(), depth: Some(300) }],
        }
    }

    /// Without a budget the FIFO gets shallower than the unbounded run's
    /// peak (the 1% slack lets the source wait); with a budget its first
    /// simulations have used up, nothing is searched and the channel keeps
    /// its starting depth, the peak, with which the design still runs within
    /// the bound.
    #[test]
    fn a_budget_leaves_channels_at_their_starting_depths() {
        let design = bursty();
        let given = simulate(&design);
        let searched = minimize(&design, &given, &[1], &[32], None).expect("runs");
        assert_eq!(searched.unsearched, 0);
        let peak = searched.unbounded.channels[0].peak;
        assert!(searched.depths[0] < peak, "{} vs peak {peak}", searched.depths[0]);
        let stopped = minimize(&design, &given, &[1], &[32], Some(1)).expect("runs");
        assert_eq!(stopped.unsearched, 1);
        assert_eq!(stopped.depths[0], peak);
        assert!(stopped.outcome.deadlock.is_none() && stopped.outcome.cycles <= stopped.bound);
    }

    /// A fork writes a bias element to each of two windows per iteration (8
    /// in all); each window reads one and writes one output, 8 times, in
    /// one iteration; the join takes all of w1's outputs, then w2's. In the
    /// C simulation w2 stops at its third write (its output FIFO holds 2),
    /// its bias FIFO fills, the fork stops after 5 elements and w1 never
    /// gets its sixth: a deadlock. Taking an iteration's pulls before its
    /// pushes, w2 would drain its bias and hide it.
    fn shared_bias(depth: u64) -> Design {
        let pace = Pace { first_delay: 0, delay: 1, depth: 4, ii: 1, spread: 1 };
        let mut fork = Program::new("fork", vec![Port::Out { lanes: 1 }, Port::Out { lanes: 1 }]);
        fork.push(8, pace, &[Io { pulls: vec![], pushes: vec![(0, 1), (1, 1)], parts: vec![] }]);
        let mut window = Program::new("window", vec![Port::In { lanes: 1 }, Port::Out { lanes: 1 }]);
        let part = Io { pulls: vec![(0, 1)], pushes: vec![(1, 1)], parts: vec![] };
        window.push(1, pace, &[Io { pulls: vec![(0, 8)], pushes: vec![(1, 8)], parts: vec![part; 8] }]);
        let mut join = Program::new("join", vec![Port::In { lanes: 1 }, Port::In { lanes: 1 }]);
        join.push(8, pace, &[Io { pulls: vec![(0, 1)], pushes: vec![], parts: vec![] }]);
        join.push(8, pace, &[Io { pulls: vec![(1, 1)], pushes: vec![], parts: vec![] }]);
        Design {
            programs: vec![fork, window, join],
            instances: vec![
                Instance { name: "fork".into(), program: 0, channels: vec![Some(0), Some(1)] },
                Instance { name: "w1".into(), program: 1, channels: vec![Some(0), Some(2)] },
                Instance { name: "w2".into(), program: 1, channels: vec![Some(1), Some(3)] },
                Instance { name: "join".into(), program: 2, channels: vec![Some(2), Some(3)] },
            ],
            channels: ["b1", "b2", "o1", "o2"].iter().map(|n| ChannelSpec { name: n.to_string(), depth: Some(depth) }).collect(),
        }
    }

    #[test]
    fn the_check_as_the_c_simulation_reads_and_writes_in_program_order() {
        let design = shared_bias(2);
        let stuck = simulate(&sequential(&design)).deadlock.expect("deadlocks in program order");
        let waits: Vec<(usize, usize, WaitKind)> = stuck.waiting.iter().map(|w| (w.instance, w.channel, w.kind)).collect();
        assert!(waits.contains(&(2, 3, WaitKind::Space)), "w2 writing o2: {waits:?}");
        assert!(waits.contains(&(0, 1, WaitKind::Space)), "the fork writing b2: {waits:?}");
        // Without the parts (all pulls first) the same depths pass.
        let mut merged = design.clone();
        for i in merged.programs.iter_mut().flat_map(|p| p.runs.iter_mut()).flat_map(|r| r.iters.iter_mut()) {
            i.parts.clear();
        }
        assert_eq!(simulate(&sequential(&merged)).deadlock, None);
        // Minimised, the depths run in program order.
        let given = simulate(&shared_bias(16));
        let m = minimize(&shared_bias(16), &given, &[1; 4], &[32; 4], None).expect("runs");
        let mut check = sequential(&design);
        for (c, d) in check.channels.iter_mut().zip(&m.depths) {
            c.depth = Some(*d);
        }
        assert_eq!(simulate(&check).deadlock, None, "depths {:?}", m.depths);
    }

    #[test]
    fn bram_rule_matches_the_cost_model() {
        // docs/cost-model.md: the residual skip FIFO f32 x 2185 -> 5 BRAM18K.
        assert_eq!(fifo_bram18k(1, 2185, 32), 5);
        assert_eq!(fifo_bram18k(4, 2, 64), 0);
        assert_eq!(fifo_bram18k(1, 128, 8), 0);
        assert_eq!(fifo_bram18k(2, 129, 8), 2);
        assert_eq!(bram18k_blocks(678, 8), 1);
        assert_eq!(bram18k_blocks(2048, 16), 2);
        assert_eq!(bram18k_blocks(16384, 8), 8);
    }

    #[test]
    fn only_cheaper_depths_are_tried() {
        // 8 bits: shift registers up to 128 words (1024 bits), then BRAM.
        assert_eq!(class_depths(2, 8), vec![2]);
        assert_eq!(class_depths(20, 8), vec![2, 20]);
        assert_eq!(class_depths(100, 8), vec![2, 32, 64, 96, 100]);
        // 32 bits x 2185 words: 5 BRAM18K; 4 hold 2048 (1024 x 18 bits x 2
        // wide, twice), 2 hold 1024 (512 x 36), 1024 bits and below none.
        let tries = class_depths(2185, 32);
        assert_eq!(tries.first(), Some(&2));
        assert_eq!(tries.last(), Some(&2185));
        for w in tries.windows(2) {
            assert!(cost_class(w[0], 32) < cost_class(w[1], 32), "{w:?}");
            assert!(cost_class(w[0] + 1, 32) > cost_class(w[0], 32) || w[0] + 1 == w[1], "{w:?} is not the deepest of its class");
        }
    }
}
