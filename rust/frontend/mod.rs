//! The front end: whatever INPUT is (an ONNX model, MLIR in the torch
//! dialect, TOSA, or linalg on tensors), bring it to linalg on tensors, the
//! form `--hls`, `--dse` and `--simulate` start from.
//!
//! | input | how it is recognised | what runs |
//! |---|---|---|
//! | TFLite model | `.tflite` extension, or the `TFL3` identifier | `prepare_onnx.py` (tf2onnx), then as ONNX |
//! | ONNX model | `.onnx` extension, or protobuf bytes that are not MLIR | `prepare_onnx.py` (opset, shapes), `iree-import-onnx`, then `iree-opt` (torch pipelines) |
//! | torch dialect | `.mlir` whose ops or types are `torch.*` | `iree-opt` (torch pipelines) |
//! | TOSA | `.mlir` with `tosa.*` ops | `tosa-to-linalg-pipeline`, in process |
//! | linalg, dfg, emitHLS | anything else | nothing |
//!
//! `prepare_onnx.py` (next to this file, run with the front end's Python)
//! converts TFLite with tf2onnx, upgrades opsets before 17 with onnx's version
//! converter and fixes symbolic dimensions (batch 1, or `--input-shape`).
//! The torch pipelines are those of IREE's own ONNX flow:
//! `torch-onnx-to-torch-backend-pipeline,torch-backend-to-linalg-on-tensors-backend-pipeline`.
//! The external tools are found by `tools::find` (MING_PYTHON_TOOLS, the
//! checkout's `.venv`, PATH). Imports are written to a scratch directory that
//! is removed when the flow succeeds or refuses the design for its resources,
//! and kept (and named) when it fails on the IR.
//!
//! Rewrites of the imported linalg belong in `Imported::rewrites`: in-process
//! pipelines run on the linalg module before stage A. Every ONNX or torch
//! import gets `ming-quantize-integer` (QUANTIZE_INTEGER): int8 QDQ models
//! (QuantizeLinear/DequantizeLinear around float ops, as onnxruntime's
//! quantize_static writes them) become integer hardware; float models have no
//! quantize ops and are left alone. TFLite models get it with TFLite's
//! rounding of averages (QUANTIZE_INTEGER_TFLITE), their reference's.
pub mod tools;

use std::fmt;
use std::path::{Path, PathBuf};
use std::process::Command;

/// What kind of input a file is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    Tflite,
    Onnx,
    Torch,
    Tosa,
    /// linalg on tensors, or already dfg / emitHLS: the flow's own levels.
    Mlir,
}

impl Kind {
    pub fn describe(self) -> &'static str {
        match self {
            Kind::Tflite => "a TensorFlow Lite model",
            Kind::Onnx => "an ONNX model",
            Kind::Torch => "MLIR in the torch dialect",
            Kind::Tosa => "MLIR in the TOSA dialect",
            Kind::Mlir => "MLIR",
        }
    }
}

/// The upstream pipeline that brings TOSA to linalg on tensors (tosa.const
/// is left for tosa-to-arith).
pub const TOSA_TO_LINALG: &str = "builtin.module(tosa-to-linalg-pipeline,func.func(tosa-to-arith))";

/// The pipelines iree-opt runs on torch-dialect MLIR (ONNX ops included).
pub const TORCH_TO_LINALG: &str =
    "builtin.module(torch-onnx-to-torch-backend-pipeline,torch-backend-to-linalg-on-tensors-backend-pipeline)";

/// QDQ fake-quant float arithmetic -> integer linalg (a no-op on float
/// models), run on every ONNX and torch import.
pub const QUANTIZE_INTEGER: &str = "builtin.module(func.func(ming-quantize-integer))";

/// The same for TFLite models: averages round as TFLite's integer kernel
/// does (raw sum / count, half away from zero), not as onnxruntime.
pub const QUANTIZE_INTEGER_TFLITE: &str = "builtin.module(func.func(ming-quantize-integer{rounding=tflite}))";

/// The model preparation scripts, run with the front end's Python from one
/// directory (prepare_onnx.py imports the others).
const PREPARE_SCRIPTS: [(&str, &str); 8] = [
    ("prepare_onnx.py", include_str!("prepare_onnx.py")),
    ("onnx_groups.py", include_str!("onnx_groups.py")),
    ("onnx_util.py", include_str!("onnx_util.py")),
    ("onnx_ops.py", include_str!("onnx_ops.py")),
    ("onnx_fold.py", include_str!("onnx_fold.py")),
    ("onnx_windows.py", include_str!("onnx_windows.py")),
    ("onnx_resize.py", include_str!("onnx_resize.py")),
    ("onnx_transposed.py", include_str!("onnx_transposed.py")),
];

