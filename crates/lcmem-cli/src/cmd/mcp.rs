//! `lcmem mcp`: serve the project's memory to an agent over MCP (stdio).

use std::process::ExitCode;

use anyhow::Context as _;
use rmcp::ServiceExt;

use crate::context::Context;
use crate::mcp::MemoryServer;

#[derive(clap::Args)]
#[command(after_help = "Speaks the Model Context Protocol on stdin/stdout for the project of --project (default: \
the current directory). Agents start it themselves; see docs/agents.md for Claude Code, Codex, Cursor and others.\n\n\
Tools (both read-only):\n  \
recall_sessions {query, limit?, kinds?, since?}  cited hits from transcripts, journal and every fact\n  \
memory_digest {}                                 the framed digest a new session is given\n\
Resource: lcmem://<project-slug>/MEMORY.md (text/markdown), when the project has one.\n\n\
The server writes nothing: not memory, not the search cache. Diagnostics go to stderr.")]
pub struct Args {}

pub fn run(_args: Args, context: &Context) -> anyhow::Result<ExitCode> {
    let store = context.store()?;
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .context("cannot start the MCP server's event loop")?;
    runtime.block_on(async move {
        let service = MemoryServer::new(store)
            .serve(rmcp::transport::stdio())
            .await
            .context("the MCP client did not complete the handshake")?;
        service.waiting().await.context("the MCP server stopped unexpectedly")?;
        anyhow::Ok(())
    })?;
    Ok(ExitCode::SUCCESS)
}
