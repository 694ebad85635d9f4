//! The cycle-level simulation of process instances connected by bounded
//! FIFOs, event-driven: a process is woken only at its next slot issue or
//! push, or when the channel it waits on changes.
//!
//! Rules (docs/simulator.md):
//! - a FIFO holds words (`lanes` elements each); a word written in cycle t
//!   can be read from cycle t + 1, and a word read in cycle t frees its place
//!   for writes from cycle t + 1, so a FIFO never holds more than its depth;
//! - a slot's iterations issue one after the other, iteration u at
//!   floor(u * II / unroll) after the slot (program.rs); an iteration issues
//!   at its nominal cycle if every word its pulls start is there, else when
//!   the last one arrives; its pushes complete the words of the port's lanes
//!   (the L-th element of a word writes it) at the slot's last stage,
//!   issue + depth - 1, earlier iterations as much earlier as they started;
//! - a push that finds its FIFO full stalls the whole pipeline: every slot
//!   in flight and every later issue is delayed by as many cycles (output-
//!   blocked). A slot waiting for its input delays its own issue and the
//!   later ones (input-starved), while the slots already in flight drain and
//!   push: holding their results back until the input comes would deadlock
//!   reconvergent paths that the C simulation runs (a window pipeline 52
//!   stages deep keeps several pixels in flight);
//! - a process finishes one cycle after its last slot's completion stage;
//!   the design when the last process does;
//! - deadlock: nothing can move and not every process has finished.
use super::program::{Port, Program};
use std::cmp::Reverse;
use std::collections::{BinaryHeap, VecDeque};

/// A process instance: its program and, per argument, the channel bound to it.
#[derive(Debug, Clone)]
pub struct Instance {
    pub name: String,
    pub program: usize,
    pub channels: Vec<Option<usize>>,
}

#[derive(Debug, Clone)]
pub struct ChannelSpec {
    pub name: String,
    /// In words; None: unbounded.
    pub depth: Option<u64>,
}

/// What the engine simulates.
#[derive(Debug, Clone, Default)]
pub struct Design {
    pub programs: Vec<Program>,
    pub instances: Vec<Instance>,
    pub channels: Vec<ChannelSpec>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum WaitKind {
    /// Reading an empty FIFO.
    Data,
    /// Writing a full FIFO.
    Space,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Wait {
    pub instance: usize,
    pub channel: usize,
    pub kind: WaitKind,
    /// Since when.
    pub since: u64,
    /// Words in the channel when everything stopped.
    pub fill: u64,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Deadlock {
    /// The cycle from which nothing moves.
    pub cycle: u64,
    pub waiting: Vec<Wait>,
    /// A cycle of the wait-for graph, as indices into `waiting` (empty when
    /// a process waits for a producer that has finished: too few elements).
    pub cycle_of: Vec<usize>,
}

#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ProcessStats {
    pub finish: u64,
    /// Cycle of its first push, if it pushed.
    pub first_push: Option<u64>,
    pub starved: u64,
    pub blocked: u64,
    pub slots: u64,
}

impl ProcessStats {
    pub fn busy(&self) -> u64 {
        self.finish.saturating_sub(self.starved + self.blocked)
    }
}

#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ChannelStats {
    /// Most words held at once.
    pub peak: u64,
    pub words: u64,
}

#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Outcome {
    /// The last process's finish (or the deadlock's cycle).
    pub cycles: u64,
    pub processes: Vec<ProcessStats>,
    pub channels: Vec<ChannelStats>,
    pub deadlock: Option<Deadlock>,
}

struct Chan {
    depth: u64,
    /// Write cycles of the words held.
    held: VecDeque<u64>,
    last_read: u64,
    reads_then: u64,
    producer: Option<usize>,
    consumer: Option<usize>,
    stats: ChannelStats,
}

impl Chan {
    /// Words that occupy a place in cycle `now` (reads of `now` free theirs only after it).
    fn occupied(&self, now: u64) -> u64 {
        self.held.len() as u64 + if self.last_read == now { self.reads_then } else { 0 }
    }

    fn can_write(&self, now: u64) -> bool {
        self.occupied(now) < self.depth
    }