/// What the user says about the model beyond its path.
#[derive(Debug, Clone, Default)]
pub struct ImportOptions {
    /// `--input-shape NAME=D0xD1x...`: shapes for inputs with symbolic
    /// dimensions (as written: checked by the preparation script).
    pub input_shapes: Vec<String>,
}

#[derive(Debug)]
pub enum FrontendError {
    /// An external tool is neither in MING_PYTHON_TOOLS, the venv nor on PATH.
    MissingTool(tools::Missing),
    /// The input cannot be read.
    Input(String),
    /// The model is refused before import (unreadable, an opset or shape we
    /// cannot use, a missing Python package): the reason.
    Model { input: String, message: String },
    /// An importer ran and failed: its stderr, summarised.
    Import { tool: String, input: String, status: String, stderr: String, kept: Option<PathBuf> },
}

impl fmt::Display for FrontendError {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        match self {
            FrontendError::MissingTool(m) => write!(f, "{m}"),
            FrontendError::Input(m) => f.write_str(m),
            FrontendError::Model { input, message } => write!(f, "{input}: {message}"),
            FrontendError::Import { tool, input, status, stderr, kept } => {
                write!(f, "'{tool}' failed on '{input}' ({status})")?;
                let summary = summarise(stderr);
                if !summary.is_empty() {
                    write!(f, ":\n{summary}")?;
                }
                if let Some(dir) = kept {
                    write!(f, "\n(the import so far is kept in {})", dir.display())?;
                }
                Ok(())
            }
        }
    }
}

impl std::error::Error for FrontendError {}

/// The last lines of an importer's stderr that say something (Python
/// tracebacks end with the exception; MLIR prints `error:` lines).
pub fn summarise(stderr: &str) -> String {
    const LINES: usize = 12;
    let lines: Vec<&str> = stderr.lines().filter(|l| !l.trim().is_empty()).collect();
    let errors: Vec<&str> = lines.iter().copied().filter(|l| l.contains("error:") || l.contains("Error")).collect();
    let chosen = if errors.is_empty() { &lines[..] } else { &errors[..] };
    let start = chosen.len().saturating_sub(LINES);
    let mut out: Vec<String> = chosen[start..].iter().map(|l| format!("  {}", truncate(l, 400))).collect();
    if start > 0 {
        out.insert(0, format!("  ... ({start} lines before)"));
    }
    out.join("\n")
}

fn truncate(s: &str, n: usize) -> String {
    if s.chars().count() <= n {
        s.to_string()
    } else {
        format!("{}...", s.chars().take(n).collect::<String>())
    }
}

/// The kind of `path` from its name and content. `-` (stdin) is MLIR.
pub fn detect(path: &str) -> Result<Kind, FrontendError> {
    if path == "-" {
        return Ok(Kind::Mlir);
    }
    let bytes = std::fs::read(path).map_err(|e| FrontendError::Input(format!("cannot open '{path}': {e}")))?;
    Ok(detect_bytes(Path::new(path), &bytes))
}

/// MLIR bytecode starts with these bytes.
const MLIR_BYTECODE_MAGIC: &[u8] = b"ML\xefR";

pub fn detect_bytes(path: &Path, bytes: &[u8]) -> Kind {
    let ext = path.extension().and_then(|e| e.to_str()).map(str::to_ascii_lowercase);
    if ext.as_deref() == Some("onnx") {
        return Kind::Onnx;
    }
    // A TFLite flatbuffer carries its file identifier at bytes 4..8.
    if ext.as_deref() == Some("tflite") || bytes.get(4..8) == Some(b"TFL3".as_slice()) {
        return Kind::Tflite;
    }
    if bytes.starts_with(MLIR_BYTECODE_MAGIC) {
        return Kind::Mlir;
    }
    let Ok(text) = std::str::from_utf8(bytes) else {
        // A ModelProto starts with field 1 (ir_version, varint): byte 0x08.
        return if bytes.first() == Some(&0x08) { Kind::Onnx } else { Kind::Mlir };
    };
    mlir_dialect(text)
}

