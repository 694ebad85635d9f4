//! A minimal `log` backend for the tool's own messages: stderr, prefixed with
//! the tool name. Level from -v flags, or MING_LOG (error, warn, info, debug, trace).
use log::{Level, LevelFilter, Log, Metadata, Record};

struct StderrLogger;

impl Log for StderrLogger {
    fn enabled(&self, metadata: &Metadata) -> bool {
        effective(metadata) <= log::max_level()
    }

    fn log(&self, record: &Record) {
        if self.enabled(record.metadata()) {
            let level = match effective(record.metadata()) {
                Level::Error => "error",
                Level::Warn => "warning",
                Level::Info => "info",
                Level::Debug => "debug",
                Level::Trace => "trace",
            };
            crate::progress::clear_line();
            eprintln!("ming-opt: {level}: {}", record.args());
        }
    }

    fn flush(&self) {}
}

/// The level a record shows at. The highs crate warns whenever HiGHS's run
/// returns a warning status, which a time limit does: the report gives the
/// gap left, so for the user this is detail (-vv), not a warning.
fn effective(metadata: &Metadata) -> Level {
    if metadata.target().starts_with("highs") && metadata.level() == Level::Warn {
        Level::Debug
    } else {
        metadata.level()
    }
}

static LOGGER: StderrLogger = StderrLogger;

/// Installs the logger; `verbosity` counts -v flags (0 = warnings and errors).
pub fn init(verbosity: u8) {
    let from_env = std::env::var("MING_LOG").ok().and_then(|v| v.parse::<LevelFilter>().ok());
    let level = from_env.unwrap_or(match verbosity {
        0 => LevelFilter::Warn,
        1 => LevelFilter::Info,
        2 => LevelFilter::Debug,
        _ => LevelFilter::Trace,
    });
    // A second init (tests) keeps the first logger; the level still applies.
    let _ = log::set_logger(&LOGGER);
    log::set_max_level(level);
}
