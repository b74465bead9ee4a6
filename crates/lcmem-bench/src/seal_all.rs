//! `lcmem-bench seal-all DIR`: how long `lcmem seal --all` takes over a
//! project written by `lcmem-bench synth`, as one whole process.
//!
//! The synthetic store is left as it is: its session files (and its index,
//! so that the refresh at the end of the seal finds it current, as it would
//! be in use) are hard-linked into a scratch store beside it, which is sealed
//! and then removed. Sealing only reads session files; the journal, the facts
//! log and MEMORY.md it writes are the scratch store's own. Prints the time,
//! the seals per second, and what the facts log and the journal hold after.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Instant;

use anyhow::{Context, bail};
use lcmem::Store;

use crate::synth;

pub struct Options {
    pub lcmem: Option<PathBuf>,
    /// Seal only the first this many sessions (all when `None`).
    pub sessions: Option<usize>,
    pub keep: bool,
}

/// Hard-links every file under `from` into `to`, folders made as needed.
fn link_tree(from: &Path, to: &Path) -> anyhow::Result<u64> {
    std::fs::create_dir_all(to).with_context(|| format!("cannot create {}", to.display()))?;
    let mut linked = 0;
    for entry in std::fs::read_dir(from).with_context(|| format!("cannot read {}", from.display()))? {
        let entry = entry?;
        let (source, target) = (entry.path(), to.join(entry.file_name()));
        if entry.file_type()?.is_dir() {
            linked += link_tree(&source, &target)?;
        } else {
            std::fs::hard_link(&source, &target).with_context(|| format!("cannot link {}", source.display()))?;
            linked += 1;
        }
    }
    Ok(linked)
}

pub fn run(dir: &Path, options: Options) -> anyhow::Result<String> {
    let (home, project) = synth::store_paths(dir);
    if !project.is_dir() {
        bail!("{} holds no synthetic project: run `lcmem-bench synth --out {}` first", dir.display(), dir.display());
    }
    let source = Store::open(&home, &project)?;
    let Some(bin) = options.lcmem.clone().or_else(|| {
        let sibling = std::env::current_exe().ok()?.with_file_name("lcmem");
        sibling.is_file().then_some(sibling)
    }) else {
        bail!("no lcmem binary beside lcmem-bench; pass --lcmem PATH");
    };
    let scratch = dir.with_extension("seal-bench");
    if scratch.exists() {
        std::fs::remove_dir_all(&scratch).with_context(|| format!("cannot remove {}", scratch.display()))?;
    }
    let scratch_home = scratch.join("home");
    let target = Store::open(&scratch_home, &project)?;
    let mut ids = source.session_ids()?;
    if let Some(n) = options.sessions {
        ids.truncate(n);
    }
    std::fs::create_dir_all(target.dir())?;
    for id in &ids {
        std::fs::hard_link(source.session_path(id), target.session_path(id))
            .with_context(|| format!("cannot link session {id}"))?;
    }
    let index = lcmem::recall::index_dir(&source);
    let with_index = options.sessions.is_none() && index.is_dir();
    if with_index {
        link_tree(&index, &lcmem::recall::index_dir(&target))?;
    }
    let mut out = String::new();
    writeln!(
        out,
        "seal --all over {} synthetic sessions ({}), one `lcmem seal --all` process",
        ids.len(),
        if with_index { "index current" } else { "no index: the refresh at the end builds it" }
    )?;
    let started = Instant::now();
    let run = Command::new(&bin)
        .arg("--home")
        .arg(&scratch_home)
        .arg("--project")
        .arg(&project)
        .args(["seal", "--all"])
        .output()
        .with_context(|| format!("cannot run {}", bin.display()))?;
    let took = started.elapsed();
    if !run.status.success() {
        bail!("lcmem seal --all failed: {}", String::from_utf8_lossy(&run.stderr));
    }
    let facts = lcmem::facts::Fold::read(&target.facts_path())?;
    let events = std::fs::read(target.facts_path()).map(|b| b.iter().filter(|&&c| c == b'\n').count()).unwrap_or(0);
    let journal = lcmem::journal::Journal::of(&target)?;
    writeln!(
        out,
        "  {:.1} s ({:.0} seals/s); journal {} entries, facts log {} events, {} facts",
        took.as_secs_f64(),
        ids.len() as f64 / took.as_secs_f64(),
        journal.entries.len(),
        events,
        facts.facts.len()
    )?;
    if options.keep {
        writeln!(out, "  kept in {}", scratch.display())?;
    } else {
        std::fs::remove_dir_all(&scratch).with_context(|| format!("cannot remove {}", scratch.display()))?;
    }
    Ok(out)
}
