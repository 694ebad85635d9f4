//! The flow, in order: import (frontend/), parse, lower linalg to dfg
//! (pipeline.rs), explore (dse/), simulate (sim/), lower to emitHLS,
//! translate (translate/) and write the project (project/). `--dse`,
//! `--simulate` and `--hls` are stop points of this one flow; cli.rs only
//! says where to stop. Errors stay typed (`FlowError`) up to the exit status.
use crate::board::Target;
use crate::dse;
use crate::frontend::{self, FrontendError, Imported};
use crate::pipeline::{self, Level, PipelineError};
use crate::ir::graph;
use crate::project::{self, report, top, Project, ProjectError};
use crate::translate::{self, TranslateError};
use melior::ir::operation::OperationLike;
use std::fmt;
use std::path::{Path, PathBuf};

/// Where the flow stops and what it leaves there.
#[derive(Debug, Clone, PartialEq)]
pub enum Stop {
    /// After the DSE: the annotated dfg module, printed to `output` (`-`: stdout).
    Dse { output: String },
    /// After the simulation: its summary, printed to `output`.
    Simulate { output: String },
    /// At the end: the HLS project in `outdir`.
    Hls { outdir: PathBuf },
}

impl Stop {
    fn flag(&self) -> &'static str {
        match self {
            Stop::Dse { .. } => "--dse",
            Stop::Simulate { .. } => "--simulate",
            Stop::Hls { .. } => "--hls",
        }
    }
}

/// What the flow was asked to do.
#[derive(Debug, Clone)]
pub struct Request {
    pub input: String,
    /// Shapes and other settings for the model importers.
    pub import: frontend::ImportOptions,
    /// The function to compile (--top); None: the module's only one.
    pub top: Option<String>,
    /// Split convolutions into a window gather and a contraction (convert-linalg-to-dfg).
    pub gather_windows: bool,
    /// Float sums may be added as trees (ming-mark-float-sums).
    pub reassociate_float: bool,
    pub target: Target,
    /// How the DSE runs; None: `--no-dse` (the directives of the input stay).
    pub dse: Option<dse::Settings>,
    /// Shrink the FIFOs to the least depths the simulator finds (else keep the DSE's).
    pub minimize_fifos: bool,
    /// Run MLIR's parallel work (the DSE's enumeration) on one thread
    /// (--mlir-disable-threading).
    pub single_thread: bool,
    pub stop: Stop,
}

#[derive(Debug)]
pub enum FlowError {
    /// The front end could not bring the input to linalg (missing tool, importer failure).
    Frontend(FrontendError),
    /// The input does not parse or verify (MLIR printed where).
    Input(String),
    /// A stage failed (its passes printed their located diagnostics).
    Pipeline(PipelineError),
    /// A stage ran but left the module short of the next level.
    Stage(String),
    /// The emitHLS module is not a complete design (e.g. no `ming.top`).
    Design(top::DesignError),
    /// The DSE found no design within the limits, or could not run.
    Dse(dse::Failure),
    /// The simulator cannot run the design (`--simulate`), or it deadlocks.
    Simulation(String),
    Translate(TranslateError),
    Project(ProjectError),
    /// The `-o` output of `--dse` or `--simulate` cannot be written.
    Output { path: String, error: std::io::Error },
    /// Any of the above after an import whose linalg is kept for the user:
    /// `note` says where (printed after the error).
    Kept { error: Box<FlowError>, note: String },
}

impl FlowError {
    /// Whether the failure may point into the IR (a pass's located
    /// diagnostic, an IR the DSE cannot write): the imported linalg is kept
    /// for it. A design refused for the board's limits or its weights names
    /// resources only, and an import can be hundreds of MB (EfficientNet-B0:
    /// 214 MB), so it goes.
    pub fn names_ir(&self) -> bool {
        !matches!(self, FlowError::Dse(dse::Failure::Infeasible { .. } | dse::Failure::Refused(_)))
    }

