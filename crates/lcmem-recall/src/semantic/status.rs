//! How far the semantic cache is, for another process to read. A build that
//! has texts to embed writes how far it has come to
//! `cache/semantic-v1.progress.json`, beside its lock, at most once a second;
//! `lcmem model status` and `lcmem doctor` read it while a build started in
//! the background runs. The file is only a report: the build removes it when
//! it ends, and one left behind by a build that did not end (killed, or
//! failed: then it says why) says where that build stopped. The next build
//! goes on from its last checkpoint, whatever the report says.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use jiff::Timestamp;
use serde::{Deserialize, Serialize};

use super::super::build::Progress;
use super::super::listing::list_sessions;
use super::super::memory_index::{Memory, MemoryFiles};
use super::cache;
use super::model::Encoder;
use crate::error::Result;
use crate::store::Store;

/// How often a running build rewrites its report.
const REPORT_EVERY: Duration = Duration::from_secs(1);

/// The lock a builder holds, beside the cache folder.
pub(super) fn lock_path(store: &Store) -> PathBuf {
    store.cache_dir().join(format!("{}.lock", cache::DIR_NAME))
}

/// Where a build reports, beside its lock.
pub(super) fn report_path(store: &Store) -> PathBuf {
    store.cache_dir().join(format!("{}.progress.json", cache::DIR_NAME))
}

/// What a build reports of itself.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct BuildProgress {
    /// The process building.
    pub pid: u32,
    pub started: Timestamp,
    pub updated: Timestamp,
    /// Texts embedded so far, of `total` (0 while the model loads).
    pub done: u64,
    pub total: u64,
    /// Why the build stopped, when it failed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
}

impl BuildProgress {
    /// The share done, as a whole percentage rounded down.
    pub fn percent(&self) -> u64 {
        (self.done * 100).checked_div(self.total).unwrap_or(0)
    }
}

/// Where the semantic cache of a project stands.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(tag = "state", rename_all = "snake_case")]
pub enum EmbedState {
    /// No embedding model is set (`recall.model`): recall is lexical.
    Off,
    /// A build runs now; its report, once it has texts to embed.
    Running { progress: Option<BuildProgress> },
    /// The last build did not end: killed (no `error`), or failed.
    Stopped { progress: BuildProgress },
    /// No build runs. `turns` have a vector; `current` when every turn,
    /// journal entry and fact has one (a model that does not load: false).
    Idle { turns: usize, current: bool },
}

/// Where the semantic cache of `store` stands now.
pub fn embed_state(store: &Store) -> Result<EmbedState> {
    let Some(model) = store.settings()?.recall_model else { return Ok(EmbedState::Off) };
    let report = read_report(&report_path(store));
    if building(&lock_path(store))? {
        return Ok(EmbedState::Running { progress: report });
    }
    if let Some(progress) = report {
        return Ok(EmbedState::Stopped { progress });
    }
    let folder = super::cache_dir(store);
    let Ok((identity, dim)) = Encoder::identify(&store.home().join(model)) else {
        return Ok(EmbedState::Idle { turns: cache::turns_in(&folder), current: false });
    };
    let files = list_sessions(store)?;
    let memory = Memory::read(&MemoryFiles::of(store))?;
    let texts: Vec<String> = memory.analyzed.units.iter().map(|&s| memory.text(s)).collect();
    Ok(match cache::up_to_date(&folder, &identity, dim, &files, &texts) {
        Some(turns) => EmbedState::Idle { turns, current: true },
        None => EmbedState::Idle { turns: cache::turns_in(&folder), current: false },
    })
}

/// Whether a build of `store`'s semantic cache runs now (in any process).
pub fn is_building(store: &Store) -> Result<bool> {
    building(&lock_path(store))
}

/// Whether a builder holds the lock at `path`. Asked with a shared lock held
/// for an instant; a builder that tries to start in that instant finds the
/// lock taken and leaves the work to the next write.
fn building(path: &Path) -> Result<bool> {
    let file = match std::fs::File::open(path) {
        Ok(file) => file,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(false),
        Err(source) => return Err(crate::error::Error::Io { path: path.to_path_buf(), source }),
    };
    match file.try_lock_shared() {
        Ok(()) => Ok(false),
        Err(std::fs::TryLockError::WouldBlock) => Ok(true),
        Err(std::fs::TryLockError::Error(source)) => Err(crate::error::Error::Io { path: path.to_path_buf(), source }),
    }
}

/// A report that cannot be read is no report: it never stops a build or a
/// status.
fn read_report(path: &Path) -> Option<BuildProgress> {
    serde_json::from_slice(&std::fs::read(path).ok()?).ok()
}

/// A [`Progress`] that passes everything on and keeps the report file.
pub(super) struct Reporter<'a> {
    inner: &'a mut dyn Progress,
    path: PathBuf,
    now: BuildProgress,
    written: Option<Instant>,
}

impl<'a> Reporter<'a> {
    pub(super) fn new(store: &Store, inner: &'a mut dyn Progress) -> Reporter<'a> {
        let at = Timestamp::now();
        let now = BuildProgress { pid: std::process::id(), started: at, updated: at, done: 0, total: 0, error: None };
        Reporter { inner, path: report_path(store), now, written: None }
    }

    /// A report is a courtesy: a write that fails costs the build nothing.
    fn write(&mut self) {
        self.now.updated = Timestamp::now();
        let json = serde_json::to_vec(&self.now).expect("a report serialises");
        let _ = crate::jsonl::atomic_write(&self.path, &json);
        self.written = Some(Instant::now());
    }

    /// The build failed: the report stays, and says why.
    pub(super) fn failed(mut self, why: &crate::error::Error) {
        self.now.error = Some(why.to_string());
        self.write();
    }

    /// The build ended: no report is left, not even one a stopped build
    /// left behind.
    pub(super) fn ended(self) {
        let _ = std::fs::remove_file(&self.path);
    }
}

impl Progress for Reporter<'_> {
    fn start(&mut self, what: &str, total: u64) {
        self.inner.start(what, total);
        self.now.total = total;
        self.now.done = 0;
        self.write();
    }

    fn advance(&mut self, units: u64) {
        self.inner.advance(units);
        self.now.done += units;
        if self.written.is_none_or(|at| at.elapsed() >= REPORT_EVERY) {
            self.write();
        }
    }

    fn finish(&mut self) {
        self.inner.finish();
    }
}
