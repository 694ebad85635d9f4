//! ming-opt: mlir-opt with ming's dialects and passes (see cli.rs).
fn main() {
    let args = std::env::args_os().map(|a| a.to_string_lossy().into_owned()).collect();
    std::process::exit(ming::cli::run(args));
}
