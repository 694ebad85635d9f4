//! C++ spellings of MLIR types, worked out from the types' printed text.
//!
//! Why text: MLIR's C API (all melior can reach) knows the builtin types but
//! not the parameters of our own `!emitHLS.*` types, and a C++ query through
//! the cxx bridge would mean a rebuild of libMingPasses.so and a second place
//! that must agree with the dialect. The printed form is the dialect's stable
//! assembly format (`!emitHLS.array<3x34xi8>`), so one small parser here,
//! unit-tested below, is the simpler robust path. Builtin scalar types are
//! mapped from their text too (`i8`, `f32`, `index`), so there is exactly one
//! scalar mapping.

/// The kind of an SSA value's type, as far as the C++ printer cares.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum HlsType {
    /// A builtin scalar: the MLIR text (`i8`, `f32`, `index`).
    Scalar(String),
    /// `!emitHLS.array<AxBxT>`: shape and element text.
    Array { shape: Vec<u64>, elem: String },
    /// `!emitHLS.ptr<T>`.
    Ptr(String),
    /// `!emitHLS.stream<T>`: T a scalar or a word `vector<LxT>`.
    Stream(String),
    /// `!emitHLS.var<T>`: T a scalar or a word `vector<LxT>`.
    Var(String),
}

/// Classifies a type from its printed text; `None` if it is neither a
/// supported scalar nor a well-formed emitHLS type.
pub fn parse_type(text: &str) -> Option<HlsType> {
    let text = text.trim();
    if let Some(rest) = text.strip_prefix("!emitHLS.") {
        let open = rest.find('<')?;
        let (kind, body) = rest.split_at(open);
        let body = body.strip_prefix('<')?.strip_suffix('>')?.trim();
        let scalar = |s: &str| scalar_cpp(s).map(|_| s.to_string());
        let value = |s: &str| value_cpp(s).map(|_| s.to_string());
        return match kind {
            "array" => {
                let (shape, elem) = parse_shape(body)?;
                Some(HlsType::Array { shape, elem: scalar(elem)? })
            }
            "ptr" => Some(HlsType::Ptr(scalar(body)?)),
            "stream" => Some(HlsType::Stream(value(body)?)),
            "var" => Some(HlsType::Var(value(body)?)),
            _ => None,
        };
    }
    scalar_cpp(text).map(|_| HlsType::Scalar(text.to_string()))
}

/// `3x34xi8` -> ([3, 34], "i8"). Dimensions are the leading `<digits>x`
/// groups, so element types containing an `x` (`index`) stay whole. At least
/// one dimension, each at least 1.
pub fn parse_shape(body: &str) -> Option<(Vec<u64>, &str)> {
    let mut shape = Vec::new();
    let mut rest = body;
    loop {
        let digits = rest.bytes().take_while(u8::is_ascii_digit).count();
        if digits == 0 {
            break;
        }
        let after = rest[digits..].strip_prefix('x')?;
        let dim: u64 = rest[..digits].parse().ok()?;
        if dim == 0 {
            return None;
        }
        shape.push(dim);
        rest = after;
    }
    if shape.is_empty() || rest.is_empty() {
        return None;
    }
    Some((shape, rest))
}

/// Integer width of `iN` text (signless integers only).
pub fn int_width(text: &str) -> Option<u32> {
    let digits = text.strip_prefix('i')?;
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    digits.parse().ok().filter(|w| *w >= 1 && *w <= 4096)
}

/// The C++ type of a builtin scalar: i1 bool, i8..i64 intN_t, other widths
/// ap_int<N>, f32 float, f64 double, index int.
pub fn scalar_cpp(text: &str) -> Option<String> {
    match text {
        "f32" => return Some("float".into()),
        "f64" => return Some("double".into()),
        "index" => return Some("int".into()),
        _ => {}
    }
    Some(match int_width(text)? {
        1 => "bool".into(),
        w @ (8 | 16 | 32 | 64) => format!("int{w}_t"),
        w => format!("ap_int<{w}>"),
    })
}

