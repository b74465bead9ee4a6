//! Cursor: the `lcmem` MCP server in `~/.cursor/mcp.json` (or a project's
//! `.cursor/mcp.json`). Cursor starts a server wherever it likes, so the
//! entry names the project with `${workspaceFolder}`, which Cursor expands.

use std::path::{Path, PathBuf};

use serde_json::{Map, Value, json};

use super::files::{Change, plan, plan_removal};

fn mcp_json(top: Option<&Path>) -> anyhow::Result<PathBuf> {
    Ok(match top {
        Some(root) => root.join(".cursor/mcp.json"),
        None => super::home_dir()?.join(".cursor/mcp.json"),
    })
}

pub fn install(top: Option<&Path>, command: &str) -> anyhow::Result<Change> {
    plan(&mcp_json(top)?, |doc: &mut Map<String, Value>| {
        let servers = doc.entry("mcpServers").or_insert_with(|| json!({}));
        if let Some(servers) = servers.as_object_mut() {
            let entry = servers
                .entry("lcmem")
                .or_insert_with(|| json!({"command": command, "args": ["--project", "${workspaceFolder}", "mcp"]}));
            super::update_server_command(entry, command);
        }
    })
}

pub fn uninstall(top: Option<&Path>) -> anyhow::Result<Change> {
    plan_removal(&mcp_json(top)?, |doc| super::remove_lcmem_server(doc, "mcpServers"))
}
