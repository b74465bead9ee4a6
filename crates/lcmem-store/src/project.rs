//! Which project a command is about, and the name of its folder in the store.
//!
//! One repository, one memory: a folder anywhere inside a git repository
//! (the main checkout, a subfolder, a linked worktree) belongs to the
//! repository, which git's *common directory* names. See docs/store.md.

use std::path::{Path, PathBuf};

use sha2::{Digest, Sha256};

use crate::error::{Error, IoContext, Result};

/// A project: the folder a user works in, resolved to its repository.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Project {
    /// Canonical path of the project's root: the repository's main checkout
    /// (for a linked worktree too), or the folder itself outside git.
    pub root: PathBuf,
    /// The folder name under `sessions/`: see [`slug_for`].
    pub slug: String,
}

impl Project {
    /// Resolves `path` to its project: canonicalised, then walked up to the
    /// nearest folder holding `.git`, then to the repository that `.git`
    /// belongs to (see [`repository_root`]). A path outside any repository is
    /// its own project.
    pub fn resolve(path: &Path) -> Result<Project> {
        let canonical = std::fs::canonicalize(path).at(path)?;
        let root = repository_root(&canonical).unwrap_or(canonical);
        let slug = slug_for(&root);
        Ok(Project { root, slug })
    }

    /// [`Project::resolve`] for the store under `home`, which also knows
    /// what came before: `path` may be a store slug (`p-ec491716`) naming an
    /// existing store, for sessions recorded in a folder this machine does not
    /// have; and a store made under the earlier rule (the slug of the
    /// checkout's own top level, which differed for a linked worktree or a
    /// folder below a submodule) is renamed to the repository's slug when the
    /// repository has no store yet, so nothing recorded is lost. If the rename
    /// fails, the old store is used as it is.
    pub fn resolve_in(home: &Path, path: &Path) -> Result<Project> {
        if !path.exists()
            && let Some(project) = Project::from_slug(home, &path.to_string_lossy())
        {
            return Ok(project);
        }
        let mut project = Project::resolve(path)?;
        let canonical = std::fs::canonicalize(path).at(path)?;
        let Some(top) = checkout_top(&canonical) else { return Ok(project) };
        let legacy = slug_for(&top);
        let sessions = home.join("sessions");
        let (new, old) = (sessions.join(&project.slug), sessions.join(&legacy));
        let carry_over = legacy != project.slug && !new.exists() && is_real_dir(&old);
        if carry_over && std::fs::rename(&old, &new).is_err() && !new.exists() {
            project.slug = legacy;
        }
        Ok(project)
    }

    /// The project whose store is `sessions/<slug>/` under `home`, when `slug`
    /// is a slug (`<name>-<8 hex digits>`) and that store exists. Its root is
    /// then the store's folder: the folder it was recorded in is not known.
    pub fn from_slug(home: &Path, slug: &str) -> Option<Project> {
        let dir = home.join("sessions").join(slug);
        (is_slug(slug) && is_real_dir(&dir)).then(|| Project { root: dir, slug: slug.to_string() })
    }

    /// The display name of the project: the last component of its root.
    pub fn name(&self) -> String {
        self.root.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_else(|| "root".to_string())
    }
}

/// The slugs of every project that has a store under `home`, sorted.
pub fn slugs(home: &Path) -> Result<Vec<String>> {
    let dir = home.join("sessions");
    let entries = match std::fs::read_dir(&dir) {
        Ok(entries) => entries,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
        Err(e) => return Err(Error::Io { path: dir, source: e }),
    };
    let mut slugs: Vec<String> = entries
        .flatten()
        .filter_map(|e| e.file_name().to_str().map(str::to_string))
        .filter(|name| is_slug(name) && is_real_dir(&dir.join(name)))
        .collect();
    slugs.sort();
    Ok(slugs)
}

/// Whether `text` has the shape of a slug: `[a-z0-9._-]+` ending in `-` and
/// 8 lowercase hex digits.
pub fn is_slug(text: &str) -> bool {
    let Some((name, hash)) = text.rsplit_once('-') else { return false };
    !name.is_empty()
        && hash.len() == 8
        && hash.chars().all(|c| c.is_ascii_hexdigit() && !c.is_ascii_uppercase())
        && name.chars().all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || "._-".contains(c))
}

fn is_real_dir(path: &Path) -> bool {
    std::fs::symlink_metadata(path).is_ok_and(|m| m.is_dir())
}

/// The top level of the checkout `start` is in: the nearest folder holding
/// `.git` (a directory, or a file for worktrees and submodules). This was the
/// project root before one memory per repository, and is still where a
/// checkout's own files (`.claude/settings.json`, `.mcp.json`) live.
pub fn checkout_top(start: &Path) -> Option<PathBuf> {
    start.ancestors().find(|dir| dir.join(".git").exists()).map(Path::to_path_buf)
}

