//! C++ literals: arith constants, the elements of dense and dense_resource
//! initialisers as brace lists, and C strings.
use crate::ir::types::scalar_cpp;
use melior::ir::{
    attribute::{AttributeLike, FloatAttribute, IntegerAttribute},
    Attribute,
};
use std::fmt::Write as _;

/// A C string literal for `text`.
pub(super) fn c_string(text: &str) -> String {
    let mut s = String::from("\"");
    for b in text.bytes() {
        match b {
            b'"' | b'\\' => {
                s.push('\\');
                s.push(b as char);
            }
            0x20..=0x7e => s.push(b as char),
            _ => {
                let _ = write!(s, "\\{b:03o}");
            }
        }
    }
    s.push('"');
    s
}

/// A C++ literal for an arith.constant of type `t`.
pub(super) fn constant(a: Attribute, t: &str) -> Option<String> {
    if let Ok(i) = IntegerAttribute::try_from(a) {
        let v = i.value();
        return Some(match scalar_cpp(t)?.as_str() {
            "bool" => (if v != 0 { "true" } else { "false" }).to_string(),
            "int64_t" if v == i64::MIN => "INT64_MIN".to_string(),
            "int64_t" => format!("{v}LL"),
            c if c.starts_with("ap_int") => format!("{c}({v}LL)"),
            _ => v.to_string(),
        });
    }
    if let Ok(f) = FloatAttribute::try_from(a) {
        return float_literal(f.value(), t);
    }
    None
}

fn float_literal(v: f64, t: &str) -> Option<String> {
    let (text, suffix) = match t {
        "f32" => (
            if v.is_finite() { format!("{:?}", v as f32) } else { String::new() },
            "f",
        ),
        "f64" => (if v.is_finite() { format!("{v:?}") } else { String::new() }, ""),
        _ => return None,
    };
    let ty = if t == "f32" { "float" } else { "double" };
    Some(if v.is_nan() {
        format!("static_cast<{ty}>(NAN)")
    } else if v.is_infinite() {
        format!("{}static_cast<{ty}>(INFINITY)", if v < 0.0 { "-" } else { "" })
    } else {
        format!("{text}{suffix}")
    })
}

/// The flat element literals of a dense or dense_resource initialiser.
pub(super) fn elements(a: Attribute, elem: &str, count: u64, module_text: &dyn Fn() -> String) -> std::result::Result<Vec<String>, String> {
    use mlir_sys::*;
    let raw = a.to_raw();
    let dense = unsafe { mlirAttributeIsADenseElements(raw) };
    let resource = unsafe { mlirAttributeIsADenseResourceElements(raw) };
    if !dense && !resource {
        return Err(format!("{a} is not a dense elements attribute"));
    }
    if resource {
        // The C API reads the blob without checking that it exists; a
        // dense_resource whose blob is missing (elided) must not get there.
        let text = a.to_string();
        let key = text.trim_start_matches("dense_resource<").split('>').next().unwrap_or("");
        if key.is_empty() || !module_text().contains(&format!("{key}: \"0x")) {
            return Err(format!("{a} has no data (missing dialect_resources entry)"));
        }
    }
    let n = unsafe { mlirElementsAttrGetNumElements(raw) };
    if n < 0 || n as u64 != count {
        return Err(format!("{a} does not have {count} elements"));
    }
    let mut out = Vec::with_capacity(count as usize);
    for i in 0..n as isize {
        let s = unsafe {
            match (elem, dense) {
                ("i1", true) => (if mlirDenseElementsAttrGetBoolValue(raw, i) { "true" } else { "false" }).to_string(),
                ("i8", true) => mlirDenseElementsAttrGetInt8Value(raw, i).to_string(),
                ("i16", true) => mlirDenseElementsAttrGetInt16Value(raw, i).to_string(),
                ("i32", true) => mlirDenseElementsAttrGetInt32Value(raw, i).to_string(),
                ("i64", true) => int64_literal(mlirDenseElementsAttrGetInt64Value(raw, i)),
                ("f32", true) => float_literal(mlirDenseElementsAttrGetFloatValue(raw, i) as f64, "f32").unwrap_or_default(),
                ("f64", true) => float_literal(mlirDenseElementsAttrGetDoubleValue(raw, i), "f64").unwrap_or_default(),
                ("i1", false) => (if mlirDenseBoolResourceElementsAttrGetValue(raw, i) { "true" } else { "false" }).to_string(),
                ("i8", false) => mlirDenseInt8ResourceElementsAttrGetValue(raw, i).to_string(),
                ("i16", false) => mlirDenseInt16ResourceElementsAttrGetValue(raw, i).to_string(),
                ("i32", false) => mlirDenseInt32ResourceElementsAttrGetValue(raw, i).to_string(),
                ("i64", false) => int64_literal(mlirDenseInt64ResourceElementsAttrGetValue(raw, i)),
                ("f32", false) => float_literal(mlirDenseFloatResourceElementsAttrGetValue(raw, i) as f64, "f32").unwrap_or_default(),
                ("f64", false) => float_literal(mlirDenseDoubleResourceElementsAttrGetValue(raw, i), "f64").unwrap_or_default(),
                _ => return Err(format!("elements of type {elem} are not supported")),
            }
        };
        out.push(s);
    }
    Ok(out)
}

