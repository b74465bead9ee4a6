//! The store: where a project's sessions and memory live on disk.
//!
//! ```text
//! $LEVELCODE_HOME/                  (default ~/.levelcode)
//!   config.toml                     global settings
//!   sessions/<project-slug>/
//!     <session-id>.jsonl            one file per session, format v1
//!     config.toml                   this project's settings
//!     .lock                         the project's write lock
//!     memory/MEMORY.md              the always-on digest
//!     memory/journal.jsonl          one line per sealed session
//!     memory/facts.jsonl            fact observations and user actions
//!     cache/                        derived data; safe to delete at any time
//! ```

use std::path::{Path, PathBuf};

use crate::config::{ConfigFiles, Settings};
use crate::error::{Error, IoContext, Result};
use crate::guards::Guards;
use crate::jsonl;
use crate::lock::WriteLock;
use crate::project::Project;
pub use crate::reimport::Incoming;
use crate::session::{self, Session};

/// Recall's index folder's name under `cache/`. The version changes whenever
/// the analysis or the schema does, so an old index is simply ignored. Named
/// here, with the rest of the store's layout, because the symlink rule and
/// the sweep of dead build folders need it below recall.
pub const RECALL_INDEX_DIR: &str = "recall-v1";

/// The folder of the person's own memory under the store root.
pub const PERSON_DIR: &str = "person";

/// One project's corner of the store.
#[derive(Debug, Clone)]
pub struct Store {
    home: PathBuf,
    project: Project,
    dir: PathBuf,
    guards: Guards,
}

/// What importing one file did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ImportOutcome {
    Added {
        id: String,
    },
    /// The stored copy was a prefix of the file; the new lines were appended.
    Extended {
        id: String,
        lines: usize,
    },
    /// A converted transcript's stored copy was replaced by a new
    /// conversion of it (this build's converter reads more of it), lcmem's
    /// own status lines carried over; `lines` is the new copy's line count.
    Reconverted {
        id: String,
        lines: usize,
    },
    Unchanged {
        id: String,
    },
}

impl ImportOutcome {
    /// The stored session's id.
    pub fn id(&self) -> &str {
        match self {
            ImportOutcome::Added { id }
            | ImportOutcome::Extended { id, .. }
            | ImportOutcome::Reconverted { id, .. }
            | ImportOutcome::Unchanged { id } => id,
        }
    }

    /// Whether the import wrote anything.
    pub fn wrote(&self) -> bool {
        !matches!(self, ImportOutcome::Unchanged { .. })
    }
}

/// A store for a new project in a temporary folder, its sessions folder
/// made, for unit tests (this crate's, and the engine's through the
/// `temp-store` feature its tests turn on).
#[cfg(any(test, feature = "temp-store"))]
pub fn temp_store() -> (tempfile::TempDir, Store) {
    let dir = tempfile::tempdir().expect("a temporary folder");
    let project = dir.path().join("project");
    std::fs::create_dir_all(&project).expect("the project folder");
    let store = Store::open(&dir.path().join("home"), &project).expect("a store");
    std::fs::create_dir_all(store.dir()).expect("the sessions folder");
    (dir, store)
}

impl Store {
    /// The store for `project` under the root `home`. Nothing is created
    /// until something is written.
    pub fn new(home: &Path, project: Project) -> Store {
        let dir = home.join("sessions").join(&project.slug);
        Store { home: home.to_path_buf(), project, dir, guards: Guards::default() }
    }

    /// The person's own memory under the root `home`: facts that hold in
    /// every project (`lcmem facts add --user`), in `person/memory/facts.jsonl`,
    /// the same event log as a project's. Its folder is no project's: it has
    /// no checkout, no sessions, and cross-project recall does not list it.
    pub fn person(home: &Path) -> Store {
        let dir = home.join(PERSON_DIR);
        let project = Project { root: dir.clone(), slug: PERSON_DIR.to_string() };
        Store { home: home.to_path_buf(), project, dir, guards: Guards::default() }
    }

    /// Whether this is the person's store ([`Store::person`]).
    pub fn is_person(&self) -> bool {
        self.project.slug == PERSON_DIR && self.dir == self.home.join(PERSON_DIR)
    }

    /// The same store with other guards: only for proving the red-team
    /// suite's cases non-vacuous. Never switch a guard off anywhere else.
    #[doc(hidden)]
    pub fn with_guards(mut self, guards: Guards) -> Store {
        self.guards = guards;
        self
    }

    pub fn guards(&self) -> &Guards {
        &self.guards
    }

