//! ming-opt's command line. clap parses the tool's own options; pass flags
//! (`--<pass-name>[=<options>]`, any registered upstream or ming pass) are
//! taken out first, in order, and checked against MLIR's pass registry.
//! Like mlir-opt, single-dash long options (`-split-input-file`) work too.
use crate::bridge::ffi;
use clap::{ArgAction, CommandFactory, Parser};

#[derive(Parser, Debug)]
#[command(
    name = "ming-opt",
    version,
    about = "ming's optimizer driver: mlir-opt with the dfg and emitHLS dialects and ming's passes",
    after_help = "Pass flags: --<pass-name>[=\"<option>=<value> ...\"], in the order given; see the pass list below.",
    disable_help_flag = true
)]
pub struct Cli {
    /// Input file: MLIR (linalg, torch, TOSA, dfg, emitHLS) or an ONNX model; "-" for stdin (MLIR).
    #[arg(default_value = "-")]
    pub input: String,

    /// Output file, "-" for stdout.
    #[arg(short = 'o', default_value = "-", value_name = "FILE")]
    pub output: String,

    /// A textual pass pipeline, e.g. 'builtin.module(canonicalize)'.
    #[arg(long = "pass-pipeline", value_name = "PIPELINE")]
    pub pass_pipeline: Option<String>,