    fn write(&mut self, now: u64) {
        self.held.push_back(now);
        self.stats.words += 1;
        self.stats.peak = self.stats.peak.max(self.occupied(now));
    }

    fn can_read(&self, now: u64) -> bool {
        self.held.front().is_some_and(|&t| t < now)
    }

    fn read(&mut self, now: u64) {
        self.held.pop_front();
        if self.last_read == now {
            self.reads_then += 1;
        } else {
            self.last_read = now;
            self.reads_then = 1;
        }
    }
}

/// Words still to move: (channel, words).
type Moves = Vec<(usize, u64)>;

#[derive(Clone, Copy, PartialEq, Eq)]
enum State {
    Ready,
    Waiting(WaitKind, usize, u64),
    Done,
}

struct Proc {
    program: usize,
    run: usize,
    /// Slot within the run, iteration within the slot.
    k: u64,
    u: usize,
    /// Nominal issue cycle of the current slot (moved by stalls).
    base: u64,
    /// Nominal cycle of the next issue.
    next_issue: u64,
    /// Words still needed by the slot being issued (None: not started).
    issuing: Option<Moves>,
    /// Slots in flight: cycle of their push stage and the words they write.
    pending: VecDeque<(u64, Moves)>,
    /// Elements moved so far, per port (for lanes: words start and end at multiples).
    elems: Vec<u64>,
    state: State,
    /// The cycle of its one live heap entry (older entries are stale).
    wake_at: Option<u64>,
    stats: ProcessStats,
}

struct Sim<'d> {
    design: &'d Design,
    chans: Vec<Chan>,
    procs: Vec<Proc>,
    heap: BinaryHeap<Reverse<(u64, usize)>>,
}

fn lanes(p: Port) -> u64 {
    match p {
        Port::In { lanes } | Port::Out { lanes } => lanes.max(1) as u64,
        Port::Other => 1,
    }
}

impl<'d> Sim<'d> {
    fn new(design: &'d Design) -> Self {
        let mut chans: Vec<Chan> = design
            .channels
            .iter()
            .map(|c| Chan {
                depth: c.depth.unwrap_or(u64::MAX).max(1),
                held: VecDeque::new(),
                last_read: u64::MAX,
                reads_then: 0,
                producer: None,
                consumer: None,
                stats: ChannelStats::default(),
            })
            .collect();
        let mut procs = Vec::new();
        let mut heap = BinaryHeap::new();
        for (i, inst) in design.instances.iter().enumerate() {
            let prog = &design.programs[inst.program];
            for (p, c) in inst.channels.iter().enumerate() {
                let Some(c) = c else { continue };
                match prog.ports.get(p) {
                    Some(Port::Out { .. }) => chans[*c].producer = Some(i),
                    Some(Port::In { .. }) => chans[*c].consumer = Some(i),
                    _ => {}
                }
            }
            let first = prog.runs.first().map(|r| r.first_delay);
            let state = if first.is_some() { State::Ready } else { State::Done };
            if let Some(t) = first {
                heap.push(Reverse((t, i)));
            }
            procs.push(Proc {
                program: inst.program,
                run: 0,
                k: 0,
                u: 0,
                base: first.unwrap_or(0),
                next_issue: first.unwrap_or(0),
                issuing: None,
                pending: VecDeque::new(),
                elems: vec![0; prog.ports.len()],
                state,
                wake_at: first,
                stats: ProcessStats::default(),
            });
        }
        Sim { design, chans, procs, heap }
    }

