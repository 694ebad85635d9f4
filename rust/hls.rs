//! `ming-opt INPUT --hls OUTDIR`: the whole flow from an ONNX model, torch,
//! TOSA or linalg (or dfg, or emitHLS) to a finished HLS project. Import
//! (frontend/), parse, lower what still needs lowering (pipeline.rs), take the graph for graph.dot and the report while
//! the module is at the dfg level, translate to C++ and write the folder.
use crate::board::Target;
use crate::dse;
use crate::frontend::{self, FrontendError, Imported};
use crate::pipeline::{self, Level, PipelineError};
use crate::project::{self, graph, report, top, Project, ProjectError};
use crate::translate::{self, TranslateError};
use melior::ir::operation::OperationLike;
use std::fmt;
use std::path::{Path, PathBuf};

/// What `--hls` was asked to do.
#[derive(Debug, Clone)]
pub struct Request {
    pub input: String,
    /// Shapes and other settings for the model importers.
    pub import: frontend::ImportOptions,
    /// The function to compile (--top); None: the module's only one.
    pub top: Option<String>,
    pub outdir: PathBuf,
    pub target: Target,
    /// How the DSE runs; None: `--no-dse` (the directives of the input stay).
    pub dse: Option<dse::Settings>,
    /// Shrink the FIFOs to the least depths the simulator finds (else keep the DSE's).
    pub minimize_fifos: bool,
}

#[derive(Debug)]
pub enum HlsError {
    /// The front end could not bring the input to linalg (missing tool, importer failure).
    Frontend(FrontendError),
    /// The input does not parse or verify (MLIR printed where).
    Input(String),
    /// A stage failed (its passes printed their located diagnostics).
    Pipeline(PipelineError),
    /// A stage ran but left the module short of the next level.
    Stage(String),
    /// The emitHLS module is not a complete design (e.g. no `ming.top`).
    Design(String),
    /// The DSE found no design within the limits, or could not run.
    Dse(dse::Failure),
    /// The simulator cannot run the design, or it deadlocks.
    Simulation(String),
    Translate(TranslateError),
    Project(ProjectError),
}

impl fmt::Display for HlsError {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        match self {
            HlsError::Input(m) | HlsError::Stage(m) | HlsError::Design(m) | HlsError::Simulation(m) => f.write_str(m),
            HlsError::Pipeline(e) => write!(f, "{e}"),
            HlsError::Frontend(e) => write!(f, "{e}"),
            HlsError::Dse(e) => write!(f, "{e}"),
            HlsError::Translate(e) => write!(f, "{e}"),
            HlsError::Project(e) => write!(f, "{e}"),
        }
    }
}

impl std::error::Error for HlsError {}

impl From<PipelineError> for HlsError {
    fn from(e: PipelineError) -> Self {
        HlsError::Pipeline(e)
    }
}

impl From<TranslateError> for HlsError {
    fn from(e: TranslateError) -> Self {
        HlsError::Translate(e)
    }
}

impl From<ProjectError> for HlsError {
    fn from(e: ProjectError) -> Self {
        HlsError::Project(e)
    }
}

/// Runs the flow; 0 on success, 1 with a diagnostic on any failure.
pub fn run(request: &Request) -> i32 {
    crate::progress::stage("import");
    let imported = match frontend::import(&request.input, &request.import) {
        Ok(i) => i,
        Err(e) => {
            crate::progress::finish();
            log::error!("{e}");
            return 1;
        }
    };
    let outcome = flow_from(request, &imported);
    crate::progress::finish();
    let status = report_outcome(outcome);
    // After the error: where the imported linalg its diagnostics name is kept.
    imported.finish(status == 0);
    status
}

fn report_outcome(outcome: Result<PathBuf, HlsError>) -> i32 {
    match outcome {
        Ok(dir) => {
            log::info!("wrote {}", dir.display());
            0
        }
        Err(e) => {
            match &e {
                // Already in `file:line:col: error: ...` form.
                HlsError::Translate(_) => eprintln!("{e}"),
                HlsError::Design(m) if m.contains(": error: ") => eprintln!("{m}"),
                _ => log::error!("{e}"),
            }
            1
        }
    }
}

/// Parses the front end's output and runs its in-process rewrites (TOSA ->
/// linalg, later ones such as QDQ -> integer): a module at one of the flow's levels.
pub fn parse_imported<'c>(context: &'c melior::Context, imported: &Imported) -> Result<melior::ir::Module<'c>, HlsError> {
    let mut module = crate::mlir::parse_input(context, &imported.path).map_err(HlsError::Input)?;
    if !module.as_operation().verify() {
        return Err(HlsError::Input(format!("'{}' does not verify", imported.path)));
    }
    for rewrite in &imported.rewrites {
        pipeline::run(context, &mut module, rewrite)?;
    }
    Ok(module)
}

