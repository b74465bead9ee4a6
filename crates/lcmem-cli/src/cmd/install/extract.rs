//! `lcmem install AGENT --extract`: the seal asks the agent's own CLI,
//! headless, to read each session again after the rules sealed it (the
//! command lane, `extract.lane = command`), with the login the user already
//! has. `lcmem uninstall AGENT` turns it off again when it is still that
//! agent's command.

use lcmem::agents::Source;
use lcmem::config::{ConfigFiles, Scope};

use crate::context::Context;

/// Where the setting goes: the project's config with `--project`, else the
/// global one (every project of this user).
fn scope(project: bool) -> Scope {
    if project { Scope::Project } else { Scope::Global }
}

/// Whether the file in `scope` sets the command lane to `command`.
fn lane_is(files: &ConfigFiles, scope: Scope, command: &str) -> anyhow::Result<bool> {
    Ok(files.text_in(scope, "extract.lane")?.as_deref() == Some("command")
        && files.text_in(scope, "extract.command")?.as_deref() == Some(command))
}

/// Sets the command lane to `source`'s headless CLI.
pub(super) fn switch_on(
    context: &Context,
    source: &'static dyn Source,
    project: bool,
    dry_run: bool,
) -> anyhow::Result<()> {
    let Some(command) = source.wiring().headless else {
        anyhow::bail!(
            "{} has no headless mode lcmem knows how to ask: set a model lane yourself, e.g. `lcmem config set \
             --global extract.lane openai` with extract.endpoint and extract.model (docs/extract.md)",
            source.title()
        );
    };
    let files = context.store()?.config_files();
    let scope = scope(project);
    let program = command.split_whitespace().next().unwrap_or(command);
    if !super::on_path(program) {
        eprintln!(
            "warning: `{program}` is not on PATH here; a seal finds it only if it is on the PATH the agent's hooks \
             run with (until then each session keeps the rules' line, and the journal says why)"
        );
    }
    if lane_is(&files, scope, command)? {
        println!("extraction: {} already reads each sealed session again", source.title());
        return Ok(());
    }
    let file = files.path(scope).display().to_string();
    if dry_run {
        println!("extraction: would set extract.lane = command and extract.command = {command} in {file}");
        return Ok(());
    }
    files.set(scope, "extract.command", command)?;
    files.set(scope, "extract.lane", "command")?;
    let effective = files.effective("extract.lane")?;
    if effective.value.as_str() != Some("command") {
        eprintln!(
            "warning: this project's own config sets extract.lane = {}, which wins here ({})",
            effective.value,
            files.path(Scope::Project).display()
        );
    }
    println!(
        "extraction: after the rules seal a session, `{command}` reads it again in the background, with your \
         {} login (extract.lane = command in {file}; at most extract.max_usd_per_day a day, ${:.2} now; \
         `lcmem config set{} extract.lane offline` turns it off)",
        source.title(),
        context.store()?.settings()?.extract.max_usd_per_day,
        if project { "" } else { " --global" },
    );
    Ok(())
}

/// Sets the lane back to the rules when `source`'s headless CLI is what
/// the file in this scope names; a lane the user chose is left alone.
pub(super) fn switch_off(
    context: &Context,
    source: &'static dyn Source,
    project: bool,
    dry_run: bool,
) -> anyhow::Result<()> {
    let Some(command) = source.wiring().headless else { return Ok(()) };
    let files = context.store()?.config_files();
    let scope = scope(project);
    // A file that cannot be read names no lane of ours: it is left alone.
    if !lane_is(&files, scope, command).unwrap_or(false) {
        return Ok(());
    }
    let file = files.path(scope).display().to_string();
    if dry_run {
        println!("extraction: would set extract.lane = offline in {file}");
        return Ok(());
    }
    files.set(scope, "extract.lane", "offline")?;
    files.set(scope, "extract.command", "")?;
    println!("extraction: back to the rules alone (extract.lane = offline in {file})");
    Ok(())
}