    fn next_event(&self, p: usize) -> Option<u64> {
        let pr = &self.procs[p];
        let prog = &self.design.programs[pr.program];
        let issue = (pr.run < prog.runs.len()).then_some(pr.next_issue);
        let push = pr.pending.front().map(|(t, _)| *t);
        match (issue, push) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        }
    }

    /// Makes `p` run at cycle `t` unless it already runs earlier.
    fn at(&mut self, p: usize, t: u64) {
        let pr = &mut self.procs[p];
        if pr.wake_at.is_none_or(|w| t < w) {
            pr.wake_at = Some(t);
            self.heap.push(Reverse((t, p)));
        }
    }

    /// After an event at `now`: the process's next one.
    fn schedule(&mut self, p: usize, now: u64) {
        match self.procs[p].state {
            State::Ready => match self.next_event(p) {
                Some(t) => self.at(p, t.max(now)),
                None => self.procs[p].state = State::Done,
            },
            // Slots in flight still push while the next one waits for input.
            State::Waiting(WaitKind::Data, ..) => {
                if let Some(&(t, _)) = self.procs[p].pending.front() {
                    self.at(p, t.max(now));
                }
            }
            _ => {}
        }
    }

    fn wake(&mut self, p: Option<usize>, kind: WaitKind, chan: usize, now: u64) {
        let Some(p) = p else { return };
        if let State::Waiting(k, c, since) = self.procs[p].state {
            if k == kind && c == chan {
                self.procs[p].state = State::Ready;
                self.at(p, since.max(now + 1));
            }
        }
    }

    /// Delays everything the frozen pipeline of `p` has in flight or to come.
    fn freeze(&mut self, p: usize, cycles: u64) {
        if cycles == 0 {
            return;
        }
        let pr = &mut self.procs[p];
        for (t, _) in pr.pending.iter_mut() {
            *t += cycles;
        }
        pr.next_issue += cycles;
        pr.base += cycles;
    }

    /// Words a slot moves on each port, by lanes: a pull starts a word at
    /// every multiple of L elements, a push completes one at every L-th.
    fn words(&mut self, p: usize, io: &[(u32, u32)], push: bool) -> Moves {
        let inst = &self.design.instances[p];
        let prog = &self.design.programs[self.procs[p].program];
        let mut moves = Vec::new();
        for &(port, n) in io {
            let port = port as usize;
            let l = lanes(prog.ports.get(port).copied().unwrap_or(Port::Other));
            let e = self.procs[p].elems[port];
            let e2 = e + n as u64;
            self.procs[p].elems[port] = e2;
            let w = if push { e2 / l - e / l } else { e2.div_ceil(l) - e.div_ceil(l) };
            if let (true, Some(Some(c))) = (w > 0, inst.channels.get(port)) {
                moves.push((*c, w));
            }
        }
        moves
    }

    /// Handles the next event of `p` at cycle `now`.
    fn step(&mut self, p: usize, now: u64) {
        let design = self.design;
        let prog = &design.programs[self.procs[p].program];
        let push_due = self.procs[p].pending.front().is_some_and(|&(t, _)| t <= now);
        let waiting_data = matches!(self.procs[p].state, State::Waiting(WaitKind::Data, ..));
        if push_due {
            let (nominal, mut moves) = self.procs[p].pending.pop_front().unwrap_or_default();
            for (c, n) in moves.iter_mut() {
                while *n > 0 && self.chans[*c].can_write(now) {
                    self.chans[*c].write(now);
                    self.procs[p].stats.first_push.get_or_insert(now);
                    *n -= 1;
                    let consumer = self.chans[*c].consumer;
                    self.wake(consumer, WaitKind::Data, *c, now);
                }
                if *n > 0 {
                    let c = *c;
                    self.procs[p].pending.push_front((nominal, moves));
                    if self.chans[c].last_read == now && (self.chans[c].held.len() as u64) < self.chans[c].depth {
                        // Full only until this cycle's reads free their places.
                        self.at(p, now + 1);
                    } else {
                        self.procs[p].state = State::Waiting(WaitKind::Space, c, now);
                    }
                    return;
                }
            }
            // A push that waited froze the pipeline for as long.
            let stall = now.saturating_sub(nominal);
            self.procs[p].stats.blocked += stall;
            self.freeze(p, stall);
            if self.procs[p].pending.is_empty() && self.procs[p].run >= prog.runs.len() {
                self.procs[p].stats.finish = now + 1;
            }
            self.schedule(p, now);
            return;
        }
        if waiting_data {
            // Woken for a push that is not due (stale): keep waiting.
            self.schedule(p, now);
            return;
        }
        if self.procs[p].run >= prog.runs.len() || (self.procs[p].issuing.is_none() && self.procs[p].next_issue > now) {
            self.schedule(p, now);
            return;
        }
        // Issue the current iteration of the current slot.
        let run = &prog.runs[self.procs[p].run];
        let io = &run.iters[self.procs[p].u];
        let mut need = match self.procs[p].issuing.take() {
            Some(n) => n,
            None => self.words(p, &io.pulls, false),
        };
        for (c, n) in need.iter_mut() {
            while *n > 0 && self.chans[*c].can_read(now) {
                self.chans[*c].read(now);
                *n -= 1;
                let producer = self.chans[*c].producer;
                self.wake(producer, WaitKind::Space, *c, now);
            }
            if *n > 0 {
                let c = *c;
                self.procs[p].issuing = Some(need);
                if let Some(&written) = self.chans[c].held.front() {
                    // Written this cycle: readable from the next.
                    self.at(p, written + 1);
                } else {
                    self.procs[p].state = State::Waiting(WaitKind::Data, c, now);
                    self.schedule(p, now);
                }
                return;
            }
        }
        // Waiting for input delays this issue and the later ones, not the
        // slots in flight: they drain (see the module comment).
        let stall = now.saturating_sub(self.procs[p].next_issue);
        self.procs[p].stats.starved += stall;
        self.procs[p].base += stall;
        let issue = now;
        let pushes = self.words(p, &io.pushes, true);
        let pr = &mut self.procs[p];
        let last_iter = pr.u + 1 == run.iters.len();
        let last_of_run = last_iter && pr.k + 1 == run.count;
        let last = last_of_run && pr.run + 1 == prog.runs.len();
        if !pushes.is_empty() || last {
            pr.pending.push_back((issue + run.push_latency(), pushes));
        }
        if last {
            // The process ends once its last slot has moved its words, one a
            // cycle per port, even when its pushes leave before.
            let end = issue - run.offset(pr.u) + run.depth.max(run.span(&prog.ports)) - 1;
            if end > issue + run.push_latency() {
                pr.pending.push_back((end, Vec::new()));
            }
        }
        if last_iter {
            pr.stats.slots += 1;
        }
        // The next iteration, or the next slot; a run without I/O cannot
        // stall, so it is crossed at once.
        if !last_iter {
            pr.u += 1;
        } else if last_of_run {
            pr.run += 1;
            pr.k = 0;
            pr.u = 0;
            if let Some(next) = prog.runs.get(pr.run) {
                pr.base += next.first_delay;
            }
        } else {
            pr.k += 1;
            pr.u = 0;
            pr.base += run.delay;
        }
        if let Some(r) = prog.runs.get(pr.run) {
            if pr.u == 0 && !r.has_io() && pr.k + 1 < r.count {
                pr.base += r.delay * (r.count - 1 - pr.k);
                pr.k = r.count - 1;
            }
            pr.next_issue = pr.base + r.offset(pr.u);
        }
        self.schedule(p, now);
    }

    fn run(mut self) -> Outcome {
        // Each process has one live entry (wake_at), at its next event or
        // wake-up; entries it replaced by earlier ones are skipped.
        while let Some(Reverse((t, p))) = self.heap.pop() {
            if self.procs[p].wake_at != Some(t) {
                continue;
            }
            self.procs[p].wake_at = None;
            // Events of the same process in the same cycle (the iterations of
            // an unrolled slot) run at once, without going through the heap;
            // the entry they leave behind is stale.
            while self.procs[p].state != State::Done {
                self.step(p, t);
                if self.procs[p].wake_at != Some(t) {
                    break;
                }
                self.procs[p].wake_at = None;
            }
        }
        let mut out = Outcome {
            channels: self.chans.iter().map(|c| c.stats.clone()).collect(),
            processes: self.procs.iter().map(|p| p.stats.clone()).collect(),
            ..Outcome::default()
        };
        out.cycles = out.processes.iter().map(|p| p.finish).max().unwrap_or(0);
        let waiting: Vec<Wait> = self
            .procs
            .iter()
            .enumerate()
            .filter_map(|(i, p)| match p.state {
                State::Waiting(kind, channel, since) => {
                    Some(Wait { instance: i, channel, kind, since, fill: self.chans[channel].held.len() as u64 })
                }
                _ => None,
            })
            .collect();
        if !waiting.is_empty() {
            let cycle = waiting.iter().map(|w| w.since).max().unwrap_or(0);
            let cycle_of = wait_cycle(&waiting, &self.chans);
            out.cycles = out.cycles.max(cycle);
            out.deadlock = Some(Deadlock { cycle, waiting, cycle_of });
        }
        out
    }
}

