//! Unfolds a process's loop tree (`Body`) into the runs of slots of its
//! `Program`, once, by the timing rules of the module comment
//! (program/mod.rs). Control may depend only on induction variables and
//! constants: the walk evaluates conditions and bounds as it goes.
use super::body::depends_on_var;
use super::{eval, unknown_leaf, Body, Io, Loop, Pace, Port, Program, ProgramError, Stmt, Timing};

/// Walks a body once, checking that control depends only on induction
/// variables, and unfolds it into slots.
struct Unfold<'b> {
    body: &'b Body,
    env: Vec<i64>,
    program: Program,
    /// Delay of the next slot after the previous one.
    pending: u64,
    /// The pipelined loop of the previous slot when only flattening lies
    /// between it and the next one.
    last_pipeline: Option<usize>,
    /// The pulls and the pushes counted so far, each in program order:
    /// (port, elements), consecutive accesses to one port merged.
    pulls: Vec<(u32, u32)>,
    pushes: Vec<(u32, u32)>,
    /// The same accesses cut before each pull that follows a push: the
    /// parts closed so far and the open one (`Io::parts`).
    parts: Vec<Io>,
    part: Io,
}

/// Adds one access of `port` to `list`, merged with a last access of the same port.
fn add(list: &mut Vec<(u32, u32)>, port: u32) {
    match list.last_mut() {
        Some((q, n)) if *q == port => *n += 1,
        _ => list.push((port, 1)),
    }
}

fn has_if(stmts: &[Stmt]) -> bool {
    stmts.iter().any(|s| match s {
        Stmt::If { .. } => true,
        Stmt::Loop(l) => has_if(&l.body),
        _ => false,
    })
}

fn has_loop(stmts: &[Stmt]) -> bool {
    stmts.iter().any(|s| match s {
        Stmt::Loop(_) => true,
        Stmt::If { then, otherwise, .. } => has_loop(then) || has_loop(otherwise),
        _ => false,
    })
}

impl<'b> Unfold<'b> {
    fn error(&self, what: String) -> ProgramError {
        ProgramError::DataDependentControl { process: self.body.process.clone(), what }
    }

    fn value(&self, e: usize, what: &str) -> Result<i64, ProgramError> {
        if let Some(leaf) = unknown_leaf(&self.body.exprs, e) {
            return Err(self.error(format!("{what} depends on {leaf}")));
        }
        eval(&self.body.exprs, e, &self.env)
            .ok_or_else(|| ProgramError::Unsupported { process: self.body.process.clone(), what: format!("{what}: division by zero or a shift out of range") })
    }

    /// The induction variable values of `l`.
    fn range(&self, l: &Loop) -> Result<(i64, i64, i64), ProgramError> {
        let lb = self.value(l.lb, &format!("the lower bound of loop L{}", l.id))?;
        let ub = self.value(l.ub, &format!("the upper bound of loop L{}", l.id))?;
        let step = self.value(l.step, &format!("the step of loop L{}", l.id))?;
        if step <= 0 {
            return Err(ProgramError::Unsupported { process: self.body.process.clone(), what: format!("loop L{} has step {step}", l.id) });
        }
        Ok((lb, ub, step))
    }

    fn trip(lb: i64, ub: i64, step: i64) -> u64 {
        if ub <= lb {
            0
        } else {
            ((ub - lb + step - 1) / step) as u64
        }
    }

    /// Adds the pulls and pushes of `stmts` (one execution, every loop
    /// unrolled) to those counted so far.
    fn count(&mut self, stmts: &[Stmt]) -> Result<(), ProgramError> {
        for s in stmts {
            match s {
                Stmt::Pull(p) | Stmt::Push(p) => {
                    if matches!(self.body.ports.get(*p as usize), Some(Port::Out { .. })) {
                        add(&mut self.pushes, *p);
                        add(&mut self.part.pushes, *p);
                    } else {
                        if !self.part.pushes.is_empty() {
                            let part = std::mem::take(&mut self.part);
                            self.parts.push(part);
                        }
                        add(&mut self.pulls, *p);
                        add(&mut self.part.pulls, *p);
                    }
                }
                Stmt::If { cond, then, otherwise } => {
                    let taken = self.value(*cond, "an scf.if condition")? != 0;
                    self.count(if taken { then } else { otherwise })?;
                }
                Stmt::Loop(l) => {
                    let (lb, ub, step) = self.range(l)?;
                    let mut i = lb;
                    while i < ub {
                        self.env[l.var] = i;
                        self.count(&l.body)?;
                        i += step;
                    }
                }
            }
        }
        Ok(())
    }