    /// Whether the message already reads `file:line:col: error: ...`.
    pub fn is_located(&self) -> bool {
        match self {
            FlowError::Kept { error, .. } => error.is_located(),
            _ => matches!(self, FlowError::Translate(_) | FlowError::Design(top::DesignError { location: Some(_), .. })),
        }
    }
}

impl fmt::Display for FlowError {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        match self {
            FlowError::Input(m) | FlowError::Stage(m) | FlowError::Simulation(m) => f.write_str(m),
            FlowError::Pipeline(e) => write!(f, "{e}"),
            FlowError::Frontend(e) => write!(f, "{e}"),
            FlowError::Design(e) => write!(f, "{e}"),
            FlowError::Dse(e) => write!(f, "{e}"),
            FlowError::Translate(e) => write!(f, "{e}"),
            FlowError::Project(e) => write!(f, "{e}"),
            FlowError::Output { path, error } => write!(f, "cannot write '{path}': {error}"),
            FlowError::Kept { error, .. } => write!(f, "{error}"),
        }
    }
}

impl std::error::Error for FlowError {}

impl From<PipelineError> for FlowError {
    fn from(e: PipelineError) -> Self {
        FlowError::Pipeline(e)
    }
}

impl From<TranslateError> for FlowError {
    fn from(e: TranslateError) -> Self {
        FlowError::Translate(e)
    }
}

impl From<ProjectError> for FlowError {
    fn from(e: ProjectError) -> Self {
        FlowError::Project(e)
    }
}

impl From<top::DesignError> for FlowError {
    fn from(e: top::DesignError) -> Self {
        FlowError::Design(e)
    }
}

/// Runs the flow up to its stop point.
pub fn run(request: &Request) -> Result<(), FlowError> {
    crate::progress::stage("import");
    let imported = frontend::import(&request.input, &request.import).map_err(|e| {
        crate::progress::finish();
        FlowError::Frontend(e)
    })?;
    let outcome = flow_from(request, &imported);
    crate::progress::finish();
    match (imported.finish(outcome.as_ref().is_err_and(FlowError::names_ir)), outcome) {
        (Some(note), Err(error)) => Err(FlowError::Kept { error: Box::new(error), note }),
        (Some(note), Ok(())) => {
            eprintln!("ming-opt: note: {note}"); // kept on request (MING_KEEP_IMPORT)
            Ok(())
        }
        (None, outcome) => outcome,
    }
}

/// Parses the front end's output and runs its in-process rewrites (TOSA ->
/// linalg, QDQ -> integer): a module at one of the flow's levels.
pub fn parse_imported<'c>(context: &'c melior::Context, imported: &Imported) -> Result<melior::ir::Module<'c>, FlowError> {
    let mut module = crate::mlir::parse_input(context, &imported.path).map_err(FlowError::Input)?;
    if !module.as_operation().verify() {
        return Err(FlowError::Input(format!("'{}' does not verify", imported.path)));
    }
    for rewrite in &imported.rewrites {
        pipeline::run(context, &mut module, rewrite)?;
    }
    Ok(module)
}