/// A cycle of "waits for" among the waiting processes: one waiting for data
/// waits for the channel's producer, one waiting for space for its consumer.
fn wait_cycle(waiting: &[Wait], chans: &[Chan]) -> Vec<usize> {
    let index_of = |inst: usize| waiting.iter().position(|w| w.instance == inst);
    let next = |w: &Wait| {
        let c = &chans[w.channel];
        let other = match w.kind {
            WaitKind::Data => c.producer,
            WaitKind::Space => c.consumer,
        };
        other.and_then(index_of)
    };
    for start in 0..waiting.len() {
        let mut path = vec![start];
        let mut at = start;
        while let Some(n) = next(&waiting[at]) {
            if let Some(pos) = path.iter().position(|&x| x == n) {
                return path[pos..].to_vec();
            }
            path.push(n);
            at = n;
        }
    }
    Vec::new()
}

/// Simulates `design` until every process finishes or nothing can move.
pub fn simulate(design: &Design) -> Outcome {
    Sim::new(design).run()
}

#[cfg(test)]
mod tests {
    use super::super::program::{Io, Pace, Port, Program};

    /// `count` slots of one iteration each.
    fn slots(p: &mut Program, count: u64, first_delay: u64, ii: u64, depth: u64, pulls: &[(u32, u32)], pushes: &[(u32, u32)]) {
        let pace = Pace { first_delay, delay: ii, depth, ii, spread: 1 };
        p.push(count, pace, &[Io { pulls: pulls.to_vec(), pushes: pushes.to_vec() }]);
    }
    use super::*;

