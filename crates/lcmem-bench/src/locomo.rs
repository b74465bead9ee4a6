//! `lcmem-bench locomo FILE`: recall quality on LoCoMo-format conversations.
//!
//! Each conversation becomes one temporary store; each of its `session_N`
//! becomes one v1 session file (message `id` = the turn's `dia_id`,
//! `created_at` = the session's date, an image turn's caption appended to its
//! text), imported with the real import path. Every question with evidence is
//! then asked through the real recall (turn hits only), and the figures are
//! the ones the LoCoMo evaluation uses: session hit@k (is a session holding an
//! evidence turn among the top k sessions, ranked by their best hit) and turn
//! recall@k (the share of evidence turns among the top k turn hits).
//!
//! The data set is licensed for non-commercial use and lives outside the
//! repository; nothing of it is copied here.

use std::collections::{BTreeMap, HashSet};
use std::fmt::Write as _;
use std::path::Path;

use anyhow::{Context, bail};
use jiff::Timestamp;
use lcmem::Store;
use lcmem::recall::{Fusion, HitKind, ModelChoice, Query, Quiet, Searcher, Tuning};
use serde_json::{Value, json};

const SESSION_KS: [usize; 3] = [1, 5, 10];
const TURN_KS: [usize; 3] = [5, 10, 25];

fn category_name(c: u64) -> &'static str {
    match c {
        1 => "multi-hop",
        2 => "temporal",
        3 => "open-domain",
        4 => "single-hop",
        5 => "adversarial",
        _ => "other",
    }
}

/// Sums of the per-question figures of one group of questions.
#[derive(Default, Clone)]
struct Tally {
    questions: usize,
    session_hits: [f64; 3],
    turn_recall: [f64; 3],
    /// Questions whose evidence lies in two sessions or more.
    spanning: usize,
    /// Of those, the ones with every evidence session among the sessions
    /// of the first page (the first [`PAGE`] hits).
    spanning_on_page: usize,
}

/// The hits of a first page, as a front-end shows them.
const PAGE: usize = 10;

impl Tally {
    fn add(&mut self, other: &Tally) {
        self.questions += other.questions;
        self.spanning += other.spanning;
        self.spanning_on_page += other.spanning_on_page;
        for i in 0..3 {
            self.session_hits[i] += other.session_hits[i];
            self.turn_recall[i] += other.turn_recall[i];
        }
    }
    fn mean(&self, sum: f64) -> f64 {
        if self.questions == 0 { 0.0 } else { sum / self.questions as f64 }
    }
    fn row(&self, name: &str) -> String {
        let mut row = format!("| {name} | {} |", self.questions);
        for s in self.session_hits {
            write!(row, " {:.3} |", self.mean(s)).unwrap();
        }
        for s in self.turn_recall {
            write!(row, " {:.3} |", self.mean(s)).unwrap();
        }
        row
    }
    fn json(&self) -> Value {
        json!({
            "questions": self.questions,
            "session_hit": {"1": self.mean(self.session_hits[0]), "5": self.mean(self.session_hits[1]), "10": self.mean(self.session_hits[2])},
            "turn_recall": {"5": self.mean(self.turn_recall[0]), "10": self.mean(self.turn_recall[1]), "25": self.mean(self.turn_recall[2])},
            "spanning": {"questions": self.spanning, "every_session_on_first_page": self.spanning_on_page},
        })
    }
}

/// `"1:56 pm on 8 May, 2023"` as a UTC time.
fn parse_date(s: &str) -> anyhow::Result<Timestamp> {
    let dt = jiff::civil::DateTime::strptime("%I:%M %p on %d %B, %Y", s.trim())
        .with_context(|| format!("unreadable session date {s:?}"))?;
    Ok(jiff::tz::TimeZone::UTC.to_timestamp(dt)?)
}

/// `D30:05` → `D30:5`: the evidence lists pad some turn numbers.
fn normalise_id(id: &str) -> String {
    match id.split_once(':') {
        Some((d, n)) => format!("{d}:{}", n.trim_start_matches('0')),
        None => id.to_string(),
    }
}

/// Session files `(id, bytes)` and every turn id of one conversation.
pub(crate) type Converted = (Vec<(String, Vec<u8>)>, HashSet<String>);

