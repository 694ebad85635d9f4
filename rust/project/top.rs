//! The top function of an emitHLS module, as the testbench and the Vitis
//! script need it: the emitHLS.func marked `ming.top`, whose arguments are
//! arrays, the first `ming.num_inputs` of them inputs and the rest outputs.
use crate::ir::{names, op_name, top_level_ops};
use crate::ir::types::{format_location, parse_type, HlsType};
use melior::ir::{
    attribute::{IntegerAttribute, StringAttribute},
    block::BlockLike,
    operation::OperationLike,
    Module, OperationRef, RegionLike, ValueLike,
};

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ArrayArg {
    pub shape: Vec<u64>,
    /// The MLIR element type (`i8`, `f32`).
    pub elem: String,
}

impl ArrayArg {
    pub fn count(&self) -> u64 {
        self.shape.iter().product()
    }

    /// `2x8xi8`, as in the MLIR type.
    pub fn describe(&self) -> String {
        let dims: Vec<String> = self.shape.iter().map(u64::to_string).collect();
        format!("{}x{}", dims.join("x"), self.elem)
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Top {
    pub name: String,
    pub args: Vec<ArrayArg>,
    pub num_inputs: usize,
}

impl Top {
    pub fn inputs(&self) -> &[ArrayArg] {
        &self.args[..self.num_inputs]
    }

    pub fn outputs(&self) -> &[ArrayArg] {
        &self.args[self.num_inputs..]
    }
}

/// Why the emitHLS module is not a complete design, at the op concerned when
/// there is one.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DesignError {
    /// `file:line:col` of the op, when it has a file location.
    pub location: Option<String>,
    pub message: String,
}

impl std::fmt::Display for DesignError {
    fn fmt(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        match &self.location {
            Some(at) => write!(f, "{at}: error: {}", self.message),
            None => f.write_str(&self.message),
        }
    }
}

impl std::error::Error for DesignError {}

fn located(op: &OperationRef, message: String) -> DesignError {
    DesignError { location: Some(format_location(&op.location().to_string())), message }
}

/// The `ming.top` function of `module`.
pub fn find<'c, 'a>(module: &'a Module<'c>) -> Result<OperationRef<'c, 'a>, DesignError> {
    let mut tops = top_level_ops(module).into_iter().filter(|op| op_name(op) == "emitHLS.func" && op.has_attribute(names::TOP));
    let top = tops
        .next()
        .ok_or_else(|| DesignError { location: None, message: format!("no emitHLS.func is marked '{}'", names::TOP) })?;
    if let Some(second) = tops.next() {
        return Err(located(&second, format!("a second emitHLS.func is marked '{}'", names::TOP)));
    }
    Ok(top)
}

/// Reads name, argument arrays and input count of the top function.
pub fn describe(top: &OperationRef) -> Result<Top, DesignError> {
    let name = top
        .attribute("sym_name")
        .ok()
        .and_then(|a| StringAttribute::try_from(a).ok())
        .map(|s| s.value().to_string())
        .ok_or_else(|| located(top, "the top function has no name".into()))?;
    let body = top.region(0).ok().and_then(|r| r.first_block()).ok_or_else(|| located(top, "the top function has no body".into()))?;
    let mut args = Vec::new();
    for i in 0..body.argument_count() {
        let t = body.argument(i).map_err(|e| located(top, e.to_string()))?.r#type().to_string();
        match parse_type(&t) {
            Some(HlsType::Array { shape, elem }) => args.push(ArrayArg { shape, elem }),
            _ => {
                return Err(located(
                    top,
                    format!("argument {i} of the top function '{name}' is {t}; the testbench needs arrays (!emitHLS.array<shape x T>)"),
                ))
            }
        }
    }
    let n = top
        .attribute(names::NUM_INPUTS)
        .ok()
        .and_then(|a| IntegerAttribute::try_from(a).ok())
        .map(|i| i.value())
        .ok_or_else(|| located(top, format!("the top function '{name}' has no integer '{}' attribute", names::NUM_INPUTS)))?;
    let num_inputs = usize::try_from(n)
        .ok()
        .filter(|n| *n <= args.len())
        .ok_or_else(|| located(top, format!("'{}' = {n} of '{name}' is not between 0 and its {} arguments", names::NUM_INPUTS, args.len())))?;
    Ok(Top { name, args, num_inputs })
}

/// One AXI interface of the top function, as its INTERFACE pragmas declare
/// it: what the deployment scripts wire up and the host drivers address.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Port {
    /// The argument index (the C name is `arg<index>`).
    pub arg: usize,
    /// The m_axi bundle the argument's data moves on (`gmem0`), if any.
    pub bundle: Option<String>,
    /// The s_axilite bundle holding its address register (`control`), if any.
    pub control: Option<String>,
}

/// The interface of every argument of `top` (in argument order) and the
/// s_axilite bundle of its block-level control (`return`), read from the
/// `emitHLS.pragma.interface` ops in its body.
pub fn ports(top: &OperationRef) -> Result<(Vec<Port>, Option<String>), DesignError> {
    let body = top.region(0).ok().and_then(|r| r.first_block()).ok_or_else(|| located(top, "the top function has no body".into()))?;
    let args: Vec<usize> = (0..body.argument_count())
        .map(|i| body.argument(i).map(|a| melior::ir::Value::from(a).to_raw().ptr as usize).map_err(|e| located(top, e.to_string())))
        .collect::<Result<_, _>>()?;
    let mut ports: Vec<Port> = (0..args.len()).map(|arg| Port { arg, bundle: None, control: None }).collect();
    let mut block_control = None;
    let mut next = body.first_operation();
    while let Some(op) = next {
        next = op.next_in_block();
        if op_name(&op) != "emitHLS.pragma.interface" {
            continue;
        }
        let mode = op.attribute("mode").map(|a| a.to_string()).unwrap_or_default();
        let bundle = op.attribute("bundle").ok().and_then(|a| StringAttribute::try_from(a).ok()).map(|s| s.value().to_string());
        let arg = match op.operand_count() {
            0 => None,
            _ => {
                let v = op.operand(0).map_err(|e| located(&op, e.to_string()))?;
                args.iter().position(|a| *a == v.to_raw().ptr as usize)
            }
        };
        match (arg, mode.contains("s_axilite"), mode.contains("m_axi")) {
            (None, true, _) => block_control = Some(bundle.unwrap_or_else(|| "control".into())),
            (Some(i), true, _) => ports[i].control = Some(bundle.unwrap_or_else(|| "control".into())),
            (Some(i), _, true) => ports[i].bundle = Some(bundle.unwrap_or_else(|| "gmem".into())),
            _ => {}
        }
    }
    Ok((ports, block_control))
}