fn flow_from(request: &Request, imported: &Imported) -> Result<(), FlowError> {
    let context = crate::mlir::context();
    if request.single_thread {
        context.enable_multi_threading(false);
    }
    crate::mlir::print_diagnostics(&context);
    crate::progress::stage("lowering");
    let mut module = parse_imported(&context, imported)?;

    if pipeline::level(&module) == Level::Linalg {
        pipeline::run(&context, &mut module, &pipeline::linalg_to_dfg(request.top.as_deref(), request.gather_windows))?;
        if pipeline::level(&module) == Level::Linalg {
            return Err(FlowError::Stage("convert-linalg-to-dfg left no dfg.graph in the module".into()));
        }
    }
    let at_dfg = pipeline::level(&module) == Level::Dfg;
    if at_dfg && request.reassociate_float {
        pipeline::run(&context, &mut module, pipeline::MARK_FLOAT_SUMS)?;
    }
    if !at_dfg && !matches!(request.stop, Stop::Hls { .. }) {
        return Err(FlowError::Stage(format!(
            "'{}' needs a module with a dfg.graph (or linalg to lower to one)",
            request.stop.flag()
        )));
    }
    // Between the stages: the DSE chooses the directives (or, with --no-dse,
    // the cost model only estimates the input's own).
    let mut figures = report::Figures::default();
    if at_dfg {
        log::debug!("DSE for {} ({} DSP, {} BRAM18K)", request.target.board.name, request.target.dsp, request.target.bram18k);
        crate::progress::stage("DSE");
        if request.dse.is_some() {
            let weights = dse::capacity::weights(&module);
            log::debug!("weights: {} ROMs, {} values, {} bits", weights.roms, weights.values, weights.bits);
            dse::capacity::check(&weights, &request.target).map_err(|m| FlowError::Dse(dse::Failure::Refused(m)))?;
        }
        figures = explore(&module, request.dse.as_ref(), &request.target.cost_target()).map_err(|e| match e {
            // A float model that does not fit: what int8 would change.
            FlowError::Dse(f @ (dse::Failure::Infeasible { .. } | dse::Failure::Refused(_))) => match dse::capacity::int8_hint(&dse::capacity::weights(&module)) {
                Some(hint) => FlowError::Dse(dse::Failure::Refused(format!("{f}; {hint}"))),
                None => FlowError::Dse(f),
            },
            other => other,
        })?;
        if let Stop::Dse { output } = &request.stop {
            return write_output(output, format!("{}\n", module.as_operation()).as_bytes());
        }
        crate::progress::stage("simulation");
        if let Stop::Simulate { output } = &request.stop {
            return simulate_to(&module, &figures, request.minimize_fifos, output);
        }
        figures.simulation = match beyond_simulation_budget(&figures) {
            Some(cycles) => {
                log::warn!(
                    "no simulation: the model puts the design at {cycles} cycles, more than the simulator's budget of \
                     {SIMULATION_BUDGET_CYCLES}; the FIFO depths stay the DSE's"
                );
                None
            }
            None => {
                // A large graph's minimisation has a budget of its own, as
                // its DSE has: the whole --hls stays within about 30 s.
                let large = figures.solve.as_ref().is_some_and(|s| s.large);
                let budget = large.then_some(dse::LARGE_GRAPH_MINIMIZE_SIMULATIONS);
                simulate(&module, request.minimize_fifos, budget)?
            }
        };
        account_minimised_fifos(&mut figures, request.target.bram18k)?;
    }
    let Stop::Hls { outdir } = &request.stop else { unreachable!("--dse and --simulate stop at the dfg level") };
    // The dfg level knows kinds and lanes, which emitHLS no longer spells out.
    let dfg_graph = if at_dfg { Some(graph::from_dfg(&module).map_err(FlowError::Stage)?) } else { None };
    if at_dfg {
        crate::progress::stage("lowering to emitHLS");
        pipeline::run(&context, &mut module, &pipeline::dfg_to_emithls(request.target.board.axi_bits))?;
        if pipeline::level(&module) != Level::EmitHls {
            return Err(FlowError::Stage(format!("convert-dfg-to-emithls left no emitHLS.func marked '{}'", crate::ir::names::TOP)));
        }
    }

    let top_op = top::find(&module)?;
    let top = top::describe(&top_op)?;
    let graph = match dfg_graph {
        Some(g) => g,
        None => graph::from_emithls(&module, &top_op, top.num_inputs).map_err(FlowError::Stage)?,
    };
    crate::progress::stage("writing the project");
    let (ports, control) = top::ports(&top_op)?;
    let control = control.unwrap_or_else(|| "control".to_string());
    let signature = translate::signature(&top_op)?;
    let (cpp, weights) = translate::emit_cpp_with_weights(&module, &top.name)?;
    log::debug!("top '{}': {} input(s), {} output(s)", top.name, top.num_inputs, top.args.len() - top.num_inputs);
    let project = Project { top: &top, cpp: &cpp, weights: weights.as_deref(), top_signature: &signature, graph: &graph, target: &request.target, figures: &figures, ports: &ports, control: &control };
    let dir = project::write(Path::new(outdir), &project)?;
    log::info!("wrote {}", dir.display());
    Ok(())
}

