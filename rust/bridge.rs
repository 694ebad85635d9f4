//! The cxx bridge to libMingPasses.so (C++ side: cpp/Bridge/Bridge.cpp).

#[cxx::bridge(namespace = "ming::bridge")]
pub mod ffi {
    /// `--<name>[=<options>]` on the command line.
    struct PassFlag {
        name: String,
        options: String,
    }

    /// Everything the mlir-opt mode needs, parsed by clap (see cli.rs).
    struct OptRequest {
        input: String,
        output: String,
        pass_pipeline: String,
        passes: Vec<PassFlag>,
        split_input_file: String,
        output_split_marker: String,
        verify_diagnostics: String,
        allow_unregistered_dialect: bool,
        verify_each: bool,
        emit_bytecode: bool,
        show_dialects: bool,
        dump_pass_pipeline: bool,
        no_implicit_module: bool,
        mlir_flags: Vec<String>,
    }

    unsafe extern "C++" {
        include!("ming/Bridge.h");

        /// Runs MLIR's mlir-opt flow; returns the exit status.
        fn opt_main(request: &OptRequest) -> i32;
        /// Whether `name` is a registered pass or pass pipeline.
        fn is_pass_name(name: &str) -> bool;
        /// Prints the pass section of --help to stdout.
        fn print_pass_help();
        /// Registers every dialect (upstream and ming's) in an MLIRContext*
        /// given as an address, e.g. a melior Context's.
        fn register_in_context(context: usize);
    }
}
