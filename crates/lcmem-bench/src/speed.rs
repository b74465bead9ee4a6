//! `lcmem-bench speed DIR`: how fast recall is on a large project (one made
//! by `lcmem-bench synth`), against `rg -i -c` over the same files.
//!
//! Prints: index build time (from nothing), recall latency p50/p99 warm and
//! in-process over a fixed set of queries, the same as a fresh `lcmem recall`
//! process per query, peak memory of building and of answering (VmHWM; the
//! answering is measured in a process of its own that only answers), and the
//! time of `rg -i -c` over the session files for the same queries. Nothing is asserted: the
//! figures go into `docs/benchmarks.md`.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

use anyhow::{Context, bail};
use lcmem::Store;
use lcmem::recall::{ModelChoice, Progress, Query, Quiet, Searcher};

use crate::synth;
use crate::vocab::{self, Rng};

/// The query set: what someone would ask of a coding project's memory. Fixed
/// by the seed, drawn from the generator's own vocabulary.
pub fn queries(count: usize, seed: u64) -> Vec<String> {
    let mut rng = Rng::new(seed ^ 0x5EED);
    (0..count)
        .map(|i| match i % 5 {
            0 => format!("{} {}", vocab::project_name(&mut rng), rng.pick(vocab::NOUNS)),
            1 => format!("{} {} {}", rng.pick(vocab::VERBS), rng.pick(vocab::ADJECTIVES), rng.pick(vocab::NOUNS)),
            2 => vocab::identifier(&mut rng),
            3 => format!("\"{} {}\"", rng.pick(vocab::ADJECTIVES), rng.pick(vocab::NOUNS)),
            _ => format!(
                "why was the {} {} {}",
                vocab::project_name(&mut rng),
                rng.pick(vocab::NOUNS),
                rng.pick(vocab::ADJECTIVES)
            ),
        })
        .collect()
}

fn percentile(sorted: &[Duration], p: f64) -> Duration {
    if sorted.is_empty() {
        return Duration::ZERO;
    }
    let i = ((sorted.len() as f64 - 1.0) * p).round() as usize;
    sorted[i.min(sorted.len() - 1)]
}

fn ms(d: Duration) -> String {
    format!("{:.2} ms", d.as_secs_f64() * 1e3)
}

/// Peak resident memory of this process so far, in MB.
fn peak_mb() -> Option<f64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    let kb: f64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb / 1024.0)
}

/// What the resident memory consists of now, largest first: the index
/// files mapped in by kind (`.idx` postings, `.pos` positions, `.term`
/// dictionary, `.fast` fields…), and the heap and other anonymous memory.
fn resident_breakdown() -> Option<String> {
    let smaps = std::fs::read_to_string("/proc/self/smaps").ok()?;
    let mut by_kind: std::collections::BTreeMap<String, u64> = std::collections::BTreeMap::new();
    let mut kind = String::new();
    for line in smaps.lines() {
        let mut words = line.split_whitespace();
        let first = words.next().unwrap_or_default();
        if first.contains('-') && first.chars().all(|c| c.is_ascii_hexdigit() || c == '-') {
            let path = line.split_whitespace().nth(5).unwrap_or("");
            kind = match Path::new(path).extension().and_then(|e| e.to_str()) {
                Some(ext) if path.contains("recall-") => format!("index .{ext}"),
                _ if path.is_empty() || path.starts_with('[') => "heap and anonymous".to_string(),
                _ => "program and libraries".to_string(),
            };
        } else if first == "Rss:" {
            let kb: u64 = words.next().and_then(|w| w.parse().ok()).unwrap_or(0);
            *by_kind.entry(kind.clone()).or_default() += kb;
        }
    }
    let mut parts: Vec<(String, u64)> = by_kind.into_iter().filter(|(_, kb)| *kb >= 1024).collect();
    parts.sort_by_key(|p| std::cmp::Reverse(p.1));
    Some(parts.iter().map(|(k, kb)| format!("{k} {:.0} MB", *kb as f64 / 1024.0)).collect::<Vec<_>>().join(", "))
}

/// Starts a new peak-memory window (Linux: writing 5 to clear_refs resets VmHWM).
fn reset_peak() {
    let _ = std::fs::write("/proc/self/clear_refs", "5");
}

/// Prints build progress as plain lines: the bench output goes to logs.
struct Lines {
    total: u64,
    done: u64,
    next: u64,
}

impl Progress for Lines {
    fn start(&mut self, what: &str, total: u64) {
        eprintln!("{what}: {:.0} MB", total as f64 / 1e6);
        self.total = total;
    }
    fn advance(&mut self, units: u64) {
        self.done += units;
        if self.done >= self.next {
            eprintln!("  {:.0}%", self.done as f64 * 100.0 / self.total.max(1) as f64);
            self.next += self.total / 10 + 1;
        }
    }
}

