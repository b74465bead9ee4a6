//! `lcmem-bench`: the commands that print lcmem's measured figures.
//!
//! These are measuring tools, not product features: they read corpora and
//! data sets that live outside the repository (see `docs/benchmarks.md`).

#![forbid(unsafe_code)]

mod across;
mod embed;
mod injection_corpus;
mod locomo;
mod seal_all;
mod secrets_corpus;
mod speed;
mod synth;
mod vocab;

use std::path::PathBuf;

use anyhow::{Context, bail};
use clap::{Parser, Subcommand};

#[derive(Parser)]
#[command(name = "lcmem-bench", about = "Print lcmem's measured figures")]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

// Parsed once per run: the size of the largest variant costs nothing.
#[allow(clippy::large_enum_variant)]
#[derive(Subcommand)]
enum Command {
    /// Run the guard or the redactor over a labelled corpus file and print
    /// the figures by tier and family. The corpus kind is detected from its
    /// labels: `redact|keep` cases measure the redactor, `instruction|benign`
    /// cases measure the guard.
    Corpus {
        /// A JSON array of labelled cases.
        file: PathBuf,
        /// Print the figures as JSON.
        #[arg(long)]
        json: bool,
        /// List every case that missed its label.
        #[arg(long)]
        misses: bool,
    },
    /// Recall quality on LoCoMo-format conversations: session hit@1/5/10 and
    /// turn recall@5/10/25, overall and per question category.
    Locomo {
        /// A JSON list of LoCoMo conversations.
        file: PathBuf,
        /// Print the figures as JSON.
        #[arg(long)]
        json: bool,
        /// List (on stderr) each question whose evidence is not all in the top 10.
        #[arg(long)]
        misses: bool,
        /// Only these conversations (their `sample_id`s, comma-separated).
        #[arg(long, value_delimiter = ',')]
        conversations: Vec<String>,
        /// Pass double quotes in questions through as phrase syntax instead
        /// of reading them as the title marks of natural language.
        #[arg(long)]
        quotes_as_phrases: bool,
        /// Turn the semantic lane on with the embedding model in this folder.
        #[arg(long)]
        model: Option<PathBuf>,
        /// With --model: fusion settings to compare in one run, each K/WEIGHT/DEPTH
        /// (K: `blend` for the blend of scores, or a reciprocal-rank constant; the
        /// semantic weight; units per lane), comma-separated, e.g. blend/0.2/100,60/0.25/100.
        #[arg(long, value_delimiter = ',')]
        fusion: Vec<String>,
        #[command(flatten)]
        tuning: TuningArgs,
    },
    /// Write a synthetic project of realistic coding sessions into OUT
    /// (a store under OUT/home for the project OUT/project).
    Synth {
        /// How many sessions.
        #[arg(long, default_value_t = 10_000)]
        sessions: usize,
        /// Where to write (not inside the repository).
        #[arg(long)]
        out: PathBuf,
        /// The generator's seed: the same seed writes the same bytes.
        #[arg(long, default_value_t = 42)]
        seed: u64,
        /// Mean session size in bytes (10,000 sessions of 100 kB make 1 GB).
        #[arg(long, default_value_t = 100_000)]
        mean_bytes: usize,
    },
    /// Measure index build time, recall latency (warm and fresh process),
    /// peak memory and `rg -i -c` over a project written by `synth`.
    Speed {
        /// The folder `synth --out` wrote.
        dir: PathBuf,
        /// Queries for the warm, in-process figures.
        #[arg(long, default_value_t = 500)]
        queries: usize,
        /// Queries run as a fresh `lcmem recall` process.
        #[arg(long, default_value_t = 30)]
        fresh: usize,
        /// Queries run through rg.
        #[arg(long, default_value_t = 20)]
        rg: usize,
        /// The lcmem binary (default: beside lcmem-bench).
        #[arg(long)]
        lcmem: Option<PathBuf>,
        /// Use the index as it is instead of rebuilding it first.
        #[arg(long)]
        skip_build: bool,
        /// Turn the semantic lane on for the warm figures, with the embedding model in this folder:
        /// every turn without a vector is embedded first, into the store's cache, as `lcmem index
        /// rebuild` does (its time gives the embedding throughput). Fresh processes stay lexical.
        #[arg(long)]
        model: Option<PathBuf>,
        /// Prune the warm figures' first stage, picking this many turns (default: as the engine
        /// does, which prunes one-off processes only; 0: never pruned). Fresh processes keep the
        /// engine's.
        #[arg(long)]
        prune_head: Option<usize>,
    },
    /// Recall across every project under HOME, warm, as the MCP server answers
    /// `"projects": ["all"]` (turns recall.cross_project on in the first project).
    Across {
        /// A store root holding several projects (`sessions/<slug>/`).
        home: PathBuf,
        /// How many queries to time.
        #[arg(long, default_value_t = 200)]
        queries: usize,
    },
    /// Embedding throughput on the turns of LoCoMo-format conversations (each
    /// embedded as `lcmem index rebuild` does), the model's load time, one
    /// query's embedding, and a fresh `lcmem recall` with and without the model.
    Embed {
        /// A JSON list of LoCoMo conversations.
        file: PathBuf,
        /// The embedding model folder.
        #[arg(long)]
        model: PathBuf,
        /// Only these conversations (their `sample_id`s, comma-separated).
        #[arg(long, value_delimiter = ',')]
        conversations: Vec<String>,
        /// The lcmem binary (default: beside lcmem-bench).
        #[arg(long)]
        lcmem: Option<PathBuf>,
    },
    /// Time `lcmem seal --all` over a project written by `synth`, in a
    /// scratch copy (hard links) beside it that is removed afterwards.
    SealAll {
        /// The folder `synth --out` wrote.
        dir: PathBuf,
        /// The lcmem binary (default: beside lcmem-bench).
        #[arg(long)]
        lcmem: Option<PathBuf>,
        /// Seal only the first N sessions (then the index is built at the end).
        #[arg(long)]
        sessions: Option<usize>,
        /// Keep the sealed scratch store.
        #[arg(long)]
        keep: bool,
    },
}