    fn chain(depth: Option<u64>) -> Design {
        // src: 8 slots, II 1, depth 3, one push each (lanes 1).
        let mut src = Program::new("src", vec![Port::Out { lanes: 1 }]);
        slots(&mut src, 8, 0, 1, 3, &[], &[(0, 1)]);
        // dst: 4 slots, II 2, depth 2, two pulls each.
        let mut dst = Program::new("dst", vec![Port::In { lanes: 1 }]);
        slots(&mut dst, 4, 0, 2, 2, &[(0, 2)], &[]);
        Design {
            programs: vec![src, dst],
            instances: vec![
                Instance { name: "src".into(), program: 0, channels: vec![Some(0)] },
                Instance { name: "dst".into(), program: 1, channels: vec![Some(0)] },
            ],
            channels: vec![ChannelSpec { name: "c".into(), depth }],
        }
    }

    /// By hand: src issues slot k at cycle k and writes word k at k + 2
    /// (issue + depth - 1), readable from k + 3; its last write is at 9, it
    /// finishes at 10. dst's slot j needs words 2j and 2j+1 (readable from
    /// 2j+4): nominal issues 0, 2, 4, 6 become 4, 6, 8, 10 (starved 4 cycles
    /// at the first slot, then on time); it completes at 10 + 2 = 12.
    /// Occupancy when word i is written (cycle i + 2) = words written so far
    /// minus words read before that cycle (reads at 3, 4, 6, 6, 8, 8, 10, 10):
    /// t=2: 1, t=3: 2, t=4: 3-1 = 2, t=5: 4-2 = 2, t=6: 5-2 = 3, t=7: 6-4 = 2,
    /// t=8: 7-4 = 3, t=9: 8-6 = 2. Peak 3.
    #[test]
    fn chain_by_hand() {
        let out = simulate(&chain(None));
        assert_eq!(out.deadlock, None);
        assert_eq!(out.processes[0].finish, 10);
        assert_eq!(out.processes[1].finish, 12);
        assert_eq!(out.processes[1].starved, 4);
        assert_eq!(out.cycles, 12);
        assert_eq!(out.channels[0].peak, 3);
        assert_eq!(out.channels[0].words, 8);
        // With depth 3 nothing changes (the peak fits), with 2 src must wait.
        assert_eq!(simulate(&chain(Some(3))).cycles, 12);
        let two = simulate(&chain(Some(2)));
        assert_eq!(two.deadlock, None);
        assert!(two.processes[0].blocked > 0);
        assert!(two.channels[0].peak <= 2);
    }

