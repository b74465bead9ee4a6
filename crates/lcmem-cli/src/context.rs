//! What every command needs: where the store is, which project, what time it is.

use std::path::PathBuf;

use anyhow::{Context as _, bail};
use jiff::Timestamp;
use lcmem::Store;

#[derive(Clone)]
pub struct Context {
    home: Option<PathBuf>,
    project: Option<PathBuf>,
}

impl Context {
    pub fn new(home: Option<PathBuf>, project: Option<PathBuf>) -> Context {
        Context { home, project }
    }

    /// The store root: `--home`, else `$LEVELCODE_HOME`, else `~/.levelcode`.
    pub fn home(&self) -> anyhow::Result<PathBuf> {
        if let Some(home) = &self.home {
            return Ok(home.clone());
        }
        if let Some(home) = std::env::var_os("LEVELCODE_HOME").filter(|h| !h.is_empty()) {
            return Ok(PathBuf::from(home));
        }
        match std::env::var_os("HOME").filter(|h| !h.is_empty()) {
            Some(user) => Ok(PathBuf::from(user).join(".levelcode")),
            None => bail!("cannot find the store: set LEVELCODE_HOME or pass --home DIR"),
        }
    }

    /// The project named with `--project`, if one was.
    pub fn explicit_project(&self) -> Option<&std::path::Path> {
        self.project.as_deref()
    }

    pub fn project_path(&self) -> PathBuf {
        self.project.clone().unwrap_or_else(|| PathBuf::from("."))
    }

    /// The project's store: `--project` (a path, or a store slug), else the current directory.
    pub fn store(&self) -> anyhow::Result<Store> {
        let project = self.project_path();
        let home = self.home()?;
        let name = project.to_string_lossy();
        if !project.exists() && lcmem::is_slug(&name) && !home.join("sessions").join(&*name).is_dir() {
            bail!(
                "{name} is neither a folder here nor a store under {}: `lcmem project show` names a folder's store",
                home.join("sessions").display()
            );
        }
        Store::open(&home, &project).with_context(|| format!("cannot open the project at {}", project.display()))
    }

    /// "Now": `$LCMEM_NOW` when set (for reproducible runs), else the clock.
    pub fn now(&self) -> anyhow::Result<Timestamp> {
        match std::env::var("LCMEM_NOW") {
            Ok(s) if !s.is_empty() => s
                .parse::<Timestamp>()
                .with_context(|| format!("LCMEM_NOW={s:?} is not an RFC 3339 time like 2026-11-30T12:00:00Z")),
            _ => Ok(Timestamp::now()),
        }
    }
}