    /// Split the input at the marker (default "// -----") and process each chunk alone.
    #[arg(long = "split-input-file", num_args = 0..=1, require_equals = true,
          default_missing_value = "// -----", value_name = "MARKER")]
    pub split_input_file: Option<String>,

    /// Join split outputs with this marker.
    #[arg(long = "output-split-marker", num_args = 0..=1, require_equals = true,
          default_missing_value = "// -----", value_name = "MARKER")]
    pub output_split_marker: Option<String>,

    /// Check diagnostics against expected-* comments in the input.
    #[arg(long = "verify-diagnostics", num_args = 0..=1, require_equals = true,
          default_missing_value = "all", value_parser = ["all", "only-expected"])]
    pub verify_diagnostics: Option<String>,

    /// Allow operations of unregistered dialects.
    #[arg(long = "allow-unregistered-dialect")]
    pub allow_unregistered_dialect: bool,

    /// Run the verifier after each pass.
    #[arg(long = "verify-each", num_args = 0..=1, require_equals = true,
          default_value = "true", default_missing_value = "true", action = ArgAction::Set)]
    pub verify_each: bool,

    /// Emit bytecode instead of text.
    #[arg(long = "emit-bytecode")]
    pub emit_bytecode: bool,

    /// Print the registered dialects and exit.
    #[arg(long = "show-dialects")]
    pub show_dialects: bool,

    /// Print the pass pipeline before running it.
    #[arg(long = "dump-pass-pipeline")]
    pub dump_pass_pipeline: bool,

    /// Do not wrap the input in an implicit builtin.module.
    #[arg(long = "no-implicit-module")]
    pub no_implicit_module: bool,

    /// Print the IR before every pass.
    #[arg(long = "mlir-print-ir-before-all")]
    pub print_ir_before_all: bool,

    /// Print the IR after every pass.
    #[arg(long = "mlir-print-ir-after-all")]
    pub print_ir_after_all: bool,

    /// Print the IR after a pass only when it changed.
    #[arg(long = "mlir-print-ir-after-change")]
    pub print_ir_after_change: bool,

    /// Print the IR after a pass that failed.
    #[arg(long = "mlir-print-ir-after-failure")]
    pub print_ir_after_failure: bool,

    /// Print the whole module, not only the pass's operation, when printing IR.
    #[arg(long = "mlir-print-ir-module-scope")]
    pub print_ir_module_scope: bool,

    /// Print operations in the generic form.
    #[arg(long = "mlir-print-op-generic")]
    pub print_op_generic: bool,

    /// Print locations.
    #[arg(long = "mlir-print-debuginfo")]
    pub print_debuginfo: bool,

    /// Print with local scope (no module-level aliases).
    #[arg(long = "mlir-print-local-scope")]
    pub print_local_scope: bool,

    /// Elide element attributes with more elements than this.
    #[arg(long = "mlir-elide-elementsattrs-if-larger", require_equals = true, value_name = "N")]
    pub elide_elements_if_larger: Option<u64>,

    /// Attach the operation to every diagnostic as a note (default true).
    #[arg(long = "mlir-print-op-on-diagnostic", num_args = 0..=1, require_equals = true,
          default_value = "true", default_missing_value = "true", action = ArgAction::Set)]
    pub print_op_on_diagnostic: bool,

    /// Run MLIR single-threaded.
    #[arg(long = "mlir-disable-threading")]
    pub disable_threading: bool,

    /// Report the time of every pass.
    #[arg(long = "mlir-timing")]
    pub timing: bool,

    /// Translate the emitHLS input to Vitis HLS C++ (no passes run).
    #[arg(long = "emit-hls-cpp")]
    pub emit_hls_cpp: bool,

    /// Compile INPUT (an ONNX model, torch/TOSA/linalg MLIR, dfg or emitHLS) into a Vitis HLS project in OUTDIR.
    #[arg(long = "hls", value_name = "OUTDIR")]
    pub hls: Option<String>,

    /// Target board of --hls (its part and resource limits).
    #[arg(long = "board", value_name = "BOARD", value_parser = clap::builder::PossibleValuesParser::new(crate::board::NAMES.iter().copied()))]
    pub board: Option<String>,

    /// DSP limit for --hls instead of the board's.
    #[arg(long = "dsp", value_name = "N")]
    pub dsp: Option<u32>,

    /// BRAM18K limit for --hls instead of the board's.
    #[arg(long = "bram", value_name = "N")]
    pub bram: Option<u32>,

    /// UltraRAM (URAM288) limit for --hls instead of the board's.
    #[arg(long = "uram", value_name = "N")]
    pub uram: Option<u32>,

    /// Clock of --hls in MHz (default 200).
    #[arg(long = "clock-mhz", value_name = "F")]
    pub clock_mhz: Option<f64>,

    /// The cost model's target description: a JSON file of operator
    /// latencies and DSPs, memory latencies and storage thresholds, in the
    /// form --print-target-spec writes (default: the built-in Vitis HLS on
    /// UltraScale+ at 200 MHz). What the file names replaces the built-in value.
    #[arg(long = "target-spec", value_name = "FILE")]
    pub target_spec: Option<String>,

    /// Print the cost model's built-in target description (JSON) and exit.
    #[arg(long = "print-target-spec")]
    pub print_target_spec: bool,

    /// Run only the design-space exploration on INPUT (dfg, or linalg which is
    /// lowered first) and print the annotated dfg module to -o.
    #[arg(long = "dse")]
    pub dse: bool,

    /// Keep the input's directives: no design-space exploration in --hls.
    #[arg(long = "no-dse")]
    pub no_dse: bool,

    /// What the DSE minimises: the dataflow latency (docs/cost-model.md, graph latency) or the paper's sum of stage latencies.
    #[arg(long = "dse-objective", value_name = "OBJECTIVE", value_parser = ["dataflow", "sum"])]
    pub dse_objective: Option<String>,

    /// Seconds the ILP solver may spend per solve (default 60; 0: until proven optimal). A graph of more than 64 processes also stops after a number of LP iterations, so that its design is the same on every machine; this option replaces that limit by the seconds given. The report gives the gap left when a limit stops the solver.
    #[arg(long = "dse-time-limit", value_name = "SECONDS")]
    pub dse_time_limit: Option<f64>,

    /// Most parallel lanes the DSE gives a channel (default 64).
    #[arg(long = "dse-max-lanes", value_name = "N")]
    pub dse_max_lanes: Option<u32>,

    /// Never pack two int8 multiplies sharing an operand into one DSP (the DSE offers it by default where a loop allows it; docs/cost-model.md).
    #[arg(long = "no-int8-packing")]
    pub no_int8_packing: bool,

    /// Run the flow up to the DSE on INPUT (linalg or dfg), simulate the design
    /// cycle by cycle and print the summary (cycles, stalls, FIFO peaks and
    /// minimised depths) to -o; exit status 1 when it deadlocks.
    #[arg(long = "simulate")]
    pub simulate: bool,

    /// The function to compile when INPUT defines several (--hls, --dse, --simulate).
    #[arg(long = "top", value_name = "FUNCTION")]
    pub top: Option<String>,

    /// Keep every convolution one sliding-window process instead of a window
    /// gather and a contraction (--hls, --dse, --simulate; convert-linalg-to-dfg's gather-windows).
    #[arg(long = "no-gather-windows")]
    pub no_gather_windows: bool,

    /// Add the terms of float sums in a balanced tree where the design unrolls
    /// them, not in the model's order: fewer cycles, other rounding (--hls,
    /// --dse, --simulate; the passes ming-mark-float-sums and ming-float-trees).
    #[arg(long = "reassociate-float")]
    pub reassociate_float: bool,

    /// The shape of a model input with symbolic dimensions, e.g. input=1x3x32x32
    /// (ONNX and TFLite input; repeat for several inputs; default: batch 1).
    #[arg(long = "input-shape", value_name = "NAME=SHAPE")]
    pub input_shape: Vec<String>,

    /// Keep the DSE's FIFO depths (--hls, --simulate): no FIFO minimisation.
    #[arg(long = "no-fifo-minimize")]
    pub no_fifo_minimize: bool,

    /// No progress display on long --hls runs.
    #[arg(short = 'q', long = "quiet")]
    pub quiet: bool,

    /// More messages from the tool itself (-v info, -vv debug, -vvv trace with
    /// the ILP solver's own log).
    #[arg(short = 'v', action = ArgAction::Count)]
    pub verbose: u8,

    /// Print help, including every registered pass.
    #[arg(short = 'h', long = "help")]
    pub help: bool,
}

