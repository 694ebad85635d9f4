//! The arith and math ops inside emitHLS functions as C++ expressions: C++
//! operators and `<cmath>` calls, with casts where C++ would otherwise differ
//! from arith (unsigned comparisons and shifts, rounded divisions, NaN
//! handling).
use super::emitter::Emitter;
use super::literals::constant;
use super::{err, Result};
use crate::ir::types::{scalar_cpp, unsigned_cpp};
use melior::ir::{
    attribute::IntegerAttribute,
    operation::{OperationLike, OperationResult},
    OperationRef,
};

/// The largest constant exponent of math.fpowi written as products (the
/// cost model's bound too, cpp/Analysis/OpTable.cpp).
const MAX_POWER: i64 = 8;

/// The value of `op`'s operand `i` when an arith.constant integer defines it.
fn constant_operand(op: &OperationRef, i: usize) -> Option<i64> {
    let def = OperationResult::try_from(op.operand(i).ok()?).ok()?.owner();
    if crate::ir::op_name(&def) != "arith.constant" {
        return None;
    }
    IntegerAttribute::try_from(def.attribute("value").ok()?).ok().map(|a| a.value())
}

impl Emitter {
    /// The C++ expression of an arith/math op.
    pub(super) fn expression(&self, op: &OperationRef, name: &str) -> Result<String> {
        let short = name.split_once('.').map(|(_, s)| s).unwrap_or(name);
        if short == "constant" {
            let a = op.attribute("value").map_err(|e| err(op, e.to_string()))?;
            let t = self.result_type(op)?;
            return constant(a, &t).ok_or_else(|| err(op, format!("constant {a} has no C++ translation")));
        }
        let n = op.operand_count();
        let ops = (0..n).map(|i| self.operand(op, i)).collect::<Result<Vec<_>>>()?;
        let in_t = if n > 0 { self.operand_type(op, 0)? } else { String::new() };
        let out_t = self.result_type(op)?;
        let unsupported = || err(op, format!("'{name}' has no C++ translation"));
        let uns = |i: usize| -> Result<String> {
            let u = unsigned_cpp(&in_t).ok_or_else(unsupported)?;
            Ok(format!("static_cast<{u}>({})", ops[i]))
        };
        let out_ct = scalar_cpp(&out_t).ok_or_else(unsupported)?;
        let bin = |sym: &str| -> Result<String> {
            if ops.len() != 2 {
                return Err(unsupported());
            }
            Ok(format!("{} {sym} {}", ops[0], ops[1]))
        };
        let ubin = |sym: &str| -> Result<String> { Ok(format!("{} {sym} {}", uns(0)?, uns(1)?)) };
        let call1 = |f: &str| -> Result<String> {
            if ops.len() != 1 {
                return Err(unsupported());
            }
            Ok(format!("{f}({})", ops[0]))
        };
        Ok(match name {
            "arith.addi" | "arith.addf" => bin("+")?,
            "arith.subi" | "arith.subf" => bin("-")?,
            "arith.muli" | "arith.mulf" => bin("*")?,
            "arith.divsi" | "arith.divf" => bin("/")?,
            "arith.remsi" => bin("%")?,
            // C++ division truncates; the rounded divisions add or subtract
            // one where the remainder is non-zero and the quotient's sign
            // says truncation went the wrong way.
            "arith.ceildivsi" | "arith.floordivsi" => {
                let (a, b) = match ops.as_slice() {
                    [a, b] => (a, b),
                    _ => return Err(unsupported()),
                };
                let (sign, adj) = if name == "arith.ceildivsi" { ("==", "+") } else { ("!=", "-") };
                format!("(({a}) / ({b}) {adj} ((({a}) % ({b}) != 0 && (({a}) < 0) {sign} (({b}) < 0)) ? 1 : 0))")
            }
            "arith.ceildivui" => {
                let (a, b) = (uns(0)?, uns(1)?);
                format!("static_cast<{out_ct}>({a} / {b} + ({a} % {b} != 0 ? 1 : 0))")
            }
            "arith.divui" => ubin("/")?,
            "arith.remui" => ubin("%")?,
            "arith.andi" => bin("&")?,
            "arith.ori" => bin("|")?,
            "arith.xori" => bin("^")?,
            // Shifting in the unsigned type keeps a left shift of a negative
            // value defined in C++17 (arith wraps).
            "arith.shli" => format!("{} << {}", uns(0)?, ops.get(1).ok_or_else(unsupported)?),
            "arith.shrsi" => bin(">>")?,
            "arith.shrui" => format!("{} >> {}", uns(0)?, ops.get(1).ok_or_else(unsupported)?),
            "arith.negf" => format!("-{}", ops.first().ok_or_else(unsupported)?),
            "arith.cmpi" => {
                let p = self.req_int(op, "predicate")?;
                match p {
                    0 => bin("==")?,
                    1 => bin("!=")?,
                    2 => bin("<")?,
                    3 => bin("<=")?,
                    4 => bin(">")?,
                    5 => bin(">=")?,
                    6 => ubin("<")?,
                    7 => ubin("<=")?,
                    8 => ubin(">")?,
                    9 => ubin(">=")?,
                    _ => return Err(err(op, format!("arith.cmpi predicate {p} is unknown"))),
                }
            }
            "arith.cmpf" => {
                let p = self.req_int(op, "predicate")?;
                let (a, b) = match ops.as_slice() {
                    [a, b] => (a, b),
                    _ => return Err(unsupported()),
                };
                match p {
                    0 => "false".to_string(),
                    1 => format!("{a} == {b}"),
                    2 => format!("{a} > {b}"),
                    3 => format!("{a} >= {b}"),
                    4 => format!("{a} < {b}"),
                    5 => format!("{a} <= {b}"),
                    6 => format!("({a} < {b} || {a} > {b})"),
                    7 => format!("(!std::isnan({a}) && !std::isnan({b}))"),
                    8 => format!("!({a} < {b} || {a} > {b})"),
                    9 => format!("!({a} <= {b})"),
                    10 => format!("!({a} < {b})"),
                    11 => format!("!({a} >= {b})"),
                    12 => format!("!({a} > {b})"),
                    13 => format!("{a} != {b}"),
                    14 => format!("(std::isnan({a}) || std::isnan({b}))"),
                    15 => "true".to_string(),
                    _ => return Err(err(op, format!("arith.cmpf predicate {p} is unknown"))),
                }
            }
            "arith.maxsi" | "arith.minsi" | "arith.maxui" | "arith.minui" => {
                let (a, b) = match ops.as_slice() {
                    [a, b] => (a, b),
                    _ => return Err(unsupported()),
                };
                let sym = if name.contains("max") { ">" } else { "<" };
                let cond = if name.ends_with("ui") { format!("{} {sym} {}", uns(0)?, uns(1)?) } else { format!("{a} {sym} {b}") };
                format!("{cond} ? {a} : {b}")
            }
            // NaN-propagating, as arith.maximumf/minimumf.
            "arith.maximumf" | "arith.minimumf" => {
                let (a, b) = match ops.as_slice() {
                    [a, b] => (a, b),
                    _ => return Err(unsupported()),
                };
                let sym = if name == "arith.maximumf" { ">" } else { "<" };
                format!("std::isnan({a}) ? {a} : std::isnan({b}) ? {b} : {a} {sym} {b} ? {a} : {b}")
            }
            "arith.maxnumf" => bin(",").map(|s| format!("std::fmax({s})"))?,
            "arith.minnumf" => bin(",").map(|s| format!("std::fmin({s})"))?,
            "arith.select" => match ops.as_slice() {
                [c, a, b] => format!("{c} ? {a} : {b}"),
                _ => return Err(unsupported()),
            },
            "arith.extsi" if in_t == "i1" => {
                let a = ops.first().ok_or_else(unsupported)?;
                format!("{a} ? static_cast<{out_ct}>(-1) : static_cast<{out_ct}>(0)")
            }
            "arith.trunci" if out_t == "i1" => format!("static_cast<bool>({} & 1)", ops.first().ok_or_else(unsupported)?),
            "arith.extsi" | "arith.trunci" | "arith.sitofp" | "arith.fptosi" | "arith.extf" | "arith.truncf"
            | "arith.index_cast" => format!("static_cast<{out_ct}>({})", ops.first().ok_or_else(unsupported)?),
            "arith.extui" | "arith.uitofp" | "arith.index_castui" => format!("static_cast<{out_ct}>({})", uns(0)?),
            "arith.fptoui" => {
                let u = unsigned_cpp(&out_t).ok_or_else(unsupported)?;
                format!("static_cast<{out_ct}>(static_cast<{u}>({}))", ops.first().ok_or_else(unsupported)?)
            }
            "math.exp" => call1("std::exp")?,
            "math.log" => call1("std::log")?,
            "math.log1p" => call1("std::log1p")?,
            // A small constant power as its products, which the cost model
            // counts as that many multiplies (std::pow would be exp and log).
            "math.fpowi" => match (ops.first(), constant_operand(op, 1)) {
                (Some(a), Some(k)) if (1..=MAX_POWER).contains(&k) => vec![a.as_str(); k as usize].join(" * "),
                (Some(_), Some(0)) => format!("static_cast<{out_ct}>(1)"),
                _ => return Err(err(op, format!("'math.fpowi' has a C++ translation only for a constant exponent of 0 to {MAX_POWER}"))),
            },
            "math.erf" => call1("std::erf")?,
            "math.powf" => match ops.as_slice() {
                [a, b] => format!("std::pow({a}, {b})"),
                _ => return Err(unsupported()),
            },
            "math.sqrt" => call1("std::sqrt")?,
            "math.absf" => call1("std::fabs")?,
            "math.tanh" => call1("std::tanh")?,
            "math.floor" => call1("std::floor")?,
            "math.ceil" => call1("std::ceil")?,
            // Half to even in the default rounding mode (QuantizeLinear).
            "math.roundeven" => call1("std::nearbyint")?,
            _ => return Err(unsupported()),
        })
    }
}
