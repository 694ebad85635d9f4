//! One solve by HiGHS: the program `program` builds, with the solver's
//! options, the progress callback and a starting design, and the choice
//! read back from its columns.
use super::figures::{cycles, whole_cycles};
use super::program::build;
use super::{DseError, Goal, Limit, Objective, Problem};
use crate::dse::prune::Shape;
use highs::{HighsModelStatus, Sense};

/// Builds and solves one program under the (DSP, BRAM) limits given, for
/// at most `limit`: the choice, the goal's value (for a latency, without
/// the tie-breaking weights) and the status. `None` means proven
/// infeasible. `shape` holds the rows' figures of the full candidate lists.
pub(super) fn run(
    problem: &Problem,
    shape: &Shape,
    goal: Goal,
    limits: (Option<f64>, Option<f64>),
    limit: Limit,
    start: Option<&[usize]>,
) -> Result<Option<(Vec<usize>, f64, String)>, DseError> {
    let (pb, index, latency) = build(problem, shape, goal, limits);
    let nodes = &problem.graph.nodes;
    let mut model = pb
        .try_optimise(Sense::Minimise)
        .map_err(|s| DseError::Solver(format!("HiGHS refuses the problem ({s:?})")))?;
    model.make_quiet();
    // HiGHS's own log at -vvv: its bounds and branching show where a solve
    // spends its time. On stderr, with the tool's messages: stdout may be
    // the output (-o -).
    if log::log_enabled!(log::Level::Trace) {
        model.set_option("output_flag", true);
        model.set_option("log_to_console", false);
        model.set_option("log_file", "/dev/stderr");
    }
    model.set_option("threads", 1);
    model.set_option("mip_rel_gap", 0.0);
    model.set_option("mip_abs_gap", 0.0);
    if let Some(seconds) = limit.seconds {
        model.set_option("time_limit", seconds);
    }
    // HiGHS has no option for a limit on its work, so the callback stops it:
    // HiGHS asks it at fixed points of the search whether to go on.
    let watch = Watch { progress: crate::progress::active(), lp_iterations: limit.lp_iterations.unwrap_or(i64::MAX) };
    if watch.progress || limit.lp_iterations.is_some() {
        // SAFETY: the pointer is the live HiGHS instance `model` owns; the
        // user data is `watch`, which outlives the solve below, and the
        // callback only reads it.
        unsafe {
            let user = &watch as *const Watch as *mut std::os::raw::c_void;
            highs_sys::Highs_setCallback(model.as_mut_ptr(), Some(on_mip), user);
            highs_sys::Highs_startCallback(model.as_mut_ptr(), highs_sys::kHighsCallbackMipInterrupt);
            if watch.progress {
                highs_sys::Highs_startCallback(model.as_mut_ptr(), highs_sys::kHighsCallbackMipImprovingSolution);
            }
        }
    }
    if let Some(start) = start {
        // A feasible design to start from: HiGHS completes the timing
        // columns and improves on it, so a time limit ends with a design
        // and its gap rather than none.
        let cols: Vec<highs_sys::HighsInt> = index.iter().flatten().map(|&c| c as highs_sys::HighsInt).collect();
        let mut values = vec![0.0; cols.len()];
        let mut k = 0;
        for (cands, &chosen) in index.iter().zip(start) {
            values[k + chosen] = 1.0;
            k += cands.len();
        }
        // SAFETY: the pointer is the live HiGHS instance `model` owns; both
        // arrays hold `cols.len()` entries and outlive the call.
        let status = unsafe {
            highs_sys::Highs_setSparseSolution(model.as_mut_ptr(), cols.len() as highs_sys::HighsInt, cols.as_ptr(), values.as_ptr())
        };
        if status != 0 {
            log::info!("DSE: HiGHS did not take the starting design (status {status})");
        }
    }
    let solved = model.try_solve().map_err(|s| DseError::Solver(format!("{s:?}")))?;
    let status = match solved.status() {
        HighsModelStatus::Optimal => "optimal".to_string(),
        HighsModelStatus::Infeasible => return Ok(None),
        stopped @ (HighsModelStatus::ReachedTimeLimit | HighsModelStatus::ReachedInterrupt) => {
            // Only the callback interrupts, at the work limit.
            let why = if stopped == HighsModelStatus::ReachedTimeLimit { "time limit" } else { "work limit" };
            let gap = solved.mip_gap();
            if gap.is_finite() {
                format!("{why} (gap {:.1}%)", gap * 100.0)
            } else {
                why.to_string()
            }
        }
        other => return Err(DseError::Solver(format!("status {other:?}"))),
    };
    let values = solved.get_solution().columns().to_vec();
    let mut choice = Vec::new();
    for cols in &index {
        let best = cols
            .iter()
            .enumerate()
            .max_by(|a, b| values[*a.1].total_cmp(&values[*b.1]))
            .map(|(i, _)| i)
            .ok_or_else(|| DseError::Solver("empty candidate list".into()))?;
        if values[cols[best]] < 0.5 {
            return Err(if limit == Limit::default() {
                DseError::Solver(format!("no design in the solver's answer ({status})"))
            } else {
                DseError::NoDesignInTime(limit)
            });
        }
        choice.push(best);
    }
    // A latency without the tie-breaking weights: the dataflow column L is
    // the model's graph latency of the choice (its least value, see program.rs);
    // the sum is the chosen cycles.
    let value = match goal {
        Goal::Latency(Objective::Dataflow) => whole_cycles(latency.map_or(0.0, |l| values[l])),
        Goal::Latency(Objective::Sum) => choice.iter().zip(nodes).map(|(&c, n)| cycles(&n.candidates[c])).sum(),
        Goal::Dsp | Goal::Bram => solved.objective_value(),
    };
    Ok(Some((choice, value, status)))
}

/// What the callback of one solve does.
struct Watch {
    /// Show the search on the progress display.
    progress: bool,
    /// Interrupt the search once its LP iterations reach this.
    lp_iterations: i64,
}

/// HiGHS's branch-and-bound, as the progress display shows it (the best
/// design found so far, its objective in cycles for the latency objectives,
/// and the proven lower bound), and the work limit.
unsafe extern "C" fn on_mip(
    kind: std::os::raw::c_int,
    _message: *const std::os::raw::c_char,
    out: *const highs_sys::HighsCallbackDataOut,
    input: *mut highs_sys::HighsCallbackDataIn,
    user: *mut std::os::raw::c_void,
) {
    // SAFETY: HiGHS passes valid pointers for the duration of the call (or
    // null); `user` is the solve's `Watch` (run above).
    let (Some(d), Some(watch)) = (unsafe { out.as_ref() }, unsafe { (user as *const Watch).as_ref() }) else { return };
    if kind == highs_sys::kHighsCallbackMipInterrupt as std::os::raw::c_int && d.mip_total_lp_iterations >= watch.lp_iterations {
        // SAFETY: as above; HiGHS reads the flag after the call.
        if let Some(i) = unsafe { input.as_mut() } {
            i.user_interrupt = 1;
        }
    }
    if !watch.progress {
        return;
    }
    let best = if d.mip_primal_bound.is_finite() { format!("{:.0}", d.mip_primal_bound) } else { "none yet".to_string() };
    let bound = if d.mip_dual_bound.is_finite() { format!("{:.0}", d.mip_dual_bound) } else { "-".to_string() };
    let gap = if d.mip_gap.is_finite() { format!(", gap {:.1}%", 100.0 * d.mip_gap) } else { String::new() };
    crate::progress::detail(&format!("ILP best {best}, bound {bound}{gap}, {} nodes", d.mip_node_count));
}