    /// The accesses counted as one iteration's I/O, then reset. Their order
    /// is the program's: an iteration that pulls a row's sum before its
    /// elements waits for the sum with the elements unread, as the C
    /// simulation does (a FIFO minimised on the elements read first
    /// deadlocked it).
    fn take_io(&mut self) -> Io {
        let last = std::mem::take(&mut self.part);
        let mut parts = std::mem::take(&mut self.parts);
        if !parts.is_empty() {
            parts.push(last);
        }
        Io { pulls: std::mem::take(&mut self.pulls), pushes: std::mem::take(&mut self.pushes), parts }
    }

    /// Delay of a pipeline's first slot: II when it continues the previous
    /// slot's pipeline (flattening), else the drain of whatever came before.
    fn slot_delay(&mut self, continuing: bool, ii: u64) -> u64 {
        if continuing {
            ii
        } else {
            self.pending
        }
    }

    fn pipeline(&mut self, l: &Loop, ii: u64, depth: u64, unroll: u64) -> Result<(), ProgramError> {
        let (lb, ub, step) = self.range(l)?;
        let trip = Self::trip(lb, ub, step);
        let unroll = if unroll == 0 { trip.max(1) } else { unroll };
        let ii = ii.max(1);
        let depth = depth.max(1);
        if trip == 0 {
            return Ok(());
        }
        let continuing = self.last_pipeline == Some(l.id);
        // Without conditions every iteration moves the same elements: count one
        // iteration and emit whole runs (the common, fast case).
        if !has_if(&l.body) && self.bounds_constant(&l.body) {
            self.env[l.var] = lb;
            self.count(&l.body)?;
            let io = self.take_io();
            let full = trip / unroll;
            let rest = trip % unroll;
            let first = self.slot_delay(continuing, ii);
            let pace = Pace { first_delay: first, delay: ii, depth, ii, spread: unroll };
            if full > 0 {
                self.program.push(full, pace, &vec![io.clone(); unroll as usize]);
            }
            if rest > 0 {
                let d = if full > 0 { ii } else { first };
                self.program.push(1, Pace { first_delay: d, ..pace }, &vec![io; rest as usize]);
            }
        } else {
            let mut i = lb;
            let mut first = true;
            let mut iters = Vec::with_capacity(unroll as usize);
            while i < ub {
                iters.clear();
                for _ in 0..unroll {
                    if i >= ub {
                        break;
                    }
                    self.env[l.var] = i;
                    self.count(&l.body)?;
                    iters.push(self.take_io());
                    i += step;
                }
                let d = if first { self.slot_delay(continuing, ii) } else { ii };
                first = false;
                self.program.push(1, Pace { first_delay: d, delay: ii, depth, ii, spread: unroll }, &iters);
            }
        }
        // The next code waits for the last slot's port accesses too.
        let span = self.program.runs.last().map_or(0, |r| r.span(&self.body.ports));
        self.pending = depth.max(span);
        self.last_pipeline = Some(l.id);
        Ok(())
    }

    /// Whether every loop bound under `stmts` is a constant (no IV inside).
    fn bounds_constant(&self, stmts: &[Stmt]) -> bool {
        stmts.iter().all(|s| match s {
            Stmt::Loop(l) => {
                [l.lb, l.ub, l.step].iter().all(|&e| !depends_on_var(&self.body.exprs, e)) && self.bounds_constant(&l.body)
            }
            _ => true,
        })
    }

    /// One slot of depth 1 for I/O outside pipelines (sequential code);
    /// whether there was any.
    fn straight(&mut self, stmts: &[Stmt]) -> Result<u64, ProgramError> {
        self.count(stmts)?;
        let io = self.take_io();
        if io.is_empty() {
            return Ok(0);
        }
        let d = self.slot_delay(false, 1);
        self.program.push(1, Pace { first_delay: d, delay: 1, depth: 1, ii: 1, spread: 1 }, &[io]);
        self.pending = 1;
        self.last_pipeline = None;
        Ok(1)
    }

    /// Unfolds `stmts`; the slots of straight-line I/O among them (a cycle
    /// each), not counting those of the branches and loops inside.
    fn seq(&mut self, stmts: &[Stmt]) -> Result<u64, ProgramError> {
        let mut straight: Vec<Stmt> = Vec::new();
        let mut slots = 0;
        for s in stmts {
            match s {
                Stmt::Pull(_) | Stmt::Push(_) => straight.push(s.clone()),
                Stmt::If { cond, then, otherwise } => {
                    if !has_loop(then) && !has_loop(otherwise) {
                        straight.push(s.clone());
                        continue;
                    }
                    slots += self.straight(&std::mem::take(&mut straight))?;
                    let taken = self.value(*cond, "an scf.if condition")? != 0;
                    self.seq(if taken { then } else { otherwise })?;
                }
                Stmt::Loop(l) => {
                    slots += self.straight(&std::mem::take(&mut straight))?;
                    self.run_loop(l)?;
                }
            }
        }
        Ok(slots + self.straight(&straight)?)
    }

