//! `<top>_tb.cpp`: the testbench of the HLS project (contract in
//! ARCHITECTURE.md). It reads `data/in<i>.bin` for input i or makes
//! deterministic inputs, runs the top, writes `data/out<j>.bin` and compares
//! with `data/ref<j>.bin` where it exists. The fixed part is C++ text below;
//! only the per-argument loops are generated.
use super::top::{ArrayArg, Top};
use crate::ir::types::{int_width, scalar_cpp};
use std::fmt::Write as _;

/// How one element type is stored in a data file and handled in C++.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Codec {
    /// The C++ element type, as the kernel declares it.
    pub cpp: String,
    /// Bytes per element in the data files.
    pub bytes: u32,
    pub kind: Kind,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    Bool,
    /// A built-in intN_t.
    Int(u32),
    /// ap_int<N>.
    Ap(u32),
    F32,
    F64,
}

impl Codec {
    /// The codec of an MLIR element type; integers up to 64 bits are stored
    /// in the smallest of 1, 2, 4 or 8 bytes (sign-extended), as MLIR lays them out.
    pub fn of(elem: &str) -> Result<Codec, String> {
        let unsupported = || format!("element type {elem} is not supported by the testbench");
        let cpp = scalar_cpp(elem).ok_or_else(unsupported)?;
        let (bytes, kind) = match elem {
            "f32" => (4, Kind::F32),
            "f64" => (8, Kind::F64),
            "i1" => (1, Kind::Bool),
            _ => {
                let w = int_width(elem).filter(|w| *w <= 64).ok_or_else(unsupported)?;
                let bytes = w.div_ceil(8).next_power_of_two();
                (bytes, if matches!(w, 8 | 16 | 32 | 64) { Kind::Int(w) } else { Kind::Ap(w) })
            }
        };
        Ok(Codec { cpp, bytes, kind })
    }

    fn is_float(&self) -> bool {
        matches!(self.kind, Kind::F32 | Kind::F64)
    }

    /// The element at byte pointer `p`, as a value of the C++ type.
    fn decode(&self, p: &str) -> String {
        let (t, b) = (&self.cpp, self.bytes);
        match self.kind {
            Kind::Bool => format!("get_int({p}, 1) != 0"),
            Kind::Int(_) => format!("static_cast<{t}>(get_int({p}, {b}))"),
            Kind::Ap(_) => format!("{t}(get_int({p}, {b}))"),
            Kind::F32 => format!("get_f32({p})"),
            Kind::F64 => format!("get_f64({p})"),
        }
    }

    /// A statement storing `x` at byte pointer `p`.
    fn encode(&self, p: &str, x: &str) -> String {
        match self.kind {
            Kind::F32 => format!("put_f32({p}, {x});"),
            Kind::F64 => format!("put_f64({p}, {x});"),
            _ => format!("put_int({p}, {}, {});", self.bytes, self.wide(x)),
        }
    }

    /// `x` as long long (integers) or double (floats), for storing, comparing and printing.
    fn wide(&self, x: &str) -> String {
        match self.kind {
            Kind::Ap(_) => format!("static_cast<long long>({x}.to_int64())"),
            Kind::F32 | Kind::F64 => format!("static_cast<double>({x})"),
            _ => format!("static_cast<long long>({x})"),
        }
    }

    /// A deterministic random element: integers over the whole range of the
    /// type, floats in [-1, 1).
    fn random(&self) -> String {
        let t = &self.cpp;
        match self.kind {
            Kind::Bool => "random_int(1) != 0".to_string(),
            Kind::Int(w) => format!("static_cast<{t}>(random_int({w}))"),
            Kind::Ap(w) => format!("{t}(random_int({w}))"),
            Kind::F32 => "static_cast<float>(random_unit())".to_string(),
            Kind::F64 => "random_unit()".to_string(),
        }
    }
}

/// Everything before the generated part: helpers shared by every port.
const PRELUDE: &str = r#"#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <vector>