/// The dialect that decides how MLIR text is lowered: torch ops or types
/// (`torch.operator`, `torch.aten.*`, `!torch.vtensor`) win over TOSA ops
/// (`tosa.conv2d`), anything else is the flow's own. Comments are skipped.
pub fn mlir_dialect(text: &str) -> Kind {
    let mut tosa = false;
    for line in text.lines() {
        let code = line.split("//").next().unwrap_or("");
        if has_word_prefix(code, "torch.") {
            return Kind::Torch;
        }
        tosa = tosa || has_word_prefix(code, "tosa.");
    }
    if tosa {
        Kind::Tosa
    } else {
        Kind::Mlir
    }
}

/// Whether `prefix` occurs in `code` at the start of a name (not inside a
/// longer identifier, string or attribute name such as `ming.tosa.x`).
fn has_word_prefix(code: &str, prefix: &str) -> bool {
    let bytes = code.as_bytes();
    let mut from = 0;
    while let Some(i) = code[from..].find(prefix) {
        let at = from + i;
        let before = if at == 0 { b' ' } else { bytes[at - 1] };
        let inside_name = before.is_ascii_alphanumeric() || matches!(before, b'_' | b'.' | b'$' | b'"');
        if !inside_name {
            return true;
        }
        from = at + prefix.len();
    }
    false
}

/// The input of the flow after the front end.
#[derive(Debug)]
pub struct Imported {
    pub kind: Kind,
    /// The file the flow parses: the input itself, or the import's linalg.
    pub path: String,
    /// In-process pipelines to run on the parsed module before stage A
    /// (TOSA -> linalg; QDQ -> integer for ONNX and torch imports).
    pub rewrites: Vec<&'static str>,
    /// The scratch directory of an import, removed by `finish`.
    scratch: Option<PathBuf>,
}

impl Imported {
    /// Removes the scratch directory when nothing needs it (`needed` false:
    /// after success, or after a refusal that names no IR); otherwise keeps
    /// it and returns the note that says where, so the imported linalg named
    /// in diagnostics can be read (the caller prints it after them).
    #[must_use]
    pub fn finish(&self, needed: bool) -> Option<String> {
        let dir = self.scratch.as_ref()?;
        if !needed && std::env::var_os("MING_KEEP_IMPORT").is_none() {
            let _ = std::fs::remove_dir_all(dir);
            None
        } else {
            Some(format!("the linalg imported from the {} is kept in {}", self.kind.describe_short(), self.path))
        }
    }
}

impl Kind {
    fn describe_short(self) -> &'static str {
        match self {
            Kind::Tflite => "TFLite model",
            Kind::Onnx => "ONNX model",
            Kind::Torch => "torch MLIR",
            Kind::Tosa => "TOSA MLIR",
            Kind::Mlir => "MLIR",
        }
    }
}

/// Brings `input` to a form the flow parses: runs the importers for ONNX
/// and torch input (into a scratch directory), schedules tosa-to-linalg for
/// TOSA, passes everything else through.
pub fn import(input: &str, options: &ImportOptions) -> Result<Imported, FrontendError> {
    let kind = detect(input)?;
    log::info!("input '{input}' is {}", kind.describe());
    match kind {
        Kind::Mlir => Ok(Imported { kind, path: input.to_string(), rewrites: Vec::new(), scratch: None }),
        Kind::Tosa => Ok(Imported { kind, path: input.to_string(), rewrites: vec![TOSA_TO_LINALG], scratch: None }),
        Kind::Onnx | Kind::Tflite | Kind::Torch => {
            // Every tool is looked up before anything runs.
            let model = kind != Kind::Torch;
            let import_onnx = if model { Some(tools::find("iree-import-onnx").map_err(FrontendError::MissingTool)?) } else { None };
            let iree_opt = tools::find("iree-opt").map_err(FrontendError::MissingTool)?;
            let python = if model { Some(tools::find("python").map_err(FrontendError::MissingTool)?) } else { None };
            let scratch = scratch_dir().map_err(|e| FrontendError::Input(format!("cannot create a scratch directory: {e}")))?;
            let stem = Path::new(input).file_stem().and_then(|s| s.to_str()).unwrap_or("model").to_string();
            let result = (|| {
                let torch = match (&python, &import_onnx) {
                    (Some(python), Some(tool)) => {
                        let onnx = prepare(python, input, kind, options, &scratch, &stem)?;
                        let out = scratch.join(format!("{stem}.torch.mlir"));
                        run_tool(tool, &[onnx.as_os_str(), "-o".as_ref(), out.as_os_str()], input, &scratch)?;
                        out
                    }
                    _ => PathBuf::from(input),
                };
                let linalg = scratch.join(format!("{stem}.linalg.mlir"));
                let pipeline = format!("--pass-pipeline={TORCH_TO_LINALG}");
                run_tool(&iree_opt, &[torch.as_os_str(), pipeline.as_ref(), "-o".as_ref(), linalg.as_os_str()], input, &scratch)?;
                Ok(linalg)
            })();
            match result {
                Ok(linalg) => Ok(Imported {
                    kind,
                    path: linalg.to_string_lossy().into_owned(),
                    rewrites: vec![if kind == Kind::Tflite { QUANTIZE_INTEGER_TFLITE } else { QUANTIZE_INTEGER }],
                    scratch: Some(scratch),
                }),
                Err(mut e) => {
                    // Nothing useful written (the first tool failed, or
                    // left an empty output): nothing to keep.
                    let empty = std::fs::read_dir(&scratch)
                        .map(|d| d.flatten().all(|e| e.metadata().map(|m| m.len() == 0).unwrap_or(true)))
                        .unwrap_or(true);
                    if empty {
                        let _ = std::fs::remove_dir_all(&scratch);
                        if let FrontendError::Import { kept, .. } = &mut e {
                            *kept = None;
                        }
                    }
                    Err(e)
                }
            }
        }
    }
}