fn int64_literal(v: i64) -> String {
    if v == i64::MIN {
        "INT64_MIN".to_string()
    } else {
        format!("{v}LL")
    }
}

/// `{{1, 2}, {3, 4}}` for shape [2, 2]; the innermost rows on one line each
/// when the array has more than one dimension.
pub(super) fn braces(values: &[String], shape: &[u64]) -> String {
    match shape {
        [] | [_] => format!("{{{}}}", values.join(", ")),
        [_, rest @ ..] => {
            let inner: u64 = rest.iter().product();
            let rows: Vec<String> = values.chunks(inner.max(1) as usize).map(|c| braces(c, rest)).collect();
            format!("{{{}}}", rows.join(", "))
        }
    }
}

/// `braces` with a line break after each element of the outermost dimension
/// (one row of a weight matrix per line).
pub(super) fn braces_by_row(values: &[String], shape: &[u64]) -> String {
    match shape {
        [] | [_] => braces(values, shape),
        [_, rest @ ..] => {
            let inner: u64 = rest.iter().product();
            let rows: Vec<String> = values.chunks(inner.max(1) as usize).map(|c| braces(c, rest)).collect();
            format!("{{\n  {}}}", rows.join(",\n  "))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn brace_lists() {
        let v: Vec<String> = (1..=6).map(|i| i.to_string()).collect();
        assert_eq!(braces(&v, &[6]), "{1, 2, 3, 4, 5, 6}");
        assert_eq!(braces(&v, &[2, 3]), "{{1, 2, 3}, {4, 5, 6}}");
        assert_eq!(braces(&v, &[3, 1, 2]), "{{{1, 2}}, {{3, 4}}, {{5, 6}}}");
        assert_eq!(braces_by_row(&v, &[2, 3]), "{\n  {1, 2, 3},\n  {4, 5, 6}}");
        assert_eq!(braces_by_row(&v, &[6]), "{1, 2, 3, 4, 5, 6}");
    }

    #[test]
    fn float_literals() {
        assert_eq!(float_literal(1.0, "f32").as_deref(), Some("1.0f"));
        assert_eq!(float_literal(0.1f32 as f64, "f32").as_deref(), Some("0.1f"));
        assert_eq!(float_literal(1e-7, "f64").as_deref(), Some("1e-7"));
        assert_eq!(float_literal(f64::NEG_INFINITY, "f32").as_deref(), Some("-static_cast<float>(INFINITY)"));
        assert_eq!(float_literal(1.0, "i32"), None);
    }
}