impl Cli {
    /// The --mlir-* flags, spelled for MLIR's own option parser.
    fn mlir_flags(&self) -> Vec<String> {
        let switches = [
            (self.print_ir_before_all, "--mlir-print-ir-before-all"),
            (self.print_ir_after_all, "--mlir-print-ir-after-all"),
            (self.print_ir_after_change, "--mlir-print-ir-after-change"),
            (self.print_ir_after_failure, "--mlir-print-ir-after-failure"),
            (self.print_ir_module_scope, "--mlir-print-ir-module-scope"),
            (self.print_op_generic, "--mlir-print-op-generic"),
            (self.print_debuginfo, "--mlir-print-debuginfo"),
            (self.print_local_scope, "--mlir-print-local-scope"),
            (self.disable_threading, "--mlir-disable-threading"),
            (self.timing, "--mlir-timing"),
        ];
        let mut flags: Vec<String> =
            switches.iter().filter(|(on, _)| *on).map(|(_, f)| f.to_string()).collect();
        if !self.print_op_on_diagnostic {
            flags.push("--mlir-print-op-on-diagnostic=false".to_string());
        }
        if let Some(n) = self.elide_elements_if_larger {
            flags.push(format!("--mlir-elide-elementsattrs-if-larger={n}"));
        }
        flags
    }
}

/// Command-line arguments split into clap's and the pass flags.
#[derive(Debug, Default, PartialEq)]
pub struct SplitArgs {
    pub tool: Vec<String>,
    pub passes: Vec<(String, String)>,
    /// `--name` flags that are neither ours nor a registered pass.
    pub unknown: Vec<String>,
}

/// Normalises mlir-opt spellings and takes out the pass flags, keeping their
/// order. `is_pass` decides which `--name` is a pass (the registry).
pub fn split_args(args: &[String], is_pass: impl Fn(&str) -> bool) -> SplitArgs {
    let own: Vec<String> = Cli::command()
        .get_arguments()
        .filter_map(|a| a.get_long().map(str::to_string))
        .collect();
    let mut split = SplitArgs::default();
    let mut rest = args.iter();
    if let Some(program) = rest.next() {
        split.tool.push(program.clone());
    }
    let mut positional_only = false;
    for arg in rest {
        if positional_only || arg == "-" || !arg.starts_with('-') {
            split.tool.push(arg.clone());
            continue;
        }
        if arg == "--" {
            positional_only = true;
            split.tool.push(arg.clone());
            continue;
        }
        // `-split-input-file` -> `--split-input-file`; `-o` and `-v` stay short.
        let long = if !arg.starts_with("--") && arg.len() > 2 && !arg.starts_with("-o") && !arg.chars().skip(1).all(|c| c == 'v') {
            format!("-{arg}")
        } else {
            arg.clone()
        };
        if let Some(body) = long.strip_prefix("--") {
            let (name, options) = match body.split_once('=') {
                Some((n, o)) => (n, o),
                None => (body, ""),
            };
            if !own.iter().any(|o| o == name) {
                if is_pass(name) {
                    split.passes.push((name.to_string(), options.to_string()));
                    continue;
                }
                split.unknown.push(format!("--{name}"));
            }
        }
        split.tool.push(long);
    }
    split
}

