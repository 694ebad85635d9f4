//! Progress of a long `--hls` run on stderr: the stage (import, lowering,
//! DSE with the ILP's best design and bound, simulation and FIFO
//! minimisation, writing) with the time since the start.
//!
//! The rule (README.md, "Progress"): nothing is shown before the run has
//! lasted `MING_PROGRESS_AFTER` seconds (default 1), so quick runs print
//! exactly what they printed before. After that:
//! - stderr a terminal: one status line, rewritten in place (carriage return
//!   and erase-line) and erased when the run ends;
//! - otherwise: plain lines `ming-opt: progress: 2.4 s: DSE: ...`, one per
//!   stage and at most one every 2 s within a stage, no control characters.
//! `-q`, or `MING_PROGRESS=0`, shows nothing; `MING_PROGRESS=plain` forces the
//! plain lines on a terminal. The lit configuration sets MING_PROGRESS=0 so
//! that tests checking stderr see only diagnostics.
use std::io::{IsTerminal, Write};
use std::sync::Mutex;
use std::time::{Duration, Instant};

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Mode {
    Off,
    Lines,
    Terminal,
}

struct State {
    mode: Mode,
    start: Instant,
    after: Duration,
    stage: String,
    detail: String,
    /// When a line was last printed (or the status line drawn), and for which stage.
    printed: Option<(Instant, String)>,
    /// A status line is on the terminal (to erase before other output).
    line_shown: bool,
}

static STATE: Mutex<Option<State>> = Mutex::new(None);

/// The mode from `-q`, MING_PROGRESS and whether stderr is a terminal.
pub fn mode(quiet: bool, env: Option<&str>, terminal: bool) -> Mode {
    match (quiet, env) {
        (true, _) | (_, Some("0" | "off" | "no")) => Mode::Off,
        (_, Some("plain")) => Mode::Lines,
        _ if terminal => Mode::Terminal,
        _ => Mode::Lines,
    }
}

/// Starts reporting for this run (the clock starts now).
pub fn start(quiet: bool) {
    let env = std::env::var("MING_PROGRESS").ok();
    let mode = mode(quiet, env.as_deref(), std::io::stderr().is_terminal());
    let after = std::env::var("MING_PROGRESS_AFTER")
        .ok()
        .and_then(|v| v.parse::<f64>().ok())
        .filter(|s| s.is_finite() && *s >= 0.0)
        .map(Duration::from_secs_f64)
        .unwrap_or(Duration::from_secs(1));
    let Ok(mut s) = STATE.lock() else { return };
    *s = Some(State { mode, start: Instant::now(), after, stage: String::new(), detail: String::new(), printed: None, line_shown: false });
    drop(s);
    if mode != Mode::Off {
        // A stage that runs long shows up without waiting for the next event.
        std::thread::spawn(|| loop {
            std::thread::sleep(Duration::from_millis(200));
            if !tick() {
                break;
            }
        });
    }
}

/// Whether progress is being reported at all (callers skip the work of
/// producing details otherwise).
pub fn active() -> bool {
    STATE.lock().ok().and_then(|s| s.as_ref().map(|s| s.mode != Mode::Off)).unwrap_or(false)
}

/// A new stage begins.
pub fn stage(name: &str) {
    update(|s| {
        s.stage = name.to_string();
        s.detail.clear();
    });
}

/// Where the current stage is (e.g. the ILP's bound); shown with the stage.
pub fn detail(text: &str) {
    update(|s| s.detail = text.to_string());
}

/// The run is over: erase the status line.
pub fn finish() {
    let Ok(mut guard) = STATE.lock() else { return };
    if let Some(s) = guard.as_mut() {
        erase(s);
    }
    *guard = None;
}

/// Erases the status line before other stderr output (the logger's).
pub fn clear_line() {
    if let Ok(mut guard) = STATE.lock() {
        if let Some(s) = guard.as_mut() {
            erase(s);
        }
    }
}

fn erase(s: &mut State) {
    if s.line_shown {
        let _ = write!(std::io::stderr(), "\r\x1b[K");
        s.line_shown = false;
    }
}

fn update(change: impl FnOnce(&mut State)) {
    let Ok(mut guard) = STATE.lock() else { return };
    if let Some(s) = guard.as_mut() {
        change(s);
        show(s);
    }
}

/// The ticker's turn; false once the run is over.
fn tick() -> bool {
    let Ok(mut guard) = STATE.lock() else { return false };
    match guard.as_mut() {
        Some(s) => {
            show(s);
            true
        }
        None => false,
    }
}

fn text(s: &State, elapsed: Duration) -> String {
    let mut t = format!("{:.1} s: {}", elapsed.as_secs_f64(), s.stage);
    if !s.detail.is_empty() {
        t.push_str(": ");
        t.push_str(&s.detail);
    }
    t
}

fn show(s: &mut State) {
    let elapsed = s.start.elapsed();
    if s.mode == Mode::Off || elapsed < s.after || s.stage.is_empty() {
        return;
    }
    let mut err = std::io::stderr();
    match s.mode {
        Mode::Terminal => {
            // At most ten redraws a second (the ILP reports far more often), but a new stage at once.
            let due = match &s.printed {
                None => true,
                Some((at, stage)) => *stage != s.stage || at.elapsed() >= Duration::from_millis(100),
            };
            if due {
                let _ = write!(err, "\r\x1b[Kming-opt: {}", text(s, elapsed));
                let _ = err.flush();
                s.line_shown = true;
                s.printed = Some((Instant::now(), s.stage.clone()));
            }
        }
        Mode::Lines => {
            let due = match &s.printed {
                None => true,
                Some((at, stage)) => *stage != s.stage || at.elapsed() >= Duration::from_secs(2),
            };
            if due {
                let _ = writeln!(err, "ming-opt: progress: {}", text(s, elapsed));
                s.printed = Some((Instant::now(), s.stage.clone()));
            }
        }
        Mode::Off => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn modes() {
        assert_eq!(mode(true, None, true), Mode::Off);
        assert_eq!(mode(false, Some("0"), true), Mode::Off);
        assert_eq!(mode(false, None, true), Mode::Terminal);
        assert_eq!(mode(false, None, false), Mode::Lines);
        assert_eq!(mode(false, Some("plain"), true), Mode::Lines);
    }

    #[test]
    fn stage_and_detail_text() {
        let s = State {
            mode: Mode::Lines,
            start: Instant::now(),
            after: Duration::ZERO,
            stage: "DSE".into(),
            detail: "ILP best 701, bound 650".into(),
            printed: None,
            line_shown: false,
        };
        assert_eq!(text(&s, Duration::from_millis(2430)), "2.4 s: DSE: ILP best 701, bound 650");
    }
}
