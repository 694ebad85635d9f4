//! The cxx bridge to libMingPasses.so (C++ side: cpp/Bridge/Bridge.cpp).

use crate::dse::solve_dse;

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

    /// The cost-model figures of one configuration of a process instance
    /// (ming/DSE/Session.h): what the ILP chooses from. The configuration
    /// itself stays in the C++ session; the ILP answers with indices.
    #[derive(Clone, Debug, Default)]
    struct DseCandidate {
        cycles: i64,
        fill: i64,
        /// Cycles before the first pull and after the last.
        pre: i64,
        tail: i64,
        dsp: i64,
        bram18k: i64,
        /// UltraRAMs (URAM288) of its buffers.
        uram: i64,
        lanes_in: Vec<i64>,
        lanes_out: Vec<i64>,
        /// Per stream input port (as `lanes_in`): cycles after its last
        /// pull; `tail` for a port the list does not name.
        tail_in: Vec<i64>,
        /// Per stream input port (as `lanes_in`): cycles before its first
        /// pull; `pre` for a port the list does not name.
        pre_in: Vec<i64>,
        /// Per stream output port (as `lanes_out`): cycles from the end of
        /// its last pushing pipeline to the process's end; 0 for a port the
        /// list does not name.
        trail_out: Vec<i64>,
        /// What each stream output pushes after the last pull of each stream
        /// input, one entry per (output, input) in the same order for every
        /// candidate of a node: the output (as `lanes_out`), the elements,
        /// the cycles from the first of them to the end.
        burst_out: Vec<i64>,
        burst_elements: Vec<i64>,
        burst_lead: Vec<i64>,
        /// Per stream input port (as `lanes_in`): cycles per element pulled.
        pull_cycles: Vec<f64>,
        /// Per stream input port (as `lanes_in`): the elements pulled before
        /// the first output, the time the last of them is pulled, the
        /// elements pulled in all.
        fill_elements: Vec<i64>,
        fill_time: Vec<i64>,
        in_elements: Vec<i64>,
    }

    /// A dfg.instantiate and its candidates.
    #[derive(Clone, Debug)]
    struct DseNode {
        process: String,
        kind: String,
        candidates: Vec<DseCandidate>,
    }

    /// A channel between the stream ports of two instances.
    #[derive(Clone, Debug)]
    struct DseEdge {
        from: u32,
        from_port: u32,
        to: u32,
        to_port: u32,
        channel: String,
    }

    /// What the ILP chooses from.
    #[derive(Clone, Debug)]
    struct DseProblem {
        graph: String,
        nodes: Vec<DseNode>,
        edges: Vec<DseEdge>,
        fifo_bram18k: i64,
        seconds: f64,
        reused: u32,
        /// Configurations estimated per process (fewer in a large graph).
        candidate_limit: u32,
        /// A graph of more processes than the C++ side's kLargeGraph
        /// (ming/DSE/Session.h): its DSE runs to a budget.
        large: bool,
    }

    struct DseNodeEstimate {
        process: String,
        cycles: i64,
        first_output: i64,
        /// The graph latency's first output and finish of the instance.
        first_out_at: i64,
        finish_at: i64,
        dsp: i64,
        bram18k: i64,
        uram: i64,
        ii: i64,
        unroll_loops: Vec<String>,
        unroll_factors: Vec<i64>,
    }

    struct DseChannelEstimate {
        name: String,
        lanes: i64,
        depth: i64,
        bram18k: i64,
    }

    /// The cost model's figures of a graph, for report.json.
    struct DseEstimate {
        error: String,
        dataflow: i64,
        sum: i64,
        dsp: i64,
        bram18k: i64,
        fifo_bram18k: i64,
        uram: i64,
        nodes: Vec<DseNodeEstimate>,
        channels: Vec<DseChannelEstimate>,
        baseline_cycles: i64,
        baseline_dsp: i64,
        baseline_bram18k: i64,
    }

    /// What the ming-dse pass asks of the solver.
    struct DseRequest {
        dsp: i64,
        bram18k: i64,
        uram: i64,
        objective: String,
        /// Seconds per solve; 0: until proven optimal.
        time_limit: f64,
        /// LP iterations per solve (a limit the same on every machine); 0: none.
        lp_iterations: i64,
    }

    /// The solver's answer: a candidate index per node, or why none.
    struct DseSolution {
        error: String,
        choice: Vec<usize>,
        status: String,
        /// The objective's value (cycles) and the solver's seconds.
        objective: f64,
        seconds: f64,
    }

    /// A loop's #ming.loop directives and #ming.loop_estimate, as figures.
    #[derive(Clone, Debug, Default, PartialEq, Eq)]
    struct LoopDirectives {
        /// Pipeline II (0: not pipelined).
        ii: i64,
        /// Unroll factor (1: none, 0: fully).
        unroll: i64,
        estimated: bool,
        estimated_ii: i64,
        estimated_depth: i64,
        flattened: bool,
    }

    /// What a session's explore did: the applied choice and its figures, or
    /// why nothing was applied (`error`).
    struct DseExplored {
        error: String,
        choice: Vec<usize>,
        status: String,
        objective: f64,
        /// Seconds of every solve together.
        ilp_seconds: f64,
        /// Solves: more than 1 when the FIFOs a choice deepens pushed it over a limit.
        rounds: i32,
        estimate: DseEstimate,
    }

    extern "Rust" {
        /// The HiGHS ILP (rust/dse), as the ming-dse pass calls it.
        fn solve_dse(problem: &DseProblem, request: &DseRequest) -> DseSolution;
    }

    unsafe extern "C++" {
        include!("ming/Bridge.h");

        /// Runs MLIR's mlir-opt flow; returns the exit status.
        fn opt_main(request: &OptRequest) -> i32;
        /// Whether `name` is a registered pass or pass pipeline.
        fn is_pass_name(name: &str) -> bool;
        /// Prints the pass section of --help to stdout.
        fn print_pass_help();
        /// "" when `text` (the input `name`) is safe for MLIR's parser, else
        /// the located error for a construct that crashes it (cpp/Tools/ParserTraps.cpp).
        fn find_parser_traps(text: &str, name: &str) -> String;
        /// Registers every dialect (upstream and ming's) in an MLIRContext*
        /// given as an address, e.g. a melior Context's.
        fn register_in_context(context: usize);
        /// Crashes (signals, assertions) print the pass and operation being
        /// worked on and exit with status 70 (cpp/Support/CrashReport.cpp).
        fn install_crash_handler();
        /// Records the passes an MlirPassManager (given by its pointer) runs,
        /// for that report.
        fn instrument_pass_manager(pass_manager: usize);
        /// The DSE session of a C++ ming::dse::Session.
        type DseSession;
        /// Opens the DSE of the dfg.graph of a builtin.module given as the
        /// address of its mlir::Operation (MlirOperation's pointer); the IR
        /// must not change while the session lives, except through dse_apply.
        /// `target`: a JSON target description for the cost model, "" for the
        /// built-in one; `axi_bits`: the board's m_axi port width (0: the target's).
        /// `pack_int8`: also offer processes with int8 multiplies packed two per DSP.
        fn dse_open(
            module: usize,
            max_lanes: i64,
            pack_int8: bool,
            target: &str,
            axi_bits: i64,
            dsp_limit: i64,
        ) -> Result<UniquePtr<DseSession>>;
        /// The candidates' figures, per node in the graph's body order.
        fn dse_problem(session: &DseSession) -> DseProblem;
        /// Candidate `index` of node `node` in words, for logs.
        fn dse_describe(session: &DseSession, node: u32, index: u32) -> String;
        /// Writes candidate choice[i] of every node i into the module.
        fn dse_apply(session: Pin<&mut DseSession>, choice: &[usize], status: &str, objective: &str) -> DseEstimate;
        /// Solves with the registered solver (solve_dse), checks the choice's
        /// true figures on a copy, solves again while its FIFOs push it over
        /// a limit, and applies it.
        fn dse_explore(session: Pin<&mut DseSession>, request: &DseRequest) -> DseExplored;
        /// The estimate of the module's graph with the IR's own directives.
        fn dse_estimate(module: usize, target: &str, axi_bits: i64) -> DseEstimate;
        /// The cost model's built-in target description (JSON).
        fn builtin_target() -> String;
        /// Why the target description at `path` cannot be used ("" when it can).
        fn check_target(path: &str) -> String;
        /// The directives of an scf.for given as the address of its mlir::Operation.
        fn loop_directives(op: usize) -> LoopDirectives;
        /// Makes solve_dse the solver of every ming-dse pass in this process.
        fn register_dse_solver();
    }
}
