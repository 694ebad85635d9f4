//! The cycle-level simulation of process instances connected by bounded
//! FIFOs, event-driven: a process is woken only at its next slot issue or
//! push, or when the channel it waits on changes.
//!
//! Rules (docs/simulator.md):
//! - a FIFO holds words (`lanes` elements each); a word written in cycle t
//!   can be read from cycle t + 1, and a word read in cycle t frees its place
//!   for writes from cycle t + 1, so a FIFO never holds more than its depth;
//! - a slot's iterations issue one after the other, iteration u at
//!   floor(u * II / unroll) after the slot (program); an iteration issues
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
//!
//! `events` runs the event loop over the FIFOs and the processes' state;
//! this module defines the design it takes and the outcome it gives.
mod events;

use super::program::Program;
use events::Sim;

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
        p.push(count, pace, &[Io { pulls: pulls.to_vec(), pushes: pushes.to_vec(), parts: vec![] }]);
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