/// Why ming-opt failed, up to its exit status (1: rejected input or
/// options; an internal error never gets here, see main.rs).
#[derive(Debug)]
pub enum CliError {
    /// The options do not make a request.
    Usage(String),
    /// The flow (--dse, --simulate, --hls) failed.
    Flow(crate::flow::FlowError),
    /// The input of --emit-hls-cpp cannot be read or parsed.
    Unreadable(String),
    /// MLIR already printed why (mlir-opt mode, a module that does not verify).
    Reported,
}

impl From<crate::flow::FlowError> for CliError {
    fn from(e: crate::flow::FlowError) -> Self {
        CliError::Flow(e)
    }
}

impl std::fmt::Display for CliError {
    fn fmt(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        match self {
            CliError::Usage(m) | CliError::Unreadable(m) => f.write_str(m),
            CliError::Flow(e) => write!(f, "{e}"),
            CliError::Reported => f.write_str("failed (see the diagnostics above)"),
        }
    }
}

impl std::error::Error for CliError {}

/// Runs ming-opt on `args` (program name first); returns the exit status:
/// 0 on success, 1 on any failure, as mlir-opt.
pub fn run(args: Vec<String>) -> i32 {
    match dispatch(args) {
        Ok(()) => 0,
        Err(e) => {
            match &e {
                CliError::Reported => {}
                CliError::Unreadable(m) => eprintln!("ming-opt: {m}"),
                // Already in `file:line:col: error: ...` form.
                CliError::Flow(f) if f.is_located() => eprintln!("{f}"),
                _ => log::error!("{e}"),
            }
            // After the error: where the imported linalg its diagnostics name is kept.
            if let CliError::Flow(crate::flow::FlowError::Kept { note, .. }) = &e {
                eprintln!("ming-opt: note: {note}");
            }
            1
        }
    }
}

/// Parses the command line and runs what it asks for.
fn dispatch(args: Vec<String>) -> Result<(), CliError> {
    let split = split_args(&args, ffi::is_pass_name);
    if let Some(flag) = split.unknown.first() {
        eprintln!("ming-opt: unknown option or pass '{flag}' (ming-opt --help lists both)");
        return Err(CliError::Reported);
    }
    let cli = match Cli::try_parse_from(&split.tool) {
        Ok(cli) => cli,
        Err(err) => {
            let _ = err.print();
            return match err.kind() {
                clap::error::ErrorKind::DisplayVersion => Ok(()),
                _ => Err(CliError::Reported),
            };
        }
    };
    crate::logger::init(cli.verbose);

    if cli.help {
        let _ = Cli::command().print_help();
        ffi::print_pass_help();
        return Ok(());
    }
    if cli.print_target_spec {
        print!("{}", ffi::builtin_target());
        return Ok(());
    }
    if cli.pass_pipeline.is_some() && !split.passes.is_empty() {
        return Err(CliError::Usage("'--pass-pipeline' cannot be combined with individual pass flags".into()));
    }
    log::debug!("pass flags: {:?}", split.passes);
    let pass_flags = !split.passes.is_empty();
    if cli.simulate || cli.dse {
        let request = if cli.simulate { simulate_request(&cli, pass_flags)? } else { dse_request(&cli, pass_flags)? };
        return Ok(crate::flow::run(&request)?);
    }
    if cli.hls.is_some()
        || cli.board.is_some()
        || cli.dsp.is_some()
        || cli.bram.is_some()
        || cli.uram.is_some()
        || cli.clock_mhz.is_some()
        || cli.target_spec.is_some()
        || cli.no_fifo_minimize
        || cli.top.is_some()
        || cli.no_gather_windows
        || cli.reassociate_float
        || dse_flag(&cli).is_some()
    {
        let request = hls_request(&cli, pass_flags)?;
        crate::progress::start(cli.quiet);
        return Ok(crate::flow::run(&request)?);
    }
    if cli.emit_hls_cpp {
        if cli.pass_pipeline.is_some() || pass_flags {
            return Err(CliError::Usage("'--emit-hls-cpp' runs no passes; run them in a separate ming-opt call".into()));
        }
        return emit_hls_cpp(&cli);
    }
    opt_main(&cli, split.passes)
}

