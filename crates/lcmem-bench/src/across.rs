//! `lcmem-bench across HOME`: recall across every project under one home,
//! warm, as the MCP server answers a call with `"projects": ["all"]`: each
//! project's index brought up to date first, then the speed benchmark's
//! queries timed one at a time. Nothing is asserted: the figures go into
//! `docs/benchmarks.md`.

use std::fmt::Write as _;
use std::path::Path;
use std::time::{Duration, Instant};

use anyhow::{Context, bail};
use lcmem::Store;
use lcmem::config::Scope;
use lcmem::project::Project;
use lcmem::recall::{Across, Projects, Query, Quiet, Searcher};

pub fn run(home: &Path, queries: usize) -> anyhow::Result<String> {
    let slugs = lcmem::project::slugs(home)?;
    let Some(first) = slugs.first() else { bail!("no project store under {}/sessions", home.display()) };
    let mut out = String::new();
    let (mut sessions, mut bytes) = (0usize, 0u64);
    for slug in &slugs {
        let store = Store::new(home, Project::from_slug(home, slug).context("a listed store")?);
        lcmem::recall::refresh_index(&store, &mut Quiet)?;
        for id in store.session_ids()? {
            sessions += 1;
            bytes += std::fs::metadata(store.session_path(&id)).map_or(0, |m| m.len());
        }
    }
    let this = Store::new(home, Project::from_slug(home, first).context("a listed store")?);
    this.config_files().set(Scope::Project, "recall.cross_project", "true")?;
    let warm = |store| Searcher::new(store).read_only().long_lived();
    let mut across = Across::new(warm(this), warm);
    let asked = crate::speed::queries(queries, 7);
    // A first pass opens every project's index and reads its tables.
    for text in &asked {
        across.search(&Query::new(text.clone()), &Projects::All, &mut Quiet)?;
    }
    let mut times: Vec<Duration> = Vec::with_capacity(asked.len());
    let mut hits = 0;
    for text in &asked {
        let started = Instant::now();
        let answer = across.search(&Query::new(text.clone()), &Projects::All, &mut Quiet)?;
        times.push(started.elapsed());
        hits += answer.hits.len();
    }
    times.sort();
    let at = |p: f64| times[((times.len() as f64 - 1.0) * p).round() as usize].as_secs_f64() * 1e3;
    writeln!(out, "{} projects, {sessions} sessions, {:.1} MB", slugs.len(), bytes as f64 / 1e6)?;
    writeln!(
        out,
        "warm recall across all of them ({} queries, {hits} hits): p50 {:.2} ms, p99 {:.2} ms",
        times.len(),
        at(0.5),
        at(0.99)
    )?;
    Ok(out)
}
