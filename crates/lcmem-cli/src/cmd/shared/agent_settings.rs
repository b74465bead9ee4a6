//! An agent's settings as lcmem reads them: where the file is, and what
//! lcmem's own hook entries in it look like. `install` writes them and
//! `doctor` checks them, as peers.

use std::path::{Path, PathBuf};

use anyhow::bail;
use lcmem::agents::Place;
use serde_json::Value;

/// Where a settings file is: in the project's checkout (`top`), else the
/// user's, under the agent's own folder variable when that is set.
pub(crate) fn settings_file(place: &Place, top: Option<&Path>) -> anyhow::Result<PathBuf> {
    let home = || std::env::var_os("HOME").filter(|h| !h.is_empty()).map(PathBuf::from);
    match place.file(top, |v| std::env::var_os(v), home) {
        Some(file) => Ok(file),
        None => bail!("cannot find your home folder: set HOME"),
    }
}

/// Whether `name` is an executable file in a folder on PATH.
pub(crate) fn on_path(name: &str) -> bool {
    use std::os::unix::fs::PermissionsExt as _;
    let path = std::env::var_os("PATH").unwrap_or_default();
    std::env::split_paths(&path)
        .any(|dir| std::fs::metadata(dir.join(name)).is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0))
}

/// Whether one hook handler runs `lcmem hook AGENT`.
pub(crate) fn is_lcmem_hook(hook: &Value, agent: &str) -> bool {
    hook.get("command")
        .and_then(Value::as_str)
        .is_some_and(|c| c.contains("lcmem") && c.contains(&format!("hook {agent}")))
}

/// The handlers of a hook group.
pub(crate) fn handlers(group: &Value) -> &[Value] {
    group.get("hooks").and_then(Value::as_array).map_or(&[], Vec::as_slice)
}