/// The `--simulate` stop: the simulation (and FIFO minimisation) of the
/// explored design, its summary written to `output`; a deadlock is an error
/// after the summary, as is a design the simulator cannot run.
fn simulate_to(module: &melior::ir::Module, figures: &report::Figures, minimize: bool, output: &str) -> Result<(), FlowError> {
    if let Some(cycles) = beyond_simulation_budget(figures) {
        return Err(FlowError::Simulation(format!(
            "the model puts the design at {cycles} cycles, more than the simulator's budget of {SIMULATION_BUDGET_CYCLES}"
        )));
    }
    let summary = crate::sim::run(module, minimize, None).map_err(|e| FlowError::Simulation(e.to_string()))?;
    let name = graph::from_dfg(module).map(|g| g.name).unwrap_or_default();
    write_output(output, crate::sim::render(&name, &summary, figures.estimate.as_ref()).as_bytes())?;
    match &summary.deadlock {
        Some(d) => Err(FlowError::Simulation(crate::sim::deadlock_message(&name, d))),
        None => Ok(()),
    }
}

/// Writes `bytes` to the `-o` path, or to stdout for `-`.
pub fn write_output(path: &str, bytes: &[u8]) -> Result<(), FlowError> {
    let written = if path == "-" { std::io::Write::write_all(&mut std::io::stdout(), bytes) } else { std::fs::write(path, bytes) };
    written.map_err(|error| FlowError::Output { path: path.to_string(), error })
}

/// The most cycles (by the model) of a design `--hls` and `--simulate` still
/// simulate. The simulator handles about 10^7 cycles a second on a CNN layer
/// and runs a few simulations to minimise the FIFOs, so this is about a minute
/// at most; a loop of 2^32 iterations (seen in fuzzing) would keep it busy for
/// hours.
pub const SIMULATION_BUDGET_CYCLES: i64 = 1 << 28;

/// FIFO minimisation may leave a channel deeper than the DSE counted (the C
/// simulation, one iteration at a time, needs more room than the pipelines'
/// stages give: sim::minimize). The BRAM that adds is the design's: the
/// totals say so, and a design it puts over the board's limit is refused.
fn account_minimised_fifos(figures: &mut report::Figures, limit: u32) -> Result<(), FlowError> {
    let (Some(sim), Some(e)) = (figures.simulation.as_ref(), figures.estimate.as_mut()) else { return Ok(()) };
    let Some(m) = sim.minimize.as_ref() else { return Ok(()) };
    let extra = m.bram18k_after as i64 - m.bram18k_before as i64;
    if extra <= 0 {
        return Ok(());
    }
    e.bram18k += extra;
    e.fifo_bram18k += extra;
    log::warn!("the C simulation needs FIFOs deeper than the DSE counted: {extra} BRAM18K more, {} in all", e.bram18k);
    if e.bram18k > i64::from(limit) {
        return Err(FlowError::Dse(dse::Failure::Refused(format!(
            "the design's FIFOs need {} BRAM18K more than the DSE counted for the C simulation to run, {} in all, over the limit of {limit}",
            extra, e.bram18k
        ))));
    }
    Ok(())
}

/// The model's cycles of the design when they exceed the simulation budget.
pub fn beyond_simulation_budget(figures: &report::Figures) -> Option<i64> {
    let cycles = figures.estimate.as_ref()?.dataflow;
    (cycles > SIMULATION_BUDGET_CYCLES).then_some(cycles)
}

