//! MLIR contexts for the Rust side (melior), sharing the process's one
//! libMLIR.so with libMingPasses.so.
use crate::bridge::ffi;
use melior::{
    diagnostic::{Diagnostic, DiagnosticSeverity},
    ir::Module,
    Context,
};

/// A context in which every upstream dialect and dfg/emitHLS are available.
pub fn context() -> Context {
    let context = Context::new();
    // The C++ side appends its registry to this very MLIRContext.
    ffi::register_in_context(context.to_raw().ptr as usize);
    context.load_all_available_dialects();
    context
}

/// Prints the context's diagnostics to stderr as mlir-opt does
/// (`file:line:col: error: message`, then its notes), instead of MLIR's
/// fallback form (`loc("file":line:col): error: ...`). The "see current
/// operation" dump of a failing pass is left out unless -vv.
pub fn print_diagnostics(context: &Context) {
    context.attach_diagnostic_handler(|d| {
        eprint!("{}", render_diagnostic(&d));
        true
    });
}

fn render_diagnostic(d: &Diagnostic) -> String {
    let severity = match d.severity() {
        DiagnosticSeverity::Error => "error",
        DiagnosticSeverity::Warning => "warning",
        DiagnosticSeverity::Note => "note",
        DiagnosticSeverity::Remark => "remark",
    };
    let location = crate::ir::types::format_location(&d.location().to_string());
    let mut text = if location == "loc(unknown)" {
        format!("{severity}: {d}\n")
    } else {
        format!("{location}: {severity}: {d}\n")
    };
    for i in 0..d.note_count() {
        if let Ok(note) = d.note(i) {
            // The whole failing op (often the module) only with -vv.
            if note.to_string().starts_with("see current operation:") && !log::log_enabled!(log::Level::Debug) {
                continue;
            }
            text.push_str(&render_diagnostic(&note));
        }
    }
    text
}

/// Parses `input` (a file, or "-" for stdin) into a module. MLIR prints the
/// located parse or verifier error itself; the Err says which input failed.
pub fn parse_input<'c>(context: &'c Context, input: &str) -> Result<Module<'c>, String> {
    let module = if input == "-" {
        let mut source = String::new();
        std::io::Read::read_to_string(&mut std::io::stdin(), &mut source).map_err(|e| format!("cannot read stdin: {e}"))?;
        check_parser_traps(&source, "<stdin>")?;
        Module::parse(context, &source)
    } else {
        std::fs::metadata(input).map_err(|e| format!("cannot open '{input}': {e}"))?;
        // Bytecode or other binary input has nothing for the text scan.
        if let Ok(source) = std::fs::read_to_string(input) {
            check_parser_traps(&source, input)?;
        }
        // Parsing from the file keeps its name in the locations.
        let name = melior::StringRef::new(input);
        let raw = unsafe { mlir_sys::mlirModuleCreateParseFromFile(context.to_raw(), name.to_raw()) };
        unsafe { Module::from_option_raw(raw) }
    };
    module.ok_or_else(|| format!("'{input}' does not parse or verify"))
}

/// Input on which MLIR's own parser would crash (cpp/Tools/ParserTraps.cpp)
/// is refused with a located error, printed here like MLIR's diagnostics.
fn check_parser_traps(source: &str, name: &str) -> Result<(), String> {
    let trap = crate::bridge::ffi::find_parser_traps(source, name);
    if trap.is_empty() {
        return Ok(());
    }
    eprint!("{trap}");
    Err(format!("'{name}' does not parse"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use melior::ir::{operation::OperationLike, Module};

    /// melior (C API in libMLIR-C.so) and our dialects (libMingPasses.so) see
    /// the same MLIR: a dfg module parses, verifies and prints back.
    #[test]
    fn dfg_parses_through_melior() {
        let context = context();
        let source = r#"
            dfg.process @src(%o: !dfg.out<i8, lanes = 2>) {
              %c0 = arith.constant 0 : index
              %v = arith.constant 7 : i8
              dfg.push %v, %o[%c0] : !dfg.out<i8, lanes = 2>
            }
            dfg.process @dst(%i: !dfg.in<i8, lanes = 2>, %m: memref<2xi8>) {
              %c1 = arith.constant 1 : index
              %v = dfg.pull %i[%c1] : !dfg.in<i8, lanes = 2>
              memref.store %v, %m[%c1] : memref<2xi8>
            }
            dfg.graph @top(%m: memref<2xi8>) {
              %w, %r = dfg.channel<i8, lanes = 2, depth = 4>
              dfg.instantiate @src(%w) : !dfg.out<i8, lanes = 2>
              dfg.instantiate @dst(%r, %m) : !dfg.in<i8, lanes = 2>, memref<2xi8>
            }"#;
        let module = Module::parse(&context, source).expect("dfg module parses");
        assert!(module.as_operation().verify());
        let text = module.as_operation().to_string();
        assert!(text.contains("dfg.channel<i8, lanes = 2, depth = 4>"), "{text}");
    }

    /// A verifier error in our dialect reaches the melior side as a failure.
    #[test]
    fn dfg_verifier_runs_through_melior() {
        let context = context();
        let source = r#"
            dfg.process @src(%o: !dfg.out<i8>) {}
            dfg.graph @top() {
              %w, %r = dfg.channel<i8, lanes = 1, depth = 2>
              dfg.instantiate @src(%w) : !dfg.out<i8>
            }"#;
        assert!(Module::parse(&context, source).is_none(), "a channel without consumer must not verify");
    }
}