/// The repository `start` is in, as the folder its memory is named after.
/// The git directory is `.git` itself, or the one a `.git` file names
/// (`gitdir: PATH`, relative to the folder holding it); its `commondir` file,
/// when there is one (a linked worktree), names the common directory
/// (relative to the git directory). The common directory `…/X/.git` gives
/// `…/X`, the main checkout. A common directory of another name is a bare
/// repository's (its worktrees share it, and it is the root) unless it is the
/// checkout's own git directory (a submodule, or `--separate-git-dir`): then
/// the checkout's top level is. Files that cannot be read leave the top level.
pub fn repository_root(start: &Path) -> Option<PathBuf> {
    let top = checkout_top(start)?;
    let dotgit = top.join(".git");
    let git_dir = if dotgit.is_dir() {
        dotgit
    } else {
        let text = std::fs::read_to_string(&dotgit).ok();
        let named = text.as_deref().and_then(|t| t.lines().find_map(|l| l.strip_prefix("gitdir:")));
        let Some(named) = named.map(str::trim).filter(|n| !n.is_empty()) else { return Some(top) };
        match std::fs::canonicalize(top.join(named)) {
            Ok(dir) => dir,
            Err(_) => return Some(top),
        }
    };
    let common = match std::fs::read_to_string(git_dir.join("commondir")) {
        Ok(text) if !text.trim().is_empty() => {
            std::fs::canonicalize(git_dir.join(text.trim_end_matches(['\n', '\r']))).unwrap_or(git_dir.clone())
        }
        _ => git_dir.clone(),
    };
    if common.file_name().is_some_and(|n| n == ".git") {
        return Some(common.parent().map_or(top, Path::to_path_buf));
    }
    Some(if common != git_dir { common } else { top })
}

/// What [`move_store`] did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Moved {
    pub from: String,
    pub to: Project,
}

/// Keeps a moved project's memory: renames the store of `old` (the folder
/// the project was in, which need not exist any more, or its store's slug)
/// to the slug of `new` (the folder it is in now). Refuses when `old` has no
/// store, or when `new` already has one (nothing is merged or overwritten).
pub fn move_store(home: &Path, old: &Path, new: &Path) -> Result<Moved> {
    let sessions = home.join("sessions");
    let from = if !old.exists() && Project::from_slug(home, &old.to_string_lossy()).is_some() {
        old.to_string_lossy().into_owned()
    } else if old.exists() {
        Project::resolve(old)?.slug
    } else {
        let absolute =
            if old.is_absolute() { old.to_path_buf() } else { crate::ambient::current_dir().at(".")?.join(old) };
        slug_for(&normalise(&absolute))
    };
    let to = Project::resolve(new)?;
    let (source, target) = (sessions.join(&from), sessions.join(&to.slug));
    if !is_real_dir(&source) {
        return Err(Error::NoProjectStore { project: old.to_path_buf(), dir: source });
    }
    if from == to.slug {
        return Ok(Moved { from, to });
    }
    if target.exists() {
        return Err(Error::ProjectStoreExists { project: new.to_path_buf(), dir: target });
    }
    std::fs::rename(&source, &target).at(&source)?;
    crate::jsonl::sync_dir(&sessions)?;
    Ok(Moved { from, to })
}

/// `path` with `.` and `..` taken out, without asking the file system (the
/// folder may be gone).
fn normalise(path: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for component in path.components() {
        match component {
            std::path::Component::CurDir => {}
            std::path::Component::ParentDir => {
                out.pop();
            }
            other => out.push(other),
        }
    }
    out
}

