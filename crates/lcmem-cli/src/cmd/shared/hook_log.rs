//! The hooks' log (`<home>/logs/hooks.log`), written by `lcmem hook` and the
//! background `lcmem catch-up` it starts.

use std::io::Write;
use std::path::{Path, PathBuf};

use jiff::Timestamp;

use super::Agent;
use crate::context::Context;

/// The log is cut in two past this size: the older half is kept as `.1`.
const LOG_LIMIT: u64 = 1 << 20;

/// The hooks' log: `<home>/logs/hooks.log`.
fn log_path(home: &Path) -> PathBuf {
    home.join("logs").join("hooks.log")
}

/// Appends one line to the log. Logging is best effort: a hook that cannot
/// write its log still must not fail the session.
pub(crate) fn log(context: &Context, agent: Agent, event: &str, message: &str) {
    let Ok(home) = context.home() else { return };
    let path = log_path(&home);
    let _ = std::fs::create_dir_all(path.parent().unwrap_or(&home));
    if std::fs::metadata(&path).is_ok_and(|m| m.len() > LOG_LIMIT) {
        let _ = std::fs::rename(&path, path.with_extension("log.1"));
    }
    let Ok(mut file) = std::fs::OpenOptions::new().create(true).append(true).open(&path) else { return };
    // One write of the whole line: hooks and background seals log at once,
    // and an append made of several writes interleaves with theirs.
    let line = format!("{} {} {event}: {message}\n", Timestamp::now(), agent.name());
    let _ = file.write_all(line.as_bytes());
}
