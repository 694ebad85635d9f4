//! Reads a `dfg.process` into the simulator's loop tree (`program::Body`):
//! loops with their timing attributes, `scf.if` conditions as index
//! arithmetic over induction variables, pulls and pushes by port. Everything
//! else in the body (data arithmetic, buffers, memory) has no say in timing
//! beyond what the DSE's II and depth already hold.
use super::program::{BinOp, Body, CmpPred, Expr, Loop, Port, ProgramError, Stmt, Timing};
use crate::ir::views::LoopTiming;
use crate::ir::{int_attr, key, op_name};
use melior::ir::{
    attribute::IntegerAttribute, block::BlockLike, operation::OperationLike, BlockRef, OperationRef, RegionLike, Value, ValueLike,
};
use std::collections::HashMap;

/// The port kind of a process argument from its type.
pub fn port_of(type_text: &str) -> Port {
    let lanes = crate::ir::graph::port_lanes(type_text).max(1) as u32;
    if type_text.starts_with("!dfg.in") {
        Port::In { lanes }
    } else if type_text.starts_with("!dfg.out") {
        Port::Out { lanes }
    } else {
        Port::Other
    }
}

struct Reader {
    body: Body,
    values: HashMap<usize, usize>,
    ports: HashMap<usize, u32>,
    loops: usize,
    warned_timing: bool,
}

impl Reader {
    fn expr(&mut self, e: Expr) -> usize {
        self.body.exprs.push(e);
        self.body.exprs.len() - 1
    }