/// The slug is `<name>-<hash>`: the root's folder name lowercased with
/// anything outside `[a-z0-9._-]` turned into `-` (at most 40 characters),
/// then the first 8 hex digits of the SHA-256 of the canonical path's bytes.
/// The name makes the store browsable by hand; the hash keeps two projects
/// that share a folder name apart. Same path, same slug, on every run.
pub fn slug_for(root: &Path) -> String {
    let raw = root.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    let mut name: String = raw
        .chars()
        .map(|c| {
            let c = c.to_ascii_lowercase();
            if c.is_ascii_alphanumeric() || c == '.' || c == '_' || c == '-' { c } else { '-' }
        })
        .take(40)
        .collect();
    let trimmed = name.trim_matches(|c| c == '-' || c == '.').to_string();
    name = if trimmed.is_empty() { "project".to_string() } else { trimmed };
    let digest = Sha256::digest(root.as_os_str().as_encoded_bytes());
    let hash: String = digest.iter().take(4).map(|b| format!("{b:02x}")).collect();
    format!("{name}-{hash}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn slug_is_readable_and_stable() {
        let a = slug_for(Path::new("/home/ana/Code/My Shop"));
        assert!(a.starts_with("my-shop-"), "{a}");
        assert_eq!(a.len(), "my-shop-".len() + 8);
        assert_eq!(a, slug_for(Path::new("/home/ana/Code/My Shop")));
        assert_ne!(a, slug_for(Path::new("/home/bo/Code/My Shop")));
    }

    #[test]
    fn slug_of_odd_names_is_safe() {
        assert!(slug_for(Path::new("/")).starts_with("project-"));
        assert!(slug_for(Path::new("/x/..hidden..")).starts_with("hidden-"));
        let s = slug_for(Path::new("/x/プロジェクト"));
        assert!(s.chars().all(|c| c.is_ascii_alphanumeric() || "-._".contains(c)), "{s}");
    }

    fn write(path: &Path, text: &str) {
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
    }

    #[test]
    fn a_linked_worktree_and_a_subfolder_resolve_to_the_main_checkout() {
        let dir = tempfile::tempdir().unwrap();
        let base = std::fs::canonicalize(dir.path()).unwrap();
        let main = base.join("shop");
        std::fs::create_dir_all(main.join(".git/worktrees/feature")).unwrap();
        std::fs::create_dir_all(main.join("src/deep")).unwrap();
        // As `git worktree add ../feature` writes it; commondir is relative.
        write(&base.join("feature/.git"), &format!("gitdir: {}\n", main.join(".git/worktrees/feature").display()));
        write(&main.join(".git/worktrees/feature/commondir"), "../..\n");
        // A relative gitdir line resolves against the folder holding `.git`.
        write(&base.join("other/.git"), "gitdir: ../shop/.git/worktrees/feature\n");
        let shop = Project::resolve(&main).unwrap();
        assert_eq!(shop.slug, slug_for(&main), "the main checkout keeps the slug it always had");
        for path in [main.join("src/deep"), base.join("feature"), base.join("other")] {
            assert_eq!(Project::resolve(&path).unwrap(), shop, "{}", path.display());
        }
        // A submodule's git directory has no commondir: it is its own project.
        write(&base.join("sub/.git"), "gitdir: ../shop/.git/modules/sub\n");
        std::fs::create_dir_all(main.join(".git/modules/sub")).unwrap();
        assert_eq!(Project::resolve(&base.join("sub")).unwrap().root, base.join("sub"));
        // A `.git` file that names nothing readable leaves the top level.
        write(&base.join("broken/.git"), "nonsense");
        assert_eq!(Project::resolve(&base.join("broken")).unwrap().root, base.join("broken"));
    }

    #[test]
    fn a_store_under_the_old_rule_is_renamed_and_a_slug_names_a_store() {
        let dir = tempfile::tempdir().unwrap();
        let base = std::fs::canonicalize(dir.path()).unwrap();
        let main = base.join("shop");
        std::fs::create_dir_all(main.join(".git/worktrees/wt")).unwrap();
        write(&base.join("wt/.git"), "gitdir: ../shop/.git/worktrees/wt\n");
        write(&main.join(".git/worktrees/wt/commondir"), "../..");
        let home = base.join("home");
        let old = home.join("sessions").join(slug_for(&base.join("wt")));
        write(&old.join("s1.jsonl"), "{}\n");
        let project = Project::resolve_in(&home, &base.join("wt")).unwrap();
        assert_eq!(project.slug, slug_for(&main));
        assert!(home.join("sessions").join(&project.slug).join("s1.jsonl").exists() && !old.exists());
        let by_slug = Project::resolve_in(&home, Path::new(&project.slug)).unwrap();
        assert_eq!(by_slug.slug, project.slug);
        assert!(Project::from_slug(&home, "no-such-00000000").is_none());
        assert!(!is_slug("../x-00000000") && !is_slug("shop") && is_slug("p-ec491716"));
    }

    #[test]
    fn a_moved_project_keeps_its_store() {
        let dir = tempfile::tempdir().unwrap();
        let base = std::fs::canonicalize(dir.path()).unwrap();
        let home = base.join("home");
        write(&home.join("sessions").join(slug_for(&base.join("old"))).join("s.jsonl"), "{}\n");
        std::fs::create_dir_all(base.join("new")).unwrap();
        let moved = move_store(&home, &base.join("old"), &base.join("new")).unwrap();
        assert_eq!(moved.to.slug, slug_for(&base.join("new")));
        assert!(home.join("sessions").join(&moved.to.slug).join("s.jsonl").exists());
        assert!(matches!(move_store(&home, &base.join("old"), &base.join("new")), Err(Error::NoProjectStore { .. })));
    }
}