/// One conversation as v1 session files: `(id, bytes)` per session, and
/// every turn id.
pub(crate) fn sessions(conversation: &Value) -> anyhow::Result<Converted> {
    let a = conversation["speaker_a"].as_str().unwrap_or_default();
    let mut numbers: Vec<u64> = conversation
        .as_object()
        .context("conversation is not an object")?
        .keys()
        .filter_map(|k| k.strip_prefix("session_")?.parse().ok())
        .collect();
    numbers.sort_unstable();
    let mut out = Vec::new();
    let mut ids = HashSet::new();
    for n in numbers {
        let Some(turns) = conversation[format!("session_{n}")].as_array() else { continue };
        let date = conversation[format!("session_{n}_date_time")].as_str().context("session without a date")?;
        let created = parse_date(date)?;
        let id = format!("session_{n}");
        let header =
            json!({"type": "session", "v": 1, "id": id, "title": format!("Session {n}"), "created_at": created});
        let mut text = header.to_string();
        text.push('\n');
        for (i, turn) in turns.iter().enumerate() {
            let speaker = turn["speaker"].as_str().unwrap_or_default();
            let dia = normalise_id(turn["dia_id"].as_str().unwrap_or_default());
            let mut said = format!("{speaker}: {}", turn["text"].as_str().unwrap_or_default());
            if let Some(caption) = turn["blip_caption"].as_str() {
                write!(said, " [image: {caption}]").unwrap();
            }
            let role = if speaker == a { "user" } else { "assistant" };
            let ts = created.checked_add(jiff::SignedDuration::from_secs(i as i64))?;
            let line = json!({"type": "message", "role": role, "text": said, "ts": ts, "id": dia});
            text.push_str(&line.to_string());
            text.push('\n');
            ids.insert(dia);
        }
        out.push((id, text.into_bytes()));
    }
    Ok((out, ids))
}

/// How to run the benchmark.
pub struct Options {
    pub tuning: Tuning,
    /// The embedding model for the semantic lane (none: lexical).
    pub model: Option<std::path::PathBuf>,
    /// Fusion settings to compare, each `K/WEIGHT/DEPTH` (reciprocal-rank
    /// constant, semantic weight, units per lane) on top of `tuning`; none:
    /// `tuning` alone.
    pub fusion: Vec<String>,
    /// Report as JSON.
    pub json: bool,
    /// List the questions whose evidence is not all in the top 10.
    pub misses: bool,
    /// Only these conversations (all if empty).
    pub conversations: Vec<String>,
    /// Keep double quotes as lcmem phrase syntax. A LoCoMo question is
    /// natural language, where quotes mark a title ("the book "Charlotte's
    /// Web""), so by default they are removed and the words asked loose.
    pub quotes_as_phrases: bool,
}

