//! The body of one emitHLS function as C++: every op one statement, every
//! SSA value a named local (`vN`), block arguments `argN` and loop counters
//! `iN`, pragmas in place. Arith/math ops are left to `expression`.
use super::literals::{braces, braces_by_row, c_string, elements};
use super::{declare, entry_block, err, has_dataflow, Result, Rom};
use crate::ir::types::{enum_word, parse_type, scalar_cpp, value_cpp, HlsType};
use crate::ir::views::{self, ForOp, StreamOp};
use crate::ir::{key, op_name};
use melior::ir::{
    attribute::StringAttribute,
    block::BlockLike,
    operation::{OperationLike, WalkOrder, WalkResult},
    BlockRef, OperationRef, RegionLike, Value, ValueLike,
};
use std::collections::HashMap;
use std::fmt::Write as _;

/// The depth of every stream of `f` that an `emitHLS.pragma.stream` sets.
fn stream_depths(f: &OperationRef) -> HashMap<usize, i64> {
    let mut depths = HashMap::new();
    f.walk(WalkOrder::PreOrder, |op| {
        if op_name(&op) == "emitHLS.pragma.stream" {
            if let (Ok(s), Some(d)) = (op.operand(0), views::stream_depth(&op)) {
                depths.insert(key(s), d);
            }
        }
        WalkResult::Advance
    });
    depths
}

/// The state of printing one function.
#[derive(Default)]
pub(super) struct Emitter {
    pub(super) out: String,
    indent: usize,
    names: HashMap<usize, String>,
    counter: usize,
    loops: usize,
    /// The printed module (for dense_resource checks), set by emit_cpp.
    module_text: String,
    /// The function being printed has DATAFLOW: its calls become MING_PROCESS.
    dataflow: bool,
    /// Stream depths from `emitHLS.pragma.stream`, by stream value.
    depths: HashMap<usize, i64>,
    /// ROMs go to `roms` (namespace scope) instead of the function body.
    separate_roms: bool,
    pub(super) roms: Vec<Rom>,
    /// The C++ name of the function being printed.
    func_name: String,
}

impl Emitter {
    /// An emitter for one function; `module_text` is the printed module.
    pub(super) fn new(module_text: String, separate_roms: bool) -> Self {
        Emitter { module_text, separate_roms, ..Emitter::default() }
    }

    fn line(&mut self, text: &str) {
        for _ in 0..self.indent {
            self.out.push_str("  ");
        }
        self.out.push_str(text);
        self.out.push('\n');
    }

    fn pragma(&mut self, text: &str) {
        self.line(&format!("#pragma HLS {text}"));
    }

    fn fresh(&mut self, v: Value) -> String {
        let n = format!("v{}", self.counter);
        self.counter += 1;
        self.names.insert(key(v), n.clone());
        n
    }

    fn name(&self, op: &OperationRef, v: Value) -> Result<String> {
        self.names
            .get(&key(v))
            .cloned()
            .ok_or_else(|| err(op, format!("'{}' uses a value defined outside the function", op_name(op))))
    }

    pub(super) fn operand(&self, op: &OperationRef, i: usize) -> Result<String> {
        let v = op.operand(i).map_err(|e| err(op, e.to_string()))?;
        self.name(op, v)
    }