/// Runs `prepare_onnx.py` on the model: TFLite -> ONNX, opset upgrade,
/// symbolic dimensions fixed. Its remarks and warnings are the user's, located
/// at the model; its errors become the import's error.
fn prepare(python: &Path, input: &str, kind: Kind, options: &ImportOptions, scratch: &Path, stem: &str) -> Result<PathBuf, FrontendError> {
    for (name, text) in PREPARE_SCRIPTS {
        let path = scratch.join(name);
        std::fs::write(&path, text).map_err(|e| FrontendError::Input(format!("cannot write {}: {e}", path.display())))?;
    }
    let script = scratch.join("prepare_onnx.py");
    let out = scratch.join(format!("{stem}.prepared.onnx"));
    let mut args: Vec<std::ffi::OsString> = vec![script.clone().into(), input.into(), out.clone().into()];
    for shape in &options.input_shapes {
        args.push("--shape".into());
        args.push(shape.into());
    }
    if kind == Kind::Tflite {
        args.push("--tflite".into());
    }
    log::info!("running {} {}", python.display(), args.iter().map(|a| a.to_string_lossy()).collect::<Vec<_>>().join(" "));
    let started = std::time::Instant::now();
    let output = Command::new(python).args(&args).env("TF_CPP_MIN_LOG_LEVEL", "3").output().map_err(|e| FrontendError::Import {
        tool: "python".into(),
        input: input.to_string(),
        status: format!("cannot run {}: {e}", python.display()),
        stderr: String::new(),
        kept: None,
    })?;
    log::info!("prepare_onnx.py: {:.2} s", started.elapsed().as_secs_f64());
    let stderr = String::from_utf8_lossy(&output.stderr);
    let said: Vec<&str> = stderr
        .lines()
        .filter(|l| l.starts_with("remark: ") || l.starts_with("warning: ") || l.starts_with("error: "))
        .collect();
    if output.status.success() {
        for line in &said {
            eprintln!("{input}: {line}");
        }
        return Ok(out);
    }
    let errors: Vec<String> = said.iter().filter(|l| l.starts_with("error: ")).map(|l| l["error: ".len()..].to_string()).collect();
    if errors.is_empty() {
        return Err(FrontendError::Import {
            tool: "prepare_onnx.py".into(),
            input: input.to_string(),
            status: match output.status.code() {
                Some(c) => format!("exit status {c}"),
                None => "killed by a signal".to_string(),
            },
            stderr: stderr.into_owned(),
            kept: None,
        });
    }
    Err(FrontendError::Model { input: input.to_string(), message: errors.join("; ") })
}

/// A fresh directory under the temporary directory for one import.
fn scratch_dir() -> std::io::Result<PathBuf> {
    let base = std::env::temp_dir();
    let pid = std::process::id();
    for n in 0..1000u32 {
        let dir = base.join(format!("ming-import-{pid}-{n}"));
        match std::fs::create_dir(&dir) {
            Ok(()) => return Ok(dir),
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => continue,
            Err(e) => return Err(e),
        }
    }
    Err(std::io::Error::other("no free name for a scratch directory"))
}

