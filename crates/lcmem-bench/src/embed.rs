//! `lcmem-bench embed`: how fast the semantic lane embeds, on the turns of
//! LoCoMo-format conversations, and what a fresh process pays for the
//! model. Each conversation is imported into a scratch store and its cache
//! built by the `lcmem` binary itself (`lcmem index rebuild`, model load
//! included); then a fresh `lcmem recall` is timed with and without the
//! model.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

use anyhow::{Context as _, bail};
use lcmem::Store;
use lcmem::recall::Quiet;
use lcmem::recall::semantic::model::Encoder;
use serde_json::Value;

pub struct Options {
    pub model: PathBuf,
    pub conversations: Vec<String>,
    /// The lcmem binary for the fresh-process figure (default: beside lcmem-bench).
    pub lcmem: Option<PathBuf>,
}

fn median(mut v: Vec<Duration>) -> Duration {
    v.sort();
    v[v.len() / 2]
}

/// Runs `lcmem ARGS` on `store` (as its own process) and returns its standard output.
fn lcmem(bin: &Path, store: &Store, args: &[&str]) -> anyhow::Result<String> {
    let done = Command::new(bin)
        .arg("--home")
        .arg(store.home())
        .arg("--project")
        .arg(&store.project().root)
        .args(args)
        .output()
        .with_context(|| format!("cannot run {}", bin.display()))?;
    if !done.status.success() {
        bail!("lcmem {args:?} failed: {}", String::from_utf8_lossy(&done.stderr));
    }
    Ok(String::from_utf8_lossy(&done.stdout).into_owned())
}

/// The texts, seconds and turns of `lcmem index rebuild`'s embedding line:
/// "embedded N text(s) in S s (R a second); the semantic lane covers T turn(s)".
fn embedded(said: &str) -> anyhow::Result<(usize, f64, usize)> {
    let line =
        said.lines().find(|l| l.starts_with("embedded ")).with_context(|| format!("no embedding in {said:?}"))?;
    let words: Vec<&str> = line.split_whitespace().collect();
    let number = |at: usize| words.get(at).map(|w| w.trim_matches(|c: char| !c.is_ascii_digit() && c != '.'));
    let texts = number(1).and_then(|n| n.parse().ok()).context("no text count")?;
    let seconds = number(4).and_then(|n| n.parse().ok()).context("no seconds")?;
    let turns = words.iter().rev().nth(1).and_then(|n| n.parse().ok()).context("no turn count")?;
    Ok((texts, seconds, turns))
}

pub fn run(file: &Path, options: &Options) -> anyhow::Result<String> {
    let raw = std::fs::read_to_string(file).with_context(|| format!("cannot read {}", file.display()))?;
    let data: Vec<Value> =
        serde_json::from_str(&raw).with_context(|| format!("{} is not a JSON list", file.display()))?;
    let bin = match &options.lcmem {
        Some(b) => b.clone(),
        None => std::env::current_exe()?.with_file_name("lcmem"),
    };
    let model = options.model.display().to_string();
    let mut out = String::new();
    // One query's embedding, in this process.
    let encoder = Encoder::load(&options.model)?;
    let asks: Vec<Duration> = (0..20)
        .map(|_| {
            let started = Instant::now();
            encoder.encode(&["what did we decide about the release branch?"]).map(|_| started.elapsed())
        })
        .collect::<Result<_, _>>()?;
    writeln!(out, "one query's embedding (median of 20): {:.1} ms", median(asks).as_secs_f64() * 1e3)?;
    let (mut texts, mut seconds, mut turns) = (0usize, 0f64, 0usize);
    let mut last: Option<(tempfile::TempDir, Store)> = None;
    for conversation in &data {
        let id = conversation["sample_id"].as_str().unwrap_or_default();
        if !options.conversations.is_empty() && !options.conversations.iter().any(|c| c == id) {
            continue;
        }
        let dir = tempfile::tempdir()?;
        let project = dir.path().join("project");
        std::fs::create_dir_all(&project)?;
        let store = Store::open(&dir.path().join("home"), &project)?;
        let (files, _) = crate::locomo::sessions(&conversation["conversation"])?;
        for (id, bytes) in files {
            store.import_bytes(Path::new(&format!("{id}.jsonl")), bytes)?;
        }
        lcmem::recall::refresh_index(&store, &mut Quiet)?;
        lcmem(&bin, &store, &["config", "set", "recall.model", &model])?;
        // As a user builds it: `lcmem index rebuild`, model load included.
        let (n, s, t) = embedded(&lcmem(&bin, &store, &["index", "rebuild"])?)?;
        writeln!(out, "{id}: {n} texts ({t} turns) in {s:.1} s: {:.1} texts/s", n as f64 / s)?;
        (texts, seconds, turns) = (texts + n, seconds + s, turns + t);
        last = Some((dir, store));
    }
    if texts == 0 {
        bail!("no conversation embedded: check --conversations");
    }
    writeln!(out, "all: {texts} texts ({turns} turns) in {seconds:.1} s: {:.1} texts/s", texts as f64 / seconds)?;
    // A fresh `lcmem recall` on the last store, with and without the model.
    if let Some((_dir, store)) = &last {
        let run = |model: &str| -> anyhow::Result<Duration> {
            lcmem(&bin, store, &["config", "set", "recall.model", model])?;
            let mut times = Vec::new();
            for _ in 0..21 {
                let started = Instant::now();
                lcmem(&bin, store, &["recall", "--json", "--", "what did they adopt from the shelter"])?;
                times.push(started.elapsed());
            }
            Ok(median(times))
        };
        let with = run(&model)?;
        let without = run("")?;
        writeln!(
            out,
            "fresh `lcmem recall` (median of 21): {:.1} ms with the model, {:.1} ms without",
            with.as_secs_f64() * 1e3,
            without.as_secs_f64() * 1e3
        )?;
    }
    Ok(out)
}