    fn run_loop(&mut self, l: &Loop) -> Result<(), ProgramError> {
        match l.timing {
            Timing::Pipelined { ii, depth, unroll } => self.pipeline(l, ii, depth, unroll),
            Timing::Flattened => {
                let (lb, ub, step) = self.range(l)?;
                let mut i = lb;
                while i < ub {
                    self.env[l.var] = i;
                    self.seq(&l.body)?;
                    i += step;
                }
                Ok(())
            }
            // Outside a pipeline only by hand: straight-line code.
            Timing::Unrolled => self.straight(std::slice::from_ref(&Stmt::Loop(l.clone()))).map(|_| ()),
            Timing::Sequential { unroll, own } => {
                let (lb, ub, step) = self.range(l)?;
                let u = if unroll == 0 { Self::trip(lb, ub, step).max(1) } else { unroll };
                let leaf = !has_loop(&l.body);
                let mut i = lb;
                let mut k = 0u64;
                let mut slots = 0;
                while i < ub {
                    self.env[l.var] = i;
                    if leaf {
                        // The u copies of a loop-free body are one straight-line block.
                        self.count(&l.body)?;
                    } else {
                        slots += self.seq(&l.body)?;
                    }
                    i += step;
                    k += 1;
                    if k % u == 0 || i >= ub {
                        if leaf {
                            let io = self.take_io();
                            let l = own.unwrap_or(1).max(1);
                            if io.is_empty() {
                                self.pending += l;
                            } else {
                                let d = self.slot_delay(false, 1);
                                self.program.push(1, Pace { first_delay: d, delay: l, depth: l, ii: l, spread: 1 }, &[io]);
                                self.pending = l;
                                self.last_pipeline = None;
                            }
                        } else {
                            // The state that enters and leaves the inner loops,
                            // and the straight-line code the I/O slots (a
                            // cycle each) did not take.
                            self.pending += own.map_or(1, |c| c.saturating_sub(slots));
                            self.last_pipeline = None;
                        }
                        slots = 0;
                    }
                }
                Ok(())
            }
        }
    }
}