/// The flow's request for `stop`, the options common to every stop point.
fn flow_request(cli: &Cli, stop: crate::flow::Stop, dse: bool) -> Result<crate::flow::Request, CliError> {
    let target = target(cli)?;
    let settings = dse_settings(cli, &target)?;
    Ok(crate::flow::Request {
        input: cli.input.clone(),
        import: import_options(cli),
        top: top(cli)?,
        gather_windows: !cli.no_gather_windows,
        reassociate_float: cli.reassociate_float,
        target,
        dse: if dse { Some(settings) } else { None },
        minimize_fifos: !cli.no_fifo_minimize,
        single_thread: cli.disable_threading,
        stop,
    })
}

/// The `--hls` request, or why the flags do not make one.
fn hls_request(cli: &Cli, pass_flags: bool) -> Result<crate::flow::Request, CliError> {
    let Some(outdir) = &cli.hls else {
        let message = if let Some(flag) = dse_flag(cli) {
            format!("'{flag}' only applies with '--hls OUTDIR' or '--dse'")
        } else if cli.no_fifo_minimize {
            "'--no-fifo-minimize' only applies with '--hls OUTDIR' or '--simulate'".into()
        } else if cli.top.is_some() {
            "'--top' only applies with '--hls OUTDIR', '--dse' or '--simulate' (else: --convert-linalg-to-dfg=top=NAME)".into()
        } else if cli.no_gather_windows {
            "'--no-gather-windows' only applies with '--hls OUTDIR', '--dse' or '--simulate' (else: --convert-linalg-to-dfg=gather-windows=0)".into()
        } else if cli.reassociate_float {
            "'--reassociate-float' only applies with '--hls OUTDIR', '--dse' or '--simulate' (else: --ming-mark-float-sums, then --ming-float-trees after the DSE)".into()
        } else {
            "'--board', '--dsp', '--bram', '--uram' and '--clock-mhz' only apply with '--hls OUTDIR' or '--dse'".into()
        };
        return Err(CliError::Usage(message));
    };
    // --hls runs its own pipeline and writes a folder, not one output.
    let own = [(cli.emit_hls_cpp, "--emit-hls-cpp"), (cli.output != "-", "-o")];
    if let Some((_, flag)) = own.into_iter().chain(opt_only_flags(cli, pass_flags)).find(|(on, _)| *on) {
        return Err(CliError::Usage(format!("'--hls' cannot be combined with {flag}")));
    }
    if outdir.is_empty() {
        return Err(CliError::Usage("'--hls' needs an output directory".into()));
    }
    flow_request(cli, crate::flow::Stop::Hls { outdir: std::path::PathBuf::from(outdir) }, !cli.no_dse)
}

/// What the front end needs beyond INPUT.
pub fn import_options(cli: &Cli) -> crate::frontend::ImportOptions {
    crate::frontend::ImportOptions { input_shapes: cli.input_shape.clone() }
}

/// The --top function, checked to be a name a pass option can carry.
fn top(cli: &Cli) -> Result<Option<String>, CliError> {
    match &cli.top {
        Some(name) if !crate::pipeline::valid_top(name) => Err(CliError::Usage(format!(
            "'--top' expects a function name (letters, digits, '_', '.', '$', '-'), not '{name}'"
        ))),
        other => Ok(other.clone()),
    }
}