/// Ranking constants, to measure what each refinement is worth. Unset ones
/// keep the defaults recall ships with.
#[derive(clap::Args)]
struct TuningArgs {
    #[arg(long)]
    k1: Option<f64>,
    #[arg(long)]
    b: Option<f64>,
    /// Share of the neighbouring turns' scores (0: off).
    #[arg(long)]
    neighbours: Option<f64>,
    /// Share of the session's score (0: off).
    #[arg(long)]
    session: Option<f64>,
    /// BM25+ lower bound of a matched term in the session score (0: plain BM25).
    #[arg(long)]
    session_delta: Option<f64>,
    /// Feedback documents for RM3 (0: off).
    #[arg(long)]
    feedback_docs: Option<usize>,
    #[arg(long)]
    feedback_terms: Option<usize>,
    #[arg(long)]
    feedback_weight: Option<f64>,
    /// How many turns away a neighbour may be.
    #[arg(long)]
    neighbour_reach: Option<u32>,
    /// How much more a unit from a date the query names scores.
    #[arg(long)]
    date: Option<f64>,
    /// Rank by BM25 alone, not scaled by the share of the query's words a unit holds.
    #[arg(long)]
    no_coordination: bool,
    /// Indexed turns from which the words feedback lends only re-rank the turns the question's own
    /// words find (0: on any store)
    #[arg(long)]
    lent_rerank_turns: Option<u64>,
    /// Indexed turns from which a word in more than one turn in 20 is common and only scores the
    /// turns the rarer words find (0: on any store)
    #[arg(long)]
    common_min_turns: Option<u64>,
    /// Indexed turns from which the first pass is pruned: a top-k search picks the head and only
    /// its sessions are ranked (0: on any store)
    #[arg(long)]
    prune_min_turns: Option<u64>,
    /// How many turns the pruned first stage picks (0: never pruned)
    #[arg(long)]
    prune_head: Option<usize>,
    /// How many of the first page's last places go to sessions not yet on it (0: none)
    #[arg(long)]
    page_fresh: Option<usize>,
    /// The share of a displaced hit's score a hit of a fresh session needs to take its place
    #[arg(long)]
    page_share: Option<f64>,
    /// With --model: how much the semantic lane's similarity weighs against the lexical score
    #[arg(long)]
    semantic_weight: Option<f64>,
    /// With --model: how many units of each lane take part in the fusion
    #[arg(long)]
    fusion_depth: Option<usize>,
}