namespace ming_tb {

// A float output matches its reference when |out - ref| <= kRelTol * |ref| + kAbsTol.
constexpr double kRelTol = 1e-5;
constexpr double kAbsTol = 1e-6;
// How many mismatching elements are printed per output.
constexpr std::size_t kShown = 5;
// Exit statuses: 0 PASS (or nothing to compare), 1 FAIL, 2 a data file is
// missing its size or cannot be written (3 is a C-simulation deadlock).
constexpr int kFail = 1;
constexpr int kBadData = 2;

// The deterministic inputs: a 64-bit LCG (Knuth's MMIX constants), seeded per input.
std::uint64_t lcg_state = 0;
[[maybe_unused]] void seed(std::uint64_t s) { lcg_state = s; }
[[maybe_unused]] std::uint64_t next_random() {
  lcg_state = lcg_state * 6364136223846793005ULL + 1442695040888963407ULL;
  return lcg_state;
}
// A w-bit two's-complement integer (1 <= w <= 64) from the LCG's high bits.
[[maybe_unused]] std::int64_t random_int(int w) {
  std::uint64_t x = next_random() >> (64 - w);
  if (w < 64 && ((x >> (w - 1)) & 1))
    x |= ~std::uint64_t(0) << w;
  return static_cast<std::int64_t>(x);
}
// Uniform in [-1, 1) with 24 random bits, so exact in float.
[[maybe_unused]] double random_unit() { return static_cast<double>(next_random() >> 40) / 8388608.0 - 1.0; }

// Raw little-endian integers of 1, 2, 4 or 8 bytes, sign-extended; IEEE floats.
[[maybe_unused]] std::int64_t get_int(const unsigned char *p, int bytes) {
  std::uint64_t v = 0;
  for (int i = bytes - 1; i >= 0; --i)
    v = (v << 8) | p[i];
  const int w = 8 * bytes;
  if (w < 64 && ((v >> (w - 1)) & 1))
    v |= ~std::uint64_t(0) << w;
  return static_cast<std::int64_t>(v);
}
[[maybe_unused]] void put_int(unsigned char *p, int bytes, std::int64_t v) {
  std::uint64_t u = static_cast<std::uint64_t>(v);
  for (int i = 0; i < bytes; ++i, u >>= 8)
    p[i] = static_cast<unsigned char>(u & 0xff);
}
[[maybe_unused]] float get_f32(const unsigned char *p) {
  const std::uint32_t u = static_cast<std::uint32_t>(get_int(p, 4));
  float f;
  std::memcpy(&f, &u, sizeof f);
  return f;
}
[[maybe_unused]] void put_f32(unsigned char *p, float f) {
  std::uint32_t u;
  std::memcpy(&u, &f, sizeof u);
  put_int(p, 4, static_cast<std::int64_t>(u));
}
[[maybe_unused]] double get_f64(const unsigned char *p) {
  const std::uint64_t u = static_cast<std::uint64_t>(get_int(p, 8));
  double d;
  std::memcpy(&d, &u, sizeof d);
  return d;
}
[[maybe_unused]] void put_f64(unsigned char *p, double d) {
  std::uint64_t u;
  std::memcpy(&u, &d, sizeof u);
  put_int(p, 8, static_cast<std::int64_t>(u));
}

[[maybe_unused]] bool close_enough(double got, double want) {
  if (got == want)
    return true;
  if (std::isnan(want) || std::isnan(got))
    return std::isnan(want) && std::isnan(got);
  return std::fabs(got - want) <= kRelTol * std::fabs(want) + kAbsTol;
}

// The whole file; false when it cannot be opened.
bool read_file(const char *path, std::vector<unsigned char> &bytes) {
  std::FILE *f = std::fopen(path, "rb");
  if (!f)
    return false;
  bytes.clear();
  unsigned char buf[1 << 16];
  std::size_t n;
  while ((n = std::fread(buf, 1, sizeof buf, f)) > 0)
    bytes.insert(bytes.end(), buf, buf + n);
  std::fclose(f);
  return true;
}

[[maybe_unused]] bool write_file(const char *path, const std::vector<unsigned char> &bytes) {
  std::FILE *f = std::fopen(path, "wb");
  const bool ok = f && std::fwrite(bytes.data(), 1, bytes.size(), f) == bytes.size();
  if (f && std::fclose(f) != 0)
    return false;
  if (!ok)
    std::fprintf(stderr, "tb: error: cannot write %s\n", path);
  return ok;
}

// A data file must hold exactly the array: no silent truncation or padding.
bool has_size(const char *path, const std::vector<unsigned char> &bytes, std::size_t want, const char *type) {
  if (bytes.size() == want)
    return true;
  std::fprintf(stderr, "tb: error: %s holds %zu bytes, but %s needs exactly %zu\n", path, bytes.size(), type, want);
  return false;
}

// "[i][j]" of the row-major flat index k in an array of the given shape.
[[maybe_unused]] void print_index(std::size_t k, const std::size_t *shape, int rank) {
  std::size_t idx[16] = {};
  for (int d = rank - 1; d >= 0; --d) {
    idx[d] = k % shape[d];
    k /= shape[d];
  }
  for (int d = 0; d < rank; ++d)
    std::printf("[%zu]", idx[d]);
}
"#;

fn dims(a: &ArrayArg) -> String {
    a.shape.iter().map(|d| format!("[{d}]")).collect()
}

/// The testbench of `top`; `header` is the kernel header's file name.
pub fn render(top: &Top, header: &str) -> Result<String, String> {
    let codecs: Vec<Codec> = top.args.iter().map(|a| Codec::of(&a.elem)).collect::<Result<_, _>>()?;
    // print_index keeps the index in a fixed array.
    if let Some(a) = top.args.iter().find(|a| a.shape.len() > 16) {
        return Err(format!("the testbench supports arrays of up to 16 dimensions, not {}", a.describe()));
    }
    let name = |i: usize| if i < top.num_inputs { format!("in{i}") } else { format!("out{}", i - top.num_inputs) };
    let mut out = String::new();
    let _ = writeln!(out, "// {}_tb.cpp - generated by ming-opt --hls: the testbench of {}.", top.name, top.name);
    out.push_str(
        "// Input i comes from data/in<i>.bin (raw little-endian, row-major, exactly the array's size), or\n\
         // deterministic values when that file does not exist. Output j goes to data/out<j>.bin and is\n\
         // compared with data/ref<j>.bin where that exists (exactly for integers, within kRelTol/kAbsTol\n\
         // for floats). The run prints PASS or FAIL and exits 0 only on PASS (or when nothing was compared).\n",
    );
    let _ = writeln!(out, "#include \"{header}\"\n");
    out.push_str(PRELUDE);
    out.push('\n');
    for (i, (a, c)) in top.args.iter().zip(&codecs).enumerate() {
        let _ = writeln!(out, "// {}: {}, argument {i} of {}.", name(i), a.describe(), top.name);
        let _ = writeln!(out, "static {} {}{};", c.cpp, name(i), dims(a));
        if i >= top.num_inputs {
            let shape: Vec<String> = a.shape.iter().map(u64::to_string).collect();
            let _ = writeln!(out, "static const std::size_t {}_shape[] = {{{}}};", name(i), shape.join(", "));
        }
    }
    out.push_str("\n} // namespace ming_tb\n\nint main() {\n  using namespace ming_tb;\n  std::vector<unsigned char> raw;\n");
    for (i, (a, c)) in top.args.iter().zip(&codecs).enumerate().take(top.num_inputs) {
        let (n, count, b) = (name(i), a.count(), c.bytes);
        let _ = write!(
            out,
            r#"  {{ // {n}
    {t} *x = reinterpret_cast<{t} *>(&{n});
    if (read_file("data/{n}.bin", raw)) {{
      if (!has_size("data/{n}.bin", raw, {size}, "{desc}"))
        return kBadData;
      for (std::size_t k = 0; k < {count}; ++k)
        x[k] = {decode};
      std::printf("{n}: data/{n}.bin\n");
    }} else {{
      seed({seed}ULL);
      for (std::size_t k = 0; k < {count}; ++k)
        x[k] = {random};
      std::printf("{n}: deterministic input (no data/{n}.bin)\n");
    }}
  }}
"#,
            t = c.cpp,
            size = count * u64::from(b),
            desc = a.describe(),
            decode = c.decode(&format!("&raw[k * {b}]")),
            seed = i + 1,
            random = c.random(),
        );
    }
    let args: Vec<String> = (0..top.args.len()).map(name).collect();
    let _ = writeln!(out, "  {}({});", top.name, args.join(", "));
    out.push_str("  bool compared = false, failed = false;\n");
    for (i, (a, c)) in top.args.iter().zip(&codecs).enumerate().skip(top.num_inputs) {
        let (n, count, b) = (name(i), a.count(), c.bytes);
        let j = i - top.num_inputs;
        let (differs, fmt) = if c.is_float() {
            ("!close_enough(got, want)", "%.9g")
        } else {
            ("got != want", "%lld")
        };
        let got = c.wide("y[k]");
        let want = if c.is_float() { c.wide(&c.decode(&format!("&raw[k * {b}]"))) } else { format!("get_int(&raw[k * {b}], {b})") };
        let value_type = if c.is_float() { "double" } else { "long long" };
        let _ = write!(
            out,
            r#"  {{ // {n}
    const {t} *y = reinterpret_cast<const {t} *>(&{n});
    raw.assign({size}, 0);
    for (std::size_t k = 0; k < {count}; ++k)
      {encode}
    if (!write_file("data/{n}.bin", raw))
      return kBadData;
    if (read_file("data/ref{j}.bin", raw)) {{
      if (!has_size("data/ref{j}.bin", raw, {size}, "{desc}"))
        return kBadData;
      compared = true;
      std::size_t bad = 0;
      for (std::size_t k = 0; k < {count}; ++k) {{
        const {vt} got = {got};
        const {vt} want = {want};
        if ({differs}) {{
          if (bad < kShown) {{
            std::printf("{n}");
            print_index(k, {n}_shape, {rank});
            std::printf(" (flat %zu): got {fmt}, expected {fmt}\n", k, got, want);
          }}
          ++bad;
        }}
      }}
      std::printf("{n}: %zu mismatches of {count}\n", bad);
      failed = failed || bad != 0;
    }} else {{
      std::printf("{n}: written to data/{n}.bin, not compared (no data/ref{j}.bin)\n");
    }}
  }}
