//! A minimal JSON value and pretty printer for report.json (no serde in the
//! dependency set; the report is small and written once).
use std::fmt::Write as _;

#[derive(Debug, Clone, PartialEq)]
pub enum Json {
    Null,
    Bool(bool),
    Int(i64),
    Float(f64),
    Str(String),
    Array(Vec<Json>),
    /// Keys in insertion order, so the file reads like the schema.
    Object(Vec<(String, Json)>),
}

impl Json {
    pub fn object<const N: usize>(fields: [(&str, Json); N]) -> Json {
        Json::Object(fields.into_iter().map(|(k, v)| (k.to_string(), v)).collect())
    }

    pub fn str(s: &str) -> Json {
        Json::Str(s.to_string())
    }

    pub fn opt_int(v: Option<u64>) -> Json {
        v.and_then(|v| i64::try_from(v).ok()).map(Json::Int).unwrap_or(Json::Null)
    }

    pub fn opt_str(v: Option<&str>) -> Json {
        v.map(Json::str).unwrap_or(Json::Null)
    }

    /// Two-space indented text, with a final newline.
    pub fn pretty(&self) -> String {
        let mut out = String::new();
        self.write(&mut out, 0);
        out.push('\n');
        out
    }

    fn write(&self, out: &mut String, indent: usize) {
        let pad = |out: &mut String, n: usize| out.extend(std::iter::repeat("  ").take(n));
        match self {
            Json::Null => out.push_str("null"),
            Json::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
            Json::Int(i) => {
                let _ = write!(out, "{i}");
            }
            // JSON has no NaN or infinity.
            Json::Float(f) if !f.is_finite() => out.push_str("null"),
            Json::Float(f) => {
                let _ = write!(out, "{f:?}");
            }
            Json::Str(s) => quote(out, s),
            Json::Array(items) if items.is_empty() => out.push_str("[]"),
            Json::Object(fields) if fields.is_empty() => out.push_str("{}"),
            Json::Array(items) => {
                out.push_str("[\n");
                for (i, item) in items.iter().enumerate() {
                    pad(out, indent + 1);
                    item.write(out, indent + 1);
                    out.push_str(if i + 1 < items.len() { ",\n" } else { "\n" });
                }
                pad(out, indent);
                out.push(']');
            }
            Json::Object(fields) => {
                out.push_str("{\n");
                for (i, (k, v)) in fields.iter().enumerate() {
                    pad(out, indent + 1);
                    quote(out, k);
                    out.push_str(": ");
                    v.write(out, indent + 1);
                    out.push_str(if i + 1 < fields.len() { ",\n" } else { "\n" });
                }
                pad(out, indent);
                out.push('}');
            }
        }
    }
}

fn quote(out: &mut String, s: &str) {
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\t' => out.push_str("\\t"),
            '\r' => out.push_str("\\r"),
            c if (c as u32) < 0x20 => {
                let _ = write!(out, "\\u{:04x}", c as u32);
            }
            c => out.push(c),
        }
    }
    out.push('"');
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn prints_nested_values() {
        let v = Json::object([
            ("a", Json::Int(1)),
            ("b", Json::Array(vec![Json::Null, Json::Float(200.0), Json::Bool(true)])),
            ("c", Json::str("q\"\n\u{1}")),
            ("d", Json::Object(vec![])),
            ("e", Json::Float(f64::NAN)),
        ]);
        assert_eq!(
            v.pretty(),
            "{\n  \"a\": 1,\n  \"b\": [\n    null,\n    200.0,\n    true\n  ],\n  \"c\": \"q\\\"\\n\\u0001\",\n  \"d\": {},\n  \"e\": null\n}\n"
        );
    }
}