impl TuningArgs {
    fn tuning(&self) -> lcmem::recall::Tuning {
        let mut t = lcmem::recall::Tuning::default();
        let set = |slot: &mut f64, v: Option<f64>| {
            if let Some(v) = v {
                *slot = v;
            }
        };
        set(&mut t.k1, self.k1);
        set(&mut t.b, self.b);
        set(&mut t.neighbours, self.neighbours);
        set(&mut t.session, self.session);
        set(&mut t.session_delta, self.session_delta);
        set(&mut t.feedback_weight, self.feedback_weight);
        set(&mut t.date, self.date);
        set(&mut t.page_share, self.page_share);
        set(&mut t.semantic_weight, self.semantic_weight);
        if let Some(v) = self.fusion_depth {
            t.fusion_depth = v;
        }
        if let Some(v) = self.page_fresh {
            t.page_fresh = v;
        }
        if let Some(v) = self.neighbour_reach {
            t.neighbour_reach = v;
        }
        if let Some(v) = self.feedback_docs {
            t.feedback_docs = v;
        }
        if let Some(v) = self.feedback_terms {
            t.feedback_terms = v;
        }
        if self.no_coordination {
            t.coordination = false;
        }
        if let Some(v) = self.lent_rerank_turns {
            t.lent_rerank_turns = v;
        }
        if let Some(v) = self.common_min_turns {
            t.common_min_turns = v;
        }
        if let Some(v) = self.prune_min_turns {
            t.prune_min_turns = v;
        }
        if let Some(v) = self.prune_head {
            t.prune_head = v;
        }
        t
    }
}

fn main() -> anyhow::Result<()> {
    let cli = Cli::parse();
    match cli.command {
        Command::Corpus { file, json, misses } => {
            let raw =
                std::fs::read_to_string(&file).with_context(|| format!("cannot read corpus {}", file.display()))?;
            let cases: Vec<serde_json::Value> = serde_json::from_str(&raw)
                .with_context(|| format!("{} is not a JSON array of cases", file.display()))?;
            let expect = cases.first().and_then(|c| c.get("expect")).and_then(|e| e.as_str()).unwrap_or("");
            let report = match expect {
                "redact" | "keep" => secrets_corpus::report(&cases, json, misses)?,
                "instruction" | "benign" => injection_corpus::report(&cases, json, misses)?,
                other => bail!(
                    "{}: unknown corpus kind (first case expects {other:?}); \
                     expected redact|keep or instruction|benign",
                    file.display()
                ),
            };
            print!("{report}");
        }
        Command::Locomo { file, json, misses, conversations, quotes_as_phrases, model, fusion, tuning } => {
            let options = locomo::Options {
                tuning: tuning.tuning(),
                model,
                fusion,
                json,
                misses,
                conversations,
                quotes_as_phrases,
            };
            print!("{}", locomo::run(&file, &options)?)
        }
        Command::Embed { file, model, conversations, lcmem } => {
            print!("{}", embed::run(&file, &embed::Options { model, conversations, lcmem })?)
        }
        Command::Across { home, queries } => print!("{}", across::run(&home, queries)?),
        Command::Synth { sessions, out, seed, mean_bytes } => {
            print!("{}", synth::run(sessions, &out, seed, mean_bytes)?)
        }
        Command::SealAll { dir, lcmem, sessions, keep } => {
            print!("{}", seal_all::run(&dir, seal_all::Options { lcmem, sessions, keep })?)
        }
        Command::Speed { dir, queries, fresh, rg, lcmem, skip_build, model, prune_head } => {
            let options = speed::Options { queries, fresh, rg, lcmem, skip_build, model, prune_head };
            print!("{}", speed::run(&dir, options)?)
        }
    }
    Ok(())
}