"#,
            t = c.cpp,
            size = count * u64::from(b),
            encode = c.encode(&format!("&raw[k * {b}]"), "y[k]"),
            desc = a.describe(),
            vt = value_type,
            rank = a.shape.len(),
        );
    }
    out.push_str(
        "  if (!compared) {\n    std::printf(\"nothing compared: no data/ref<j>.bin\\n\");\n    return 0;\n  }\n  std::printf(\"%s\\n\", failed ? \"FAIL\" : \"PASS\");\n  return failed ? kFail : 0;\n}\n",
    );
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codecs() {
        assert_eq!(Codec::of("i8"), Ok(Codec { cpp: "int8_t".into(), bytes: 1, kind: Kind::Int(8) }));
        assert_eq!(Codec::of("i12").map(|c| (c.bytes, c.kind)), Ok((2, Kind::Ap(12))));
        assert_eq!(Codec::of("i24").map(|c| c.bytes), Ok(4));
        assert_eq!(Codec::of("i33").map(|c| c.bytes), Ok(8));
        assert_eq!(Codec::of("i1").map(|c| (c.bytes, c.kind)), Ok((1, Kind::Bool)));
        assert_eq!(Codec::of("f32").map(|c| c.bytes), Ok(4));
        assert!(Codec::of("i65").is_err());
        assert!(Codec::of("index").is_err());
    }

    #[test]
    fn renders_ports() {
        let top = Top {
            name: "k".into(),
            args: vec![
                ArrayArg { shape: vec![2, 3], elem: "i8".into() },
                ArrayArg { shape: vec![4], elem: "f32".into() },
            ],
            num_inputs: 1,
        };
        let tb = render(&top, "k.h").expect("renders");
        assert!(tb.contains("#include \"k.h\""));
        assert!(tb.contains("static int8_t in0[2][3];"));
        assert!(tb.contains("static float out0[4];"));
        assert!(tb.contains("static const std::size_t out0_shape[] = {4};"));
        assert!(tb.contains("if (!has_size(\"data/in0.bin\", raw, 6, \"2x3xi8\"))"));
        assert!(tb.contains("x[k] = static_cast<int8_t>(random_int(8));"));
        assert!(tb.contains("  k(in0, out0);"));
        assert!(tb.contains("if (!close_enough(got, want))"));
        assert!(tb.contains("read_file(\"data/ref0.bin\", raw)"));
    }
}