/// `vector<4xi8>` -> (4, "i8"): a packed word of lanes (one dimension of at
/// least 1, integer or float elements, as the emitHLS verifier requires).
pub fn parse_word(text: &str) -> Option<(u64, &str)> {
    let body = text.trim().strip_prefix("vector<")?.strip_suffix('>')?;
    match parse_shape(body)? {
        (shape, elem) if shape.len() == 1 && elem != "index" && scalar_cpp(elem).is_some() => Some((shape[0], elem)),
        _ => None,
    }
}

/// The C++ type of a value a stream or variable holds: a scalar
/// (`scalar_cpp`) or a packed word, `vector<4xi8>` -> `hls::vector<int8_t, 4>`.
pub fn value_cpp(text: &str) -> Option<String> {
    match parse_word(text) {
        Some((lanes, elem)) => Some(format!("hls::vector<{}, {lanes}>", scalar_cpp(elem)?)),
        None => scalar_cpp(text),
    }
}

/// The unsigned C++ type of the same width, for the unsigned arith ops.
pub fn unsigned_cpp(text: &str) -> Option<String> {
    if text == "index" {
        return Some("unsigned".into());
    }
    Some(match int_width(text)? {
        1 => "bool".into(),
        w @ (8 | 16 | 32 | 64) => format!("uint{w}_t"),
        w => format!("ap_uint<{w}>"),
    })
}

/// Bits of an element type as MLIR prints it (`i8`, `f32`, `bf16`, `index`).
pub fn element_bits(elem: &str) -> Option<u64> {
    match elem {
        "f16" | "bf16" => Some(16),
        "f32" => Some(32),
        "f64" => Some(64),
        "index" => Some(64),
        _ => elem.strip_prefix('i').or_else(|| elem.strip_prefix("ui")).or_else(|| elem.strip_prefix("si")).and_then(|n| n.parse().ok()),
    }
}

pub fn is_float(text: &str) -> bool {
    text == "f32" || text == "f64"
}