/// Simulates the dfg `module`; a deadlock is an error, a design the
/// simulator cannot run only a warning (None). With `minimize`, the least
/// FIFO depths found are written into its channels.
pub fn simulate(
    module: &melior::ir::Module,
    minimize: bool,
    budget: Option<usize>,
) -> Result<Option<crate::sim::Summary>, FlowError> {
    let summary = match crate::sim::run(module, minimize, budget) {
        Ok(s) => s,
        Err(e) => {
            log::warn!("{e}; no simulation in the report");
            return Ok(None);
        }
    };
    let name = graph::from_dfg(module).map(|g| g.name).unwrap_or_default();
    if let Some(d) = &summary.deadlock {
        return Err(FlowError::Simulation(crate::sim::deadlock_message(&name, d)));
    }
    log::info!("simulation: {} cycles ({:.3} s)", summary.cycles, summary.seconds);
    if summary.minimize.is_some() {
        crate::sim::write_depths(module, &summary).map_err(|e| FlowError::Simulation(e.to_string()))?;
        if !module.as_operation().verify() {
            return Err(FlowError::Stage("the module does not verify with the minimised FIFO depths".into()));
        }
    }
    Ok(Some(summary))
}

/// Runs the DSE on the dfg `module` (writing its choice into it), or with
/// `settings` None only estimates the module's own directives.
pub fn explore(module: &melior::ir::Module, settings: Option<&dse::Settings>, cost: &dse::CostModel) -> Result<report::Figures, FlowError> {
    let Some(settings) = settings else {
        return Ok(match dse::estimate(module, cost) {
            Ok(e) => report::Figures { estimate: Some(e), solve: None, simulation: None },
            Err(e) => {
                log::warn!("no estimate for the report: {e}");
                report::Figures::default()
            }
        });
    };
    let outcome = dse::run(module, settings, cost).map_err(FlowError::Dse)?;
    if !module.as_operation().verify() {
        return Err(FlowError::Stage("the module does not verify after the DSE".into()));
    }
    log::info!(
        "DSE: {} ({}): {} cycles, {} DSP, {} BRAM18K; baseline {} cycles",
        outcome.status,
        dse::objective_name(outcome.objective),
        outcome.estimate.dataflow,
        outcome.estimate.dsp,
        outcome.estimate.bram18k,
        outcome.estimate.baseline.cycles
    );
    Ok(report::Figures {
        simulation: None,
        solve: Some(report::Solve {
            status: outcome.status.clone(),
            objective: dse::objective_name(outcome.objective).to_string(),
            seconds: outcome.seconds,
            ilp_seconds: outcome.ilp_seconds,
            candidates: outcome.candidates,
            large: outcome.large,
        }),
        estimate: Some(outcome.estimate),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn figures(bram18k: i64, fifo_before: u64, fifo_after: u64) -> report::Figures {
        let minimize = crate::sim::MinimizeSummary {
            unbounded_cycles: 0,
            bound: 0,
            simulations: 1,
            bits_before: 0,
            bits_after: 0,
            bram18k_before: fifo_before,
            bram18k_after: fifo_after,
            unsearched: 0,
        };
        let simulation = crate::sim::Summary {
            cycles: 100,
            dse_depth_cycles: 100,
            processes: vec![],
            channels: vec![],
            deadlock: None,
            minimize: Some(minimize),
            seconds: 0.0,
        };
        let estimate = dse::Estimate { bram18k, fifo_bram18k: fifo_before as i64, ..Default::default() };
        report::Figures { estimate: Some(estimate), solve: None, simulation: Some(simulation) }
    }

    /// FIFOs the C simulation needs deeper than the DSE counted add their
    /// BRAM to the totals; past the limit the design is refused.
    #[test]
    fn deeper_fifos_count_and_never_pass_the_limit() {
        let mut f = figures(100, 10, 4);
        account_minimised_fifos(&mut f, 120).expect("fewer BRAM");
        assert_eq!(f.estimate.as_ref().map(|e| e.bram18k), Some(100));
        let mut f = figures(100, 10, 25);
        account_minimised_fifos(&mut f, 120).expect("within the limit");
        assert_eq!(f.estimate.as_ref().map(|e| (e.bram18k, e.fifo_bram18k)), Some((115, 25)));
        let mut f = figures(100, 10, 40);
        let e = account_minimised_fifos(&mut f, 120).expect_err("over the limit");
        assert!(e.to_string().contains("130 in all, over the limit of 120"), "{e}");
    }
}