    /// The expression of `v` (unknown when nothing defined it as index arithmetic).
    fn value(&mut self, v: Value) -> usize {
        if let Some(&e) = self.values.get(&key(v)) {
            return e;
        }
        let what = format!("a value of type {}", v.r#type());
        let e = self.expr(Expr::Unknown(what));
        self.values.insert(key(v), e);
        e
    }

    fn unsupported(&self, what: String) -> ProgramError {
        ProgramError::Unsupported { process: self.body.process.clone(), what }
    }

    /// Index arithmetic of one op, when it is some.
    fn arith(&mut self, op: &OperationRef, name: &str) -> Option<Expr> {
        let bin = |b: BinOp| Some(b);
        let kind = match name {
            "arith.addi" => bin(BinOp::Add),
            "arith.subi" => bin(BinOp::Sub),
            "arith.muli" => bin(BinOp::Mul),
            "arith.divsi" => bin(BinOp::DivS),
            "arith.divui" => bin(BinOp::DivU),
            "arith.remsi" => bin(BinOp::RemS),
            "arith.remui" => bin(BinOp::RemU),
            "arith.floordivsi" => bin(BinOp::FloorDivS),
            "arith.ceildivsi" => bin(BinOp::CeilDivS),
            "arith.minsi" => bin(BinOp::MinS),
            "arith.maxsi" => bin(BinOp::MaxS),
            "arith.minui" => bin(BinOp::MinU),
            "arith.maxui" => bin(BinOp::MaxU),
            "arith.andi" => bin(BinOp::And),
            "arith.ori" => bin(BinOp::Or),
            "arith.xori" => bin(BinOp::Xor),
            "arith.shli" => bin(BinOp::Shl),
            "arith.shrsi" => bin(BinOp::ShrS),
            "arith.shrui" => bin(BinOp::ShrU),
            "arith.cmpi" => CmpPred::from_code(int_attr(op, "predicate")?).map(BinOp::Cmp),
            _ => None,
        };
        if let Some(b) = kind {
            let a = self.value(op.operand(0).ok()?);
            let c = self.value(op.operand(1).ok()?);
            return Some(Expr::Bin(b, a, c));
        }
        match name {
            "arith.constant" => {
                let v = IntegerAttribute::try_from(op.attribute("value").ok()?).ok()?.value();
                let is_bool = op.result(0).ok()?.r#type().to_string() == "i1";
                Some(Expr::Const(if is_bool { (v != 0) as i64 } else { v }))
            }
            "arith.select" => {
                let c = self.value(op.operand(0).ok()?);
                let a = self.value(op.operand(1).ok()?);
                let b = self.value(op.operand(2).ok()?);
                Some(Expr::Select(c, a, b))
            }
            // Widening and index casts keep the value (our indices are small).
            "arith.index_cast" | "arith.index_castui" | "arith.extsi" | "arith.extui" | "arith.trunci" => {
                let a = self.value(op.operand(0).ok()?);
                let zero = self.expr(Expr::Const(0));
                Some(Expr::Bin(BinOp::Add, a, zero))
            }
            _ => None,
        }
    }

    fn timing(&mut self, op: &OperationRef, inside_pipeline: bool) -> Timing {
        if inside_pipeline {
            return Timing::Unrolled;
        }
        let t = LoopTiming::of(op);
        let unroll = t.unroll.max(0) as u64;
        if let Some(requested) = t.pipeline_ii {
            if t.estimate.is_none() && !self.warned_timing {
                self.warned_timing = true;
                log::warn!(
                    "simulator: process '{}' has a pipelined loop without the DSE's II and depth (#ming.loop_estimate); using the requested II and depth 1",
                    self.body.process
                );
            }
            let (ii, depth) = t.estimate.unwrap_or((requested, 1));
            return Timing::Pipelined { ii: ii.max(1) as u64, depth: depth.max(1) as u64, unroll };
        }
        if t.flattened {
            return Timing::Flattened;
        }
        // A sequential loop: the DSE's estimate (ii = depth) is what each
        // group of copies takes outside its inner loops.
        Timing::Sequential { unroll, own: t.estimate.map(|(_, depth)| depth.max(0) as u64) }
    }

    fn block(&mut self, block: BlockRef, inside_pipeline: bool) -> Result<Vec<Stmt>, ProgramError> {
        let mut stmts = Vec::new();
        let mut next = block.first_operation();
        while let Some(op) = next {
            next = op.next_in_block();
            let name = op_name(&op);
            match name.as_str() {
                "dfg.pull" | "dfg.push" => {
                    let port_operand = if name == "dfg.pull" { 0 } else { 1 };
                    let v = op.operand(port_operand).map_err(|e| self.unsupported(e.to_string()))?;
                    let port = *self.ports.get(&key(v)).ok_or_else(|| self.unsupported(format!("{name} of a value that is not a port")))?;
                    stmts.push(if name == "dfg.pull" { Stmt::Pull(port) } else { Stmt::Push(port) });
                    // The pulled element is data.
                    if let Ok(r) = op.result(0) {
                        let e = self.expr(Expr::Unknown("pulled data".into()));
                        self.values.insert(key(r.into()), e);
                    }
                }
                "scf.for" => {
                    let id = self.loops;
                    self.loops += 1;
                    let lb = self.value(op.operand(0).map_err(|e| self.unsupported(e.to_string()))?);
                    let ub = self.value(op.operand(1).map_err(|e| self.unsupported(e.to_string()))?);
                    let step = self.value(op.operand(2).map_err(|e| self.unsupported(e.to_string()))?);
                    let timing = self.timing(&op, inside_pipeline);
                    let body = op
                        .region(0)
                        .ok()
                        .and_then(|r| r.first_block())
                        .ok_or_else(|| self.unsupported(format!("loop L{id} has no body")))?;
                    let var = self.body.vars;
                    self.body.vars += 1;
                    if let Ok(iv) = body.argument(0) {
                        let e = self.expr(Expr::Var(var));
                        self.values.insert(key(iv.into()), e);
                    }
                    for i in 1..body.argument_count() {
                        if let Ok(a) = body.argument(i) {
                            let e = self.expr(Expr::Unknown(format!("an iter_arg of loop L{id}")));
                            self.values.insert(key(a.into()), e);
                        }
                    }
                    let pipelined = inside_pipeline || matches!(timing, Timing::Pipelined { .. });
                    let stmts_in = self.block(body, pipelined)?;
                    // Inside a pipeline a loop without I/O takes no time of its
                    // own: leaving it out saves walking the unrolled MACs of a
                    // window for every pixel.
                    if !(inside_pipeline && !has_io(&stmts_in)) {
                        stmts.push(Stmt::Loop(Loop { id, var, lb, ub, step, timing, body: stmts_in }));
                    }
                }
                "scf.if" => {
                    let cond = self.value(op.operand(0).map_err(|e| self.unsupported(e.to_string()))?);
                    let mut branches = Vec::new();
                    for r in 0..op.region_count() {
                        let region = op.region(r).map_err(|e| self.unsupported(e.to_string()))?;
                        branches.push(match region.first_block() {
                            Some(b) => self.block(b, inside_pipeline)?,
                            None => Vec::new(),
                        });
                    }
                    let otherwise = if branches.len() > 1 { branches.pop().unwrap_or_default() } else { Vec::new() };
                    let then = branches.pop().unwrap_or_default();
                    if !(inside_pipeline && !has_io(&then) && !has_io(&otherwise)) {
                        stmts.push(Stmt::If { cond, then, otherwise });
                    }
                }
                _ => {
                    if let Some(e) = self.arith(&op, &name) {
                        let e = self.expr(e);
                        if let Ok(r) = op.result(0) {
                            self.values.insert(key(r.into()), e);
                        }
                    }
                    // Other results are data (unknown on use); nested regions of
                    // other ops (none in our processes) are not timed.
                }
            }
        }
        Ok(stmts)
    }
}

/// Whether `stmts` pull or push anywhere.
fn has_io(stmts: &[Stmt]) -> bool {
    stmts.iter().any(|s| match s {
        Stmt::Pull(_) | Stmt::Push(_) => true,
        Stmt::Loop(l) => has_io(&l.body),
        Stmt::If { then, otherwise, .. } => has_io(then) || has_io(otherwise),
    })
}

/// The loop tree of a `dfg.process` op.
pub fn read_process(process: &OperationRef) -> Result<Body, ProgramError> {
    let name = process
        .attribute("sym_name")
        .ok()
        .and_then(|a| melior::ir::attribute::StringAttribute::try_from(a).ok())
        .map(|s| s.value().to_string())
        .unwrap_or_default();
    let mut r = Reader {
        body: Body { process: name.clone(), ..Body::default() },
        values: HashMap::new(),
        ports: HashMap::new(),
        loops: 0,
        warned_timing: false,
    };
    let block = process
        .region(0)
        .ok()
        .and_then(|reg| reg.first_block())
        .ok_or_else(|| ProgramError::Unsupported { process: name.clone(), what: "no body".into() })?;
    for i in 0..block.argument_count() {
        let a = block.argument(i).map_err(|e| r.unsupported(e.to_string()))?;
        let v: Value = a.into();
        r.body.ports.push(port_of(&v.r#type().to_string()));
        r.ports.insert(key(v), i as u32);
    }
    r.body.stmts = r.block(block, false)?;
    Ok(r.body)
}
