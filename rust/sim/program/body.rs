//! The loop tree of a process as the simulator reads it from the IR
//! (`Body`, built by `ir.rs`): its ports, its loops with their timing, its
//! branches, pulls and pushes, and the index arithmetic (`Expr`) of its
//! conditions and bounds, evaluated over the induction variables.
/// What a process argument is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Port {
    In { lanes: u32 },
    Out { lanes: u32 },
    /// External memory (load and store nodes) or anything else.
    Other,
}

/// Index arithmetic over induction variables, as a DAG in `Body::exprs`.
#[derive(Debug, Clone, PartialEq)]
pub enum Expr {
    Const(i64),
    /// The induction variable with this number (`Body::vars`).
    Var(usize),
    Bin(BinOp, usize, usize),
    Select(usize, usize, usize),
    /// A value the simulator cannot know (pulled data, a load, an iter_arg, ...).
    Unknown(String),
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BinOp {
    Add,
    Sub,
    Mul,
    DivS,
    DivU,
    RemS,
    RemU,
    FloorDivS,
    CeilDivS,
    MinS,
    MaxS,
    MinU,
    MaxU,
    And,
    Or,
    Xor,
    Shl,
    ShrS,
    ShrU,
    /// `arith.cmpi` with its predicate.
    Cmp(CmpPred),
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CmpPred {
    Eq,
    Ne,
    Slt,
    Sle,
    Sgt,
    Sge,
    Ult,
    Ule,
    Ugt,
    Uge,
}

impl CmpPred {
    /// The `predicate` attribute of arith.cmpi (arith::CmpIPredicate order).
    pub fn from_code(code: i64) -> Option<CmpPred> {
        use CmpPred::*;
        [Eq, Ne, Slt, Sle, Sgt, Sge, Ult, Ule, Ugt, Uge].get(usize::try_from(code).ok()?).copied()
    }
}

/// How a loop runs in hardware (from the DSE's attributes).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Timing {
    Pipelined { ii: u64, depth: u64, unroll: u64 },
    /// Flattened with the pipeline inside (no drain between its iterations).
    Flattened,
    /// `own`: the cycles of each group of `unroll` iterations outside the
    /// loops inside (the DSE's estimate): all of it for a body without loops
    /// (the critical path of those copies), else its straight-line code and
    /// the state entering the loops (1 without an estimate).
    Sequential { unroll: u64, own: Option<u64> },
    /// Inside a pipeline: fully unrolled, no time of its own.
    Unrolled,
}

#[derive(Debug, Clone, PartialEq)]
pub enum Stmt {
    Loop(Loop),
    If { cond: usize, then: Vec<Stmt>, otherwise: Vec<Stmt> },
    Pull(u32),
    Push(u32),
}

#[derive(Debug, Clone, PartialEq)]
pub struct Loop {
    /// Number of the loop in pre-order (also names it in messages: L<id>).
    pub id: usize,
    pub var: usize,
    pub lb: usize,
    pub ub: usize,
    pub step: usize,
    pub timing: Timing,
    pub body: Vec<Stmt>,
}

/// A process body as read from the IR.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Body {
    pub process: String,
    pub ports: Vec<Port>,
    pub exprs: Vec<Expr>,
    pub vars: usize,
    pub stmts: Vec<Stmt>,
}

/// Evaluates index arithmetic; None on division by zero or an unknown value.
pub fn eval(exprs: &[Expr], e: usize, env: &[i64]) -> Option<i64> {
    use BinOp::*;
    Some(match &exprs[e] {
        Expr::Const(c) => *c,
        Expr::Var(v) => env[*v],
        Expr::Unknown(_) => return None,
        Expr::Select(c, a, b) => {
            if eval(exprs, *c, env)? != 0 {
                eval(exprs, *a, env)?
            } else {
                eval(exprs, *b, env)?
            }
        }
        Expr::Bin(op, a, b) => {
            let (x, y) = (eval(exprs, *a, env)?, eval(exprs, *b, env)?);
            let (ux, uy) = (x as u64, y as u64);
            match op {
                Add => x.wrapping_add(y),
                Sub => x.wrapping_sub(y),
                Mul => x.wrapping_mul(y),
                DivS => x.checked_div(y)?,
                DivU => ux.checked_div(uy)? as i64,
                RemS => x.checked_rem(y)?,
                RemU => ux.checked_rem(uy)? as i64,
                FloorDivS => {
                    let q = x.checked_div(y)?;
                    if (x % y != 0) && ((x < 0) != (y < 0)) {
                        q - 1
                    } else {
                        q
                    }
                }
                CeilDivS => {
                    let q = x.checked_div(y)?;
                    if (x % y != 0) && ((x < 0) == (y < 0)) {
                        q + 1
                    } else {
                        q
                    }
                }
                MinS => x.min(y),
                MaxS => x.max(y),
                MinU => ux.min(uy) as i64,
                MaxU => ux.max(uy) as i64,
                And => x & y,
                Or => x | y,
                Xor => x ^ y,
                Shl => x.checked_shl(u32::try_from(y).ok()?)?,
                ShrS => x.checked_shr(u32::try_from(y).ok()?)?,
                ShrU => ux.checked_shr(u32::try_from(y).ok()?)? as i64,
                Cmp(p) => {
                    let r = match p {
                        CmpPred::Eq => x == y,
                        CmpPred::Ne => x != y,
                        CmpPred::Slt => x < y,
                        CmpPred::Sle => x <= y,
                        CmpPred::Sgt => x > y,
                        CmpPred::Sge => x >= y,
                        CmpPred::Ult => ux < uy,
                        CmpPred::Ule => ux <= uy,
                        CmpPred::Ugt => ux > uy,
                        CmpPred::Uge => ux >= uy,
                    };
                    r as i64
                }
            }
        }
    })
}

/// The first unknown leaf under `e`, if any (checked once per condition or
/// bound, so that evaluation never meets one).
pub fn unknown_leaf(exprs: &[Expr], e: usize) -> Option<&str> {
    match &exprs[e] {
        Expr::Const(_) | Expr::Var(_) => None,
        Expr::Unknown(what) => Some(what),
        Expr::Bin(_, a, b) => unknown_leaf(exprs, *a).or_else(|| unknown_leaf(exprs, *b)),
        Expr::Select(c, a, b) => unknown_leaf(exprs, *c).or_else(|| unknown_leaf(exprs, *a)).or_else(|| unknown_leaf(exprs, *b)),
    }
}

pub(super) fn depends_on_var(exprs: &[Expr], e: usize) -> bool {
    match &exprs[e] {
        Expr::Var(_) => true,
        Expr::Const(_) | Expr::Unknown(_) => false,
        Expr::Bin(_, a, b) => depends_on_var(exprs, *a) || depends_on_var(exprs, *b),
        Expr::Select(c, a, b) => depends_on_var(exprs, *c) || depends_on_var(exprs, *a) || depends_on_var(exprs, *b),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn index_arithmetic() {
        let ex = vec![Expr::Const(-7), Expr::Const(2), Expr::Bin(BinOp::FloorDivS, 0, 1), Expr::Bin(BinOp::CeilDivS, 0, 1), Expr::Bin(BinOp::RemS, 0, 1)];
        assert_eq!(eval(&ex, 2, &[]), Some(-4));
        assert_eq!(eval(&ex, 3, &[]), Some(-3));
        assert_eq!(eval(&ex, 4, &[]), Some(-1));
        let zero = vec![Expr::Const(1), Expr::Const(0), Expr::Bin(BinOp::DivU, 0, 1)];
        assert_eq!(eval(&zero, 2, &[]), None);
    }
}