fn lcmem_binary(given: Option<PathBuf>) -> Option<PathBuf> {
    given.or_else(|| {
        let me = std::env::current_exe().ok()?;
        let sibling = me.with_file_name("lcmem");
        sibling.is_file().then_some(sibling)
    })
}

pub struct Options {
    pub queries: usize,
    pub fresh: usize,
    pub rg: usize,
    pub lcmem: Option<PathBuf>,
    pub skip_build: bool,
    /// The embedding model for the semantic lane (warm figures only).
    pub model: Option<PathBuf>,
    /// The pruned first stage's head for the warm figures (default: the
    /// engine's); fresh processes keep the engine's.
    pub prune_head: Option<usize>,
}

pub fn run(dir: &Path, options: Options) -> anyhow::Result<String> {
    let (home, project) = synth::store_paths(dir);
    if !project.is_dir() {
        bail!("{} holds no synthetic project: run `lcmem-bench synth --out {}` first", dir.display(), dir.display());
    }
    let store = Store::open(&home, &project)?;
    let files = store.session_ids()?;
    let bytes: u64 =
        files.iter().filter_map(|id| std::fs::metadata(store.session_path(id)).ok()).map(|m| m.len()).sum();
    let mut out = String::new();
    writeln!(out, "corpus: {} sessions, {:.1} MB in {}", files.len(), bytes as f64 / 1e6, store.dir().display())?;

    if !options.skip_build {
        reset_peak();
        let started = Instant::now();
        let report = lcmem::recall::rebuild_index(&store, &mut Lines { total: 0, done: 0, next: 0 })?;
        let took = started.elapsed();
        let index_bytes = dir_size(&lcmem::recall::index_dir(&store));
        writeln!(
            out,
            "index build: {:.1} s for {} turns ({:.0} MB/s), index {:.0} MB, peak memory {:.0} MB",
            took.as_secs_f64(),
            report.turns,
            bytes as f64 / 1e6 / took.as_secs_f64(),
            index_bytes as f64 / 1e6,
            peak_mb().unwrap_or(0.0)
        )?;
        // The answering is measured in a process of its own: this one's heap
        // still holds what the build left with the allocator, which says
        // nothing about a process that only answers.
        let me = std::env::current_exe().context("cannot find lcmem-bench itself")?;
        let mut rest = Command::new(me);
        rest.arg("speed").arg(dir).arg("--skip-build").arg("--queries").arg(options.queries.to_string());
        rest.arg("--fresh").arg(options.fresh.to_string()).arg("--rg").arg(options.rg.to_string());
        if let Some(lcmem) = &options.lcmem {
            rest.arg("--lcmem").arg(lcmem);
        }
        if let Some(model) = &options.model {
            rest.arg("--model").arg(model);
        }
        let answered = rest.output().context("cannot run lcmem-bench for the query figures")?;
        if !answered.status.success() {
            bail!("the query figures failed: {}", String::from_utf8_lossy(&answered.stderr));
        }
        let text = String::from_utf8_lossy(&answered.stdout);
        // Its first line names the corpus again.
        out.push_str(text.split_once('\n').map_or("", |(_, rest)| rest));
        return Ok(out);
    }

    let qs = queries(options.queries, 42);
    reset_peak();
    let mut searcher = Searcher::new(store.clone()).read_only().long_lived();
    if let Some(model) = &options.model {
        searcher = searcher.with_model(ModelChoice::Given(model.clone()));
        let report = lcmem::recall::semantic::embed_with(&store, model, &mut Quiet)?;
        writeln!(
            out,
            "semantic lane: embedded {} texts in {:.1} s ({:.1} texts/s, model load included); {} turns covered",
            report.embedded,
            report.seconds,
            report.rate(),
            report.turns
        )?;
        let started = Instant::now();
        let answer = searcher.search(&Query::new(qs.first().map_or("cache", String::as_str)), &mut Quiet)?;
        if let Some(d) = answer.diagnostics.first() {
            bail!("the semantic lane did not open: {}: {}", d.path.display(), d.message);
        }
        writeln!(
            out,
            "semantic lane: the first query (model load included) took {:.3} s",
            started.elapsed().as_secs_f64()
        )?;
    }
    // A warm searcher ranks every candidate unless told to prune
    // (`Tuning::prune_warm`); `--prune-head N` tells it to, with N.
    let head = |t: &mut lcmem::recall::Tuning| {
        if let Some(h) = options.prune_head {
            t.prune_head = h;
            t.prune_warm = true;
        }
    };
    let query = |q: &str| {
        let mut query = Query::new(q);
        head(&mut query.tuning);
        query
    };
    let mut hits = 0usize;
    for q in &qs {
        hits += searcher.search(&query(q), &mut Quiet)?.hits.len();
    }
    let mut warm = Vec::with_capacity(qs.len());
    for q in &qs {
        let started = Instant::now();
        let answer = searcher.search(&query(q), &mut Quiet)?;
        warm.push(started.elapsed());
        if answer.coverage.scanned_sessions > 0 {
            bail!("the index does not cover {} session(s): run without --skip-build", answer.coverage.scanned_sessions);
        }
    }
    warm.sort();
    let query_peak = peak_mb().unwrap_or(0.0);
    let exhaustive = |t: &mut lcmem::recall::Tuning| t.prune_head = 0;
    let pruned = in_turn(
        &mut searcher,
        &qs,
        &|t| {
            head(t);
            t.prune_warm = true;
        },
        &exhaustive,
        "the pruned first stage / every candidate ranked (prune_head 0)",
    )?;
    let whole = in_turn(
        &mut searcher,
        &qs,
        &exhaustive,
        &|t| {
            exhaustive(t);
            t.rerank_depth = 0;
        },
        "without pruning, the feedback pass over the head's sessions / over every session (rerank_depth 0)",
    )?;
    let shaped = in_turn(
        &mut searcher,
        &qs,
        &head,
        &|t| {
            head(t);
            t.intent_lift = 0.0;
        },
        "questions that name their answer's shape lifted / not (intent_lift 0)",
    )?;
    // What keeps an answer exact where no watch does (a fresh process, or a
    // warm one whose watch lost track): one stat per session file.
    let mut listing = Vec::with_capacity(qs.len());
    for _ in &qs {
        let started = Instant::now();
        lcmem::recall::index::list_sessions(&store)?;
        listing.push(started.elapsed());
    }
    listing.sort();
    writeln!(
        out,
        "recall, warm in-process ({} queries, {:.1} hits each): p50 {}, p99 {}, max {}; peak memory {:.0} MB",
        qs.len(),
        hits as f64 / qs.len() as f64,
        ms(percentile(&warm, 0.5)),
        ms(percentile(&warm, 0.99)),
        ms(*warm.last().unwrap_or(&Duration::ZERO)),
        query_peak
    )?;
    if let Some(parts) = resident_breakdown() {
        writeln!(out, "  resident after the queries: {parts}")?;
    }
    writeln!(out, "  {pruned}")?;
    writeln!(out, "  {whole}")?;
    writeln!(out, "  {shaped}")?;
    writeln!(
        out,
        "  a full freshness check (list and stat {} session files; a fresh process pays it, a warm one only when its watch lost track): p50 {}, p99 {}",
        files.len(),
        ms(percentile(&listing, 0.5)),
        ms(percentile(&listing, 0.99))
    )?;

    match lcmem_binary(options.lcmem.clone()) {
        None => writeln!(out, "fresh process: skipped (no lcmem binary beside lcmem-bench; pass --lcmem PATH)")?,
        Some(bin) => {
            let timed = Path::new("/usr/bin/time").is_file();
            let mut times = Vec::new();
            let mut paired_rg = Vec::new();
            let mut peak_kb = 0u64;
            // One untimed run first: the first recall after an index build
            // records that the index lists the session files as they are.
            let _ = Command::new(&bin)
                .arg("--home")
                .arg(&home)
                .arg("--project")
                .arg(&project)
                .args(["recall", "--json", "--", "warm up"])
                .output();
            for q in qs.iter().take(options.fresh) {
                let mut cmd = if timed {
                    let mut c = Command::new("/usr/bin/time");
                    c.args(["-f", "%M"]).arg(&bin);
                    c
                } else {
                    Command::new(&bin)
                };
                cmd.arg("--home").arg(&home).arg("--project").arg(&project).args(["recall", "--json", "--", q]);
                let started = Instant::now();
                let output = cmd.output().with_context(|| format!("cannot run {}", bin.display()))?;
                times.push(started.elapsed());
                if !output.status.success() {
                    bail!("lcmem recall {q:?} failed: {}", String::from_utf8_lossy(&output.stderr));
                }
                if timed {
                    let stderr = String::from_utf8_lossy(&output.stderr);
                    if let Some(kb) = stderr.lines().last().and_then(|l| l.trim().parse::<u64>().ok()) {
                        peak_kb = peak_kb.max(kb);
                    }
                }
                // The scan of the same files for the same words, right after.
                if let Some(took) = rg_time(q, store.dir()) {
                    paired_rg.push(took);
                }
            }
            times.sort();
            paired_rg.sort();
            if !paired_rg.is_empty() {
                let (fresh50, rg50) = (percentile(&times, 0.5), percentile(&paired_rg, 0.5));
                writeln!(
                    out,
                    "paired with each fresh process, rg -i -c over the same files: p50 {}; rg p50 / fresh recall p50 = {:.1}x",
                    ms(rg50),
                    rg50.as_secs_f64() / fresh50.as_secs_f64().max(1e-9)
                )?;
            }
            let mem = if timed { format!("; peak memory {:.0} MB", peak_kb as f64 / 1024.0) } else { String::new() };
            writeln!(
                out,
                "recall, fresh `lcmem recall --json` process ({} queries): p50 {}, p99 {}{mem}",
                times.len(),
                ms(percentile(&times, 0.5)),
                ms(percentile(&times, 0.99))
            )?;
        }
    }

    let rg_ok = Command::new("rg").arg("--version").output().is_ok_and(|o| o.status.success());
    if !rg_ok {
        writeln!(out, "rg: not installed, comparison skipped (apt-get install -y ripgrep)")?;
    } else {
        let mut times = Vec::new();
        for q in qs.iter().take(options.rg) {
            times.push(rg_time(q, store.dir()).context("cannot run rg")?);
        }
        times.sort();
        let rg50 = percentile(&times, 0.5);
        let warm50 = percentile(&warm, 0.5);
        writeln!(
            out,
            "rg -i -c over the same files ({} queries): p50 {}, p99 {}; warm recall p50 is {:.0}x faster",
            times.len(),
            ms(rg50),
            ms(percentile(&times, 0.99)),
            rg50.as_secs_f64() / warm50.as_secs_f64().max(1e-9)
        )?;
    }
    Ok(out)
}

