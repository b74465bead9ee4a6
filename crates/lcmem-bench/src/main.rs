//! `lcmem-bench`: the commands that print lcmem's measured figures.
//!
//! These are measuring tools, not product features: they read corpora and
//! data sets that live outside the repository (see `docs/benchmarks.md`).

mod injection_corpus;
mod secrets_corpus;

use std::path::PathBuf;

use anyhow::{Context, bail};
use clap::{Parser, Subcommand};

#[derive(Parser)]
#[command(name = "lcmem-bench", about = "Print lcmem's measured figures")]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

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
}

fn main() -> anyhow::Result<()> {
    let cli = Cli::parse();
    match cli.command {
        Command::Corpus { file, json, misses } => {
            let raw = std::fs::read_to_string(&file)
                .with_context(|| format!("cannot read corpus {}", file.display()))?;
            let cases: Vec<serde_json::Value> = serde_json::from_str(&raw)
                .with_context(|| format!("{} is not a JSON array of cases", file.display()))?;
            let expect = cases
                .first()
                .and_then(|c| c.get("expect"))
                .and_then(|e| e.as_str())
                .unwrap_or("");
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
    }
    Ok(())
}