    pub(super) fn operand_type(&self, op: &OperationRef, i: usize) -> Result<String> {
        Ok(op.operand(i).map_err(|e| err(op, e.to_string()))?.r#type().to_string())
    }

    pub(super) fn result_type(&self, op: &OperationRef) -> Result<String> {
        Ok(op.result(0).map_err(|e| err(op, e.to_string()))?.r#type().to_string())
    }

    fn int_attr(&self, op: &OperationRef, name: &str) -> Result<Option<i64>> {
        views::optional_int(op, name).map_err(|m| err(op, m))
    }

    pub(super) fn req_int(&self, op: &OperationRef, name: &str) -> Result<i64> {
        views::required_int(op, name).map_err(|m| err(op, m))
    }

    fn enum_attr(&self, op: &OperationRef, name: &str) -> Result<String> {
        let a = op.attribute(name).map_err(|_| err(op, format!("'{}' has no '{name}' attribute", op_name(op))))?;
        let text = a.to_string();
        enum_word(&text).map(str::to_string).ok_or_else(|| err(op, format!("cannot read attribute {text}")))
    }

    /// `const T vN = expr;` for the op's single result (a scalar, or a word
    /// read from a stream or a word variable).
    fn define(&mut self, op: &OperationRef, expr: &str) -> Result<()> {
        let t = self.result_type(op)?;
        let ct = value_cpp(&t).ok_or_else(|| err(op, format!("result type {t} of '{}' has no C++ translation", op_name(op))))?;
        let v = op.result(0).map_err(|e| err(op, e.to_string()))?;
        let n = self.fresh(v.into());
        self.line(&format!("const {ct} {n} = {expr};"));
        Ok(())
    }

    pub(super) fn func(&mut self, f: &OperationRef, signature: &str) -> Result<()> {
        let block = entry_block(f)?;
        for i in 0..block.argument_count() {
            let a = block.argument(i).map_err(|e| err(f, e.to_string()))?;
            self.names.insert(key(a.into()), format!("arg{i}"));
        }
        self.dataflow = has_dataflow(f);
        self.func_name = f
            .attribute("sym_name")
            .ok()
            .and_then(|a| StringAttribute::try_from(a).ok())
            .map(|a| a.value().to_string())
            .unwrap_or_default();
        self.depths = stream_depths(f);
        self.line(&format!("{signature} {{"));
        self.indent += 1;
        self.block(&block, true)?;
        self.indent -= 1;
        self.line("}");
        Ok(())
    }

    fn block(&mut self, block: &BlockRef, function_body: bool) -> Result<()> {
        let mut ops = Vec::new();
        let mut next = block.first_operation();
        while let Some(op) = next {
            next = op.next_in_block();
            ops.push(op);
        }
        // In a DATAFLOW function the calls of its body form one region, run
        // concurrently in C simulation (ming_dataflow.h).
        let calls: Vec<usize> = if function_body && self.dataflow {
            ops.iter().enumerate().filter(|(_, op)| op_name(op) == "emitHLS.call").map(|(i, _)| i).collect()
        } else {
            Vec::new()
        };
        for (i, op) in ops.iter().enumerate() {
            // A `return;` that ends a void function says nothing.
            if function_body && i + 1 == ops.len() && op_name(op) == "emitHLS.return" && op.operand_count() == 0 {
                continue;
            }
            if calls.first() == Some(&i) {
                self.line("MING_DATAFLOW_BEGIN;");
            }
            if calls.contains(&i) {
                self.process(op)?;
            } else {
                self.op(op)?;
            }
            if calls.last() == Some(&i) {
                self.line("MING_DATAFLOW_END;");
            }
        }
        Ok(())
    }

    /// `MING_PROCESS("callee", callee(args));`: a call of a DATAFLOW function.
    fn process(&mut self, op: &OperationRef) -> Result<()> {
        if op.result_count() != 0 {
            return Err(err(op, "a call in a DATAFLOW function runs as a process and must not return a value".into()));
        }
        let callee = op.attribute("callee").map_err(|e| err(op, e.to_string()))?.to_string();
        let callee = callee.trim_start_matches('@').to_string();
        let args = (0..op.operand_count()).map(|i| self.operand(op, i)).collect::<Result<Vec<_>>>()?;
        self.line(&format!("MING_PROCESS({}, {callee}({}));", c_string(&callee), args.join(", ")));
        Ok(())
    }

    fn region(&mut self, op: &OperationRef, index: usize) -> Result<()> {
        let region = op.region(index).map_err(|e| err(op, e.to_string()))?;
        if let Some(b) = region.first_block() {
            self.indent += 1;
            self.block(&b, false)?;
            self.indent -= 1;
        }
        Ok(())
    }

    /// One op of a body: each kind has its own function below.
    fn op(&mut self, op: &OperationRef) -> Result<()> {
        let name = op_name(op);
        match name.as_str() {
            "emitHLS.yield" => Ok(()),
            "emitHLS.return" => self.return_op(op),
            "emitHLS.call" => self.call(op),
            "emitHLS.array" => self.array(op),
            "emitHLS.stream" => self.stream(op),
            "emitHLS.var" => self.var(op),
            "emitHLS.assign" => {
                let (value, var) = (self.operand(op, 0)?, self.operand(op, 1)?);
                self.line(&format!("{var} = {value};"));
                Ok(())
            }
            "emitHLS.get" => {
                let var = self.operand(op, 0)?;
                self.define(op, &var)
            }
            "emitHLS.for" => self.for_loop(op),
            "emitHLS.if" => self.if_op(op),
            "emitHLS.stream_read" => {
                let s = self.operand(op, 0)?;
                self.define(op, &format!("{s}.read()"))
            }
            "emitHLS.stream_write" => {
                let (s, v) = (self.operand(op, 0)?, self.operand(op, 1)?);
                self.line(&format!("{s}.write({v});"));
                Ok(())
            }
            "emitHLS.load" => self.load(op),
            "emitHLS.store" => self.store(op),
            "emitHLS.cast" => {
                let (x, t) = (self.operand(op, 0)?, self.result_type(op)?);
                let ct = scalar_cpp(&t).ok_or_else(|| err(op, format!("type {t} has no C++ translation")))?;
                self.define(op, &format!("static_cast<{ct}>({x})"))
            }
            _ if name.starts_with("emitHLS.pragma.") => self.pragma_op(op, &name["emitHLS.pragma.".len()..]),
            _ if name.starts_with("arith.") || name.starts_with("math.") => {
                let expr = self.expression(op, &name)?;
                self.define(op, &expr)
            }
            _ => Err(err(op, format!("'{name}' has no C++ translation"))),
        }
    }

    fn return_op(&mut self, op: &OperationRef) -> Result<()> {
        if op.operand_count() == 0 {
            self.line("return;");
        } else {
            let v = self.operand(op, 0)?;
            self.line(&format!("return {v};"));
        }
        Ok(())
    }

    fn call(&mut self, op: &OperationRef) -> Result<()> {
        let callee = crate::ir::callee(op);
        let args = (0..op.operand_count()).map(|i| self.operand(op, i)).collect::<Result<Vec<_>>>()?;
        let call = format!("{callee}({})", args.join(", "));
        if op.result_count() == 0 {
            self.line(&format!("{call};"));
            Ok(())
        } else {
            self.define(op, &call)
        }
    }

    /// `hls::stream<T, D> vN("name");`: the depth bounds the FIFO in C
    /// simulation too, and the name is what a deadlock report prints.
    fn stream(&mut self, op: &OperationRef) -> Result<()> {
        let t = self.result_type(op)?;
        let elem = match parse_type(&t) {
            Some(HlsType::Stream(e)) => value_cpp(&e).unwrap_or_default(),
            _ => return Err(err(op, format!("type {t} has no C++ translation"))),
        };
        let view = StreamOp::read(op).map_err(|m| err(op, m))?;
        let v = op.result(0).map_err(|e| err(op, e.to_string()))?;
        let depth = self.depths.get(&key(v.into())).copied();
        let n = self.fresh(v.into());
        let label = view.name.unwrap_or_else(|| n.clone());
        let ty = match depth {
            Some(d) => format!("hls::stream<{elem}, {d}>"),
            None => format!("hls::stream<{elem}>"),
        };
        self.line(&format!("{ty} {n}({});", c_string(&label)));
        Ok(())
    }

    fn var(&mut self, op: &OperationRef) -> Result<()> {
        let t = self.result_type(op)?;
        let elem = match parse_type(&t) {
            Some(HlsType::Var(e)) => e,
            _ => return Err(err(op, format!("type {t} has no C++ translation"))),
        };
        let ct = value_cpp(&elem).unwrap_or_default();
        let init = if op.operand_count() > 0 { format!(" = {}", self.operand(op, 0)?) } else { String::new() };
        let v = op.result(0).map_err(|e| err(op, e.to_string()))?;
        let n = self.fresh(v.into());
        self.line(&format!("{ct} {n}{init};"));
        Ok(())
    }

    fn for_loop(&mut self, op: &OperationRef) -> Result<()> {
        let view = ForOp::read(op).map_err(|m| err(op, m))?;
        let (lb, ub, step) = view.bounds();
        let label = view.label.map(|l| format!("{l}: ")).unwrap_or_default();
        let body = op.region(0).ok().and_then(|r| r.first_block()).ok_or_else(|| err(op, "loop without body".into()))?;
        let iv = body.argument(0).map_err(|e| err(op, e.to_string()))?;
        let i = format!("i{}", self.loops);
        self.loops += 1;
        self.names.insert(key(iv.into()), i.clone());
        self.line(&format!("{label}for (int {i} = {lb}; {i} < {ub}; {i} += {step}) {{"));
        self.region(op, 0)?;
        self.line("}");
        Ok(())
    }

    fn if_op(&mut self, op: &OperationRef) -> Result<()> {
        let c = self.operand(op, 0)?;
        self.line(&format!("if ({c}) {{"));
        self.region(op, 0)?;
        let has_else = op.region(1).ok().and_then(|r| r.first_block()).is_some();
        if has_else {
            self.line("} else {");
            self.region(op, 1)?;
        }
        self.line("}");
        Ok(())
    }

    fn load(&mut self, op: &OperationRef) -> Result<()> {
        let m = self.operand(op, 0)?;
        let idx: String = (1..op.operand_count()).map(|i| self.operand(op, i).map(|n| format!("[{n}]"))).collect::<Result<_>>()?;
        self.define(op, &format!("{m}{idx}"))
    }

    fn store(&mut self, op: &OperationRef) -> Result<()> {
        let (v, m) = (self.operand(op, 0)?, self.operand(op, 1)?);
        let idx: String = (2..op.operand_count()).map(|i| self.operand(op, i).map(|n| format!("[{n}]"))).collect::<Result<_>>()?;
        self.line(&format!("{m}{idx} = {v};"));
        Ok(())
    }

    fn pragma_op(&mut self, op: &OperationRef, kind: &str) -> Result<()> {
        let text = match kind {
            "dataflow" => "DATAFLOW".to_string(),
            "pipeline" if op.has_attribute("off") => "PIPELINE off".to_string(),
            "pipeline" => match self.int_attr(op, "ii")? {
                Some(ii) => format!("PIPELINE II={ii}"),
                None => "PIPELINE".to_string(),
            },
            "unroll" => match self.int_attr(op, "factor")? {
                Some(f) => format!("UNROLL factor={f}"),
                None => "UNROLL".to_string(),
            },
            "dependence" => format!(
                "DEPENDENCE variable={} type=inter direction=RAW distance={} dependent=true",
                self.operand(op, 0)?,
                self.req_int(op, "distance")?
            ),
            "loop_tripcount" => format!(
                "LOOP_TRIPCOUNT min={} max={} avg={}",
                self.req_int(op, "min")?,
                self.req_int(op, "max")?,
                self.req_int(op, "avg")?
            ),
            "inline" if op.has_attribute("off") => "INLINE off".to_string(),
            "inline" => "INLINE".to_string(),
            "array_partition" => {
                let mut t = format!("ARRAY_PARTITION variable={} {}", self.operand(op, 0)?, self.enum_attr(op, "kind")?);
                if let Some(f) = self.int_attr(op, "factor")? {
                    let _ = write!(t, " factor={f}");
                }
                let _ = write!(t, " dim={}", self.req_int(op, "dim")?);
                t
            }
            "bind_storage" => format!(
                "BIND_STORAGE variable={} type={} impl={}",
                self.operand(op, 0)?,
                self.enum_attr(op, "storage")?,
                self.enum_attr(op, "impl")?
            ),
            "stream" => format!("STREAM variable={} depth={}", self.operand(op, 0)?, self.req_int(op, "depth")?),
            "interface" => {
                let port = if op.operand_count() > 0 { self.operand(op, 0)? } else { "return".to_string() };
                let mut t = format!("INTERFACE {} port={port}", self.enum_attr(op, "mode")?);
                if let Ok(b) = op.attribute("bundle") {
                    let b = StringAttribute::try_from(b).map_err(|_| err(op, "bundle is not a string".into()))?;
                    let _ = write!(t, " bundle={}", b.value());
                }
                if let Some(d) = self.int_attr(op, "depth")? {
                    let _ = write!(t, " depth={d}");
                }
                if let Some(w) = self.int_attr(op, "max_widen_bitwidth")? {
                    let _ = write!(t, " max_widen_bitwidth={w}");
                }
                t
            }
            _ => return Err(err(op, format!("'emitHLS.pragma.{kind}' has no C++ translation"))),
        };
        self.pragma(&text);
        Ok(())
    }

    fn array(&mut self, op: &OperationRef) -> Result<()> {
        let t = self.result_type(op)?;
        let (shape, elem) = match parse_type(&t) {
            Some(HlsType::Array { shape, elem }) => (shape, elem),
            _ => return Err(err(op, format!("type {t} has no C++ translation"))),
        };
        let v = op.result(0).map_err(|e| err(op, e.to_string()))?;
        let n = self.fresh(v.into());
        let decl = declare(&t, &n, false).ok_or_else(|| err(op, format!("type {t} has no C++ translation")))?;
        let rom = op.has_attribute("rom");
        let init = match op.attribute("init") {
            Err(_) => {
                if rom {
                    return Err(err(op, "a rom array needs an initialiser".into()));
                }
                self.line(&format!("{decl};"));
                return Ok(());
            }
            Ok(a) => a,
        };
        let text = || self.module_text.clone();
        let values = elements(init, &elem, shape.iter().product::<u64>(), &text)
            .map_err(|m| err(op, format!("initialiser {m}")))?;
        if rom && self.separate_roms {
            // Pragmas and accesses then name the global.
            let global = format!("{}_{n}", self.func_name);
            self.names.insert(key(v.into()), global.clone());
            let decl = declare(&t, &global, false).ok_or_else(|| err(op, format!("type {t} has no C++ translation")))?;
            self.roms.push(Rom { decl, init: braces_by_row(&values, &shape) });
            return Ok(());
        }
        let prefix = if rom { "static const " } else { "" };
        self.line(&format!("{prefix}{decl} = {};", braces(&values, &shape)));
        Ok(())
    }
}