/// The same queries ranked two ways (`base` and `variant` change the default
/// tuning), both timed, query by query in turn, and how many queries get the
/// same hits from both; `what` names the two ways.
fn in_turn(
    searcher: &mut Searcher,
    qs: &[String],
    base: &dyn Fn(&mut lcmem::recall::Tuning),
    variant: &dyn Fn(&mut lcmem::recall::Tuning),
    what: &str,
) -> anyhow::Result<String> {
    let cite = |hits: &[lcmem::recall::Hit]| hits.iter().map(|h| h.citation.clone()).collect::<Vec<_>>();
    let (mut base_times, mut variant_times) = (Vec::new(), Vec::new());
    let (mut same_top, mut same_all, mut shared, mut total) = (0, 0, 0, 0);
    for (i, q) in qs.iter().enumerate() {
        let (mut base_query, mut variant_query) = (Query::new(q.as_str()), Query::new(q.as_str()));
        base(&mut base_query.tuning);
        variant(&mut variant_query.tuning);
        let mut timed = |query: &Query, times: &mut Vec<Duration>| -> anyhow::Result<Vec<String>> {
            let started = Instant::now();
            let hits = cite(&searcher.search(query, &mut Quiet)?.hits);
            times.push(started.elapsed());
            Ok(hits)
        };
        // Which goes first alternates, so neither gains from the other's
        // reading of the index.
        let (one, other) = if i % 2 == 0 {
            let b = timed(&base_query, &mut base_times)?;
            (b, timed(&variant_query, &mut variant_times)?)
        } else {
            let v = timed(&variant_query, &mut variant_times)?;
            (timed(&base_query, &mut base_times)?, v)
        };
        same_top += usize::from(one.first() == other.first());
        same_all += usize::from(one == other);
        shared += other.iter().filter(|c| one.contains(c)).count();
        total += other.len();
    }
    base_times.sort();
    variant_times.sort();
    Ok(format!(
        "{what}, query by query in turn: p50 {} / {}; the same top hit in {same_top} of {} queries, the same ten in {same_all}, {:.1}% of their hits shared",
        ms(percentile(&base_times, 0.5)),
        ms(percentile(&variant_times, 0.5)),
        qs.len(),
        100.0 * shared as f64 / total.max(1) as f64
    ))
}

/// How long `rg -i -c` takes for the words of `query` over `dir`, as a whole
/// process; `None` when rg cannot be run.
fn rg_time(query: &str, dir: &Path) -> Option<Duration> {
    let mut cmd = Command::new("rg");
    cmd.args(["-i", "-c", "--no-messages"]);
    for word in query.split(|c: char| c.is_whitespace() || c == '"').filter(|w| !w.is_empty()) {
        cmd.arg("-e").arg(word);
    }
    cmd.arg(dir);
    let started = Instant::now();
    cmd.output().ok()?;
    Some(started.elapsed())
}

fn dir_size(dir: &Path) -> u64 {
    std::fs::read_dir(dir)
        .map(|entries| {
            entries.flatten().filter_map(|e| e.metadata().ok()).filter(|m| m.is_file()).map(|m| m.len()).sum()
        })
        .unwrap_or(0)
}
