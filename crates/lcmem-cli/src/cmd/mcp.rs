//! `lcmem mcp`: serve the project's memory to an agent over MCP (stdio).

use std::process::ExitCode;

use anyhow::Context as _;
use rmcp::ServiceExt;

use crate::context::Context;
use crate::mcp::MemoryServer;

#[derive(clap::Args)]
#[command(after_help = "Speaks the Model Context Protocol on stdin/stdout for the project of --project (default: \
the current directory). Agents start it themselves; see docs/agents.md for each agent lcmem knows and any other MCP client.\n\n\
Tools:\n  \
recall_sessions {query, limit?, kinds?, since?}  cited hits from transcripts, journal and every fact\n  \
memory_digest {}                                 the framed digest a new session is given\n  \
remember {text}                                  keep a fact the user asked for (unconfirmed)\n  \
correct {id, not_true? | text?}                  mark a fact not true or replace it (restorable)\n\
Resource: lcmem://<project-slug>/MEMORY.md (text/markdown), when the project has one.\n\n\
Nothing an agent writes is confirmed: only a person confirms (`lcmem facts confirm ID`), and no tool confirms \
or forgets. Recall marks the sessions it returns as used. Diagnostics go to stderr.")]
pub struct Args {}

pub fn run(_args: Args, context: &Context) -> anyhow::Result<ExitCode> {
    let store = context.store()?;
    let now = std::env::var_os("LCMEM_NOW").is_some().then(|| context.now()).transpose()?;
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .context("cannot start the MCP server's event loop")?;
    runtime.block_on(async move {
        let (input, output, writer) = crate::mcp::stdio::transport();
        let service = MemoryServer::new(store, now)
            .serve((input, output))
            .await
            .context("the MCP client did not complete the handshake")?;
        service.waiting().await.context("the MCP server stopped unexpectedly")?;
        // Every reply out before the process ends.
        let _ = writer.await;
        anyhow::Ok(())
    })?;
    Ok(ExitCode::SUCCESS)
}