/// The board and limits of --board/--dsp/--bram/--clock-mhz.
fn target(cli: &Cli) -> Result<crate::board::Target, CliError> {
    let name = cli.board.as_deref().unwrap_or(crate::board::DEFAULT);
    let board = crate::board::by_name(name)
        .ok_or_else(|| CliError::Usage(format!("unknown board '{name}' (known: {})", crate::board::NAMES.join(", "))))?;
    let clock = cli.clock_mhz.unwrap_or(200.0);
    if !(clock.is_finite() && clock > 0.0) {
        return Err(CliError::Usage(format!("'--clock-mhz' must be a positive frequency, not {clock}")));
    }
    let mut target = crate::board::Target::new(board, cli.dsp, cli.bram, clock);
    if let Some(uram) = cli.uram {
        target.uram = uram;
    }
    if let Some(path) = &cli.target_spec {
        let error = ffi::check_target(path);
        if !error.is_empty() {
            return Err(CliError::Usage(format!("--target-spec: {error}")));
        }
        target.cost_model = Some(std::path::PathBuf::from(path));
    }
    Ok(target)
}

/// The first --dse-* / --no-dse option given, if any.
fn dse_flag(cli: &Cli) -> Option<&'static str> {
    [
        (cli.no_dse, "--no-dse"),
        (cli.dse_objective.is_some(), "--dse-objective"),
        (cli.dse_time_limit.is_some(), "--dse-time-limit"),
        (cli.dse_max_lanes.is_some(), "--dse-max-lanes"),
        (cli.no_int8_packing, "--no-int8-packing"),
    ]
    .iter()
    .find(|(on, _)| *on)
    .map(|(_, f)| *f)
}

/// The DSE's settings from the --dse-* options and the target's limits.
fn dse_settings(cli: &Cli, target: &crate::board::Target) -> Result<crate::dse::Settings, CliError> {
    if cli.no_dse {
        if let Some(flag) = [
            (cli.dse_objective.is_some(), "--dse-objective"),
            (cli.dse_time_limit.is_some(), "--dse-time-limit"),
            (cli.dse_max_lanes.is_some(), "--dse-max-lanes"),
            (cli.no_int8_packing, "--no-int8-packing"),
        ]
        .iter()
        .find(|(on, _)| *on)
        .map(|(_, f)| *f)
        {
            return Err(CliError::Usage(format!("'--no-dse' cannot be combined with '{flag}'")));
        }
    }
    let mut settings = crate::dse::Settings::new(target.dsp, target.bram18k);
    settings.uram = target.uram;
    if let Some(o) = &cli.dse_objective {
        settings.objective = crate::dse::parse_objective(o)
            .ok_or_else(|| CliError::Usage(format!("unknown DSE objective '{o}' (dataflow, sum)")))?;
    }
    if let Some(t) = cli.dse_time_limit {
        if !(t.is_finite() && t >= 0.0) {
            return Err(CliError::Usage(format!("'--dse-time-limit' must be a number of seconds (0: no limit), not {t}")));
        }
        settings.time_limit = (t > 0.0).then_some(t);
        settings.large_graph_lp_iterations = None;
    }
    if let Some(n) = cli.dse_max_lanes {
        if n == 0 {
            return Err(CliError::Usage("'--dse-max-lanes' must be at least 1".into()));
        }
        settings.max_lanes = n;
    }
    settings.pack_int8 = !cli.no_int8_packing;
    Ok(settings)
}

