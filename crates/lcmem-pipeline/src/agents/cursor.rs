//! Cursor: lcmem's MCP server in `~/.cursor/mcp.json` (or a project's
//! `.cursor/mcp.json`). Cursor keeps no transcript lcmem reads, and has no
//! hooks lcmem uses. It starts a server wherever it likes, so the entry
//! names the project with `${workspaceFolder}`, which Cursor expands.

use super::source::Source;
use super::wiring::{Place, Server, Wiring};

/// Cursor, as a place to wire lcmem's server into.
pub struct Cursor;

impl Source for Cursor {
    fn name(&self) -> &'static str {
        "cursor"
    }

    fn title(&self) -> &'static str {
        "Cursor"
    }

    fn hook_step(&self, _event: &str) -> Option<super::source::HookStep> {
        None
    }

    fn wiring(&self) -> Wiring {
        let file = Place { env: None, home: ".cursor/mcp.json", project: ".cursor/mcp.json" };
        Wiring {
            hooks: None,
            server: Server::Json { file, typed: false, project_arg: Some("${workspaceFolder}") },
            pass_store: false,
            after: None,
            headless: None,
            note: None,
        }
    }
}
