//! ming-opt: mlir-opt with ming's dialects and passes (see cli.rs).

/// Exit status of an internal error (a panic here, a crash in the C++ passes:
/// cpp/Support/CrashReport.cpp); rejected input exits with 1.
const INTERNAL_ERROR: i32 = 70;

fn main() {
    ming::bridge::ffi::install_crash_handler();
    // The ming-dse pass solves its ILP with rust/dse.
    ming::bridge::ffi::register_dse_solver();
    let args = std::env::args_os().map(|a| a.to_string_lossy().into_owned()).collect();
    // The default hook has printed the panic's message and place.
    let status = std::panic::catch_unwind(|| ming::cli::run(args)).unwrap_or_else(|_| {
        eprintln!(
            "ming-opt: internal error: ming-opt panicked; this is a bug in ming, not in the input; \
             please report it with the input and the command line (exit status {INTERNAL_ERROR})"
        );
        INTERNAL_ERROR
    });
    std::process::exit(status);
}