/// Runs the benchmark; returns the report to print.
pub fn run(file: &Path, options: &Options) -> anyhow::Result<String> {
    let raw = std::fs::read_to_string(file).with_context(|| format!("cannot read {}", file.display()))?;
    let mut data: Vec<Value> = serde_json::from_str(&raw)
        .with_context(|| format!("{} is not a JSON list of conversations", file.display()))?;
    if !options.conversations.is_empty() {
        data.retain(|c| c["sample_id"].as_str().is_some_and(|id| options.conversations.iter().any(|w| w == id)));
    }
    if data.is_empty() {
        bail!("{}: no conversations", file.display());
    }
    let mut variants: Vec<(String, Tuning)> = Vec::new();
    for v in &options.fusion {
        let parts: Vec<&str> = v.split('/').collect();
        let [k, w, depth] = parts.as_slice() else {
            bail!("--fusion {v:?}: expected K/WEIGHT/DEPTH, e.g. blend/0.2/100 or 60/1/100")
        };
        let mut t = options.tuning.clone();
        t.fusion = if *k == "blend" {
            Fusion::Blend
        } else {
            Fusion::Ranks(k.parse().with_context(|| format!("--fusion {v:?}: K is neither blend nor a number"))?)
        };
        t.semantic_weight = w.parse().with_context(|| format!("--fusion {v:?}: WEIGHT is not a number"))?;
        t.fusion_depth = depth.parse().with_context(|| format!("--fusion {v:?}: DEPTH is not a whole number"))?;
        variants.push((v.clone(), t));
    }
    if variants.is_empty() {
        variants.push((String::new(), options.tuning.clone()));
    }
    let mut by_variant: Vec<BTreeMap<u64, Tally>> = vec![BTreeMap::new(); variants.len()];
    let mut skipped = 0;
    let started = std::time::Instant::now();
    for conversation in &data {
        let dir = tempfile::tempdir()?;
        let project = dir.path().join("project");
        std::fs::create_dir_all(&project)?;
        let store = Store::open(&dir.path().join("home"), &project)?;
        let (files, turn_ids) = sessions(&conversation["conversation"])?;
        for (id, bytes) in files {
            store.import_bytes(Path::new(&format!("{id}.jsonl")), bytes)?;
        }
        lcmem::recall::refresh_index(&store, &mut Quiet)?;
        let model = match &options.model {
            Some(dir) => {
                lcmem::recall::semantic::embed_with(&store, dir, &mut Quiet)?;
                ModelChoice::Given(dir.clone())
            }
            None => ModelChoice::Off,
        };
        let mut searchers: Vec<Searcher> =
            variants.iter().map(|_| Searcher::new(store.clone()).with_model(model.clone())).collect();
        for qa in conversation["qa"].as_array().context("qa is not a list")? {
            for (v, ((_, tuning), searcher)) in variants.iter().zip(searchers.iter_mut()).enumerate() {
                let evidence: Vec<String> = qa["evidence"]
                    .as_array()
                    .map(|e| e.iter().filter_map(Value::as_str).collect::<Vec<_>>())
                    .unwrap_or_default()
                    .iter()
                    .flat_map(|s| s.split(|c: char| c == ';' || c.is_whitespace()))
                    .filter(|s| !s.is_empty())
                    .map(normalise_id)
                    .filter(|id| turn_ids.contains(id))
                    .collect::<std::collections::BTreeSet<_>>()
                    .into_iter()
                    .collect();
                if evidence.is_empty() {
                    skipped += 1;
                    continue;
                }
                let question = qa["question"].as_str().unwrap_or_default();
                let mut query = Query::new(if options.quotes_as_phrases {
                    question.to_string()
                } else {
                    question.replace('"', " ")
                });
                query.limit = 1000;
                query.kinds = vec![HitKind::Turn];
                query.tuning = tuning.clone();
                let answer = searcher.search(&query, &mut Quiet)?;
                if let Some(d) = answer.diagnostics.first() {
                    bail!("{}: {}", d.path.display(), d.message);
                }
                let turns: Vec<String> = answer.hits.iter().filter_map(|h| h.message_id.clone()).collect();
                let mut sessions: Vec<String> = Vec::new();
                for h in &answer.hits {
                    if !sessions.contains(&h.session) {
                        sessions.push(h.session.clone());
                    }
                }
                let evidence_sessions: HashSet<String> = evidence
                    .iter()
                    .map(|e| format!("session_{}", e.trim_start_matches('D').split(':').next().unwrap_or("")))
                    .collect();
                let mut tally = Tally { questions: 1, ..Tally::default() };
                if evidence_sessions.len() > 1 {
                    let page: HashSet<&String> = answer.hits.iter().take(PAGE).map(|h| &h.session).collect();
                    tally.spanning = 1;
                    tally.spanning_on_page = usize::from(evidence_sessions.iter().all(|s| page.contains(s)));
                }
                for (i, k) in SESSION_KS.iter().enumerate() {
                    tally.session_hits[i] = f64::from(sessions.iter().take(*k).any(|s| evidence_sessions.contains(s)));
                }
                for (i, k) in TURN_KS.iter().enumerate() {
                    let found = evidence.iter().filter(|e| turns.iter().take(*k).any(|t| t == *e)).count();
                    tally.turn_recall[i] = found as f64 / evidence.len() as f64;
                }
                if options.misses && v == 0 && (tally.turn_recall[1] < 1.0 || tally.session_hits[1] < 1.0) {
                    let ranks: Vec<String> = evidence
                        .iter()
                        .map(|e| turns.iter().position(|t| t == e).map_or("-".to_string(), |r| (r + 1).to_string()))
                        .collect();
                    eprintln!(
                        "MISS {question}\n  evidence {evidence:?} at ranks {ranks:?}\n  top {:?}\n  sessions {:?}",
                        &turns[..turns.len().min(10)],
                        &sessions[..sessions.len().min(5)]
                    );
                }
                by_variant[v].entry(qa["category"].as_u64().unwrap_or(0)).or_default().add(&tally);
            }
        }
    }
    let mut out = String::new();
    for ((name, _), by_category) in variants.iter().zip(&by_variant) {
        if !name.is_empty() {
            writeln!(out, "fusion {name} (K/WEIGHT/DEPTH):")?;
        }
        out.push_str(&report(&data, by_category, skipped / variants.len(), started, options)?);
    }
    Ok(out)
}

fn report(
    data: &[Value],
    by_category: &BTreeMap<u64, Tally>,
    skipped: usize,
    started: std::time::Instant,
    options: &Options,
) -> anyhow::Result<String> {
    let mut overall = Tally::default();
    for t in by_category.values() {
        overall.add(t);
    }
    let elapsed = started.elapsed().as_secs_f64();
    if options.json {
        let categories: serde_json::Map<String, Value> =
            by_category.iter().map(|(c, t)| (category_name(*c).to_string(), t.json())).collect();
        let report = json!({"overall": overall.json(), "categories": categories, "skipped_no_evidence": skipped, "seconds": elapsed});
        return Ok(format!("{}\n", serde_json::to_string_pretty(&report)?));
    }
    let mut out = String::new();
    writeln!(
        out,
        "LoCoMo recall: {} conversation(s), {} question(s) with evidence ({skipped} without, skipped), {elapsed:.1} s",
        data.len(),
        overall.questions
    )?;
    writeln!(out)?;
    writeln!(out, "| questions | n | session hit@1 | hit@5 | hit@10 | turn recall@5 | recall@10 | recall@25 |")?;
    writeln!(out, "| --- | --- | --- | --- | --- | --- | --- | --- |")?;
    writeln!(out, "{}", overall.row("all"))?;
    for (c, t) in by_category {
        writeln!(out, "{}", t.row(&format!("{c} {}", category_name(*c))))?;
    }
    if overall.spanning > 0 {
        writeln!(out)?;
        writeln!(
            out,
            "Evidence in two sessions or more: {} question(s); every evidence session on the first page ({PAGE} hits): {} ({:.3})",
            overall.spanning,
            overall.spanning_on_page,
            overall.spanning_on_page as f64 / overall.spanning as f64
        )?;
    }
    Ok(out)
}
