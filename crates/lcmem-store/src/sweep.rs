//! Leftovers of killed writers, cleaned at the next write: temporary files
//! of an atomic rewrite (`.lcmem-tmp-*`, see [`crate::jsonl::atomic_write`])
//! and recall's build folders (`recall-v1.build-<pid>`, `recall-v1.old-<pid>`).
//!
//! A writer killed between creating one and renaming it away leaves it for
//! good, and it may hold a whole copy of a session or of MEMORY.md (which
//! forget must not leave behind either). The rule is kept simple and safe:
//! a temporary file is removed once it is older than [`TEMP_AGE`] (no
//! rewrite takes minutes), a build folder once the process named in it is
//! gone (`/proc/<pid>`, Linux only; elsewhere build folders are left). It
//! runs under the project's write lock, once per process and store, and
//! every failure is ignored: it tidies, it never stops a write.

use std::path::{Path, PathBuf};
use std::time::Duration;

use crate::jsonl::TEMP_PREFIX;
use crate::lock::WriteLock;

/// Where a store's leftovers may be: the store names its own folders
/// (`Store::sweep_places`), so the sweep knows nothing of its layout.
pub(crate) struct Places {
    /// The project's folder, which keys "once per process".
    pub store_dir: PathBuf,
    /// Folders that may hold temporary files of an atomic rewrite.
    pub temp_folders: Vec<PathBuf>,
    /// The folder that may hold recall's build folders.
    pub cache: PathBuf,
    /// Their name before `.build-<pid>` or `.old-<pid>`: the index folder's.
    pub build_stem: &'static str,
}

/// How old a temporary file must be before it counts as a dead writer's.
pub const TEMP_AGE: Duration = Duration::from_secs(10 * 60);

/// What a sweep removed.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct Swept {
    pub temp_files: usize,
    pub build_folders: usize,
}

/// [`sweep`], the first time this process takes `store`'s lock. Listing the
/// store's folders (the sessions folder may hold thousands of files) at
/// every write would make `lcmem seal --all` quadratic; a writer killed
/// earlier is swept by the next process that writes.
pub(crate) fn sweep_once(places: &Places, lock: &WriteLock) {
    static SWEPT: std::sync::Mutex<Vec<PathBuf>> = std::sync::Mutex::new(Vec::new());
    let mut swept = SWEPT.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
    if !swept.contains(&places.store_dir) {
        swept.push(places.store_dir.clone());
        sweep(places, lock);
    }
}

/// Removes dead writers' temporary files and build folders from `places`.
pub(crate) fn sweep(places: &Places, _lock: &WriteLock) -> Swept {
    let mut swept = Swept::default();
    for dir in &places.temp_folders {
        for (path, name) in entries(dir) {
            if !name.starts_with(TEMP_PREFIX) {
                continue;
            }
            let old = std::fs::symlink_metadata(&path)
                .ok()
                .filter(|m| m.is_file())
                .and_then(|m| m.modified().ok())
                .is_some_and(|t| crate::ambient::since(t) > TEMP_AGE);
            if old && std::fs::remove_file(&path).is_ok() {
                swept.temp_files += 1;
            }
        }
    }
    for (path, name) in entries(&places.cache) {
        let Some(pid) = build_folder_pid(places.build_stem, &name) else { continue };
        let is_dir = std::fs::symlink_metadata(&path).is_ok_and(|m| m.is_dir());
        if is_dir && !process_alive(pid) && std::fs::remove_dir_all(&path).is_ok() {
            swept.build_folders += 1;
        }
    }
    swept
}

fn entries(dir: &Path) -> Vec<(PathBuf, String)> {
    let Ok(read) = std::fs::read_dir(dir) else { return Vec::new() };
    read.filter_map(|e| e.ok()).filter_map(|e| e.file_name().into_string().ok().map(|name| (e.path(), name))).collect()
}

/// The pid in `recall-v1.build-<pid>` or `recall-v1.old-<pid>`.
fn build_folder_pid(stem: &str, name: &str) -> Option<u32> {
    let rest = name.strip_prefix(stem)?;
    let pid = rest.strip_prefix(".build-").or_else(|| rest.strip_prefix(".old-"))?;
    pid.parse().ok()
}

/// Whether process `pid` may still be running. Without `/proc` (not Linux,
/// or not mounted) every process counts as alive: nothing is removed.
fn process_alive(pid: u32) -> bool {
    if pid == std::process::id() || !cfg!(target_os = "linux") || !Path::new("/proc/self").exists() {
        return true;
    }
    Path::new("/proc").join(pid.to_string()).exists()
}

#[cfg(test)]
mod tests {
    use std::time::SystemTime;

    use super::*;

    #[test]
    fn build_folder_names_give_their_pid() {
        assert_eq!(build_folder_pid("recall-v1", "recall-v1.build-42"), Some(42));
        assert_eq!(build_folder_pid("recall-v1", "recall-v1.old-7"), Some(7));
        assert_eq!(build_folder_pid("recall-v1", "recall-v1"), None);
        assert_eq!(build_folder_pid("recall-v1", "recall-v1.build-x"), None);
    }

    #[test]
    fn old_temp_files_and_dead_build_folders_go_young_ones_and_live_ones_stay() {
        let (_dir, store) = crate::store::temp_store();
        let lock = store.lock().unwrap();
        let memory = store.memory_dir();
        let old = memory.join(".lcmem-tmp-old");
        let young = memory.join(".lcmem-tmp-young");
        std::fs::write(&old, "a copy").unwrap();
        std::fs::write(&young, "a copy").unwrap();
        let past = SystemTime::now() - TEMP_AGE - Duration::from_secs(60);
        std::fs::File::options().write(true).open(&old).unwrap().set_modified(past).unwrap();
        let dead = store.cache_dir().join("recall-v1.build-999999999");
        let live = store.cache_dir().join(format!("recall-v1.build-{}", std::process::id()));
        std::fs::create_dir_all(&dead).unwrap();
        std::fs::create_dir_all(&live).unwrap();
        let swept = sweep(&store.sweep_places(), &lock);
        assert_eq!(swept, Swept { temp_files: 1, build_folders: 1 });
        assert!(!old.exists() && young.exists() && !dead.exists() && live.exists());
    }
}
