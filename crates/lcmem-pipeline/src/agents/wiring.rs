//! What `lcmem install` writes into an agent's settings, as data each
//! [`super::Source`] gives: which files, which hook events, what the MCP
//! server entry looks like. The front end edits the files (keeping every
//! byte of the user's own); this says only what goes where.

use std::path::{Path, PathBuf};

/// Everything install adds for one agent.
#[derive(Debug, Clone, Copy)]
pub struct Wiring {
    /// The hooks, for an agent that has them.
    pub hooks: Option<Hooks>,
    pub server: Server,
    /// Whether the hook command and the server are told the store with
    /// `--home DIR` when it is not the default: for an agent that gives
    /// them little of its environment.
    pub pass_store: bool,
    /// What the user is told after a change, besides restarting the agent.
    pub after: Option<&'static str>,
    /// What else install does for this agent, in a line of `--help`.
    pub note: Option<&'static str>,
    /// The agent's own CLI run headless as the command lane (`lcmem install
    /// AGENT --extract`): it reads the request on stdin and prints the
    /// answer, with the user's own login, a small model where the agent lets
    /// one choose, no tools, no servers and no transcript of its own.
    pub headless: Option<&'static str>,
}

impl Wiring {
    /// The folders the agent keeps its settings in (`.claude`, under the
    /// user's home or a project's checkout): the first folder of each
    /// settings file's path. A file directly in the home (`.claude.json`)
    /// names none.
    pub fn folders(&self) -> Vec<&'static str> {
        let (Server::Json { file, .. } | Server::Toml { file }) = self.server;
        let places = self.hooks.map(|h| h.file).into_iter().chain([file]);
        let mut out: Vec<&'static str> = places
            .flat_map(|p| [p.home, p.project])
            .filter_map(|path| path.split_once('/').map(|(folder, _)| folder))
            .collect();
        out.sort_unstable();
        out.dedup();
        out
    }
}

/// A settings file, for the user (every project) and for one project.
#[derive(Debug, Clone, Copy)]
pub struct Place {
    /// The variable that moves the agent's folder, and the file under it.
    pub env: Option<(&'static str, &'static str)>,
    /// The file under the user's home, when the variable is not set.
    pub home: &'static str,
    /// The file under a project's checkout.
    pub project: &'static str,
}

impl Place {
    /// The file for the user (`project` is `None`) or for the project at
    /// that checkout, given the environment's lookup and the user's home.
    pub fn file(
        &self,
        project: Option<&Path>,
        var: impl Fn(&str) -> Option<std::ffi::OsString>,
        home: impl FnOnce() -> Option<PathBuf>,
    ) -> Option<PathBuf> {
        if let Some(root) = project {
            return Some(root.join(self.project));
        }
        if let Some((name, under)) = self.env
            && let Some(dir) = var(name).filter(|v| !v.is_empty())
        {
            return Some(PathBuf::from(dir).join(under));
        }
        home().map(|h| h.join(self.home))
    }
}

/// Hook groups under `hooks` in a JSON settings file, in the shape Claude
/// Code made and others followed: event → groups (an optional `matcher`)
/// → handlers `{"type": "command", "command": …, "timeout": …}`.
#[derive(Debug, Clone, Copy)]
pub struct Hooks {
    pub file: Place,
    pub events: &'static [HookEvent],
    /// Whether the agent reads a handler's `timeout` in milliseconds
    /// (else seconds).
    pub millis: bool,
}

/// One event lcmem's hook handles.
#[derive(Debug, Clone, Copy)]
pub struct HookEvent {
    pub name: &'static str,
    pub matcher: Option<&'static str>,
    /// Seconds the agent gives the hook.
    pub timeout: u64,
    /// Whether the agent need not wait for it (`"async": true`).
    pub background: bool,
}

/// Where the `lcmem` MCP server entry goes.
#[derive(Debug, Clone, Copy)]
pub enum Server {
    /// `mcpServers.lcmem` in a JSON file: `{"command", "args"}`, with
    /// `"type": "stdio"` when `typed`, and the project named by the agent's
    /// own placeholder (`--project ${workspaceFolder}`) when it starts
    /// servers outside the project.
    Json { file: Place, typed: bool, project_arg: Option<&'static str> },
    /// `[mcp_servers.lcmem]` and the hooks switch in Codex's `config.toml`.
    Toml { file: Place },
}