    /// fork -> (a: direct, b: through a slow process) -> join; join reads
    /// b's element before a's. With a FIFO of 1 on the direct path fork
    /// blocks writing it while join waits for b, which waits for fork.
    fn diamond(direct: u64) -> Design {
        let n = 64;
        let mut fork = Program::new("fork", vec![Port::Out { lanes: 1 }, Port::Out { lanes: 1 }]);
        slots(&mut fork, n, 0, 1, 1, &[], &[(0, 1), (1, 1)]);
        // slow: the first output after 8 elements (a window of 8).
        let mut slow = Program::new("slow", vec![Port::In { lanes: 1 }, Port::Out { lanes: 1 }]);
        slots(&mut slow, 8, 0, 1, 2, &[(0, 1)], &[]);
        slots(&mut slow, n - 8, 1, 1, 2, &[(0, 1)], &[(1, 1)]);
        slots(&mut slow, 8, 1, 1, 2, &[], &[(1, 1)]);
        let mut join = Program::new("join", vec![Port::In { lanes: 1 }, Port::In { lanes: 1 }]);
        slots(&mut join, n, 0, 1, 1, &[(0, 1), (1, 1)], &[]);
        Design {
            programs: vec![fork, slow, join],
            instances: vec![
                Instance { name: "fork".into(), program: 0, channels: vec![Some(0), Some(1)] },
                Instance { name: "slow".into(), program: 1, channels: vec![Some(1), Some(2)] },
                Instance { name: "join".into(), program: 2, channels: vec![Some(0), Some(2)] },
            ],
            channels: vec![
                ChannelSpec { name: "direct".into(), depth: Some(direct) },
                ChannelSpec { name: "to_slow".into(), depth: Some(2) },
                ChannelSpec { name: "from_slow".into(), depth: Some(2) },
            ],
        }
    }

    #[test]
    fn diamond_deadlocks_on_a_short_skip() {
        let out = simulate(&diamond(1));
        let d = out.deadlock.expect("deadlock");
        // fork waits for space on direct, join for data from slow, slow for
        // space on from_slow? No: slow waits for data from fork.
        let kinds: Vec<(usize, usize, WaitKind)> = d.waiting.iter().map(|w| (w.instance, w.channel, w.kind)).collect();
        assert!(kinds.contains(&(0, 0, WaitKind::Space)), "{kinds:?}");
        assert!(kinds.contains(&(2, 2, WaitKind::Data)), "{kinds:?}");
        assert_eq!(d.cycle_of.len(), 3, "{d:?}");
        // Deep enough for the 8 elements slow holds back (+ the pipeline): no deadlock.
        let ok = simulate(&diamond(12));
        assert_eq!(ok.deadlock, None);
        assert!(ok.channels[0].peak <= 12);
        let unbounded = {
            let mut d = diamond(1);
            d.channels[0].depth = None;
            simulate(&d)
        };
        assert_eq!(unbounded.deadlock, None);
    }

    #[test]
    fn lanes_pack_words() {
        // 8 elements on 4 lanes are 2 words.
        let mut src = Program::new("src", vec![Port::Out { lanes: 4 }]);
        slots(&mut src, 8, 0, 1, 1, &[], &[(0, 1)]);
        let mut dst = Program::new("dst", vec![Port::In { lanes: 4 }]);
        slots(&mut dst, 2, 0, 1, 1, &[(0, 4)], &[]);
        let d = Design {
            programs: vec![src, dst],
            instances: vec![
                Instance { name: "src".into(), program: 0, channels: vec![Some(0)] },
                Instance { name: "dst".into(), program: 1, channels: vec![Some(0)] },
            ],
            channels: vec![ChannelSpec { name: "c".into(), depth: Some(1) }],
        };
        let out = simulate(&d);
        assert_eq!(out.deadlock, None);
        assert_eq!(out.channels[0].words, 2);
        assert_eq!(out.channels[0].peak, 1);
        // Word 0 written at 3, read at 4; word 1 written at 7, read at 8; dst ends at 9.
        assert_eq!(out.cycles, 9);
    }
}
