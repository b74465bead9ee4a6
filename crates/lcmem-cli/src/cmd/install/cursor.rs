//! Cursor: the `lcmem` MCP server in `~/.cursor/mcp.json` (or a project's
//! `.cursor/mcp.json`). Cursor starts a server wherever it likes, so the
//! entry names the project with `${workspaceFolder}`, which Cursor expands.

use std::path::{Path, PathBuf};

use serde_json::json;

use super::files::{Change, plan, plan_removal};

pub(in crate::cmd) fn mcp_json(top: Option<&Path>) -> anyhow::Result<PathBuf> {
    Ok(match top {
        Some(root) => root.join(".cursor/mcp.json"),
        None => super::home_dir()?.join(".cursor/mcp.json"),
    })
}

pub fn install(top: Option<&Path>, command: &str) -> anyhow::Result<Change> {
    let entry = json!({"command": command, "args": ["--project", "${workspaceFolder}", "mcp"]});
    plan(&mcp_json(top)?, |doc| super::add_server(doc, entry))
}

pub fn uninstall(top: Option<&Path>) -> anyhow::Result<Change> {
    plan_removal(&mcp_json(top)?, super::remove_server)
}