    /// A text read from the store (a session's title, a line a person or an
    /// agent said) as a front-end may show it: what the write boundary would
    /// keep of it, redacted and without control characters, even if the file
    /// was edited by hand since it was written.
    pub fn shown(&self, text: &str) -> String {
        crate::scrub::scrub_text(&self.guards, text)
    }

    /// Resolves `project_path` to its project (a path inside it, or a store
    /// slug: see [`Project::resolve_in`]) and opens its store.
    pub fn open(home: &Path, project_path: &Path) -> Result<Store> {
        Ok(Store::new(home, Project::resolve_in(home, project_path)?))
    }

    pub fn home(&self) -> &Path {
        &self.home
    }
    pub fn project(&self) -> &Project {
        &self.project
    }
    /// The project's folder: `sessions/<slug>/`.
    pub fn dir(&self) -> &Path {
        &self.dir
    }
    pub fn session_path(&self, id: &str) -> PathBuf {
        self.dir.join(format!("{id}.jsonl"))
    }
    pub fn memory_dir(&self) -> PathBuf {
        self.dir.join("memory")
    }
    pub fn journal_path(&self) -> PathBuf {
        self.memory_dir().join("journal.jsonl")
    }
    pub fn facts_path(&self) -> PathBuf {
        self.memory_dir().join("facts.jsonl")
    }
    pub fn memory_md_path(&self) -> PathBuf {
        self.memory_dir().join("MEMORY.md")
    }
    /// Derived data only: deleting this folder loses nothing.
    pub fn cache_dir(&self) -> PathBuf {
        self.dir.join("cache")
    }
    /// The tombstones of forgotten sessions (`crate::tombstone`).
    pub fn tombstones_path(&self) -> PathBuf {
        self.memory_dir().join(crate::tombstone::FILE_NAME)
    }
    /// The tombstone of `session`, if it was forgotten and not imported
    /// again by hand since.
    pub fn tombstone(&self, session: &str) -> Result<Option<crate::tombstone::Tombstone>> {
        crate::tombstone::find(&self.tombstones_path(), session)
    }
    /// Lifts `session`'s tombstone: the person imports it again on purpose.
    /// Returns the tombstone lifted, if there was one.
    pub fn lift_tombstone(&self, session: &str) -> Result<Option<crate::tombstone::Tombstone>> {
        crate::tombstone::lift(&self.lock()?, &self.tombstones_path(), session)
    }
    /// Recall's index: `cache/recall-v1/` ([`RECALL_INDEX_DIR`]).
    pub fn recall_index_dir(&self) -> PathBuf {
        self.cache_dir().join(RECALL_INDEX_DIR)
    }

    pub fn config_files(&self) -> ConfigFiles {
        ConfigFiles { global: self.home.join("config.toml"), project: self.dir.join("config.toml") }
    }

    pub fn settings(&self) -> Result<Settings> {
        self.config_files().load()
    }

    /// Fails with [`Error::MemoryOff`] when memory is switched off for this
    /// project. Asked in three places only: by every writer as it takes the
    /// write lock ([`Store::lock`], [`Store::try_lock`]); by the engine's
    /// front door (`lcmem::Memory`), once for each piece of work it is asked
    /// to do; and by recall's embedding cache, which is written under a lock
    /// of its own.
    pub fn ensure_enabled(&self) -> Result<Settings> {
        let settings = self.settings()?;
        match settings.disabled_by {
            None => Ok(settings),
            Some(scope) => Err(Error::MemoryOff { scope, file: self.config_files().path(scope).to_path_buf() }),
        }
    }

    /// Checks that memory is on and that no folder or file of the store is
    /// a symbolic link leading out of it, then takes the project's write
    /// lock and sweeps away what killed writers left ([`crate::sweep`]).
    pub fn lock(&self) -> Result<WriteLock> {
        let lock = WriteLock::acquire(&self.ready_to_write()?)?;
        crate::sweep::sweep_once(&self.sweep_places(), &lock);
        Ok(lock)
    }

    /// The folders where a killed writer may have left something.
    pub(crate) fn sweep_places(&self) -> crate::sweep::Places {
        crate::sweep::Places {
            store_dir: self.dir.clone(),
            temp_folders: vec![
                self.dir.clone(),
                self.memory_dir(),
                self.memory_dir().join("history"),
                self.cache_dir(),
                // The importers' per-transcript states (`import::growing`).
                self.cache_dir().join("transcripts"),
            ],
            cache: self.cache_dir(),
            build_stem: RECALL_INDEX_DIR,
        }
    }

