//! `lcmem watch`: for people who do not use hooks, follow the agents'
//! transcript folders and take in every session that has gone quiet.
//!
//! Polling, not file-system events: transcripts are few, a look costs one
//! `stat` per file, and an idle time of minutes makes a look every few
//! seconds more than enough. A transcript is taken in (imported into the
//! project it was recorded in, and sealed) once it has not changed for
//! `--idle`; it is taken in again only if it changes after that.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::{Duration, SystemTime};

use lcmem::Home;
use lcmem::agents::Source;
use lcmem::{Format, Placement};

use super::shared::Agent;
use super::shared::{default_root, parse_duration};
use crate::context::Context;

#[derive(clap::Args)]
#[command(after_help = "Looks in every agent's transcript folder (`lcmem import --help` lists where each agent keeps \
them). A transcript unchanged for --idle is imported into the project of its recorded working \
directory and sealed; projects whose memory is off are skipped. A session that is resumed after it was sealed is \
imported again (recall sees it) but not sealed twice.\n\n\
DURATION: 90s, 10m, 1h, 1h 30m.\n\n\
Run it in the background (a terminal, a user service); --once takes in what is idle now and exits.")]
pub struct Args {
    /// Take in a transcript once it has not changed for this long
    #[arg(long, default_value = "10m", value_parser = parse_duration, value_name = "DURATION")]
    idle: Duration,
    /// How often to look
    #[arg(long, default_value = "30s", value_parser = parse_duration, value_name = "DURATION")]
    every: Duration,
    /// Look once, take in what is idle now, and exit
    #[arg(long)]
    once: bool,
    /// An agent's transcript folder instead of its default, as AGENT=DIR (claude-code=DIR, codex=DIR, …);
    /// may be given once per agent
    #[arg(long = "dir", value_name = "AGENT=DIR", value_parser = agent_dir)]
    dirs: Vec<(Agent, PathBuf)>,
}

/// `AGENT=DIR`, for an agent whose transcripts lcmem reads.
fn agent_dir(s: &str) -> Result<(Agent, PathBuf), String> {
    let names = || lcmem::agents::importable().map(|s| s.name()).collect::<Vec<_>>().join(", ");
    let Some((name, dir)) = s.split_once('=') else {
        return Err(format!("{s:?} is not AGENT=DIR (AGENT is one of {})", names()));
    };
    match lcmem::agents::source(name).filter(|s| s.transcripts().is_some()) {
        Some(source) => Ok((Agent(source), PathBuf::from(dir))),
        None => Err(format!("{name:?} is not an agent whose transcripts lcmem reads: one of {}", names())),
    }
}

/// When a transcript was last taken in: its size and modification time then.
type Seen = HashMap<PathBuf, (u64, SystemTime)>;

pub fn run(args: Args, context: &Context) -> anyhow::Result<ExitCode> {
    let home = context.home()?;
    let given = args.dirs;
    let mut roots = Vec::new();
    for source in lcmem::agents::importable() {
        let dir = given.iter().rev().find(|(a, _)| a.0 == source).map(|(_, dir)| dir.clone());
        let agent = Agent(source);
        roots.push((agent.format(), agent.0, dir.map_or_else(|| default_root(agent), Ok)?));
    }
    for (format, _, root) in &roots {
        let state = if root.is_dir() { "watching" } else { "not there (yet)" };
        eprintln!("{format} transcripts: {} {state}", root.display());
    }
    let mut seen = Seen::new();
    loop {
        for (format, source, root) in &roots {
            look(&home, (*format, *source), root, args.idle, &mut seen, context)?;
        }
        if args.once {
            return Ok(ExitCode::SUCCESS);
        }
        std::thread::sleep(args.every);
    }
}

/// One look at one folder: takes in each idle transcript that changed.
fn look(
    home: &Path,
    (format, source): (Format, &dyn Source),
    root: &Path,
    idle: Duration,
    seen: &mut Seen,
    context: &Context,
) -> anyhow::Result<()> {
    if !root.is_dir() {
        return Ok(());
    }
    let files = Home::open(home).transcripts(source, root)?;
    let now = SystemTime::now();
    for file in files {
        let Ok(meta) = std::fs::metadata(&file) else { continue };
        let (size, modified) = (meta.len(), meta.modified().unwrap_or(now));
        let quiet_for = now.duration_since(modified).unwrap_or_default();
        if quiet_for < idle || seen.get(&file) == Some(&(size, modified)) {
            continue;
        }
        take_in(home, format, &file, context);
        seen.insert(file, (size, modified));
    }
    Ok(())
}

/// Imports one transcript into its project and seals it; reports one line.
/// A failure is reported and the watch goes on.
fn take_in(home: &Path, format: Format, file: &Path, context: &Context) {
    let now = match context.now() {
        Ok(now) => now,
        Err(e) => return eprintln!("lcmem: {e:#}"),
    };
    let doors = Home::open(home);
    let result = doors.import_all(format, &[file.to_path_buf()], &mut |path, placement| match placement {
        Ok(Placement::Stored { project, report }) => {
            let memory = doors.project(project);
            match memory.seal_imported(report, now) {
                Ok(done) if done.changed() => {
                    println!("{} ({})", done.describe(path), memory.store().project().root.display())
                }
                Ok(_) => {}
                Err(e) => eprintln!("lcmem: {}: {}", path.display(), crate::error_words::cli(&e)),
            }
        }
        Ok(Placement::Empty { .. }) => {}
        Ok(Placement::NoProject { .. }) => eprintln!("skipped {}: it records no working directory", path.display()),
        Ok(Placement::MemoryOff { project, .. }) => {
            eprintln!("skipped {}: memory is off for {}", path.display(), project.root.display())
        }
        Err(e) => eprintln!("lcmem: {}", crate::error_words::cli(&e)),
    });
    if let Err(e) = result {
        eprintln!("lcmem: {}", crate::error_words::cli(&e));
    }
}