/// The last word of an enum attribute's text: `#emitHLS<partition_kind cyclic>`
/// -> `cyclic`.
pub fn enum_word(text: &str) -> Option<&str> {
    let inner = text.trim().strip_suffix('>')?;
    let word = inner.rsplit(|c: char| c.is_whitespace() || c == '<').next()?;
    (!word.is_empty() && word.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_')).then_some(word)
}

/// `loc("file.mlir":3:5)` -> `file.mlir:3:5`; other locations as printed.
pub fn format_location(text: &str) -> String {
    if let Some(rest) = text.strip_prefix("loc(\"") {
        if let Some((file, tail)) = rest.split_once('"') {
            if let Some(pos) = tail.strip_suffix(')') {
                // `:3:5` or `:3:5 to :3:9` (ranges): keep the start.
                let start = pos.split(" to").next().unwrap_or(pos);
                return format!("{file}{start}");
            }
        }
    }
    text.to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scalars() {
        assert_eq!(scalar_cpp("i1").as_deref(), Some("bool"));
        assert_eq!(scalar_cpp("i8").as_deref(), Some("int8_t"));
        assert_eq!(scalar_cpp("i16").as_deref(), Some("int16_t"));
        assert_eq!(scalar_cpp("i32").as_deref(), Some("int32_t"));
        assert_eq!(scalar_cpp("i64").as_deref(), Some("int64_t"));
        assert_eq!(scalar_cpp("i12").as_deref(), Some("ap_int<12>"));
        assert_eq!(scalar_cpp("f32").as_deref(), Some("float"));
        assert_eq!(scalar_cpp("f64").as_deref(), Some("double"));
        assert_eq!(scalar_cpp("index").as_deref(), Some("int"));
        for bad in ["", "i", "i0", "ui8", "si8", "f16", "bf16", "i8x", "tensor<2xi8>", "i-3"] {
            assert_eq!(scalar_cpp(bad), None, "{bad}");
        }
        assert_eq!(unsigned_cpp("i8").as_deref(), Some("uint8_t"));
        assert_eq!(unsigned_cpp("i5").as_deref(), Some("ap_uint<5>"));
        assert_eq!(unsigned_cpp("index").as_deref(), Some("unsigned"));
        assert_eq!(unsigned_cpp("f32"), None);
    }

    #[test]
    fn emithls_types() {
        assert_eq!(
            parse_type("!emitHLS.array<3x34xi8>"),
            Some(HlsType::Array { shape: vec![3, 34], elem: "i8".into() })
        );
        assert_eq!(
            parse_type("!emitHLS.array<4xindex>"),
            Some(HlsType::Array { shape: vec![4], elem: "index".into() })
        );
        assert_eq!(
            parse_type("!emitHLS.array<2x3x4xf32>"),
            Some(HlsType::Array { shape: vec![2, 3, 4], elem: "f32".into() })
        );
        assert_eq!(parse_type("!emitHLS.ptr<f32>"), Some(HlsType::Ptr("f32".into())));
        assert_eq!(parse_type("!emitHLS.stream<i7>"), Some(HlsType::Stream("i7".into())));
        assert_eq!(parse_type("!emitHLS.var<i32>"), Some(HlsType::Var("i32".into())));
        assert_eq!(
            parse_type("!emitHLS.stream<vector<8xi8>>"),
            Some(HlsType::Stream("vector<8xi8>".into()))
        );
        assert_eq!(parse_type("!emitHLS.var<vector<4xf32>>"), Some(HlsType::Var("vector<4xf32>".into())));
        assert_eq!(parse_type("i1"), Some(HlsType::Scalar("i1".into())));
        for bad in [
            "!emitHLS.array<i8>",
            "!emitHLS.array<0x4xi8>",
            "!emitHLS.array<3x>",
            "!emitHLS.array<3x4>",
            "!emitHLS.array<3xf16>",
            "!emitHLS.array<3x34xi8",
            "!emitHLS.stream<!emitHLS.stream<i8>>",
            "!emitHLS.stream<vector<2x4xi8>>",
            "!emitHLS.stream<vector<4xf16>>",
            "!emitHLS.stream<vector<[4]xi8>>",
            "!emitHLS.array<4xvector<4xi8>>",
            "!emitHLS.ptr<vector<4xi8>>",
            "!emitHLS.foo<i8>",
            "!emitHLS.ptr",
            "!emitHLS.array<99999999999999999999999xi8>",
            "memref<4xi8>",
            "",
        ] {
            assert_eq!(parse_type(bad), None, "{bad}");
        }
    }

    #[test]
    fn words() {
        assert_eq!(parse_word("vector<8xi8>"), Some((8, "i8")));
        assert_eq!(value_cpp("vector<8xi8>").as_deref(), Some("hls::vector<int8_t, 8>"));
        assert_eq!(value_cpp("vector<2xf32>").as_deref(), Some("hls::vector<float, 2>"));
        assert_eq!(value_cpp("vector<4xi12>").as_deref(), Some("hls::vector<ap_int<12>, 4>"));
        assert_eq!(value_cpp("i32").as_deref(), Some("int32_t"));
        for bad in ["vector<i8>", "vector<0xi8>", "vector<2x2xi8>", "vector<4xindex>", "vector<4xi8", "tensor<4xi8>"] {
            assert_eq!(value_cpp(bad), None, "{bad}");
        }
    }

    #[test]
    fn element_widths() {
        assert_eq!(element_bits("i8"), Some(8));
        assert_eq!(element_bits("f32"), Some(32));
        assert_eq!(element_bits("vector<4xf32>"), None);
    }

    #[test]
    fn enum_words_and_locations() {
        assert_eq!(enum_word("#emitHLS<partition_kind cyclic>"), Some("cyclic"));
        assert_eq!(enum_word("#emitHLS<storage_kind ram_2p>"), Some("ram_2p"));
        assert_eq!(enum_word("#emitHLS.interface_mode<m_axi>"), Some("m_axi"));
        assert_eq!(enum_word("cyclic"), None);
        assert_eq!(enum_word("#x<a b\">"), None);
        assert_eq!(format_location("loc(\"a/b.mlir\":3:5)"), "a/b.mlir:3:5");
        assert_eq!(format_location("loc(\"a.mlir\":3:5 to :3:9)"), "a.mlir:3:5");
        assert_eq!(format_location("loc(unknown)"), "loc(unknown)");
    }
}