/// Unfolds `body` into slots.
pub fn unfold(body: &Body) -> Result<Program, ProgramError> {
    let mut u = Unfold {
        body,
        env: vec![0; body.vars],
        program: Program::new(&body.process, body.ports.clone()),
        pending: 0,
        last_pipeline: None,
        pulls: Vec::new(),
        pushes: Vec::new(),
        parts: Vec::new(),
        part: Io::default(),
    };
    u.seq(&body.stmts)?;
    Ok(u.program)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::program::{BinOp, CmpPred, Expr};

    /// A body with constants 0, 1, 3, 4 (exprs 0..4) and the given statements.
    fn body(stmts: Vec<Stmt>, vars: usize) -> Body {
        Body {
            process: "p".into(),
            ports: vec![Port::Out { lanes: 1 }],
            exprs: vec![Expr::Const(0), Expr::Const(1), Expr::Const(3), Expr::Const(4)],
            vars,
            stmts,
        }
    }

    fn lp(id: usize, var: usize, ub: usize, timing: Timing, body: Vec<Stmt>) -> Stmt {
        Stmt::Loop(Loop { id, var, lb: 0, ub, step: 1, timing, body })
    }

    #[test]
    fn one_pipeline_takes_what_the_model_says() {
        // 4 iterations at II 2, depth 3: (4 - 1) * 2 + 3 = 9.
        let b = body(vec![lp(0, 0, 3, Timing::Pipelined { ii: 2, depth: 3, unroll: 1 }, vec![Stmt::Push(0)])], 1);
        let p = unfold(&b).expect("unfolds");
        assert_eq!(p.runs.len(), 1);
        assert_eq!((p.slots(), p.cycles_alone()), (4, 9));
        // Unrolled by 3: slots of 3 iterations, the last one of 1.
        let b = body(vec![lp(0, 0, 3, Timing::Pipelined { ii: 1, depth: 2, unroll: 3 }, vec![Stmt::Push(0)])], 1);
        let p = unfold(&b).expect("unfolds");
        assert_eq!(p.runs.iter().map(|r| (r.count, r.pushes())).collect::<Vec<_>>(), vec![(1, vec![(0, 3)]), (1, vec![(0, 1)])]);
        // Its three iterations start at 0, 0 and 0 (II 1 / 3), the single one of the last slot at 0.
        assert_eq!((p.runs[0].offset(1), p.runs[0].offset(2)), (0, 0));
    }

    #[test]
    fn an_iteration_pulls_in_program_order() {
        // A pipelined row pulls its sum (port 1) before its 4 elements (port
        // 0), as a softmax's division does: the iteration waits for the sum
        // with the elements unread, whatever the ports' numbers.
        let mut b = body(vec![], 2);
        b.ports = vec![Port::In { lanes: 1 }, Port::In { lanes: 1 }, Port::Out { lanes: 1 }];
        let elements = lp(1, 1, 3, Timing::Unrolled, vec![Stmt::Pull(0), Stmt::Push(2)]);
        b.stmts = vec![lp(0, 0, 3, Timing::Pipelined { ii: 1, depth: 2, unroll: 1 }, vec![Stmt::Pull(1), elements])];
        let p = unfold(&b).expect("unfolds");
        assert_eq!(p.runs[0].iters[0].pulls, vec![(1, 1), (0, 4)]);
        assert_eq!(p.runs[0].iters[0].pushes, vec![(2, 4)]);
        // One element in, one out, four times: four parts, the sum in the first.
        let io = |pulls: Vec<(u32, u32)>| Io { pulls, pushes: vec![(2, 1)], parts: vec![] };
        let parts = vec![io(vec![(1, 1), (0, 1)]), io(vec![(0, 1)]), io(vec![(0, 1)]), io(vec![(0, 1)])];
        assert_eq!(p.runs[0].iters[0].parts, parts);
        // Pulls before pushes are one part, kept whole.
        b.stmts = vec![lp(0, 0, 3, Timing::Pipelined { ii: 1, depth: 2, unroll: 1 }, vec![Stmt::Pull(1), Stmt::Pull(0), Stmt::Push(2)])];
        let p = unfold(&b).expect("unfolds");
        assert!(p.runs[0].iters[0].parts.is_empty());
        assert_eq!(p.runs[0].iters[0].in_order(), vec![Io { pulls: vec![(1, 1), (0, 1)], pushes: vec![(2, 1)], parts: vec![] }]);
    }

    #[test]
    fn flattened_nests_continue_and_sequential_ones_drain() {
        let inner = |var| lp(1, var, 3, Timing::Pipelined { ii: 1, depth: 5, unroll: 1 }, vec![Stmt::Push(0)]);
        // 3 x 4 flattened: one pipeline of 12 slots, (12 - 1) + 5 = 16.
        let flat = unfold(&body(vec![lp(0, 0, 2, Timing::Flattened, vec![inner(1)])], 2)).expect("unfolds");
        assert_eq!((flat.runs.len(), flat.slots(), flat.cycles_alone()), (1, 12, 16));
        // Sequential: each outer iteration issues 4 slots, then drains (depth 5)
        // and pays the state of the outer loop (+1): issues 0-3, 9-12, 18-21; ends at 26.
        let seq = unfold(&body(vec![lp(0, 0, 2, Timing::Sequential { unroll: 1, own: None }, vec![inner(1)])], 2)).expect("unfolds");
        assert_eq!((seq.slots(), seq.cycles_alone()), (12, 26));
    }

    #[test]
    fn conditions_on_induction_variables() {
        // for i in 0..4 { if i >= 3 (cmpi sge) push }: only the last iteration pushes.
        let mut b = body(vec![], 1);
        b.exprs.push(Expr::Var(0)); // 4
        b.exprs.push(Expr::Bin(BinOp::Cmp(CmpPred::Sge), 4, 2)); // 5
        b.stmts = vec![lp(0, 0, 3, Timing::Pipelined { ii: 1, depth: 1, unroll: 1 }, vec![Stmt::If { cond: 5, then: vec![Stmt::Push(0)], otherwise: vec![] }])];
        let p = unfold(&b).expect("unfolds");
        let pushes: Vec<(u64, usize)> = p.runs.iter().map(|r| (r.count, r.pushes().len())).collect();
        assert_eq!(pushes, vec![(3, 0), (1, 1)]);
        // A condition on data is an error naming the process.
        b.exprs.push(Expr::Unknown("pulled data".into())); // 6
        b.stmts = vec![lp(0, 0, 3, Timing::Pipelined { ii: 1, depth: 1, unroll: 1 }, vec![Stmt::If { cond: 6, then: vec![Stmt::Push(0)], otherwise: vec![] }])];
        let e = unfold(&b).expect_err("data-dependent");
        assert!(matches!(e, ProgramError::DataDependentControl { ref process, .. } if process == "p"), "{e}");
        assert!(e.to_string().contains("depends on pulled data"), "{e}");
    }

}