    /// Like [`Store::lock`], but `None` instead of waiting when another
    /// writer holds the lock.
    pub fn try_lock(&self) -> Result<Option<WriteLock>> {
        WriteLock::try_acquire(&self.ready_to_write()?)
    }

    /// What every writer checks before it takes the lock: memory is on and
    /// no link leads out of the store. Returns the lock file's path.
    fn ready_to_write(&self) -> Result<PathBuf> {
        self.ensure_enabled()?;
        self.refuse_links_outside()?;
        std::fs::create_dir_all(self.memory_dir()).at(self.memory_dir())?;
        Ok(self.dir.join(".lock"))
    }

    /// The symlink rule ([`crate::confine`]) for the project's folder (it may
    /// not lead out of `sessions/`), its folders and every fixed file the
    /// engine writes. Session files are checked where they are written.
    fn refuse_links_outside(&self) -> Result<()> {
        let sessions = self.home.join("sessions");
        if sessions.exists() {
            crate::confine::refuse_link_outside(&self.dir, &sessions)?;
        }
        if !self.dir.exists() {
            return Ok(());
        }
        let memory = self.memory_dir();
        let mut paths = vec![memory.clone(), self.cache_dir(), self.dir.join(".lock"), self.dir.join("config.toml")];
        paths.extend([memory.join("history"), self.recall_index_dir()]);
        for file in [self.journal_path(), self.facts_path()] {
            paths.push(jsonl::torn_sidecar(&file));
            paths.push(file);
        }
        paths.extend(["MEMORY.md", "MEMORY.state.json", "MEMORY.state.json.next"].iter().map(|name| memory.join(name)));
        crate::confine::refuse_links_outside(&self.dir, &paths)
    }

    /// The symlink rule for one session's file (and its torn-line sidecar).
    pub(crate) fn refuse_session_link(&self, id: &str) -> Result<()> {
        let path = self.session_path(id);
        crate::confine::refuse_links_outside(&self.dir, &[jsonl::torn_sidecar(&path), path])
    }

    /// The ids of every session in the store, sorted.
    pub fn session_ids(&self) -> Result<Vec<String>> {
        let entries = match std::fs::read_dir(&self.dir) {
            Ok(e) => e,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
            Err(e) => return Err(e).at(&self.dir),
        };
        let mut ids = Vec::new();
        for entry in entries {
            let entry = entry.at(&self.dir)?;
            let name = entry.file_name();
            let Some(name) = name.to_str() else { continue };
            if let Some(id) = name.strip_suffix(".jsonl")
                && session::validate_id(id).is_ok()
            {
                ids.push(id.to_string());
            }
        }
        ids.sort();
        Ok(ids)
    }

    /// Finds a session by its full id or a unique prefix of it.
    pub fn resolve_session(&self, query: &str) -> Result<String> {
        let ids = self.session_ids()?;
        if ids.iter().any(|id| id == query) {
            return Ok(query.to_string());
        }
        let matches: Vec<String> = ids.into_iter().filter(|id| id.starts_with(query)).collect();
        match matches.len() {
            0 => Err(Error::NoSuchSession { query: query.to_string() }),
            1 => Ok(matches.into_iter().next().expect("one match")),
            _ => Err(Error::AmbiguousSession { query: query.to_string(), candidates: matches }),
        }
    }

    pub fn read_session(&self, id: &str) -> Result<Session> {
        Session::read(&self.session_path(id))
    }

    /// Records a status change (done, archived, pinned, unpinned) in the
    /// session's own file.
    pub fn append_status(
        &self,
        lock: &WriteLock,
        id: &str,
        status: session::Status,
        ts: jiff::Timestamp,
    ) -> Result<()> {
        let line = session::Line::Status { status, ts: Some(ts) };
        self.refuse_session_link(id)?;
        crate::scrub::append_records(&self.guards, lock, &self.session_path(id), &[line])?;
        self.mark_sessions_changed();
        Ok(())
    }

    /// Moves the sessions folder's modification time on, after a session
    /// file grew in place (which, unlike adding, replacing or removing one,
    /// leaves the folder's time alone). Recall trusts its index's list of the
    /// session files while the folder keeps the time it had when the list
    /// was checked, instead of a stat per file (see `recall::listing`). A
    /// marker file is created and removed, which moves the time on with no
    /// more right than creating a session file needs. Failing is harmless to
    /// the write itself; the next full listing (any index write) sees it.
    pub(crate) fn mark_sessions_changed(&self) {
        let marker = self.dir().join(".lcmem-sessions-changed");
        if std::fs::write(&marker, b"").is_ok() {
            let _ = std::fs::remove_file(&marker);
        }
    }
}