fn flow_from(request: &Request, imported: &Imported) -> Result<PathBuf, HlsError> {
    let context = crate::mlir::context();
    crate::mlir::print_diagnostics(&context);
    crate::progress::stage("lowering");
    let mut module = parse_imported(&context, imported)?;

    if pipeline::level(&module) == Level::Linalg {
        pipeline::run(&context, &mut module, &pipeline::linalg_to_dfg(request.top.as_deref()))?;
        if pipeline::level(&module) == Level::Linalg {
            return Err(HlsError::Stage("convert-linalg-to-dfg left no dfg.graph in the module".into()));
        }
    }
    // Between the stages: the DSE chooses the directives (or, with --no-dse,
    // the cost model only estimates the input's own).
    let mut figures = report::Figures::default();
    if pipeline::level(&module) == Level::Dfg {
        crate::progress::stage("DSE");
        figures = explore(&module, request.dse.as_ref())?;
        crate::progress::stage("simulation");
        figures.simulation = match beyond_simulation_budget(&figures) {
            Some(cycles) => {
                log::warn!(
                    "no simulation: the model puts the design at {cycles} cycles, more than the simulator's budget of \
                     {SIMULATION_BUDGET_CYCLES}; the FIFO depths stay the DSE's"
                );
                None
            }
            None => simulate(&module, request.minimize_fifos)?,
        };
    }
    // The dfg level knows kinds and lanes, which emitHLS no longer spells out.
    let dfg_graph = match pipeline::level(&module) {
        Level::Dfg => Some(graph::from_dfg(&module).map_err(HlsError::Stage)?),
        _ => None,
    };
    if pipeline::level(&module) == Level::Dfg {
        crate::progress::stage("lowering to emitHLS");
        pipeline::run(&context, &mut module, pipeline::DFG_TO_EMITHLS)?;
        if pipeline::level(&module) != Level::EmitHls {
            return Err(HlsError::Stage(format!("convert-dfg-to-emithls left no emitHLS.func marked '{}'", pipeline::TOP_ATTR)));
        }
    }

    let top_op = top::find(&module).map_err(HlsError::Design)?;
    let top = top::describe(&top_op).map_err(HlsError::Design)?;
    let graph = match dfg_graph {
        Some(g) => g,
        None => graph::from_emithls(&module, &top_op, top.num_inputs).map_err(HlsError::Design)?,
    };
    crate::progress::stage("writing the project");
    let (ports, control) = top::ports(&top_op).map_err(HlsError::Design)?;
    let control = control.unwrap_or_else(|| "control".to_string());
    let signature = translate::signature(&top_op)?;
    let (cpp, weights) = translate::emit_cpp_with_weights(&module, &top.name)?;
    log::debug!("top '{}': {} input(s), {} output(s)", top.name, top.num_inputs, top.args.len() - top.num_inputs);
    let project = Project { top: &top, cpp: &cpp, weights: weights.as_deref(), top_signature: &signature, graph: &graph, target: &request.target, figures: &figures, ports: &ports, control: &control };
    Ok(project::write(Path::new(&request.outdir), &project)?)
}

/// The most cycles (by the model) of a design `--hls` and `--simulate` still
/// simulate. The simulator handles about 10^7 cycles a second on a CNN layer
/// and runs a few simulations to minimise the FIFOs, so this is about a minute
/// at most; a loop of 2^32 iterations (seen in fuzzing) would keep it busy for
/// hours.
pub const SIMULATION_BUDGET_CYCLES: i64 = 1 << 28;

/// The model's cycles of the design when they exceed the simulation budget.
pub fn beyond_simulation_budget(figures: &report::Figures) -> Option<i64> {
    let cycles = figures.estimate.as_ref()?.dataflow;
    (cycles > SIMULATION_BUDGET_CYCLES).then_some(cycles)
}

/// Simulates the dfg `module`; a deadlock is an error, a design the
/// simulator cannot run only a warning (None). With `minimize`, the least
/// FIFO depths found are written into its channels.
pub fn simulate(module: &melior::ir::Module, minimize: bool) -> Result<Option<crate::sim::Summary>, HlsError> {
    let summary = match crate::sim::run(module, minimize) {
        Ok(s) => s,
        Err(e) => {
            log::warn!("{e}; no simulation in the report");
            return Ok(None);
        }
    };
    let name = graph::from_dfg(module).map(|g| g.name).unwrap_or_default();
    if let Some(d) = &summary.deadlock {
        return Err(HlsError::Simulation(crate::sim::deadlock_message(&name, d)));
    }
    log::info!("simulation: {} cycles ({:.3} s)", summary.cycles, summary.seconds);
    if summary.minimize.is_some() {
        crate::sim::write_depths(module, &summary).map_err(|e| HlsError::Simulation(e.to_string()))?;
        if !module.as_operation().verify() {
            return Err(HlsError::Stage("the module does not verify with the minimised FIFO depths".into()));
        }
    }
    Ok(Some(summary))
}

/// Runs the DSE on the dfg `module` (writing its choice into it), or with
/// `settings` None only estimates the module's own directives.
pub fn explore(module: &melior::ir::Module, settings: Option<&dse::Settings>) -> Result<report::Figures, HlsError> {
    let Some(settings) = settings else {
        return Ok(match dse::estimate(module) {
            Ok(e) => report::Figures { estimate: Some(e), solve: None, simulation: None },
            Err(e) => {
                log::warn!("no estimate for the report: {e}");
                report::Figures::default()
            }
        });
    };
    let outcome = dse::run(module, settings).map_err(HlsError::Dse)?;
    if !module.as_operation().verify() {
        return Err(HlsError::Stage("the module does not verify after the DSE".into()));
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
        }),
        estimate: Some(outcome.estimate),
    })
}
