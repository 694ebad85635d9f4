//! The event loop of `simulate`, by the rules of the engine's module
//! comment (engine/mod.rs): the FIFOs with their read and write timing, each
//! process's position in its program, and a heap of wake-ups, one live
//! entry per process. A deadlock is read off the processes left waiting.
use super::{ChannelStats, Deadlock, Design, Outcome, ProcessStats, Wait, WaitKind};
use crate::sim::program::Port;
use std::cmp::Reverse;
use std::collections::{BinaryHeap, VecDeque};

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

pub(super) struct Sim<'d> {
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
    pub(super) fn new(design: &'d Design) -> Self {
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
        // slots in flight: they drain (see the engine's module comment).
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

    pub(super) fn run(mut self) -> Outcome {
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