/// Runs one importer; a failure carries its stderr and keeps `scratch`.
fn run_tool(tool: &Path, args: &[&std::ffi::OsStr], input: &str, scratch: &Path) -> Result<(), FrontendError> {
    let name = tool.file_name().and_then(|n| n.to_str()).unwrap_or("?").to_string();
    log::info!("running {} {}", tool.display(), args.iter().map(|a| a.to_string_lossy()).collect::<Vec<_>>().join(" "));
    let started = std::time::Instant::now();
    let output = Command::new(tool).args(args).output().map_err(|e| FrontendError::Import {
        tool: name.clone(),
        input: input.to_string(),
        status: format!("cannot run {}: {e}", tool.display()),
        stderr: String::new(),
        kept: None,
    })?;
    log::info!("{name}: {:.2} s", started.elapsed().as_secs_f64());
    if output.status.success() {
        return Ok(());
    }
    let status = match output.status.code() {
        Some(c) => format!("exit status {c}"),
        None => "killed by a signal".to_string(),
    };
    Err(FrontendError::Import {
        tool: name,
        input: input.to_string(),
        status,
        stderr: String::from_utf8_lossy(&output.stderr).into_owned(),
        kept: Some(scratch.to_path_buf()),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kinds_by_name_and_content() {
        let p = Path::new;
        assert_eq!(detect_bytes(p("m.onnx"), b""), Kind::Onnx);
        assert_eq!(detect_bytes(p("m.ONNX"), b"x"), Kind::Onnx);
        // Protobuf bytes under another name.
        assert_eq!(detect_bytes(p("model.bin"), b"\x08\x08\x12\x04\xff\xfe"), Kind::Onnx);
        assert_eq!(detect_bytes(p("m.mlirbc"), b"ML\xefR\x00"), Kind::Mlir);
        assert_eq!(detect_bytes(p("m.mlir"), b"func.func @f() { return }"), Kind::Mlir);
        assert_eq!(detect_bytes(p("m.tflite"), b""), Kind::Tflite);
        assert_eq!(detect_bytes(p("model.bin"), b"\x1c\x00\x00\x00TFL3\x00\x00"), Kind::Tflite);
    }

    #[test]
    fn dialects_of_mlir_text() {
        let torch = "func.func @f(%a: !torch.vtensor<[1],f32>) -> !torch.vtensor<[1],f32> {\n  %0 = torch.operator \"onnx.Relu\"(%a) : (!torch.vtensor<[1],f32>) -> !torch.vtensor<[1],f32>\n  return %0 : !torch.vtensor<[1],f32>\n}";
        assert_eq!(mlir_dialect(torch), Kind::Torch);
        assert_eq!(mlir_dialect("%0 = torch.aten.relu %a : !torch.vtensor<[2],f32> -> !torch.vtensor<[2],f32>"), Kind::Torch);
        assert_eq!(mlir_dialect("%0 = tosa.clamp %a {min_val = 0.0 : f32} : (tensor<2xf32>) -> tensor<2xf32>"), Kind::Tosa);
        assert_eq!(mlir_dialect("%0 = linalg.generic {} // tosa.clamp in a comment"), Kind::Mlir);
        // Names that only contain the prefix.
        assert_eq!(mlir_dialect("%0 = arith.constant {ming.tosa.x, \"torch.y\"} 1 : i8"), Kind::Mlir);
        assert_eq!(mlir_dialect("func.func @f() { %mytosa.x = arith.constant 0 : i8 }"), Kind::Mlir);
    }

    #[test]
    fn importer_errors_are_summarised() {
        let tb = "Traceback (most recent call last):\n  File \"x.py\", line 1\n\nonnx.onnx_cpp2py_export.checker.ValidationError: bad model\n";
        assert_eq!(summarise(tb), "  onnx.onnx_cpp2py_export.checker.ValidationError: bad model");
        let mlir = "m.mlir:3:5: error: failed to legalize operation 'torch.operator'\nm.mlir:3:5: note: see current operation: ...\n";
        assert_eq!(summarise(mlir), "  m.mlir:3:5: error: failed to legalize operation 'torch.operator'");
        let many: String = (0..20).map(|i| format!("line {i}\n")).collect();
        let s = summarise(&many);
        assert!(s.starts_with("  ... (8 lines before)\n  line 8"), "{s}");
    }
}