/// The mlir-opt flags that make no sense for --hls or --dse, which run their
/// own pipeline (with whether each is given).
fn opt_only_flags(cli: &Cli, pass_flags: bool) -> [(bool, &'static str); 4] {
    [
        (cli.pass_pipeline.is_some() || pass_flags, "pass flags or --pass-pipeline"),
        (cli.split_input_file.is_some(), "--split-input-file"),
        (cli.verify_diagnostics.is_some(), "--verify-diagnostics"),
        (cli.emit_bytecode, "--emit-bytecode"),
    ]
}

/// The `--dse` request (the flow up to the DSE), or why the flags do not make one.
fn dse_request(cli: &Cli, pass_flags: bool) -> Result<crate::flow::Request, CliError> {
    let own = [
        (cli.hls.is_some(), "--hls (which runs the DSE itself)"),
        (cli.no_dse, "--no-dse"),
        (cli.emit_hls_cpp, "--emit-hls-cpp"),
        (cli.no_fifo_minimize, "--no-fifo-minimize"),
    ];
    if let Some((_, flag)) = own.into_iter().chain(opt_only_flags(cli, pass_flags)).find(|(on, _)| *on) {
        return Err(CliError::Usage(format!("'--dse' cannot be combined with {flag}")));
    }
    flow_request(cli, crate::flow::Stop::Dse { output: cli.output.clone() }, true)
}

/// The `--simulate` request (the flow up to the simulation; the DSE's
/// settings unless `--no-dse`), or why the flags do not make one.
fn simulate_request(cli: &Cli, pass_flags: bool) -> Result<crate::flow::Request, CliError> {
    let own = [
        (cli.hls.is_some(), "--hls (which simulates itself)"),
        (cli.dse, "--dse"),
        (cli.emit_hls_cpp, "--emit-hls-cpp"),
    ];
    if let Some((_, flag)) = own.into_iter().chain(opt_only_flags(cli, pass_flags)).find(|(on, _)| *on) {
        return Err(CliError::Usage(format!("'--simulate' cannot be combined with {flag}")));
    }
    flow_request(cli, crate::flow::Stop::Simulate { output: cli.output.clone() }, !cli.no_dse)
}

/// `ming-opt INPUT --emit-hls-cpp [-o OUT]`: parse (our dialects registered,
/// diagnostics on stderr), translate, write.
fn emit_hls_cpp(cli: &Cli) -> Result<(), CliError> {
    use melior::ir::operation::OperationLike;
    let context = crate::mlir::context();
    crate::mlir::print_diagnostics(&context);
    let module = crate::mlir::parse_input(&context, &cli.input).map_err(CliError::Unreadable)?;
    if !module.as_operation().verify() {
        return Err(CliError::Reported);
    }
    let cpp = crate::translate::emit_cpp(&module).map_err(crate::flow::FlowError::Translate)?;
    Ok(crate::flow::write_output(&cli.output, cpp.as_bytes())?)
}

/// mlir-opt mode. An ONNX model or torch-dialect MLIR (which only the
/// importers read) is imported to linalg first; with no passes the imported
/// linalg is printed.
fn opt_main(cli: &Cli, passes: Vec<(String, String)>) -> Result<(), CliError> {
    use crate::frontend::Kind;
    let imported = match crate::frontend::detect(&cli.input) {
        Ok(Kind::Onnx | Kind::Tflite | Kind::Torch) => Some(
            crate::frontend::import(&cli.input, &import_options(cli)).map_err(crate::flow::FlowError::Frontend)?,
        ),
        // Unreadable input: MLIR's own message, as mlir-opt.
        Ok(_) | Err(_) => None,
    };
    let input = imported.as_ref().map(|i| i.path.clone()).unwrap_or_else(|| cli.input.clone());
    let status = opt_main_on(cli, &input, passes);
    if let Some(note) = imported.as_ref().and_then(|i| i.finish(status != 0)) {
        eprintln!("ming-opt: note: {note}");
    }
    if status == 0 {
        Ok(())
    } else {
        Err(CliError::Reported)
    }
}

fn opt_main_on(cli: &Cli, input: &str, passes: Vec<(String, String)>) -> i32 {
    let request = ffi::OptRequest {
        input: input.to_string(),
        output: cli.output.clone(),
        pass_pipeline: cli.pass_pipeline.clone().unwrap_or_default(),
        passes: passes
            .into_iter()
            .map(|(name, options)| ffi::PassFlag { name, options })
            .collect(),
        split_input_file: cli.split_input_file.clone().unwrap_or_default(),
        output_split_marker: cli.output_split_marker.clone().unwrap_or_default(),
        verify_diagnostics: cli.verify_diagnostics.clone().unwrap_or_default(),
        allow_unregistered_dialect: cli.allow_unregistered_dialect,
        verify_each: cli.verify_each,
        emit_bytecode: cli.emit_bytecode,
        show_dialects: cli.show_dialects,
        dump_pass_pipeline: cli.dump_pass_pipeline,
        no_implicit_module: cli.no_implicit_module,
        mlir_flags: cli.mlir_flags(),
    };
    ffi::opt_main(&request)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(list: &[&str]) -> Vec<String> {
        list.iter().map(|s| s.to_string()).collect()
    }

    fn is_pass(name: &str) -> bool {
        matches!(name, "canonicalize" | "ming-test-kernel-analysis")
    }

    #[test]
    fn pass_flags_are_taken_out_in_order() {
        let split = split_args(
            &args(&["ming-opt", "in.mlir", "--canonicalize=max-iterations=2", "-o", "x", "-ming-test-kernel-analysis"]),
            is_pass,
        );
        assert_eq!(split.tool, args(&["ming-opt", "in.mlir", "-o", "x"]));
        assert_eq!(
            split.passes,
            vec![
                ("canonicalize".to_string(), "max-iterations=2".to_string()),
                ("ming-test-kernel-analysis".to_string(), String::new())
            ]
        );
    }

    #[test]
    fn single_dash_long_options_become_double_dash() {
        let split = split_args(&args(&["ming-opt", "-split-input-file", "-verify-diagnostics", "-", "-v"]), is_pass);
        assert_eq!(split.tool, args(&["ming-opt", "--split-input-file", "--verify-diagnostics", "-", "-v"]));
        let cli = Cli::try_parse_from(&split.tool).expect("parses");
        assert_eq!(cli.split_input_file.as_deref(), Some("// -----"));
        assert_eq!(cli.verify_diagnostics.as_deref(), Some("all"));
        assert_eq!(cli.input, "-");
    }

    #[test]
    fn own_options_win_over_pass_names_and_unknown_flags_stay_errors() {
        let split = split_args(&args(&["ming-opt", "--no-such-pass", "--verify-each=false"]), |_| false);
        assert!(split.passes.is_empty());
        assert_eq!(split.unknown, args(&["--no-such-pass"]));
        let cli = Cli::try_parse_from(args(&["ming-opt", "--verify-each=false"])).expect("parses");
        assert!(!cli.verify_each);
    }

    #[test]
    fn hls_flags() {
        let cli = Cli::try_parse_from(args(&["ming-opt", "in.mlir", "--hls", "out", "--board", "zedboard", "--dsp", "50", "--clock-mhz", "250"]))
            .expect("parses");
        let r = hls_request(&cli, false).expect("a request");
        assert_eq!((r.target.board.name, r.target.dsp, r.target.bram18k, r.target.clock_mhz), ("zedboard", 50, 280, 250.0));
        assert_eq!(r.stop, crate::flow::Stop::Hls { outdir: std::path::PathBuf::from("out") });
        let default = hls_request(&Cli::try_parse_from(args(&["ming-opt", "x", "--hls", "o"])).expect("parses"), false).expect("ok");
        assert_eq!((default.target.board.name, default.target.clock_mhz), ("kv260", 200.0));
        assert!(Cli::try_parse_from(args(&["ming-opt", "x", "--hls", "o", "--board", "nope"])).is_err());
        for bad in [&["ming-opt", "x", "--board", "kv260"][..], &["ming-opt", "x", "--hls", "o", "-o", "y"], &["ming-opt", "x", "--hls", "o", "--clock-mhz", "0"]] {
            let cli = Cli::try_parse_from(args(bad)).expect("parses");
            assert!(hls_request(&cli, false).is_err(), "{bad:?}");
        }
        assert!(hls_request(&Cli::try_parse_from(args(&["ming-opt", "x", "--hls", "o"])).expect("parses"), true).is_err());
    }

    #[test]
    fn mlir_flags_are_forwarded_by_name() {
        let cli = Cli::try_parse_from(args(&[
            "ming-opt",
            "--mlir-print-ir-after-all",
            "--mlir-print-op-generic",
            "--mlir-elide-elementsattrs-if-larger=4",
        ]))
        .expect("parses");
        assert_eq!(
            cli.mlir_flags(),
            args(&["--mlir-print-ir-after-all", "--mlir-print-op-generic", "--mlir-elide-elementsattrs-if-larger=4"])
        );
    }
}
